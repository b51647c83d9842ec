"""Game positions the service tests send: decision points, ends, and hidden information."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from boardbot.engine import CHANCE, Game, State, get_game
from boardbot.jobs import game_ops

GAME_CASES: list[tuple[str, dict[str, Any]]] = [
    ("leda", {}),
    ("legend_raiders", {"players": 2}),
    ("legend_raiders", {"players": 4}),
]
"""Every real game (and player count) the RPC tests cover."""

GAME_IDS = ["leda", "legend_raiders-2p", "legend_raiders-4p"]


def load(name: str) -> Game:
    """The registered game `name`."""
    return get_game(name)


def decision_state(game: Game, options: Mapping[str, Any], seed: int, plies: int = 6) -> State:
    """A seeded state `plies` random decisions in, where a seat has at least two moves."""
    rng = random.Random(seed)
    state, _ = game_ops.resolve_chance(game, game.new_state(options, seed), rng)
    best = state
    for _ in range(plies):
        actions = game.legal_actions(state)
        if len(actions) >= 2:
            best = state
        next_state, _ = game_ops.resolve_chance(
            game, game.apply(state, actions[rng.randrange(len(actions))]), rng
        )
        if game.is_terminal(next_state):
            break
        state = next_state
    if len(game.legal_actions(state)) >= 2:
        best = state
    assert game.current_player(best) >= 0 and game.current_player(best) != CHANCE
    return best


def terminal_state(game: Game, options: Mapping[str, Any], seed: int) -> State:
    """A seeded random game played to its end."""
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    for _ in range(100_000):
        if game.is_terminal(state):
            return state
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError("random game did not end")


def _other_world(game: Game, state: State, seat: int) -> State | None:
    """A state the seat cannot tell apart from `state`, but with different hidden parts."""
    full = game_ops.encode_state(game, state)
    view = game_ops.encode_state(game, state, observer=seat)
    for k in range(20):
        world = game.determinize(game.observe(state, seat), random.Random(1000 + k))
        if game_ops.encode_state(game, world) != full:
            assert game_ops.encode_state(game, world, observer=seat) == view
            return world
    return None


def hidden_pair(game: Game, options: dict[str, Any], seed: int) -> tuple[State, State, int]:
    """A decision state with hidden opponent information, and a consistent alternative."""
    rng = random.Random(seed)
    state, _ = game_ops.resolve_chance(game, game.new_state(options, seed), rng)
    for _ in range(400):
        if game.is_terminal(state):
            break
        seat = game.current_player(state)
        if len(game.legal_actions(state)) >= 2:
            other = _other_world(game, state, seat)
            if other is not None:
                return state, other, seat
        actions = game.legal_actions(state)
        state, _ = game_ops.resolve_chance(
            game, game.apply(state, actions[rng.randrange(len(actions))]), rng
        )
    raise AssertionError("no state with hidden opponent information found")
