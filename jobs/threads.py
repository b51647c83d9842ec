"""How many threads a native search gets: the server's idle cores, within its cap.

A request is admitted with a cap (`auto_thread_cap`); the pool tells the job how many of the
server's cores are idle when a worker picks it up, and the job takes `search_threads` of them.
"""

from __future__ import annotations


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
