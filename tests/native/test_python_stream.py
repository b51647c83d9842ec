"""The native core on CPython's stream: `PythonRandom` is `random.Random`, `new_state(...,
python_stream=True)` is the Python engine's `new_state(options, seed)` byte for byte, and
`State.sample_chance_from` draws every chance outcome as the Python engine's `sample_chance`
does, over whole games on one pair of generators."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from boardbot.engine.api import CHANCE
from boardbot.engine.leda.data import CLAN_NAMES
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.components import COMPONENTS
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)

EDGE_SEEDS = [0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1]
"""Seeds at the word boundaries of CPython's int seeding (the proto's seeds are uint64)."""


def _seeds(seed: int, n: int) -> list[int]:
    """`n` seeded seeds in 0..2**64."""
    pick = random.Random(seed)
    return [pick.getrandbits(pick.choice((8, 32, 40, 64))) for _ in range(n)]


SETUP_SEEDS = EDGE_SEEDS + _seeds(20260513, 191)
"""200 seeds for the setups."""

BOARD_NAMES = [names[0] for names in COMPONENTS.board_names]


def _mixed_draws(seed: int, draws: int) -> Iterator[tuple[str, int]]:
    """A seeded sequence of calls: (`random`, 0), (`getrandbits`, k) or (`randrange`, n)."""
    plan = random.Random(seed ^ 0x5EED)
    for _ in range(draws):
        kind = plan.choice(("random", "getrandbits", "randrange"))
        if kind == "random":
            yield kind, 0
        elif kind == "getrandbits":
            yield kind, plan.choice((0, 1, 7, 31, 32, 33, 53, 63, 64, 65, 96, 128, 200))
        else:
            bits = plan.choice((1, 2, 3, 5, 8, 31, 32, 33, 64, 65, 100))
            yield kind, plan.randrange(1, 2**bits + 1)


@pytest.mark.parametrize(
    "seed", [*EDGE_SEEDS, -1, -(2**63), 10**30, *_seeds(7, 20)]
)
def test_python_random_is_random_random(seed: int) -> None:
    python, native = random.Random(seed), boardbot_native.PythonRandom(seed)
    for kind, arg in _mixed_draws(seed, 3000):
        if kind == "random":
            assert native.random() == python.random()
        elif kind == "getrandbits":
            assert native.getrandbits(arg) == python.getrandbits(arg), (kind, arg)
        else:
            assert native.randrange(arg) == python.randrange(arg), (kind, arg)


def test_python_random_refuses_what_random_random_refuses() -> None:
    native = boardbot_native.PythonRandom(3)
    for n in (0, -5):
        with pytest.raises(ValueError, match="empty range"):
            native.randrange(n)
    with pytest.raises(ValueError, match="non-negative"):
        native.getrandbits(-1)
    with pytest.raises(TypeError):
        boardbot_native.PythonRandom(1.5)
    python = random.Random(3)
    assert native.random() == python.random()  # the refusals drew nothing


def _python_json(game: Any, state: Any) -> str:
    return orjson.dumps(game.state_to_json(state)).decode()


def _assert_same_setups(
    py_game: Any, native_game: Any, options_for: Callable[[int], list[dict[str, Any]]]
) -> int:
    """Compare every seed's setups; the number compared."""
    compared = 0
    for seed in SETUP_SEEDS:
        for options in options_for(seed):
            expected = _python_json(py_game, py_game.new_state(options, seed))
            native = native_game.new_state(json.dumps(options), seed, python_stream=True)
            assert native.to_json() == expected, (options, seed)
            compared += 1
    return compared


def test_legend_raiders_setups_are_the_python_engines() -> None:
    def options_for(seed: int) -> list[dict[str, Any]]:
        pick = random.Random(seed)
        out: list[dict[str, Any]] = []
        for players in (2, 3, 4):
            boards = pick.sample(range(1, 5), players)
            given = [b if pick.random() < 0.5 else BOARD_NAMES[b - 1] for b in boards]
            variant = pick.choice(("dice", "diceless"))
            first = pick.randrange(players)
            out += [
                {"players": players, "variant": variant},
                {"players": players, "characters": given},
                {"players": players, "first_player": first, "variant": variant},
                {"players": players, "characters": given, "first_player": first},
            ]
        return out

    native = boardbot_native.LegendRaiders()
    compared = _assert_same_setups(LegendRaidersGame(), native, options_for)
    assert compared == len(SETUP_SEEDS) * 12
    # The defaults: two players, the die, boards and first player drawn.
    assert (
        boardbot_native.LegendRaiders().new_state(seed=9, python_stream=True).to_json()
        == _python_json(LegendRaidersGame(), LegendRaidersGame().new_state(None, 9))
    )


