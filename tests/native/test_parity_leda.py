"""The native LEDA engine steps exactly as the Python engine (differential harness)."""

from __future__ import annotations

import json

import pytest

from boardbot.engine.leda.game import LedaGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

STEPS = 25_000  # `make diff` steps millions; this is the suite's slice


def test_engines_agree_step_by_step_over_every_clan_pairing() -> None:
    summary = parity.run(STEPS, seed=20261201, game="leda")
    for difference in summary.differences[:3]:
        print(difference.reproduction())
    print(summary.line())
    assert summary.steps >= STEPS
    assert summary.games >= len(parity.LEDA_CONFIGS) * 5  # every pairing and first seat
    assert summary.finished_games >= summary.games - 1  # only the last may be cut short
    assert summary.chance_steps > 0 and summary.determinizations > 0
    assert summary.differences == []


def test_every_ordered_pairing_with_either_seat_first_is_compared() -> None:
    assert len(parity.LEDA_CONFIGS) == 4 * 3 * 2
    assert {(a, b) for a, b, _ in parity.LEDA_CONFIGS} == {
        (a, b)
        for a in ("cats", "pandas", "sharks", "scorpions")
        for b in ("cats", "pandas", "sharks", "scorpions")
        if a != b
    }


def test_actions_are_the_python_engines_tuples() -> None:
    native = parity.boardbot_native
    assert native is not None
    py_game = LedaGame()
    state = py_game.new_state({"clans": ["cats", "sharks"], "first_player": 0}, 4)
    twin = native.Leda().state_from_json(json.dumps(py_game.state_to_json(state)))
    assert twin.game == "leda"
    assert twin.legal_actions() == list(py_game.legal_actions(state))
    action = py_game.legal_actions(state)[0]
    assert twin.action_to_str(action) == py_game.action_to_str(state, action)
    assert twin.action_from_str(py_game.action_to_str(state, action)) == action
    assert twin.apply(list(action)) == twin.apply(action)  # a list reads as the tuple


def test_bad_input_raises_python_errors_naming_the_problem() -> None:
    native = parity.boardbot_native
    assert native is not None
    py_game = LedaGame()
    game = native.Leda()
    state_json = py_game.state_to_json(py_game.new_state({}, 5))
    state = game.state_from_json(json.dumps(state_json))
    with pytest.raises(native.InvalidStateError, match=r"^\$\.active"):
        game.state_from_json(json.dumps(dict(state_json, active=7)))
    with pytest.raises(native.InvalidStateError, match="not valid JSON"):
        game.state_from_json("{")
    with pytest.raises(ValueError, match=r"\$\.options\.clans"):
        game.new_state(json.dumps({"clans": ["cats", "cats"]}), 1)
    for bad in (7, (99,), (22, 70, 0), (True,), "play", (27, (0, 0))):
        with pytest.raises(native.InvalidActionError, match="not an action of this game"):
            state.apply(bad)
    with pytest.raises(native.InvalidActionError, match="not legal in this state"):
        state.apply((23,))  # food: not offered at a mulligan
    with pytest.raises(native.InvalidActionError, match="not legal here"):
        state.action_from_str("food")
    with pytest.raises(native.InvalidActionError, match="unknown action"):
        state.action_from_str("fly:r1c1")
    with pytest.raises(native.InvalidActionError, match="no shuffle is pending"):
        state.action_from_str("shuffle:1,0")
    with pytest.raises(ValueError, match="observer"):
        state.to_json(2)
