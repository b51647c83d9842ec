"""Requests whose bytes are not a valid protobuf message: INVALID_ARGUMENT, logged and counted.

gRPC itself answers a message its deserializer cannot read with a bare INTERNAL ("Exception
deserializing request!"), before any handler runs. This interceptor wraps every method's
deserializer so a bad message becomes a `MalformedRequest` value instead, and the method's
behaviour answers it with INVALID_ARGUMENT, reason `MALFORMED_REQUEST`, the usual rich details,
one request-log line and one `boardbot_requests_total` count. It sits inside the token check,
so a caller without the token is refused for that first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc

from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.service.handlers import (
    MAX_LOGGED_METHOD_CHARS,
    Behavior,
    Continuation,
    abort_refused,
    behavior_of,
    rebuilt,
    short_method,
)
from boardbot.service.metrics import Metrics


@dataclass(frozen=True)
class MalformedRequest:
    """Bytes that did not decode as the method's request message, and why."""

    size: int
    problem: str


def tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """`deserializer`, returning a `MalformedRequest` where it would raise."""
    if deserializer is None:
        return None
    read = deserializer

    def deserialize(raw: bytes) -> Any:
        try:
            return read(raw)
        except Exception as error:  # protobuf raises DecodeError, and others on bad UTF-8
            return MalformedRequest(len(raw), type(error).__name__)

    return deserialize


class MalformedRequestInterceptor(grpc.ServerInterceptor):
    """Answers undecodable request bytes with INVALID_ARGUMENT `MALFORMED_REQUEST`."""

    def __init__(self, metrics: Metrics, logger: logging.Logger) -> None:
        self._metrics = metrics
        self._logger = logger

    def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """The method's handler with a deserializer that never raises."""
        handler = continuation(handler_call_details)
        if handler is None or handler.request_deserializer is None:
            return handler
        method = handler_call_details.method[:MAX_LOGGED_METHOD_CHARS]
        behavior = behavior_of(handler)
        guarded = (
            self._guard_stream(method, behavior)
            if handler.request_streaming
            else self._guard_unary(method, behavior)
        )
        return rebuilt(handler, guarded, tolerant(handler.request_deserializer))

    def _guard_unary(self, method: str, behavior: Behavior) -> Behavior:
        def run(request: Any, context: grpc.ServicerContext) -> Any:
            if isinstance(request, MalformedRequest):
                self._refuse(method, request, context)
            return behavior(request, context)

        return run

    def _guard_stream(self, method: str, behavior: Behavior) -> Behavior:
        def run(requests: Iterator[Any], context: grpc.ServicerContext) -> Any:
            def checked() -> Iterator[Any]:
                for request in requests:
                    if isinstance(request, MalformedRequest):
                        self._refuse(method, request, context)
                    yield request

            return behavior(checked(), context)

        return run

    def _refuse(
        self, method: str, request: MalformedRequest, context: grpc.ServicerContext
    ) -> NoReturn:
        error = RequestError(
            FailureKind.INVALID_ARGUMENT,
            f"the request's {request.size} bytes are not a valid {short_method(method)} "
            f"message ({request.problem}: bad wire format, or a string field that is not "
            "UTF-8)",
            Reason.MALFORMED_REQUEST,
        )
        abort_refused(context, method, error, self._metrics, self._logger)
