"""A pool of worker processes with a bounded admission queue and a watchdog.

Each worker is one process fed through a pipe by one dispatcher thread in the server. A job
can be cancelled (a shared flag the search polls), a crashed worker is replaced and its job
fails cleanly, and once `workers + queue_limit` jobs are outstanding `submit` refuses at once.

Every job has a hard end: its deadline, or the time it may run, plus the watchdog margin. A
worker still busy then (an engine call that never returns, a search that ignores its clock) is
killed and replaced, and the job answered DEADLINE_EXCEEDED (CANCELLED when it was cancelled).

A job with an affinity (a search's `session_key`: its worker keeps the search tree) goes to the
worker its key hashes to when that worker is free, else to any free worker (which searches
without the kept tree); a job without one goes to any free worker, as before.

The pool counts its size as its cores. A job that can use several (`SharesCores`: a native
search with threads) is told, as a worker picks it up, how many are idle: the size minus the
cores the running jobs keep busy. So concurrent jobs share the cores instead of each taking all.

A job marked `low_priority` (a game review's position) runs behind the others: a worker takes
it only when no other job waits for that worker, and low-priority jobs hold at most all workers
but one (at least one); waiting low-priority jobs do not count against the admission of the
others. So an interactive request waits at most for a review's position already running.
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import math
import multiprocessing
import queue
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, runtime_checkable

from boardbot.engine.errors import BoardbotError
from boardbot.jobs.failures import FailureKind, Reason, RequestError, Wire, deadline_exceeded
from boardbot.jobs.worker_main import worker_main

READY_TIMEOUT_S = 120.0
"""How long a new worker process may take to import everything and report ready."""
WATCH_SLICE_S = 0.05
"""How often a dispatcher re-checks its job's hard end while waiting for the worker."""
IDLE_CHECK_S = 0.5
"""How often an idle dispatcher checks that its worker process is still alive (one that died
while idle is replaced before a request lands on it)."""


class PoolBusy(BoardbotError):
    """Every worker is busy and the admission queue is full."""


class PoolClosed(BoardbotError):
    """The pool is shutting down and takes no new jobs."""


class TimedJob(Protocol):
    """What the pool needs to know of a job: when it must be over."""

    def time_limit(self) -> tuple[float | None, float | None]:
        """(absolute `time.time()` deadline or None, seconds it may run or None)."""
        ...


@runtime_checkable
class SharesCores(TimedJob, Protocol):
    """A job that may keep several cores busy, told how many are idle when it starts."""

    def on_dispatch(self, idle_cores: int) -> SharesCores:
        """The job to run now that a worker picked it up with `idle_cores` of the pool's
        cores idle (the pool's size minus the cores its running jobs keep busy)."""
        ...

    def cores(self) -> int:
        """Cores the job keeps busy while it runs."""
        ...


class _Phase(enum.Enum):
    QUEUED = 1
    RUNNING = 2
    DONE = 3


class PoolJob:
    """A submitted job: its events (partial outcomes, then a final outcome or an error)."""

    def __init__(self, pool: WorkerPool, payload: TimedJob) -> None:
        self.payload = payload
        self.events: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self.phase = _Phase.QUEUED
        self.worker: _Worker | None = None
        self.queued_at = time.perf_counter()
        self.cancelled_at: float | None = None
        """`time.monotonic()` of the cancel, once cancelled while running."""
        self.cores = 1
        """Cores the job keeps busy while it runs (set when it starts)."""
        self.preferred = preferred_worker(payload, pool.size)
        """The worker that should run it when free (its affinity's), or None."""
        self.low_priority = bool(getattr(payload, "low_priority", False))
        """It runs behind the jobs without the mark (a review's position)."""
        self._pool = pool

    def cancel(self) -> None:
        """Stop the job: drop it if still queued, else ask it to stop now (killed if it won't)."""
        self._pool._cancel(self)

    def stream(self, timeout: float | None = None) -> Iterator[Any]:
        """Partial outcomes as they come, then the final one; raises RequestError on failure."""
        while True:
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
                raise deadline_exceeded("no answer in time") from None
            kind = event[0]
            if kind == "error":
                raise RequestError.from_wire(event[1])
            yield event[1]
            if kind == "done":
                return

    def result(self, timeout: float | None = None) -> Any:
        """The final outcome (partial ones are skipped); raises RequestError on failure."""
        last = None
        for outcome in self.stream(timeout):
            last = outcome
        assert last is not None
        return last


def preferred_worker(payload: object, workers: int) -> int | None:
    """The worker index a job's affinity key (`payload.affinity()`) hashes to, or None."""
    affinity = getattr(payload, "affinity", None)
    key = affinity() if callable(affinity) else None
    if not isinstance(key, str) or not key:
        return None
    return zlib.crc32(key.encode()) % workers


