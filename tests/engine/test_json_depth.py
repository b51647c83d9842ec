"""Documents nested deeper than MAX_JSON_DEPTH are refused at their path, never by a recursion.

A state, options or move document with lists or objects nested more than MAX_JSON_DEPTH levels
is refused with the engine's usual error (InvalidStateError for a state and for options,
InvalidActionError for a move) naming the path of the first container too deep and the reason
`nested deeper than 32`; the native engine says exactly the same, also past serde_json's own
recursion limit (128), and so does the request layer (INVALID_ARGUMENT), also past orjson's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.engine.errors import InvalidActionError, InvalidStateError, format_path
from boardbot.engine.jsonread import MAX_JSON_DEPTH, check_depth, text_depth_path
from boardbot.jobs import game_ops, rules_job
from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.jobs.request_bounds import MAX_MOVE_BYTES, MAX_OPTIONS_BYTES, MAX_STATE_BYTES
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

GAMES = {"leda": "Leda", "legend_raiders": "LegendRaiders"}
DEPTHS = [MAX_JSON_DEPTH + 1, 300, 5000]
"""Just past the bound, past serde_json's recursion limit, past orjson's (and Python's)."""
REASON = f"nested deeper than {MAX_JSON_DEPTH}"


def _lists(levels: int) -> tuple[Any, str]:
    """`levels` lists nested in one another, as a value and as JSON text (no recursion)."""
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value, "[" * levels + "]" * levels


def _objects(levels: int, key: str = "a") -> tuple[Any, str]:
    """`levels` objects nested under `key`, as a value and as JSON text."""
    value: Any = {}
    for _ in range(levels - 1):
        value = {key: value}
    return value, f'{{"{key}":' * (levels - 1) + "{}" + "}" * (levels - 1)


def _path(shape: str, root: str = "$") -> str:
    """The path of the first container past the bound in a document of that shape."""
    step = "[0]" if shape == "lists" else ".a"
    return root + step * MAX_JSON_DEPTH


def _option_path(shape: str) -> str:
    """The same, for a document held by the option `first_player` (one level down)."""
    step = "[0]" if shape == "lists" else ".a"
    return "$.options.first_player" + step * (MAX_JSON_DEPTH - 1)


SHAPES = {"lists": _lists, "objects": _objects}


def _native_error(call: Any) -> tuple[str, str, str]:
    """The native error of `call()`: its kind ("state" or "action"), path and reason."""
    assert boardbot_native is not None
    try:
        call()
    except boardbot_native.InvalidStateError as err:
        return ("state", err.path, err.reason)
    except boardbot_native.InvalidActionError as err:
        return ("action", err.path, err.reason)
    raise AssertionError("the native engine accepted the document")


needs_native = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("levels", DEPTHS)
def test_a_state_nested_too_deep_is_refused_at_its_path(
    game_name: str, shape: str, levels: int
) -> None:
    game = get_game(game_name)
    value, _ = SHAPES[shape](levels)
    with pytest.raises(InvalidStateError) as err:
        game.state_from_json(value)
    assert (err.value.path, err.value.reason) == (_path(shape), REASON)


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("levels", DEPTHS)
def test_options_and_moves_nested_too_deep_are_refused_at_their_path(
    game_name: str, shape: str, levels: int
) -> None:
    game = get_game(game_name)
    value, _ = SHAPES[shape](levels)
    with pytest.raises(InvalidStateError) as err:
        game.new_state({"players": 2, "first_player": value}, 1)
    assert (err.value.path, err.value.reason) == (_option_path(shape), REASON)
    state = game.new_state({}, 1)
    with pytest.raises(InvalidActionError) as move_err:
        game.action_from_json(state, value)
    assert (move_err.value.path, move_err.value.reason) == (_path(shape), REASON)


@needs_native
@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("levels", DEPTHS)
def test_the_native_engine_refuses_them_with_the_same_error(
    game_name: str, shape: str, levels: int
) -> None:
    assert boardbot_native is not None
    native = getattr(boardbot_native, GAMES[game_name])()
    game = get_game(game_name)
    _, text = SHAPES[shape](levels)
    assert _native_error(lambda: native.state_from_json(text)) == ("state", _path(shape), REASON)
    options = f'{{"players": 2, "first_player": {text}}}'
    assert _native_error(lambda: native.new_state(options, 1)) == (
        "state", _option_path(shape), REASON
    )
    state = native.state_from_json(json.dumps(game.state_to_json(game.new_state({}, 1))))
    assert _native_error(lambda: state.action_from_json(text)) == ("action", _path(shape), REASON)


@needs_native
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_both_engines_accept_the_bound_itself(game_name: str) -> None:
    """A document exactly MAX_JSON_DEPTH deep gets the decoder's usual verdict, not the bound's."""
    assert boardbot_native is not None
    native = getattr(boardbot_native, GAMES[game_name])()
    game = get_game(game_name)
    value, text = _lists(MAX_JSON_DEPTH)
    with pytest.raises(InvalidStateError) as err:
        game.state_from_json(value)
    assert (err.value.path, err.value.reason) == ("$", "expected an object, got a list")
    assert _native_error(lambda: native.state_from_json(text)) == (
        "state", "$", "expected an object, got a list"
    )
    data = game.state_to_json(game.new_state({}, 3))
    data["players"][0]["deep"] = _objects(MAX_JSON_DEPTH - 3)[0]  # the bound, in a real state
    with pytest.raises(InvalidStateError) as err:
        game.state_from_json(data)
    assert err.value.path == "$.players[0].deep" and err.value.reason.startswith("unknown field")
    assert _native_error(lambda: native.state_from_json(json.dumps(data)))[1:] == (
        err.value.path, err.value.reason
    )


@needs_native
def test_the_first_container_too_deep_in_document_order_is_named_by_both_engines() -> None:
    assert boardbot_native is not None
    game = get_game("legend_raiders")
    data = game.state_to_json(game.new_state({}, 3))
    deep, _ = _objects(300, key="k")
    data["players"][1]["zz"] = deep  # later in the document than the next one
    data["hq"][2] = {"x": [1, _lists(MAX_JSON_DEPTH)[0]]}
    with pytest.raises(InvalidStateError) as err:
        game.state_from_json(data)
    assert err.value.path == "$.players[1].zz" + ".k" * (MAX_JSON_DEPTH - 3)
    text = json.dumps(data)
    assert _native_error(lambda: boardbot_native.LegendRaiders().state_from_json(text)) == (
        "state", err.value.path, REASON
    )


def test_the_text_scan_finds_what_the_parsed_check_finds() -> None:
    """`text_depth_path` (for text no parser takes) agrees with `check_depth` on parsed text."""
    rng = random.Random(5)

    def tree(level: int) -> Any:
        kind = rng.random()
        if level > MAX_JSON_DEPTH + 3 or kind < 0.2:
            return rng.choice([1, "s]", 'q"{', None, 2.5, True])
        width = rng.randrange(1, 3)
        if kind < 0.6:
            return [tree(level + 1) for _ in range(width)]
        return {rng.choice(["a", "b\\\"", "[", "ключ"]) + str(i): tree(level + 1)
                for i in range(width)}

    seen = set()
    for _ in range(300):
        document = tree(1)
        text = json.dumps(document, ensure_ascii=rng.random() < 0.5)
        try:
            check_depth(document)
            expected = None
        except InvalidStateError as err:
            expected = err.path
        found = text_depth_path(text)
        assert (None if found is None else format_path(found)) == expected, text
        seen.add(expected is None)
    assert seen == {True, False}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("levels", DEPTHS)
@pytest.mark.parametrize(
    ("field", "reason", "limit"),
    [("state_json", Reason.INVALID_STATE, MAX_STATE_BYTES),
     ("options_json", Reason.INVALID_OPTIONS, MAX_OPTIONS_BYTES),
     ("move_json", Reason.INVALID_MOVE, MAX_MOVE_BYTES)],
)
def test_a_request_document_nested_too_deep_is_an_invalid_argument(
    shape: str, levels: int, field: str, reason: Reason, limit: int
) -> None:
    # Still past orjson's own limit (1024) where the field's size bound is the tighter one.
    _, text = SHAPES[shape](min(levels, limit // 8))
    with pytest.raises(RequestError) as err:
        game_ops.parse_json(text.encode(), field, limit)
    failure = err.value
    assert failure.kind == FailureKind.INVALID_ARGUMENT
    assert (failure.reason, failure.field, failure.json_path) == (reason, field, _path(shape))
    assert failure.message == f"{field} {_path(shape)}: {REASON}"


def test_new_game_with_deep_options_names_the_option() -> None:
    deep, _ = _lists(300)
    call = rules_job.NewGameCall("leda", json.dumps({"clans": deep}).encode(), 0, 1)
    with pytest.raises(RequestError) as err:
        rules_job.new_game(call)
    assert err.value.reason == Reason.INVALID_OPTIONS
    assert err.value.json_path == "$.clans" + "[0]" * (MAX_JSON_DEPTH - 1)
    assert err.value.message.endswith(REASON)


def test_malformed_json_that_is_not_too_deep_is_still_malformed() -> None:
    with pytest.raises(RequestError) as err:
        game_ops.parse_json(b"[" * MAX_JSON_DEPTH + b"1,", "state_json")
    assert err.value.reason == Reason.MALFORMED_JSON
