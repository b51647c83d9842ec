"""The native core's exceptions as boardbot's own errors, by type and attributes only.

Every refusal of `boardbot_native` has its own exception type under `NativeError`, mirroring
`boardbot.engine.errors` and `boardbot.search.errors` (docs/native.md, "Errors"). The engine
errors carry the JSON path and the reason as attributes; `python_error` turns a native exception
into the Python engine's or search's error of the same kind with the same fields. Nothing here
reads an error's text to decide what it is: the message is carried over as it is.
"""

from __future__ import annotations

from typing import Any

from boardbot.engine.errors import (
    BoardbotError,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from boardbot.search.engines import native_module
from boardbot.search.errors import (
    ChanceStepError,
    GameOverError,
    InvalidConfigError,
    InvalidSeatError,
    NotSeatToMoveError,
    SearchError,
)

ENGINE_ERRORS: tuple[tuple[str, type[EngineError]], ...] = (
    # Most specific first: the binding's IllegalActionError derives from its InvalidActionError,
    # its InvalidOptionsError from its InvalidStateError (the Python engine words bad options as
    # an InvalidStateError under `$.options`).
    ("IllegalActionError", IllegalActionError),
    ("InvalidActionError", InvalidActionError),
    ("InvalidOptionsError", InvalidStateError),
    ("InvalidStateError", InvalidStateError),
)
"""The binding's engine exception types (by name) -> the Python engine's error classes."""

SEARCH_ERRORS: tuple[tuple[str, type[SearchError]], ...] = (
    ("InvalidConfigError", InvalidConfigError),
    ("InvalidSeatError", InvalidSeatError),
    ("GameOverError", GameOverError),
    ("ChanceStepError", ChanceStepError),
    ("NotSeatToMoveError", NotSeatToMoveError),
    ("SearchError", SearchError),
)
"""The binding's search exception types (by name) -> the Python search's error classes."""


def _module(module: Any | None) -> Any:
    found = module if module is not None else native_module()
    if found is None:
        raise RuntimeError("the native core is not built")
    return found


def python_error(error: BaseException, module: Any | None = None) -> BoardbotError | None:
    """The Python error matching a native exception (same class, path, reason and message), or
    None when `error` is not one of the binding's typed errors.

    `module` is the binding (default: the installed `boardbot_native`).
    """
    native = _module(module)
    if not isinstance(error, native.NativeError):
        return None
    for name, engine_class in ENGINE_ERRORS:
        if isinstance(error, getattr(native, name)):
            return engine_class(error.path, error.reason)
    for name, search_class in SEARCH_ERRORS:
        if isinstance(error, getattr(native, name)):
            return search_class(*error.args)
    return None


def engine_error(error: BaseException, module: Any | None = None) -> EngineError:
    """The Python engine's error for one of the binding's engine errors (state, options or
    move); a TypeError for anything else."""
    found = python_error(error, module)
    if not isinstance(found, EngineError):
        raise TypeError(f"not an engine error of the native core: {type(error).__name__}")
    return found
