"""Why a search cannot run: one error class per fault, all under SearchError."""

from __future__ import annotations

from boardbot.engine.errors import BoardbotError


class SearchError(BoardbotError, ValueError):
    """The search cannot run: a bad configuration, or the seat cannot move in the state."""


class InvalidConfigError(SearchError):
    """The SearchConfig cannot drive a search (no budget, a value out of range, ...)."""


class InvalidSeatError(SearchError):
    """The seat does not exist in the state."""


class GameOverError(SearchError):
    """The state is terminal: no seat is to move."""


class ChanceStepError(SearchError):
    """The state waits for a chance outcome: no seat is to move."""


class NotSeatToMoveError(SearchError):
    """Another seat is to move."""
