"""In-process test servers on port 0, their stubs, and reading a refused call's details."""

from __future__ import annotations

import io
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc

from boardbot.jobs.native_searches import NativeSearches
from boardbot.jobs.settings import Limits
from boardbot.jobs.worker_pool import WorkerPool
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine
from boardbot.search.native_game import NativeGame
from boardbot.service.server import BotServer, ServerConfig

MAX_MESSAGE_BYTES = 1024 * 1024

_SERVER_NUMBERS = itertools.count()


class Served:
    """A running test server with a client stub and its captured request log."""

    def __init__(self, server: BotServer, log: io.StringIO) -> None:
        self.server = server
        self.log = log
        self.address = f"127.0.0.1:{server.port}"
        self.channel = grpc.insecure_channel(
            self.address,
            options=[("grpc.max_send_message_length", 4 * MAX_MESSAGE_BYTES)],
        )
        self.stub = pb_grpc.BoardBotStub(self.channel)

    def close(self) -> None:
        """Close the channel and stop the server."""
        self.channel.close()
        self.server.stop(grace=2)


def start_server(**overrides: Any) -> Served:
    """A server on 127.0.0.1, port 0, with small limits suited to tests."""
    log = io.StringIO()
    logger = logging.getLogger(f"boardbot.test-requests.{next(_SERVER_NUMBERS)}")
    handler = logging.StreamHandler(log)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "workers": 2,
        "queue_limit": 8,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "grace_seconds": 5.0,
        # A wide deadline margin keeps deadline tests reliable on a busy machine.
        "limits": Limits(max_workers=1, max_time_ms=60_000, deadline_margin_ms=250.0),
        # One thread per search: same request, same answer, whatever else the server runs.
        "search_threads": 1,
        **overrides,
    }
    server = BotServer(ServerConfig(**values), logger)
    server.start()
    return Served(server, log)


def searches_of(served: Served, game: str = "legend_raiders") -> WorkerPool | NativeSearches:
    """Where `served` runs the searches of `game`: natively in the server process (a game with
    a native twin, engine not python), else in its worker pool."""
    server = served.server
    native = server.config.engine is not Engine.PYTHON and NativeGame.of(game) is not None
    return server.native_searches if native else server.pool


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    """Poll `predicate` until it holds or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while time.monotonic() < deadline:
        if predicate():
            return True
        pause.wait(0.01)
    return predicate()


def error_details(error: grpc.RpcError) -> tuple[Any, list[tuple[str, str]]]:
    """The ErrorInfo and the (field, description) of each BadRequest field violation or
    PreconditionFailure violation a refused call carries."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the error carries no google.rpc.Status"
    info = None
    violations: list[tuple[str, str]] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations.extend((v.field, v.description) for v in bad.field_violations)
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            violations.extend((v.subject, v.description) for v in failure.violations)
    assert info is not None, "the error carries no ErrorInfo"
    assert info.domain == "boardbot.v1"
    return info, violations
