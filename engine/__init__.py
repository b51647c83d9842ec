"""Rules engines: one package per game over a small shared core (no I/O, no search, no gRPC)."""

from boardbot.engine.api import CHANCE, TERMINAL, Action, Game, State, View
from boardbot.engine.base import BaseGame
from boardbot.engine.errors import (
    BoardbotError,
    EngineError,
    GameDefinitionError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from boardbot.engine.game_type import Chance, GameType, Information
from boardbot.engine.registry import get_game, list_games, register_game

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "BaseGame",
    "BoardbotError",
    "Chance",
    "EngineError",
    "Game",
    "GameDefinitionError",
    "GameType",
    "IllegalActionError",
    "Information",
    "InvalidActionError",
    "InvalidStateError",
    "State",
    "View",
    "get_game",
    "list_games",
    "register_game",
]
