"""Name → Game registry; adding a game is one line here (or BOARDBOT_EXTRA_GAMES)."""

from __future__ import annotations

import importlib

from boardbot.engine.api import Game
from boardbot.engine.base import check_game
from boardbot.engine.errors import GameDefinitionError, UnknownGameError, echo

_GAMES: dict[str, str] = {
    "leda": "boardbot.engine.leda.game:LedaGame",
    "legend_raiders": "boardbot.engine.legend_raiders.game:LegendRaidersGame",
}
_CACHE: dict[str, Game] = {}


def register_game(name: str, target: str) -> None:
    """Register a game by import path, `package.module:Attr`, under `name`.

    `Attr` is a game class (instantiated without arguments) or a ready game object; it is
    loaded and checked against its declared GameType by the first `get_game(name)`.
    """
    _GAMES[name] = target
    _CACHE.pop(name, None)


def unregister_game(name: str) -> None:
    """Remove a game registered with `register_game` (unknown names are an error)."""
    if name not in _GAMES:
        raise UnknownGameError(f"unknown game {echo(name)}")
    del _GAMES[name]
    _CACHE.pop(name, None)


def list_games() -> list[str]:
    """Names of every registered game."""
    return sorted(_GAMES)


def load_game(target: str) -> Game:
    """The game object `target` (`package.module:Attr`) names, checked against its GameType."""
    module_name, colon, attr = target.partition(":")
    if not colon or not module_name or not attr:
        raise GameDefinitionError(f"game target {echo(target)} is not 'package.module:Attr'")
    found = getattr(importlib.import_module(module_name), attr)
    game = found() if isinstance(found, type) else found
    check_game(game)
    return game


def get_game(name: str) -> Game:
    """The (stateless, shared) Game object registered under `name`."""
    if name not in _CACHE:
        target = _GAMES.get(name)
        if target is None:
            raise UnknownGameError(f"unknown game {echo(name)}; known: {', '.join(list_games())}")
        _CACHE[name] = load_game(target)
    return _CACHE[name]
