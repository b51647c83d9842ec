"""The Game protocol by role (modelled on OpenSpiel, immutable states) and a seat's View.

A game is one object with four roles: `Rules` (all the search needs to play), `Knowledge` (what
one seat sees, and worlds consistent with it), `Codec` (JSON, notation, text) and `Heuristics`
(evaluation, rollout weights, tuned presets). It declares its `GameType`; `BaseGame` in
`engine/base.py` supplies the defaults, so a game writes only what it has.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from boardbot.engine.game_type import GameType

CHANCE = -1
"""`current_player` value at a chance step: call `sample_chance` / `chance_outcomes`."""

TERMINAL = -2
"""`current_player` value once the game is over."""

State = Any
"""An immutable game state; each game defines its own frozen type."""

Action = Hashable
"""A small hashable value (an int or a tuple of ints/strs); each game defines its own."""

JsonDict = dict[str, Any]

PresetOverrides = Mapping[str, Mapping[str, Any]]
"""Preset name -> the search configuration fields a game tunes ({"expert": {"iterations": 1}})."""


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows: a game state with every part hidden from `seat` made canonical.

    Two worlds the seat cannot tell apart have equal views; `state` is itself a playable state
    (the same the seat's JSON view decodes to), so the seat's legal moves are read from it.
    """

    seat: int
    state: State


class Rules(Protocol):
    """What the search needs to play: setup, moves, outcomes and chance steps."""

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


class Knowledge(Protocol):
    """What a seat sees, and full worlds consistent with it."""

    def observe(self, state: State, seat: int) -> View:
        """`seat`'s view of `state`: everything hidden from it erased to a canonical form."""
        ...

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full world the view's seat cannot tell from the truth, the hidden parts sampled."""
        ...


class Codec(Protocol):
    """The JSON forms, the short notation and the text picture."""

    def describe_options(self) -> JsonDict:
        """Option names with their allowed values and defaults, for ListGames."""
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

    def chance_form(self, state: State) -> str:
        """How to write an outcome of the pending chance step when `chance_outcomes` cannot list
        them (e.g. a shuffle's order), for a client that gives the outcome itself."""
        ...

    def render(self, state: State, observer: int | None = None) -> str:
        """A readable multi-line text picture of the state for terminals and logs."""
        ...


class Heuristics(Protocol):
    """The game's own knowledge of good play, for rollouts, cut-offs and presets."""

    @property
    def preset_overrides(self) -> PresetOverrides:
        """Search presets as the game tuned them: preset name -> fields it changes."""
        ...

    def evaluate(self, state: State) -> tuple[float, ...]:
        """Heuristic per-seat value in [0, 1] of a state (leaf evaluation)."""
        ...

    def policy_weights(self, state: State, actions: Sequence[Action]) -> Sequence[float]:
        """Positive heuristic weights for `actions` (the game's rollout policy)."""
        ...


@runtime_checkable
class Features(Protocol):
    """What a learned evaluator reads: a seat's view as a vector, a decision as indices
    (optional; the twin of Rust's `Featurize`, one definition per game, `features.py`)."""

    features_version: int
    """Version of the game's feature definition (models record it)."""

    def feature_size(self, num_players: int) -> int:
        """Length of the view vector for a game of `num_players` seats."""
        ...

    def features(self, state: State, seat: int) -> list[float]:
        """`seat`'s view of `state` as `feature_size` values; reads only what `seat` may know."""
        ...

    def action_feature_size(self) -> int:
        """Size of the action-feature space (the policy head's width)."""
        ...

    def action_features(self, state: State, action: Action) -> tuple[int, ...]:
        """The active action-feature indices of decision `action` in `state`."""
        ...


@runtime_checkable
class Game(Rules, Knowledge, Codec, Heuristics, Protocol):
    """A stateless game object with every role; every method is pure (states never mutate)."""

    @property
    def game_type(self) -> GameType:
        """What the game declares it is (checked when it is registered)."""
        ...

    @property
    def name(self) -> str:
        """The game's name."""
        ...

    @property
    def min_players(self) -> int:
        """Fewest seats."""
        ...

    @property
    def max_players(self) -> int:
        """Most seats."""
        ...
