"""From raw root tallies to a SearchResult: merging, confidence bounds and move choice."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from boardbot.engine.api import Action, Game, State
from boardbot.search.api import MoveStats, SearchResult
from boardbot.search.tree_search import RootTally

CONFIDENCE_Z = 1.96
"""Normal quantile of the two-sided 95% bound used for `lower_bound`."""


def lower_bound(mean: float, visits: int) -> float:
    """Conservative 95% lower bound of a mean of [0, 1] rewards (variance at most m(1-m))."""
    if visits == 0:
        return 0.0
    spread = CONFIDENCE_Z * math.sqrt(max(mean * (1.0 - mean), 0.0) / visits)
    return max(0.0, mean - spread)


def merge_tallies(reports: Iterable[tuple[RootTally, ...]]) -> tuple[RootTally, ...]:
    """Sum visits and rewards per root move; keep the line of the tree that visited it most."""
    merged: dict[Action, RootTally] = {}
    line_visits: dict[Action, int] = {}
    """Visits of the single tree whose line each move keeps (not the running sum)."""
    for tallies in reports:
        for tally in tallies:
            seen = merged.get(tally.action)
            if seen is None:
                merged[tally.action] = tally
                line_visits[tally.action] = tally.visits
                continue
            line = seen.principal_variation
            if tally.visits > line_visits[tally.action]:
                line = tally.principal_variation
                line_visits[tally.action] = tally.visits
            merged[tally.action] = RootTally(
                tally.action, seen.visits + tally.visits, seen.total + tally.total, line
            )
    return tuple(merged.values())


def move_stats(game: Game, state: State, tallies: tuple[RootTally, ...]) -> tuple[MoveStats, ...]:
    """Every root move's statistics, most visited first (higher mean, then legal order, on ties)."""
    stats = []
    for tally in tallies:
        mean = tally.total / tally.visits if tally.visits else 0.0
        stats.append(
            MoveStats(
                action=tally.action,
                notation=game.action_to_str(state, tally.action),
                visits=tally.visits,
                mean_value=mean,
                lower_bound=lower_bound(mean, tally.visits),
                principal_variation=tally.principal_variation,
            )
        )
    order = sorted(range(len(stats)), key=lambda i: (-stats[i].visits, -stats[i].mean_value, i))
    return tuple(stats[i] for i in order)


def choose_move(moves: tuple[MoveStats, ...], temperature: float, rng: random.Random) -> MoveStats:
    """The most visited move, or with temperature > 0 a draw ∝ visits ** (1 / temperature)."""
    if temperature <= 0.0 or len(moves) == 1:
        return moves[0]
    top = moves[0].visits
    if top == 0:
        return moves[int(rng.random() * len(moves))]
    weights = [(m.visits / top) ** (1.0 / temperature) for m in moves]
    return rng.choices(moves, weights)[0]


def build_result(
    game: Game,
    state: State,
    seat: int,
    tallies: tuple[RootTally, ...],
    temperature: float,
    choice_seed: int,
    *,
    iterations: int,
    elapsed_ms: float,
    stopped_by: str,
    nodes: int,
) -> SearchResult:
    """Assemble the SearchResult, choosing the move with a generator seeded by `choice_seed`."""
    moves = move_stats(game, state, tallies)
    chosen = choose_move(moves, temperature, random.Random(choice_seed))
    return SearchResult(
        action=chosen.action,
        notation=chosen.notation,
        seat=seat,
        iterations=iterations,
        elapsed_ms=elapsed_ms,
        moves=moves,
        stopped_by=stopped_by,
        nodes=nodes,
    )
