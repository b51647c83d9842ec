"""Raw HTTP over a socket for the web phase: send bytes as they are, read the answer as it is.

No HTTP library sits between the case and the gateway: a request line, header or body the
libraries would refuse or repair goes out byte for byte, and an answer is read up to the
gateway's closing of the connection (or a timeout), while the request is still being sent.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import time
from dataclasses import dataclass, field

KEEP_BYTES = 256 * 1024
"""Bytes of an answer kept for judging (the rest is counted, not kept)."""


@dataclass
class Answer:
    """What the gateway did with one request."""

    raw: bytes = b""
    """The first KEEP_BYTES of the answer."""
    size: int = 0
    """Bytes of the whole answer."""
    ended: str = ""
    """How the exchange ended: `closed` (end of file), `reset`, `timeout`, `refused`."""
    elapsed: float = 0.0
    sent: int = 0
    """Bytes of the request the gateway took before answering or closing."""
    status: int = 0
    """The status of the answer's status line (0: none)."""
    headers: dict[str, list[str]] = field(default_factory=dict)
    """Header names (lower case) -> values, as answered."""

    @property
    def answered(self) -> bool:
        """True when the answer began with a status line."""
        return self.status > 0

    def header(self, name: str) -> str:
        """The (first) value of a header, or ""."""
        values = self.headers.get(name.lower())
        return values[0] if values else ""

    def body(self) -> bytes:
        """The kept part of the answer's body."""
        return self.raw.partition(b"\r\n\r\n")[2]


def parse_head(raw: bytes) -> tuple[int, dict[str, list[str]]]:
    """(status, headers) of a raw answer; status 0 when it has no HTTP status line."""
    if not raw.startswith(b"HTTP/"):
        return 0, {}
    head = raw.partition(b"\r\n\r\n")[0].decode("latin-1")
    lines = head.split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        return 0, {}
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if colon:
            headers.setdefault(name.strip().lower(), []).append(value.strip())
    return int(parts[1]), headers


def connect(port: int, timeout: float) -> socket.socket:
    """A connection to the gateway on loopback."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def exchange(port: int, data: bytes, timeout: float, half_close: bool = False) -> Answer:
    """Send `data` and read the answer until the gateway closes the connection.

    The answer is read while the request is sent, so a gateway that answers before reading
    a huge body is seen answering. `half_close` shuts the sending side after the request (for
    a body shorter than its Content-Length). `timeout` bounds the whole exchange.
    """
    answer = Answer()
    started = time.monotonic()
    try:
        sock = connect(port, timeout)
    except OSError:
        answer.ended = "refused"
        answer.elapsed = time.monotonic() - started
        return answer
    try:
        _pump(sock, data, half_close, started + timeout, answer)
    finally:
        sock.close()
    answer.elapsed = time.monotonic() - started
    answer.status, answer.headers = parse_head(answer.raw)
    return answer


def _pump(sock: socket.socket, data: bytes, half_close: bool, deadline: float,
          answer: Answer) -> None:
    sock.setblocking(False)
    view = memoryview(data)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
    sending = True
    try:
        while True:
            if sending and answer.sent >= len(data):
                sending = False
                selector.modify(sock, selectors.EVENT_READ)
                if half_close:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_WR)
            left = deadline - time.monotonic()
            if left <= 0:
                answer.ended = "timeout"
                return
            for _, events in selector.select(min(left, 0.5)):
                if events & selectors.EVENT_READ:
                    try:
                        chunk = sock.recv(65536)
                    except BlockingIOError:
                        chunk = None
                    except OSError:
                        answer.ended = "reset"
                        return
                    if chunk == b"":
                        answer.ended = "closed"
                        return
                    if chunk:
                        answer.size += len(chunk)
                        if len(answer.raw) < KEEP_BYTES:
                            answer.raw += chunk[: KEEP_BYTES - len(answer.raw)]
                if sending and events & selectors.EVENT_WRITE:
                    try:
                        answer.sent += sock.send(view[answer.sent: answer.sent + 65536])
                    except BlockingIOError:
                        pass
                    except OSError:
                        sending = False  # the gateway stopped reading: read what it answered
                        selector.modify(sock, selectors.EVENT_READ)
    finally:
        selector.close()
