"""The page's HTTP gateway: static files, one JSON endpoint per unary call, and AnalyzeStream
as server-sent events, each forwarded to a boardbot gRPC server.

The browser speaks plain HTTP: `POST /api/<Method>` with the request message as JSON answers
the response message as JSON (or `{"error": {...}}` with an HTTP status from the gRPC code);
`POST /api/AnalyzeStream` answers `text/event-stream`, one `data:` line per partial analysis,
then `event: end` (or `event: error`). Closing the response cancels the gRPC call.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import grpc
import orjson
from google.protobuf.message import Message

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service.auth import is_loopback
from boardbot.service.client import BotClient
from boardbot.web import rpc_errors, wire

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_BODY_BYTES = 4 * 1024 * 1024
"""Largest request body (the server's own message bound by default)."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}

UNARY_CALLS: dict[str, tuple[type[Message], float]] = {
    "ListGames": (pb.ListGamesRequest, 10.0),
    "NewGame": (pb.NewGameRequest, 15.0),
    "LegalMoves": (pb.LegalMovesRequest, 15.0),
    "ApplyMove": (pb.ApplyMoveRequest, 15.0),
    "ViewState": (pb.ViewStateRequest, 15.0),
    "ChooseMove": (pb.ChooseMoveRequest, 120.0),
    "Analyze": (pb.AnalyzeRequest, 120.0),
}
"""Method -> (request message, deadline in seconds) of every call forwarded as it is."""

STREAM_DEADLINE_S = 600.0
"""Longest an AnalyzeStream may run (the page stops it sooner; the server bounds each search)."""


@dataclass(frozen=True)
class GatewayConfig:
    """Where the page is served and which server it talks to."""

    host: str
    port: int
    client: BotClient
    timeout_s: float | None = None
    """Deadline of every call, streams included (None: each call's own, UNARY_CALLS)."""


class Gateway(ThreadingHTTPServer):
    """A threaded HTTP server answering the page's requests with calls to one gRPC server."""

    daemon_threads = True

    def __init__(self, config: GatewayConfig) -> None:
        super().__init__((config.host, config.port), GatewayHandler)
        self.client = config.client
        self.timeout_s = config.timeout_s
        self.loopback = is_loopback(config.host)
        self.quiet = threading.Event()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away or fell silent is no fault of the gateway: say nothing;
        anything else is printed as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)

    @property
    def port(self) -> int:
        """The port the gateway listens on (the chosen one when started with 0)."""
        return int(self.server_address[1])


class GatewayHandler(BaseHTTPRequestHandler):
    """One HTTP request of the page."""

    server: Gateway
    server_version = "boardbot-web"
    timeout = 60.0
    """Seconds a socket read or write may block: a client that stops sending or reading
    frees its thread (and cancels its call) instead of holding it."""

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet unless asked: the server's own request log says what was called."""
        if not self.server.quiet.is_set():
            super().log_message(format, *args)

    def do_GET(self) -> None:
        """A static file of the page (`/` is the board)."""
        if not self._host_allowed():
            return
        path = urlsplit(self.path).path
        name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
        if name == path:
            self._send_json(HTTPStatus.NOT_FOUND, _error("NOT_FOUND", f"no such page: {path}"))
            return
        file = (STATIC_DIR / name).resolve()
        if not file.is_relative_to(STATIC_DIR) or not file.is_file():
            self._send_json(HTTPStatus.NOT_FOUND, _error("NOT_FOUND", f"no such file: {path}"))
            return
        body = file.read_bytes()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", CONTENT_TYPES.get(file.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """One call: `/api/<Method>` with its request as JSON."""
        if not self._host_allowed() or not self._same_origin():
            return
        method = urlsplit(self.path).path.removeprefix("/api/")
        body = self._read_body()
        if body is None:
            return
        if method == "AnalyzeStream":
            self._stream(body)
        elif method in UNARY_CALLS:
            self._unary(method, body)
        else:
            known = ", ".join([*UNARY_CALLS, "AnalyzeStream"])
            message = f"no call {method[:64]!r}; known: {known}"
            self._send_json(HTTPStatus.NOT_FOUND, _error("NOT_FOUND", message))

    def _unary(self, method: str, body: bytes) -> None:
        message, deadline = UNARY_CALLS[method]
        try:
            request = wire.to_request(body, message)
        except wire.BadBodyError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, _error("INVALID_ARGUMENT", str(error)))
            return
        client = self.server.client
        call: Callable[..., Message] = getattr(client.stub, method)
        try:
            response = call(request, timeout=self._deadline(deadline), metadata=client.metadata)
        except grpc.RpcError as error:
            described = rpc_errors.describe(error)
            self._send_json(rpc_errors.http_status(described["code"]), {"error": described})
            return
        self._send_json(HTTPStatus.OK, wire.to_json(response))

    def _stream(self, body: bytes) -> None:
        try:
            request = wire.to_request(body, pb.AnalyzeStreamRequest)
        except wire.BadBodyError as error:
            self._send_json(HTTPStatus.BAD_REQUEST, _error("INVALID_ARGUMENT", str(error)))
            return
        client = self.server.client
        responses: Iterator[pb.AnalyzeResponse] = client.stub.AnalyzeStream(
            request, timeout=self._deadline(STREAM_DEADLINE_S), metadata=client.metadata
        )
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            for response in responses:
                self._event("message", wire.to_json(response))
            self._event("end", {})
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:
                self._event_or_drop("error", {"error": rpc_errors.describe(error)})
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the page stopped the analysis, or stopped reading it
        finally:
            cancel = getattr(responses, "cancel", None)
            if cancel is not None:
                cancel()
        self.close_connection = True

    def _deadline(self, own: float) -> float:
        chosen = self.server.timeout_s
        return own if chosen is None else chosen

    def _event(self, name: str, data: dict[str, Any]) -> None:
        lines = b"" if name == "message" else b"event: " + name.encode() + b"\n"
        self.wfile.write(lines + b"data: " + orjson.dumps(data) + b"\n\n")
        self.wfile.flush()

    def _event_or_drop(self, name: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._event(name, data)

    def _read_body(self) -> bytes | None:
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY_BYTES:
            self._send_json(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                _error("RESOURCE_EXHAUSTED", f"request body: at most {MAX_BODY_BYTES} bytes"),
            )
            return None
        if self.headers.get_content_type() != "application/json":
            self._send_json(
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                _error("INVALID_ARGUMENT", "request body: send Content-Type: application/json"),
            )
            return None
        return self.rfile.read(length)

    def _host_allowed(self) -> bool:
        # A page elsewhere cannot reach a loopback gateway through a name it controls (DNS
        # rebinding): on loopback, only loopback names are served.
        host = urlsplit("//" + self.headers.get("Host", "")).hostname or ""
        if not self.server.loopback or host == "localhost" or is_loopback(host):
            return True
        self._send_json(HTTPStatus.FORBIDDEN, _error("PERMISSION_DENIED", f"host {host!r}"))
        return False

    def _same_origin(self) -> bool:
        origin = self.headers.get("Origin")
        if origin is None or urlsplit(origin).netloc == self.headers.get("Host"):
            return True
        self._send_json(
            HTTPStatus.FORBIDDEN, _error("PERMISSION_DENIED", f"cross-origin call from {origin}")
        )
        return False

    def _send_json(self, status: int, data: dict[str, Any]) -> None:
        body = orjson.dumps(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "reason": "", "field": "", "json_path": ""}}
