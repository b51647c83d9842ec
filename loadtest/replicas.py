"""Boardbot replicas on fixed loopback ports: start, kill (SIGKILL), stop (SIGTERM), restart."""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psutil

from loadtest.server_process import ServerError, ServerProcess, start_server


@dataclass(frozen=True)
class ReplicaOptions:
    """The `boardbot serve` flags every replica gets."""

    workers: int = 1
    queue: int = 8
    drain_s: float = 3.0
    """Seconds a replica keeps serving with health NOT_SERVING after SIGTERM."""
    grace_s: float = 30.0
    """Seconds its calls in flight then get to finish."""
    engine: str = "auto"

    def serve_args(self) -> list[str]:
        """The flags beyond those `start_server` sets (workers, queue)."""
        return [
            "--drain", f"{self.drain_s:g}", "--grace", f"{self.grace_s:g}",
            "--search-threads", "1", "--engine", self.engine,
        ]


@dataclass
class Replica:
    """One replica: its name (as the proxy knows it), its fixed port, its current process."""

    name: str
    port: int
    server: ServerProcess
    starts: int = 1
    """How many processes have served on this port (1 + restarts)."""


class Replicas:
    """A set of replicas, each always started again on its own port."""

    def __init__(self, out_dir: Path, options: ReplicaOptions) -> None:
        self.out_dir = out_dir
        self.options = options
        self.by_name: dict[str, Replica] = {}

    def start(self, count: int) -> None:
        """Start `count` replicas r1..rN on free ports, together; wait until each is SERVING."""
        names = [f"r{number}" for number in range(1, count + 1)]
        with ThreadPoolExecutor(max_workers=count) as pool:
            futures = [pool.submit(self._start, name, 0, 1) for name in names]
        errors = [error for future in futures if (error := future.exception()) is not None]
        if errors:
            for future in futures:
                if future.exception() is None:
                    future.result().stop()
            raise errors[0]
        for name, future in zip(names, futures, strict=True):
            server = future.result()
            self.by_name[name] = Replica(name, _port(server), server)

    def ports(self) -> list[tuple[str, int]]:
        """Every replica's name and port, in order."""
        return [(replica.name, replica.port) for replica in self.by_name.values()]

    def kill(self, name: str) -> tuple[float, float]:
        """SIGKILL the replica's server and its worker processes at once, as a container runtime
        kills a container; the wall-clock times of the kill and of the server's exit (its
        connections close as it exits)."""
        server = self.by_name[name].server
        root = psutil.Process(server.process.pid)
        processes = [root, *root.children(recursive=True)]
        killed_at = time.time()
        for process in processes:
            try:
                process.send_signal(signal.SIGKILL)
            except psutil.NoSuchProcess:
                continue
        server.process.wait(10)
        gone_at = time.time()
        psutil.wait_procs(processes[1:], timeout=10)
        server.log.close()
        return killed_at, gone_at

    def terminate(self, name: str) -> float:
        """Send the replica SIGTERM (it drains, then finishes its calls); the wall-clock time."""
        sent_at = time.time()
        self.by_name[name].server.process.send_signal(signal.SIGTERM)
        return sent_at

    def wait_exit(self, name: str) -> int:
        """Wait for the replica to exit after SIGTERM (killed past drain + grace + 15 s); its
        exit code."""
        return self.by_name[name].server.stop(self.options.drain_s + self.options.grace_s + 15)

    def restart(self, name: str) -> None:
        """Start a new process on the replica's port (the old one must have exited); wait until
        it is SERVING."""
        replica = self.by_name[name]
        if replica.server.process.poll() is None:
            raise ServerError(f"{name} is still running; it cannot be started again")
        replica.starts += 1
        replica.server = self._start(name, replica.port, replica.starts)

    def stop_all(self) -> dict[str, int]:
        """Stop every replica still running, gracefully; exit codes by name."""
        codes = {}
        for replica in self.by_name.values():
            if replica.server.process.poll() is None:
                codes[replica.name] = replica.server.stop()
            elif not replica.server.log.closed:
                replica.server.log.close()
        return codes

    def _start(self, name: str, port: int, start: int) -> ServerProcess:
        log = self.out_dir / f"{name}-{start}.log"
        return start_server(
            self.options.workers, self.options.queue, log, self.options.serve_args(), port=port
        )


def _port(server: ServerProcess) -> int:
    return int(server.address.rsplit(":", 1)[1])

