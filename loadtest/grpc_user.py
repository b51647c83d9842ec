"""A locust User speaking gRPC: a gevent-compatible channel and timed calls reported to locust.

Importing this module makes grpc cooperate with gevent, so it must happen before any channel
is created (the locustfile imports it first). Every call fires one locust request event with
its name, response time, response size and, on failure, the gRPC status as the exception.
"""

from __future__ import annotations

import time
from typing import Any

import grpc
import grpc.experimental.gevent as grpc_gevent
from locust import User
from locust.env import Environment
from locust.exception import LocustError

from loadtest.names import SHED_SUFFIX

grpc_gevent.init_gevent()


class RpcFailure(Exception):
    """A call that ended with a non-OK gRPC status; its text is `CODE: details`."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code

    def __repr__(self) -> str:
        return str(self)


class TimedStub:
    """Calls methods of a generated gRPC stub and reports each call to locust."""

    def __init__(self, stub: Any, environment: Environment, timeout_s: float) -> None:
        self._stub = stub
        self._events = environment.events
        self.timeout_s = timeout_s
        self.last_failure: RpcFailure | None = None
        """The failure of the latest call, or None when it succeeded."""

    def call(self, rpc: str, name: str, request: Any) -> Any | None:
        """Call `rpc` with `request` under a deadline; the response, or None after a failure."""
        method = getattr(self._stub, rpc)
        response: Any | None = None
        failure: RpcFailure | None = None
        start = time.perf_counter()
        try:
            response = method(request, timeout=self.timeout_s)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else grpc.StatusCode.UNKNOWN
            details = error.details() if isinstance(error, grpc.Call) else str(error)
            failure = RpcFailure(code, details or "")
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        self.last_failure = failure
        if failure is not None and failure.code is grpc.StatusCode.RESOURCE_EXHAUSTED:
            name += SHED_SUFFIX
        self._events.request.fire(
            request_type="grpc",
            name=name,
            response_time=elapsed_ms,
            response_length=response.ByteSize() if response is not None else 0,
            response=response,
            context={"rpc": rpc},
            exception=failure,
        )
        return response


class GrpcUser(User):
    """A user with its own gRPC channel to `host` (an `address:port`) and a timed stub."""

    abstract = True
    stub_class: Any = None
    rpc_timeout_s = 30.0

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        if not self.host:
            raise LocustError("give the server as --host 127.0.0.1:PORT")
        if self.stub_class is None:
            raise LocustError(f"{type(self).__name__} must set stub_class")
        self.channel = grpc.insecure_channel(self.host.removeprefix("grpc://"))
        self.client = TimedStub(self.stub_class(self.channel), environment, self.rpc_timeout_s)

    def on_stop(self) -> None:
        """Close the channel when the user stops."""
        self.channel.close()
