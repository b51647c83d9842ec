"""The Game protocol every rules engine implements (modelled on OpenSpiel, immutable states)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

CHANCE = -1
"""`current_player` value at a chance step: call `sample_chance` / `chance_outcomes`."""

TERMINAL = -2
"""`current_player` value once the game is over."""

State = Any
"""An immutable game state; each game defines its own frozen type."""

Action = Hashable
"""A small hashable value (an int or a tuple of ints/strs); each game defines its own."""

JsonDict = dict[str, Any]


@runtime_checkable
class Game(Protocol):
    """A stateless rules object. Every method is pure: states are never mutated."""

    name: str
    min_players: int
    max_players: int

    def describe_options(self) -> JsonDict:
        """Option names with their allowed values and defaults, for ListGames."""
        ...

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """A fresh game set up from `options`; every random setup choice derives from `seed`."""
        ...

    def num_players(self, state: State) -> int:
        """Number of seats in this game."""
        ...

    def current_player(self, state: State) -> int:
        """The seat to decide, CHANCE at a chance step, TERMINAL when the game is over."""
        ...

    def legal_actions(self, state: State) -> Sequence[Action]:
        """The legal decisions of the seat to move (empty at chance and terminal states)."""
        ...

    def apply(self, state: State, action: Action) -> State:
        """The state after `action` (a decision or a chance outcome); never draws randomness."""
        ...

    def is_terminal(self, state: State) -> bool:
        """True once the game is over."""
        ...

    def returns(self, state: State) -> tuple[float, ...]:
        """Per-seat outcome at a terminal state: 1.0 for the winner, 0.0 for the others."""
        ...

    def scores(self, state: State) -> tuple[float, ...]:
        """Per-seat points as the game counts them (final at a terminal state)."""
        ...

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, float]] | None:
        """All outcomes with probabilities, or None when there are too many to list."""
        ...

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """One chance outcome drawn with `rng` at a chance step."""
        ...

    def determinize(self, state: State, observer: int, rng: random.Random) -> State:
        """A full world consistent with all `observer` knows; everything else resampled."""
        ...

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Heuristic per-seat value in [0, 1] of a non-terminal state (leaf evaluation)."""
        ...

    def policy_weights(self, state: State, actions: Sequence[Action]) -> Sequence[float]:
        """Positive heuristic weights for `actions` (the game's rollout policy)."""
        ...

    def state_to_json(self, state: State, observer: int | None = None) -> JsonDict:
        """The documented JSON form; with `observer`, hidden parts appear only as counts."""
        ...

    def state_from_json(self, data: Any) -> State:
        """Decode and fully validate; raises InvalidStateError naming the JSON path."""
        ...

    def action_to_json(self, state: State, action: Action) -> JsonDict:
        """The readable JSON object of `action` in `state`."""
        ...

    def action_from_json(self, state: State, data: Any) -> Action:
        """Parse a JSON action and check it is legal in `state`."""
        ...

    def action_to_str(self, state: State, action: Action) -> str:
        """The short string form of `action` (e.g. `zone:row2`)."""
        ...

    def action_from_str(self, state: State, text: str) -> Action:
        """Parse the short string form and check it is legal in `state`."""
        ...

    def render(self, state: State, observer: int | None = None) -> str:
        """A readable multi-line text picture of the state for terminals and logs."""
        ...
