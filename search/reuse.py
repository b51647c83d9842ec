"""Tree reuse between consecutive searches of one seat in one game (docs/search.md, "Tree reuse
between requests").

A search may be handed the tree an earlier search of the same seat grew (a `KeptTree`, which
also holds that search's full state `S0`). The new request carries only its state, not the moves
played since, so the node it stands for is found by a bounded walk of the old tree from `S0`
(`find_match`): each edge's action is applied to the state (an edge whose action is not legal
there is skipped), a chance step is resolved by the outcomes the game lists
(`chance_outcomes`), and a branch whose chance step is only sampled is given up. A node
matches when the seat is to move there and its view equals the view of the new state: the
search grows on it with its statistics, on top of the request's budget, its root moves cut to
the moves legal in the new state (`restrict_root`). No match: a fresh tree, exactly the
search without reuse. The seat sums of the root's edges (every seat's rewards, `SeatSums`)
are kept when the match is the old root itself; a deeper node's edges start without them.

The walk's order and bounds are the same in the native core (`core/search/src/reuse.rs`), so
both match the same node of the same tree with the same reused visits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from boardbot.engine.api import CHANCE, Action, Game, State
from boardbot.search.api import SearchConfig, SearchControls, SearchResult, StopReason
from boardbot.search.engines import Engine, native_twin, uses_native
from boardbot.search.ismcts import NO_CONTROLS, _python_search
from boardbot.search.tree import Node, SeatSums
from boardbot.search.tree_search import TreeSearch

REUSE_MAX_DEPTH = 12
"""Decisions (plies) the walk follows from the old root at most."""
REUSE_BEAM = 32
"""States each level of the walk keeps: those closest to the new state."""
REUSE_MAX_STATES = 2048
"""States the walk reaches at most (each decision's and chance outcome's successor counts)."""
REUSE_CHANCE_ALL = 6
"""A chance step with at most this many outcomes (a die roll) is followed into every one."""
REUSE_CHANCE_SLACK = 1
"""A larger chance step is followed into the outcomes whose successor differs from the new
state in at most this many more JSON leaves than the closest one's."""


@dataclass(frozen=True, eq=False)
class KeptTree:
    """A tree a search grew, kept for the next search of the same seat in the same game.

    A kept tree is consumed by the search it is given to (that search grows it further)."""

    game: str
    seat: int
    state: State
    """The full state of the search that grew it (`S0`), where the walk starts."""
    nodes: int
    """Nodes in the tree, its root included (what a cache bounds)."""
    engine: str
    """`python` (the tree is `root`) or `native` (the tree is the native core's `handle`)."""
    root: Node | None = None
    handle: Any = None
    root_sums: dict[Node, SeatSums] | None = None
    """The seat sums of `root`'s edges (a Python tree)."""


@dataclass(frozen=True)
class ReuseMatch:
    """The node of an old tree that stands for a new state."""

    path: tuple[Action, ...]
    """The decisions from the old root to the node."""
    reused_visits: int
    """Visits of the node's moves for the seat that are legal in the new state (the root moves
    of the new search, `restrict_root`)."""
    node: Node | None = None


def seat_visits(node: Node, seat: int, legal: Collection[Action] | None = None) -> int:
    """The visits of `node`'s children of `seat` (only of those whose action is in `legal`,
    when given)."""
    kids = node.children.get(seat, {})
    if legal is None:
        return sum(child.visits for child in kids.values())
    return sum(child.visits for action, child in kids.items() if action in legal)


def restrict_root(node: Node, seat: int, legal: Collection[Action]) -> None:
    """Make the matched `node` the root of the new search: keep only its children of `seat`
    whose action is in `legal` (the legal moves of the new position), with their subtrees, in
    their order, and drop every other child.

    The tree is open loop, so the node's children were grown in many worlds of the old
    position that reached its decisions, some in another decision frame: without this, a
    move the new position does not allow could be chosen or reported. The native core keeps
    the same children (`Tree::subtree_keeping`)."""
    kept = {a: child for a, child in node.children.get(seat, {}).items() if a in legal}
    node.children = {seat: kept} if kept else {}


def json_mismatch(a: Any, b: Any) -> int:
    """How many leaves of two JSON values differ: 0 when equal; maps compare key by key (a key
    on one side only counts 1), arrays item by item (each extra item counts 1), anything else
    counts 1 when unequal. The native core counts the same way."""
    if isinstance(a, dict) and isinstance(b, dict):
        count = 0
        for key, value in a.items():
            count += json_mismatch(value, b[key]) if key in b else 1
        return count + sum(1 for key in b if key not in a)
    if isinstance(a, list) and isinstance(b, list):
        count = abs(len(a) - len(b))
        for x, y in zip(a, b, strict=False):
            count += json_mismatch(x, y)
        return count
    if isinstance(a, bool) or isinstance(b, bool):
        return 0 if type(a) is type(b) and a == b else 1
    return 0 if a == b else 1


