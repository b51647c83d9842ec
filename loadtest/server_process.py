"""A boardbot server run as a child process on 127.0.0.1: start, health, workers, memory, stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import grpc
import psutil
from grpc_health.v1 import health_pb2, health_pb2_grpc

HOST = "127.0.0.1"
"""The only address the load tests ever talk to."""

_LISTENING = re.compile(r"listening on ([\d.]+):(\d+)")
_METRICS = re.compile(r"metrics on (http://[\d.]+:\d+/metrics)")
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$")


class ServerError(RuntimeError):
    """The server did not start, did not become healthy, or died."""


def boardbot_command() -> list[str]:
    """The command that runs the `boardbot` CLI of this environment."""
    script = Path(sys.executable).parent / "boardbot"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "boardbot.cli.main"]


@dataclass
class ServerProcess:
    """A running server: its process, gRPC address and metrics address."""

    process: subprocess.Popen[bytes]
    address: str
    metrics_url: str | None
    log: IO[bytes]

    def workers(self) -> list[psutil.Process]:
        """The search worker processes (spawned children) alive now."""
        found = []
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                if any("spawn_main" in part for part in child.cmdline()):
                    found.append(child)
            except psutil.NoSuchProcess:
                continue
        return found

    def rss_by_process(self) -> dict[str, int]:
        """Resident memory in bytes of the server and of each worker, keyed `server` / `pid N`."""
        sizes = {"server": psutil.Process(self.process.pid).memory_info().rss}
        for worker in self.workers():
            try:
                sizes[f"worker {worker.pid}"] = worker.memory_info().rss
            except psutil.NoSuchProcess:
                continue
        return sizes

    def metrics(self) -> dict[str, float]:
        """The server's unlabelled Prometheus samples (counters and gauges) by name."""
        if self.metrics_url is None:
            return {}
        with urllib.request.urlopen(self.metrics_url, timeout=5) as reply:
            text = reply.read().decode()
        samples: dict[str, float] = {}
        for line in text.splitlines():
            match = _SAMPLE.match(line)
            if match and match.group(2) is None:
                samples[match.group(1)] = float(match.group(3))
        return samples

    def check_alive(self) -> None:
        """Raise ServerError if the server process has exited."""
        if self.process.poll() is not None:
            raise ServerError(f"the server exited with code {self.process.returncode}")

    def stop(self, timeout_s: float = 30.0) -> int:
        """SIGTERM, wait for the graceful shutdown (kill after `timeout_s`); the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                for child in psutil.Process(self.process.pid).children(recursive=True):
                    child.kill()
                self.process.kill()
                self.process.wait(10)
        self.log.close()
        return self.process.returncode


def start_server(
    workers: int,
    queue: int,
    log_path: Path,
    extra: list[str] | None = None,
    ready_timeout_s: float = 120.0,
    port: int = 0,
) -> ServerProcess:
    """Start `boardbot serve` on `port` (0: a free one) and wait until its health is SERVING."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("wb")
    command = [
        *boardbot_command(), "serve", "--host", HOST, "--port", str(port),
        "--workers", str(workers), "--queue", str(queue), "--metrics-port", "0",
        "--grace", "10", *(extra or []),
    ]
    # Only the flags define the server: no BOARDBOT_* setting (a token, say) leaks in.
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOARDBOT_")}
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + ready_timeout_s
    address: str | None = None
    metrics_url: str | None = None
    while address is None or metrics_url is None:
        if process.poll() is not None:
            log.close()
            raise ServerError(f"the server exited with code {process.returncode}; see {log_path}")
        if time.monotonic() > deadline:
            process.kill()
            log.close()
            raise ServerError(f"the server did not report its port in time; see {log_path}")
        text = log_path.read_text(errors="replace")
        if (found := _LISTENING.search(text)) is not None:
            address = f"{found.group(1)}:{found.group(2)}"
        if (found := _METRICS.search(text)) is not None:
            metrics_url = found.group(1)
        time.sleep(0.05)
    server = ServerProcess(process, address, metrics_url, log)
    try:
        wait_serving(address, max(1.0, deadline - time.monotonic()))
    except ServerError:
        server.stop()
        raise
    return server


def health_status(address: str, timeout_s: float = 2.0) -> str:
    """The server's overall health status name, or the gRPC error code name."""
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout_s)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            return code.name if code is not None else "ERROR"
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))


def wait_serving(address: str, timeout_s: float) -> None:
    """Poll health until SERVING; ServerError after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    status = "UNKNOWN"
    while time.monotonic() < deadline:
        status = health_status(address)
        if status == "SERVING":
            return
        time.sleep(0.1)
    raise ServerError(f"health of {address} is {status}, not SERVING, after {timeout_s:.0f} s")
