"""The native Legend Raiders engine steps exactly as the Python engine (differential harness)."""

from __future__ import annotations

import json

import pytest

from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

STEPS = 50_000


def test_engines_agree_step_by_step() -> None:
    summary = parity.run(STEPS, seed=20261130)
    for difference in summary.differences[:3]:
        print(difference.reproduction())
    print(summary.line())
    assert summary.steps >= STEPS
    assert summary.games >= 6 * 10  # every configuration, several games each
    assert summary.finished_games >= summary.games - 1  # only the last may be cut short
    assert summary.determinizations > 0
    assert summary.differences == []


def test_a_difference_prints_a_reproduction() -> None:
    difference = parity.Difference(3, 17, "legal actions", [1, 2], [1], '{"game": "x"}', 2)
    text = difference.reproduction()
    assert "game 3, step 17: legal actions" in text
    assert '{"game": "x"}' in text
    assert "action: 2" in text


def test_bad_input_raises_python_errors_naming_the_problem() -> None:
    native = parity.boardbot_native
    assert native is not None
    game = native.LegendRaiders()
    py_game = LegendRaidersGame()
    state_json = py_game.state_to_json(py_game.new_state({"players": 3}, 5))
    state = game.state_from_json(json.dumps(state_json))
    broken = dict(state_json, players=state_json["players"][:1])
    with pytest.raises(ValueError, match=r"^\$"):
        game.state_from_json(json.dumps(broken))
    with pytest.raises(native.InvalidStateError, match="not valid JSON"):
        game.state_from_json("{")
    with pytest.raises(ValueError, match="options"):
        game.new_state("[", 1)
    with pytest.raises(ValueError, match=r"\$"):
        game.new_state(json.dumps({"players": 9}), 1)
    with pytest.raises(native.InvalidActionError, match="not"):
        state.apply(65535)
    with pytest.raises(native.InvalidActionError, match="out of range"):
        state.apply(-1)
    with pytest.raises(ValueError, match="observer"):
        state.to_json(7)
    with pytest.raises(ValueError):
        state.action_from_str("nonsense")
    with pytest.raises(ValueError, match="observer"):
        state.determinize(-1, 0)
