"""Every Shark card, normal and Pack faces, Shark tokens and the Shark clan victory."""

from __future__ import annotations

import pytest

from boardbot.engine.leda.board import pack_awake
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import (
    Engine,
    card,
    make_player,
    make_state,
    org_stack,
    sq,
    top_frame,
)

PACK_TOKENS = ("r2c2", "r1c2", "r2c1")  # r2c2 has a token and two token neighbours


def shark_state(name: str, pack: bool, **kw: object) -> LedaState:
    """Seat 0 (Sharks) with `name` on r2c2, Pack awake or not, about to activate row 2."""
    extra = kw.pop("player", {})
    tokens = PACK_TOKENS if pack else ("r2c2",)
    p0 = make_player("sharks", cards={"r2c2": [name]}, tokens=tokens, **extra)  # type: ignore[arg-type]
    p1 = make_player("pandas", food=1)
    return make_state(p0, p1, zone="row2", **kw)  # type: ignore[arg-type]


def after(engine: Engine, name: str, pack: bool, **kw: object) -> LedaState:
    """The state right after r2c2 is activated (on `engine`)."""
    return engine.play(shark_state(name, pack, **kw), "activate:r2c2")


def test_pack_needs_its_own_token_and_two_token_neighbours() -> None:
    # Python only: the board's Pack condition itself (the Pack faces below run on both).
    p = make_player("sharks", cards={"r2c2": ["shark-4"]}, tokens=PACK_TOKENS)
    assert pack_awake(p, sq("r2c2"))
    # A played Shark card always has its token; the condition still reads it (the square of a
    # Copy or an empty square has none).
    p = make_player("sharks", tokens=("r1c2", "r2c1"))
    assert not pack_awake(p, sq("r2c2"))
    p = make_player("sharks", cards={"r2c2": ["shark-4"]}, tokens=("r2c2", "r1c2", "r4c4"))
    assert not pack_awake(p, sq("r2c2"))


def test_shark_1_normal_upgrades(engine: Engine) -> None:
    assert top_frame(after(engine, "shark-1", False)) == "upgrade"


def test_shark_1_pack_activates_a_tile_even_a_desert_then_upgrades_it(engine: Engine) -> None:
    state = after(engine, "shark-1", True)
    opts = engine.options(state)
    assert "activate-tile:r3c1" in opts and "activate-tile:r2c2" not in opts
    state = engine.play(state, "activate-tile:r1c3")
    assert state.players[0].food == 1 and state.players[0].grid[sq("r1c3")].face == 1
    p0 = {"tiles": {"r3c1": ("temp-food-1", "back")}}
    state = engine.play(after(engine, "shark-1", True, player=p0), "activate-tile:r3c1")
    assert state.players[0].food == 0 and state.players[0].grid[sq("r3c1")].face == 1


def test_shark_2_normal_spy_pack_military_and_retrigger(engine: Engine) -> None:
    assert top_frame(after(engine, "shark-2", False)) == "spy-pile"
    state = after(engine, "shark-2", True, player={"mv": ["mv-13", "mv-1"]})
    assert state.players[0].military == 1
    assert engine.options(state) == ["retrigger:mv-13", "retrigger:mv-1"]
    state = engine.play(state, "retrigger:mv-13")
    assert state.players[0].food == 1 and len(state.players[0].mv) == 2


def test_shark_3_normal_is_blank_and_leaves_the_tile_covered(engine: Engine) -> None:
    state = shark_state("shark-3", False)
    assert "activate:r2c2" not in engine.options(state)


def test_shark_3_pack_puts_a_token_under_and_draws_the_top_one(engine: Engine) -> None:
    state = after(engine, "shark-3", True, player={"mv": ["mv-4"]}, mv_top=["mv-13"])
    assert engine.options(state) == ["under:mv-4"]
    state = engine.play(state, "under:mv-4")
    p = state.players[0]
    assert p.mv == (card("mv-13"),) and p.food == 1 and state.mv_pile[-1] == card("mv-4")
    assert card("mv-4") in state.known[0] and card("mv-4") in state.known[1]


