"""The 8 kinds of MV tokens, Spy (with its rulings), Flip, Steal and Draw."""

from __future__ import annotations

import pytest

from boardbot.engine import get_game
from boardbot.engine.leda.board import mv_symbols
from boardbot.engine.leda.state import LedaState, Player
from tests.engine.leda.builders import (
    card,
    conflict_stack,
    make_player,
    make_state,
    options,
    play,
    sq,
)

GAME = get_game("leda")


def win_token(
    token: str, p0: Player | None = None, p1: Player | None = None, **kw: object
) -> LedaState:
    """Seat 0 wins the conflict and draws `token`."""
    p0 = p0 or make_player("sharks", food=0)
    p1 = p1 or make_player("pandas", food=0)
    p0 = p0._replace(military=2)
    return make_state(p0, p1, stack=conflict_stack(), mv_top=[token], **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("token", "symbols"), [("mv-1", 1), ("mv-3", 1), ("mv-4", 2), ("mv-5", 2)])
def test_symbol_only_tokens(token: str, symbols: int) -> None:
    state = win_token(token)
    assert mv_symbols(state.players[0]) == symbols
    assert state.players[0].food == 0 and len(state.players[0].hand) == 0
    assert state.players[0].mv == (card(token),)


def test_food_token() -> None:
    assert win_token("mv-13").players[0].food == 1


def test_steal_token_takes_one_food_if_any() -> None:
    state = win_token("mv-15", p1=make_player("pandas", food=3))
    assert state.players[0].food == 1 and state.players[1].food == 2
    state = win_token("mv-16", p1=make_player("pandas", food=0))
    assert state.players[0].food == 0 and state.players[1].food == 0


def test_draw_token_and_empty_deck_gives_nothing() -> None:
    state = win_token("mv-17")
    assert len(state.players[0].hand) == 1
    allcards = [f"shark-{i}" for i in range(1, 12)]
    state = win_token("mv-18", p0=make_player("sharks", hand=allcards, deck=[]))
    assert len(state.players[0].hand) == 11


def test_upgrade_token() -> None:
    state = win_token("mv-10")
    assert options(state)[0] == "upgrade:r1c1"
    state = play(state, "upgrade:r2c4")
    assert state.players[0].grid[sq("r2c4")].face == 1


def test_flip_token_turns_a_desert_back() -> None:
    p0 = make_player("sharks", tiles={"r3c1": ("temp-food-1", "back")})
    state = win_token("mv-8", p0=p0)
    assert options(state) == ["flip:r3c1"]
    state = play(state, "flip:r3c1")
    assert state.players[0].grid[sq("r3c1")].face == 0


def test_flip_without_desert_is_lost() -> None:
    state = win_token("mv-9")
    assert GAME.current_player(state) == 0 and options(state)[0] == "food"


def test_spy_token_on_each_pile_and_knowledge() -> None:
    state = win_token("mv-6")
    assert options(state) == ["spy:deck", "spy:actions", "spy:mv"]
    top = state.mv_pile[0]
    state = play(state, "spy:mv")
    assert top in state.known[0] and top not in state.known[1]
    assert options(state) == ["put:top", "put:bottom"]
    state = play(state, "put:bottom")
    assert state.mv_pile[-1] == top and top in state.known[0]


def test_spy_own_deck_then_draw_keeps_track() -> None:
    state = win_token("mv-7")
    top = state.players[0].deck[0]
    state = play(state, "spy:deck", "put:top")
    assert top in state.known[0]


def test_action_pile_cannot_be_spied_with_one_tile_left() -> None:
    shown = ["action-1", "action-2", "action-3", "action-4"]
    state = win_token("mv-6", revealed=shown, action_pile=["action-5"], zone="row4")
    assert options(state) == ["spy:deck", "spy:mv"]


def test_spy_on_a_single_item_pile_only_puts_on_top() -> None:
    p0 = make_player("sharks", deck=["shark-1"])
    state = win_token("mv-6", p0=p0)
    state = play(state, "spy:deck")
    assert options(state) == ["put:top"]
