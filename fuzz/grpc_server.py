"""The server the gRPC phase attacks: `boardbot serve` as a child process on a free port."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import orjson
import psutil

from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from loadtest.server_process import ServerProcess, start_server

MIB = 1024 * 1024


@dataclass(frozen=True)
class ServerSettings:
    """The flags the fuzzed server runs with (recorded in every gRPC repro)."""

    workers: int = 2
    queue: int = 4
    max_time_ms: float = 2000.0
    """A small `--max-time-ms`, so a search without a deadline must end quickly."""
    max_message_bytes: int = 256 * 1024
    """A small `--max-message-bytes`: requests near and over it are quicker to send."""
    token: str = "fuzz-token"
    """`--token`: requests carry it, except those sent without it on purpose ("": none)."""
    extra: tuple[str, ...] = ()
    """More `boardbot serve` flags (the probes' server: a longer `--max-time-ms`, a short
    `--grace`, `--max-search-workers`)."""

    def flags(self) -> list[str]:
        """The extra `boardbot serve` flags (start_server adds workers, queue and ports)."""
        return [
            "--max-time-ms", f"{self.max_time_ms:g}",
            "--max-message-bytes", str(self.max_message_bytes),
            *(["--token", self.token] if self.token else []),
            *self.extra,
        ]

    def to_json(self) -> dict[str, Any]:
        """A JSON object of these settings."""
        body = dict(self.__dict__)
        body["extra"] = list(self.extra)
        return body

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> ServerSettings:
        """Settings written by `to_json` (older repros: without token and extra flags)."""
        known = {k: v for k, v in body.items() if k in cls.__dataclass_fields__}
        if "token" not in body:
            known["token"] = ""
        known["extra"] = tuple(known.get("extra", ()))
        return cls(**known)


@dataclass
class FuzzServer:
    """A running server with a client channel; restartable after it dies."""

    settings: ServerSettings
    log_path: Path
    process: ServerProcess | None = None
    channel: grpc.Channel | None = None
    stub: Any = None
    conn: Any = None
    """The `grpc_client.Conn` of the current server (channel, stub, token)."""
    starts: int = 0
    log_offset: int = 0
    """Bytes of earlier servers' logs before the current one (the log file is appended to)."""
    lines: list[dict[str, Any]] = field(default_factory=list)

    def start(self) -> None:
        """Start the server (after an earlier one, keep its request log lines)."""
        if self.process is not None:
            self.lines.extend(self.request_log())
            self.stop()
        path = self.log_path.with_suffix(f".{self.starts}.log") if self.starts else self.log_path
        self.starts += 1
        s = self.settings
        self.process = start_server(s.workers, s.queue, path, s.flags())
        limit = 4 * s.max_message_bytes
        self.channel = grpc.insecure_channel(
            self.process.address,
            options=[("grpc.max_send_message_length", limit),
                     ("grpc.max_receive_message_length", limit)],
        )
        self.stub = pb_grpc.BoardBotStub(self.channel)
        from fuzz.grpc_client import Conn

        self.conn = Conn(self.channel, self.stub, s.token)

    def alive(self) -> bool:
        """True while the server process runs."""
        return self.process is not None and self.process.process.poll() is None

    def rss_mib(self) -> dict[str, float]:
        """Resident memory of the server and each worker, in MiB."""
        assert self.process is not None
        try:
            return {k: v / MIB for k, v in self.process.rss_by_process().items()}
        except psutil.Error:
            return {}

    def threads(self) -> dict[str, int]:
        """Threads of the server process and of each worker."""
        assert self.process is not None
        counts: dict[str, int] = {}
        try:
            counts["server"] = psutil.Process(self.process.process.pid).num_threads()
            for worker in self.process.workers():
                counts[f"worker {worker.pid}"] = worker.num_threads()
        except psutil.Error:
            pass
        return counts

    def worker_pids(self) -> list[int]:
        """The worker processes alive now."""
        assert self.process is not None
        try:
            return sorted(p.pid for p in self.process.workers())
        except psutil.Error:
            return []

    def metrics(self) -> dict[str, float]:
        """The server's unlabelled metrics (empty if they cannot be read)."""
        assert self.process is not None
        try:
            return self.process.metrics()
        except OSError:
            return {}

    def wait_idle(self, seconds: float) -> float:
        """Wait up to `seconds` until no worker is busy and nothing is queued; what is left."""
        limit = time.monotonic() + seconds
        while True:
            metrics = self.metrics()
            busy = metrics.get("boardbot_workers_busy", 0.0)
            busy += metrics.get("boardbot_queue_depth", 0.0)
            if busy == 0 or time.monotonic() >= limit:
                return busy
            time.sleep(0.25)

    def cpu_percent(self) -> float:
        """The server process's CPU use over one second (its workers not included)."""
        assert self.process is not None
        try:
            return float(psutil.Process(self.process.process.pid).cpu_percent(1.0))
        except psutil.Error:
            return 0.0

    def request_log(self) -> list[dict[str, Any]]:
        """The request log lines written so far by the current server, parsed."""
        assert self.process is not None
        found = []
        path = Path(self.process.log.name)
        for line in path.read_bytes().splitlines():
            if line.startswith(b'{"ts"'):
                try:
                    found.append(orjson.loads(line))
                except orjson.JSONDecodeError:
                    continue
        return found

    def all_request_logs(self) -> list[dict[str, Any]]:
        """Request log lines of every server this run started."""
        return self.lines + (self.request_log() if self.process is not None else [])

    def stop(self) -> None:
        """Close the channel and stop the server."""
        if self.channel is not None:
            self.channel.close()
            self.channel = None
        if self.process is not None:
            self.process.stop(timeout_s=15)
            self.process = None
