"""A Game proxy that times every engine call the search makes (benchmarks only)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from boardbot.engine.api import Action, Game, State, View


class TimedGame:
    """Forwards to `game`, adding the time spent inside engine calls to `engine_seconds`."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.name = game.name
        self.min_players = game.min_players
        self.max_players = game.max_players
        self.engine_seconds = 0.0
        self.calls = 0

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.game, attr)

    def _timed(self, start: float) -> None:
        self.engine_seconds += time.perf_counter() - start
        self.calls += 1

    def current_player(self, state: State) -> int:
        """Timed `current_player`."""
        start = time.perf_counter()
        result = self.game.current_player(state)
        self._timed(start)
        return result

    def is_terminal(self, state: State) -> bool:
        """Timed `is_terminal`."""
        start = time.perf_counter()
        result = self.game.is_terminal(state)
        self._timed(start)
        return result

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Timed `legal_actions`."""
        start = time.perf_counter()
        result = self.game.legal_actions(state)
        self._timed(start)
        return result

    def apply(self, state: State, action: Action) -> State:
        """Timed `apply`."""
        start = time.perf_counter()
        result = self.game.apply(state, action)
        self._timed(start)
        return result

    def returns(self, state: State) -> tuple[float, ...]:
        """Timed `returns`."""
        start = time.perf_counter()
        result = self.game.returns(state)
        self._timed(start)
        return result

    def scores(self, state: State) -> tuple[float, ...]:
        """Timed `scores`."""
        start = time.perf_counter()
        result = self.game.scores(state)
        self._timed(start)
        return result

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Timed `sample_chance`."""
        start = time.perf_counter()
        result = self.game.sample_chance(state, rng)
        self._timed(start)
        return result

    def observe(self, state: State, seat: int) -> View:
        """Timed `observe`."""
        start = time.perf_counter()
        result = self.game.observe(state, seat)
        self._timed(start)
        return result

    def determinize(self, view: View, rng: random.Random) -> State:
        """Timed `determinize`."""
        start = time.perf_counter()
        result = self.game.determinize(view, rng)
        self._timed(start)
        return result

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Timed `evaluate`."""
        start = time.perf_counter()
        result = self.game.evaluate(state)
        self._timed(start)
        return result

    def policy_weights(self, state: State, actions: Sequence[Action]) -> Sequence[float]:
        """Timed `policy_weights`."""
        start = time.perf_counter()
        result = self.game.policy_weights(state, actions)
        self._timed(start)
        return result

    def action_to_str(self, state: State, action: Action) -> str:
        """Timed `action_to_str`."""
        start = time.perf_counter()
        result = self.game.action_to_str(state, action)
        self._timed(start)
        return result
