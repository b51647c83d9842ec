"""The page's HTTP gateway: static files, each game's component data, one JSON endpoint per
unary call, and the streaming calls (AnalyzeStream, ReviewGame) as server-sent events, each
forwarded to a boardbot gRPC server.

The browser speaks plain HTTP: `POST /api/<Method>` with the request message as JSON answers
the response message as JSON (or `{"error": {...}}` with an HTTP status from the gRPC code);
`POST /api/AnalyzeStream` and `POST /api/ReviewGame` answer `text/event-stream`, one `data:`
line per response message (a partial analysis, a reviewed position), then `event: end` (or
`event: error`). `GET /api/games/<name>/components` answers the game's
component data file. A client that closes its connection cancels its call. Pages at the origins
of `GatewayConfig.allow_origins` may call the /api routes too (CORS, `web/cors.py`).
Every request gets an answer, 500 at worst; the bounds are in docs/web.md.
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import grpc
import orjson
from google.protobuf.message import Message

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service.auth import is_loopback
from boardbot.service.client import BotClient
from boardbot.web import component_data, request_checks, rpc_errors, static_files, wire
from boardbot.web.cors import CorsPolicy, route_methods
from boardbot.web.disconnect import DisconnectWatcher
from boardbot.web.handler_pool import DEFAULT_MAX_HANDLERS, BoundedThreadsMixIn
from boardbot.web.origins import parse_origins
from boardbot.web.request_checks import RefusedError
from boardbot.web.request_io import IDLE_TIMEOUT_S, REQUEST_DEADLINE_S, DeadlineReader
from boardbot.web.security_headers import SECURITY_HEADERS

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

REVIEW_DEADLINE_S = 1800.0
"""Longest a ReviewGame may run (a long game at a generous time per position)."""

STREAM_CALLS: dict[str, tuple[type[Message], float]] = {
    "AnalyzeStream": (pb.AnalyzeStreamRequest, STREAM_DEADLINE_S),
    "ReviewGame": (pb.ReviewGameRequest, REVIEW_DEADLINE_S),
}
"""Method -> (request message, deadline in seconds) of every server-streaming call, answered
as server-sent events."""

PROTOCOL_ERROR_CODES = {
    HTTPStatus.NOT_IMPLEMENTED: "UNIMPLEMENTED",
    HTTPStatus.HTTP_VERSION_NOT_SUPPORTED: "UNIMPLEMENTED",
    HTTPStatus.REQUEST_URI_TOO_LONG: "RESOURCE_EXHAUSTED",
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: "RESOURCE_EXHAUSTED",
}
"""Error code of an answer to a request HTTP itself refuses (others: INVALID_ARGUMENT)."""


@dataclass(frozen=True)
class GatewayConfig:
    """Where the page is served and which server it talks to."""

    host: str
    port: int
    client: BotClient
    timeout_s: float | None = None
    """Deadline of every call, streams included (None: each call's own, UNARY_CALLS)."""
    max_handlers: int = DEFAULT_MAX_HANDLERS
    """Connections handled at once; one more is answered 503."""
    idle_timeout_s: float = IDLE_TIMEOUT_S
    request_deadline_s: float = REQUEST_DEADLINE_S
    allow_origins: tuple[str, ...] = ()
    """Origins of pages elsewhere that may call the /api routes (`scheme://host[:port]`)."""


class Gateway(BoundedThreadsMixIn, HTTPServer):
    """An HTTP server answering the page's requests with calls to one gRPC server."""

    def __init__(self, config: GatewayConfig) -> None:
        self.max_handlers = config.max_handlers
        super().__init__((config.host, config.port), GatewayHandler)
        self.client = config.client
        self.timeout_s = config.timeout_s
        self.idle_timeout_s = config.idle_timeout_s
        self.request_deadline_s = config.request_deadline_s
        self.loopback = is_loopback(config.host)
        self.cors = CorsPolicy(parse_origins(list(config.allow_origins)))
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
    """One HTTP request of the page (one per connection: the answer closes it)."""

    server: Gateway
    server_version = "boardbot-web"
    default_request_version = "HTTP/1.0"
    """Even an answer to a request line that makes no sense starts with a status line."""
    _answered = False
    _cors_headers: dict[str, str]
    """Added to the answer's headers: the CORS headers of this request (web/cors.py)."""

    def setup(self) -> None:
        """Bound the time the request may take to arrive (IDLE_TIMEOUT_S, REQUEST_DEADLINE_S)."""
        super().setup()
        self._cors_headers = {}
        self.rfile.close()  # the plain reader the base class made, replaced by a bounded one
        self.connection.settimeout(self.server.idle_timeout_s)
        reader = DeadlineReader(
            self.connection, self.server.idle_timeout_s, self.server.request_deadline_s
        )
        self.rfile = io.BufferedReader(reader)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet unless asked: the server's own request log says what was called."""
        if not self.server.quiet.is_set():
            super().log_message(format, *args)

    def send_response(self, code: int, message: str | None = None) -> None:
        """Start the answer (noted: an answer once started cannot become an error)."""
        self._answered = True
        super().send_response(code, message)

    def end_headers(self) -> None:
        """End the headers, with SECURITY_HEADERS on every answer (and the request's CORS
        headers on an /api route)."""
        for name, value in {**SECURITY_HEADERS, **self._cors_headers}.items():
            self.send_header(name, value)
        super().end_headers()

    def handle_one_request(self) -> None:
        """Answer one request; whatever fails, the client gets an answer if none was started."""
        try:
            super().handle_one_request()  # itself closes a connection whose request times out
        except ConnectionError:
            self.close_connection = True  # the client went away: nobody to answer
        except Exception:
            self.close_connection = True
            traceback.print_exc()
            self._send_quietly(HTTPStatus.INTERNAL_SERVER_ERROR, "INTERNAL", "gateway failure")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """An error of HTTP itself (a bad request line, an unknown method) as the JSON error."""
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        status = HTTPStatus(code)
        self._send_json(
            status,
            _error(PROTOCOL_ERROR_CODES.get(status, "INVALID_ARGUMENT"), message or status.phrase),
        )

    def do_GET(self) -> None:
        """A static file of the page (`/` is the board), or a game's component data."""
        self._refusing(self._get)

    def do_POST(self) -> None:
        """One call: `/api/<Method>` with its request as JSON."""
        self._refusing(self._post)

    def do_OPTIONS(self) -> None:
        """A browser's preflight of a call from a page at another origin (or a plain OPTIONS)."""
        self._refusing(self._options)

    def _refusing(self, act: Callable[[], None]) -> None:
        """Run `act`, answering a RefusedError with its status; the connection then closes."""
        self.close_connection = True
        path = request_checks.path_of(self.path)
        self._cors_headers = self.server.cors.answer_headers(self.headers, path)
        try:
            act()
        except RefusedError as refused:
            self._send_json(refused.status, _error(refused.code, str(refused)))
        except TimeoutError:  # the body did not come, or the client stopped reading
            self._send_quietly(HTTPStatus.REQUEST_TIMEOUT, "DEADLINE_EXCEEDED", "request too slow")

    def _get(self) -> None:
        request_checks.check_host(self.headers, self.server.loopback)
        path = request_checks.path_of(self.path)
        on_api = path.startswith(component_data.PREFIX)
        file = component_data.find(path) if on_api else static_files.find(path)
        body = _read_file(file) if file is not None else None
        if file is None or body is None:
            message = f"no such page: {path[:200]}"
            raise RefusedError(HTTPStatus.NOT_FOUND, "NOT_FOUND", message)
        self.connection.settimeout(self.server.idle_timeout_s)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", static_files.content_type(file))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def _post(self) -> None:
        request_checks.check_host(self.headers, self.server.loopback)
        request_checks.check_origin(self.headers, self.server.cors.allowed)
        method = request_checks.path_of(self.path).removeprefix("/api/")
        body = self._read_body()
        if method in STREAM_CALLS:
            message, deadline = STREAM_CALLS[method]
            self._stream(method, _parse(body, message), deadline)
        elif method in UNARY_CALLS:
            message, deadline = UNARY_CALLS[method]
            self._unary(method, _parse(body, message), deadline)
        else:
            known = ", ".join([*UNARY_CALLS, *STREAM_CALLS])
            message_text = f"no call {method[:64]!r}; known: {known}"
            raise RefusedError(HTTPStatus.NOT_FOUND, "NOT_FOUND", message_text)

    def _options(self) -> None:
        """204 with the CORS headers for an allowed origin's preflight; 403 for an origin,
        method or header not allowed; 204 with `Allow` for an OPTIONS without another origin."""
        request_checks.check_host(self.headers, self.server.loopback)
        request_checks.check_origin(self.headers, self.server.cors.allowed)
        path = request_checks.path_of(self.path)
        methods = route_methods(path, frozenset([*UNARY_CALLS, *STREAM_CALLS]))
        if methods is None:
            message = f"no /api route {path[:200]}"
            raise RefusedError(HTTPStatus.NOT_FOUND, "NOT_FOUND", message)
        if self.headers.get("Origin") in self.server.cors.allowed:
            self._cors_headers = self.server.cors.preflight(self.headers, path, methods)
            self.send_response(HTTPStatus.NO_CONTENT)
        else:
            self.send_response(HTTPStatus.NO_CONTENT)
            self.send_header("Allow", ", ".join((*methods, "OPTIONS")))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def _read_body(self) -> bytes:
        length = request_checks.body_length(self.headers)
        request_checks.check_json(self.headers)
        body = self.rfile.read(length)
        if len(body) < length:
            message = f"request body: ended after {len(body)} of {length} bytes"
            raise RefusedError(HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", message)
        self.connection.settimeout(self.server.idle_timeout_s)  # now for writing the answer
        return body

    def _unary(self, method: str, request: Message, deadline: float) -> None:
        client = self.server.client
        call = getattr(client.stub, method)
        future = call.future(request, timeout=self._deadline(deadline), metadata=client.metadata)
        with DisconnectWatcher(self.connection, future.cancel):
            try:
                response = future.result()
            except grpc.FutureCancelledError:
                return  # the client closed its connection: the call is cancelled
            except grpc.RpcError as error:
                described = rpc_errors.describe(error)
                self._send_json(rpc_errors.http_status(described["code"]), {"error": described})
                return
        self._send_json(HTTPStatus.OK, wire.to_json(response))

    def _stream(self, method: str, request: Message, deadline: float) -> None:
        """A server-streaming call as server-sent events: one `data:` line per message."""
        client = self.server.client
        call = getattr(client.stub, method)
        responses: Iterator[Message] = call(
            request, timeout=self._deadline(deadline), metadata=client.metadata
        )
        cancel: Callable[[], object] = getattr(responses, "cancel", lambda: None)
        with DisconnectWatcher(self.connection, cancel):
            try:
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-store")
                self.send_header("Connection", "close")
                self.end_headers()
                for response in responses:
                    self._event("message", wire.to_json(response))
                self._event("end", {})
            except grpc.RpcError as error:
                if error.code() is not grpc.StatusCode.CANCELLED:
                    self._event_or_drop("error", {"error": rpc_errors.describe(error)})
            except (ConnectionError, TimeoutError):
                pass  # the page stopped the stream, or stopped reading it
            except Exception:
                traceback.print_exc()
                self._event_or_drop("error", _error("INTERNAL", "gateway failure"))
            finally:
                cancel()

    def _deadline(self, own: float) -> float:
        chosen = self.server.timeout_s
        return own if chosen is None else chosen

    def _event(self, name: str, data: dict[str, Any]) -> None:
        lines = b"" if name == "message" else b"event: " + name.encode() + b"\n"
        self.wfile.write(lines + b"data: " + orjson.dumps(data) + b"\n\n")
        self.wfile.flush()

    def _event_or_drop(self, name: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self._event(name, data)

    def _send_json(self, status: int, data: dict[str, Any]) -> None:
        body = orjson.dumps(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _send_quietly(self, status: HTTPStatus, code: str, message: str) -> None:
        """An error answer if none was started yet, to a client that may be gone."""
        if not self._answered and hasattr(self, "request_version"):
            with contextlib.suppress(OSError):
                self._send_json(status, _error(code, message))


def _parse(body: bytes, message: type[Message]) -> Message:
    try:
        return wire.to_request(body, message)
    except wire.BadBodyError as error:
        raise RefusedError(HTTPStatus.BAD_REQUEST, "INVALID_ARGUMENT", str(error)) from None


def _read_file(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except OSError:
        return None


def _error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "reason": "", "field": "", "json_path": ""}}
