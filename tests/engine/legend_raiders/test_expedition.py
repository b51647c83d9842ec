"""Action b, Go on an Expedition: the mandatory card, then up to 3 completions with scoring."""

from __future__ import annotations

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import EMPTY
from tests.engine.legend_raiders.builders import (
    Engine,
    P,
    Table,
    card,
    tile,
    tools,
)

ROW = ("mission-place-place", "discovery-idol-1", "mission-idol-idol", "discovery-book-1")


def test_card_choices_are_the_face_up_row_or_the_deck_top_never_none(engine: Engine) -> None:
    state = engine.play(engine.build([P(1), P(2)]), "roll:coin")
    options = [t for t in engine.texts(state) if t.startswith("expedition")]
    assert options == ["expedition:row1", "expedition:row2", "expedition:row3",
                       "expedition:row4", "expedition:deck"]


def test_a_face_up_card_is_known_to_all_and_its_slot_refilled_from_the_deck(engine: Engine) -> None:
    state = engine.play(engine.build([P(1), P(2)]), "roll:coin", "expedition:row2")
    assert engine.py(state).players[0].known == (card("discovery-idol-1"),)
    assert engine.py(state).row[1] == EMPTY and engine.phase_name(state) == "reveal-card"
    assert len(engine.game.chance_outcomes(state) or []) == engine.py(state).deck.bit_count()
    state = engine.play(state, "reveal:die-3")
    assert engine.py(state).row[1] == card("die-3")
    view = engine.game.state_to_json(state, 1)
    assert view["players"][0]["cards_face_up"] == ["discovery-idol-1"]


def test_a_blind_card_is_known_only_to_its_owner(engine: Engine) -> None:
    state = engine.play(engine.build([P(1), P(2)]), "roll:coin", "expedition:deck")
    assert engine.phase_name(state) == "blind-card"
    state = engine.play(state, "reveal:mission-book-book")
    assert engine.py(state).players[0].blind == (card("mission-book-book"),)
    assert engine.game.state_to_json(state, 0)["players"][0]["cards_blind"] == ["mission-book-book"]
    assert engine.game.state_to_json(state, 1)["players"][0]["cards_blind"] == 1
    assert isinstance(engine.game.state_to_json(state, 0)["deck"], int)


def test_with_an_empty_deck_the_slot_stays_empty(engine: Engine) -> None:
    table = Table(deck=(), row=ROW)
    p1 = P(2, known=tuple(c for c in C.card_ids if c not in ROW))
    state = engine.play(engine.build([P(1), p1], table), "roll:coin", "expedition:row1")
    assert engine.py(state).row[0] == EMPTY
    assert engine.py(state).seat == 1, "nothing to complete: the turn is over"


def test_no_card_left_means_an_expedition_without_a_card(engine: Engine) -> None:
    table = Table(deck=(), row=(None, None, None, None))
    state = engine.build([P(1, tools=tools(compass=1, rope=1), prepared=("excalibur",)),
                          P(2, known=C.card_ids)], table)
    state = engine.play(state, "roll:coin")
    assert [t for t in engine.texts(state) if t.startswith("expedition")] == ["expedition:none"]
    state = engine.play(state, "expedition:none")
    assert engine.texts(state) == ["complete:excalibur", "complete:excalibur+torch=compass",
                                   "complete:excalibur+torch=rope", "stop"]


