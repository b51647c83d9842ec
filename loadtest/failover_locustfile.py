"""The locust users of the failover run (`loadtest.scaleout`): `PlayerUser`s whose calls are traced.

`PlainPlayerUser` sends each call once. `RetryingPlayerUser` retries a call that failed with
UNAVAILABLE or RESOURCE_EXHAUSTED, as docs/api.md advises (a lost worker or replica, a full
queue: both safe to retry), up to 4 attempts in all with exponential backoff (0.2, 0.4, 0.8 s),
like examples/node. Every call sends an `x-request-id` (one per attempt), which the proxy logs
with the replica it went to, and ends as one JSON line in `--trace-file`: the client kind, the
request name, wall-clock start and end, the final status code and details, and each attempt.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from typing import IO, Any

import gevent
import grpc
from locust import events
from locust.env import Environment

from loadtest.grpc_user import RpcFailure, TimedStub
from loadtest.locustfile import PlayerUser
from loadtest.names import SHED_SUFFIX
from loadtest.proxy import REQUEST_ID_HEADER

RETRY_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED})
"""The codes docs/api.md calls safe to retry."""
RETRY_ATTEMPTS = 4
RETRY_FIRST_BACKOFF_S = 0.2
"""The wait before the second attempt; it doubles before each later one."""

_request_numbers = itertools.count(1)
_trace: IO[str] | None = None


@events.init_command_line_parser.add_listener
def add_arguments(parser: Any) -> None:
    """The option of this locustfile (the scenario options come from loadtest/locustfile.py)."""
    parser.add_argument_group("failover").add_argument(
        "--trace-file", default="", help="write every call as a JSON line to this file"
    )


@events.request.add_listener
def write_trace(context: dict[str, Any] | None = None, **_: Any) -> None:
    """Append the call's trace, when it has one, to --trace-file (flushed at once, so a run
    stopped early keeps every call that ended)."""
    if _trace is not None and context is not None and "trace" in context:
        _trace.write(json.dumps(context["trace"]) + "\n")
        _trace.flush()


@events.init.add_listener
def open_trace(environment: Environment, **_: Any) -> None:
    """Open --trace-file for writing."""
    global _trace
    options = environment.parsed_options
    path = getattr(options, "trace_file", "") if options is not None else ""
    if path:
        _trace = open(path, "w", encoding="utf-8")  # noqa: SIM115 (open for the whole run)


def _failure(error: grpc.RpcError) -> RpcFailure:
    if isinstance(error, grpc.Call):
        return RpcFailure(error.code(), error.details() or "")
    return RpcFailure(grpc.StatusCode.UNKNOWN, str(error))


class TracedStub(TimedStub):
    """Calls with a request id per attempt, retried on RETRY_CODES up to `attempts` times;
    one locust request event per call, carrying the call's trace."""

    def __init__(
        self, stub: Any, environment: Environment, timeout_s: float, kind: str, attempts: int
    ) -> None:
        super().__init__(stub, environment, timeout_s)
        self.kind = kind
        self.attempts = attempts

    def call(self, rpc: str, name: str, request: Any) -> Any | None:
        """Call `rpc`, retrying as configured; the response, or None after the last failure."""
        method = getattr(self._stub, rpc)
        tried: list[dict[str, Any]] = []
        response: Any | None = None
        failure: RpcFailure | None = None
        for number in range(1, self.attempts + 1):
            request_id = f"{os.getpid()}-{next(_request_numbers)}"
            start = time.time()
            try:
                response, _ = method.with_call(
                    request, timeout=self.timeout_s, metadata=((REQUEST_ID_HEADER, request_id),)
                )
                failure = None
            except grpc.RpcError as error:
                failure = _failure(error)
            tried.append({
                "id": request_id, "start": start, "end": time.time(),
                "code": "OK" if failure is None else failure.code.name,
                "details": "" if failure is None else str(failure).split(": ", 1)[-1],
            })
            if failure is None or failure.code not in RETRY_CODES or number == self.attempts:
                break
            gevent.sleep(RETRY_FIRST_BACKOFF_S * 2 ** (number - 1))
        self.last_failure = failure
        if failure is not None and failure.code is grpc.StatusCode.RESOURCE_EXHAUSTED:
            name += SHED_SUFFIX
        trace = {
            "client": self.kind, "name": name, "rpc": rpc,
            "start": tried[0]["start"], "end": tried[-1]["end"],
            "code": tried[-1]["code"], "details": tried[-1]["details"], "attempts": tried,
        }
        self._events.request.fire(
            request_type="grpc",
            name=name,
            response_time=(trace["end"] - trace["start"]) * 1000.0,
            response_length=response.ByteSize() if response is not None else 0,
            response=response,
            context={"rpc": rpc, "trace": trace},
            exception=failure,
        )
        return response


class PlainPlayerUser(PlayerUser):
    """A PlayerUser whose calls are traced and never retried."""

    client_kind = "plain"
    attempts = 1

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.client = TracedStub(
            self.stub_class(self.channel), environment, self.rpc_timeout_s,
            self.client_kind, self.attempts,
        )


class RetryingPlayerUser(PlainPlayerUser):
    """A PlayerUser whose calls are traced and retried as docs/api.md advises."""

    client_kind = "retrying"
    attempts = RETRY_ATTEMPTS
