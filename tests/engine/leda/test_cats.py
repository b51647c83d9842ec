"""Every Cat card (both faces, rotation), card costs, Copy, the four Rings and Cat victory."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from boardbot.engine import CHANCE
from boardbot.engine.leda.board import clan_victory
from boardbot.engine.leda.state import LedaState, Player
from tests.engine.leda.builders import (
    Engine,
    card,
    make_player,
    make_state,
    org_stack,
    sq,
    top_frame,
)

ALL_CATS = [f"cat-{i}" for i in range(1, 14)]


def cat_state(
    cards: Mapping[str, Sequence[str]],
    opp: Player | None = None,
    zone: str = "row1",
    **kw: object,
) -> LedaState:
    """Seat 0 (Cats) about to activate `zone`."""
    p0 = make_player("cats", cards=cards, **kw)  # type: ignore[arg-type]
    return make_state(p0, opp or make_player("sharks", food=1), zone=zone)


def test_rotation_alternates_the_faces(engine: Engine) -> None:
    state = engine.play(cat_state({"r1c1": ["cat-9"]}), "activate:r1c1")
    assert state.players[0].military == 2 and card("cat-9") in state.players[0].rotated
    state = engine.play(cat_state({"r1c1": ["cat-9"]}, rotated=["cat-9"]), "activate:r1c1")
    assert top_frame(state) == "upgrade" and card("cat-9") in state.players[0].rotated
    state = engine.play(state, "upgrade:r2c1")
    assert card("cat-9") not in state.players[0].rotated


def test_blank_face_still_activates_to_rotate(engine: Engine) -> None:
    state = cat_state({"r1c1": ["cat-5"]}, rotated=["cat-5"])
    assert "activate:r1c1" in engine.options(state)
    state = engine.play(state, "activate:r1c1")
    assert card("cat-5") not in state.players[0].rotated
    assert state.players[0].food == 0 and top_frame(state) == "activate"


def test_cat_1_card_cost_puts_cards_under_the_deck(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-1", "cat-7", "cat-8", "cat-9"], deck=["cat-2"])
    p0 = p0._replace(hand=p0.hand[:4], deck=p0.deck + p0.hand[4:])
    state = make_state(p0, make_player("sharks"), stack=org_stack())
    assert "play:cat-1@r1c1" in engine.options(state)
    state = engine.play(state, "play:cat-1@r1c1")
    assert engine.options(state) == ["pay:cat-7", "pay:cat-8", "pay:cat-9"]
    state = engine.play(state, "pay:cat-9", "pay:cat-7", "pay:cat-8")
    p = state.players[0]
    assert p.hand == () and p.deck[-3:] == (card("cat-9"), card("cat-7"), card("cat-8"))
    assert card("cat-9") in state.known[0] and card("cat-9") not in state.known[1]


def test_card_cost_needs_enough_other_cards(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-1", "cat-7", "cat-8"])
    p0 = p0._replace(hand=p0.hand[:3], deck=p0.deck + p0.hand[3:])
    state = make_state(p0, make_player("sharks"), stack=org_stack())
    assert not any(o.startswith("play:cat-1") for o in engine.options(state))
    assert "play:cat-7@r1c1" in engine.options(state)


def test_cat_1_copy_a_tile_of_the_opponent(engine: Engine) -> None:
    opp = make_player("sharks", cards={"r1c2": ["shark-3"]})
    state = engine.play(cat_state({"r1c1": ["cat-1"]}, opp=opp), "activate:r1c1")
    # r1c2 holds a blank Shark: nothing to copy there.
    assert engine.options(state) == ["copy:r1c1", "copy:r1c3", "copy:r1c4"]
    state = engine.play(state, "copy:r1c1")
    assert state.players[0].food == 1 and card("cat-1") in state.players[0].rotated


def test_copy_does_not_use_up_the_opponents_temporary_tile(engine: Engine) -> None:
    opp = make_player("sharks", tiles={"r1c2": ("temp-special", "front")})
    state = engine.play(cat_state({"r1c1": ["cat-1"]}, opp=opp), "activate:r1c1", "copy:r1c2")
    assert state.players[1].grid[sq("r1c2")].face == 0
    # A copied special activation is the Cats' own (Draw 1), queued for the end of the step.
    assert state.players[0].specials == 1


def test_copy_reads_the_live_pack_face_and_counts_on_the_cat_side(engine: Engine) -> None:
    opp = make_player(
        "sharks", cards={"r1c2": ["shark-9"]}, tokens=("r1c2", "r1c1", "r1c3"), mv=["mv-1"]
    )
    state = cat_state({"r1c1": ["cat-1"]}, opp=opp, mv=["mv-2", "mv-3", "mv-4"])
    state = engine.play(state, "activate:r1c1", "copy:r1c2")
    assert state.players[0].food == 3  # 1 Food per MV token the Cat player owns


def test_copy_with_nothing_to_copy_is_lost_but_rotates(engine: Engine) -> None:
    tiles = {f"r1c{c}": (f"temp-food-{c}", "back") for c in range(1, 5)}
    opp = make_player("sharks", tiles=tiles)
    state = engine.play(cat_state({"r1c1": ["cat-1"]}, opp=opp), "activate:r1c1")
    assert top_frame(state) == "activate" and card("cat-1") in state.players[0].rotated


def test_cat_1_second_face_draws_two(engine: Engine) -> None:
    state = engine.play(cat_state({"r1c1": ["cat-1"]}, rotated=["cat-1"]), "activate:r1c1")
    assert len(state.players[0].hand) == 2 and card("cat-1") not in state.players[0].rotated


def test_cat_2_searches_a_ring_reveals_it_and_shuffles(engine: Engine) -> None:
    state = engine.play(cat_state({"r1c1": ["cat-2"]}), "activate:r1c1")
    assert engine.options(state) == ["take:cat-10", "take:cat-11", "take:cat-12", "take:cat-13"]
    state = engine.play(state, "take:cat-12")
    assert card("cat-12") in state.players[0].hand and card("cat-12") in state.known[1]
    assert engine.current_player(state) == CHANCE
    state = engine.sample(state, random.Random(2))
    assert card("cat-2") in state.players[0].rotated


def test_cat_2_without_a_ring_in_the_deck_only_shuffles(engine: Engine) -> None:
    state = cat_state({"r1c1": ["cat-2"]}, hand=["cat-10", "cat-11", "cat-12", "cat-13"])
    state = engine.play(state, "activate:r1c1")
    # The choice is still offered (the opponent must not learn where the Rings are).
    assert engine.options(state) == ["skip"]
    state = engine.play(state, "skip")
    assert engine.current_player(state) == CHANCE


def test_cat_3_upgrade_then_activate_a_tile(engine: Engine) -> None:
    state = engine.play(cat_state({"r1c1": ["cat-3"]}), "activate:r1c1")
    assert top_frame(state) == "upgrade"
    state = engine.play(cat_state({"r1c1": ["cat-3"]}, rotated=["cat-3"]), "activate:r1c1")
    assert "activate-tile:r1c1" not in engine.options(state)  # covered
    state = engine.play(state, "activate-tile:r4c1")
    assert state.players[0].military == 1 and state.players[0].grid[sq("r4c1")].face == 1


def test_cat_4_counts_cards_in_hand(engine: Engine) -> None:
    hand = ["cat-5", "cat-6", "cat-7"]
    state = engine.play(cat_state({"r1c1": ["cat-4"]}, hand=hand), "activate:r1c1")
    assert state.players[0].military == 3
    state = cat_state({"r1c1": ["cat-4"]}, hand=hand, rotated=["cat-4"])
    assert engine.play(state, "activate:r1c1").players[0].food == 3


def test_cat_5_spy_then_draw(engine: Engine) -> None:
    state = engine.play(cat_state({"r1c1": ["cat-5"]}), "activate:r1c1", "spy:deck", "put:bottom")
    assert len(state.players[0].hand) == 1


def test_cat_6_reveal_a_ring_for_an_mv_token(engine: Engine) -> None:
    state = cat_state({"r1c1": ["cat-6"]}, hand=["cat-10"])
    state = engine.play(state, "activate:r1c1")
    assert engine.options(state) == ["reveal:cat-10", "skip"]
    state = engine.play(state, "reveal:cat-10")
    p = state.players[0]
    assert len(p.mv) == 1 and p.deck[-1] == card("cat-10")
    assert card("cat-10") in state.known[0] and card("cat-10") in state.known[1]
    assert len(engine.play(cat_state({"r1c1": ["cat-6"]}, hand=["cat-10"]), "activate:r1c1", "skip")
               .players[0].mv) == 0  # fmt: skip


def test_cat_7_8_9_simple_faces(engine: Engine) -> None:
    p = engine.play(cat_state({"r1c1": ["cat-7"]}), "activate:r1c1").players[0]
    assert (p.food, p.military) == (1, 1)
    p = engine.play(cat_state({"r1c1": ["cat-8"]}), "activate:r1c1").players[0]
    assert (p.food, len(p.hand)) == (1, 1)


def test_cats_special_is_draw_one(engine: Engine) -> None:
    state = cat_state({}, zone="row2")
    state = engine.play(state, "activate:r2c4", "activate:r2c1", "activate:r2c2", "activate:r2c3")
    assert len(state.players[0].hand) == 2  # the Draw tile and the crystal


# ----------------------------------------------------------------------------- Rings
def test_blue_ring_when_the_deck_is_empty_at_the_end_of_the_step(engine: Engine) -> None:
    p0 = make_player("cats", hand=ALL_CATS, deck=[])
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    opts = engine.options(state)
    assert opts[-1] == "done" and len(opts) == 17 and opts[0] == "ring:cat-11@r1c1"
    state = engine.play(state, "ring:cat-11@r2c2")
    assert state.players[0].grid[sq("r2c2")].cards == (card("cat-11"),)
    assert engine.current_player(state) == 1  # window closed: no other Ring offered


def test_purple_ring_with_three_cat_cards_in_the_zone(engine: Engine) -> None:
    cards = {"r1c1": ["cat-7"], "r1c2": ["cat-8"], "r1c3": ["cat-9"]}
    state = cat_state(cards, hand=["cat-12", "cat-13"])
    state = engine.play(state, "activate:r1c1", "activate:r1c2", "activate:r1c3", "activate:r1c4")
    assert {o.split("@")[0] for o in engine.options(state)} == {"ring:cat-12", "done"}
    state = engine.play(state, "done")
    assert card("cat-12") in state.players[0].hand


def test_orange_ring_with_five_upgraded_tiles(engine: Engine) -> None:
    names = ["food-1", "food-2", "food-3", "food-4", "military-1"]
    tiles = {f"r2c{c}": (n, "back") for c, n in enumerate(names[:4], start=1)}
    tiles["r4c1"] = (names[4], "back")
    p0 = make_player("cats", tiles=tiles, hand=["cat-13"])
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    assert "ring:cat-13@r1c1" in engine.options(state)


def test_red_ring_after_winning_the_conflict_by_three(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-10", "cat-11"], military=4)
    state = engine.conflict(p0, make_player("sharks", military=1))
    assert {o.split("@")[0] for o in engine.options(state)} == {"ring:cat-10", "done"}
    p0 = make_player("cats", hand=["cat-10"], military=3)
    state = engine.conflict(p0, make_player("sharks", military=1))
    assert top_frame(state) == "organization"


def test_red_ring_needs_a_token_actually_won(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-10"], military=5)
    state = engine.conflict(p0, make_player("sharks"), blocked=True)
    assert top_frame(state) == "organization"


def test_ring_activation_may_rotate_another_cat_card(engine: Engine) -> None:
    state = cat_state({"r1c1": ["cat-10"], "r3c3": ["cat-9"]})
    state = engine.play(state, "activate:r1c1")
    assert engine.options(state) == ["rotate:r3c3", "skip"]
    state = engine.play(state, "rotate:r3c3")
    assert card("cat-9") in state.players[0].rotated and state.players[0].military == 0


def test_three_uncovered_rings_are_the_cat_victory() -> None:
    # Python only: the board's victory check itself (the game below runs on both engines).
    p = make_player("cats", cards={"r1c1": ["cat-10"], "r2c2": ["cat-11"], "r3c3": ["cat-12"]})
    assert clan_victory(p)
    p = make_player(
        "cats", cards={"r1c1": ["cat-10"], "r2c2": ["cat-11"], "r3c3": ["cat-12", "cat-9"]}
    )
    assert not clan_victory(p)


def test_three_rings_win(engine: Engine) -> None:
    rest = [c for c in ALL_CATS if c not in ("cat-10", "cat-12")]
    p0 = make_player("cats", cards={"r1c1": ["cat-10"], "r2c2": ["cat-12"]}, hand=rest, deck=[])
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    state = engine.play(state, "ring:cat-11@r4c4")
    assert state.winner == 0
