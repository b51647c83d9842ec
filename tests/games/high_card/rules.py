"""High Card rules: each seat in turn keeps its card or redraws once; the higher card wins."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL
from boardbot.engine.errors import IllegalActionError, InvalidStateError
from boardbot.engine.jsonread import JsonReader
from tests.games.high_card.state import MAX_CARDS, MIN_CARDS, NO_CARD, OVER, HighCardState

KEEP = "keep"
REDRAW = "redraw"


def describe_options() -> dict[str, Any]:
    """The one option: how many cards."""
    return {"cards": {"type": "integer", "values": [MIN_CARDS, MAX_CARDS], "default": 6}}


def new_state(options: Mapping[str, Any] | None = None, seed: int = 0) -> HighCardState:
    """Deal one card to each seat from a deck shuffled with `seed`; seat 0 decides first."""
    opts = JsonReader(dict(options or {}), ("options",), InvalidStateError).obj({"cards"})
    cards = opts.opt("cards", 6).as_int(MIN_CARDS, MAX_CARDS)
    first, second = random.Random(seed).sample(range(1, cards + 1), 2)
    deck = tuple(card for card in range(1, cards + 1) if card not in (first, second))
    return HighCardState(cards, (first, second), deck, (), 0, False)


def num_players(state: HighCardState) -> int:
    """Always 2."""
    return 2


def current_player(state: HighCardState) -> int:
    """The seat to decide, CHANCE while a redraw is pending, TERMINAL at the end."""
    if state.turn == OVER:
        return TERMINAL
    return CHANCE if state.drawing else state.turn


def legal_actions(state: HighCardState) -> list[str]:
    """Keep or redraw, for the seat deciding."""
    return [KEEP, REDRAW] if current_player(state) >= 0 else []


def chance_outcomes(state: HighCardState) -> list[tuple[int, float]] | None:
    """Every card of the deck, equally likely, while a redraw is pending."""
    if not state.drawing:
        return None
    return [(card, 1.0 / len(state.deck)) for card in state.deck]


def apply(state: HighCardState, action: Any) -> HighCardState:
    """The state after a decision or a drawn card."""
    seat = state.turn
    if state.drawing:
        if action not in state.deck:
            raise IllegalActionError("$", f"card {action!r} is not in the deck")
        hands = (action, state.hands[1]) if seat == 0 else (state.hands[0], action)
        deck = tuple(card for card in state.deck if card != action)
        return state._replace(hands=hands, deck=deck, turn=seat + 1, drawing=False)
    if action == KEEP and seat != OVER:
        return state._replace(turn=seat + 1)
    if action == REDRAW and seat != OVER:
        hands = (NO_CARD, state.hands[1]) if seat == 0 else (state.hands[0], NO_CARD)
        discards = (*state.discards, state.hands[seat])
        return state._replace(hands=hands, discards=discards, drawing=True)
    raise IllegalActionError("$", f"{action!r} is not legal now")


def returns(state: HighCardState) -> tuple[float, ...]:
    """1.0 for the higher card at the end, 0.0 otherwise (all 0 before the end)."""
    if state.turn != OVER:
        return (0.0, 0.0)
    return (1.0, 0.0) if state.hands[0] > state.hands[1] else (0.0, 1.0)


def scores(state: HighCardState) -> tuple[float, ...]:
    """The cards held."""
    return (float(state.hands[0]), float(state.hands[1]))
