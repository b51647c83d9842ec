"""A pool of search worker processes with a bounded admission queue.

Each worker is one process fed through a pipe by one dispatcher thread in the server. A job
can be cancelled (a shared flag the search polls), a crashed worker is replaced and its job
fails cleanly, and once `workers + queue_limit` jobs are outstanding `submit` refuses at once.
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import multiprocessing
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from service.errors import ServiceError
from service.search_job import SearchJob, SearchOutcome
from service.worker_main import worker_main

READY_TIMEOUT_S = 120.0
"""How long a new worker process may take to import everything and report ready."""


class PoolBusy(Exception):
    """Every worker is busy and the admission queue is full."""


class PoolClosed(Exception):
    """The pool is shutting down and takes no new jobs."""


class _Phase(enum.Enum):
    QUEUED = 1
    RUNNING = 2
    DONE = 3


class PoolJob:
    """A submitted job: its events (partial outcomes, then a final outcome or an error)."""

    def __init__(self, pool: WorkerPool, payload: SearchJob) -> None:
        self.payload = payload
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.phase = _Phase.QUEUED
        self.worker: _Worker | None = None
        self.queued_at = time.perf_counter()
        self._pool = pool

    def cancel(self) -> None:
        """Stop the job: drop it if still queued, else ask its search to stop now."""
        self._pool._cancel(self)

    def stream(self, timeout: float | None = None) -> Iterator[SearchOutcome]:
        """Partial outcomes as they come, then the final one; raises ServiceError on failure."""
        while True:
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
                raise ServiceError.from_wire("DEADLINE_EXCEEDED", "no answer in time") from None
            kind = event[0]
            if kind == "error":
                raise ServiceError.from_wire(event[1], event[2])
            yield event[1]
            if kind == "done":
                return

    def result(self, timeout: float | None = None) -> SearchOutcome:
        """The final outcome (partial ones are skipped); raises ServiceError on failure."""
        last = None
        for outcome in self.stream(timeout):
            last = outcome
        assert last is not None
        return last


class _Worker:
    """One worker process and the dispatcher thread that feeds it."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.cancel_flag: Any = pool._ctx.RawValue("b", 0)
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.pid = 0
        self.current: PoolJob | None = None
        self.thread = threading.Thread(
            target=self._serve, name=f"boardbot-worker-{index}", daemon=True
        )

    def spawn(self) -> None:
        """Start a fresh worker process and wait until it reports ready."""
        parent_end, child_end = self.pool._ctx.Pipe(duplex=True)
        process = self.pool._ctx.Process(
            target=worker_main,
            args=(child_end, self.cancel_flag, self.pool.extra_games),
            name=f"boardbot-search-{self.index}",
            daemon=False,  # root-parallel search may start processes of its own
        )
        process.start()
        child_end.close()
        message = None
        try:
            if parent_end.poll(READY_TIMEOUT_S):
                message = parent_end.recv()
        except (EOFError, OSError):
            pass  # it died while starting
        if message is None or message[0] != "ready":
            process.kill()
            process.join(timeout=5)
            parent_end.close()
            raise RuntimeError(f"a search worker failed to start (exit code {process.exitcode})")
        self.process, self.conn, self.pid = process, parent_end, message[1]

    def _serve(self) -> None:
        while True:
            job = self.pool._jobs.get()
            if job is None:
                break
            self._run(job)
        self._stop_process()

    def _run(self, job: PoolJob) -> None:
        with self.pool._lock:
            if job.phase is not _Phase.QUEUED:
                return  # cancelled while it waited
            job.phase = _Phase.RUNNING
            job.worker = self
            self.current = job
            self.pool._running += 1
            self.cancel_flag.value = 0
        try:
            if self.process is None or not self.process.is_alive():
                self._replace()
            assert self.conn is not None and self.process is not None
            self.conn.send(job.payload)
            while True:
                ready = wait([self.conn, self.process.sentinel])
                if self.conn not in ready:
                    raise EOFError
                event = self.conn.recv()
                if event[0] == "progress":
                    job.events.put(event)
                    continue
                self.pool._finish(self, job, event)
                return
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            self.pool._finish(
                self,
                job,
                (
                    "error",
                    "UNAVAILABLE",
                    f"the search worker stopped unexpectedly (exit code {code}); "
                    "it has been replaced and the request can be retried",
                ),
            )
            self._replace()
        except Exception as error:  # e.g. an answer that cannot be unpickled
            self.pool._finish(
                self, job, ("error", "INTERNAL", f"worker protocol error: {type(error).__name__}")
            )
            self._replace()  # its pipe may hold half a message: start clean

    def _replace(self) -> None:
        self._stop_process()
        self.pool.restarts += 1
        if self.pool.on_restart is not None:
            self.pool.on_restart()
        while True:
            try:
                self.spawn()
                return
            except (RuntimeError, OSError):
                time.sleep(1.0)  # keep trying: a pool without this worker would shrink for good

    def _stop_process(self) -> None:
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        if process is not None:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)


