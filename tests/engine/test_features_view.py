"""The learned evaluation's features read only what a seat may know, on every game and engine.

For every setup of every game (LEDA: each ordered clan pairing with either seat first; Legend
Raiders: 2, 3 and 4 players, with the die and diceless), at many states of seeded random games
and for every seat: the features of the true state, of the seat's view and of two
determinizations of that view (different generators) are identical, and so are the action
features of the seat's legal decisions. On the Python engine and on the native one (through
`NativeGame`, the adapter that serves requests) where it is built.

The vectors must also follow what the seat sees: along a game they change (a constant vector
would pass the first test).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.engine.api import Game
from tests.native import parity
from tests.native.native_game import ENGINE_PARAMS, native_game

EVERY_STEP = 5
"""States compared: every 5th step of each game, and its last."""
MAX_STEPS = 250


def game_of(name: str, engine: str) -> Game:
    """The game on that engine."""
    return native_game(name) if engine == "native" else get_game(name)


def setups(name: str, rng: random.Random) -> list[dict[str, Any]]:
    """The options of every setup of the game."""
    if name == "leda":
        return [parity.leda_options(config) for config in parity.LEDA_CONFIGS]
    return [
        parity.random_options(rng, players, variant)
        for players, variant in parity.CONFIGS
        for _ in range(2)
    ]


def sampled_states(game: Game, options: dict[str, Any], rng: random.Random) -> list[Any]:
    """Every `EVERY_STEP`-th state of a seeded random game, its last included."""
    state = game.new_state(options, rng.getrandbits(32))
    states = []
    for step in range(MAX_STEPS + 1):
        player = game.current_player(state)
        if step % EVERY_STEP == 0 or player == -2:
            states.append(state)
        if player == -2:
            break
        if player == -1:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state = game.apply(state, action)
    return states


NAMES = [pytest.param(name, id=name) for name in parity.GAMES]


@pytest.fixture(params=ENGINE_PARAMS)
def engine(request: pytest.FixtureRequest) -> str:
    """The engine under test: Python, and native where it is built."""
    return str(request.param)


@pytest.mark.parametrize("name", NAMES)
def test_worlds_of_one_view_have_the_same_features(name: str, engine: str) -> None:
    game = game_of(name, engine)
    rng = random.Random(20261202)
    views = decisions = 0
    for index, options in enumerate(setups(name, rng)):
        for state in sampled_states(game, options, rng):
            player = game.current_player(state)
            actions = list(game.legal_actions(state)) if player >= 0 else []
            for seat in range(game.num_players(state)):
                view = game.observe(state, seat)
                first = game.determinize(view, random.Random(rng.getrandbits(32)))
                second = game.determinize(view, random.Random(rng.getrandbits(32)))
                where = f"setup {index} {options}, seat {seat}"
                expected = list(game.features(state, seat))
                assert len(expected) == game.feature_size(game.num_players(state)), where
                for other, what in ((view.state, "view"), (first, "world 1"), (second, "world 2")):
                    assert list(game.features(other, seat)) == expected, f"{where}: {what}"
                views += 1
                if seat != player:
                    continue
                for action in actions:
                    indices = tuple(game.action_features(state, action))
                    for other in (first, second):
                        assert tuple(game.action_features(other, action)) == indices, (
                            f"{where}: {action!r}"
                        )
                decisions += 1
    assert views > 500 and decisions > 200, (views, decisions)


@pytest.mark.parametrize("name", NAMES)
def test_features_follow_the_game(name: str, engine: str) -> None:
    game = game_of(name, engine)
    rng = random.Random(7)
    options = setups(name, rng)[0]
    states = sampled_states(game, options, rng)
    if game.feature_size(game.num_players(states[0])) == 0:
        pytest.skip(f"{name}'s feature definition is still empty")
    for seat in range(game.num_players(states[0])):
        vectors = [tuple(game.features(state, seat)) for state in states]
        distinct = len(set(vectors))
        # A few neighbours may look alike (a step that changes nothing the seat sees).
        assert distinct >= 0.8 * len(vectors), (seat, distinct, len(vectors))
        # ... and the two seats see the same state differently (blocks are rotated).
        if seat:
            assert vectors != [tuple(game.features(state, 0)) for state in states]
