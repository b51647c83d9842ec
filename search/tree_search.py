"""One single-observer ISMCTS tree: the iteration loop and its raw root statistics."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from boardbot.engine.api import CHANCE, TERMINAL, Action, Game, State, View
from boardbot.search.api import SearchConfig, StopReason
from boardbot.search.guided import leaf_value, priors, puct_score
from boardbot.search.models import load_network
from boardbot.search.network import Network
from boardbot.search.rewards import terminal_reward
from boardbot.search.rollout import get_policy, rollout
from boardbot.search.seeds import derive_seed
from boardbot.search.tree import Node, SeatSums, most_visited, most_visited_any

PV_LENGTH = 8
"""Moves shown in a principal variation, the root move included."""
STOP_POLL_EVERY = 16
"""Iterations between two polls of the cancellation callback."""
EARLY_STOP_EVERY = 8
"""Iterations between two checks of the early-stop condition."""


class Line(NamedTuple):
    """A principal variation: each move's notation and the seat that plays it."""

    notations: tuple[str, ...]
    seats: tuple[int, ...]


@dataclass(frozen=True)
class RootTally:
    """Raw statistics of one root move in one tree (mergeable across workers)."""

    action: Action
    visits: int
    total: float
    principal_variation: tuple[str, ...] = ()
    """The move's line, when the tree was asked for it (empty otherwise)."""
    seat_visits: int = 0
    """Iterations whose whole reward vector is summed in `seat_totals` (all of `visits` but
    those a reused tree's deeper node brought: `SeatSums`)."""
    seat_totals: tuple[float, ...] = ()
    """Sum of every seat's reward over those iterations, by seat."""
    principal_variation_seats: tuple[int, ...] = ()
    """The seat that plays each move of `principal_variation`."""


@dataclass(frozen=True)
class TreeReport:
    """What one tree's search produced: root tallies and how it ended."""

    tallies: tuple[RootTally, ...]
    iterations: int
    nodes: int
    stopped_by: StopReason


def rank_tallies(tallies: Sequence[RootTally]) -> list[int]:
    """Indices of `tallies`, most visited first (higher mean, then legal order, on ties)."""

    def mean(t: RootTally) -> float:
        return t.total / t.visits if t.visits else 0.0

    return sorted(
        range(len(tallies)), key=lambda i: (-tallies[i].visits, -mean(tallies[i]), i)
    )


def subtree_size(root: Node) -> int:
    """Nodes under `root`, itself included."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        for kids in node.children.values():
            stack.extend(kids.values())
    return count


def widening_limit(k: float, alpha: float, kids: dict[Action, Node]) -> int:
    """`ceil(k · n^alpha)` children at most, n = the node's visits for this seat, this one too."""
    visits = 1
    for child in kids.values():
        visits += child.visits
    return math.ceil(k * visits**alpha)


def prior_bias(
    game: Game, state: State, actions: Sequence[Action], prior_weight: float
) -> list[float]:
    """`prior_weight · P(a)` per action, P the game's `policy_weights` normalised over `actions`."""
    weights = game.policy_weights(state, actions)
    total = sum(weights)
    if not total > 0.0:
        return [0.0] * len(actions)
    scale = prior_weight / total
    return [w * scale for w in weights]


