"""From raw root tallies to a SearchResult: merging, confidence bounds and move choice."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from boardbot.engine.api import Action, Game, State
from boardbot.search.api import MoveStats, SearchResult, StopReason
from boardbot.search.tree_search import Line, RootTally, rank_tallies

if TYPE_CHECKING:
    from boardbot.search.guided import RootFigures

CONFIDENCE_Z = 1.96
"""Normal quantile of the two-sided 95% bound used for `lower_bound`."""


def lower_bound(mean: float, visits: int) -> float:
    """Conservative 95% lower bound of a mean of [0, 1] rewards (variance at most m(1-m))."""
    if visits == 0:
        return 0.0
    spread = CONFIDENCE_Z * math.sqrt(max(mean * (1.0 - mean), 0.0) / visits)
    return max(0.0, mean - spread)


def seat_values(tally: RootTally, seat: int, mean: float) -> tuple[float, ...]:
    """Every seat's mean reward from a move's tally, by seat: `seat_totals / seat_visits`,
    the deciding `seat`'s entry replaced by `mean` (the move's value, over all its visits);
    empty when no iteration summed every seat's reward."""
    if tally.seat_visits == 0:
        return ()
    values = [total / tally.seat_visits for total in tally.seat_totals]
    if 0 <= seat < len(values):
        values[seat] = mean
    return tuple(values)


def _add_seat_totals(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """Two trees' seat sums added seat by seat."""
    if len(a) < len(b):
        a = a + (0.0,) * (len(b) - len(a))
    return tuple(x + (b[i] if i < len(b) else 0.0) for i, x in enumerate(a))


def merge_tallies(reports: Iterable[tuple[RootTally, ...]]) -> tuple[RootTally, ...]:
    """Sum visits and rewards (the seat sums too) per root move; keep the line of the tree
    that visited it most among the trees that reported a line for it."""
    merged: dict[Action, RootTally] = {}
    line_visits: dict[Action, int] = {}
    """Visits of the single tree whose line each move keeps (not the running sum)."""
    for tallies in reports:
        for tally in tallies:
            seen = merged.get(tally.action)
            if seen is None:
                merged[tally.action] = tally
                if tally.principal_variation:
                    line_visits[tally.action] = tally.visits
                continue
            line, seats = seen.principal_variation, seen.principal_variation_seats
            if tally.principal_variation and tally.visits > line_visits.get(tally.action, -1):
                line, seats = tally.principal_variation, tally.principal_variation_seats
                line_visits[tally.action] = tally.visits
            merged[tally.action] = RootTally(
                tally.action,
                seen.visits + tally.visits,
                seen.total + tally.total,
                line,
                seen.seat_visits + tally.seat_visits,
                _add_seat_totals(seen.seat_totals, tally.seat_totals),
                seats,
            )
    return tuple(merged.values())


def move_stats(tallies: tuple[RootTally, ...], seat: int) -> tuple[MoveStats, ...]:
    """Every root move's statistics for the deciding `seat`, most visited first (higher mean,
    then legal order, on ties), not yet described (no notation, the tallies' lines)."""
    stats = []
    for i in rank_tallies(tallies):
        tally = tallies[i]
        mean = tally.total / tally.visits if tally.visits else 0.0
        stats.append(
            MoveStats(
                action=tally.action,
                notation=None,
                visits=tally.visits,
                mean_value=mean,
                lower_bound=lower_bound(mean, tally.visits),
                principal_variation=tally.principal_variation,
                seat_values=seat_values(tally, seat, mean),
                principal_variation_seats=tally.principal_variation_seats,
            )
        )
    return tuple(stats)


def choose_move(moves: tuple[MoveStats, ...], temperature: float, rng: random.Random) -> MoveStats:
    """The most visited move, or with temperature > 0 a draw ∝ visits ** (1 / temperature)."""
    if temperature <= 0.0 or len(moves) == 1:
        return moves[0]
    top = moves[0].visits
    if top == 0:
        return moves[int(rng.random() * len(moves))]
    weights = [(m.visits / top) ** (1.0 / temperature) for m in moves]
    return rng.choices(moves, weights)[0]


LineSource = Callable[[Action], Line]
"""The principal variation of a root move, computed on demand (one tree's `line`)."""


def describe(
    game: Game,
    state: State,
    stats: MoveStats,
    lines: LineSource | None,
    figures: RootFigures | None = None,
) -> MoveStats:
    """`stats` with its notation, its line from `lines` (else the tally's line; the move
    alone when no tree reported one) with the seat of each of its moves and, with a model's
    `figures`, the network's prior and value of the move."""
    notation = game.action_to_str(state, stats.action)
    if lines is not None:
        line = lines(stats.action)
    elif stats.principal_variation:
        line = Line(stats.principal_variation, stats.principal_variation_seats)
    else:
        line = Line((notation,), (game.current_player(state),))
    described = replace(
        stats,
        notation=notation,
        principal_variation=line.notations,
        principal_variation_seats=line.seats,
    )
    if figures is not None:
        described = with_figures(described, figures)
    return described


def with_figures(stats: MoveStats, figures: RootFigures) -> MoveStats:
    """`stats` with the network's prior and value of its move."""
    return replace(
        stats, prior=figures.prior(stats.action), net_value=figures.net_value(stats.action)
    )


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
    stopped_by: StopReason,
    nodes: int,
    shown: int | None = None,
    lines: LineSource | None = None,
    figures: RootFigures | None = None,
) -> SearchResult:
    """Assemble the SearchResult, choosing the move with a generator seeded by `choice_seed`.

    Only the `shown` top moves (None: all) and the chosen one are described: notation, a
    line from `lines` (or the tallies' lines when None) and, with a model's `figures`, the
    network's prior and value of the move."""
    ranked = move_stats(tallies, seat)
    chosen = choose_move(ranked, temperature, random.Random(choice_seed))
    count = len(ranked) if shown is None else min(shown, len(ranked))
    moves = list(ranked)
    for i, stats in enumerate(ranked):
        if i < count or stats.action == chosen.action:
            moves[i] = describe(game, state, stats, lines, figures)
            if stats.action == chosen.action:
                chosen = moves[i]
    assert chosen.notation is not None
    return SearchResult(
        action=chosen.action,
        notation=chosen.notation,
        seat=seat,
        iterations=iterations,
        elapsed_ms=elapsed_ms,
        moves=tuple(moves),
        stopped_by=stopped_by,
        nodes=nodes,
        seat_values=ranked[0].seat_values if ranked else (),
    )
