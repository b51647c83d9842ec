"""Requests written byte by byte to a gateway, and gateways in front of fake servers."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any, cast

import orjson

from boardbot.service.client import BotClient
from boardbot.web.gateway import Gateway, GatewayConfig


def exchange(port: int, data: bytes, timeout: float = 20.0) -> bytes:
    """Everything the gateway answers to `data`, up to its closing of the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def status_of(answer: bytes) -> int:
    """The HTTP status of a raw answer (0 for none at all)."""
    if not answer.startswith(b"HTTP/"):
        return 0
    return int(answer.split(b" ", 2)[1])


def json_of(answer: bytes) -> dict[str, Any]:
    """The JSON body of a raw answer."""
    found = orjson.loads(answer.partition(b"\r\n\r\n")[2])
    assert isinstance(found, dict)
    return found


def post(path: str, body: bytes, extra_headers: bytes = b"") -> bytes:
    """A POST of a JSON body with its Content-Length and any extra header lines."""
    return (
        b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\n"
        + extra_headers
        + b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


class FakeClient:
    """A BotClient stand-in whose stub is given (no server behind it)."""

    def __init__(self, stub: object) -> None:
        self.stub = stub
        self.metadata: tuple[tuple[str, str], ...] = ()


@contextlib.contextmanager
def serving(client: BotClient | FakeClient, **config: Any) -> Iterator[Gateway]:
    """A quiet gateway on a free loopback port until the block ends."""
    gateway = Gateway(GatewayConfig("127.0.0.1", 0, cast(BotClient, client), **config))
    gateway.quiet.set()
    thread = threading.Thread(target=gateway.serve_forever, daemon=True)
    thread.start()
    try:
        yield gateway
    finally:
        gateway.shutdown()
        gateway.server_close()
        thread.join(timeout=10)