def test_shark_3_pack_without_a_token_does_nothing(engine: Engine) -> None:
    state = after(engine, "shark-3", True)
    assert top_frame(state) == "activate" and not state.players[0].mv


@pytest.mark.parametrize(
    ("name", "pack", "military", "hand"),
    [
        ("shark-4", False, 1, 0),
        ("shark-4", True, 2, 0),
        ("shark-5", False, 1, 0),
        ("shark-5", True, 1, 1),
        ("shark-6", False, 2, 0),
        ("shark-6", True, 2, 0),  # two adjacent tokens
    ],
)
def test_military_sharks(engine: Engine, name: str, pack: bool, military: int, hand: int) -> None:
    state = after(engine, name, pack)
    assert state.players[0].military == military and len(state.players[0].hand) == hand


def test_shark_6_pack_counts_every_adjacent_token(engine: Engine) -> None:
    p0 = make_player(
        "sharks", cards={"r2c2": ["shark-6"]}, tokens=("r2c2", "r1c2", "r2c1", "r2c3", "r3c2")
    )
    state = engine.play(make_state(p0, make_player("pandas"), zone="row2"), "activate:r2c2")
    assert state.players[0].military == 4


def test_shark_7_normal_blank_pack_draws_an_mv_token(engine: Engine) -> None:
    assert "activate:r2c2" not in engine.options(shark_state("shark-7", False))
    state = after(engine, "shark-7", True, mv_top=["mv-4"])
    assert state.players[0].mv == (card("mv-4"),)


def test_shark_8_normal_food_pack_discounted_play(engine: Engine) -> None:
    assert after(engine, "shark-8", False).players[0].food == 1
    state = after(engine, "shark-8", True, player={"hand": ["shark-4"], "food": 3})
    assert "play:shark-4@r4c4" in engine.options(state) and "skip" in engine.options(state)
    state = engine.play(state, "play:shark-4@r4c4")
    p = state.players[0]
    assert p.food == 0 and p.grid[sq("r4c4")].token


@pytest.mark.parametrize(("pack", "food"), [(False, 1), (True, 3)])
def test_shark_9_food_per_mv_tokens(engine: Engine, pack: bool, food: int) -> None:
    state = after(engine, "shark-9", pack, player={"mv": ["mv-1", "mv-2", "mv-3"]})
    assert state.players[0].food == food


def test_shark_10_pack_places_a_token(engine: Engine) -> None:
    assert "activate:r2c2" not in engine.options(shark_state("shark-10", False))
    state = after(engine, "shark-10", True)
    assert "token:r2c2" not in engine.options(state) and "token:r4c4" in engine.options(state)
    state = engine.play(state, "token:r4c4")
    assert state.players[0].grid[sq("r4c4")].token


def test_shark_11_pack_spies(engine: Engine) -> None:
    assert "activate:r2c2" not in engine.options(shark_state("shark-11", False))
    assert top_frame(after(engine, "shark-11", True)) == "spy-pile"


def test_playing_a_shark_card_brings_a_token_and_a_covered_card_keeps_it(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-4", "shark-5"], food=20)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    state = engine.play(state, "play:shark-4@r3c3")
    assert state.players[0].grid[sq("r3c3")].token


def test_ninth_token_wins_immediately(engine: Engine) -> None:
    tokens = ("r1c1", "r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c3", "r2c4")
    p0 = make_player("sharks", hand=["shark-4"], tokens=tokens, food=5)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    state = engine.play(state, "play:shark-4@r4c4")
    assert state.winner == 0


def test_other_clans_have_no_shark_tokens() -> None:
    # Python only: the board's token supply. A Cat copying Shark-10's Pack has no token to place.
    from boardbot.engine.leda.board import token_supply

    assert token_supply(make_player("cats")) == 0
    assert token_supply(make_player("sharks", tokens=("r1c1",))) == 8
