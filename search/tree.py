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