class TreeSearch:
    """Grows one ISMCTS tree for the seat of `view`, from worlds sampled from it, seeded by
    `seed`; the tree never sees more than the view."""

    def __init__(
        self,
        game: Game,
        view: View,
        config: SearchConfig,
        seed: int,
        root: Node | None = None,
        root_sums: dict[Node, SeatSums] | None = None,
    ) -> None:
        """`root`: a node of an earlier tree to grow on (tree reuse, `search/reuse.py`), its
        statistics kept; None starts from an empty root. `root_sums`: the seat sums of its
        edges when it was that tree's root (a deeper node's edges start without)."""
        self.game = game
        self.view = view
        self.seat = view.seat
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.root = Node(None, -1) if root is None else root
        self.root_sums: dict[Node, SeatSums] = {}
        """The seat sums of the root's edges, by edge (the other edges keep their seat's
        total only)."""
        if root_sums:
            for kids in self.root.children.values():
                self.root_sums.update((k, root_sums[k]) for k in kids.values() if k in root_sums)
        self.nodes = 1 if root is None else subtree_size(root)
        self.iterations = 0
        self.root_actions: tuple[Action, ...] = tuple(game.legal_actions(view.state))
        cutoff = config.cutoff_depth
        self.rollout_steps = (
            config.max_rollout_steps if cutoff is None else min(cutoff, config.max_rollout_steps)
        )
        self.policy = get_policy(config.rollout)
        self._pv_world: tuple[State, tuple[Any, ...]] | None = None
        self.network = None if config.model is None else load_network(config.model)

    def iterate(self) -> None:
        """One iteration: determinize, select/expand, roll out, back up the reward vector (with
        a model: PUCT on learned priors and the network's value at the leaf)."""
        if self.network is not None:
            self._iterate_guided(self.network)
            return
        game = self.game
        rng = self.rng
        apply = game.apply
        current_player = game.current_player
        legal_actions = game.legal_actions
        c = self.config.exploration
        prior_weight = self.config.prior_weight
        widening = self.config.widening
        alpha = self.config.widening_exponent
        can_grow = self.nodes < self.config.node_cap
        log = math.log
        sqrt = math.sqrt
        state = game.determinize(self.view, rng)
        node = self.root
        path: list[Node] = []
        while True:
            player = current_player(state)
            if player < 0:
                if player == CHANCE:
                    state = apply(state, game.sample_chance(state, rng))
                    continue
                break
            actions = legal_actions(state)
            kids = node.children.get(player)
            if kids is None:
                kids = node.children[player] = {}
            may_grow = can_grow
            if widening > 0.0 and kids and can_grow:
                may_grow = len(kids) < widening_limit(widening, alpha, kids)
            best: Node | None = None
            best_score = -math.inf
            chosen: Action | None = None
            if prior_weight > 0.0:
                bias = prior_bias(game, state, actions, prior_weight)
                chosen_bias = -math.inf
                for i, action in enumerate(actions):
                    child = kids.get(action)
                    if child is None:
                        if bias[i] > chosen_bias:
                            chosen_bias = bias[i]
                            chosen = action
                        continue
                    child.avail += 1
                    if chosen is None or not may_grow:
                        visits = child.visits
                        score = (
                            child.total / visits
                            + c * sqrt(log(child.avail) / visits)
                            + bias[i] / (visits + 1)
                        )
                        if score > best_score:
                            best_score = score
                            best = child
            else:
                untried: list[Action] | None = None
                for action in actions:
                    child = kids.get(action)
                    if child is None:
                        if untried is None:
                            untried = [action]
                        else:
                            untried.append(action)
                        continue
                    child.avail += 1
                    if untried is None or not may_grow:
                        visits = child.visits
                        score = child.total / visits + c * sqrt(log(child.avail) / visits)
                        if score > best_score:
                            best_score = score
                            best = child
                if untried is not None and can_grow and (may_grow or best is None):
                    count = len(untried)
                    chosen = untried[int(rng.random() * count)] if count > 1 else untried[0]
            if chosen is not None and can_grow and (may_grow or best is None):
                child = Node(chosen, player)
                kids[chosen] = child
                self.nodes += 1
                path.append(child)
                state = apply(state, chosen)
                break
            if best is None:
                break
            path.append(best)
            node = best
            state = apply(state, best.action)
        reward = rollout(
            game, state, rng, self.policy, self.rollout_steps, self.config.margin_weight
        )
        self.root.visits += 1
        for visited in path:
            visited.visits += 1
            visited.total += reward[visited.player]
        self._add_root_reward(path, reward)
        self.iterations += 1

    def _iterate_guided(self, network: Network) -> None:
        """One iteration guided by a model: PUCT on the priors stored at each node (computed
        from the view of the seat to move the first time a node meets a decision it has none
        for), expanding the best-scoring untried decision; the leaf valued by
        `leaf_lambda · net + (1 - leaf_lambda) · rollout`."""
        game = self.game
        rng = self.rng
        config = self.config
        puct, fpu = config.puct, config.fpu
        can_grow = self.nodes < config.node_cap
        state = game.determinize(self.view, rng)
        node = self.root
        path: list[Node] = []
        while True:
            player = game.current_player(state)
            if player < 0:
                if player == CHANCE:
                    state = game.apply(state, game.sample_chance(state, rng))
                    continue
                break
            actions = game.legal_actions(state)
            if not actions:
                break
            kids = node.children.get(player)
            if kids is None:
                kids = node.children[player] = {}
            if len(actions) == 1:
                shares = [1.0]
            else:
                stored = self._stored_priors(node, player)
                if any(a not in stored for a in actions):
                    _, policy = leaf_value(game, network, state, player)
                    for action, share in zip(
                        actions, priors(game, state, actions, policy), strict=True
                    ):
                        stored.setdefault(action, share)
                shares = [stored[a] for a in actions]
            visits = 0
            total = 0.0
            for kid in kids.values():
                visits += kid.visits
                total += kid.total
            fpu_q = (total / visits if visits else 0.5) - fpu
            sqrt_parent = math.sqrt(max(visits, 1))
            best_score = -math.inf
            best: Node | None = None
            fresh: Action | None = None
            for action, share in zip(actions, shares, strict=True):
                child = kids.get(action)
                if child is not None:
                    child.avail += 1
                    q = child.total / child.visits if child.visits else fpu_q
                    score = puct_score(q, share, sqrt_parent, child.visits, puct)
                elif can_grow:
                    score = puct_score(fpu_q, share, sqrt_parent, 0, puct)
                else:
                    continue
                if score > best_score:
                    best_score = score
                    best, fresh = (child, None) if child is not None else (None, action)
            if fresh is not None:
                node = kids[fresh] = Node(fresh, player)
                self.nodes += 1
                path.append(node)
                state = game.apply(state, fresh)
                break
            if best is None:
                break
            path.append(best)
            node = best
            state = game.apply(state, best.action)
        reward = self._guided_leaf(network, node, state)
        self.root.visits += 1
        for visited in path:
            visited.visits += 1
            visited.total += reward[visited.player]
        self._add_root_reward(path, reward)
        self.iterations += 1

    def _add_root_reward(self, path: list[Node], reward: tuple[float, ...]) -> None:
        """Add the iteration's reward vector to the seat sums of its root edge."""
        if path:
            first = path[0]
            sums = self.root_sums.get(first)
            if sums is None:
                sums = self.root_sums[first] = SeatSums()
            sums.add(reward)

    @staticmethod
    def _stored_priors(node: Node, seat: int) -> dict[Action, float]:
        """The priors stored at `node` for `seat` (created empty)."""
        if node.priors is None:
            node.priors = {}
        return node.priors.setdefault(seat, {})

    def _guided_leaf(self, network: Network, node: Node, state: State) -> tuple[float, ...]:
        """The leaf's reward vector: chance steps sampled on to the next decision; the end of
        the game scored exactly; a decision valued by the network from its mover's view (mixed
        with a rollout when `leaf_lambda` < 1), its priors stored at `node` if it has none."""
        game = self.game
        rng = self.rng
        config = self.config
        while game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        mover = game.current_player(state)
        if mover == TERMINAL:
            return terminal_reward(game, state, config.margin_weight)
        lam = config.leaf_lambda
        value: tuple[float, ...] = ()
        if lam > 0.0:
            value, policy = leaf_value(game, network, state, mover)
            if node.priors is None or mover not in node.priors:
                actions = game.legal_actions(state)
                self._stored_priors(node, mover).update(
                    zip(actions, priors(game, state, actions, policy), strict=True)
                )
        if lam >= 1.0:
            return value
        played = rollout(
            game, state, rng, self.policy, self.rollout_steps, config.margin_weight
        )
        if lam <= 0.0:
            return played
        return tuple(lam * v + (1.0 - lam) * r for v, r in zip(value, played, strict=True))

    def run(
        self,
        iterations: int | None,
        stop_at: float | None,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[TreeSearch], None] | None = None,
        progress_every: int = 0,
    ) -> StopReason:
        """Iterate until a budget ends; return what stopped the search.

        `stop_at` is a `time.perf_counter()` instant; at least one iteration always runs.
        """
        early_stop = self.config.early_stop and iterations is not None
        clock = time.perf_counter
        while True:
            if iterations is not None and self.iterations >= iterations:
                return StopReason.ITERATIONS
            if self.iterations > 0:
                if stop_at is not None and clock() >= stop_at:
                    return StopReason.TIME
                if (
                    should_stop is not None
                    and self.iterations % STOP_POLL_EVERY == 0
                    and should_stop()
                ):
                    return StopReason.CANCELLED
                if (
                    early_stop
                    and iterations is not None
                    and self.iterations % EARLY_STOP_EVERY == 0
                    and self.decided(iterations - self.iterations)
                ):
                    return StopReason.EARLY_STOP
            self.iterate()
            if (
                on_progress is not None
                and progress_every > 0
                and self.iterations % progress_every == 0
            ):
                on_progress(self)

    def decided(self, remaining: int) -> bool:
        """True when the runner-up root move cannot catch the leader in `remaining` iterations."""
        kids = self.root.children.get(self.seat)
        if not kids:
            return False
        first = second = 0
        for child in kids.values():
            visits = child.visits
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
        return first - second > remaining

    def report(self, stopped_by: StopReason, lines: int | None = 0) -> TreeReport:
        """The root tallies (every legal root move, visited or not) and counters, with the
        principal variation of this tree's `lines` top moves (None: of every move)."""
        kids = self.root.children.get(self.seat, {})
        known = set(self.root_actions)
        actions = list(self.root_actions)
        actions.extend(a for a in kids if a not in known)
        tallies = []
        for action in actions:
            child = kids.get(action)
            sums = self.root_sums.get(child) if child else None
            tallies.append(
                RootTally(
                    action=action,
                    visits=child.visits if child else 0,
                    total=child.total if child else 0.0,
                    seat_visits=sums.visits if sums else 0,
                    seat_totals=tuple(sums.totals) if sums else (),
                )
            )
        if lines is None or lines > 0:
            tallies = self._with_lines(tallies, lines)
        return TreeReport(tuple(tallies), self.iterations, self.nodes, stopped_by)

    def _with_lines(self, tallies: list[RootTally], count: int | None) -> list[RootTally]:
        """`tallies` with the lines of the `count` top moves (the order of `rank_tallies`)."""
        lined = list(tallies)
        for i in rank_tallies(tallies)[:count]:
            tally = tallies[i]
            line = self.line(tally.action)
            lined[i] = replace(
                tally, principal_variation=line.notations, principal_variation_seats=line.seats
            )
        return lined

    def line(self, action: Action) -> Line:
        """The principal variation of root move `action` in this tree."""
        return self.principal_variation(action, self.root.children.get(self.seat, {}).get(action))

    def principal_variation(self, action: Action, child: Node | None) -> Line:
        """The most visited line from root move `action`, replayed in a fixed determinization,
        with the seat that plays each move there."""
        game = self.game
        if self._pv_world is None:
            rng = random.Random(derive_seed(self.seed, "pv"))
            self._pv_world = (game.determinize(self.view, rng), rng.getstate())
        state, rng_state = self._pv_world
        rng = random.Random()
        rng.setstate(rng_state)
        line = [game.action_to_str(state, action)]
        seats = [self.seat]
        state = game.apply(state, action)
        node = child
        while node is not None and len(line) < PV_LENGTH:
            while game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            player = game.current_player(state)
            if player == TERMINAL:
                break
            kids = node.children.get(player)
            nxt = most_visited(kids) if kids else most_visited_any(node)
            if nxt is None or nxt.visits == 0 or nxt.action not in game.legal_actions(state):
                break
            line.append(game.action_to_str(state, nxt.action))
            seats.append(player)
            state = game.apply(state, nxt.action)
            node = nxt
        return Line(tuple(line), tuple(seats))
