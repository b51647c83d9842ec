"""The diceless variant: no roll; Die cards used at any time of the turn for one effect."""

from __future__ import annotations

from boardbot.engine.legend_raiders.scoring import final_scores
from boardbot.engine.legend_raiders.state import ACTION, NO_FACE
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


def test_no_die_the_turn_starts_with_the_action() -> None:
    state = GAME.new_state({"players": 3, "variant": "diceless"}, 4)
    assert state.phase == ACTION and state.die == NO_FACE
    assert GAME.current_player(state) == state.seat
    assert not any(t.startswith("die-card") for t in texts(state))


def test_die_card_effects_offered_while_choosing_the_action() -> None:
    lit = build([P(1, known=("die-1",)), P(2)], dice=False)
    assert [t for t in texts(lit) if t.startswith("die-card")] == ["die-card:tools",
                                                                  "die-card:coin"]
    unlit = build([P(1, known=("die-1",), torch=False), P(2)], dice=False)
    assert [t for t in texts(unlit) if t.startswith("die-card")] == [
        "die-card:tools", "die-card:torch", "die-card:coin"]


def test_draw_two_tools_and_discard_down_to_six() -> None:
    state = build([P(1, known=("die-1",), tools=tools(map=5)), P(2)], dice=False)
    state = play(state, "die-card:tools")
    assert state.players[0].known == ()
    assert state.deck & (1 << card("die-1")), "the Die card is shuffled back into the deck"
    assert phase_name(state) == "draw-tool"
    state = play(state, "draw:rope")
    assert phase_name(state) == "draw-tool", "the second tool is still to come"
    state = play(state, "draw:compass")
    assert phase_name(state) == "discard-tool"
    assert state.players[0].tools == tools(compass=1, map=5, rope=1)
    state = play(state, "discard:compass")
    assert phase_name(state) == "action", "back to choosing the action"
    assert state.players[0].tools == tools(map=5, rope=1)


def test_relight_only_your_own_unlit_torch() -> None:
    state = build([P(1, known=("die-1",), torch=False), P(2, torch=False)], dice=False)
    after = play(state, "die-card:torch")
    assert after.players[0].torch and not after.players[1].torch


def test_torches_never_flip_without_the_die() -> None:
    state = build([P(1, torch=False), P(2, torch=True)], dice=False)
    after = play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert after.seat == 1
    assert [p.torch for p in after.players] == [False, True]


def test_coin_effect_adds_a_point_per_completion_and_stacks() -> None:
    base = dict(tools=tools(shovel=4), prepared=("aegis", "wen-dae-ke"), torch=False)
    plain = build([P(1, **base), P(2)], dice=False)  # type: ignore[arg-type]
    two = build([P(1, known=("die-1", "die-2"), **base), P(2)], dice=False)  # type: ignore[arg-type]
    two = play(two, "die-card:coin", "die-card:coin")
    assert two.coin_bonus == 2
    moves = ("expedition:row1", "reveal:mission-book-book", "complete:aegis",
             "complete:wen-dae-ke")
    assert play(two, *moves).players[0].points == play(plain, *moves).players[0].points + 4


def test_a_die_card_taken_from_the_row_can_be_used_at_once() -> None:
    table = Table(row=("die-2", "discovery-idol-1", "mission-idol-idol", "discovery-book-1"))
    state = build([P(3, tools=tools(map=1), prepared=("eden",), torch=False), P(2)], table,
                  dice=False)
    state = play(state, "expedition:row1", "reveal:die-4")
    assert phase_name(state) == "complete"
    assert texts(state) == ["die-card:tools", "die-card:torch", "die-card:coin", "stop"]
    state = play(state, "die-card:torch")
    assert texts(state) == ["complete:eden+torch=shovel", "stop"]
    state = play(state, "complete:eden+torch=shovel")
    assert state.players[0].completed == (tile("eden"),)
    assert state.seat == 1


def test_after_preparing_a_die_card_may_still_be_used_before_the_turn_ends() -> None:
    state = build([P(1, known=("die-1",), torch=False), P(2)], dice=False)
    state = play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert phase_name(state) == "finish"
    assert texts(state) == ["die-card:tools", "die-card:torch", "stop"]
    state = play(state, "die-card:torch")
    assert state.players[0].torch
    assert state.seat == 1, "no Die card left: the turn ends"


def test_blind_cards_keep_the_finish_step_open_with_only_stop() -> None:
    state = build([P(1, blind=("mission-book-book",)), P(2)], dice=False)
    state = play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert phase_name(state) == "finish"
    assert texts(state) == ["stop"]
    assert play(state, "stop").seat == 1


def test_kept_die_cards_are_worth_a_point_at_the_end() -> None:
    state = build([P(1, known=("die-1",), blind=("die-3",), completed=("aegis",), points=4),
                   P(2)], dice=False)
    assert final_scores(state) == (6, 0)