def test_leda_setups_are_the_python_engines() -> None:
    pairs = [[a, b] for a in CLAN_NAMES for b in CLAN_NAMES if a != b]

    def options_for(seed: int) -> list[dict[str, Any]]:
        pick = random.Random(seed)
        clans = pick.choice(pairs)
        first = pick.randrange(2)
        return [
            {},
            {"first_player": first},
            {"clans": clans, "players": 2},
            {"clans": clans, "first_player": first},
        ]

    compared = _assert_same_setups(LedaGame(), boardbot_native.Leda(), options_for)
    assert compared == len(SETUP_SEEDS) * 4
    # Every ordered pairing with either seat first, and drawn.
    every = [{"clans": c, "first_player": f} for c in pairs for f in (None, 0, 1)]
    for seed in EDGE_SEEDS:
        for options in every:
            expected = _python_json(LedaGame(), LedaGame().new_state(options, seed))
            native = boardbot_native.Leda().new_state(json.dumps(options), seed, python_stream=True)
            assert native.to_json() == expected, (options, seed)


@pytest.mark.parametrize(
    ("native_class", "options"),
    [
        ("LegendRaiders", {"players": 5}),
        ("LegendRaiders", {"characters": [2, 2]}),
        ("LegendRaiders", {"characters": ["nobody", 1]}),
        ("Leda", {"clans": ["cats", "cats"]}),
        ("Leda", {"players": 3}),
        ("Leda", {"colour": "red"}),
    ],
)
def test_bad_options_fail_alike_on_either_stream(native_class: str, options: Any) -> None:
    game = getattr(boardbot_native, native_class)()
    errors = []
    for python_stream in (False, True):
        with pytest.raises(boardbot_native.InvalidOptionsError) as caught:
            game.new_state(json.dumps(options), 4, python_stream=python_stream)
        errors.append((caught.value.path, caught.value.reason))
    assert errors[0] == errors[1]


def _play_alongside(py_game: Any, native_game: Any, options: dict[str, Any], seed: int) -> int:
    """One whole Python game from `new_state(options, seed)`, chance drawn by the Python engine
    from a `random.Random` and, from the same state handed over as JSON, by the native core from
    a `PythonRandom` seeded alike; the number of chance steps compared."""
    state = py_game.new_state(options, seed)
    moves = random.Random(seed + 1)
    python_rng = random.Random(seed * 7 + 3)
    native_rng = boardbot_native.PythonRandom(seed * 7 + 3)
    chance_steps = 0
    for step in range(MAX_STEPS):
        if py_game.is_terminal(state):
            break
        if py_game.current_player(state) == CHANCE:
            native_state = native_game.state_from_json(_python_json(py_game, state))
            outcome = py_game.sample_chance(state, python_rng)
            assert native_state.sample_chance_from(native_rng) == outcome, (seed, step)
            chance_steps += 1
        else:
            outcome = moves.choice(py_game.legal_actions(state))
            if step % 17 == 0:  # at a decision: None, and no draw
                decided = native_game.state_from_json(_python_json(py_game, state))
                assert decided.sample_chance_from(native_rng) is None
        state = py_game.apply(state, outcome)
    assert py_game.is_terminal(state)
    assert native_rng.random() == python_rng.random()  # still aligned
    return chance_steps


MAX_STEPS = 10_000
"""A bound no game reaches."""


def test_legend_raiders_chance_draws_are_the_python_engines() -> None:
    chance_steps = 0
    for game_seed in range(24):
        options = {"players": 2 + game_seed % 3, "variant": ("dice", "diceless")[game_seed % 2]}
        chance_steps += _play_alongside(
            LegendRaidersGame(), boardbot_native.LegendRaiders(), options, game_seed
        )
    assert chance_steps > 3_000


def test_leda_shuffles_are_the_python_engines() -> None:
    chance_steps = 0
    for game_seed in range(30):
        chance_steps += _play_alongside(LedaGame(), boardbot_native.Leda(), {}, game_seed)
    assert chance_steps > 100
