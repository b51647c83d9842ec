"""The immutable High Card state and its constants."""

from __future__ import annotations

from typing import NamedTuple

MIN_CARDS = 4
"""Fewest cards in a game: two are dealt and each seat may redraw once."""
MAX_CARDS = 20
OVER = 2
"""`turn` once both seats have decided (and drawn)."""
NO_CARD = 0
"""A hand just discarded, its redraw pending."""


class HighCardState(NamedTuple):
    """Cards 1..`cards`: one in each hand, the rest in the deck or discarded face up."""

    cards: int
    hands: tuple[int, int]
    deck: tuple[int, ...]  # ascending: the order is never part of the state, a draw is chance
    discards: tuple[int, ...]  # in the order discarded
    turn: int  # the seat deciding (or drawing), OVER at the end
    drawing: bool  # the seat of `turn` redraws: a chance step
