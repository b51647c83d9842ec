"""What each seat knows (its view), and determinization: a full world consistent with a view.

Public: boards, tools, HQ, face-up row, scores, torches, Expedition cards taken from the row, the
bag's contents and the set of tiles in the stack (everything else about tiles is visible). Hidden:
cards taken blind (known to their owner only) and which cards are in the Expedition deck. Stack and
deck orders are not part of the state: every reveal is a chance step.

A view deals the cards unknown to its seat canonically: the lowest ids to the other players' blind
hands, seat by seat, then to the deck (the state the seat's JSON view decodes to).
"""

from __future__ import annotations

import random

from boardbot.engine.api import View
from boardbot.engine.legend_raiders.chance import bits
from boardbot.engine.legend_raiders.rules import IS_DIE_CARD, deck_holds_only_die_cards
from boardbot.engine.legend_raiders.state import OVER, RaidersState


def unknown_cards(s: RaidersState, observer: int) -> list[int]:
    """Cards `observer` cannot place: the deck plus the other players' blind cards."""
    mask = s.deck
    for seat, p in enumerate(s.players):
        if seat != observer:
            for j in p.blind:
                mask |= 1 << j
    return bits(mask)


def deal_hidden(
    pool: list[int], hand_sizes: list[int | None], deck_size: int, deck_only_die: bool
) -> tuple[list[tuple[int, ...] | None], int]:
    """Deal `pool` (in its order) to the hidden hands (None: not hidden) and the deck.

    When the deck can hold only used Die cards, it takes the first Die cards of the pool and
    the hands take the rest; otherwise the hands are dealt first, in seat order.
    """
    deck_cards: list[int] = []
    if deck_only_die and deck_size:
        # Die cards first; a view whose counts leave too few of them still keeps its counts.
        ordered = [j for j in pool if IS_DIE_CARD[j]] + [j for j in pool if not IS_DIE_CARD[j]]
        deck_cards = ordered[:deck_size]
        chosen = set(deck_cards)
        pool = [j for j in pool if j not in chosen]
    hands: list[tuple[int, ...] | None] = []
    at = 0
    for size in hand_sizes:
        if size is None:
            hands.append(None)
            continue
        hands.append(tuple(sorted(pool[at:at + size])))
        at += size
    if not deck_cards:
        deck_cards = pool[at:]
    return hands, sum(1 << j for j in deck_cards)


def _deal(s: RaidersState, observer: int, pool: list[int]) -> RaidersState:
    """`s` with `pool` (in its order) dealt to the other players' blind hands and the deck."""
    sizes = [None if seat == observer else len(p.blind) for seat, p in enumerate(s.players)]
    hands, deck = deal_hidden(pool, sizes, s.deck.bit_count(), deck_holds_only_die_cards(s))
    players = tuple(
        p if hand is None else p._replace(blind=hand)
        for p, hand in zip(s.players, hands, strict=True)
    )
    return s._replace(players=players, deck=deck)


def observe(s: RaidersState, seat: int) -> View:
    """`seat`'s view: the cards it cannot place dealt canonically (nothing is hidden at the end)."""
    if s.phase == OVER:
        return View(seat, s)  # every hand has been revealed
    return View(seat, _deal(s, seat, unknown_cards(s, seat)))


def sample_world(s: RaidersState, observer: int, rng: random.Random) -> RaidersState:
    """Deal the cards unknown to `observer` at random among the other hands and the deck."""
    if s.phase == OVER:
        return s  # every hand has been revealed
    pool = unknown_cards(s, observer)
    if len(pool) == 0 or all(
        not p.blind for seat, p in enumerate(s.players) if seat != observer
    ):
        return s
    rng.shuffle(pool)
    return _deal(s, observer, pool)


def determinize(view: View, rng: random.Random) -> RaidersState:
    """A full world the view's seat cannot tell from the truth: its unknown cards redealt."""
    return sample_world(view.state, view.seat, rng)
