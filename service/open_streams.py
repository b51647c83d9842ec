"""A bound on the streams callers without the token may hold open (health Watch, reflection).

Health and reflection answer without the token. A stream of theirs holds a gRPC handler thread
for as long as the caller keeps it open, so without a bound a caller without the token could
hold every thread and starve the calls that carry it. Here such streams run on threads of their
own (`limit` of them, apart from the service's), and a stream past the limit is refused at
once with RESOURCE_EXHAUSTED, reason `OPEN_STREAMS_BUSY`, before it takes any thread. Unary
open calls (Health.Check) take microseconds and are not bounded here; calls that carry the
token are never counted. On a server without a token no caller carries one, so every open
stream counts.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc

from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.service.auth import OPEN_METHOD_PREFIXES, refusal_reason
from boardbot.service.handlers import (
    MAX_LOGGED_METHOD_CHARS,
    Behavior,
    Continuation,
    abort_refused,
    behavior_of,
    is_streaming,
    rebuilt,
)
from boardbot.service.metrics import Metrics

DEFAULT_OPEN_STREAMS = 8
"""Streams of open methods that callers without the token may hold at once, by default."""


class _Ticket:
    """One admitted stream's place; given back exactly once, however the call ends."""

    def __init__(self, slots: _Slots) -> None:
        self._slots = slots
        self._held = True
        self._lock = threading.Lock()

    def release(self) -> None:
        with self._lock:
            if not self._held:
                return
            self._held = False
        self._slots.give_back()


class _Slots:
    """A counter of admitted streams with a fixed capacity."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._taken = 0
        self._lock = threading.Lock()

    def take(self) -> _Ticket | None:
        with self._lock:
            if self._taken >= self.capacity:
                return None
            self._taken += 1
        return _Ticket(self)

    def give_back(self) -> None:
        with self._lock:
            self._taken -= 1

    @property
    def taken(self) -> int:
        with self._lock:
            return self._taken


class OpenStreamInterceptor(grpc.ServerInterceptor):
    """Runs token-less streams of open methods on their own bounded threads; refuses extras."""

    def __init__(
        self,
        limit: int,
        token: str | None,
        metrics: Metrics,
        logger: logging.Logger,
    ) -> None:
        if limit < 1:
            raise ValueError("the open-stream limit must be at least 1")
        self._expected = f"Bearer {token}".encode() if token else None
        self._slots = _Slots(limit)
        self._threads = futures.ThreadPoolExecutor(
            max_workers=limit, thread_name_prefix="grpc-open"
        )
        self._metrics = metrics
        self._logger = logger

    @property
    def open_streams(self) -> int:
        """Token-less open streams running now."""
        return self._slots.taken

    def shutdown(self) -> None:
        """Let the open streams' threads go once their calls end."""
        self._threads.shutdown(wait=False)

    def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """Pass the call on, bounded when it is a token-less stream of an open method."""
        handler = continuation(handler_call_details)
        method = handler_call_details.method
        if handler is None or not method.startswith(OPEN_METHOD_PREFIXES):
            return handler
        if not is_streaming(handler) or self._has_token(handler_call_details):
            return handler
        ticket = self._slots.take()
        if ticket is None:
            return self._refusal(method[:MAX_LOGGED_METHOD_CHARS], handler)
        return rebuilt(handler, self._bounded(behavior_of(handler), handler, ticket))

    def _has_token(self, details: grpc.HandlerCallDetails) -> bool:
        if self._expected is None:
            return False
        return refusal_reason(details.invocation_metadata, self._expected) is None

    def _bounded(
        self, behavior: Behavior, handler: grpc.RpcMethodHandler, ticket: _Ticket
    ) -> Behavior:
        """`behavior` on the open streams' threads, giving `ticket` back when it ends."""

        def run_stream(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                yield from behavior(request, context)
            finally:
                ticket.release()

        def run_unary(request: Any, context: grpc.ServicerContext) -> Any:
            try:
                return behavior(request, context)
            finally:
                ticket.release()

        run: Behavior = run_stream if handler.response_streaming else run_unary
        # gRPC runs a behaviour on the pool named by this attribute instead of its own.
        run.experimental_thread_pool = self._threads  # type: ignore[attr-defined]
        # A call refused by gRPC after this point (or cancelled before its first message)
        # never runs `run`: the ticket comes back when gRPC drops the handler.
        weakref.finalize(run, ticket.release)
        return run

    def _refusal(self, method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        error = RequestError(
            FailureKind.RESOURCE_EXHAUSTED,
            f"{self._slots.capacity} streams of the open methods (health, reflection) are "
            "already held by callers without the token; retry later, or send the token",
            Reason.OPEN_STREAMS_BUSY,
        )

        def refuse(request: Any, context: grpc.ServicerContext) -> Any:
            abort_refused(context, method, error, self._metrics, self._logger)

        return rebuilt(handler, refuse)
