"""Native searches run in the server's own process: no hop to a worker and back.

The native search releases the GIL for its whole loop and stops by itself at its iteration
budget, its time budget (clipped to the client's deadline), its node cap or its cancellation, so
it needs no process to be killed from: a search of a game with a native twin runs in the gRPC
thread that received it (an AnalyzeStream's in a thread of its own, its partial results queued
to the stream). Admission is the worker pool's: at most `size` searches at once, at most
`queue_limit` more waiting (PoolBusy beyond), a waiting search refused once its deadline passes,
the cores its threads use counted so a search takes only idle cores (`SearchJob.on_dispatch`).
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
        self._running: set[NativeSearch] = set()
        self._cores_busy = 0

    def submit(self, job: SearchJob) -> NativeSearch:
        """Admit `job`; raises PoolBusy at once when every slot and the queue are taken."""
        with self._cond:
            if self.closed:
                raise PoolClosed("the server is shutting down")
            if len(self._running) + self._waiting >= self.size + self.queue_limit:
                raise PoolBusy(
                    f"all {self.size} search slots are busy and {self.queue_limit} requests "
                    "are already waiting; retry later"
                )
            self._waiting += 1
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

    def _start(self, search: NativeSearch) -> SearchJob:
        """Wait for a slot (until the deadline), take it, and return the job as it runs."""
        deadline = search.job.config.deadline
        with self._cond:
            try:
                while len(self._running) >= self.size:
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
                self._cond.notify_all()
            idle = max(0, self.size - self._cores_busy)
            job = search.job.on_dispatch(idle)
            search.cores = max(1, job.cores())
            self._cores_busy += search.cores
            self._running.add(search)
        return job

    def _finish(self, search: NativeSearch) -> None:
        """Give the slot and the cores back."""
        with self._cond:
            self._running.discard(search)
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


class NativeSearch:
    """One admitted native search: its result in the calling thread, or its stream."""

    def __init__(self, searches: NativeSearches, job: SearchJob) -> None:
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

    def result(self) -> SearchOutcome:
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

    def _run(self, on_progress: Any) -> SearchOutcome:
        searches = self._searches
        job = searches._start(self)
        try:
            outcome = run_search_job(job, self.flag, on_progress)
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
