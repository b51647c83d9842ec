"""The search trees a process keeps between requests with a `session_key`.

A bounded LRU cache, one per process (each search worker's, and the server's for the native
searches it runs itself), safe to share between threads: an entry is the tree the last search of one
(session key, game, seat) grew (`search/reuse.py`), bounded by the number of entries and by
the nodes of every tree together. A search takes its entry out (a tree is grown by one search
at a time) and puts back the tree it grew; the least recently used entries go first when a
bound is passed. Requests without a session key never read or change it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardbot.search.reuse import KeptTree

DEFAULT_ENTRIES = 256
"""Trees a worker keeps at most, by default (`--tree-cache-entries`)."""
DEFAULT_NODES = 2_000_000
"""Nodes of all its trees together a worker keeps at most, by default (`--tree-cache-nodes`;
a native node with its edge takes about 50 bytes)."""

CacheKey = tuple[str, str, int]
"""(session key, game, seat)."""


class TreeCache:
    """A bounded LRU cache of kept trees (bounded by entries and by total nodes)."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES, max_nodes: int = DEFAULT_NODES) -> None:
        if max_entries < 0 or max_nodes < 0:
            raise ValueError("the tree cache's bounds must be at least 0")
        self.max_entries = max_entries
        self.max_nodes = max_nodes
        self._trees: OrderedDict[CacheKey, KeptTree] = OrderedDict()
        self.nodes = 0
        """Nodes of the trees held now."""
        self.evictions = 0
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """False when a bound is 0: nothing is ever kept."""
        return self.max_entries > 0 and self.max_nodes > 0

    def __len__(self) -> int:
        return len(self._trees)

    def __contains__(self, key: CacheKey) -> bool:
        return key in self._trees

    def take(self, key: CacheKey) -> KeptTree | None:
        """The tree kept under `key`, removed from the cache (None if there is none)."""
        with self._lock:
            return self._take(key)

    def _take(self, key: CacheKey) -> KeptTree | None:
        tree = self._trees.pop(key, None)
        if tree is not None:
            self.nodes -= tree.nodes
        return tree

    def put(self, key: CacheKey, tree: KeptTree) -> None:
        """Keep `tree` under `key` as the most recently used, evicting the least recently used
        entries past a bound; a tree larger than the node bound on its own is not kept."""
        with self._lock:
            self._take(key)
            if not self.enabled or tree.nodes > self.max_nodes:
                return
            self._trees[key] = tree
            self.nodes += tree.nodes
            while len(self._trees) > self.max_entries or self.nodes > self.max_nodes:
                _, evicted = self._trees.popitem(last=False)
                self.nodes -= evicted.nodes
                self.evictions += 1


CACHE = TreeCache()
"""This process's cache (the worker sets its bounds when it starts: `configure`)."""


def configure(max_entries: int, max_nodes: int) -> None:
    """Replace this process's cache with an empty one of these bounds."""
    global CACHE
    CACHE = TreeCache(max_entries, max_nodes)


def cache() -> TreeCache:
    """This process's cache."""
    return CACHE
