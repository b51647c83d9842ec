"""Action notation: JSON objects and short strings, parsing and legality checks (on both engines:
the native one with the Python engine's error classes, paths and reasons)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine import CHANCE, EngineError, IllegalActionError, InvalidActionError, get_game
from boardbot.engine.leda.frames import SHUFFLE_ACTIONS
from boardbot.engine.leda.rules import shuffle_size
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import Engine, make_player, make_state, org_stack, play

GAME = get_game("leda")


def _state() -> LedaState:
    p0 = make_player("sharks", hand=["shark-6"], food=7)
    return make_state(p0, make_player("pandas"), stack=org_stack())


def _setup() -> LedaState:
    """A Python setup: seat 0 (Cats) to decide on a mulligan."""
    return GAME.new_state({"clans": ["cats", "sharks"], "first_player": 0}, seed=0)


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("play:shark-6@r2c2", {"type": "play", "card": "shark-6", "square": "r2c2"}),
        ("swap:r1c1-r4c4", {"type": "swap", "squares": ["r1c1", "r4c4"]}),
        ("food", {"type": "food"}),
    ],
)
def test_text_and_json_forms(engine: Engine, text: str, data: dict[str, object]) -> None:
    game, state = engine.game, engine.state(_state())
    action = game.action_from_str(state, text)
    assert isinstance(action, tuple) and action == GAME.action_from_str(_state(), text)
    assert game.action_to_str(state, action) == text
    assert game.action_to_json(state, action) == data
    assert game.action_from_json(state, data) == action


def test_swap_squares_in_any_order(engine: Engine) -> None:
    game, state = engine.game, engine.state(_state())
    a = game.action_from_json(state, {"type": "swap", "squares": ["r4c4", "r1c1"]})
    assert game.action_to_str(state, a) == "swap:r1c1-r4c4"


def test_other_forms(engine: Engine) -> None:
    game, state = engine.game, engine.state(_setup())
    assert game.action_to_json(state, game.action_from_str(state, "mulligan:yes")) == {
        "type": "mulligan",
        "redraw": True,
    }


def test_illegal_and_malformed_actions(engine: Engine) -> None:
    state = _state()
    engine.refuses_action(state, "str", "zone:row2", IllegalActionError)
    engine.refuses_action(state, "str", "dance", InvalidActionError)
    engine.refuses_action(state, "json", {"type": "zone", "zone": "row2"}, IllegalActionError)
    err = engine.refuses_action(
        state, "json", {"type": "play", "card": "shark-6", "square": "r9c9"}, InvalidActionError
    )
    assert err.path == "$.square"
    err = engine.refuses_action(
        state, "json", {"type": "play", "card": "shark-6", "sq": "r1c1"}, InvalidActionError
    )
    assert err.path == "$.sq"
    err = engine.refuses_action(
        state, "json", {"type": "play", "card": "owl", "square": "r1c1"}, InvalidActionError
    )
    assert err.path == "$.card"


def test_shuffle_outcomes_parse_only_at_a_matching_chance_step(engine: Engine) -> None:
    state = _setup()
    engine.refuses_action(state, "str", "shuffle:0,1", IllegalActionError)
    state = engine.play(state, "mulligan:yes")
    game, shuffle = engine.game, engine.state(state)
    outcome = game.sample_chance(shuffle, random.Random(0))
    assert isinstance(outcome, tuple) and isinstance(outcome[1], tuple)
    text = game.action_to_str(shuffle, outcome)
    assert game.action_from_str(shuffle, text) == outcome
    assert game.action_from_json(shuffle, game.action_to_json(shuffle, outcome)) == outcome
    err = engine.refuses_action(state, "str", "shuffle:1,0", IllegalActionError)
    assert err.path == "$.order"
    engine.refuses_action(state, "str", "shuffle:1,1", InvalidActionError)


def _pending_action_shuffle() -> LedaState:
    """A seeded game played until the Action tiles are shuffled."""
    rng = random.Random(1)
    state = GAME.new_state({"clans": ["sharks", "pandas"]}, 1)
    while GAME.current_player(state) != CHANCE or state.stack[-1][2] != SHUFFLE_ACTIONS:
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, GAME.legal_actions(state)[-1])
    return state


def test_a_pending_shuffle_describes_its_outcome() -> None:
    deck = play(_setup(), "mulligan:yes")
    n = shuffle_size(deck)
    assert GAME.chance_outcomes(deck) is None
    assert GAME.chance_form(deck) == (
        f'shuffle of {n} cards (seat 0\'s deck): {{"type":"shuffle","order":[...]}} with order '
        f"a permutation of 0..{n - 1}, item i of the new pile being item order[i] of the old "
        "(notation shuffle:0,1,2,...)"
    )
    tiles = _pending_action_shuffle()
    assert GAME.chance_form(tiles).startswith(
        f"shuffle of {shuffle_size(tiles)} Action tiles: "
    )
    with pytest.raises(IllegalActionError, match="no shuffle is pending"):
        GAME.chance_form(_setup())


def test_a_given_shuffle_reorders_the_pile(engine: Engine) -> None:
    state = play(_setup(), "mulligan:yes")
    n = shuffle_size(state)
    order = [*range(1, n), 0]
    game, shuffle = engine.game, engine.state(state)
    action = game.action_from_json(shuffle, {"type": "shuffle", "order": order})
    assert action == game.action_from_str(shuffle, "shuffle:" + ",".join(map(str, order)))
    deck = state.players[0].deck
    after = engine.py(game.apply(shuffle, action))
    # Item i of the new deck is item order[i] of the old; the mulligan then redraws the hand.
    drawn = len(deck) - len(after.players[0].deck)
    assert after.players[0].deck == tuple(deck[i] for i in order)[drawn:]
    engine.refuses_action(state, "json", {"type": "shuffle", "order": [0] * n}, InvalidActionError)
    err = engine.refuses_action(
        state, "json", {"type": "shuffle", "order": list(range(n - 1))}, IllegalActionError
    )
    assert (err.path, err.reason) == ("$.order", f"the shuffle orders {n} items")
    engine.refuses_action(state, "str", "mulligan:no", IllegalActionError)


def _parsed(game: Any, state: Any, form: str, value: Any) -> Any:
    """The action parsed (`form` "str" or "json"), or the error's class, path and reason."""
    try:
        if form == "str":
            return game.action_from_str(state, value)
        return game.action_from_json(state, value)
    except EngineError as err:
        return (type(err).__name__, err.path, err.reason)


def test_malformed_actions_raise_only_action_errors(engine: Engine) -> None:
    py_state = _state()
    game, state = engine.game, engine.state(py_state)
    rng = random.Random(3)
    names = ["play", "swap", "food", "zone", "shuffle", "awaken", "spy", "put", "choose", "x"]
    values: list[object] = [None, 1, -1, "r1c1", "shark-6", "row1", [], ["r1c1"], {}, 2.5, True]
    texts = ["", ":", "play:", "play:shark-6@", "swap:r1c1", "shuffle:", "zone:row9", "@"]
    attempts: list[tuple[str, Any]] = []
    for _ in range(500):
        data: dict[str, object] = {"type": rng.choice(names)}
        for field in rng.sample(["card", "square", "squares", "zone", "order", "pile", "put",
                                 "option", "redraw"], rng.randrange(3)):  # fmt: skip
            data[field] = rng.choice(values)
        attempts.append(("json", data))
    attempts += [("str", text) for text in texts]
    for form, value in attempts:
        # Only engine errors escape; the native engine's are the Python engine's.
        got = _parsed(game, state, form, value)
        assert got == _parsed(GAME, py_state, form, value), (form, value)
