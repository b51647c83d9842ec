"""Each game's component data for the page: `GET /api/games/<name>/components` answers the
data file the game declares (`GameType.components`), the very file its engines read."""

from __future__ import annotations

import re
from pathlib import Path

from boardbot.engine.errors import BoardbotError
from boardbot.engine.registry import get_game, list_games

PREFIX = "/api/games/"
"""Where the route's paths start."""

_PATH = re.compile(r"/api/games/([A-Za-z0-9_-]{1,64})/components")
"""A game name of plain characters, as registered names are."""


def find(path: str) -> Path | None:
    """The component data file a request path names, or None when it names none."""
    found = _PATH.fullmatch(path)
    if found is None or found.group(1) not in list_games():
        return None
    try:
        return get_game(found.group(1)).game_type.components
    except BoardbotError:  # a registered game that does not load has no data to give
        return None
