"""LegendRaidersGame: the Game protocol over the Legend Raiders rules modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL, JsonDict
from boardbot.engine.legend_raiders import (
    chance,
    codec,
    heuristics,
    knowledge,
    notation,
    rules,
    setup,
)
from boardbot.engine.legend_raiders.render import render as render_state
from boardbot.engine.legend_raiders.scoring import final_scores, winner
from boardbot.engine.legend_raiders.state import CHANCE_PHASES, OVER, RaidersState


class LegendRaidersGame:
    """Legend Raiders for 2-4 players, with the die or diceless (see docs/legend_raiders/)."""

    name = "legend_raiders"
    min_players = 2
    max_players = 4

    def describe_options(self) -> JsonDict:
        """Option names with their allowed values and defaults."""
        return setup.describe_options()

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> RaidersState:
        """A fresh game set up from `options`; every random setup choice derives from `seed`."""
        return setup.new_state(options, seed)

    def num_players(self, state: RaidersState) -> int:
        """Number of seats."""
        return len(state.players)

    def current_player(self, state: RaidersState) -> int:
        """The seat to decide, CHANCE at a chance step, TERMINAL when the game is over."""
        phase = state.phase
        if phase == OVER:
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        return state.seat

    def legal_actions(self, state: RaidersState) -> Sequence[int]:
        """The legal decisions of the seat to move (empty at chance and terminal states)."""
        return rules.legal_actions(state)

    def apply(self, state: RaidersState, action: Any) -> RaidersState:
        """The state after `action` (a decision or a chance outcome)."""
        return rules.apply(state, action)

    def is_terminal(self, state: RaidersState) -> bool:
        """True once the game is over."""
        return state.phase == OVER

    def returns(self, state: RaidersState) -> tuple[float, ...]:
        """1.0 for the winner (after the tie-break), 0.0 for the others; all 0 before the end."""
        n = len(state.players)
        if state.phase != OVER:
            return (0.0,) * n
        best = winner(state)
        return tuple(1.0 if seat == best else 0.0 for seat in range(n))

    def scores(self, state: RaidersState) -> tuple[float, ...]:
        """Points scored so far; at the end, including Missions and kept Die cards."""
        if state.phase == OVER:
            return tuple(float(v) for v in final_scores(state))
        return tuple(float(p.points) for p in state.players)

    def chance_outcomes(self, state: RaidersState) -> Sequence[tuple[int, float]] | None:
        """All outcomes of the pending chance step with their probabilities."""
        return chance.chance_outcomes(state)

    def sample_chance(self, state: RaidersState, rng: random.Random) -> int:
        """One chance outcome drawn with `rng`."""
        return chance.sample_chance(state, rng)

    def determinize(self, state: RaidersState, observer: int, rng: random.Random) -> RaidersState:
        """A full world consistent with all `observer` knows; hidden cards redealt."""
        return knowledge.determinize(state, observer, rng)

    def evaluate(self, state: RaidersState) -> tuple[float, ...]:
        """Heuristic per-seat value in [0, 1]."""
        if state.phase == OVER:
            return self.returns(state)
        return heuristics.evaluate(state)

    def policy_weights(self, state: RaidersState, actions: Sequence[Any]) -> Sequence[float]:
        """Heuristic rollout weights for `actions`."""
        return heuristics.policy_weights(state, actions)

    def state_to_json(self, state: RaidersState, observer: int | None = None) -> JsonDict:
        """The documented JSON form; with `observer`, hidden cards appear only as counts."""
        return codec.state_to_json(state, observer)

    def state_from_json(self, data: Any) -> RaidersState:
        """Decode and fully validate a state or an observer's view."""
        return codec.state_from_json(data)

    def action_to_json(self, state: RaidersState, action: Any) -> JsonDict:
        """The readable JSON object of `action`."""
        return notation.action_json(action, state.dice)

    def action_from_json(self, state: RaidersState, data: Any) -> int:
        """Parse a JSON action and check it is legal in `state`."""
        return notation.check_legal(state, notation.parse_action_json(data, state.dice))

    def action_to_str(self, state: RaidersState, action: Any) -> str:
        """The short text of `action` (e.g. `prepare:3`)."""
        return notation.action_text(action, state.dice)

    def action_from_str(self, state: RaidersState, text: str) -> int:
        """Parse the short text of an action and check it is legal in `state`."""
        return notation.check_legal(state, notation.parse_action_text(text, state.dice))

    def render(self, state: RaidersState, observer: int | None = None) -> str:
        """A readable text picture of the state."""
        return render_state(state, observer)
