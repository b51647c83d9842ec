"""A server's gRPC error as the page shows it: code, message, reason, field and JSON path."""

from __future__ import annotations

from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

HTTP_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.CANCELLED: 499,
}
"""HTTP status of the gateway's answer for each gRPC code (others: 500)."""


def describe(error: grpc.RpcError) -> dict[str, Any]:
    """`{code, message, reason, field, json_path}` of a failed call (empty strings if absent)."""
    code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
    message = error.details() if isinstance(error, grpc.Call) else str(error)
    found = {"code": code.name, "message": message or ""}
    found.update(reason="", field="", json_path="")
    try:
        status = rpc_status.from_call(error) if isinstance(error, grpc.Call) else None
    except ValueError:
        status = None
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            found["reason"] = info.reason
            found["field"] = info.metadata.get("field", "")
            found["json_path"] = info.metadata.get("json_path", "")
    return found


def http_status(code_name: str) -> int:
    """The HTTP status the gateway answers a failed call of this gRPC code with."""
    return HTTP_STATUS.get(grpc.StatusCode[code_name], 500)
