"""The die (standard game): its three faces, the Tool draw, the Torch flip, the Coin bonus,
and Die cards that set the face after the roll."""

from __future__ import annotations

import pytest

from boardbot.engine import CHANCE
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import ROLL
from tests.engine.legend_raiders.builders import (
    Engine,
    P,
    card,
    tools,
)


def test_die_faces_come_from_the_data_and_have_equal_chances(engine: Engine) -> None:
    state = engine.build([P(1), P(2)])
    assert engine.game.current_player(state) == CHANCE
    outcomes = {engine.game.action_to_str(state, a): p
                for a, p in engine.game.chance_outcomes(state) or []}
    assert outcomes == pytest.approx({"roll:tool": 1 / 3, "roll:torch": 1 / 3, "roll:coin": 1 / 3})
    assert sorted(C.die_faces) == [0, 0, 1, 1, 2, 2]


def test_tool_face_draws_one_tool_from_the_bag_as_a_chance_step(engine: Engine) -> None:
    state = engine.play(engine.build([P(1), P(2)]), "roll:tool")
    assert engine.phase_name(state) == "draw-tool"
    outcomes = dict(engine.game.chance_outcomes(state) or [])
    bag = engine.py(state).bag
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert len(outcomes) == sum(1 for n in bag if n)
    state = engine.play(state, "draw:map")
    assert engine.py(state).players[0].tools == tools(map=1)
    assert engine.py(state).bag[1] == bag[1] - 1
    assert engine.phase_name(state) == "action"


def test_tool_face_with_a_full_backpack_puts_one_back_new_one_allowed(engine: Engine) -> None:
    state = engine.play(engine.build([P(1, tools=tools(compass=3, shovel=3)), P(2)]),
                        "roll:tool", "draw:map")
    assert engine.phase_name(state) == "discard-tool"
    assert engine.texts(state) == ["discard:compass", "discard:map", "discard:shovel"]
    bag_maps = engine.py(state).bag[1]
    after = engine.play(state, "discard:map")
    assert engine.py(after).players[0].tools == tools(compass=3, shovel=3)
    assert engine.py(after).bag[1] == bag_maps + 1
    assert engine.phase_name(after) == "action"


def test_torch_face_flips_every_players_torch(engine: Engine) -> None:
    state = engine.build([P(1, torch=True), P(2, torch=False), P(3, torch=True)], seat=1, first=1)
    after = engine.play(state, "roll:torch")
    assert [p.torch for p in engine.py(after).players] == [False, True, False]
    assert engine.phase_name(after) == "action"


def test_coin_face_adds_one_point_per_discovery_completed_this_turn(engine: Engine) -> None:
    state = engine.build([P(2, tools=tools(compass=2, shovel=2), prepared=("poseidon", "aegis")),
                          P(1)])
    plain = engine.play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    # torch flipped to unlit: exact tools only
    plain = engine.play(plain, "complete:poseidon")
    with_coin = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                            "complete:poseidon")
    assert engine.py(with_coin).players[0].points == engine.py(plain).players[0].points + 1
    with_coin = engine.play(with_coin, "complete:aegis")
    # Aegis: 3 empty spaces + the 6th completed space = 4 coins, +1 for the die's Coin.
    assert engine.py(with_coin).players[0].points - engine.py(plain).players[0].points == 1 + 5


def test_die_card_is_offered_after_the_roll_with_the_other_faces(engine: Engine) -> None:
    state = engine.build([P(3, known=("die-2",)), P(1)])
    after = engine.play(state, "roll:torch")
    assert engine.phase_name(after) == "die-card"
    assert engine.texts(after) == ["keep-roll", "die-card:tool", "die-card:coin"]


def test_no_die_card_step_without_any_card_that_could_be_a_die_card(engine: Engine) -> None:
    state = engine.build([P(3, known=("mission-book-book",)), P(1)])
    assert engine.phase_name(engine.play(state, "roll:coin")) == "action"


