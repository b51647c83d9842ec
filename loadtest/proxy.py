"""HAProxy in front of boardbot replicas: its configuration, its process, its view of each replica.

HAProxy speaks gRPC as HTTP/2 on both sides (cleartext, prior knowledge), balances each call
on its own (not each connection), checks every replica with a real gRPC health check
(`health_probe`), and retries a call on another replica only when it never reached one (the
connection to the replica failed). The statistics socket tells which replicas it counts as up
and how many calls each has in flight; its log names the replica of every call by the
`x-request-id` the client sent.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from loadtest.health_probe import SERVING_MESSAGE, STATUS_MESSAGE_PREFIX, health_check_request
from loadtest.server_process import HOST

HAPROXY_PATHS = ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy")
"""Where Debian and a source build put haproxy, outside a normal user's PATH."""
REQUEST_ID_HEADER = "x-request-id"
"""The metadata key the load-test clients set on every call, logged by the proxy."""
_LOG_LINE = re.compile(
    r"rid=(?P<rid>\S*) server=(?P<server>\S+) status=(?P<status>-?\d+) flags=(?P<flags>\S+) "
    r"retries=(?P<retries>\S+) total_ms=(?P<total_ms>-?\d+)"
)


class ProxyError(RuntimeError):
    """HAProxy is missing, did not start, or did not see the replicas come up in time."""


def find_haproxy() -> str | None:
    """The haproxy executable: on PATH, or where Debian installs it; None when absent."""
    found = shutil.which("haproxy")
    if found is not None:
        return found
    return next((path for path in HAPROXY_PATHS if Path(path).is_file()), None)


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class ProxySettings:
    """How HAProxy checks the replicas and how long a call may take."""

    check_interval_ms: int = 500
    """A health check of each replica this often."""
    fall: int = 2
    """Failed checks in a row that mark a replica down."""
    rise: int = 2
    """Passed checks in a row that mark it up again."""
    check_timeout_ms: int = 1000
    """A check without an answer by then has failed."""
    retries: int = 3
    """Connection attempts for a call, each (with redispatch) to another replica if one is up."""
    balance: str = "leastconn"
    call_timeout_s: int = 60
    """The longest a call may wait for its replica's answer (above any client deadline)."""

    def drain_detection_s(self) -> float:
        """About the longest a replica answering NOT_SERVING stays marked up: `fall` checks,
        one every interval (a replica's --drain must be longer)."""
        return self.fall * self.check_interval_ms / 1000


def haproxy_config(
    listen_port: int,
    servers: Sequence[tuple[str, int]],
    stats_socket: Path,
    settings: ProxySettings,
) -> str:
    """The haproxy.cfg of a gRPC frontend on `listen_port` over the replicas `(name, port)`."""
    probe = health_check_request(HOST).hex()
    # Wait for any status (UNKNOWN, SERVING, NOT_SERVING, SERVICE_UNKNOWN), then require
    # SERVING: a draining replica fails its check as soon as it answers, not at the timeout.
    any_status = f"{STATUS_MESSAGE_PREFIX.hex()}0[0-3]"
    lines = [
        "global",
        f"    stats socket {stats_socket} mode 600 level admin",
        "    log stdout format raw local0",
        "",
        "defaults",
        "    mode http",
        "    log global",
        '    log-format "rid=%[capture.req.hdr(0)] server=%s status=%ST flags=%tsc '
        'retries=%rc total_ms=%Ta"',
        "    timeout connect 1s",
        f"    timeout client {settings.call_timeout_s}s",
        f"    timeout server {settings.call_timeout_s}s",
        f"    timeout check {settings.check_timeout_ms}ms",
        "    # A call whose connection to a replica failed never reached it: try another one.",
        "    # A call that reached a replica is never sent twice (no empty-response, no 5xx).",
        f"    retries {settings.retries}",
        "    retry-on conn-failure",
        "    option redispatch 1",
        "",
        "frontend grpc",
        f"    bind {HOST}:{listen_port} proto h2",
        f"    capture request header {REQUEST_ID_HEADER} len 64",
        "    default_backend boardbot",
        "",
        "backend boardbot",
        f"    balance {settings.balance}",
        "    # grpc.health.v1.Health/Check spoken as raw HTTP/2 (loadtest/health_probe.py):",
        "    # up only while the answer is SERVING; NOT_SERVING (a replica draining after",
        "    # SIGTERM) fails the check at once, a dead port fails it at connect.",
        "    option tcp-check",
        "    tcp-check connect",
        f"    tcp-check send-binary {probe}",
        f"    tcp-check expect rbinary {any_status}",
        f"    tcp-check expect min-recv 0 binary {SERVING_MESSAGE.hex()}",
        f"    default-server proto h2 check inter {settings.check_interval_ms}ms "
        f"fall {settings.fall} rise {settings.rise}",
        *(f"    server {name} {HOST}:{port}" for name, port in servers),
        "",
    ]
    return "\n".join(lines)


