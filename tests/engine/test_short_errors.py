"""Every decoder entry point answers huge input with a short engine error, never anything else."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from boardbot.engine import CHANCE, EngineError, Game, State, get_game
from boardbot.engine.errors import echo, format_path
from tests.engine.conformance import random_trajectory

MESSAGE_MAX = 300
BIG_TEXT = "x" * 1_000_000
BIG_LIST = [0] * 100_000
BIG_NAMES = ["cat-1"] * 100_000
HUGE: list[Any] = [
    BIG_TEXT,
    "row" + "1" * 5_000,
    2**64 - 1,
    10**5_000,  # past Python's digit limit for str(): only reachable through the Python API
    -(10**100),
    1e308,
    BIG_LIST,
    BIG_NAMES,
    {BIG_TEXT: 1},
    [[[[["deep"]]]]] * 1_000,
]
GAMES = {
    "leda": [{"clans": ["cats", "sharks"]}, {"clans": ["pandas", "scorpions"]}],
    "legend_raiders": [{"players": 4}, {"players": 2, "variant": "diceless"}],
}


def _check(call: Callable[..., Any], *args: Any) -> None:
    """`call(*args)` succeeds or raises an EngineError whose message and parts are short."""
    try:
        call(*args)
    except EngineError as error:
        assert len(str(error)) < MESSAGE_MAX, str(error)[:400]
        assert len(error.path) < MESSAGE_MAX


def _samples(game: Game) -> Iterator[State]:
    """Some states of random games: the first, and every 120th step (chance steps included)."""
    for options in GAMES[game.name]:
        for step, state in enumerate(random_trajectory(game, options, 3, 400)):
            if step % 120 == 0:
                yield state


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


def _replaced(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    """`node` with the value at `path` replaced, copying only the containers on the way."""
    if not path:
        return value
    copy: Any = dict(node) if isinstance(node, dict) else list(node)
    copy[path[0]] = _replaced(node[path[0]], path[1:], value)
    return copy


def _with_key(node: Any, path: tuple[Any, ...], key: str) -> Any:
    """`node` with an extra `key` in the object at `path`."""
    target: Any = node
    for part in path:
        target = target[part]
    return _replaced(node, path, {**target, key: 1})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_states_with_huge_values_anywhere_give_short_errors(name: str) -> None:
    game = get_game(name)
    rng = random.Random(1)
    for k, state in enumerate(_samples(game)):
        data = game.state_to_json(state, None if k % 2 else k % game.num_players(state))
        for path in _paths(data):
            values = HUGE if k < 2 else rng.sample(HUGE, 3)
            for value in values:
                _check(game.state_from_json, _replaced(data, path, value))
            target = data
            for part in path:
                target = target[part]
            if isinstance(target, dict):
                _check(game.state_from_json, _with_key(data, path, BIG_TEXT))


def _action_jsons(game: Game, state: State) -> list[Any]:
    if game.current_player(state) == CHANCE:
        return [game.action_to_json(state, game.sample_chance(state, random.Random(0)))]
    return [game.action_to_json(state, a) for a in game.legal_actions(state)[:12]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_actions_with_huge_values_give_short_errors(name: str) -> None:
    game = get_game(name)
    for state in _samples(game):
        if game.is_terminal(state):
            continue
        for value in HUGE:
            _check(game.action_from_json, state, value)
            _check(game.action_from_json, state, {"type": value})
            _check(game.action_from_str, state, value)
        for data in _action_jsons(game, state):
            for path in list(_paths(data))[1:]:
                for value in HUGE:
                    _check(game.action_from_json, state, _replaced(data, path, value))
            _check(game.action_from_json, state, {**data, BIG_TEXT: 1})
            text = game.action_to_str(state, game.action_from_json(state, data))
            verb = text.partition(":")[0]
            for tail in (BIG_TEXT, "9" * 5_000, ",".join(["1"] * 100_000), "x+torch=" + BIG_TEXT):
                _check(game.action_from_str, state, f"{verb}:{tail}")
                _check(game.action_from_str, state, text + tail)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_options_with_huge_values_give_short_errors(name: str) -> None:
    game = get_game(name)
    keys = sorted(game.describe_options())
    for key in keys:
        for value in [*HUGE, [BIG_TEXT, 1], [["nested"], "cats"], [{"x": 1}, 2]]:
            _check(game.new_state, {key: value}, 1)
    _check(game.new_state, {BIG_TEXT: 1}, 1)
    _check(game.new_state, {"players": 2, "characters": [BIG_TEXT, 1]}, 1)


def test_an_unhashable_clan_option_is_an_engine_error() -> None:
    with pytest.raises(EngineError) as err:
        get_game("leda").new_state({"clans": [["cats"], "sharks"]}, 1)
    assert err.value.path == "$.options.clans[0]"


def test_echo_and_paths_stay_short() -> None:
    assert echo("abc") == "'abc'"
    assert echo(BIG_TEXT).endswith("(1000000 characters in all)") and len(echo(BIG_TEXT)) < 120
    assert echo(10**5_000) == "<an integer of 16610 bits>"
    assert echo(2**64 - 1) == "18446744073709551615"
    assert len(echo(BIG_LIST)) < 120 and len(echo([[[["x" * 500]]]] * 50)) < 120
    assert format_path(("players", 0, BIG_TEXT)).endswith("...(1000000 characters)")
    assert len(format_path(("players", 0, BIG_TEXT))) < 120
