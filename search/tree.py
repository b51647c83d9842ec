"""Nodes of the single-observer ISMCTS tree (open loop: decision edges only)."""

from __future__ import annotations

from boardbot.engine.api import Action


class Node:
    """One decision edge: the action taken, by whom, and its statistics."""

    __slots__ = ("action", "avail", "children", "player", "priors", "total", "visits")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player
        """The seat that took `action`; `total` sums that seat's rewards."""
        self.visits = 0
        self.avail = 1
        """How many times this action was available when its parent was visited."""
        self.total = 0.0
        self.children: dict[int, dict[Action, Node]] = {}
        """Child edges keyed by the seat to move, then by action."""
        self.priors: dict[int, dict[Action, float]] | None = None
        """Learned priors of the decisions met here, by seat then action (a search with a
        model only)."""

    def mean(self) -> float:
        """Mean reward of the seat that took this action (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


class SeatSums:
    """Every seat's rewards summed over the iterations through one root edge: only the root's
    edges keep them (`TreeSearch.root_sums`), so deeper nodes stay as small as they were."""

    __slots__ = ("totals", "visits")

    def __init__(self) -> None:
        self.visits = 0
        """Iterations summed (fewer than the edge's visits when the edge came from a deeper
        node of an earlier tree: tree reuse)."""
        self.totals: list[float] = []
        """Sum of each seat's reward, by seat."""

    def add(self, reward: tuple[float, ...]) -> None:
        """Add one iteration's reward vector."""
        totals = self.totals
        if len(totals) < len(reward):
            totals.extend([0.0] * (len(reward) - len(totals)))
        for i, r in enumerate(reward):
            totals[i] += r
        self.visits += 1


def most_visited(children: dict[Action, Node]) -> Node | None:
    """The child with the most visits (first in insertion order on ties), if any."""
    best: Node | None = None
    for child in children.values():
        if best is None or child.visits > best.visits:
            best = child
    return best


def most_visited_any(node: Node) -> Node | None:
    """The most visited child over every seat that has moved from `node`."""
    best: Node | None = None
    for children in node.children.values():
        candidate = most_visited(children)
        if candidate is not None and (best is None or candidate.visits > best.visits):
            best = candidate
    return best
