"""Rollout policies: play on from a leaf, then score the end or cut-off state."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from boardbot.engine.api import CHANCE, TERMINAL, Action, Game, State
from boardbot.search.errors import InvalidConfigError
from boardbot.search.rewards import terminal_reward

RolloutPolicy = Callable[[Game, State, Sequence[Action], random.Random], Action]
"""Chooses one of `actions` (at least two) in `state` during a rollout."""


class UnknownRolloutPolicyError(InvalidConfigError):
    """A SearchConfig names a rollout policy that does not exist."""


def uniform_policy(
    game: Game, state: State, actions: Sequence[Action], rng: random.Random
) -> Action:
    """Uniform over the legal actions."""
    return actions[int(rng.random() * len(actions))]


def heuristic_policy(
    game: Game, state: State, actions: Sequence[Action], rng: random.Random
) -> Action:
    """Proportional to the game's `policy_weights`."""
    return rng.choices(actions, game.policy_weights(state, actions))[0]


ROLLOUT_POLICIES: dict[str, RolloutPolicy] = {
    "random": uniform_policy,
    "heuristic": heuristic_policy,
}
"""Policies by the name a SearchConfig gives in `rollout`."""


def register_rollout_policy(name: str, policy: RolloutPolicy) -> None:
    """Make `policy` available as `SearchConfig(rollout=name)`.

    Root-parallel workers import this module afresh: register from a module they import too.
    """
    ROLLOUT_POLICIES[name] = policy


def get_policy(name: str) -> RolloutPolicy:
    """The rollout policy called `name`; UnknownRolloutPolicyError otherwise."""
    policy = ROLLOUT_POLICIES.get(name)
    if policy is None:
        raise UnknownRolloutPolicyError(
            f"unknown rollout policy {name!r}; known: {', '.join(ROLLOUT_POLICIES)}"
        )
    return policy


def rollout(
    game: Game,
    state: State,
    rng: random.Random,
    policy: RolloutPolicy,
    max_steps: int,
    margin_weight: float,
) -> tuple[float, ...]:
    """Play up to `max_steps` steps (decisions and chance) and return the reward vector.

    A state still running after `max_steps` is scored with the game's `evaluate`.
    """
    apply = game.apply
    current_player = game.current_player
    legal_actions = game.legal_actions
    steps = 0
    while True:
        player = current_player(state)
        if player == TERMINAL:
            return terminal_reward(game, state, margin_weight)
        if steps >= max_steps:
            return tuple(game.evaluate(state))
        if player == CHANCE:
            state = apply(state, game.sample_chance(state, rng))
        else:
            actions = legal_actions(state)
            action = actions[0] if len(actions) == 1 else policy(game, state, actions, rng)
            state = apply(state, action)
        steps += 1
