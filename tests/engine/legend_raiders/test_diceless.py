"""The diceless variant: no roll; Die cards used at any time of the turn for one effect."""

from __future__ import annotations

from boardbot.engine.legend_raiders.scoring import final_scores
from boardbot.engine.legend_raiders.state import ACTION, NO_FACE
from tests.engine.legend_raiders.builders import Engine, P, Table, build, card, tile, tools


def test_no_die_the_turn_starts_with_the_action(engine: Engine) -> None:
    state = engine.game.new_state({"players": 3, "variant": "diceless"}, 4)
    assert engine.py(state).phase == ACTION and engine.py(state).die == NO_FACE
    assert engine.game.current_player(state) == engine.py(state).seat
    assert not any(t.startswith("die-card") for t in engine.texts(state))


def test_die_card_effects_offered_while_choosing_the_action(engine: Engine) -> None:
    lit = engine.build([P(1, known=("die-1",)), P(2)], dice=False)
    assert [t for t in engine.texts(lit) if t.startswith("die-card")] == ["die-card:tools",
                                                                          "die-card:coin"]
    unlit = engine.build([P(1, known=("die-1",), torch=False), P(2)], dice=False)
    assert [t for t in engine.texts(unlit) if t.startswith("die-card")] == [
        "die-card:tools", "die-card:torch", "die-card:coin"]


def test_draw_two_tools_and_discard_down_to_six(engine: Engine) -> None:
    state = engine.build([P(1, known=("die-1",), tools=tools(map=5)), P(2)], dice=False)
    state = engine.play(state, "die-card:tools")
    assert engine.py(state).players[0].known == ()
    assert engine.py(state).deck & (1 << card("die-1")), (
        "the Die card is shuffled back into the deck"
    )
    assert engine.phase_name(state) == "draw-tool"
    state = engine.play(state, "draw:rope")
    assert engine.phase_name(state) == "draw-tool", "the second tool is still to come"
    state = engine.play(state, "draw:compass")
    assert engine.phase_name(state) == "discard-tool"
    assert engine.py(state).players[0].tools == tools(compass=1, map=5, rope=1)
    state = engine.play(state, "discard:compass")
    assert engine.phase_name(state) == "action", "back to choosing the action"
    assert engine.py(state).players[0].tools == tools(map=5, rope=1)


def test_relight_only_your_own_unlit_torch(engine: Engine) -> None:
    state = engine.build([P(1, known=("die-1",), torch=False), P(2, torch=False)], dice=False)
    after = engine.play(state, "die-card:torch")
    assert engine.py(after).players[0].torch and not engine.py(after).players[1].torch


def test_torches_never_flip_without_the_die(engine: Engine) -> None:
    state = engine.build([P(1, torch=False), P(2, torch=True)], dice=False)
    after = engine.play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.py(after).seat == 1
    assert [p.torch for p in engine.py(after).players] == [False, True]


def test_coin_effect_adds_a_point_per_completion_and_stacks(engine: Engine) -> None:
    base = dict(tools=tools(shovel=4), prepared=("aegis", "wen-dae-ke"), torch=False)
    plain = engine.build([P(1, **base), P(2)], dice=False)  # type: ignore[arg-type]
    two = engine.build([P(1, known=("die-1", "die-2"), **base), P(2)], dice=False)  # type: ignore[arg-type]
    two = engine.play(two, "die-card:coin", "die-card:coin")
    assert engine.py(two).coin_bonus == 2
    moves = ("expedition:row1", "reveal:mission-book-book", "complete:aegis",
             "complete:wen-dae-ke")
    points = engine.py(engine.play(plain, *moves)).players[0].points
    assert engine.py(engine.play(two, *moves)).players[0].points == points + 4


def test_a_die_card_taken_from_the_row_can_be_used_at_once(engine: Engine) -> None:
    table = Table(row=("die-2", "discovery-idol-1", "mission-idol-idol", "discovery-book-1"))
    state = engine.build([P(3, tools=tools(map=1), prepared=("eden",), torch=False), P(2)], table,
                         dice=False)
    state = engine.play(state, "expedition:row1", "reveal:die-4")
    assert engine.phase_name(state) == "complete"
    assert engine.texts(state) == ["die-card:tools", "die-card:torch", "die-card:coin", "stop"]
    state = engine.play(state, "die-card:torch")
    assert engine.texts(state) == ["complete:eden+torch=shovel", "stop"]
    state = engine.play(state, "complete:eden+torch=shovel")
    assert engine.py(state).players[0].completed == (tile("eden"),)
    assert engine.py(state).seat == 1


def test_after_preparing_a_die_card_may_still_be_used_before_the_turn_ends(engine: Engine) -> None:
    state = engine.build([P(1, known=("die-1",), torch=False), P(2)], dice=False)
    state = engine.play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.phase_name(state) == "finish"
    assert engine.texts(state) == ["die-card:tools", "die-card:torch", "stop"]
    state = engine.play(state, "die-card:torch")
    assert engine.py(state).players[0].torch
    assert engine.py(state).seat == 1, "no Die card left: the turn ends"


def test_blind_cards_keep_the_finish_step_open_with_only_stop(engine: Engine) -> None:
    state = engine.build([P(1, blind=("mission-book-book",)), P(2)], dice=False)
    state = engine.play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.phase_name(state) == "finish"
    assert engine.texts(state) == ["stop"]
    assert engine.py(engine.play(state, "stop")).seat == 1


def test_kept_die_cards_are_worth_a_point_at_the_end() -> None:
    # Python only: `final_scores` of a state before the end is the Python scoring module's own
    # helper (the engines' scores before the end leave the kept cards out).
    state = build([P(1, known=("die-1",), blind=("die-3",), completed=("aegis",), points=4),
                   P(2)], dice=False)
    assert final_scores(state) == (6, 0)
