"""Name → Game registry; adding a game is one line here."""

from __future__ import annotations

import importlib

from boardbot.engine.api import Game
from boardbot.engine.errors import UnknownGameError, echo

_GAMES: dict[str, str] = {
    "leda": "boardbot.engine.leda.game:LedaGame",
    "legend_raiders": "boardbot.engine.legend_raiders.game:LegendRaidersGame",
}
_CACHE: dict[str, Game] = {}


def register_game(name: str, target: str) -> None:
    """Register a game class by import path (`package.module:ClassName`) under `name`."""
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


def get_game(name: str) -> Game:
    """The (stateless, shared) Game object registered under `name`."""
    if name not in _CACHE:
        target = _GAMES.get(name)
        if target is None:
            raise UnknownGameError(f"unknown game {echo(name)}; known: {', '.join(list_games())}")
        module_name, _, attr = target.partition(":")
        _CACHE[name] = getattr(importlib.import_module(module_name), attr)()
    return _CACHE[name]
