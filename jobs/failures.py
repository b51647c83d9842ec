"""Request failures, free of gRPC: a kind, a short message that says what to fix, a reason.

A `RequestError` is what every worker raises for a request it cannot answer. It names the kind
of failure (the gRPC edge, `boardbot.service.errors`, maps each kind to the status code of the
same name), a stable reason code (listed in docs/api.md), and, when a request field is at
fault, that field and the JSON path inside it. Messages are bounded: a value the caller sent
is echoed cut short, and no message grows past `MAX_MESSAGE_CHARS`.
"""

from __future__ import annotations

import enum

from boardbot.engine.errors import (
    BoardbotError,
    EngineError,
    IllegalActionError,
    InvalidActionError,
)
from boardbot.search.errors import (
    ChanceStepError,
    GameOverError,
    InvalidSeatError,
    NotSeatToMoveError,
    SearchError,
)

MAX_MESSAGE_CHARS = 600
"""Longest failure message; longer ones are cut, saying how long they were."""

MAX_PATH_CHARS = 200
"""Longest JSON path carried in a failure (a hostile key could make one of any length)."""


class FailureKind(enum.Enum):
    """What kind of failure a request met; each maps to the gRPC status code of its name."""

    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    """The request is malformed or impossible."""
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    """A well-formed request the state does not allow."""
    NOT_FOUND = "NOT_FOUND"
    """An unknown game or preset."""
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    """No answer could be given in time."""
    CANCELLED = "CANCELLED"
    """The caller gave up on the request."""
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    """The server is full; retry later."""
    UNAVAILABLE = "UNAVAILABLE"
    """The server cannot answer now (shutting down, a worker died); the request may be retried."""
    UNAUTHENTICATED = "UNAUTHENTICATED"
    """The caller did not prove who it is."""
    INTERNAL = "INTERNAL"
    """A fault of the server, never of the request."""


class Reason(enum.StrEnum):
    """Stable, machine-readable reasons (`ErrorInfo.reason` on the wire); docs/api.md lists them."""

    MISSING_FIELD = "MISSING_FIELD"
    INVALID_FIELD = "INVALID_FIELD"
    FIELD_TOO_LARGE = "FIELD_TOO_LARGE"
    MALFORMED_JSON = "MALFORMED_JSON"
    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    INVALID_STATE = "INVALID_STATE"
    INVALID_OPTIONS = "INVALID_OPTIONS"
    INVALID_MOVE = "INVALID_MOVE"
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    INVALID_SEAT = "INVALID_SEAT"
    INVALID_RECORD = "INVALID_RECORD"
    INVALID_SETTINGS = "INVALID_SETTINGS"
    UNKNOWN_GAME = "UNKNOWN_GAME"
    UNKNOWN_PRESET = "UNKNOWN_PRESET"
    PRESET_AND_ELO = "PRESET_AND_ELO"
    SETTINGS_AND_ELO = "SETTINGS_AND_ELO"
    ELO_OUT_OF_RANGE = "ELO_OUT_OF_RANGE"
    NOT_CALIBRATED = "NOT_CALIBRATED"
    INVALID_SESSION_KEY = "INVALID_SESSION_KEY"
    NOT_SEAT_TO_MOVE = "NOT_SEAT_TO_MOVE"
    GAME_OVER = "GAME_OVER"
    CHANCE_STEP = "CHANCE_STEP"
    SERVER_BUSY = "SERVER_BUSY"
    OPEN_STREAMS_BUSY = "OPEN_STREAMS_BUSY"
    SHUTTING_DOWN = "SHUTTING_DOWN"
    WORKER_FAILED = "WORKER_FAILED"
    DEADLINE_TOO_SHORT = "DEADLINE_TOO_SHORT"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    CANCELLED = "CANCELLED"
    MISSING_TOKEN = "MISSING_TOKEN"
    WRONG_TOKEN = "WRONG_TOKEN"
    INTERNAL = "INTERNAL"


Wire = tuple[str, str, str, str, str]
"""A picklable failure: (kind name, message, reason, field, JSON path)."""


