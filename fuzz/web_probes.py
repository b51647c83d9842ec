"""The web phase's two probes: many idle sockets, and an abandoned AnalyzeStream.

Idle sockets: open `sockets` connections that send nothing (or half a request) and hold them.
The gateway's thread count must stay within `max_threads`, and after `wait_s` seconds the
gateway must have answered or closed every one of them (a slow client frees its handler).

Abandoned stream: `POST /api/AnalyzeStream` with `every_ms` 60000 and a long time budget, so
the search runs and nothing is written for a minute. Once a server worker is busy with it,
the socket is closed (FIN or reset). The worker must be free within `busy_limit_s`: the
gateway has to notice the closed socket without writing to it and cancel the call.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from fuzz.web_cases import WebCase
from fuzz.web_http import connect, parse_head
from fuzz.web_judge import WebFailure
from fuzz.web_target import WebTarget

PARTIAL = {
    "silent": b"",
    "partial-line": b"GET /stat",
    "partial-headers": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "partial-body": b"POST /api/ListGames HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\": 1",
}
"""What each idle socket sends before falling silent, by mode."""
OPENERS = 32
"""Threads opening the idle sockets."""


@dataclass
class ProbeResult:
    """A probe's outcome, its failures and what it measured (one line for the report)."""

    outcome: str
    failures: list[WebFailure] = field(default_factory=list)
    measured: str = ""


def idle_probe(target: WebTarget, case: WebCase) -> ProbeResult:
    """Hold many idle sockets; judge the gateway's threads and whether it closes them."""
    p = case.params
    count, mode, wait_s = int(p["sockets"]), str(p["mode"]), float(p["wait_s"])
    base = target.threads()
    held: list[socket.socket] = []

    def open_one(_: int) -> socket.socket | None:
        try:
            sock = connect(target.port, 5.0)
        except OSError:
            return None
        with contextlib.suppress(OSError):  # refused at once: the gateway closed it
            sock.sendall(PARTIAL[mode])
        return sock

    try:
        # In parallel: a gateway slow to accept makes each connect wait for a SYN resend.
        with ThreadPoolExecutor(OPENERS) as pool:
            opened_socks = list(pool.map(open_one, range(count)))
        held = [sock for sock in opened_socks if sock is not None]
        refused = count - len(held)
        opened = time.monotonic()
        peak = target.threads()
        while time.monotonic() - opened < wait_s:
            time.sleep(0.25)
            peak = max(peak, target.threads())
        at_wait = target.threads()
        still_open = sum(1 for sock in held if _open(sock))
    finally:
        for sock in held:
            sock.close()
    after = _settle(target, base)
    measured = (f"idle sockets ({mode}): {count} opened ({refused} refused), threads {base} "
                f"before, peak {peak}, {at_wait} after {wait_s:g} s; {still_open} still open "
                f"after {wait_s:g} s; threads {after} 5 s after closing them")
    failures = []
    if peak > int(p["max_threads"]):
        failures.append(WebFailure(
            "idle-threads", case.label,
            f"{peak} gateway threads for {count} idle sockets (at most {p['max_threads']}); "
            f"{at_wait} still after {wait_s:g} s"))
    if still_open:
        failures.append(WebFailure(
            "idle-sockets-open", case.label,
            f"{still_open} of {count} idle sockets ({mode}) still open after {wait_s:g} s"))
    return ProbeResult("probe-failed" if failures else "probe-ok", failures, measured)


def _open(sock: socket.socket) -> bool:
    """True if the gateway neither answered nor closed this socket yet."""
    sock.setblocking(False)
    try:
        return sock.recv(1) is None
    except BlockingIOError:
        return True
    except OSError:
        return False


def _settle(target: WebTarget, base: int, seconds: float = 5.0) -> int:
    """The gateway's thread count once it is back near `base` (or after `seconds`)."""
    limit = time.monotonic() + seconds
    threads = target.threads()
    while threads > base + 2 and time.monotonic() < limit:
        time.sleep(0.1)
        threads = target.threads()
    return threads


def stream_probe(target: WebTarget, case: WebCase) -> ProbeResult:
    """Open a silent stream, close its socket while a worker searches, time the worker."""
    drain_s = target.settings.max_time_ms / 1000.0 + 5.0
    if target.wait_idle(drain_s) > 0:
        return ProbeResult("probe-skipped", measured="abandoned stream: workers never idle")
    limit = float(case.params["busy_limit_s"])
    sock = connect(target.port, 10.0)
    try:
        sock.sendall(case.data)
        head = _read_head(sock, 10.0)
        status, _ = parse_head(head)
        if status != 200:
            failures = []
            if status == 0:
                failures.append(WebFailure("no-answer", case.label,
                                           f"no status line to a valid stream: {head[:200]!r}"))
            return ProbeResult(str(status) if status else "no-answer", failures,
                               f"abandoned stream: answered {status}")
        busy = _wait_for(lambda: target.busy_workers() >= 1, 5.0)
        if not busy:
            return ProbeResult("probe-skipped",
                               measured="abandoned stream: no worker became busy")
        if case.params.get("close") == "reset":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    finally:
        sock.close()
    closed = time.monotonic()
    _wait_for(lambda: target.busy_workers() == 0, drain_s)
    freed = time.monotonic() - closed
    measured = (f"abandoned stream ({case.params.get('close')}): the worker was free "
                f"{freed:.2f} s after the socket closed")
    if freed <= limit:
        return ProbeResult("probe-ok", measured=measured)
    failure = WebFailure(
        "stream-worker-busy", case.label,
        f"a search worker stayed busy {freed:.1f} s after the AnalyzeStream's socket was "
        f"closed ({case.params.get('close')}; limit {limit:g} s)")
    return ProbeResult("probe-failed", [failure], measured)


def _read_head(sock: socket.socket, seconds: float) -> bytes:
    sock.settimeout(seconds)
    head = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            if not chunk:
                break
            head += chunk
    return head


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    limit = time.monotonic() + seconds
    while True:
        if condition():
            return True
        if time.monotonic() >= limit:
            return False
        time.sleep(0.05)
