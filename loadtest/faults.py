"""Fault injection: kill the busiest search worker of a running server mid-load, time recovery."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import psutil

from loadtest.server_process import ServerProcess, health_status


@dataclass
class KillRecord:
    """What the injector did: the killed worker's pid, and how long the server took to recover."""

    pid: int | None = None
    replaced_s: float | None = None
    """Seconds from the kill until a new worker process ran and health was SERVING."""
    recovery_s: float | None = None
    """Seconds from the kill until the server was seen running a search on every worker at
    once again (the replacement had started up and taken work); None if never seen."""
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)


BUSY_SHARE = 0.6
"""A worker using at least this share of a core over the sample is taken to be mid-search."""


def busiest_worker(server: ServerProcess, sample_s: float = 0.2) -> tuple[psutil.Process, float]:
    """The worker that used the most CPU over `sample_s` seconds, and its share of a core."""
    workers = server.workers()
    if not workers:
        raise psutil.NoSuchProcess(0, msg="the server has no worker processes")
    before = {w.pid: sum(w.cpu_times()[:2]) for w in workers}
    time.sleep(sample_s)
    best, best_use = workers[0], -1.0
    for worker in workers:
        try:
            use = sum(worker.cpu_times()[:2]) - before[worker.pid]
        except psutil.NoSuchProcess:
            continue
        if use > best_use:
            best, best_use = worker, use
    return best, best_use / sample_s


def busy_worker(server: ServerProcess, attempts: int = 25) -> psutil.Process:
    """A worker found mid-search (after at most `attempts` samples, the busiest one seen)."""
    worker, share = busiest_worker(server)
    for _ in range(attempts - 1):
        if share >= BUSY_SHARE:
            break
        worker, share = busiest_worker(server)
    return worker


def wait_replaced(server: ServerProcess, workers: int, killed_pid: int, timeout_s: float) -> bool:
    """Poll until `workers` workers (none of them `killed_pid`) run and health is SERVING."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pids = {w.pid for w in server.workers() if w.is_running()}
        replaced = len(pids) >= workers and killed_pid not in pids
        if replaced and health_status(server.address) == "SERVING":
            return True
        time.sleep(0.05)
    return False


def wait_full_capacity(server: ServerProcess, workers: int, timeout_s: float) -> bool:
    """Poll the server's metrics until `workers` searches run at once."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.metrics().get("boardbot_workers_busy", 0.0) >= workers:
            return True
        time.sleep(0.02)
    return False


def kill_worker_later(
    server: ServerProcess, delay_s: float, workers: int, watch_s: float
) -> KillRecord:
    """After `delay_s`, SIGKILL the busiest worker, then watch the recovery for up to `watch_s`
    seconds (while the load still runs), in a background thread."""
    record = KillRecord()

    def run() -> None:
        try:
            time.sleep(delay_s)
            worker = busy_worker(server)
            worker.kill()
            killed_at = time.monotonic()
            record.pid = worker.pid
            if wait_replaced(server, workers, worker.pid, watch_s):
                record.replaced_s = time.monotonic() - killed_at
            remaining = watch_s - (time.monotonic() - killed_at)
            if wait_full_capacity(server, workers, remaining):
                record.recovery_s = time.monotonic() - killed_at
        except (psutil.Error, OSError) as error:
            record.error = f"{type(error).__name__}: {error}"
        finally:
            record.done.set()

    threading.Thread(target=run, name="fault-injector", daemon=True).start()
    return record