class WorkerPool:
    """Search worker processes behind a bounded admission queue."""

    def __init__(
        self,
        workers: int,
        queue_limit: int,
        on_restart: Callable[[], None] | None = None,
        start_method: str = "spawn",
        extra_games: str | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if queue_limit < 0:
            raise ValueError("queue_limit must be at least 0")
        self._ctx: Any = multiprocessing.get_context(start_method)
        self.size = workers
        self.queue_limit = queue_limit
        self.on_restart = on_restart
        self.extra_games = extra_games
        """Games registered in each worker (`name=module:Class,…`; None: from the environment)."""
        self.restarts = 0
        self._jobs: queue.Queue[PoolJob | None] = queue.Queue()
        self._lock = threading.Lock()
        self._outstanding = 0
        self._running = 0
        self._closed = False
        self._workers = [_Worker(self, i) for i in range(workers)]
        self._started = False

    def start(self) -> None:
        """Start every worker process (in parallel) and wait until all are ready."""
        spawners = [threading.Thread(target=w.spawn) for w in self._workers]
        for thread in spawners:
            thread.start()
        for thread in spawners:
            thread.join()
        for worker in self._workers:
            if worker.process is None:
                raise RuntimeError("a search worker failed to start")
            worker.thread.start()
        self._started = True
        atexit.register(_close_at_exit, weakref.ref(self))

    def submit(self, job: SearchJob) -> PoolJob:
        """Queue `job`; raises PoolBusy at once when the admission queue is full."""
        pool_job = PoolJob(self, job)
        with self._lock:
            if self._closed:
                raise PoolClosed("the server is shutting down")
            if self._outstanding >= self.size + self.queue_limit:
                raise PoolBusy(
                    f"all {self.size} search workers are busy and {self.queue_limit} "
                    "requests are already waiting; retry later"
                )
            self._outstanding += 1
        self._jobs.put(pool_job)
        return pool_job

    @property
    def queue_depth(self) -> int:
        """Jobs admitted but not yet running."""
        with self._lock:
            return self._outstanding - self._running

    @property
    def busy(self) -> int:
        """Jobs running now."""
        with self._lock:
            return self._running

    def worker_pids(self) -> list[int]:
        """Process ids of the current workers."""
        return [w.pid for w in self._workers]

    def busy_pids(self) -> list[int]:
        """Process ids of the workers running a job now."""
        with self._lock:
            return [w.pid for w in self._workers if w.current is not None]

    def close(self) -> None:
        """Refuse new jobs, let queued and running ones finish, then stop the workers."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if not self._started:
            return
        for _ in self._workers:
            self._jobs.put(None)
        for worker in self._workers:
            worker.thread.join()

    def _cancel(self, job: PoolJob) -> None:
        with self._lock:
            if job.phase is _Phase.QUEUED:
                job.phase = _Phase.DONE
                self._outstanding -= 1
                job.events.put(("error", "CANCELLED", "the request was cancelled before it ran"))
            elif job.phase is _Phase.RUNNING and job.worker and job.worker.current is job:
                job.worker.cancel_flag.value = 1

    def _finish(self, worker: _Worker, job: PoolJob, event: tuple[Any, ...]) -> None:
        with self._lock:
            job.phase = _Phase.DONE
            worker.current = None
            self._outstanding -= 1
            self._running -= 1
        job.events.put(event)


def _close_at_exit(ref: weakref.ref[WorkerPool]) -> None:
    pool = ref()
    if pool is not None:
        pool.close()
