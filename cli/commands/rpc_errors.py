"""A server's error as the commands print it: status code and `ErrorInfo` reason."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


def error_reason(error: grpc.RpcError) -> str:
    """The `ErrorInfo.reason` a server's error carries, or "" when it has none."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:
        return ""
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return str(info.reason)
    return ""


def describe_rpc_error(error: grpc.RpcError) -> str:
    """`CODE` or `CODE, REASON` of a server's error, as the commands print it."""
    reason = error_reason(error)
    return error.code().name + (f", {reason}" if reason else "")
