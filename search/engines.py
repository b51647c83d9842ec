"""Which implementation runs a search: the native core (Rust) where a game has one, or Python."""

from __future__ import annotations

import enum
import importlib
from functools import cache
from types import ModuleType
from typing import Any

from boardbot.engine.api import Game
from boardbot.engine.errors import BoardbotError, UnknownGameError
from boardbot.engine.registry import get_game, list_games

NATIVE_MODULE = "boardbot_native"
"""The PyO3 module built from core/bindings (`make native`)."""

HOW_TO_GET_NATIVE = (
    "install the boardbot wheel that carries it, or a Rust toolchain (cargo) and run "
    "`make native` (docs/native.md)"
)


class Engine(enum.StrEnum):
    """The `--engine` choice of the search commands and the server."""

    AUTO = "auto"
    """The native core for a game that has a twin, the Python engine otherwise."""
    NATIVE = "native"
    """The native core, or an error when it is not built or the game has no twin."""
    PYTHON = "python"
    """The Python engine and search (the reference)."""


class NativeUnavailableError(BoardbotError, RuntimeError):
    """`--engine native` was asked for a game or a machine without the native core."""


@cache
def native_module() -> ModuleType | None:
    """The native module, or None when it is not built here."""
    try:
        return importlib.import_module(NATIVE_MODULE)
    except ImportError:
        return None


def twin_name(game: Game | str) -> str | None:
    """The name of the native twin that `game` (a game, or a registered game's name) declares
    in its GameType (`native_twin`: the class of `boardbot_native`), or None (no twin, or no
    game of that name)."""
    if isinstance(game, str):
        try:
            game = get_game(game)
        except UnknownGameError:
            return None
    return game.game_type.native_twin


def declared_twins() -> dict[str, str]:
    """Registered game name -> the native twin its GameType declares, for each game with one."""
    twins = {name: twin_name(name) for name in list_games()}
    return {name: twin for name, twin in twins.items() if twin is not None}


def native_twin(game: Game | str) -> Any | None:
    """A native twin of `game` (a game or a registered game's name), or None (not built, or
    no twin)."""
    module = native_module()
    class_name = twin_name(game)
    if module is None or class_name is None:
        return None
    return getattr(module, class_name)()


def uses_native(engine: Engine | str, game: str) -> bool:
    """True when a search of `game` under `engine` runs on the native core.

    Raises NativeUnavailableError for `native` when that cannot be honoured.
    """
    choice = Engine(engine)
    if choice is Engine.PYTHON:
        return False
    available = native_twin(game) is not None
    if choice is Engine.NATIVE and not available:
        if native_module() is None:
            raise NativeUnavailableError(
                f"--engine native: the native core is not built; {HOW_TO_GET_NATIVE}"
            )
        twins = ", ".join(sorted(declared_twins()))
        raise NativeUnavailableError(
            f"--engine native: {game} has no native twin (native games: {twins})"
        )
    return available


def check_engine(engine: Engine | str) -> Engine:
    """`engine` as an Engine, refusing `native` where the native core is not built."""
    choice = Engine(engine)
    if choice is Engine.NATIVE and native_module() is None:
        raise NativeUnavailableError(
            f"--engine native: the native core is not built; {HOW_TO_GET_NATIVE}"
        )
    return choice


def per_game(engine: Engine) -> Engine:
    """A server-wide choice as one game's: `native` means the native core where there is one."""
    return Engine.PYTHON if engine is Engine.PYTHON else Engine.AUTO


def native_games() -> list[str]:
    """The games a search runs natively here (empty when the native core is not built)."""
    return sorted(name for name in declared_twins() if native_twin(name) is not None)


def engine_notice(engine: Engine | str) -> str | None:
    """The one line to print about the engines `engine` gets here: falling back to Python
    because nothing is built, or a native core built without optimisation; None otherwise."""
    choice = Engine(engine)
    module = native_module()
    if module is None:
        if choice is Engine.AUTO:
            return (
                f"boardbot: the native core is not built, so searches run on the Python engines; "
                f"to get it, {HOW_TO_GET_NATIVE}"
            )
        return None
    if choice is not Engine.PYTHON and not getattr(module, "OPTIMIZED", True):
        return (
            "boardbot: the native core is a debug build, whose searches run about ten times "
            "slower than the budgets and latency targets assume; rebuild it with `make native`"
        )
    return None
