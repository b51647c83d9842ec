"""The die (standard game): its three faces, the Tool draw, the Torch flip, the Coin bonus,
and Die cards that set the face after the roll."""

from __future__ import annotations

import pytest

from boardbot.engine import CHANCE
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import ROLL
from tests.engine.legend_raiders.builders import (
    GAME,
    P,
    build,
    card,
    phase_name,
    play,
    texts,
    tools,
)


def test_die_faces_come_from_the_data_and_have_equal_chances() -> None:
    state = build([P(1), P(2)])
    assert GAME.current_player(state) == CHANCE
    outcomes = {GAME.action_to_str(state, a): p for a, p in GAME.chance_outcomes(state) or []}
    assert outcomes == pytest.approx({"roll:tool": 1 / 3, "roll:torch": 1 / 3, "roll:coin": 1 / 3})
    assert sorted(C.die_faces) == [0, 0, 1, 1, 2, 2]


def test_tool_face_draws_one_tool_from_the_bag_as_a_chance_step() -> None:
    state = play(build([P(1), P(2)]), "roll:tool")
    assert phase_name(state) == "draw-tool"
    outcomes = dict(GAME.chance_outcomes(state) or [])
    bag = state.bag
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert len(outcomes) == sum(1 for n in bag if n)
    state = play(state, "draw:map")
    assert state.players[0].tools == tools(map=1)
    assert state.bag[1] == bag[1] - 1
    assert phase_name(state) == "action"


def test_tool_face_with_a_full_backpack_puts_one_back_new_one_allowed() -> None:
    state = play(build([P(1, tools=tools(compass=3, shovel=3)), P(2)]), "roll:tool", "draw:map")
    assert phase_name(state) == "discard-tool"
    assert texts(state) == ["discard:compass", "discard:map", "discard:shovel"]
    bag_maps = state.bag[1]
    after = play(state, "discard:map")
    assert after.players[0].tools == tools(compass=3, shovel=3)
    assert after.bag[1] == bag_maps + 1
    assert phase_name(after) == "action"


def test_torch_face_flips_every_players_torch() -> None:
    state = build([P(1, torch=True), P(2, torch=False), P(3, torch=True)], seat=1, first=1)
    after = play(state, "roll:torch")
    assert [p.torch for p in after.players] == [False, True, False]
    assert phase_name(after) == "action"


def test_coin_face_adds_one_point_per_discovery_completed_this_turn() -> None:
    state = build([P(2, tools=tools(compass=2, shovel=2), prepared=("poseidon", "aegis")), P(1)])
    plain = play(state, "roll:torch", "expedition:row1", "reveal:mission-book-book")
    # torch flipped to unlit: exact tools only
    plain = play(plain, "complete:poseidon")
    with_coin = play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                     "complete:poseidon")
    assert with_coin.players[0].points == plain.players[0].points + 1
    with_coin = play(with_coin, "complete:aegis")
    # Aegis: 3 empty spaces + the 6th completed space = 4 coins, +1 for the die's Coin.
    assert with_coin.players[0].points - plain.players[0].points == 1 + 5


def test_die_card_is_offered_after_the_roll_with_the_other_faces() -> None:
    state = build([P(3, known=("die-2",)), P(1)])
    after = play(state, "roll:torch")
    assert phase_name(after) == "die-card"
    assert texts(after) == ["keep-roll", "die-card:tool", "die-card:coin"]


def test_no_die_card_step_without_any_card_that_could_be_a_die_card() -> None:
    state = build([P(3, known=("mission-book-book",)), P(1)])
    assert phase_name(play(state, "roll:coin")) == "action"


def test_die_card_step_for_blind_cards_offers_only_keep_without_a_die_card() -> None:
    # Blind cards might be Die cards for the others, so the step happens; here none is.
    state = build([P(3, blind=("mission-book-book",)), P(1)])
    after = play(state, "roll:coin")
    assert phase_name(after) == "die-card"
    assert texts(after) == ["keep-roll"]
    assert phase_name(play(after, "keep-roll")) == "action"


def test_keep_roll_applies_the_rolled_face() -> None:
    state = build([P(3, known=("die-2",), torch=True), P(1, torch=False)])
    after = play(state, "roll:torch", "keep-roll")
    assert [p.torch for p in after.players] == [False, True]
    assert after.players[0].known == (card("die-2"),)


def test_lana_soft_turns_the_torch_roll_into_a_coin() -> None:
    """Rulebook example 5: the Die card changes the Torch roll into a Coin."""
    state = build(
        [P(3, known=("die-1",), tools=tools(shovel=2, rope=1), prepared=("aegis",)), P(1)]
    )
    after = play(state, "roll:torch", "die-card:coin")
    lana = after.players[0]
    assert lana.torch, "her torch remains lit"
    assert after.players[1].torch, "nobody's torch flipped"
    assert lana.known == ()
    assert after.removed_cards == 1 << card("die-1"), "the Die card leaves the game"
    assert after.coin_bonus == 1
    done = play(after, "expedition:row1", "reveal:mission-book-book", "complete:aegis")
    # 3 empty spaces + the 6th completed space = 4 coins, +2 Shovels (her favourite), +1 Coin.
    assert done.players[0].points == 4 + 2 + 1


def test_die_card_setting_the_tool_face_draws_a_tool() -> None:
    state = build([P(3, blind=("die-3", "mission-book-weapon-place")), P(1)])
    after = play(state, "roll:coin", "die-card:tool")
    assert phase_name(after) == "draw-tool"
    assert after.coin_bonus == 0
    assert after.players[0].blind == (card("mission-book-weapon-place"),)
    after = play(after, "draw:rope")
    assert after.players[0].tools == tools(rope=1)


def test_a_known_die_card_is_used_before_a_blind_one() -> None:
    state = build([P(3, known=("die-1",), blind=("die-2",)), P(1)])
    after = play(state, "roll:coin", "die-card:torch")
    assert after.players[0].known == ()
    assert after.players[0].blind == (card("die-2"),)


def test_the_roll_is_the_first_step_of_every_turn() -> None:
    state = build([P(1), P(2)])
    assert state.phase == ROLL
    after = play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert after.seat == 1
    assert after.phase == ROLL
    assert after.coin_bonus == 0


def test_only_one_die_card_per_roll_in_the_standard_game() -> None:
    state = build([P(3, known=("die-1", "die-2")), P(1)])
    state = play(state, "roll:torch", "die-card:coin")
    assert phase_name(state) == "action"
    assert not any(t.startswith("die-card") for t in texts(state))
    assert state.players[0].known == (card("die-2"),), "the other Die card is kept"
    assert state.removed_cards == 1 << card("die-1")
    state = play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map", "roll:coin")
    assert phase_name(state) == "action", "the other player has no card that could be a Die card"
    # The kept one can be used after this player's next roll.
    state = play(state, "prepare:2", "reveal:babel", "draw:map", "draw:map", "roll:torch")
    assert state.seat == 0
    assert texts(state) == ["keep-roll", "die-card:tool", "die-card:coin"]
