"""Heuristics for the search: leaf evaluation, rollout-policy weights and tuned presets.

Each seat gets a score in points: progress toward its two victories (MV symbols and the clan
condition, 10 points each when complete), plus the engine it has built (uncovered clan cards by
cost, tiles by face), its hand and its Food; while a round's activations and conflict are still
to come, their expected yield counts too. The value is 0.5 plus a squashed points lead, kept
inside [0.1, 0.9] so that any real win outranks every heuristic state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from boardbot.engine.leda import board
from boardbot.engine.leda.data import (
    BRONZE,
    CARD_CARD_COST,
    CARD_CLAN,
    CARD_COUNT,
    CARD_FOOD_COST,
    CATS,
    CORNERS,
    EFFECTS,
    GOLD,
    MV_SYMBOLS,
    MV_THRESHOLD,
    NEIGHBOURS,
    NONE,
    OP_AWAKEN,
    OP_DRAW,
    OP_DRAW_MV,
    OP_FOOD,
    OP_FOOD_PER_DESERT_PAIR,
    OP_FOOD_PER_HAND,
    OP_FOOD_PER_MV,
    OP_FOOD_PER_MV_PAIR,
    OP_MIL,
    OP_MIL_PER_ADJ_TOKEN,
    OP_MIL_PER_DESERT_PAIR,
    OP_MIL_PER_HAND,
    OP_OR,
    OP_SPECIAL,
    OP_SPY,
    PANDA_LEVEL,
    PANDAS,
    PORTALS,
    RINGS,
    SCORPIONS,
    SHARK_TOKENS,
    SHARKS,
    SILVER,
    SPECIAL_FX,
    TILE_PERMANENT,
    ZONE_MASKS,
    ZONE_SQUARES,
)
from boardbot.engine.leda.frames import (
    A_ACTIVATE,
    A_AWAKEN,
    A_DONE,
    A_FOOD,
    A_PLAY,
    A_RING,
    A_SKIP,
    A_SWAP,
    F_ACTIVATE,
    F_CONFLICT,
    F_STEP,
)
from boardbot.engine.leda.state import KIND, LedaState, Player

VICTORY_POINTS = 10.0
"""Points of a complete victory condition (MV threshold reached, or the clan condition)."""
NEARER_SHARE, FARTHER_SHARE = 0.65, 0.35
"""How the nearer and the farther of the two victories weigh in the victory points."""
CARD_BASE, CARD_PER_FOOD = 0.7, 0.1
"""An uncovered clan card is worth CARD_BASE plus CARD_PER_FOOD per Food of its cost."""
FOOD_PER_CARD_COST = 3
"""Food-equivalent of one card paid toward a Cat card's cost."""
HAND_CARD = 0.3
HAND_CAP = 8
FOOD_POINT, FOOD_CAP, FOOD_POINT_OVER_CAP = 0.08, 9, 0.02
"""Food is worth less than the card it buys, and hoarding past FOOD_CAP is worth little."""
PACK_AWAKE = 0.3
"""Bonus for a Shark card whose Pack face is live."""
CONFLICT_LEAD = 0.6
"""Share of an MV token's symbols credited to the leader of a conflict still to come."""
SQUASH = 8.0
"""Score lead giving tanh(1) of the value range."""
VALUE_SPREAD = 0.4
"""The value stays within 0.5 ± VALUE_SPREAD before the game is decided."""

# Tile points by (permanent, face): uncovered fronts, upgraded backs, Deserts.
_PERMANENT_FRONT, _UPGRADED, _TEMPORARY_FRONT = 0.3, 0.6, 0.2
_DESERT = {SCORPIONS: 0.25}  # Scorpion cards feed on Desert pairs; other clans get nothing
_PANDA_STEP = {BRONZE: 0.5, SILVER: 1.0, GOLD: 2.0}
_PANDA_STEPS_NEEDED = 5.0
_OFF_CORNER_PORTAL = 0.25  # a Portal elsewhere is a fraction of a corner Portal
_PORTAL_NOMINAL_COST = 7  # Portals cost 9 minus a counter
_AWAKENED_COST = {SILVER: 7, GOLD: 10}
_RINGS_NEEDED = 3.0
_MEAN_TOKEN_SYMBOLS = 20 / 18

