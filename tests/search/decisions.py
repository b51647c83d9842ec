"""Positions for the tests of the search with a model: a state some random moves into a game,
with a seat to move that has several moves."""

from __future__ import annotations

import random
from typing import Any

from boardbot.engine.registry import get_game


def decision(name: str, options: dict[str, Any], seed: int, moves: int = 6) -> tuple[Any, Any]:
    """A game and a state some random moves in, with a seat to move that has several moves."""
    game = get_game(name)
    state = game.new_state(options, seed)
    rng = random.Random(seed)
    played = 0
    while True:
        player = game.current_player(state)
        if player == -1:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        actions = game.legal_actions(state)
        if played >= moves and len(actions) > 2:
            return game, state
        state = game.apply(state, rng.choice(actions))
        played += 1
