"""What a seat knows: its own card and the discards. Hidden: the other hand and the deck."""

from __future__ import annotations

import random

from boardbot.engine.api import View
from tests.games.high_card.state import NO_CARD, OVER, HighCardState


def _deal(state: HighCardState, seat: int, unknown: list[int]) -> HighCardState:
    """`state` with `unknown` dealt in order: the other hand first (if it holds one), then the
    deck (kept ascending)."""
    other = 1 - seat
    if state.hands[other] == NO_CARD:
        return state._replace(deck=tuple(sorted(unknown)))
    hands = list(state.hands)
    hands[other] = unknown[0]
    return state._replace(hands=(hands[0], hands[1]), deck=tuple(sorted(unknown[1:])))


def _unknown(state: HighCardState, seat: int) -> list[int]:
    """The cards `seat` cannot place, ascending."""
    other = state.hands[1 - seat]
    return sorted([*state.deck, *([other] if other != NO_CARD else [])])


def observe(state: HighCardState, seat: int) -> View:
    """The other hand holds the lowest card `seat` cannot place; everything shows at the end."""
    if state.turn == OVER:
        return View(seat, state)
    return View(seat, _deal(state, seat, _unknown(state, seat)))


def determinize(view: View, rng: random.Random) -> HighCardState:
    """A world where the other hand holds a random card the view's seat cannot place."""
    state, seat = view.state, view.seat
    if state.turn == OVER:
        return state
    unknown = _unknown(state, seat)
    rng.shuffle(unknown)
    return _deal(state, seat, unknown)
