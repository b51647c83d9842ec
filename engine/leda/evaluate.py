"""Heuristic values for the search: leaf evaluation and rollout-policy weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.leda import board
from engine.leda.data import (
    BRONZE,
    CATS,
    CORNERS,
    GOLD,
    MV_THRESHOLD,
    PANDA_LEVEL,
    PANDAS,
    PORTALS,
    SHARK_TOKENS,
    SHARKS,
    SILVER,
)
from engine.leda.frames import (
    A_ACTIVATE,
    A_AWAKEN,
    A_DONE,
    A_FOOD,
    A_PLAY,
    A_RING,
    A_SKIP,
    A_SWAP,
)
from engine.leda.state import LedaState, Player

_PORTAL_SET = frozenset(PORTALS)


def clan_progress(player: Player) -> float:
    """Progress toward the clan victory, in [0, 1]."""
    clan = player.clan
    if clan == SHARKS:
        return board.token_count(player) / SHARK_TOKENS
    if clan == CATS:
        return min(1.0, board.rings_in_play(player) / 3)
    grid = player.grid
    if clan == PANDAS:
        # The road to two Golds: Bronzes feed Silvers, Silvers feed Golds.
        score = 0.0
        for square in grid:
            if square.cards:
                level = PANDA_LEVEL.get(square.cards[-1], 0)
                score += _PANDA_STEP.get(level, 0.0)
        return min(1.0, score / 5)
    portals = sum(1 for sq in CORNERS if grid[sq].cards and grid[sq].cards[-1] in _PORTAL_SET)
    return portals / 4


_PANDA_STEP = {BRONZE: 0.5, SILVER: 1.0, GOLD: 2.0}


def progress(player: Player) -> float:
    """Progress toward both victories (the nearer one weighs most), with a little for Food."""
    mv = min(1.0, board.mv_symbols(player) / MV_THRESHOLD[player.clan])
    clan = clan_progress(player)
    return 0.7 * max(mv, clan) + 0.2 * min(mv, clan) + 0.1 * min(1.0, player.food / 8)


def evaluate(state: LedaState) -> tuple[float, float]:
    """Per-seat value in [0, 1]: 0.5 plus half the progress lead (1/0 once decided)."""
    if state.winner >= 0:
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
    a, b = progress(state.players[0]), progress(state.players[1])
    v = min(1.0, max(0.0, 0.5 + 0.5 * (a - b)))
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
