"""Specific engine errors; each names the JSON path at fault and the reason."""

from __future__ import annotations

from collections.abc import Sequence


def format_path(parts: Sequence[str | int]) -> str:
    """Render a JSON path like `$.players[1].hand[0]`."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


class EngineError(ValueError):
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


class UnknownGameError(KeyError):
    """No game is registered under that name."""