def test_exact_tools_are_returned_to_the_bag(engine: Engine) -> None:
    state = engine.build([P(1, tools=tools(shovel=2, rope=2), prepared=("olympus",)), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    bag = engine.py(state).bag
    after = engine.play(state, "complete:olympus")
    assert engine.py(after).players[0].tools == tools(rope=1)
    assert engine.py(after).bag == tuple(
        a + b for a, b in zip(bag, tools(shovel=2, rope=1), strict=True)
    )
    assert engine.py(after).players[0].completed == (tile("olympus"),)
    assert engine.py(after).players[0].prepared == ()


def test_montana_john_scores_six_for_olympus(engine: Engine) -> None:
    """Rulebook example 2: 5 coins showing (3 empty spaces, the 6th space, Olympus) + 1 Rope."""
    state = engine.build([P(1, tools=tools(shovel=2, rope=1), prepared=("olympus",), torch=False),
                          P(2, torch=False)])
    state = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    assert engine.py(state).players[0].torch, "the torch roll relit it"
    state = engine.play(state, "complete:olympus")
    assert engine.py(state).players[0].points == 6
    assert engine.game.state_to_json(state)["players"][0]["coins_visible"] == 5


def test_joe_manjee_gets_two_extra_points_for_two_maps_on_el_dorado(engine: Engine) -> None:
    """Rulebook example 3: El Dorado paid with 2 Maps, Joe Manjee's favourite tool."""
    state = engine.build([P(2, tools=tools(map=2, compass=1), prepared=("el-dorado",)), P(1)])
    state = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    state = engine.play(state, "complete:el-dorado")
    coins = engine.game.state_to_json(state)["players"][0]["coins_visible"]
    assert coins == 5
    assert engine.py(state).players[0].points == coins + 2


def test_mjollnir_with_the_torch_for_the_rope_earns_no_favourite_bonus(engine: Engine) -> None:
    """Rulebook example 4: 6 coins showing, the Rope replaced by the torch: 6 points."""
    state = engine.build([P(1, tools=tools(shovel=1, rope=1), prepared=("mjollnir",),
                            completed=("olympus", "atlantis"), points=13, torch=False), P(2)])
    state = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    assert "complete:mjollnir+torch=rope" in engine.texts(state)
    after = engine.play(state, "complete:mjollnir+torch=rope")
    montana = engine.py(after).players[0]
    assert montana.points - 13 == 6
    assert not montana.torch, "the torch is turned unlit"
    assert montana.tools == tools(rope=1), "the Rope token stays in the backpack"
    with_rope = engine.play(state, "complete:mjollnir")
    assert engine.py(with_rope).players[0].points - 13 == 7, "paying the Rope token earns the bonus"


def test_the_lit_torch_stands_in_for_one_missing_tool(engine: Engine) -> None:
    state = engine.build([P(3, tools=tools(map=2), prepared=("eden", "el-dorado")), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert engine.texts(state) == ["complete:eden+torch=shovel", "complete:el-dorado+torch=compass",
                                   "stop"]
    after = engine.play(state, "complete:el-dorado+torch=compass")
    assert engine.py(after).players[0].tools == tools()
    assert not engine.py(after).players[0].torch
    assert engine.py(after).seat == 1, "nothing else can be completed: the turn ends"


def test_an_unlit_torch_is_no_wild_tool(engine: Engine) -> None:
    state = engine.build([P(3, tools=tools(map=1), prepared=("eden",), torch=False), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert engine.py(state).seat == 1, "nothing can be completed: no completion step"


def test_at_most_three_completions_per_turn(engine: Engine) -> None:
    state = engine.build([P(3, tools=tools(shovel=4, compass=1, rope=1),
                            prepared=("aegis", "wen-dae-ke", "excalibur")), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                        "complete:aegis", "complete:wen-dae-ke")
    assert engine.py(state).done == 2
    after = engine.play(state, "complete:excalibur")
    assert engine.py(after).seat == 1, "the third completion ends the turn"
    assert len(engine.py(after).players[0].completed) == 3


def test_stop_ends_the_turn_with_tiles_left(engine: Engine) -> None:
    state = engine.build([P(3, tools=tools(shovel=4), prepared=("aegis", "wen-dae-ke")), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    assert "stop" in engine.texts(state)
    after = engine.play(state, "stop")
    assert engine.py(after).seat == 1
    assert len(engine.py(after).players[0].prepared) == 2


def test_each_completion_scores_the_coins_then_visible(engine: Engine) -> None:
    state = engine.build([P(4, tools=tools(shovel=4, map=1), prepared=("aegis", "wen-dae-ke",
                                                                       "atlantis"),
                            torch=False),
                          P(2)])
    # Atlantis needs R R M: not payable. Aegis then Wen-dae-ke.
    state = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    first = engine.play(state, "complete:aegis")
    # 1 empty discovery space + the 6th completed space
    assert engine.py(first).players[0].points == 2
    second = engine.play(first, "complete:wen-dae-ke")
    assert engine.py(second).players[0].points == 2 + 3


def test_covering_the_sixth_space_removes_its_coin_and_seventh_eighth_go_beside(
    engine: Engine,
) -> None:
    done5 = ("clavicola-salomonis", "grand-grimoire", "oracula-sibyllina", "prophetica",
             "atlantis")
    state = engine.build([P(4, tools=tools(shovel=4, rope=2), prepared=("aegis", "wen-dae-ke",
                                                                        "draconite"),
                            completed=done5, points=20, torch=False), P(2)])
    state = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    sixth = engine.play(state, "complete:aegis")
    # 1 empty space + Atlantis's coin; the 6th space is now covered.
    assert engine.py(sixth).players[0].points == 20 + 2
    assert engine.py(sixth).ending
    seventh = engine.play(sixth, "complete:wen-dae-ke")
    assert engine.py(seventh).players[0].points == 22 + 3
    eighth = engine.play(seventh, "complete:draconite")
    assert engine.py(eighth).players[0].points == 25 + 4
    assert len(engine.py(eighth).players[0].completed) == 8
