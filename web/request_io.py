"""Reading a request with a time bound: per read, and for the whole request."""

from __future__ import annotations

import io
import socket
import time

IDLE_TIMEOUT_S = 5.0
"""Longest a socket read or write may wait: a silent client frees its thread after this."""

REQUEST_DEADLINE_S = 30.0
"""Longest the whole request (line, headers and body) may take to arrive."""


class DeadlineReader(io.RawIOBase):
    """A socket's bytes, each read waiting at most `idle_s`, all of them due by a deadline.

    A client that trickles its request a byte at a time cannot hold its thread past the
    deadline; one that stops sending frees it after `idle_s`. Either raises TimeoutError.
    """

    def __init__(self, connection: socket.socket, idle_s: float, total_s: float) -> None:
        super().__init__()
        self.connection = connection
        self.idle_s = idle_s
        self.deadline = time.monotonic() + total_s

    def readable(self) -> bool:
        """Always: this is a reader."""
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        """Read what has come, within the time left."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.connection.settimeout(min(self.idle_s, left))
        return self.connection.recv_into(buffer)
