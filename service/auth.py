"""Optional shared-token check on request metadata (`authorization: Bearer TOKEN`).

A refused call is visible: it is counted by method and reason, and logged with the peer, the
method and the reason (never the token). Refusals carry the same rich error details as every
other error.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from typing import Any

import grpc

from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.service.errors import grpc_status
from boardbot.service.handlers import MAX_LOGGED_METHOD_CHARS, Continuation, rebuilt
from boardbot.service.metrics import Metrics
from boardbot.service.request_log import log_refused_call

OPEN_METHOD_PREFIXES = (
    "/grpc.health.v1.Health/",
    "/grpc.reflection.v1alpha.ServerReflection/",
    "/grpc.reflection.v1.ServerReflection/",
)
"""Methods answered without a token: health, so load balancers and probes can check it, and
reflection, which describes only the public contract (tools such as grpcurl use it even to call
the health service)."""



def refusal_reason(metadata: Any, expected: bytes) -> Reason | None:
    """None when the metadata carries the expected token, else why the call is refused."""
    found = False
    for key, value in metadata or ():
        if key == "authorization":
            found = True
            given = value.encode() if isinstance(value, str) else value
            if hmac.compare_digest(given, expected):
                return None
    return Reason.WRONG_TOKEN if found else Reason.MISSING_TOKEN


class TokenInterceptor(grpc.ServerInterceptor):
    """Refuses calls whose metadata lacks the shared token, with UNAUTHENTICATED."""

    def __init__(
        self, token: str, metrics: Metrics | None = None, logger: logging.Logger | None = None
    ) -> None:
        self._expected = f"Bearer {token}".encode()
        self._metrics = metrics
        self._logger = logger

    def intercept_service(
        self,
        continuation: Continuation,
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """Pass the call on when the token matches (or the method is open), else refuse it."""
        method = handler_call_details.method
        if method.startswith(OPEN_METHOD_PREFIXES):
            return continuation(handler_call_details)
        reason = refusal_reason(handler_call_details.invocation_metadata, self._expected)
        if reason is None:
            return continuation(handler_call_details)
        handler = continuation(handler_call_details)
        if handler is None:
            return None  # an unknown method: gRPC answers UNIMPLEMENTED, nothing to guard
        return self._deny(method[:MAX_LOGGED_METHOD_CHARS], reason, handler)

    def _deny(
        self, method: str, reason: Reason, handler: grpc.RpcMethodHandler
    ) -> grpc.RpcMethodHandler:
        """A handler of the same kind as `handler` that refuses the call, counted and logged."""
        error = RequestError(
            FailureKind.UNAUTHENTICATED,
            "missing or wrong token: send metadata 'authorization: Bearer <token>'",
            reason,
        )

        def refuse(request: Any, context: grpc.ServicerContext) -> Any:
            self._note(method, reason, context.peer())
            context.abort_with_status(grpc_status(error))

        return rebuilt(handler, refuse)

    def _note(self, method: str, reason: Reason, peer: str) -> None:
        if self._metrics is not None:
            self._metrics.auth_refused(method, str(reason))
        if self._logger is not None:
            log_refused_call(self._logger, method, peer, "UNAUTHENTICATED", reason)


def token_metadata(token: str | None) -> list[tuple[str, str]]:
    """The call metadata a client sends for `token` (none without one)."""
    return [("authorization", f"Bearer {token}")] if token else []


def is_loopback(host: str) -> bool:
    """True when `host` only listens on this machine (loopback address or localhost)."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