def find_match(
    game: Game, root: Node, old_state: State, state: State, seat: int
) -> ReuseMatch | None:
    """The node of the tree `root` (grown from `old_state`) that stands for `state`, if the
    bounded walk finds one.

    The walk is a beam search by decisions: level k holds the states reached from
    `old_state` by k decisions along the tree's edges (each legal there), their chance steps
    resolved by the outcomes the game lists. A level of more than `REUSE_BEAM` states keeps
    the `REUSE_BEAM` closest to `state` (fewest differing leaves of their full JSON,
    `json_mismatch`; the earliest reached on ties), in that order, and a chance step of more
    than `REUSE_CHANCE_ALL` outcomes is followed only into those within `REUSE_CHANCE_SLACK`
    of its closest one. The first level holding a state where the seat is to move with the
    seat's view of `state` gives the match: of its states with that view, the one whose node
    has the most visits for the seat in moves legal in `state` (the earliest on ties; several
    nodes are the seat's information set reached by moves in another order, or by rival moves
    it cannot see). The prunings can miss a node, never match a wrong one."""
    target = game.state_to_json(state, seat)
    guide = game.state_to_json(state)
    allowed = set(game.legal_actions(state))
    level: list[tuple[Node, State, tuple[Action, ...]]] = [(root, old_state, ())]
    examined = 0
    for depth in range(REUSE_MAX_DEPTH + 1):
        found: ReuseMatch | None = None
        reached: list[tuple[Node, State, tuple[Action, ...]]] = []
        for node, current, path in level:
            player = game.current_player(current)
            if player < 0:
                continue
            if player == seat and game.state_to_json(current, seat) == target:
                visits = seat_visits(node, seat, allowed)
                if found is None or visits > found.reused_visits:
                    found = ReuseMatch(path, visits, node)
                continue
            kids = node.children.get(player)
            if found is not None or not kids or depth == REUSE_MAX_DEPTH:
                continue
            legal = set(game.legal_actions(current))
            for action, child in kids.items():
                if action not in legal:
                    continue
                pending = [game.apply(current, action)]
                while pending and examined < REUSE_MAX_STATES:
                    successor = pending.pop()
                    examined += 1
                    if game.current_player(successor) == CHANCE:
                        outcomes = _followed_outcomes(game, successor, guide)
                        pending.extend(reversed(outcomes))
                        continue
                    reached.append((child, successor, (*path, action)))
        if found is not None:
            return found
        if len(reached) > REUSE_BEAM:
            ranked = sorted(
                range(len(reached)),
                key=lambda i: (json_mismatch(game.state_to_json(reached[i][1]), guide), i),
            )
            reached = [reached[i] for i in ranked[:REUSE_BEAM]]
        level = reached
        if not level:
            break
    return None


def _followed_outcomes(game: Game, state: State, guide: Any) -> list[State]:
    """The successors of chance step `state` the walk follows (see `find_match`), in the
    game's order of outcomes: none when the outcomes are not listed."""
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        return []
    successors = [game.apply(state, outcome) for outcome, p in outcomes if p > 0.0]
    if len(successors) <= REUSE_CHANCE_ALL:
        return successors
    scored = [(s, json_mismatch(game.state_to_json(s), guide)) for s in successors]
    bound = min(distance for _, distance in scored) + REUSE_CHANCE_SLACK
    return [successor for successor, distance in scored if distance <= bound]


def export_edges(root: Node) -> list[tuple[int, int, Action, int, int, float]]:
    """The tree as edges `(parent, seat, action, visits, avail, total)` in depth-first order,
    the root numbered 0 and each edge's child numbered by its position plus one (what the
    native core's `tree_from_edges` reads)."""
    edges: list[tuple[int, int, Action, int, int, float]] = []
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, number = stack.pop()
        for kids in node.children.values():
            for child in kids.values():
                edges.append(
                    (number, child.player, child.action, child.visits, child.avail, child.total)
                )
                stack.append((child, len(edges)))
    return edges


def search_reusing(
    game: Game,
    state: State,
    seat: int,
    config: SearchConfig,
    seed: int,
    previous: KeptTree | None,
    controls: SearchControls = NO_CONTROLS,
    engine: Engine | str = Engine.AUTO,
) -> tuple[SearchResult, KeptTree | None]:
    """The search of a checked request (`check_request`) for `seat` in the full `state`,
    growing on the node of `previous` that stands for it when the walk finds one; the result
    and the tree to keep for the next request.

    Without a match the result is exactly `search_view`'s. A search with one legal move
    (unless `controls.search_forced`) searches nothing and hands `previous` back unchanged; a
    root-parallel search (`workers > 1`) grows several trees and keeps none."""
    view = game.observe(state, seat)
    if uses_native(engine, game.name):
        from boardbot.search.native import search_native_reusing

        handle = None
        if previous is not None and _reusable(previous, "native", game, seat):
            handle = previous.handle
        result, kept = search_native_reusing(
            native_twin(game.name), game, view, state, config, seed, controls, handle
        )
        if result.stopped_by == StopReason.SINGLE_MOVE:
            return result, previous
        if kept is None:
            return result, None
        return result, KeptTree(game.name, seat, state, kept.nodes, "native", handle=kept)
    if len(game.legal_actions(view.state)) == 1 and not controls.search_forced:
        return _python_search(game, view, config, seed, controls), previous
    if config.workers > 1:
        return _python_search(game, view, config, seed, controls), None
    match = None
    if previous is not None and _reusable(previous, "python", game, seat):
        assert previous.root is not None
        match = find_match(game, previous.root, previous.state, state, seat)
    grown: list[TreeSearch] = []
    keep: Callable[[TreeSearch], None] = grown.append
    root = None
    root_sums = None
    if match is not None and match.node is not None:
        root = match.node
        restrict_root(root, seat, set(game.legal_actions(state)))
        if not match.path and previous is not None:
            root_sums = previous.root_sums
    result = _python_search(game, view, config, seed, controls, root, keep, root_sums)
    if match is not None:
        result = dataclasses.replace(result, reused=True, reused_visits=match.reused_visits)
    tree = grown[0]
    kept = KeptTree(
        game.name, seat, state, tree.nodes, "python", root=tree.root, root_sums=tree.root_sums
    )
    return result, kept


def _reusable(previous: KeptTree | None, engine: str, game: Game, seat: int) -> bool:
    """True when `previous` was grown by `engine` for `seat` of `game`."""
    return (
        previous is not None
        and previous.engine == engine
        and previous.game == game.name
        and previous.seat == seat
    )
