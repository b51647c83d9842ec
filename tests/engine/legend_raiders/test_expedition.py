"""Action b, Go on an Expedition: the mandatory card, then up to 3 completions with scoring."""

from __future__ import annotations

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import EMPTY
from tests.engine.legend_raiders.builders import (
    GAME,
    P,
    Table,
    build,
    card,
    phase_name,
    play,
    texts,
    tile,
    tools,
)

ROW = ("mission-place-place", "discovery-idol-1", "mission-idol-idol", "discovery-book-1")


def test_card_choices_are_the_face_up_row_or_the_deck_top_never_none() -> None:
    state = play(build([P(1), P(2)]), "roll:coin")
    options = [t for t in texts(state) if t.startswith("expedition")]
    assert options == ["expedition:row1", "expedition:row2", "expedition:row3",
                       "expedition:row4", "expedition:deck"]


def test_a_face_up_card_is_known_to_all_and_its_slot_refilled_from_the_deck() -> None:
    state = play(build([P(1), P(2)]), "roll:coin", "expedition:row2")
    assert state.players[0].known == (card("discovery-idol-1"),)
    assert state.row[1] == EMPTY and phase_name(state) == "reveal-card"
    assert len(GAME.chance_outcomes(state) or []) == state.deck.bit_count()
    state = play(state, "reveal:die-3")
    assert state.row[1] == card("die-3")
    view = GAME.state_to_json(state, 1)
    assert view["players"][0]["cards_face_up"] == ["discovery-idol-1"]


def test_a_blind_card_is_known_only_to_its_owner() -> None:
    state = play(build([P(1), P(2)]), "roll:coin", "expedition:deck")
    assert phase_name(state) == "blind-card"
    state = play(state, "reveal:mission-book-book")
    assert state.players[0].blind == (card("mission-book-book"),)
    assert GAME.state_to_json(state, 0)["players"][0]["cards_blind"] == ["mission-book-book"]
    assert GAME.state_to_json(state, 1)["players"][0]["cards_blind"] == 1
    assert isinstance(GAME.state_to_json(state, 0)["deck"], int)


def test_with_an_empty_deck_the_slot_stays_empty() -> None:
    table = Table(deck=(), row=ROW)
    p1 = P(2, known=tuple(c for c in C.card_ids if c not in ROW))
    state = play(build([P(1), p1], table), "roll:coin", "expedition:row1")
    assert state.row[0] == EMPTY
    assert state.seat == 1, "nothing to complete: the turn is over"


def test_no_card_left_means_an_expedition_without_a_card() -> None:
    table = Table(deck=(), row=(None, None, None, None))
    state = build([P(1, tools=tools(compass=1, rope=1), prepared=("excalibur",)),
                   P(2, known=C.card_ids)], table)
    state = play(state, "roll:coin")
    assert [t for t in texts(state) if t.startswith("expedition")] == ["expedition:none"]
    state = play(state, "expedition:none")
    assert texts(state) == ["complete:excalibur", "complete:excalibur+torch=compass",
                            "complete:excalibur+torch=rope", "stop"]


def test_exact_tools_are_returned_to_the_bag() -> None:
    state = build([P(1, tools=tools(shovel=2, rope=2), prepared=("olympus",)), P(2)])
    state = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    bag = state.bag
    after = play(state, "complete:olympus")
    assert after.players[0].tools == tools(rope=1)
    assert after.bag == tuple(a + b for a, b in zip(bag, tools(shovel=2, rope=1), strict=True))
    assert after.players[0].completed == (tile("olympus"),)
    assert after.players[0].prepared == ()


def test_montana_john_scores_six_for_olympus() -> None:
    """Rulebook example 2: 5 coins showing (3 empty spaces, the 6th space, Olympus) + 1 Rope."""
    state = build([P(1, tools=tools(shovel=2, rope=1), prepared=("olympus",), torch=False),
                   P(2, torch=False)])
    state = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    assert state.players[0].torch, "the torch roll relit it"
    state = play(state, "complete:olympus")
    assert state.players[0].points == 6
    assert GAME.state_to_json(state)["players"][0]["coins_visible"] == 5