@dataclass(frozen=True)
class ServerState:
    """One replica as HAProxy sees it."""

    name: str
    status: str
    """`UP`, `DOWN`, or a transition such as `UP 1/2` (up, one check failed)."""
    in_flight: int
    """Calls HAProxy has sent it that have not ended."""
    sessions: int
    """Calls HAProxy has sent it in all (a call redispatched elsewhere included)."""
    retries: int
    """Connection attempts to it that failed and were tried again."""
    redispatches: int
    """Calls sent to another replica after failing to reach it."""

    @property
    def up(self) -> bool:
        """HAProxy sends it calls."""
        return self.status == "UP" or self.status.startswith("UP ")


@dataclass(frozen=True)
class ProxyLogLine:
    """What HAProxy logged about one call."""

    request_id: str
    server: str
    """The replica that answered (or failed), `<NOSRV>` when none was up."""
    status: int
    """The HTTP status sent to the client (-1: none, the stream was reset)."""
    flags: str
    """HAProxy's termination state, e.g. `----` for a normal end, `SD--` for a replica that
    closed the connection while the call was in flight."""
    retries: str
    total_ms: int


@dataclass
class Proxy:
    """A running HAProxy."""

    process: subprocess.Popen[bytes]
    address: str
    config: Path
    stats_socket: Path
    log_path: Path
    log: IO[bytes]

    def states(self) -> dict[str, ServerState]:
        """Every replica's state now, by name."""
        text = self._command("show stat")
        states = {}
        for record in csv.DictReader(io.StringIO(text.lstrip("# "))):
            if record["pxname"] != "boardbot" or record["svname"] in ("FRONTEND", "BACKEND"):
                continue
            states[record["svname"]] = ServerState(
                name=record["svname"],
                status=record["status"],
                in_flight=int(record["scur"] or 0),
                sessions=int(record["stot"] or 0),
                retries=int(record["wretr"] or 0),
                redispatches=int(record["wredis"] or 0),
            )
        return states

    def wait_status(self, name: str, up: bool, timeout_s: float) -> float:
        """Poll until HAProxy counts `name` up (or down); the wall-clock time it was seen."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.check_alive()
            state = self.states().get(name)
            if state is None:
                raise ProxyError(f"haproxy has no server {name}")
            if state.up == up:
                return time.time()
            time.sleep(0.02)
        raise ProxyError(
            f"haproxy did not mark {name} {'up' if up else 'down'} within {timeout_s:.0f} s"
        )

    def check_alive(self) -> None:
        """Raise ProxyError if HAProxy has exited."""
        if self.process.poll() is not None:
            raise ProxyError(f"haproxy exited with code {self.process.returncode}; "
                             f"see {self.log_path}")

    def stop(self) -> int:
        """Stop HAProxy (SIGUSR1 lets it finish calls in flight); its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGUSR1)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()
        return self.process.returncode

    def _command(self, command: str) -> str:
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(5)
            client.connect(str(self.stats_socket))
            client.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := client.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()


def start_proxy(
    servers: Sequence[tuple[str, int]], out_dir: Path, settings: ProxySettings,
    ready_timeout_s: float = 30.0,
) -> Proxy:
    """Start HAProxy on a free loopback port over `servers` and wait until all are up."""
    executable = find_haproxy()
    if executable is None:
        raise ProxyError("haproxy is not installed (Debian: apt-get install haproxy)")
    out_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    stats_socket = out_dir / "haproxy.sock"
    stats_socket.unlink(missing_ok=True)
    config = out_dir / "haproxy.cfg"
    config.write_text(haproxy_config(port, servers, stats_socket, settings), encoding="utf-8")
    checked = subprocess.run([executable, "-c", "-q", "-f", str(config)], capture_output=True,
                             text=True, check=False)
    if checked.returncode != 0:
        raise ProxyError(f"haproxy rejects {config}: {checked.stderr.strip()}")
    log_path = out_dir / "haproxy.log"
    log = log_path.open("wb")
    process = subprocess.Popen([executable, "-db", "-f", str(config)], stdout=log,
                               stderr=subprocess.STDOUT)
    proxy = Proxy(process, f"{HOST}:{port}", config, stats_socket, log_path, log)
    deadline = time.monotonic() + ready_timeout_s
    try:
        while not stats_socket.exists():
            proxy.check_alive()
            if time.monotonic() > deadline:
                raise ProxyError(f"haproxy opened no statistics socket; see {log_path}")
            time.sleep(0.05)
        for name, _ in servers:
            proxy.wait_status(name, True, max(1.0, deadline - time.monotonic()))
    except (ProxyError, OSError):
        proxy.stop()
        raise
    return proxy


def read_proxy_log(path: Path) -> dict[str, ProxyLogLine]:
    """HAProxy's log lines of calls that carried a request id, by that id."""
    lines = {}
    for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _LOG_LINE.search(text)
        if match is None or match["rid"] in ("", "-"):
            continue
        lines[match["rid"]] = ProxyLogLine(
            request_id=match["rid"],
            server=match["server"],
            status=int(match["status"]),
            flags=match["flags"],
            retries=match["retries"],
            total_ms=int(match["total_ms"]),
        )
    return lines
