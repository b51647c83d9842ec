"""Rules engines: one package per game over a small shared core (no I/O, no search, no gRPC)."""

from engine.api import CHANCE, TERMINAL, Action, Game, State
from engine.errors import EngineError, IllegalActionError, InvalidActionError, InvalidStateError
from engine.registry import get_game, list_games, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "EngineError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidStateError",
    "State",
    "get_game",
    "list_games",
    "register_game",
]
