"""How many threads a native search gets: the server's idle cores, within its cap.

A request is admitted with a cap (`auto_thread_cap`); the pool tells the job how many of the
server's cores are idle when a worker picks it up, and the job takes `search_threads` of them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, TypeVar

from boardbot.search.api import SearchConfig


class ThreadedJob(Protocol):
    """A search job the pool may give idle cores: its config and its thread cap."""

    @property
    def config(self) -> SearchConfig: ...

    @property
    def thread_cap(self) -> int: ...


Job = TypeVar("Job", bound=ThreadedJob)


def auto_thread_cap(search_threads: int | None, cores: int, native: bool, explicit: bool) -> int:
    """The most threads the server may give a search on its own (0: it runs as resolved).

    `search_threads` is the server's `--search-threads` (None: auto, all `cores`); only a
    search on the native core without an explicit `settings.workers` gets threads this way.
    """
    if not native or explicit:
        return 0
    cap = cores if search_threads is None else search_threads
    return cap if cap > 1 else 0


def search_threads(idle_cores: int, cap: int, asked: int = 1) -> int:
    """Threads for a search: the idle cores, at most `cap`, never fewer than `asked` (0 cap:
    exactly `asked`, the workers its preset or request resolved to)."""
    if cap <= 1:
        return asked
    return max(asked, min(idle_cores, cap))


def dispatched(job: Job, idle_cores: int) -> Job:
    """`job` (a frozen dataclass) as it runs when picked up with `idle_cores` cores idle: its
    threads fixed by `search_threads`, its cap spent."""
    if job.thread_cap <= 1:
        return job
    threads = search_threads(idle_cores, job.thread_cap, job.config.workers)
    # mypy cannot see through the protocol that every such job is a dataclass.
    return replace(job, config=job.config.replace(workers=threads), thread_cap=0)  # type: ignore[type-var]
