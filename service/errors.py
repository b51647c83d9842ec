"""Service errors: a gRPC status code with a message that says what to fix."""

from __future__ import annotations

import grpc

from engine.errors import EngineError


class ServiceError(Exception):
    """A request failure carrying the gRPC status code to answer with."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_wire(self) -> tuple[str, str]:
        """A picklable (code name, message) pair for crossing a process boundary."""
        return self.code.name, self.message

    @classmethod
    def from_wire(cls, code_name: str, message: str) -> ServiceError:
        """Rebuild an error sent by `to_wire`."""
        return cls(grpc.StatusCode[code_name], message)


def invalid_argument(message: str) -> ServiceError:
    """INVALID_ARGUMENT: the request is malformed or impossible."""
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, message)


def failed_precondition(message: str) -> ServiceError:
    """FAILED_PRECONDITION: a well-formed request the state does not allow."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, message)


def not_found(message: str) -> ServiceError:
    """NOT_FOUND: an unknown game or preset."""
    return ServiceError(grpc.StatusCode.NOT_FOUND, message)


def from_engine_error(field: str, error: EngineError) -> ServiceError:
    """INVALID_ARGUMENT naming the request field, the JSON path inside it and the reason."""
    return invalid_argument(f"{field} {error.path}: {error.reason}")
