"""Optional shared-token check on request metadata (`authorization: Bearer TOKEN`)."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import grpc

OPEN_METHOD_PREFIXES = ("/grpc.health.v1.Health/",)
"""Methods answered without a token, so load balancers and probes can check health."""


class TokenInterceptor(grpc.ServerInterceptor):
    """Refuses calls whose metadata lacks the shared token, with UNAUTHENTICATED."""

    def __init__(self, token: str) -> None:
        self._expected = f"Bearer {token}".encode()

        def deny(request: Any, context: grpc.ServicerContext) -> Any:
            context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing or wrong token: send metadata 'authorization: Bearer <token>'",
            )

        self._deny = grpc.unary_unary_rpc_method_handler(deny)

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """Pass the call on when the token matches (or the method is open), else refuse it."""
        method = handler_call_details.method
        if method.startswith(OPEN_METHOD_PREFIXES):
            return continuation(handler_call_details)
        for key, value in handler_call_details.invocation_metadata or ():
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                if hmac.compare_digest(given, self._expected):
                    return continuation(handler_call_details)
        return self._deny


def token_metadata(token: str | None) -> list[tuple[str, str]]:
    """The call metadata a client sends for `token` (none without one)."""
    return [("authorization", f"Bearer {token}")] if token else []