class _JobBoard:
    """The jobs waiting for a worker (and the stop markers, None), in arrival order.

    A worker takes the first item it may run: a stop marker, a job without a preferred worker,
    a job preferring it, or a job whose preferred worker is busy (not waiting for a job)."""

    def __init__(self, pool: WorkerPool) -> None:
        self._pool = pool
        self._items: list[PoolJob | None] = []
        self._cond = threading.Condition()
        self._waiting: set[int] = set()
        self.low_queued = 0
        """Low-priority jobs on the board."""
        self.low_taken = 0
        """Low-priority jobs taken by a worker and not yet done with."""

    def put(self, item: PoolJob | None) -> None:
        with self._cond:
            self._items.append(item)
            if item is not None and item.low_priority:
                self.low_queued += 1
            self._cond.notify_all()

    def low_done(self) -> None:
        """A low-priority job a worker took is over (its slot is free for another)."""
        with self._cond:
            self.low_taken -= 1
            self._cond.notify_all()

    def get_nowait(self) -> PoolJob | None:
        """The first item; queue.Empty when there is none."""
        with self._cond:
            if not self._items:
                raise queue.Empty
            return self._take(0)

    def _take(self, index: int) -> PoolJob | None:
        item = self._items.pop(index)
        if item is not None and item.low_priority:
            self.low_queued -= 1
        return item

    def get(self, worker: int, timeout: float) -> PoolJob | None:
        """The first item worker `worker` may run, waiting up to `timeout` seconds for one
        (queue.Empty when none came)."""
        end = time.monotonic() + timeout
        with self._cond:
            self._waiting.add(worker)
            try:
                while True:
                    i = self._first_runnable(worker)
                    if i is not None:
                        self._waiting.discard(worker)
                        self._cond.notify_all()  # a job preferring it may go elsewhere now
                        item = self._take(i)
                        if item is not None and item.low_priority:
                            self.low_taken += 1
                        return item
                    left = end - time.monotonic()
                    if left <= 0:
                        raise queue.Empty
                    self._cond.wait(left)
            finally:
                self._waiting.discard(worker)

    def _first_runnable(self, worker: int) -> int | None:
        """The index of the item `worker` takes: a stop marker or a job it may run, jobs
        without the low-priority mark first; a low-priority one only while fewer than
        `low_priority_slots` are running."""
        low = None
        for i, item in enumerate(self._items):
            if item is None or (not item.low_priority and self._may_run(item, worker)):
                return i
            if low is None and item.low_priority and self._may_run(item, worker):
                low = i
        if low is not None and self.low_taken < self._pool.low_priority_slots:
            return low
        return None

    def _may_run(self, job: PoolJob, worker: int) -> bool:
        preferred = job.preferred
        return preferred is None or preferred == worker or preferred not in self._waiting


