"""gRPC method handlers rebuilt by the server's interceptors: same kind, another behaviour."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, NoReturn

import grpc

from boardbot.jobs.failures import RequestError
from boardbot.service.errors import grpc_status
from boardbot.service.metrics import Metrics
from boardbot.service.request_log import log_refused_call

MAX_LOGGED_METHOD_CHARS = 100
"""A method name is the caller's text: log at most this much of it."""

Behavior = Callable[[Any, grpc.ServicerContext], Any]
"""A method's implementation: (request or request iterator, context) -> response(s)."""

Continuation = Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None]
"""What an interceptor calls for the handler the server would otherwise run."""

_FACTORIES: dict[tuple[bool, bool], Callable[..., grpc.RpcMethodHandler]] = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}
"""Handler builders by (request streaming, response streaming)."""


def behavior_of(handler: grpc.RpcMethodHandler) -> Behavior:
    """The implementation `handler` runs, whatever its kind."""
    found = {
        (False, False): handler.unary_unary,
        (False, True): handler.unary_stream,
        (True, False): handler.stream_unary,
        (True, True): handler.stream_stream,
    }[(handler.request_streaming, handler.response_streaming)]
    assert found is not None
    return found


def rebuilt(
    handler: grpc.RpcMethodHandler,
    behavior: Behavior,
    request_deserializer: Callable[[bytes], Any] | None = None,
) -> grpc.RpcMethodHandler:
    """A handler of the same kind and serializers as `handler` that runs `behavior`."""
    factory = _FACTORIES[(handler.request_streaming, handler.response_streaming)]
    return factory(
        behavior, request_deserializer or handler.request_deserializer, handler.response_serializer
    )


def is_streaming(handler: grpc.RpcMethodHandler) -> bool:
    """True when either side of the method streams (the call may hold a thread indefinitely)."""
    return bool(handler.request_streaming or handler.response_streaming)


def short_method(method: str) -> str:
    """`/pkg.Service/Method` as `Method`, the name the request log and metrics use."""
    return method.rsplit("/", 1)[-1]


def abort_refused(
    context: grpc.ServicerContext,
    rpc: str,
    error: RequestError,
    metrics: Metrics,
    logger: logging.Logger,
) -> NoReturn:
    """End a call refused before its method ran: counted by status, logged, then aborted."""
    status = error.kind.name
    metrics.observe_request(short_method(rpc), status, 0.0)
    log_refused_call(logger, rpc, context.peer(), status, error.reason)
    context.abort_with_status(grpc_status(error))
    raise AssertionError("unreachable: abort raises")
