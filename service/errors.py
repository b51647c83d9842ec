"""Service errors: a gRPC status code, a short message that says what to fix, a stable reason.

Every error carries the standard rich details (`google.rpc.Status` in the
`grpc-status-details-bin` trailer): an `ErrorInfo` with a stable reason code (listed in
docs/api.md) and, when a request field is at fault, a `BadRequest` field violation naming the
field and the JSON path inside it (a `PreconditionFailure` violation for FAILED_PRECONDITION).
Messages are bounded: a value the caller sent is echoed cut short, and no message grows past
`MAX_MESSAGE_CHARS`.
"""

from __future__ import annotations

import enum
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from boardbot.engine.errors import EngineError, IllegalActionError, InvalidActionError

ERROR_DOMAIN = "boardbot.v1"
"""`ErrorInfo.domain` of every error this service raises."""

MAX_MESSAGE_CHARS = 600
"""Longest status message; longer ones are cut, saying how long they were."""

MAX_PATH_CHARS = 200
"""Longest JSON path carried in the details (a hostile key could make one of any length)."""


class Reason(enum.StrEnum):
    """Stable, machine-readable reasons (`ErrorInfo.reason`); docs/api.md lists them."""

    MISSING_FIELD = "MISSING_FIELD"
    INVALID_FIELD = "INVALID_FIELD"
    FIELD_TOO_LARGE = "FIELD_TOO_LARGE"
    MALFORMED_JSON = "MALFORMED_JSON"
    INVALID_STATE = "INVALID_STATE"
    INVALID_OPTIONS = "INVALID_OPTIONS"
    INVALID_MOVE = "INVALID_MOVE"
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    INVALID_SEAT = "INVALID_SEAT"
    INVALID_SETTINGS = "INVALID_SETTINGS"
    UNKNOWN_GAME = "UNKNOWN_GAME"
    UNKNOWN_PRESET = "UNKNOWN_PRESET"
    NOT_SEAT_TO_MOVE = "NOT_SEAT_TO_MOVE"
    GAME_OVER = "GAME_OVER"
    CHANCE_STEP = "CHANCE_STEP"
    SERVER_BUSY = "SERVER_BUSY"
    SHUTTING_DOWN = "SHUTTING_DOWN"
    WORKER_FAILED = "WORKER_FAILED"
    DEADLINE_TOO_SHORT = "DEADLINE_TOO_SHORT"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    CANCELLED = "CANCELLED"
    MISSING_TOKEN = "MISSING_TOKEN"
    WRONG_TOKEN = "WRONG_TOKEN"
    INTERNAL = "INTERNAL"


Wire = tuple[str, str, str, str, str]
"""A picklable error: (code name, message, reason, field, JSON path)."""


def bounded(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


class ServiceError(Exception):
    """A request failure: status code, message, reason, and the request field at fault."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str,
        reason: Reason | str = Reason.INVALID_FIELD,
        field: str = "",
        json_path: str = "",
    ) -> None:
        message = bounded(message)
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = str(reason)
        self.field = field
        self.json_path = bounded(json_path, MAX_PATH_CHARS)

    def to_wire(self) -> Wire:
        """A picklable tuple for crossing a process boundary."""
        return self.code.name, self.message, self.reason, self.field, self.json_path

    @classmethod
    def from_wire(cls, wire: Wire) -> ServiceError:
        """Rebuild an error sent by `to_wire`."""
        code_name, message, reason, field, json_path = wire
        return cls(grpc.StatusCode[code_name], message, reason, field, json_path)

    def violation_field(self) -> str:
        """The request field plus the JSON path inside it, e.g. `state_json.players[0].food`."""
        if not self.json_path or self.json_path == "$":
            return self.field
        return self.field + self.json_path.removeprefix("$")

    def status_proto(self) -> status_pb2.Status:
        """The `google.rpc.Status` with ErrorInfo and, for a field at fault, BadRequest."""
        metadata = {}
        if self.field:
            metadata["field"] = self.field
        if self.json_path:
            metadata["json_path"] = self.json_path
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain=ERROR_DOMAIN, metadata=metadata
        )
        details = [_pack(info)]
        if self.field and self.code == grpc.StatusCode.FAILED_PRECONDITION:
            failure = error_details_pb2.PreconditionFailure.Violation(
                type=self.reason, subject=self.violation_field(), description=self.message
            )
            details.append(_pack(error_details_pb2.PreconditionFailure(violations=[failure])))
        elif self.field:
            violation = error_details_pb2.BadRequest.FieldViolation(
                field=self.violation_field(), description=self.message
            )
            details.append(_pack(error_details_pb2.BadRequest(field_violations=[violation])))
        return status_pb2.Status(code=self.code.value[0], message=self.message, details=details)

    def grpc_status(self) -> grpc.Status:
        """The status to end a call with (`context.abort_with_status`)."""
        return rpc_status.to_status(self.status_proto())


def _pack(message: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def invalid_argument(
    message: str, reason: Reason = Reason.INVALID_FIELD, field: str = "", json_path: str = ""
) -> ServiceError:
    """INVALID_ARGUMENT: the request is malformed or impossible."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, message, reason, field, json_path)


def failed_precondition(message: str, reason: Reason, field: str = "") -> ServiceError:
    """FAILED_PRECONDITION: a well-formed request the state does not allow."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, message, reason, field)


def not_found(message: str, reason: Reason, field: str) -> ServiceError:
    """NOT_FOUND: an unknown game or preset."""
    return ServiceError(grpc.StatusCode.NOT_FOUND, message, reason, field)


def deadline_exceeded(message: str, reason: Reason = Reason.DEADLINE_EXCEEDED) -> ServiceError:
    """DEADLINE_EXCEEDED: no answer could be given in time."""
    return ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED, message, reason)


def internal(message: str) -> ServiceError:
    """INTERNAL: a fault of the server, never of the request."""
    return ServiceError(grpc.StatusCode.INTERNAL, message, Reason.INTERNAL)


_ENGINE_REASONS = {
    "state_json": Reason.INVALID_STATE,
    "options_json": Reason.INVALID_OPTIONS,
}


def from_engine_error(field: str, error: EngineError) -> ServiceError:
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


_OPTIONS_PREFIXES = ("$.options.", "$.options[")
