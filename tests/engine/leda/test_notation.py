"""Action notation: JSON objects and short strings, parsing and legality checks."""

from __future__ import annotations

import contextlib

import pytest

from boardbot.engine import IllegalActionError, InvalidActionError, get_game
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import make_player, make_state, org_stack

GAME = get_game("leda")


def _state() -> LedaState:
    p0 = make_player("sharks", hand=["shark-6"], food=7)
    return make_state(p0, make_player("pandas"), stack=org_stack())


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("play:shark-6@r2c2", {"type": "play", "card": "shark-6", "square": "r2c2"}),
        ("swap:r1c1-r4c4", {"type": "swap", "squares": ["r1c1", "r4c4"]}),
        ("food", {"type": "food"}),
    ],
)
def test_text_and_json_forms(text: str, data: dict[str, object]) -> None:
    state = _state()
    action = GAME.action_from_str(state, text)
    assert GAME.action_to_str(state, action) == text
    assert GAME.action_to_json(state, action) == data
    assert GAME.action_from_json(state, data) == action


def test_swap_squares_in_any_order() -> None:
    state = _state()
    a = GAME.action_from_json(state, {"type": "swap", "squares": ["r4c4", "r1c1"]})
    assert GAME.action_to_str(state, a) == "swap:r1c1-r4c4"


def test_other_forms() -> None:
    state = GAME.new_state({"clans": ["cats", "sharks"], "first_player": 0}, seed=0)
    assert GAME.action_to_json(state, GAME.action_from_str(state, "mulligan:yes")) == {
        "type": "mulligan",
        "redraw": True,
    }


def test_illegal_and_malformed_actions() -> None:
    state = _state()
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "zone:row2")
    with pytest.raises(InvalidActionError):
        GAME.action_from_str(state, "dance")
    with pytest.raises(IllegalActionError):
        GAME.action_from_json(state, {"type": "zone", "zone": "row2"})
    with pytest.raises(InvalidActionError) as err:
        GAME.action_from_json(state, {"type": "play", "card": "shark-6", "square": "r9c9"})
    assert err.value.path == "$.square"
    with pytest.raises(InvalidActionError) as err:
        GAME.action_from_json(state, {"type": "play", "card": "shark-6", "sq": "r1c1"})
    assert err.value.path == "$.sq"
    with pytest.raises(InvalidActionError) as err:
        GAME.action_from_json(state, {"type": "play", "card": "owl", "square": "r1c1"})
    assert err.value.path == "$.card"


def test_shuffle_outcomes_parse_only_at_a_matching_chance_step() -> None:
    import random

    state = GAME.new_state({"clans": ["cats", "sharks"], "first_player": 0}, seed=0)
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "shuffle:0,1")
    from tests.engine.leda.builders import play

    state = play(state, "mulligan:yes")
    outcome = GAME.sample_chance(state, random.Random(0))
    text = GAME.action_to_str(state, outcome)
    assert GAME.action_from_str(state, text) == outcome
    assert GAME.action_from_json(state, GAME.action_to_json(state, outcome)) == outcome
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "shuffle:1,0")
    with pytest.raises(InvalidActionError):
        GAME.action_from_str(state, "shuffle:1,1")


def test_malformed_actions_raise_only_action_errors() -> None:
    import random

    from boardbot.engine import EngineError

    state = _state()
    rng = random.Random(3)
    names = ["play", "swap", "food", "zone", "shuffle", "awaken", "spy", "put", "choose", "x"]
    values: list[object] = [None, 1, -1, "r1c1", "shark-6", "row1", [], ["r1c1"], {}, 2.5, True]
    for _ in range(500):
        data: dict[str, object] = {"type": rng.choice(names)}
        for field in rng.sample(["card", "square", "squares", "zone", "order", "pile", "put",
                                 "option", "redraw"], rng.randrange(3)):  # fmt: skip
            data[field] = rng.choice(values)
        with contextlib.suppress(EngineError):
            GAME.action_from_json(state, data)
    for text in ["", ":", "play:", "play:shark-6@", "swap:r1c1", "shuffle:", "zone:row9", "@"]:
        with contextlib.suppress(EngineError):
            GAME.action_from_str(state, text)
