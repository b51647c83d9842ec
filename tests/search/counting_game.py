"""LEDA that counts the notation and JSON it writes, and a position with many moves."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from boardbot.engine.api import CHANCE, Action, JsonDict, State
from boardbot.engine.leda.game import GAME_TYPE, LedaGame


class CountingLeda(LedaGame):
    """LEDA counting `action_to_str` and `action_to_json` calls (class-wide; call `reset`).

    Its own GameType declares no native twin, which keeps it off the native core, so the counts
    are the Python search's."""

    game_type = dataclasses.replace(GAME_TYPE, name="counting_leda", native_twin=None)
    notation_calls = 0
    json_calls = 0

    @classmethod
    def reset(cls) -> None:
        """Zero both counters."""
        cls.notation_calls = 0
        cls.json_calls = 0

    def action_to_str(self, state: State, action: Action) -> str:
        """The notation, counted."""
        type(self).notation_calls += 1
        return super().action_to_str(state, action)

    def action_to_json(self, state: State, action: Action) -> JsonDict:
        """The JSON form, counted."""
        type(self).json_calls += 1
        return super().action_to_json(state, action)


def busy_position(game: Any, seed: int, min_moves: int = 12) -> State:
    """A seeded LEDA position where the seat to move has at least `min_moves` moves."""
    rng = random.Random(seed)
    state = game.new_state({}, seed)
    for _ in range(10_000):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        actions = game.legal_actions(state)
        if len(actions) >= min_moves:
            return state
        state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError(f"no position with {min_moves} moves in a seeded game")
