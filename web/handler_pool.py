"""A bound on the gateway's handler threads: a connection beyond it is answered 503 at once."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

import orjson

DEFAULT_MAX_HANDLERS = 64
"""Connections handled at once by default; each holds one thread (two while a call runs)."""

_REFUSAL_BODY = orjson.dumps(
    {
        "error": {
            "code": "UNAVAILABLE",
            "message": "the gateway is busy: try again shortly",
            "reason": "",
            "field": "",
            "json_path": "",
        }
    }
)
REFUSAL = (
    b"HTTP/1.0 503 Service Unavailable\r\n"
    b"Content-Type: application/json\r\n"
    b"Content-Length: " + str(len(_REFUSAL_BODY)).encode() + b"\r\n"
    b"Retry-After: 1\r\n"
    b"Cache-Control: no-store\r\n"
    b"Connection: close\r\n\r\n" + _REFUSAL_BODY
)
"""The whole answer to a connection beyond the bound."""


class BoundedThreadsMixIn:
    """Each connection in a thread of its own, at most `max_handlers` at once.

    A connection beyond the bound is not queued: it gets REFUSAL and is closed.
    """

    max_handlers = DEFAULT_MAX_HANDLERS
    request_queue_size = 128
    _slots: threading.BoundedSemaphore | None = None

    def process_request(self, request: Any, client_address: Any) -> None:
        """Hand the connection to a thread of its own, or refuse it when all are busy."""
        slots = self._handler_slots()
        if not slots.acquire(blocking=False):
            _refuse(request)
            self.shutdown_request(request)  # type: ignore[attr-defined]
            return
        try:
            threading.Thread(
                target=self._handle, args=(request, client_address), daemon=True
            ).start()
        except RuntimeError:
            slots.release()
            self.shutdown_request(request)  # type: ignore[attr-defined]
            raise

    def _handle(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)  # type: ignore[attr-defined]
        except Exception:
            self.handle_error(request, client_address)  # type: ignore[attr-defined]
        finally:
            self.shutdown_request(request)  # type: ignore[attr-defined]
            self._handler_slots().release()

    def _handler_slots(self) -> threading.BoundedSemaphore:
        # Made by the accepting thread, the first to ask, before any handler thread runs.
        if self._slots is None:
            self._slots = threading.BoundedSemaphore(self.max_handlers)
        return self._slots


def _refuse(connection: socket.socket) -> None:
    """Write REFUSAL without ever blocking the accepting thread, and drop what was sent."""
    with contextlib.suppress(OSError):
        connection.setblocking(False)
        connection.send(REFUSAL)
        for _ in range(16):  # what the client already sent, so closing sends no reset
            if not connection.recv(65536):
                break
