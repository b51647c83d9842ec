"""The 8 kinds of MV tokens, Spy (with its rulings), Flip, Steal and Draw."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.engine.leda.board import mv_symbols
from boardbot.engine.leda.state import LedaState, Player
from tests.engine.leda.builders import (
    Engine,
    card,
    make_player,
    sq,
)


def win_token(
    engine: Engine, token: str, p0: Player | None = None, p1: Player | None = None, **kw: Any
) -> LedaState:
    """Seat 0 wins the conflict (run by `engine`) and draws `token`."""
    p0 = p0 or make_player("sharks", food=0)
    p1 = p1 or make_player("pandas", food=0)
    p0 = p0._replace(military=2)
    return engine.conflict(p0, p1, mv_top=[token], **kw)


@pytest.mark.parametrize(("token", "symbols"), [("mv-1", 1), ("mv-3", 1), ("mv-4", 2), ("mv-5", 2)])
def test_symbol_only_tokens(engine: Engine, token: str, symbols: int) -> None:
    state = win_token(engine, token)
    assert mv_symbols(state.players[0]) == symbols
    assert state.players[0].food == 0 and len(state.players[0].hand) == 0
    assert state.players[0].mv == (card(token),)


def test_food_token(engine: Engine) -> None:
    assert win_token(engine, "mv-13").players[0].food == 1


def test_steal_token_takes_one_food_if_any(engine: Engine) -> None:
    state = win_token(engine, "mv-15", p1=make_player("pandas", food=3))
    assert state.players[0].food == 1 and state.players[1].food == 2
    state = win_token(engine, "mv-16", p1=make_player("pandas", food=0))
    assert state.players[0].food == 0 and state.players[1].food == 0


def test_draw_token_and_empty_deck_gives_nothing(engine: Engine) -> None:
    state = win_token(engine, "mv-17")
    assert len(state.players[0].hand) == 1
    allcards = [f"shark-{i}" for i in range(1, 12)]
    state = win_token(engine, "mv-18", p0=make_player("sharks", hand=allcards, deck=[]))
    assert len(state.players[0].hand) == 11


def test_upgrade_token(engine: Engine) -> None:
    state = win_token(engine, "mv-10")
    assert engine.options(state)[0] == "upgrade:r1c1"
    state = engine.play(state, "upgrade:r2c4")
    assert state.players[0].grid[sq("r2c4")].face == 1


def test_flip_token_turns_a_desert_back(engine: Engine) -> None:
    p0 = make_player("sharks", tiles={"r3c1": ("temp-food-1", "back")})
    state = win_token(engine, "mv-8", p0=p0)
    assert engine.options(state) == ["flip:r3c1"]
    state = engine.play(state, "flip:r3c1")
    assert state.players[0].grid[sq("r3c1")].face == 0


def test_flip_without_desert_is_lost(engine: Engine) -> None:
    state = win_token(engine, "mv-9")
    assert engine.current_player(state) == 0 and engine.options(state)[0] == "food"


def test_spy_token_on_each_pile_and_knowledge(engine: Engine) -> None:
    state = win_token(engine, "mv-6")
    assert engine.options(state) == ["spy:deck", "spy:actions", "spy:mv"]
    top = state.mv_pile[0]
    state = engine.play(state, "spy:mv")
    assert top in state.known[0] and top not in state.known[1]
    assert engine.options(state) == ["put:top", "put:bottom"]
    state = engine.play(state, "put:bottom")
    assert state.mv_pile[-1] == top and top in state.known[0]


def test_spy_own_deck_then_draw_keeps_track(engine: Engine) -> None:
    state = win_token(engine, "mv-7")
    top = state.players[0].deck[0]
    state = engine.play(state, "spy:deck", "put:top")
    assert top in state.known[0]


def test_action_pile_cannot_be_spied_with_one_tile_left(engine: Engine) -> None:
    shown = ["action-1", "action-3", "action-4", "action-2"]  # row 2's tile revealed last
    state = win_token(engine, "mv-6", revealed=shown, action_pile=["action-5"])
    assert engine.options(state) == ["spy:deck", "spy:mv"]


def test_spy_on_a_single_item_pile_only_puts_on_top(engine: Engine) -> None:
    p0 = make_player("sharks", deck=["shark-1"])
    state = win_token(engine, "mv-6", p0=p0)
    state = engine.play(state, "spy:deck")
    assert engine.options(state) == ["put:top"]
