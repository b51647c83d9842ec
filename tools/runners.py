"""Where independent jobs (games) run: in this process, in a process pool, or on Ray.

Every runner has one method, `imap(func, jobs)`, which yields `(position, func(jobs[position]))`
as each job finishes (in completion order, not job order), so a caller can record each result
as soon as it exists. Jobs are independent and carry their own seeds, so a result does not
depend on the runner that computed it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, Protocol, TypeVar

from boardbot.search.parallel import process_context
from boardbot.tools.extras import import_extra

J = TypeVar("J")
R = TypeVar("R")

class Runner(Protocol):
    """Runs independent jobs and yields each result as it finishes."""

    def imap(self, func: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Yield `(position, func(jobs[position]))` for every job, as each finishes."""
        ...


class SerialRunner:
    """Every job in this process, one after the other, in job order."""

    def imap(self, func: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Yield each result in job order."""
        for position, job in enumerate(jobs):
            yield position, func(job)


class ProcessRunner:
    """Jobs in a local pool of `workers` processes (`func` and the jobs must pickle)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def imap(self, func: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Yield each result as its process finishes it; pending jobs are dropped on close."""
        with ProcessPoolExecutor(max_workers=self.workers, mp_context=process_context()) as pool:
            futures: dict[Future[R], int] = {
                pool.submit(func, job): position for position, job in enumerate(jobs)
            }
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                for future in futures:
                    future.cancel()


def import_ray() -> Any:
    """The `ray` module, or MissingExtraError naming the `ray` extra."""
    return import_extra("ray", "ray", "--ray")


class RayRunner:
    """One Ray task per job, on a local Ray instance or the cluster at `address`.

    With no address and no Ray running in this process, it starts a local instance with this
    machine's cores for the run and shuts it down afterwards; a Ray already initialized here
    (or one started for an address) is used as it is. The cluster's workers must be able to
    import boardbot (the same image, or a Ray `runtime_env`).
    """

    def __init__(self, address: str | None = None) -> None:
        self.address = address or None
        self.ray = import_ray()

    def _start(self) -> bool:
        """Initialize Ray unless it is already; True when this call started it."""
        if self.ray.is_initialized():
            return False
        if self.address is None:
            self.ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False)
        else:
            self.ray.init(address=self.address)
        return True

    def imap(self, func: Callable[[J], R], jobs: Sequence[J]) -> Iterator[tuple[int, R]]:
        """Yield each task's result as `ray.wait` reports it done; pending tasks are cancelled
        on close."""
        ray = self.ray
        started = self._start()
        pending: list[Any] = []
        try:
            task = ray.remote(num_cpus=1)(func)
            positions = {task.remote(job): position for position, job in enumerate(jobs)}
            pending = list(positions)
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    yield positions[ref], ray.get(ref)
        finally:
            for ref in pending:
                ray.cancel(ref)
            if started:
                ray.shutdown()


def make_runner(parallel: int = 1, ray: str | None = None) -> Runner:
    """The runner for the command-line choice: Ray when `ray` is not None (`""`: a local
    instance, else the address), a process pool for `parallel` > 1, else serial."""
    if ray is not None:
        return RayRunner(ray)
    if parallel > 1:
        return ProcessRunner(parallel)
    return SerialRunner()