def test_joe_manjee_gets_two_extra_points_for_two_maps_on_el_dorado() -> None:
    """Rulebook example 3: El Dorado paid with 2 Maps, Joe Manjee's favourite tool."""
    state = build([P(2, tools=tools(map=2, compass=1), prepared=("el-dorado",)), P(1)])
    state = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    state = play(state, "complete:el-dorado")
    coins = GAME.state_to_json(state)["players"][0]["coins_visible"]
    assert coins == 5
    assert state.players[0].points == coins + 2


def test_mjollnir_with_the_torch_for_the_rope_earns_no_favourite_bonus() -> None:
    """Rulebook example 4: 6 coins showing, the Rope replaced by the torch: 6 points."""
    state = build([P(1, tools=tools(shovel=1, rope=1), prepared=("mjollnir",),
                     completed=("olympus", "atlantis"), points=13, torch=False), P(2)])
    state = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    assert "complete:mjollnir+torch=rope" in texts(state)
    after = play(state, "complete:mjollnir+torch=rope")
    montana = after.players[0]
    assert montana.points - 13 == 6
    assert not montana.torch, "the torch is turned unlit"
    assert montana.tools == tools(rope=1), "the Rope token stays in the backpack"
    with_rope = play(state, "complete:mjollnir")
    assert with_rope.players[0].points - 13 == 7, "paying the Rope token earns the bonus"


def test_the_lit_torch_stands_in_for_one_missing_tool() -> None:
    state = build([P(3, tools=tools(map=2), prepared=("eden", "el-dorado")), P(2)])
    state = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert texts(state) == ["complete:eden+torch=shovel", "complete:el-dorado+torch=compass",
                            "stop"]
    after = play(state, "complete:el-dorado+torch=compass")
    assert after.players[0].tools == tools()
    assert not after.players[0].torch
    assert after.seat == 1, "nothing else can be completed: the turn ends"


def test_an_unlit_torch_is_no_wild_tool() -> None:
    state = build([P(3, tools=tools(map=1), prepared=("eden",), torch=False), P(2)])
    state = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert state.seat == 1, "nothing can be completed: no completion step"


def test_at_most_three_completions_per_turn() -> None:
    state = build([P(3, tools=tools(shovel=4, compass=1, rope=1),
                     prepared=("aegis", "wen-dae-ke", "excalibur")), P(2)])
    state = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                 "complete:aegis", "complete:wen-dae-ke")
    assert state.done == 2
    after = play(state, "complete:excalibur")
    assert after.seat == 1, "the third completion ends the turn"
    assert len(after.players[0].completed) == 3


def test_stop_ends_the_turn_with_tiles_left() -> None:
    state = build([P(3, tools=tools(shovel=4), prepared=("aegis", "wen-dae-ke")), P(2)])
    state = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert "stop" in texts(state)
    after = play(state, "stop")
    assert after.seat == 1
    assert len(after.players[0].prepared) == 2


def test_each_completion_scores_the_coins_then_visible() -> None:
    state = build([P(4, tools=tools(shovel=4, map=1), prepared=("aegis", "wen-dae-ke",
                                                                "atlantis"),
                     torch=False),
                   P(2)])
    # Atlantis needs R R M: not payable. Aegis then Wen-dae-ke.
    state = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    first = play(state, "complete:aegis")
    # 1 empty discovery space + the 6th completed space
    assert first.players[0].points == 2
    second = play(first, "complete:wen-dae-ke")
    assert second.players[0].points == 2 + 3


def test_covering_the_sixth_space_removes_its_coin_and_seventh_eighth_go_beside() -> None:
    done5 = ("clavicola-salomonis", "grand-grimoire", "oracula-sibyllina", "prophetica",
             "atlantis")
    state = build([P(4, tools=tools(shovel=4, rope=2), prepared=("aegis", "wen-dae-ke",
                                                                   "draconite"),
                     completed=done5, points=20, torch=False), P(2)])
    state = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    sixth = play(state, "complete:aegis")
    # 1 empty space + Atlantis's coin; the 6th space is now covered.
    assert sixth.players[0].points == 20 + 2
    assert sixth.ending
    seventh = play(sixth, "complete:wen-dae-ke")
    assert seventh.players[0].points == 22 + 3
    eighth = play(seventh, "complete:draconite")
    assert eighth.players[0].points == 25 + 4
    assert len(eighth.players[0].completed) == 8
