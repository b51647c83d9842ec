"""Cheap invariants checked after every single step of random games (all clan pairings), on
the Python and native engines."""

from __future__ import annotations

from collections import Counter

import pytest

from boardbot.engine.leda.data import ACTION_TILES, CLAN_CARDS, MV_TOKENS, SHARK_TOKENS
from boardbot.engine.leda.state import LedaState
from tests.engine.conformance import random_trajectory
from tests.engine.leda.builders import CLAN_PAIRS, Engine


def check_invariants(state: LedaState) -> None:
    """Conservation of cards, tokens and tiles; non-negative counters; sound knowledge."""
    mv: Counter[int] = Counter(state.mv_pile)
    for seat, p in enumerate(state.players):
        cards = Counter(p.hand + p.deck + tuple(c for sq in p.grid for c in sq.cards))
        assert cards == Counter(CLAN_CARDS[p.clan]), f"seat {seat} cards"
        assert sorted(sq.tile for sq in p.grid) == list(range(16))
        assert p.food >= 0 and p.military >= 0 and p.specials >= 0
        assert sum(sq.token for sq in p.grid) <= SHARK_TOKENS
        mv.update(p.mv)
        hidden = set(state.action_pile) | set(state.mv_pile) | set(p.deck)
        other = state.players[1 - seat]
        hidden |= set(other.deck) | set(other.hand)
        assert state.known[seat] <= hidden, f"seat {seat} knows an item it should not track"
    assert mv == Counter(MV_TOKENS)
    assert sorted(state.action_pile + state.revealed) == list(ACTION_TILES)


@pytest.mark.parametrize("clans", CLAN_PAIRS, ids=["-".join(p) for p in CLAN_PAIRS])
def test_invariants_hold_after_every_step(engine: Engine, clans: tuple[str, str]) -> None:
    # The engine plays its own random games (its setups and shuffles); every state is read back.
    # A native state is read back by the Python decoder (which validates it too): fewer games
    # keep that quick, and the parity harness compares the engines over many more.
    games = 3 if engine.native else 25
    for g in range(games):
        for state in random_trajectory(engine.game, {"clans": list(clans)}, 500 + g, 5000):
            check_invariants(engine.py(state))