def _error(kind: FailureKind, reason: Reason, message: str) -> tuple[str, Wire]:
    """A job's failure event, as the worker process would send it."""
    return ("error", RequestError(kind, message, reason).to_wire())


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
            target=self._serve, name=f"boardbot-{pool.name}-{index}", daemon=True
        )

    def spawn(self) -> None:
        """Start a fresh worker process and wait until it reports ready."""
        parent_end, child_end = self.pool._ctx.Pipe(duplex=True)
        process = self.pool._ctx.Process(
            target=worker_main,
            args=(child_end, self.cancel_flag, self.pool.extra_games, self.pool.tree_cache),
            name=f"boardbot-{self.pool.name}-{self.index}",
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
            raise RuntimeError(f"a worker failed to start (exit code {process.exitcode})")
        self.process, self.conn, self.pid = process, parent_end, message[1]

    def _serve(self) -> None:
        while True:
            try:
                job = self.pool._jobs.get(self.index, IDLE_CHECK_S)
            except queue.Empty:
                self._replace_if_dead()
                continue
            if job is None:
                break
            self._run(job)
        self._stop_process()

    def _replace_if_dead(self) -> None:
        """Replace the idle worker process if it has died (killed, out of memory, ...)."""
        if self.process is not None and not self.process.is_alive() and not self.pool.closed:
            self._replace()

    def _start(self, job: PoolJob) -> bool:
        with self.pool._lock:
            if job.phase is not _Phase.QUEUED:
                return False  # cancelled while it waited
            job.phase = _Phase.RUNNING
            job.worker = self
            self.current = job
            self.pool._running += 1
            if isinstance(job.payload, SharesCores):
                idle = max(0, self.pool.size - self.pool._cores_busy)
                dispatched = job.payload.on_dispatch(idle)
                job.payload, job.cores = dispatched, max(1, dispatched.cores())
            self.pool._cores_busy += job.cores
            self.cancel_flag.value = 0
        return True

    def _run(self, job: PoolJob) -> None:
        try:
            self._run_job(job)
        finally:
            if job.low_priority:
                self.pool._jobs.low_done()

    def _run_job(self, job: PoolJob) -> None:
        if not self._start(job):
            return
        deadline, budget = job.payload.time_limit()
        if deadline is not None and time.time() >= deadline:
            self.pool._finish(
                self,
                job,
                _error(
                    FailureKind.DEADLINE_EXCEEDED,
                    Reason.DEADLINE_EXCEEDED,
                    "the deadline passed while the request waited for a worker",
                ),
            )
            return
        try:
            if self.process is None or not self.process.is_alive():
                self._replace()
            assert self.conn is not None and self.process is not None
            hard_end = self._hard_end(deadline, budget)
            self.conn.send(job.payload)
            while True:
                event = self._next_event(job, hard_end)
                if event is None:
                    self._kill_overdue(job)
                    return
                if event[0] == "progress":
                    job.events.put(event)
                    continue
                self.pool._finish(self, job, event)
                return
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            if self.pool.closed:
                event = _error(
                    FailureKind.UNAVAILABLE,
                    Reason.SHUTTING_DOWN,
                    "the server shut down before it answered",
                )
            else:
                event = _error(
                    FailureKind.UNAVAILABLE,
                    Reason.WORKER_FAILED,
                    f"the worker stopped unexpectedly (exit code {code}); it has been "
                    "replaced and the request can be retried",
                )
            self.pool._finish(self, job, event)
            self._replace()
        except Exception as error:  # e.g. an answer that cannot be unpickled
            self.pool._finish(
                self,
                job,
                _error(
                    FailureKind.INTERNAL,
                    Reason.INTERNAL,
                    f"worker protocol error: {type(error).__name__}",
                ),
            )
            self._replace()  # its pipe may hold half a message: start clean

    def _hard_end(self, deadline: float | None, budget: float | None) -> float:
        """The `time.monotonic()` instant after which the worker is killed."""
        margin = self.pool.watchdog_margin_s
        now_mono, now_wall = time.monotonic(), time.time()
        ends = [math.inf]
        if deadline is not None:
            ends.append(now_mono + (deadline - now_wall) + margin)
        if budget is not None:
            ends.append(now_mono + budget + margin)
        return min(ends)

    def _next_event(self, job: PoolJob, hard_end: float) -> tuple[Any, ...] | None:
        """The worker's next message, or None once the job is past its hard end."""
        assert self.conn is not None and self.process is not None
        while True:
            end = hard_end
            if job.cancelled_at is not None:
                end = min(end, job.cancelled_at + self.pool.watchdog_margin_s)
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready = wait([self.conn, self.process.sentinel], timeout=min(left, WATCH_SLICE_S))
            if self.conn in ready:
                event: tuple[Any, ...] = self.conn.recv()
                return event
            if ready:
                raise EOFError  # the process ended without a message

    def _kill_overdue(self, job: PoolJob) -> None:
        """Kill the worker running an overdue job, answer the job, start a fresh worker."""
        if self.process is not None:
            self.process.kill()
        self.pool.kills += 1
        if self.pool.on_kill is not None:
            self.pool.on_kill()
        margin = self.pool.watchdog_margin_s
        deadline = job.payload.time_limit()[0]
        past_deadline = deadline is not None and time.time() >= deadline
        if job.cancelled_at is not None and not past_deadline:
            event = _error(
                FailureKind.CANCELLED,
                Reason.CANCELLED,
                f"the request was cancelled and its worker, still busy {margin:g} s later, "
                "was replaced",
            )
        else:
            event = _error(
                FailureKind.DEADLINE_EXCEEDED,
                Reason.DEADLINE_EXCEEDED,
                f"no answer by the deadline plus {margin:g} s: the worker was stopped and replaced",
            )
        self.pool._finish(self, job, event)
        self._replace()

    def _replace(self) -> None:
        self._stop_process()
        if self.pool.closed:
            return  # shutting down: nothing to replace it for
        self.pool.restarts += 1
        if self.pool.on_restart is not None:
            self.pool.on_restart()
        while not self.pool.closed:
            try:
                self.spawn()
                return
            except (RuntimeError, OSError):
                time.sleep(1.0)  # keep trying: a pool without this worker would shrink for good

    def kill(self) -> None:
        """Kill the worker process at once (shutdown past its grace)."""
        process = self.process
        if process is not None and process.is_alive():
            process.kill()

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
    """Worker processes behind a bounded admission queue, each job bounded in time."""

    def __init__(
        self,
        workers: int,
        queue_limit: int,
        on_restart: Callable[[], None] | None = None,
        start_method: str = "spawn",
        extra_games: str | None = None,
        watchdog_margin_s: float = 1.0,
        on_kill: Callable[[], None] | None = None,
        name: str = "worker",
        tree_cache: tuple[int, int] | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        if queue_limit < 0:
            raise ValueError("queue_limit must be at least 0")
        if not watchdog_margin_s > 0:
            raise ValueError("watchdog_margin_s must be positive")
        self._ctx: Any = multiprocessing.get_context(start_method)
        self.name = name
        self.size = workers
        self.queue_limit = queue_limit
        self.on_restart = on_restart
        self.on_kill = on_kill
        self.watchdog_margin_s = watchdog_margin_s
        self.extra_games = extra_games
        """Games registered in each worker (`name=module:Class,…`; None: from the environment)."""
        self.tree_cache = tree_cache
        """(entries, nodes) bounding each worker's kept search trees (None: the defaults of
        `jobs/tree_cache.py`)."""
        self.restarts = 0
        self.kills = 0
        """Workers the watchdog killed (a job past its hard end)."""
        self.admitted = 0
        """Jobs admitted since the pool started."""
        self.closed = False
        self._jobs = _JobBoard(self)
        self._lock = threading.Lock()
        self._outstanding = 0
        self._running = 0
        self._cores_busy = 0
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
                raise RuntimeError("a worker failed to start")
            worker.thread.start()
        self._started = True
        atexit.register(_close_at_exit, weakref.ref(self))

    @property
    def low_priority_slots(self) -> int:
        """Workers low-priority jobs may hold at once: all but one, at least one."""
        return max(1, self.size - 1)

    def submit(self, job: TimedJob) -> PoolJob:
        """Queue `job`; raises PoolBusy at once when the admission queue is full (for a job
        without the low-priority mark, low-priority jobs still waiting are not counted)."""
        pool_job = PoolJob(self, job)
        with self._lock:
            if self.closed:
                raise PoolClosed("the server is shutting down")
            counted = self._outstanding
            if not pool_job.low_priority:
                counted -= self._jobs.low_queued
            if counted >= self.size + self.queue_limit:
                raise PoolBusy(
                    f"all {self.size} {self.name}s are busy and {self.queue_limit} "
                    "requests are already waiting; retry later"
                )
            self._outstanding += 1
            self.admitted += 1
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

    @property
    def cores_busy(self) -> int:
        """Cores the running jobs keep busy (a search with N threads counts N)."""
        with self._lock:
            return self._cores_busy

    def worker_pids(self) -> list[int]:
        """Process ids of the current workers."""
        return [w.pid for w in self._workers]

    def busy_pids(self) -> list[int]:
        """Process ids of the workers running a job now."""
        with self._lock:
            return [w.pid for w in self._workers if w.current is not None]

    def close(self, timeout: float | None = None) -> None:
        """Refuse new jobs, let queued and running ones finish, then stop the workers.

        With a `timeout`, workers still busy after that many seconds are killed, so closing
        never takes much longer than `timeout`.
        """
        with self._lock:
            if self.closed:
                return
            self.closed = True
        if not self._started:
            return
        for _ in self._workers:
            self._jobs.put(None)
        end = None if timeout is None else time.monotonic() + timeout
        for worker in self._workers:
            worker.thread.join(None if end is None else max(0.0, end - time.monotonic()))
        if any(w.thread.is_alive() for w in self._workers):
            for worker in self._workers:
                worker.kill()
            self._drop_queued()
            for worker in self._workers:
                worker.thread.join(5.0)

    def _drop_queued(self) -> None:
        """Answer every job still waiting (shutdown past its grace); keep the stop markers."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is None:
                continue
            with self._lock:
                if job.phase is not _Phase.QUEUED:
                    continue
                job.phase = _Phase.DONE
                self._outstanding -= 1
            job.events.put(
                _error(
                    FailureKind.UNAVAILABLE, Reason.SHUTTING_DOWN, "the server is shutting down"
                )
            )
        for _ in self._workers:
            self._jobs.put(None)

    def _cancel(self, job: PoolJob) -> None:
        with self._lock:
            if job.phase is _Phase.QUEUED:
                job.phase = _Phase.DONE
                self._outstanding -= 1
                job.events.put(
                    _error(
                        FailureKind.CANCELLED,
                        Reason.CANCELLED,
                        "the request was cancelled before it ran",
                    )
                )
            elif job.phase is _Phase.RUNNING and job.worker and job.worker.current is job:
                job.worker.cancel_flag.value = 1
                if job.cancelled_at is None:
                    job.cancelled_at = time.monotonic()

    def _finish(self, worker: _Worker, job: PoolJob, event: tuple[Any, ...]) -> None:
        with self._lock:
            job.phase = _Phase.DONE
            worker.current = None
            self._outstanding -= 1
            self._running -= 1
            self._cores_busy -= job.cores
        job.events.put(event)


def _close_at_exit(ref: weakref.ref[WorkerPool]) -> None:
    pool = ref()
    if pool is not None:
        pool.close(timeout=5.0)
