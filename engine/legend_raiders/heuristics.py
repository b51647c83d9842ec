"""Cheap heuristics for the search: a leaf evaluation, a rollout policy, and the native core's
preset budgets (the Python search plays every preset as the search defines it)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.components import CARD_MISSION
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.rules import BACKPACK, TILE_COST, TOOL_RANGE, visible_coins
from boardbot.engine.legend_raiders.scoring import (
    die_cards_held,
    mission_met,
    returns,
    symbol_counts,
)
from boardbot.engine.legend_raiders.state import OVER, PlayerState, RaidersState

SCALE = 9.6
"""Points of lead giving tanh(1) of the value range (about 0.8 for a 10-point lead)."""
VALUE_SPREAD = 0.4
"""The value stays within 0.5 ± VALUE_SPREAD, so that any real win outranks every heuristic
state: a search then finishes a won game instead of dawdling at an equal-looking value."""


def missions_value(p: PlayerState) -> float:
    """Met Missions in full, unmet ones by the share of their symbols already held."""
    counts = symbol_counts(p)
    for i in p.prepared:
        counts[C.tile_symbol[i]] += 1  # prepared tiles count as likely symbols
    done = symbol_counts(p)
    value = 0.0
    for j in (*p.known, *p.blind):
        if C.card_kind[j] != CARD_MISSION:
            continue
        if mission_met(j, done):
            value += C.mission_points[j]
            continue
        need = C.mission_requires[j]
        have = sum(min(h, n) for h, n in zip(counts, need, strict=True))
        value += 0.5 * C.mission_points[j] * have / sum(need)
    return value


def estimate(p: PlayerState) -> float:
    """Points now plus a rough worth of Missions in reach, tools, prepared tiles and torch."""
    value = p.points + missions_value(p) + die_cards_held(p)
    value += 0.5 * sum(p.tools) + (0.7 if p.torch else 0.0)
    coins = visible_coins(len(p.prepared), p.completed)
    for i in p.prepared:
        missing = sum(max(0, need - have) for need, have in zip(TILE_COST[i], p.tools,
                                                                  strict=True))
        value += max(0.5, 0.6 * coins + 1.0 - missing)
    return value


def evaluate(s: RaidersState) -> tuple[float, ...]:
    """Per-seat value in [0.1, 0.9]: the squashed lead over the best other player (the
    outcome itself once the game is over)."""
    if s.phase == OVER:
        return returns(s)
    est = [estimate(p) for p in s.players]
    out = []
    for seat, mine in enumerate(est):
        best_other = max(v for k, v in enumerate(est) if k != seat)
        out.append(0.5 + VALUE_SPREAD * math.tanh((mine - best_other) / SCALE))
    return tuple(out)


def _column_value(s: RaidersState, p: PlayerState, column: int) -> float:
    value = 1.0
    tile = s.hq_tiles[column]
    tools = s.hq_tools[column]
    if tile >= 0:
        value += 1.0 + sum(TILE_COST[tile]) * 0.3
    need = [0] * len(tools)
    for i in p.prepared:
        for t in TOOL_RANGE:
            need[t] += TILE_COST[i][t]
    for t in TOOL_RANGE:
        if tools[t] and need[t] > p.tools[t]:
            value += 1.0
    return value


def policy_weights(s: RaidersState, actions: Sequence[int]) -> list[float]:
    """Positive weights favouring completions, useful columns and keeping useful tools."""
    p = s.players[s.seat]
    weights = []
    for a in actions:
        kind = A.ACTION_KIND[a]
        if kind == A.COMPLETE:
            w = 20.0 if A.ACTION_ARG2[a] == 0 else 8.0
        elif kind == A.STOP:
            w = 1.0
        elif kind == A.PREPARE:
            w = _column_value(s, p, A.ACTION_ARG[a])
            if len(p.prepared) >= 3 and sum(p.tools) >= BACKPACK - 1:
                w *= 0.3
        elif kind in (A.TAKE_ROW, A.TAKE_DECK, A.NO_CARD):
            ready = any(
                all(h >= n for h, n in zip(p.tools, TILE_COST[i], strict=True))
                for i in p.prepared
            )
            w = 6.0 if ready else 0.7
        elif kind == A.DISCARD_TOOL:
            w = 1.0 + p.tools[A.ACTION_ARG[a]]
        elif kind == A.KEEP_ROLL:
            w = 4.0
        else:
            w = 1.0
        weights.append(w)
    return weights
