"""The binding's typed errors: every kind is raised by a matching bad input, carries its fields as
attributes, and maps by type to the Python engine's (or search's) error of the same class and
fields; and no Python module sorts native errors by their text."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from boardbot.engine import errors as engine_errors
from boardbot.engine.api import Game
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from boardbot.search import errors as search_errors
from boardbot.search.api import SearchConfig
from boardbot.search.checks import check_request
from boardbot.search.native import native_config
from boardbot.search.native_errors import ENGINE_ERRORS, SEARCH_ERRORS, engine_error, python_error
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)

native: Any = boardbot_native
GAMES: dict[str, tuple[Any, str]] = {
    "legend_raiders": (LegendRaidersGame(), "LegendRaiders"),
    "leda": (LedaGame(), "Leda"),
}
REPO = Path(__file__).resolve().parents[2]

ENGINE_KINDS = {
    # native type -> (its base in the binding, the Python engine's class)
    "InvalidStateError": ("EngineError", engine_errors.InvalidStateError),
    "InvalidOptionsError": ("InvalidStateError", engine_errors.InvalidStateError),
    "InvalidActionError": ("EngineError", engine_errors.InvalidActionError),
    "IllegalActionError": ("InvalidActionError", engine_errors.IllegalActionError),
}
SEARCH_KINDS = {
    "InvalidConfigError": search_errors.InvalidConfigError,
    "InvalidSeatError": search_errors.InvalidSeatError,
    "GameOverError": search_errors.GameOverError,
    "ChanceStepError": search_errors.ChanceStepError,
    "NotSeatToMoveError": search_errors.NotSeatToMoveError,
}


def test_the_hierarchy_is_exported() -> None:
    assert issubclass(native.NativeError, ValueError)
    assert issubclass(native.EngineError, native.NativeError)
    assert issubclass(native.SearchError, native.NativeError)
    for name, (base, _) in ENGINE_KINDS.items():
        assert issubclass(getattr(native, name), getattr(native, base)), name
    for name in SEARCH_KINDS:
        assert issubclass(getattr(native, name), native.SearchError), name
    # The Python side maps every one of them.
    mapped = {name for name, _ in ENGINE_ERRORS} | {name for name, _ in SEARCH_ERRORS}
    assert mapped == {*ENGINE_KINDS, *SEARCH_KINDS, "SearchError"}


def _decision(game: Game, seed: int) -> Any:
    """A Python state at a decision, some moves into a seeded game."""
    rng = random.Random(seed)
    state = game.new_state({}, seed)
    for _ in range(12):
        while game.current_player(state) < 0 and not game.is_terminal(state):
            state = game.apply(state, game.sample_chance(state, rng))
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    while game.current_player(state) < 0 and not game.is_terminal(state):
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def _terminal(game: Game, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_state({}, seed)
    while not game.is_terminal(state):
        if game.current_player(state) < 0:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    return state


def _to_native(name: str, game: Game, state: Any) -> Any:
    return getattr(native, GAMES[name][1])().state_from_json(json.dumps(game.state_to_json(state)))


def _illegal_notation(game: Game, state: Any) -> str:
    """A notation the Python engine reads as well formed but not legal in `state`."""
    seen: list[str] = []
    for seed in range(20):
        other = _decision(game, 100 + seed)
        if not game.is_terminal(other):
            seen += [game.action_to_str(other, a) for a in game.legal_actions(other)]
    for text in seen:
        try:
            game.action_from_str(state, text)
        except engine_errors.IllegalActionError:
            return text
        except engine_errors.InvalidActionError:
            continue
    raise AssertionError("no illegal notation found")


def _cases(name: str) -> list[tuple[str, Any, Any]]:
    """(native type, a call of the Python engine, the same call of the binding) per kind."""
    game, cls = GAMES[name]
    twin = getattr(native, cls)()
    state = _decision(game, 3)
    bad_state = game.state_to_json(state)
    bad_state["players"] = "none"
    over = _terminal(game, 5)
    illegal = _illegal_notation(game, state)
    return [
        (
            "InvalidStateError",
            lambda: game.state_from_json(bad_state),
            lambda: twin.state_from_json(json.dumps(bad_state)),
        ),
        (
            "InvalidOptionsError",
            lambda: game.new_state({"players": 9}, 0),
            lambda: twin.new_state(json.dumps({"players": 9}), 0),
        ),
        (
            "InvalidActionError",
            lambda: game.action_from_str(state, "zzz"),
            lambda: _to_native(name, game, state).action_from_str("zzz"),
        ),
        (
            "IllegalActionError",
            lambda: game.action_from_str(state, illegal),
            lambda: _to_native(name, game, state).action_from_str(illegal),
        ),
        (
            "IllegalActionError",
            lambda: game.action_from_str(over, illegal),
            lambda: _to_native(name, game, over).action_from_str(illegal),
        ),
    ]


def _raised(call: Any) -> BaseException:
    try:
        call()
    except Exception as err:
        return err
    raise AssertionError("the call was accepted")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_engine_errors_map_to_the_python_engines(name: str) -> None:
    for kind, python_call, native_call in _cases(name):
        expected = _raised(python_call)
        err = _raised(native_call)
        assert type(err) is getattr(native, kind), (kind, err)
        assert isinstance(err, native.EngineError)
        assert str(err) == f"{err.path}: {err.reason}"
        mapped = engine_error(err)
        assert type(mapped) is type(expected), (kind, err, expected)
        assert isinstance(expected, engine_errors.EngineError)
        assert (mapped.path, mapped.reason, str(mapped)) == (
            expected.path,
            expected.reason,
            str(expected),
        ), kind


def _search_cases(name: str) -> list[tuple[str, Any, int, SearchConfig]]:
    """(native type, a Python state, seat, config) per search refusal."""
    game, _ = GAMES[name]
    state = _decision(game, 3)
    mover = game.current_player(state)
    other = 1 - mover if game.num_players(state) == 2 else (mover + 1) % game.num_players(state)
    chance = game.new_state({}, 0)
    while game.current_player(chance) >= 0 and not game.is_terminal(chance):
        chance = game.apply(chance, game.legal_actions(chance)[0])
    assert game.current_player(chance) < 0 and not game.is_terminal(chance)
    fine = SearchConfig(iterations=10)
    return [
        ("InvalidConfigError", state, mover, SearchConfig(iterations=0)),
        ("InvalidSeatError", state, 7, fine),
        ("GameOverError", _terminal(game, 5), 0, fine),
        ("ChanceStepError", chance, 0, fine),
        ("NotSeatToMoveError", state, other, fine),
    ]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_search_errors_map_to_the_python_searchs(name: str) -> None:
    game, _ = GAMES[name]
    for kind, state, seat, config in _search_cases(name):
        expected = _raised(lambda: check_request(game, state, seat, config))  # noqa: B023
        native_state = _to_native(name, game, state)
        err = _raised(lambda: native.search(native_state, seat, native_config(config)))  # noqa: B023
        assert type(err) is getattr(native, kind), (kind, err)
        mapped = python_error(err)
        assert type(mapped) is type(expected) is SEARCH_KINDS[kind], (kind, err, expected)
        assert str(mapped) == str(err)  # the native message, carried over as it is


def test_a_non_native_error_maps_to_nothing() -> None:
    assert python_error(ValueError("$: the game is over")) is None
    with pytest.raises(TypeError):
        engine_error(native.InvalidConfigError("iterations must be at least 1, got 0"))


def _python_sources() -> list[Path]:
    skip = {".venv", "target", "node_modules", ".git"}
    return [
        path for path in REPO.rglob("*.py") if not skip.intersection(path.relative_to(REPO).parts)
    ]


def test_no_module_sorts_native_errors_by_their_text() -> None:
    """Structural: a module that touches the binding (or its errors) imports no regular
    expressions and splits no message into path and reason; the binding's errors are told
    apart by type, their fields read from attributes."""
    markers = ("boardbot_native", "native_module(", "native_errors", "native_twin(")
    offenders = []
    for path in _python_sources():
        text = path.read_text(encoding="utf-8")
        if not any(marker in text for marker in markers):
            continue
        for node in ast.walk(ast.parse(text)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if {"re", "regex"}.intersection(names):
                offenders.append(f"{path.relative_to(REPO)}: imports {names}")
            if isinstance(node, ast.FunctionDef) and node.name == "split_message":
                offenders.append(f"{path.relative_to(REPO)}: defines split_message")
    assert offenders == []
