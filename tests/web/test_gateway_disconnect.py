"""A client that closes its connection cancels its call at once, however slow its stream."""

from __future__ import annotations

import socket
import threading

import grpc
import orjson

from tests.service.servers import Served, searches_of, wait_until
from tests.web.gateways import RunningGateway
from tests.web.raw_http import FakeClient, post, serving

CANCEL_WAIT_S = 3.0
"""How long a test waits for the cancel (the gateway notices a closed socket at once)."""


class _Cancelled(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED


class _SilentCall:
    """A call that answers nothing until cancelled, like a stream with a long interval."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()

    def cancel(self) -> bool:
        self.cancelled.set()
        return True

    def __iter__(self) -> _SilentCall:
        return self

    def __next__(self) -> object:
        self.cancelled.wait(60)
        raise _Cancelled()

    def result(self) -> object:
        self.cancelled.wait(60)
        raise grpc.FutureCancelledError()


class _SilentStub:
    def __init__(self) -> None:
        self.calls: list[_SilentCall] = []
        self.ChooseMove = self

    def AnalyzeStream(self, *args: object, **kwargs: object) -> _SilentCall:
        self.calls.append(_SilentCall())
        return self.calls[-1]

    def future(self, *args: object, **kwargs: object) -> _SilentCall:
        self.calls.append(_SilentCall())
        return self.calls[-1]


def _open_then_close(port: int, request: bytes, wait_for: bytes) -> None:
    """Send `request`, read until `wait_for` has come (if anything), then close."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(request)
        seen = b""
        while wait_for not in seen:
            chunk = sock.recv(65536)
            assert chunk, seen
            seen += chunk


def test_closing_a_slow_stream_cancels_its_call() -> None:
    stub = _SilentStub()
    with serving(FakeClient(stub)) as gateway:
        body = orjson.dumps({"every_ms": 60_000})
        _open_then_close(gateway.port, post("/api/AnalyzeStream", body), b"\r\n\r\n")
        (call,) = stub.calls
        assert call.cancelled.wait(CANCEL_WAIT_S)


def test_closing_while_a_move_is_chosen_cancels_the_call() -> None:
    stub = _SilentStub()
    with serving(FakeClient(stub)) as gateway:
        with socket.create_connection(("127.0.0.1", gateway.port), timeout=20) as sock:
            sock.sendall(post("/api/ChooseMove", b"{}"))
            assert wait_until(lambda: len(stub.calls) == 1, CANCEL_WAIT_S)
        assert stub.calls[0].cancelled.wait(CANCEL_WAIT_S)


def _stream_request(
    gateway: RunningGateway, seed: int, settings: dict[str, int], **every: int
) -> dict[str, object]:
    """An AnalyzeStream request body for a new LEDA game dealt with `seed`."""
    status, started = gateway.call("NewGame", {"game": "leda", "seed": str(seed)})
    assert status == 200
    analysis = {
        "game": "leda",
        "state_json": started["state_json"],
        "seat": started["summary"]["current_player"],
        "settings": settings,
    }
    return {"analysis": analysis, **every}


def test_a_stream_that_runs_to_its_end_is_not_cancelled_early(gateway: RunningGateway) -> None:
    request = _stream_request(gateway, 2, {"iterations": 400}, every_iterations=100)
    status, _, body = gateway.request(
        "POST", "/api/AnalyzeStream", orjson.dumps(request), {"Content-Type": "application/json"}
    )
    assert status == 200 and body.endswith(b"event: end\ndata: {}\n\n")


def test_a_closed_stream_frees_the_servers_worker(gateway: RunningGateway, served: Served) -> None:
    request = _stream_request(gateway, 1, {"time_ms": 50_000}, every_ms=60_000)
    pool = searches_of(served, "leda")
    with socket.create_connection(("127.0.0.1", gateway.gateway.port), timeout=20) as sock:
        sock.sendall(post("/api/AnalyzeStream", orjson.dumps(request)))
        assert sock.recv(65536).startswith(b"HTTP/1.0 200")
        assert wait_until(lambda: pool.busy == 1, 20), "the search never started"
    # The next partial analysis is a minute away: only the closed socket can stop the search.
    assert wait_until(lambda: pool.busy == 0, 10), "the search kept its worker"
