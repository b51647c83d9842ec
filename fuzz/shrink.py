"""Shrinking a failing input: delta debugging over mutations, greedy JSON and text reduction."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fuzz.mutators import Mutation, PathError, apply_mutation, walk

T = TypeVar("T")


class Budget:
    """A bound on the tests one shrink may run: a count and a wall-clock time."""

    def __init__(self, tests: int, seconds: float) -> None:
        self.tests_left = tests
        self.deadline = time.monotonic() + seconds
        self.used = 0

    def take(self) -> bool:
        """Use one test; False once the budget is spent."""
        if self.tests_left <= 0 or time.monotonic() > self.deadline:
            return False
        self.tests_left -= 1
        self.used += 1
        return True


def ddmin(items: Sequence[T], fails: Callable[[list[T]], bool], budget: Budget) -> list[T]:
    """A smallest subset of `items` (order kept) for which `fails` still holds (Zeller's delta
    debugging); `fails(items)` is assumed true. Stops early when the budget runs out."""
    current = list(items)
    granularity = 2
    while len(current) >= 2:
        size = max(1, len(current) // granularity)
        chunks = [current[i : i + size] for i in range(0, len(current), size)]
        reduced = False
        for i, chunk in enumerate(chunks):
            if len(chunks) > 2:
                complement = [x for j, c in enumerate(chunks) if j != i for x in c]
                tries = [chunk, complement]
            else:
                tries = [chunk]
            for candidate in tries:
                if not budget.take():
                    return current
                if fails(candidate):
                    current = candidate
                    granularity = max(granularity - 1, 2) if candidate is not chunk else 2
                    reduced = True
                    break
            if reduced:
                break
        if not reduced:
            if granularity >= len(current):
                break
            granularity = min(granularity * 2, len(current))
    if len(current) == 1 and budget.take() and fails([]):
        return []
    return current


def reductions(doc: Any) -> list[Mutation]:
    """Candidate simplifications of `doc`, biggest first: drop a key or an item, halve a list
    or a long string."""
    found: list[Mutation] = []
    for path, node in sorted(walk(doc), key=lambda pn: len(pn[0])):
        if isinstance(node, dict):
            found.extend(Mutation("delete", (*path, key)) for key in node)
        elif isinstance(node, list):
            if len(node) > 2:
                found.append(Mutation("truncate", path, len(node) // 2))
            found.extend(Mutation("delete", (*path, i)) for i in range(len(node) - 1, -1, -1))
        elif isinstance(node, str) and len(node) > 64:
            found.append(Mutation("set", path, node[: len(node) // 2]))
    return found


def reduce_json(doc: Any, fails: Callable[[Any], bool], budget: Budget) -> Any:
    """Greedily remove parts of `doc` while `fails` still holds; repeated until nothing more
    can go or the budget is spent."""
    changed = True
    while changed:
        changed = False
        candidates = reductions(doc)
        i = 0
        while i < len(candidates):
            try:
                smaller = apply_mutation(doc, candidates[i])
            except PathError:
                i += 1
                continue
            if not budget.take():
                return doc
            if fails(smaller):
                doc = smaller
                changed = True
                candidates = reductions(doc)
            else:
                i += 1
    return doc


def reduce_text(text: str, fails: Callable[[str], bool], budget: Budget) -> str:
    """Remove chunks of `text` (halves, then quarters, ...) while `fails` still holds."""
    chunk = max(1, len(text) // 2)
    while chunk >= 1 and text:
        i = 0
        while i < len(text):
            candidate = text[:i] + text[i + chunk :]
            if not budget.take():
                return text
            if fails(candidate):
                text = candidate
            else:
                i += chunk
        if chunk == 1:
            break
        chunk //= 2
    return text
