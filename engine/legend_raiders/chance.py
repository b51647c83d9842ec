"""Chance steps: the die roll, tool draws from the bag, tile and card reveals."""

from __future__ import annotations

import random

from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import (
    BLIND_CARD,
    DRAW,
    REFILL_TILE,
    REFILL_TOOL,
    REVEAL_CARD,
    ROLL,
    RaidersState,
)

_FACE_OUTCOMES = tuple(
    (A.ROLL_BASE + f, C.die_faces.count(f) / len(C.die_faces))
    for f in sorted(set(C.die_faces))
)
_ROLL_ACTIONS = tuple(A.ROLL_BASE + f for f in C.die_faces)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of `mask`, ascending."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def chance_outcomes(s: RaidersState) -> list[tuple[int, float]]:
    """Every outcome of the pending chance step with its probability."""
    phase = s.phase
    if phase == ROLL:
        return list(_FACE_OUTCOMES)
    if phase in (DRAW, REFILL_TOOL):
        total = sum(s.bag)
        return [(A.TOOL_BASE + t, n / total) for t, n in enumerate(s.bag) if n]
    if phase == REFILL_TILE:
        items = bits(s.stack)
        return [(A.TILE_BASE + i, 1 / len(items)) for i in items]
    if phase in (REVEAL_CARD, BLIND_CARD):
        items = bits(s.deck)
        return [(A.CARD_BASE + j, 1 / len(items)) for j in items]
    raise ValueError("not a chance step")


def sample_chance(s: RaidersState, rng: random.Random) -> int:
    """One outcome of the pending chance step, drawn with `rng`."""
    phase = s.phase
    if phase == ROLL:
        return _ROLL_ACTIONS[rng.randrange(len(_ROLL_ACTIONS))]
    if phase in (DRAW, REFILL_TOOL):
        r = rng.randrange(sum(s.bag))
        for t, n in enumerate(s.bag):
            if r < n:
                return A.TOOL_BASE + t
            r -= n
    if phase == REFILL_TILE:
        items = bits(s.stack)
        return A.TILE_BASE + items[rng.randrange(len(items))]
    if phase in (REVEAL_CARD, BLIND_CARD):
        items = bits(s.deck)
        return A.CARD_BASE + items[rng.randrange(len(items))]
    raise ValueError("not a chance step")