def test_die_card_step_for_blind_cards_offers_only_keep_without_a_die_card(engine: Engine) -> None:
    # Blind cards might be Die cards for the others, so the step happens; here none is.
    state = engine.build([P(3, blind=("mission-book-book",)), P(1)])
    after = engine.play(state, "roll:coin")
    assert engine.phase_name(after) == "die-card"
    assert engine.texts(after) == ["keep-roll"]
    assert engine.phase_name(engine.play(after, "keep-roll")) == "action"


def test_keep_roll_applies_the_rolled_face(engine: Engine) -> None:
    state = engine.build([P(3, known=("die-2",), torch=True), P(1, torch=False)])
    after = engine.play(state, "roll:torch", "keep-roll")
    assert [p.torch for p in engine.py(after).players] == [False, True]
    assert engine.py(after).players[0].known == (card("die-2"),)


def test_lana_soft_turns_the_torch_roll_into_a_coin(engine: Engine) -> None:
    """Rulebook example 5: the Die card changes the Torch roll into a Coin."""
    state = engine.build(
        [P(3, known=("die-1",), tools=tools(shovel=2, rope=1), prepared=("aegis",)), P(1)]
    )
    after = engine.play(state, "roll:torch", "die-card:coin")
    lana = engine.py(after).players[0]
    assert lana.torch, "her torch remains lit"
    assert engine.py(after).players[1].torch, "nobody's torch flipped"
    assert lana.known == ()
    assert engine.py(after).removed_cards == 1 << card("die-1"), "the Die card leaves the game"
    assert engine.py(after).coin_bonus == 1
    done = engine.play(after, "expedition:row1", "reveal:mission-book-book", "complete:aegis")
    # 3 empty spaces + the 6th completed space = 4 coins, +2 Shovels (her favourite), +1 Coin.
    assert engine.py(done).players[0].points == 4 + 2 + 1


def test_die_card_setting_the_tool_face_draws_a_tool(engine: Engine) -> None:
    state = engine.build([P(3, blind=("die-3", "mission-book-weapon-place")), P(1)])
    after = engine.play(state, "roll:coin", "die-card:tool")
    assert engine.phase_name(after) == "draw-tool"
    assert engine.py(after).coin_bonus == 0
    assert engine.py(after).players[0].blind == (card("mission-book-weapon-place"),)
    after = engine.play(after, "draw:rope")
    assert engine.py(after).players[0].tools == tools(rope=1)


def test_a_known_die_card_is_used_before_a_blind_one(engine: Engine) -> None:
    state = engine.build([P(3, known=("die-1",), blind=("die-2",)), P(1)])
    after = engine.play(state, "roll:coin", "die-card:torch")
    assert engine.py(after).players[0].known == ()
    assert engine.py(after).players[0].blind == (card("die-2"),)


def test_the_roll_is_the_first_step_of_every_turn(engine: Engine) -> None:
    state = engine.build([P(1), P(2)])
    assert engine.py(state).phase == ROLL
    after = engine.play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.py(after).seat == 1
    assert engine.py(after).phase == ROLL
    assert engine.py(after).coin_bonus == 0


def test_only_one_die_card_per_roll_in_the_standard_game(engine: Engine) -> None:
    state = engine.build([P(3, known=("die-1", "die-2")), P(1)])
    state = engine.play(state, "roll:torch", "die-card:coin")
    assert engine.phase_name(state) == "action"
    assert not any(t.startswith("die-card") for t in engine.texts(state))
    assert engine.py(state).players[0].known == (card("die-2"),), "the other Die card is kept"
    assert engine.py(state).removed_cards == 1 << card("die-1")
    state = engine.play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map", "roll:coin")
    assert engine.phase_name(state) == "action", (
        "the other player has no card that could be a Die card"
    )
    # The kept one can be used after this player's next roll.
    state = engine.play(state, "prepare:2", "reveal:babel", "draw:map", "draw:map", "roll:torch")
    assert engine.py(state).seat == 0
    assert engine.texts(state) == ["keep-roll", "die-card:tool", "die-card:coin"]