_PORTAL_SET = frozenset(PORTALS)
_RING_SET = frozenset(RINGS)


def _card_points(card: int) -> float:
    if card in _RING_SET:
        return CARD_BASE
    if card in _PORTAL_SET:
        return CARD_BASE + CARD_PER_FOOD * _PORTAL_NOMINAL_COST
    level = PANDA_LEVEL.get(card, 0)
    if level in _AWAKENED_COST:
        return CARD_BASE + CARD_PER_FOOD * _AWAKENED_COST[level]
    cost = CARD_FOOD_COST[card]
    if cost < 0:
        cost = FOOD_PER_CARD_COST * CARD_CARD_COST[card]
    return CARD_BASE + CARD_PER_FOOD * cost


CARD_POINTS = tuple(_card_points(c) for c in range(CARD_COUNT))
"""Engine points of each clan card lying uncovered in play."""
_PANDA_POINTS = tuple(_PANDA_STEP.get(PANDA_LEVEL.get(c, 0), 0.0) for c in range(CARD_COUNT))
_IS_PORTAL = tuple(c in _PORTAL_SET for c in range(CARD_COUNT))
_IS_RING = tuple(c in _RING_SET for c in range(CARD_COUNT))
_IS_SHARK = tuple(CARD_CLAN[c] == SHARKS for c in range(CARD_COUNT))
_IS_CORNER = tuple(sq in CORNERS for sq in range(16))


def _tile_points(clan: int) -> tuple[tuple[float, float], ...]:
    desert = _DESERT.get(clan, 0.0)
    return tuple(
        (_PERMANENT_FRONT, _UPGRADED) if permanent else (_TEMPORARY_FRONT, desert)
        for permanent in TILE_PERMANENT
    )


TILE_POINTS = tuple(_tile_points(clan) for clan in range(4))
"""Per clan, per tile id: points of the uncovered tile on its front and back faces."""
_SYMBOL_POINTS = tuple(VICTORY_POINTS / MV_THRESHOLD[clan] for clan in range(4))


def _food_points(food: int) -> float:
    if food <= FOOD_CAP:
        return FOOD_POINT * food
    return FOOD_POINT * FOOD_CAP + FOOD_POINT_OVER_CAP * (food - FOOD_CAP)


def player_points(player: Player) -> float:
    """The seat's standing in points: victory progress, engine, hand and Food."""
    clan = player.clan
    tiles = TILE_POINTS[clan]
    engine = 0.0
    tokens = 0
    clan_units = 0.0  # Portals, Panda steps or Rings, by clan
    grid = player.grid
    for sq, square in enumerate(grid):
        if square.token:
            tokens += 1
        cards = square.cards
        if not cards:
            engine += tiles[square.tile][square.face]
            continue
        top = cards[-1]
        engine += CARD_POINTS[top]
        if clan == SCORPIONS:
            if _IS_PORTAL[top]:
                clan_units += 1.0 if _IS_CORNER[sq] else _OFF_CORNER_PORTAL
        elif clan == PANDAS:
            clan_units += _PANDA_POINTS[top]
        elif clan == CATS:
            if _IS_RING[top]:
                clan_units += 1.0
        elif _IS_SHARK[top] and square.token:
            n = 0
            for nb in NEIGHBOURS[sq]:
                if grid[nb].token:
                    n += 1
            if n >= 2:
                engine += PACK_AWAKE
    if clan == SHARKS:
        clan_frac = tokens / SHARK_TOKENS
    elif clan == SCORPIONS:
        clan_frac = clan_units / len(CORNERS)
    elif clan == PANDAS:
        clan_frac = clan_units / _PANDA_STEPS_NEEDED
    else:
        clan_frac = clan_units / _RINGS_NEEDED
    symbols = 0
    for token in player.mv:
        symbols += MV_SYMBOLS[token]
    mv_frac = symbols / MV_THRESHOLD[clan]
    clan_frac = min(1.0, clan_frac)
    mv_frac = min(1.0, mv_frac)
    if mv_frac >= clan_frac:
        victory = NEARER_SHARE * mv_frac + FARTHER_SHARE * clan_frac
    else:
        victory = NEARER_SHARE * clan_frac + FARTHER_SHARE * mv_frac
    hand = min(len(player.hand), HAND_CAP) * HAND_CARD
    return VICTORY_POINTS * victory + engine + hand + _food_points(player.food)


