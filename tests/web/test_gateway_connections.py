"""The gateway's connections: a bounded number of handler threads, and silent clients let go."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from boardbot.service.client import BotClient
from boardbot.web.gateway import Gateway
from boardbot.web.handler_pool import DEFAULT_MAX_HANDLERS
from tests.service.servers import Served, wait_until
from tests.web.raw_http import exchange, json_of, post, serving, status_of

HANDLERS = 8
IDLE_S = 1.0
"""The gateway under test holds few connections, and drops a silent one after a second."""


@pytest.fixture
def small_gateway(served: Served) -> Iterator[Gateway]:
    with serving(
        BotClient(served.channel),
        max_handlers=HANDLERS,
        idle_timeout_s=IDLE_S,
        request_deadline_s=2 * IDLE_S,
    ) as gateway:
        yield gateway


class _Peer:
    """A client socket, and what the gateway sent it until it closed (if it did)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.sock.setblocking(False)
        self.received = b""
        self.closed = False

    def poll(self) -> bool:
        """Whether the gateway has closed the connection, reading what came meanwhile."""
        try:
            while not self.closed:
                chunk = self.sock.recv(65536)
                self.received += chunk
                self.closed = not chunk
        except BlockingIOError:
            pass
        except ConnectionResetError:
            self.closed = True
        return self.closed


def test_idle_connections_hold_a_bounded_number_of_threads(served: Served) -> None:
    # Idle connections are let go after 3 s here: time enough to open 300 on a busy machine.
    with serving(BotClient(served.channel), max_handlers=HANDLERS, idle_timeout_s=3.0) as gateway:
        _hold_300_idle_connections(gateway)


def _hold_300_idle_connections(small_gateway: Gateway) -> None:
    before = threading.active_count()
    idle = [_Peer(small_gateway.port) for _ in range(300)]
    try:
        # All beyond the bound are answered 503 at once and closed.
        assert wait_until(lambda: sum(peer.poll() for peer in idle) >= 300 - HANDLERS, 20)
        assert threading.active_count() - before <= HANDLERS
        # (A silent one timed out while the others connected is closed with no answer.)
        refused = [peer.received for peer in idle if peer.closed and peer.received]
        assert all(status_of(answer) == 503 for answer in refused)
        assert len(refused) >= 300 - 4 * HANDLERS
        assert json_of(refused[0])["error"]["code"] == "UNAVAILABLE"
        # A caller meanwhile is refused too, rather than queued behind the silent ones.
        assert status_of(exchange(small_gateway.port, post("/api/ListGames", b"{}"))) == 503
        # The silent ones are let go within their idle timeout, and the caller is served again.
        assert wait_until(lambda: all(peer.poll() for peer in idle), 10.0)
        assert threading.active_count() <= before
        assert status_of(exchange(small_gateway.port, post("/api/ListGames", b"{}"))) == 200
    finally:
        for peer in idle:
            peer.sock.close()


def test_a_client_trickling_its_request_is_let_go(small_gateway: Gateway) -> None:
    peer = _Peer(small_gateway.port)
    with peer.sock:
        peer.sock.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        while not peer.poll() and time.monotonic() - started < 10 * IDLE_S:
            with contextlib.suppress(OSError):
                peer.sock.send(b"X-Slow: 1\r\n")  # well within the idle timeout, every time
            time.sleep(IDLE_S / 4)
        assert peer.closed, "the gateway held a trickling client past its deadline"


def test_a_client_that_never_sends_its_body_is_timed_out(small_gateway: Gateway) -> None:
    with socket.create_connection(("127.0.0.1", small_gateway.port), timeout=20) as sock:
        sock.sendall(post("/api/ListGames", b"{}").removesuffix(b"{}"))
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert status_of(answer) == 408


def test_the_defaults_bound_threads_and_idle_time() -> None:
    from boardbot.web.gateway import IDLE_TIMEOUT_S, REQUEST_DEADLINE_S

    assert DEFAULT_MAX_HANDLERS == 64 and IDLE_TIMEOUT_S == 5.0 and REQUEST_DEADLINE_S == 30.0
