"""Rules engines: one package per game over a small shared core (no I/O, no search, no gRPC)."""

from boardbot.engine.api import CHANCE, TERMINAL, Action, Game, State
from boardbot.engine.errors import (
    BoardbotError,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from boardbot.engine.registry import get_game, list_games, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "BoardbotError",
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
