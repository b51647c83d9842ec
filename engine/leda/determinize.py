"""Sampling a full world consistent with everything one seat knows."""

from __future__ import annotations

import random

from boardbot.engine.leda.state import LedaState, set_player


def _refill(items: tuple[int, ...], keep: frozenset[int], pool: list[int]) -> tuple[int, ...]:
    """`items` with every entry not in `keep` replaced by the next entry of `pool`."""
    return tuple(item if item in keep else pool.pop() for item in items)


def _reshuffle(items: tuple[int, ...], keep: frozenset[int], rng: random.Random) -> tuple[int, ...]:
    pool = [item for item in items if item not in keep]
    if len(pool) < 2:
        return items
    rng.shuffle(pool)
    return _refill(items, keep, pool)


def _hidden_piles(state: LedaState, observer: int) -> tuple[tuple[int, ...], ...]:
    """The sequences whose unknown positions determinization resamples, in a fixed order."""
    opp, own = state.players[1 - observer], state.players[observer]
    return (opp.hand, opp.deck, own.deck, state.action_pile, state.mv_pile)


def determinize(state: LedaState, observer: int, rng: random.Random) -> LedaState:
    """Keep what `observer` knows where it is; reshuffle every other hidden item consistently.

    The opponent's hand and the unknown part of their deck are one pool (the observer sees
    only their sizes); the observer's own deck, the Action pile and the MV pile are each
    reshuffled among their unknown positions.
    """
    known = state.known[observer]
    other = 1 - observer
    theirs = state.known[other]
    # Positions the opponent can place but the observer cannot (e.g. the top of a pile the
    # opponent spied): which item lies there is resampled, that the opponent knows it is not.
    their_spots = [
        [i for i, item in enumerate(seq) if item in theirs and item not in known]
        for seq in _hidden_piles(state, observer)
    ]
    opp = state.players[other]
    pool = [c for c in opp.hand if c not in known] + [c for c in opp.deck if c not in known]
    rng.shuffle(pool)
    hand = _refill(opp.hand, known, pool)
    deck = _refill(opp.deck, known, pool)
    state = set_player(state, other, opp._replace(hand=hand, deck=deck))
    own = state.players[observer]
    state = set_player(state, observer, own._replace(deck=_reshuffle(own.deck, known, rng)))
    state = state._replace(
        action_pile=_reshuffle(state.action_pile, known, rng),
        mv_pile=_reshuffle(state.mv_pile, known, rng),
    )
    # The opponent keeps what the observer knows they share (items the observer can place,
    # or holds in hand) and the positions they know, now holding the resampled items.
    shared = set(theirs & (known | frozenset(own.hand)))
    for seq, spots in zip(_hidden_piles(state, observer), their_spots, strict=True):
        shared.update(seq[i] for i in spots)
    # An item of the opponent's own hand is known to them implicitly, never listed.
    shared.difference_update(state.players[other].hand)
    frozen = frozenset(shared)
    return state._replace(known=(known, frozen) if observer == 0 else (frozen, known))
