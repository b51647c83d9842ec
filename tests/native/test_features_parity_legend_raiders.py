"""The native Legend Raiders features equal the Python engine's, exactly (as f32), at every step
of seeded random games of 2, 3 and 4 players with the die and diceless; and a native world of a
seat's view gives the seat the features of the true state."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from boardbot.engine import CHANCE, TERMINAL
from boardbot.engine.legend_raiders import features as F
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

GAMES_PER_CONFIG = 2
EVERY_WORLD = 5
"""Native determinizations are checked at every 5th state."""


def _native() -> Any:
    native = parity.boardbot_native
    assert native is not None
    return native.LegendRaiders()


def _same(python: list[float], native: list[float]) -> bool:
    a = np.array(python, dtype=np.float32)
    b = np.array(native, dtype=np.float32)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def test_sizes_and_version_match() -> None:
    native = _native()
    py_game = LegendRaidersGame()
    for n in (2, 3, 4):
        assert native.feature_size(n) == py_game.feature_size(n) == F.feature_size(n)
    assert native.action_feature_size() == py_game.action_feature_size()
    assert native.features_version() == py_game.features_version == F.FEATURES_VERSION


@pytest.mark.parametrize(("players", "variant"), parity.CONFIGS)
def test_features_agree_at_every_step(players: int, variant: str) -> None:
    native = _native()
    py_game = LegendRaidersGame()
    size = py_game.action_feature_size()
    rng = random.Random(players * 100 + len(variant))
    compared = worlds = differed = 0
    for game in range(GAMES_PER_CONFIG):
        options = parity.random_options(rng, players, variant)
        ps = py_game.new_state(options, rng.getrandbits(32))
        ns = native.state_from_json(json.dumps(py_game.state_to_json(ps)))
        step = 0
        while True:
            where = f"game {game}, step {step}"
            for seat in range(players):
                truth = py_game.features(ps, seat)
                assert len(truth) == py_game.feature_size(players)
                assert _same(truth, ns.features(seat)), f"{where}, seat {seat}"
                compared += 1
                if step % EVERY_WORLD == 0:
                    one = ns.determinize(seat, rng.getrandbits(63))
                    two = ns.determinize(seat, rng.getrandbits(63))
                    assert _same(truth, one.features(seat)), f"{where}, seat {seat} world"
                    assert _same(truth, two.features(seat)), f"{where}, seat {seat} world"
                    worlds += 1
                    differed += one != two
            player = py_game.current_player(ps)
            if player == TERMINAL:
                break
            if player == CHANCE:
                for action, _ in py_game.chance_outcomes(ps):
                    indices = py_game.action_features(ps, action)
                    assert list(indices) == list(ns.action_features(action)), where
                action = py_game.sample_chance(ps, rng)
            else:
                legal = list(py_game.legal_actions(ps))
                for action in legal:
                    indices = py_game.action_features(ps, action)
                    assert list(indices) == list(ns.action_features(action)), where
                    assert all(0 <= i < size for i in indices), where
                    assert list(indices) == sorted(set(indices)), where
                action = rng.choice(legal)
            ps = py_game.apply(ps, action)
            ns = ns.apply(action)
            step += 1
        assert ns.is_terminal()
    assert compared > 500, compared
    assert worlds > 100 and differed > 5, (worlds, differed)
