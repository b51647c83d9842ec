"""The learned evaluation's features are the same in the Python engine and its native twin.

For every game and every setup (LEDA: each ordered clan pairing with either seat first; Legend
Raiders: 2, 3 and 4 players, with the die and diceless), seeded random games are stepped on both
engines side by side. At every step, the terminal state included, the features of every seat
must be equal exactly (the Python values cast to float32 against the native f32), and so must
the action-feature indices of every legal decision (and of the chance outcome drawn), each below
`action_feature_size()`; the sizes and the version must agree too.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boardbot.engine.api import Game
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

GAMES_PER_SETUP = 2
MAX_STEPS = 400
"""Steps compared per game at most (a LEDA game takes about 180, Legend Raiders fewer)."""


def games() -> list[Any]:
    """Each game's parameter: its name."""
    return [pytest.param(name, id=name) for name in parity.GAMES]


def engines(name: str) -> tuple[Game, Any]:
    """The Python game and its native twin."""
    native = parity.boardbot_native
    assert native is not None
    if name == "leda":
        return LedaGame(), native.Leda()
    return LegendRaidersGame(), native.LegendRaiders()


def setups(name: str, rng: random.Random) -> list[dict[str, Any]]:
    """The options of every setup of the game (random boards and seats where a game has them)."""
    if name == "leda":
        return [
            parity.leda_options(config)
            for config in parity.LEDA_CONFIGS
            for _ in range(GAMES_PER_SETUP)
        ]
    return [
        parity.random_options(rng, players, variant)
        for players, variant in parity.CONFIGS
        for _ in range(GAMES_PER_SETUP)
    ]


def chance_outcome(py_game: Game, ps: Any, rng: random.Random) -> Any:
    """A chance outcome drawn with the harness's generator (the engines' streams never matter)."""
    listed = py_game.chance_outcomes(ps)
    if listed is None:
        return py_game.sample_chance(ps, rng)
    outcomes = list(listed)
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


@pytest.mark.parametrize("name", games())
def test_sizes_and_version_agree(name: str) -> None:
    py_game, native = engines(name)
    assert py_game.features_version == native.features_version()
    for players in range(py_game.game_type.min_players, py_game.game_type.max_players + 1):
        assert py_game.feature_size(players) == native.feature_size(players)
    assert py_game.action_feature_size() == native.action_feature_size()


@pytest.mark.parametrize("name", games())
def test_features_agree_at_every_step_of_every_setup(name: str) -> None:
    py_game, native = engines(name)
    rng = random.Random(20261202)
    steps = compared = 0
    for index, options in enumerate(setups(name, rng)):
        ps = py_game.new_state(options, rng.getrandbits(32))
        ns = native.state_from_json(json.dumps(py_game.state_to_json(ps)))
        seats = range(py_game.num_players(ps))
        assert native.feature_size(len(seats)) == py_game.feature_size(len(seats))
        for step in range(MAX_STEPS + 1):
            player = py_game.current_player(ps)
            actions = list(py_game.legal_actions(ps)) if player >= 0 else []
            chance = chance_outcome(py_game, ps, rng) if player == -1 else None
            found = parity.features_difference(
                py_game, ps, ns, seats, actions + ([chance] if chance is not None else [])
            )
            where = f"setup {index} {options}, step {step}: "
            assert found is None, where + f"{found[0]}\n python: {found[1]}\n native: {found[2]}"
            compared += len(seats)
            if player == -2 or step == MAX_STEPS:
                break
            action = chance if player == -1 else rng.choice(actions)
            ps = py_game.apply(ps, action)
            ns = ns.apply(action)
            steps += 1
    print(f"{name}: {steps} steps, {compared} seat views compared")
    assert steps > 1_000
