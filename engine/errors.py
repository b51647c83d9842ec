"""Specific engine errors; each names the JSON path at fault and the reason."""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

ECHO_LIMIT = 64
"""Most characters of a caller's value an error message repeats (see `echo`)."""


def format_path(parts: Sequence[str | int]) -> str:
    """Render a JSON path like `$.players[1].hand[0]` (a caller's overlong key is cut short)."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif len(part) > ECHO_LIMIT:
            out += f".{part[:ECHO_LIMIT]}...({len(part)} characters)"
        else:
            out += f".{part}"
    return out


class _ShortRepr(reprlib.Repr):
    """`reprlib` with small limits, and never the full digits of a huge integer."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = ECHO_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        """An integer, or its size when printing it would be long (or refused by Python)."""
        if x.bit_length() > 4 * ECHO_LIMIT:
            return f"<an integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()


def echo(value: Any, limit: int = ECHO_LIMIT) -> str:
    """`repr(value)` for an error message, cut to `limit` characters with the original length.

    Errors repeat what the caller sent; a value of any size must still give a small message.
    """
    if isinstance(value, str | bytes):
        if len(value) > limit:
            unit = "characters" if isinstance(value, str) else "bytes"
            return f"{value[:limit]!r}... ({len(value)} {unit} in all)"
        text = repr(value)
    else:
        text = _SHORT.repr(value)  # never the whole of a huge list or number
    if len(text) > limit:
        return f"{text[:limit]}... ({len(text)} characters in all)"
    return text


class BoardbotError(Exception):
    """The root of every error boardbot raises on purpose (catch this to catch them all)."""


class EngineError(BoardbotError, ValueError):
    """Base class: a bad state or action, with the JSON path at fault and the reason."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class InvalidStateError(EngineError):
    """A state that is malformed or impossible under the rules."""


class InvalidActionError(EngineError):
    """An action that cannot be parsed."""


class IllegalActionError(EngineError):
    """A well-formed action that is not legal in the given state."""


class UnknownGameError(BoardbotError, KeyError):
    """No game is registered under that name."""


class GameDefinitionError(BoardbotError, TypeError):
    """A game whose declared type and role functions disagree, or that lacks a required one."""
