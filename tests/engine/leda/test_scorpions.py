"""Every Scorpion card, the four Portals with their costs, and the Scorpion clan victory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from boardbot.engine.leda.board import clan_victory, play_cost
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

DESERTS = {f"r3c{c}": (f"temp-food-{c}", "back") for c in range(1, 4)}  # 3 Deserts = 1 pair


def scorpion_state(
    cards: Mapping[str, Sequence[str]], opp: Player | None = None, zone: str = "row1", **kw: object
) -> LedaState:
    """Seat 0 (Scorpions) about to activate `zone`."""
    p0 = make_player("scorpions", cards=cards, **kw)  # type: ignore[arg-type]
    return make_state(p0, opp or make_player("pandas", food=1), zone=zone)


def test_scorpion_1_and_2_count_pairs_of_uncovered_deserts(engine: Engine) -> None:
    state = engine.play(scorpion_state({"r1c1": ["scorpion-1"]}, tiles=DESERTS), "activate:r1c1")
    assert state.players[0].food == 1
    state = engine.play(scorpion_state({"r1c1": ["scorpion-2"]}, tiles=DESERTS), "activate:r1c1")
    assert state.players[0].military == 1
    covered = {"r1c1": ["scorpion-1"], "r3c1": ["scorpion-3"]}
    state = engine.play(scorpion_state(covered, tiles=DESERTS), "activate:r1c1")
    assert state.players[0].food == 1  # 2 uncovered Deserts left: still one pair


def test_scorpion_3_draw_and_food(engine: Engine) -> None:
    p = engine.play(scorpion_state({"r1c1": ["scorpion-3"]}), "activate:r1c1").players[0]
    assert (len(p.hand), p.food) == (1, 1)


def test_scorpion_4_discount_per_desert_pair(engine: Engine) -> None:
    tiles = {**DESERTS, "r3c4": ("temp-food-4", "back")}  # 4 Deserts: 2 less
    state = scorpion_state({"r1c1": ["scorpion-4"]}, tiles=tiles, hand=["scorpion-6"], food=2)
    state = engine.play(state, "activate:r1c1")
    assert "play:scorpion-6@r2c2" in engine.options(state)
    state = engine.play(state, "play:scorpion-6@r2c2")
    assert state.players[0].food == 0


def test_scorpion_5_activates_a_deserts_reminded_effect_and_it_stays_a_desert(
    engine: Engine,
) -> None:
    tiles = {"r4c1": ("temp-military", "back")}
    state = engine.play(scorpion_state({"r1c1": ["scorpion-5"]}, tiles=tiles), "activate:r1c1")
    assert engine.options(state) == ["desert:r4c1"]
    state = engine.play(state, "desert:r4c1")
    assert state.players[0].military == 1 and state.players[0].grid[sq("r4c1")].face == 1


def test_scorpion_6_upgrade_then_activate_that_tile(engine: Engine) -> None:
    state = engine.play(scorpion_state({"r1c1": ["scorpion-6"]}), "activate:r1c1", "upgrade:r1c2")
    assert state.players[0].food == 2 and state.players[0].grid[sq("r1c2")].face == 1


def test_scorpion_6_without_upgradable_tile_is_lost(engine: Engine) -> None:
    names = ["food-1", "food-2", "food-3", "food-4", "military-1", "military-2", "draw", "special"]
    tiles = {f"r{1 + i // 4}c{1 + i % 4}": (n, "back") for i, n in enumerate(names)}
    cards = {"r4c4": ["scorpion-6"]}
    state = engine.play(scorpion_state(cards, tiles=tiles, zone="row4"), "activate:r4c4")
    assert top_frame(state) == "activate"


@pytest.mark.parametrize(("portals", "frames"), [(0, "activate"), (1, "spy-pile")])
def test_scorpion_7_food_and_portal_bonuses(engine: Engine, portals: int, frames: str) -> None:
    cards: dict[str, list[str]] = {"r1c1": ["scorpion-7"]}
    if portals:
        cards["r4c4"] = ["scorpion-8"]
    state = engine.play(scorpion_state(cards), "activate:r1c1")
    assert state.players[0].food == 1 and top_frame(state) == frames


def test_scorpion_7_with_three_portals_is_cumulative(engine: Engine) -> None:
    cards = {"r1c1": ["scorpion-7"], "r4c1": ["scorpion-8"], "r4c2": ["scorpion-9"],
             "r4c3": ["scorpion-10"]}  # fmt: skip
    tiles = {"r3c1": ("temp-draw", "back")}
    state = engine.play(scorpion_state(cards, tiles=tiles), "activate:r1c1", "spy:mv", "put:top")
    assert state.players[0].military == 1 and engine.options(state) == ["desert:r3c1"]
    state = engine.play(state, "desert:r3c1")
    assert len(state.players[0].hand) == 1


def test_portal_costs() -> None:
    # Python only: the board's cost function itself.
    p = make_player("scorpions", hand=["scorpion-8"], deck=[])
    p = p._replace(
        hand=(card("scorpion-8"),), deck=tuple(c for c in p.hand if c != card("scorpion-8"))
    )
    assert play_cost(p, card("scorpion-8")) == (8, 0)  # alone in hand
    p = make_player("scorpions", hand=["scorpion-8", "scorpion-1", "scorpion-2"])
    assert play_cost(p, card("scorpion-8")) == (6, 0)
    names = ["food-1", "food-2", "food-3"]
    tiles = {f"r1c{i + 1}": (n, "back") for i, n in enumerate(names)}
    assert play_cost(make_player("scorpions", tiles=tiles), card("scorpion-9")) == (6, 0)
    p = make_player("scorpions", cards={"r1c1": ["scorpion-8"], "r1c2": ["scorpion-9"]})
    assert play_cost(p, card("scorpion-10")) == (7, 0)
    p = make_player("scorpions", mv=["mv-1", "mv-4"])
    assert play_cost(p, card("scorpion-11")) == (7, 0)
    assert play_cost(p, card("scorpion-11"), discount=9) == (0, 0)


def test_portal_1_spies_twice_on_two_different_piles(engine: Engine) -> None:
    state = scorpion_state({"r1c1": ["scorpion-8"]})
    state = engine.play(state, "activate:r1c1", "spy:mv", "put:top")
    assert engine.options(state) == ["spy:deck", "spy:actions"]


def test_portal_2_the_opponent_chooses_a_tile_to_worsen(engine: Engine) -> None:
    opp = make_player("pandas", tiles={"r1c1": ("food-1", "back"), "r3c1": ("temp-food-1", "back")})
    state = engine.play(scorpion_state({"r1c1": ["scorpion-9"]}, opp=opp), "activate:r1c1")
    assert engine.current_player(state) == 1
    opts = engine.options(state)
    assert "downgrade:r1c1" in opts and "downgrade:r3c2" in opts
    assert "downgrade:r1c2" not in opts and "downgrade:r3c1" not in opts
    state = engine.play(state, "downgrade:r1c1")
    assert state.players[1].grid[sq("r1c1")].face == 0 and engine.current_player(state) == 0


def test_portal_3_swaps_two_squares(engine: Engine) -> None:
    state = engine.play(scorpion_state({"r1c1": ["scorpion-10"]}), "activate:r1c1")
    assert len(engine.options(state)) == 120
    state = engine.play(state, "swap:r1c1-r4c4")
    assert state.players[0].grid[sq("r4c4")].cards == (card("scorpion-10"),)


def test_portal_4_blocks_every_mv_token_this_round(engine: Engine) -> None:
    state = engine.play(scorpion_state({"r1c1": ["scorpion-11"]}), "activate:r1c1")
    assert state.blocked
    p0 = make_player("scorpions", military=5)
    state = engine.conflict(p0, make_player("pandas"), blocked=True)
    assert not state.players[0].mv
    state = engine.play(state, "food", "food")
    assert not state.blocked  # only for the round


def test_scorpions_special_is_spy(engine: Engine) -> None:
    state = scorpion_state({}, zone="row2")
    state = engine.play(state, "activate:r2c4", "activate:r2c1", "activate:r2c2", "activate:r2c3")
    assert top_frame(state) == "spy-pile" and engine.current_player(state) == 0


CORNERS = {"r1c1": ["scorpion-8"], "r1c4": ["scorpion-9"], "r4c1": ["scorpion-10"],
           "r4c4": ["scorpion-11"]}  # fmt: skip


def test_four_uncovered_portals_on_the_corners_are_the_scorpion_victory() -> None:
    # Python only: the board's victory check itself (the game below runs on both engines).
    assert clan_victory(make_player("scorpions", cards=CORNERS))
    covered = {**CORNERS, "r4c4": ["scorpion-11", "scorpion-1"]}
    assert not clan_victory(make_player("scorpions", cards=covered))


def test_four_portals_on_the_corners_win(engine: Engine) -> None:
    corners = CORNERS
    three = {k: v for k, v in corners.items() if k != "r4c4"}
    p0 = make_player("scorpions", cards=three, hand=["scorpion-11"], food=9)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    assert engine.play(state, "play:scorpion-11@r4c4").winner == 0
