"""The Red Ring window of a conflict: which Rings it lets the Cats play, and when it is skipped."""

from __future__ import annotations

from tests.engine.leda.builders import (
    Engine,
    card,
    make_player,
)

ALL_CATS = [f"cat-{i}" for i in range(1, 14)]


def test_red_ring_drawn_by_the_conflicts_own_token_can_be_played(engine: Engine) -> None:
    """The window follows the token's effect: a Ring that effect draws is playable."""
    deck = ["cat-10", *(c for c in ALL_CATS if c != "cat-10")]
    p0 = make_player("cats", deck=deck, military=4)
    assert not p0.hand
    state = engine.conflict(p0, make_player("sharks", military=1), mv_top=["mv-17"])
    assert "ring:cat-10@r2c3" in engine.options(state)
    state = engine.play(state, "ring:cat-10@r2c3")
    assert state.players[0].grid[6].cards[-1] == card("cat-10")


def test_red_window_with_an_empty_hand_and_nothing_drawn_is_skipped(engine: Engine) -> None:
    p0 = make_player("cats", deck=list(ALL_CATS), military=4)
    state = engine.conflict(p0, make_player("sharks", military=1), mv_top=["mv-1"])
    opts = engine.options(state)
    assert "food" in opts and not any(o.startswith("ring") for o in opts)
