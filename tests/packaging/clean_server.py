"""`boardbot serve` of a clean virtual environment (tests/packaging/clean_install.py), on a free
port, its output read line by line."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import threading
import time

from tests.packaging.clean_install import CleanVenv, clean_env, without_rust


class CleanServer:
    """`boardbot serve` of the clean environment on a free port, its output read line by line."""

    def __init__(self, venv: CleanVenv, *args: str) -> None:
        self.process = subprocess.Popen(
            [
                str(venv.path / "bin" / "boardbot"),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--workers",
                "1",
                "--rules-workers",
                "1",
                "--drain",
                "0",
                "--grace",
                "2",
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=without_rust(clean_env()),
            cwd=venv.path,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)

    def address(self, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                assert self.process.poll() is None, "".join(self.output)
                continue
            found = re.search(r"listening on (\S+:\d+)", line)
            if found:
                return found.group(1)
        raise AssertionError("no 'listening on' line:\n" + "".join(self.output))

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