# What one activation of an effect is expected to bring: (Military, other points). Counts that
# depend on the board (per card in hand, per Desert pair, ...) use typical values.
_OP_MILITARY = {OP_MIL_PER_ADJ_TOKEN: 2.0, OP_MIL_PER_HAND: 3.0, OP_MIL_PER_DESERT_PAIR: 1.5}
_OP_FOOD = {
    OP_FOOD_PER_HAND: 3.0,
    OP_FOOD_PER_MV_PAIR: 1.0,
    OP_FOOD_PER_MV: 2.0,
    OP_FOOD_PER_DESERT_PAIR: 1.5,
}
_OP_POINTS = {OP_SPY: 0.05, OP_AWAKEN: 1.0}
_OTHER_OP = 0.3  # upgrades, flips, extra activations, discounted plays, ...


def _op_yield(op: tuple[int, ...], clan: int, symbol_points: float) -> tuple[float, float]:
    kind = op[0]
    if kind == OP_MIL:
        return float(op[1]), 0.0
    if kind == OP_FOOD:
        return 0.0, FOOD_POINT * op[1]
    if kind == OP_DRAW:
        return 0.0, HAND_CARD * op[1]
    if kind == OP_DRAW_MV:
        return 0.0, _MEAN_TOKEN_SYMBOLS * symbol_points
    if kind == OP_SPECIAL:
        return _fx_yield(SPECIAL_FX[clan], clan, symbol_points)
    if kind == OP_OR:
        # Either branch may be chosen: credit half of each.
        a = _fx_yield(op[1], clan, symbol_points)
        b = _fx_yield(op[2], clan, symbol_points)
        return 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])
    if kind in _OP_MILITARY:
        return _OP_MILITARY[kind], 0.0
    if kind in _OP_FOOD:
        return 0.0, FOOD_POINT * _OP_FOOD[kind]
    return 0.0, _OP_POINTS.get(kind, _OTHER_OP)


def _fx_yield(fx: int, clan: int, symbol_points: float) -> tuple[float, float]:
    military = points = 0.0
    if fx == NONE:
        return military, points
    for op in EFFECTS[fx]:
        m, p = _op_yield(op, clan, symbol_points)
        military += m
        points += p
    return military, points


FX_YIELD = tuple(
    tuple(_fx_yield(fx, clan, VICTORY_POINTS / MV_THRESHOLD[clan]) for fx in range(len(EFFECTS)))
    for clan in range(4)
)
"""Per clan, per effect id: (Military, other points) one activation is expected to bring."""
PENDING_SHARE = 0.7
"""Share of a pending activation's expected points credited before it resolves."""


def pending_yield(player: Player, mask: int, zone: int) -> tuple[float, float]:
    """(Military, points) the squares of `mask` in `zone` are expected to bring this round."""
    yields = FX_YIELD[player.clan]
    military = points = 0.0
    for sq in ZONE_SQUARES[zone]:
        if mask >> sq & 1:
            fx = board.live_fx(player, sq)
            if fx != NONE:
                m, p = yields[fx]
                military += m
                points += p
    return military, PENDING_SHARE * points