def bounded(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


class RequestError(BoardbotError):
    """A request failure: its kind, message, reason, and the request field at fault."""

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        reason: Reason | str = Reason.INVALID_FIELD,
        field: str = "",
        json_path: str = "",
    ) -> None:
        message = bounded(message)
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.reason = str(reason)
        self.field = field
        self.json_path = bounded(json_path, MAX_PATH_CHARS)

    def to_wire(self) -> Wire:
        """A picklable tuple for crossing a process boundary."""
        return self.kind.name, self.message, self.reason, self.field, self.json_path

    @classmethod
    def from_wire(cls, wire: Wire) -> RequestError:
        """Rebuild a failure sent by `to_wire`."""
        kind_name, message, reason, field, json_path = wire
        return cls(FailureKind[kind_name], message, reason, field, json_path)

    def violation_field(self) -> str:
        """The request field plus the JSON path inside it, e.g. `state_json.players[0].food`."""
        if not self.json_path or self.json_path == "$":
            return self.field
        return self.field + self.json_path.removeprefix("$")


def invalid_argument(
    message: str, reason: Reason = Reason.INVALID_FIELD, field: str = "", json_path: str = ""
) -> RequestError:
    """INVALID_ARGUMENT: the request is malformed or impossible."""
    return RequestError(FailureKind.INVALID_ARGUMENT, message, reason, field, json_path)


def not_found(message: str, reason: Reason, field: str) -> RequestError:
    """NOT_FOUND: an unknown game or preset."""
    return RequestError(FailureKind.NOT_FOUND, message, reason, field)


def deadline_exceeded(message: str, reason: Reason = Reason.DEADLINE_EXCEEDED) -> RequestError:
    """DEADLINE_EXCEEDED: no answer could be given in time."""
    return RequestError(FailureKind.DEADLINE_EXCEEDED, message, reason)


def internal(message: str) -> RequestError:
    """INTERNAL: a fault of the server, never of the request."""
    return RequestError(FailureKind.INTERNAL, message, Reason.INTERNAL)


def unexpected(what: str, error: Exception) -> RequestError:
    """INTERNAL for an exception a job (`what`: "search", or the RPC) raised unexpectedly."""
    return internal(f"{what} failed: {type(error).__name__}: {bounded(str(error), 200)}")


_ENGINE_REASONS = {
    "state_json": Reason.INVALID_STATE,
    "options_json": Reason.INVALID_OPTIONS,
}

_OPTIONS_PREFIXES = ("$.options.", "$.options[")


def from_engine_error(field: str, error: EngineError) -> RequestError:
    """INVALID_ARGUMENT naming the request field, the JSON path inside it and the reason."""
    if isinstance(error, IllegalActionError):
        reason = Reason.ILLEGAL_MOVE
    elif isinstance(error, InvalidActionError):
        reason = Reason.INVALID_MOVE
    else:
        reason = _ENGINE_REASONS.get(field, Reason.INVALID_MOVE)
    path = error.path
    if field == "options_json" and (path == "$.options" or path.startswith(_OPTIONS_PREFIXES)):
        # The engines name options under `$.options`; on the wire the document is the options.
        path = "$" + path.removeprefix("$.options")
    path = bounded(path, MAX_PATH_CHARS)
    return invalid_argument(f"{field} {path}: {error.reason}", reason, field, path)


_SEARCH_FAILURES: dict[type[SearchError], tuple[FailureKind, Reason, str]] = {
    InvalidSeatError: (FailureKind.INVALID_ARGUMENT, Reason.INVALID_SEAT, "seat"),
    GameOverError: (FailureKind.FAILED_PRECONDITION, Reason.GAME_OVER, "state_json"),
    ChanceStepError: (FailureKind.FAILED_PRECONDITION, Reason.CHANCE_STEP, "state_json"),
    NotSeatToMoveError: (FailureKind.FAILED_PRECONDITION, Reason.NOT_SEAT_TO_MOVE, "seat"),
}
"""Each fault of a position the search refuses: its kind, reason and the request field."""


def from_search_error(error: SearchError) -> RequestError:
    """The request failure of a search refusal: the seat or state at fault, else the settings."""
    for error_type, (kind, reason, field) in _SEARCH_FAILURES.items():
        if isinstance(error, error_type):
            return RequestError(kind, str(error), reason, field)
    return invalid_argument(f"settings: {error}", Reason.INVALID_SETTINGS, "settings")
