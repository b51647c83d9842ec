"""Real-game positions for search tests: seeded mid-game decisions."""

from __future__ import annotations

import random
from typing import Any

from boardbot.engine import CHANCE, Game, State, get_game


def mid_game_decision(name: str, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A state after `steps` seeded random steps, advanced to a decision with 2+ moves."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    for _ in range(steps):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    while game.current_player(state) == CHANCE or len(game.legal_actions(state)) < 2:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, game.legal_actions(state)[0])
    assert not game.is_terminal(state)
    return state


def twin_world(game: Game, state: State, seat: int) -> State:
    """Another world of `seat`'s information set (other hidden hands, deck and pile orders)."""
    view = game.observe(state, seat)
    return next(
        world
        for world in (game.determinize(view, random.Random(k)) for k in range(50))
        if world != state
    )


def forced_decision(name: str, options: dict[str, Any], seed: int) -> Any:
    """The first decision with exactly one legal move of a seeded random game."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return state
        state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError(f"no forced decision in {name} game {seed}")
