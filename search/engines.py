"""Which implementation runs a search: the native core (Rust) where a game has one, or Python."""

from __future__ import annotations

import enum
import importlib
from functools import cache
from types import ModuleType
from typing import Any

from boardbot.engine.errors import BoardbotError

NATIVE_MODULE = "boardbot_native"
"""The PyO3 module built from core/bindings (`make native`)."""

NATIVE_GAMES: dict[str, str] = {"legend_raiders": "LegendRaiders", "leda": "Leda"}
"""Game name -> the class of `boardbot_native` that is its twin."""

HOW_TO_GET_NATIVE = "install a Rust toolchain (cargo) and run `make native` (docs/native.md)"


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


def native_twin(game: str) -> Any | None:
    """A native twin of the game called `game`, or None (not built, or no twin)."""
    module = native_module()
    class_name = NATIVE_GAMES.get(game)
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
        twins = ", ".join(sorted(NATIVE_GAMES))
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
    return sorted(name for name in NATIVE_GAMES if native_twin(name) is not None)


def fallback_notice(engine: Engine | str) -> str | None:
    """The one line to print when `engine` falls back to Python because nothing is built."""
    if Engine(engine) is Engine.AUTO and native_module() is None:
        return (
            f"boardbot: the native core is not built, so searches run on the Python engines; "
            f"to get it, {HOW_TO_GET_NATIVE}"
        )
    return None
