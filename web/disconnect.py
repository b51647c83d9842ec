"""Noticing that a client closed its connection while its call runs, to cancel the call.

A browser that closes a response sends nothing more; the gateway would only notice when it
next writes, which for a slow stream may be a minute away. A watcher thread waits on the
socket instead: end of file (or a reset) means the client is gone.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from collections.abc import Callable
from types import TracebackType


class DisconnectWatcher:
    """While entered, calls `on_gone` once if the client closes its side of `connection`.

    Bytes the client sends meanwhile are read and dropped (a request is complete by then).
    A client that half-closes its connection counts as gone.
    """

    def __init__(self, connection: socket.socket, on_gone: Callable[[], object]) -> None:
        self.connection = connection
        self.on_gone = on_gone
        self.gone = threading.Event()
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._thread = threading.Thread(target=self._watch, name="disconnect-watcher", daemon=True)

    def __enter__(self) -> DisconnectWatcher:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        with contextlib.suppress(OSError):
            self._wake_writer.send(b"x")
        # Joined before the connection closes, so the watcher never reads a reused descriptor.
        self._thread.join()
        self._wake_reader.close()
        self._wake_writer.close()

    def _watch(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.connection, selectors.EVENT_READ)
            selector.register(self._wake_reader, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self._wake_reader in ready:
                    return
                if self._client_closed():
                    self.gone.set()
                    self.on_gone()
                    return

    def _client_closed(self) -> bool:
        try:
            return not self.connection.recv(65536, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True
