"""What one seat knows (its view) and sampling full worlds consistent with it.

Hidden from a seat: the opponent's hand and deck, its own deck and the Action and MV piles, except
the items it can place exactly (`LedaState.known`). A view keeps those where they are, lists the
opponent's known hand cards first, and fills every other hidden position with the unknown items
in ascending order: the state the seat's JSON view decodes to.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from boardbot.engine.api import View
from boardbot.engine.leda.state import LedaState, Player, set_player


def _canonical(
    items: tuple[int, ...], known: frozenset[int], fill: Iterator[int]
) -> tuple[int, ...]:
    """`items` with every position not in `known` taken in turn from `fill`."""
    return tuple(item if item in known else next(fill) for item in items)


def _unknown(known: frozenset[int], *sequences: tuple[int, ...]) -> Iterator[int]:
    """The items of `sequences` not in `known`, in ascending order."""
    return iter(sorted(item for seq in sequences for item in seq if item not in known))


def observe(state: LedaState, seat: int) -> View:
    """`seat`'s view: hidden positions canonical, only `seat`'s own knowledge kept."""
    known = state.known[seat]
    other = 1 - seat
    own, opp = state.players[seat], state.players[other]
    opp_fill = _unknown(known, opp.hand, opp.deck)
    held = tuple(card for card in opp.hand if card in known)
    opp_hand = held + tuple(next(opp_fill) for _ in range(len(opp.hand) - len(held)))
    opp_view: Player = opp._replace(hand=opp_hand, deck=_canonical(opp.deck, known, opp_fill))
    own_view = own._replace(deck=_canonical(own.deck, known, _unknown(known, own.deck)))
    hidden = (opp.hand, opp.deck, own.deck, state.action_pile, state.mv_pile)
    still_known = frozenset(item for seq in hidden for item in seq if item in known)
    players = (own_view, opp_view) if seat == 0 else (opp_view, own_view)
    view = state._replace(
        players=players,
        action_pile=_canonical(state.action_pile, known, _unknown(known, state.action_pile)),
        mv_pile=_canonical(state.mv_pile, known, _unknown(known, state.mv_pile)),
        known=(still_known, frozenset()) if seat == 0 else (frozenset(), still_known),
    )
    return View(seat, view)


def determinize(view: View, rng: random.Random) -> LedaState:
    """A full world the view's seat cannot tell from the truth (see `sample_world`)."""
    return sample_world(view.state, view.seat, rng)


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


def sample_world(state: LedaState, observer: int, rng: random.Random) -> LedaState:
    """Keep what `observer` knows where it is; reshuffle every other hidden item consistently.

    The opponent's hand and the unknown part of their deck are one pool (the observer sees
    only their sizes); the observer's own deck, the Action pile and the MV pile are each
    reshuffled among their unknown positions.
    """
    known = state.known[observer]
    other = 1 - observer
    theirs = state.known[other]
    # Positions the opponent can place but the observer cannot (e.g. the top of a pile the
    # opponent spied; only a full state records them, a view keeps its seat's knowledge alone):
    # which item lies there is resampled, that the opponent knows it is not.
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
