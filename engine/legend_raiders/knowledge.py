"""What each seat knows, and determinization: a full world consistent with a seat's knowledge.

Public: boards, tools, HQ, face-up row, scores, torches, Expedition cards taken from the row, the
bag's contents and the set of tiles in the stack (everything else about tiles is visible). Hidden:
cards taken blind (known to their owner only) and which cards are in the Expedition deck. Stack and
deck orders are not part of the state: every reveal is a chance step.
"""

from __future__ import annotations

import random

from engine.legend_raiders.chance import bits
from engine.legend_raiders.state import OVER, RaidersState


def unknown_cards(s: RaidersState, observer: int) -> list[int]:
    """Cards `observer` cannot place: the deck plus the other players' blind cards."""
    mask = s.deck
    for seat, p in enumerate(s.players):
        if seat != observer:
            for j in p.blind:
                mask |= 1 << j
    return bits(mask)


def determinize(s: RaidersState, observer: int, rng: random.Random) -> RaidersState:
    """Deal the cards unknown to `observer` at random among the other hands and the deck."""
    if s.phase == OVER:
        return s  # every hand has been revealed
    pool = unknown_cards(s, observer)
    if len(pool) == 0 or all(
        not p.blind for seat, p in enumerate(s.players) if seat != observer
    ):
        return s
    rng.shuffle(pool)
    players = list(s.players)
    at = 0
    for seat, p in enumerate(players):
        if seat != observer and p.blind:
            k = len(p.blind)
            players[seat] = p._replace(blind=tuple(sorted(pool[at:at + k])))
            at += k
    return s._replace(players=tuple(players), deck=sum(1 << j for j in pool[at:]))
