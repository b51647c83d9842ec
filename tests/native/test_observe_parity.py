"""The native `observe` (a seat's view, computed without JSON) against the Python engine's view.

Random Legend Raiders states (2, 3, 4 players x dice, diceless; Python playouts, decoded by the
native engine) are compared through JSON: the native view of every seat writes the Python
engine's JSON view, and its state is the state the Python engine decodes that view to, which is
also the state of the Python engine's own view (`observe`).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

GAMES_PER_CONFIG = 3
EVERY_STEP = 7  # compare the views of every seat at every 7th step (and at the end)


def playout_states(py_game: LegendRaidersGame, seed: int) -> list[Any]:
    """States of seeded random Python games (every configuration), the last of each included."""
    rng = random.Random(seed)
    states: list[Any] = []
    for players, variant in parity.CONFIGS:
        for _ in range(GAMES_PER_CONFIG):
            options = parity.random_options(rng, players, variant)
            state = py_game.new_state(options, rng.getrandbits(32))
            step = 0
            while True:
                player = py_game.current_player(state)
                if step % EVERY_STEP == 0 or player == -2:
                    states.append(state)
                if player == -2:
                    break
                if player == -1:
                    action = py_game.sample_chance(state, rng)
                else:
                    action = rng.choice(list(py_game.legal_actions(state)))
                state = py_game.apply(state, action)
                step += 1
    return states


def test_native_views_equal_the_python_views() -> None:
    native_module = parity.boardbot_native
    assert native_module is not None
    native = native_module.LegendRaiders()
    py_game = LegendRaidersGame()
    states = playout_states(py_game, seed=20261201)
    compared = 0
    for index, ps in enumerate(states):
        ns = native.state_from_json(json.dumps(py_game.state_to_json(ps)))
        for seat in range(py_game.num_players(ps)):
            where = f"state {index}, seat {seat}"
            view = ns.observe(seat)
            py_view = py_game.state_to_json(ps, seat)
            # The seat's JSON view, from the native view's state as from the true state.
            assert json.loads(view.to_json(seat)) == py_view, where
            assert json.loads(ns.to_json(seat)) == py_view, where
            # The view's state is the state the Python engine decodes the view to.
            decoded = py_game.state_to_json(py_game.state_from_json(py_view))
            assert json.loads(view.to_json()) == decoded, where
            py_state = py_game.observe(ps, seat).state
            assert json.loads(view.to_json()) == py_game.state_to_json(py_state), where
            # Observing the view again changes nothing; a world of the view has the view.
            assert view.observe(seat) == view, where
            world = ns.determinize(seat, index * 7 + seat)
            assert world.observe(seat) == view, where
            compared += 1
    print(f"{compared} views compared")
    assert compared > 2_000, compared


def test_views_of_worlds_the_seat_cannot_tell_apart_are_equal() -> None:
    native_module = parity.boardbot_native
    assert native_module is not None
    native = native_module.LegendRaiders()
    py_game = LegendRaidersGame()
    rng = random.Random(7)
    differed = 0
    for index, ps in enumerate(playout_states(py_game, seed=99)[::2]):
        n = py_game.num_players(ps)
        seat = rng.randrange(n)
        ns = native.state_from_json(json.dumps(py_game.state_to_json(ps)))
        # A Python determinization: a world `seat` cannot tell from the truth.
        world_json = py_game.state_to_json(_python_world(py_game, ps, seat, rng))
        world = native.state_from_json(json.dumps(world_json))
        assert world.observe(seat) == ns.observe(seat), f"state {index}"
        assert world.observe(seat).to_json() == ns.observe(seat).to_json()
        if world != ns:
            differed += 1
    assert differed > 20, differed


def test_observe_refuses_a_seat_out_of_range() -> None:
    native_module = parity.boardbot_native
    assert native_module is not None
    state = native_module.LegendRaiders().new_state('{"players": 3}', 1)
    for seat in (-1, 3, 2**40):
        with pytest.raises(ValueError, match="seat"):
            state.observe(seat)


def _python_world(py_game: LegendRaidersGame, ps: Any, seat: int, rng: random.Random) -> Any:
    """A Python determinization of `seat`'s view."""
    return py_game.determinize(py_game.observe(ps, seat), rng)
