"""Native searches run in the server's own process: no hop to a worker and back.

The native search releases the GIL for its whole loop and stops by itself at its iteration
budget, its time budget (clipped to the client's deadline), its node cap or its cancellation, so
it needs no process to be killed from: a search of a game with a native twin runs in the gRPC
thread that received it (an AnalyzeStream's in a thread of its own, its partial results queued
to the stream). Admission is the worker pool's: at most `size` searches at once, at most
`queue_limit` more waiting (PoolBusy beyond), a waiting search refused once its deadline passes,
the cores its threads use counted so a search takes only idle cores (`SearchJob.on_dispatch`).

A job marked `low_priority` (a game review's position) runs behind interactive searches: it
starts only when no interactive search is waiting, and never takes the last free slot of a
server with several (`low_priority_slots`); a waiting low-priority job does not count against
the admission of interactive ones. So an interactive search waits at most for a review's
position already running, never for a review.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from boardbot.jobs.failures import (
    FailureKind,
    Reason,
    RequestError,
    deadline_exceeded,
    unexpected,
)
from boardbot.jobs.review_job import PositionJob, run_position_job
from boardbot.jobs.search_job import SearchJob, SearchOutcome, run_search_job
from boardbot.jobs.worker_pool import PoolBusy, PoolClosed
from boardbot.search.engines import native_module

WAIT_SLICE_S = 0.5
"""Longest a search waiting for a slot sleeps before it looks again (it is woken sooner when a
slot frees or it is cancelled)."""

_DONE = object()
"""The end of a streamed search's events."""


