"""The gRPC face of request failures: status code and the standard rich details.

Workers raise `boardbot.jobs.failures.RequestError`, which knows nothing of gRPC; this module
is the one place that turns one into a status. Every status carries the standard rich details
(`google.rpc.Status` in the `grpc-status-details-bin` trailer): an `ErrorInfo` with the stable
reason code and, when a request field is at fault, a `BadRequest` field violation naming the
field and the JSON path inside it (a `PreconditionFailure` violation for FAILED_PRECONDITION).
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from boardbot.jobs.failures import FailureKind, RequestError

ERROR_DOMAIN = "boardbot.v1"
"""`ErrorInfo.domain` of every error this service raises."""


def status_code(kind: FailureKind) -> grpc.StatusCode:
    """The gRPC status code of a failure kind (the code of the same name)."""
    return grpc.StatusCode[kind.name]


def status_proto(error: RequestError) -> status_pb2.Status:
    """The `google.rpc.Status` with ErrorInfo and, for a field at fault, the violation."""
    metadata = {}
    if error.field:
        metadata["field"] = error.field
    if error.json_path:
        metadata["json_path"] = error.json_path
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=ERROR_DOMAIN, metadata=metadata)
    details = [_pack(info)]
    if error.field and error.kind is FailureKind.FAILED_PRECONDITION:
        failure = error_details_pb2.PreconditionFailure.Violation(
            type=error.reason, subject=error.violation_field(), description=error.message
        )
        details.append(_pack(error_details_pb2.PreconditionFailure(violations=[failure])))
    elif error.field:
        violation = error_details_pb2.BadRequest.FieldViolation(
            field=error.violation_field(), description=error.message
        )
        details.append(_pack(error_details_pb2.BadRequest(field_violations=[violation])))
    code = status_code(error.kind)
    return status_pb2.Status(code=code.value[0], message=error.message, details=details)


def grpc_status(error: RequestError) -> grpc.Status:
    """The status to end a call with (`context.abort_with_status`)."""
    return rpc_status.to_status(status_proto(error))


def _pack(message: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed
