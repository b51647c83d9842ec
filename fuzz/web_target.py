"""What the web phase attacks: `boardbot web` as a child process on 127.0.0.1, in front of a
`boardbot serve` child with a metrics port, both on free ports.

The gateway's output (its request log and anything it prints, tracebacks included) goes to a
file the phase reads after every case. Both children are the `boardbot` of this environment,
so `PYTHONPATH=/other/checkout` fuzzes another tree's gateway and server.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psutil

from loadtest.server_process import ServerProcess, boardbot_command, start_server

MIB = 1024 * 1024
_BOARD_AT = re.compile(rb"the board is at http://127\.0\.0\.1:(\d+)/")
_TRACEBACK = "Traceback (most recent call last):"


class TargetError(RuntimeError):
    """The gateway or its server did not start."""


@dataclass(frozen=True)
class WebSettings:
    """The flags of the fuzzed server and gateway (recorded in every web repro)."""

    workers: int = 2
    queue: int = 4
    max_time_ms: float = 30_000.0
    """The server's own default: an abandoned stream's search may run this long."""

    def to_json(self) -> dict[str, Any]:
        """A JSON object of these settings."""
        return dict(self.__dict__)


@dataclass
class WebTarget:
    """A running server and gateway; the gateway restartable after it dies."""

    settings: WebSettings
    directory: Path
    server: ServerProcess | None = None
    gateway: subprocess.Popen[bytes] | None = None
    port: int = 0
    gateway_starts: int = 0
    _log: IO[bytes] | None = None
    _log_path: Path | None = None
    _offset: int = 0
    _pending: str = ""
    source: str = ""
    """The file of the gateway the children run (PYTHONPATH may name another checkout)."""

    def start(self) -> None:
        """Start the server (once) and the gateway in front of it."""
        if not self.source:
            self.source = gateway_source()
        if self.server is None:
            s = self.settings
            self.server = start_server(s.workers, s.queue, self.directory / "web-server.log",
                                       ["--max-time-ms", f"{s.max_time_ms:g}"])
        self.start_gateway()

    def start_gateway(self) -> None:
        """Start (or restart) `boardbot web --server ... --port 0` and wait for its port."""
        assert self.server is not None
        self.stop_gateway()
        name = "web-gateway.log" if not self.gateway_starts else (
            f"web-gateway.{self.gateway_starts}.log")
        self.gateway_starts += 1
        self._log_path = self.directory / name
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self._log_path.open("wb")
        self._offset, self._pending = 0, ""
        command = [*boardbot_command(), "web", "--host", "127.0.0.1", "--port", "0",
                   "--server", self.server.address]
        self.gateway = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = _BOARD_AT.search(self._log_path.read_bytes())
            if found:
                self.port = int(found.group(1))
                self.output()  # the start lines are no case's
                return
            if self.gateway.poll() is not None:
                break
            time.sleep(0.05)
        raise TargetError(f"the gateway did not start; see {self._log_path}")

    def alive(self) -> bool:
        """True while the gateway process runs."""
        return self.gateway is not None and self.gateway.poll() is None

    def output(self) -> str:
        """What the gateway printed since the last call (complete lines only)."""
        if self._log_path is None:
            return ""
        with self._log_path.open("rb") as log:
            log.seek(self._offset)
            data = log.read()
        self._offset += len(data)
        text = self._pending + data.decode("utf-8", "replace")
        complete, _, self._pending = text.rpartition("\n")
        return complete + "\n" if complete else ""

    def process(self) -> psutil.Process | None:
        """The gateway process, if it runs."""
        if not self.alive():
            return None
        assert self.gateway is not None
        try:
            return psutil.Process(self.gateway.pid)
        except psutil.Error:
            return None

    def threads(self) -> int:
        """The gateway's thread count now (0 if it is not running)."""
        process = self.process()
        try:
            return process.num_threads() if process is not None else 0
        except psutil.Error:
            return 0

    def rss_mib(self) -> float:
        """The gateway's resident memory in MiB (0 if it is not running)."""
        process = self.process()
        try:
            return process.memory_info().rss / MIB if process is not None else 0.0
        except psutil.Error:
            return 0.0

    def busy_workers(self) -> float:
        """Search workers running a request, from the server's metrics (-1: unreadable)."""
        assert self.server is not None
        try:
            return self.server.metrics().get("boardbot_workers_busy", -1.0)
        except OSError:
            return -1.0

    def wait_idle(self, seconds: float) -> float:
        """Wait up to `seconds` until no worker is busy; the busy count then."""
        limit = time.monotonic() + seconds
        while True:
            busy = self.busy_workers()
            if busy <= 0 or time.monotonic() >= limit:
                return busy
            time.sleep(0.1)

    def stop_gateway(self) -> None:
        """Stop the gateway (SIGTERM, then kill)."""
        if self.gateway is not None:
            if self.gateway.poll() is None:
                self.gateway.terminate()
                try:
                    self.gateway.wait(10)
                except subprocess.TimeoutExpired:
                    self.gateway.kill()
                    self.gateway.wait(10)
            self.gateway = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def stop(self) -> None:
        """Stop the gateway and the server."""
        self.stop_gateway()
        if self.server is not None:
            self.server.stop(timeout_s=15)
            self.server = None


def gateway_source() -> str:
    """Where `boardbot.web.gateway` comes from for a child process of this environment."""
    try:
        found = subprocess.run(
            [sys.executable, "-c", "import boardbot.web.gateway as g; print(g.__file__)"],
            capture_output=True, text=True, timeout=60, cwd="/", check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return found.stdout.strip() or "?"


def tracebacks(text: str) -> list[tuple[str, str]]:
    """(exception line, innermost frame) of each traceback in `text`: the innermost frame
    outside the standard library if there is one, so a failure is placed in the project."""
    found = []
    for block in text.split(_TRACEBACK)[1:]:
        frames: list[str] = []
        exception = "?"
        for line in block.splitlines()[1:]:
            if line.startswith("  File "):
                frames.append(line.strip())
            elif line and not line.startswith(" "):
                exception = line.strip()
                break
        own = [f for f in frames if "/lib/python" not in f and '"<frozen' not in f]
        found.append((exception, (own or frames or [""])[-1]))
    return found


def frame_where(frame: str) -> str:
    """`path:line` of a traceback frame line, the path cut to its last two parts."""
    match = re.match(r'File "([^"]+)", line (\d+)', frame)
    if match is None:
        return frame[:80]
    parts = Path(match.group(1)).parts[-2:]
    return f"{'/'.join(parts)}:{match.group(2)}"
