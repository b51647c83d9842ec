"""A gateway of `boardbot web` in a thread, in front of a test server, and calls to it."""

from __future__ import annotations

import http.client
import threading
from typing import Any

import grpc
import orjson

from boardbot.service.client import BotClient
from boardbot.web.gateway import Gateway, GatewayConfig


class RunningGateway:
    """A gateway serving on a free loopback port until closed."""

    def __init__(
        self,
        server_address: str,
        timeout_s: float | None = None,
        allow_origins: tuple[str, ...] = (),
    ) -> None:
        self.channel = grpc.insecure_channel(server_address)
        if timeout_s is not None:
            # Connect first, so a short deadline is spent on the calls alone.
            grpc.channel_ready_future(self.channel).result(timeout=20)
        config = GatewayConfig(
            "127.0.0.1", 0, BotClient(self.channel), timeout_s, allow_origins=allow_origins
        )
        self.gateway = Gateway(config)
        self.gateway.quiet.set()
        self.thread = threading.Thread(target=self.gateway.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.gateway.port}"

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one HTTP request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.gateway.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def call(self, method: str, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(HTTP status, JSON answer) of `POST /api/<method>`."""
        status, _, body = self.request(
            "POST", f"/api/{method}", orjson.dumps(request), {"Content-Type": "application/json"}
        )
        return status, orjson.loads(body)

    def close(self) -> None:
        """Stop serving and close the channel."""
        self.gateway.shutdown()
        self.gateway.server_close()
        self.channel.close()


def sse_events(body: bytes) -> list[tuple[str, dict]]:
    """The (name, data) of each server-sent event in a stream's body."""
    found = []
    for block in body.decode().split("\n\n"):
        if not block.strip():
            continue
        name, data = "message", ""
        for line in block.split("\n"):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data += line[6:]
        found.append((name, orjson.loads(data)))
    return found
