"""Decoding never fails with anything but InvalidStateError, whatever it is sent; the native
engine accepts and refuses exactly what the Python engine does, for the same path and reason."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

from boardbot.engine import InvalidStateError, get_game
from tests.engine.conformance import random_trajectory
from tests.engine.leda.builders import Engine

GAME = get_game("leda")
_VALUES: list[Any] = [
    None, True, -1, 0, 1, 3, 15, 16, 99, 1 << 40, 2.5, "", "r1c1", "mv-1", "cat-1", "shark-3",
    "front", "row1", "activate", [], [0], ["cat-1"], {}, {"count": 3}, {"count": -1, "known": 4},
]  # fmt: skip


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: Any, rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    path = rng.choice(_paths(data)[1:])
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(_VALUES)
    return data


def _decoded(game: Any, data: Any) -> Any:
    """The state's JSON after decoding `data`, or the error's (path, reason)."""
    try:
        return game.state_to_json(game.state_from_json(data))
    except InvalidStateError as err:
        return (err.path, err.reason)


def test_mutated_states_and_views_raise_only_invalid_state_errors(engine: Engine) -> None:
    rng = random.Random(5)
    samples = []
    for g, state in enumerate(random_trajectory(GAME, {"clans": ["cats", "scorpions"]}, 3, 400)):
        if g % 40 == 0:
            samples.append(GAME.state_to_json(state))
            samples.append(GAME.state_to_json(state, g % 2))
    assert len(samples) >= 6
    for data in samples:
        for _ in range(150):
            bad = _mutate(data, rng)
            if engine.native:
                assert _decoded(engine.game, bad) == _decoded(GAME, bad), bad
            else:
                with contextlib.suppress(InvalidStateError):
                    GAME.state_from_json(bad)