class NativeSearches:
    """The native searches running in this process, bounded like the worker pool's jobs."""

    def __init__(self, size: int, queue_limit: int) -> None:
        self.size = size
        self.queue_limit = queue_limit
        self.admitted = 0
        """Searches admitted since the server started."""
        self.closed = False
        """True once the server stops: no new search is admitted."""
        self.ended = False
        """True once the shutdown's grace is over: what still runs is stopped."""
        self._cond = threading.Condition()
        self._waiting = 0
        self._waiting_low = 0
        """Of the waiting searches, the low-priority ones."""
        self._running: set[NativeSearch] = set()
        self._running_low = 0
        self._cores_busy = 0

    @property
    def low_priority_slots(self) -> int:
        """Slots low-priority jobs may hold at once: all but one, at least one."""
        return max(1, self.size - 1)

    def submit(self, job: SearchJob | PositionJob) -> NativeSearch:
        """Admit `job`; raises PoolBusy at once when every slot and the queue are taken (for
        an interactive job, low-priority jobs waiting are not counted: they yield)."""
        low = is_low_priority(job)
        with self._cond:
            if self.closed:
                raise PoolClosed("the server is shutting down")
            counted = self._waiting if low else self._waiting - self._waiting_low
            if len(self._running) + counted >= self.size + self.queue_limit:
                raise PoolBusy(
                    f"all {self.size} search slots are busy and {self.queue_limit} requests "
                    "are already waiting; retry later"
                )
            self._waiting += 1
            self._waiting_low += low
            self.admitted += 1
        return NativeSearch(self, job)

    @property
    def queue_depth(self) -> int:
        """Searches admitted but not yet running."""
        with self._cond:
            return self._waiting

    @property
    def busy(self) -> int:
        """Searches running."""
        with self._cond:
            return len(self._running)

    @property
    def cores_busy(self) -> int:
        """Cores the running searches keep busy."""
        with self._cond:
            return self._cores_busy

    def close(self, timeout: float | None = None) -> None:
        """Take no more searches, let the admitted ones finish for up to `timeout` seconds,
        then stop what is left (those answer SHUTTING_DOWN)."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self.closed = True
            while self._running or self._waiting:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._cond.wait(left)
            self.ended = True
            running = list(self._running)
            self._cond.notify_all()
        for search in running:
            search.cancel()

    def _may_start(self, low: bool) -> bool:
        """True when a job of this priority may take a slot now."""
        if len(self._running) >= self.size:
            return False
        if not low:
            return True
        interactive_waiting = self._waiting - self._waiting_low > 0
        return not interactive_waiting and self._running_low < self.low_priority_slots

    def _start(self, search: NativeSearch) -> Any:
        """Wait for a slot (until the deadline), take it, and return the job as it runs."""
        deadline = search.job.config.deadline
        low = is_low_priority(search.job)
        with self._cond:
            try:
                while not self._may_start(low):
                    _refuse_if_ended(self, search)
                    left = None if deadline is None else deadline - time.time()
                    if left is not None and left <= 0:
                        raise deadline_exceeded(
                            "the deadline passed while the request waited for a worker"
                        )
                    # In slices: a far deadline is no valid timeout of a lock.
                    self._cond.wait(WAIT_SLICE_S if left is None else min(left, WAIT_SLICE_S))
                _refuse_if_ended(self, search)
            finally:
                self._waiting -= 1
                self._waiting_low -= low
                self._cond.notify_all()
            idle = max(0, self.size - self._cores_busy)
            job = search.job.on_dispatch(idle)
            search.cores = max(1, job.cores())
            self._cores_busy += search.cores
            self._running.add(search)
            self._running_low += low
        return job

    def _finish(self, search: NativeSearch) -> None:
        """Give the slot and the cores back."""
        with self._cond:
            self._running.discard(search)
            self._running_low -= is_low_priority(search.job)
            self._cores_busy -= search.cores
            self._cond.notify_all()


def _refuse_if_ended(searches: NativeSearches, search: NativeSearch) -> None:
    """SHUTTING_DOWN or CANCELLED for a search that may no longer start."""
    if searches.ended:
        raise RequestError(
            FailureKind.UNAVAILABLE, "the server is shutting down", Reason.SHUTTING_DOWN
        )
    if search.flag.cancelled:
        raise RequestError(
            FailureKind.CANCELLED, "the request was cancelled before it ran", Reason.CANCELLED
        )


def is_low_priority(job: object) -> bool:
    """True for a job that runs behind interactive ones (`low_priority`, a review's)."""
    return bool(getattr(job, "low_priority", False))


def run_native_job(job: Any, flag: Any, on_progress: Any) -> Any:
    """Run a search job or a review's position job with the cancel flag `flag`."""
    if isinstance(job, PositionJob):
        return run_position_job(job, flag)
    return run_search_job(job, flag, on_progress)


class NativeSearch:
    """One admitted native search: its result in the calling thread, or its stream."""

    def __init__(self, searches: NativeSearches, job: SearchJob | PositionJob) -> None:
        module = native_module()
        if module is None:
            raise RuntimeError("a native search needs the native core")
        self.job = job
        self.cores = 1
        self.flag = module.CancelFlag()
        """The search's cancel flag: its stop check, which the native search reads itself."""
        self._searches = searches

    def cancel(self) -> None:
        """Stop the search (it answers with what it found so far) or drop it while it waits."""
        self.flag.cancel()
        with self._searches._cond:
            self._searches._cond.notify_all()

    def result(self) -> Any:
        """Run the search in this thread; its final outcome (RequestError on failure)."""
        return self._run(None)

    def stream(self) -> Iterator[SearchOutcome]:
        """Run the search in a thread of its own; its partial outcomes as they come, then the
        final one (RequestError on failure)."""
        events: queue.Queue[Any] = queue.Queue()

        def run() -> None:
            try:
                events.put(self._run(events.put))
            except RequestError as error:
                events.put(error)
            events.put(_DONE)

        threading.Thread(target=run, name="native-search", daemon=True).start()
        while (event := events.get()) is not _DONE:
            if isinstance(event, RequestError):
                raise event
            yield event

    def _run(self, on_progress: Any) -> Any:
        searches = self._searches
        job = searches._start(self)
        try:
            outcome = run_native_job(job, self.flag, on_progress)
        except RequestError:
            raise
        except Exception as error:  # a bad request must never take the server down
            raise unexpected("search", error) from None
        finally:
            searches._finish(self)
        if searches.ended:
            raise RequestError(
                FailureKind.UNAVAILABLE,
                "the server shut down before it answered",
                Reason.SHUTTING_DOWN,
            )
        return outcome