def round_outlook(state: LedaState) -> float:
    """Seat 0's points lead from this round's pending activations and conflict."""
    conflict = False
    masks = [0, 0]
    zone = state.zone
    for frame in state.stack:
        kind = frame[KIND]
        if kind == F_CONFLICT:
            conflict = True
        elif zone >= 0 and kind == F_STEP:
            _, seat = frame
            masks[seat] = ZONE_MASKS[zone]
        elif zone >= 0 and kind == F_ACTIVATE:
            _, seat, mask = frame
            masks[seat] = mask
    if not conflict:
        return 0.0
    p0, p1 = state.players
    m0, m1 = float(p0.military), float(p1.military)
    lead = 0.0
    if masks[0]:
        m, p = pending_yield(p0, masks[0], zone)
        m0 += m
        lead += p
    if masks[1]:
        m, p = pending_yield(p1, masks[1], zone)
        m1 += m
        lead -= p
    if m0 != m1 and not state.blocked and state.mv_pile:
        if m0 > m1:
            lead += CONFLICT_LEAD * _MEAN_TOKEN_SYMBOLS * _SYMBOL_POINTS[p0.clan]
        else:
            lead -= CONFLICT_LEAD * _MEAN_TOKEN_SYMBOLS * _SYMBOL_POINTS[p1.clan]
    return lead


def evaluate(state: LedaState) -> tuple[float, float]:
    """Per-seat value in [0, 1] from the points lead (1/0 once decided); the two sum to 1."""
    if state.winner >= 0:
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
    p0, p1 = state.players
    lead = player_points(p0) - player_points(p1) + round_outlook(state)
    v = 0.5 + VALUE_SPREAD * math.tanh(lead / SQUASH)
    return (v, 1.0 - v)


_WEIGHTS = {A_PLAY: 6.0, A_RING: 8.0, A_AWAKEN: 4.0, A_FOOD: 2.0, A_SWAP: 0.02, A_SKIP: 0.5}


def policy_weights(state: LedaState, actions: Sequence[tuple[Any, ...]]) -> list[float]:
    """Rollout preferences: play cards and Rings, Awaken, rarely swap, finish activations."""
    out = []
    for action in actions:
        kind = action[0]
        if kind == A_DONE:
            out.append(0.2)
        elif kind == A_ACTIVATE:
            out.append(1.0)
        else:
            out.append(_WEIGHTS.get(kind, 1.0))
    return out


NETWORK_SETTINGS = MappingProxyType({"puct": 2.0, "fpu": -1.0, "leaf_lambda": 0.0})
"""How every LEDA preset searches when it is given a model (inert without one).

A LEDA decision has about 37 legal moves, so each prior is small: with the first-play urgency
tuned on Legend Raiders (fpu 0.2) the search stays with the first moves it tried, and the
network lost to the search without it. Unvisited moves tried first (fpu -1), a wider PUCT (2)
and the rollouts' values at the leaves (lambda 0: LEDA's value head is the weak part) made it
win at equal iterations (+95 Elo at 1,000) and lose by far less at equal time (-32 [-71, +6] at
500 ms a move, against -168 with the defaults: docs/learning.md, "Results")."""

PRESET_OVERRIDES = MappingProxyType({
    name: MappingProxyType({**NETWORK_SETTINGS, **fields})
    for name, fields in {
        "beginner": {},
        "easy": {},
        "medium": {},
        "hard": {},
        # A cut-off of 40 costs time without adding strength; four times `hard`'s iterations
        # at its cut-off of 24 is the step that pays (tuned by matches on LEDA).
        "expert": {"iterations": 6400, "cutoff_depth": 24},
    }.items()
})
"""Search presets as tuned for LEDA: preset name -> the configuration fields it changes."""
