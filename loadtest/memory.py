"""Memory of a running server and its workers, sampled over a soak run."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import psutil

from loadtest.server_process import ServerProcess

MIB = 1024 * 1024


def total_rss_mib(server: ServerProcess) -> float:
    """Resident memory of the server and all its workers together, in MiB."""
    return sum(server.rss_by_process().values()) / MIB


@dataclass
class MemorySampler:
    """Samples the total resident memory every `interval_s` seconds in a background thread."""

    server: ServerProcess
    interval_s: float = 5.0
    samples: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin sampling."""
        self._thread = threading.Thread(target=self._run, name="memory-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> list[float]:
        """Stop sampling; the samples taken, in MiB."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval_s + 5)
        return list(self.samples)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.samples.append(total_rss_mib(self.server))
            except psutil.Error:
                continue
