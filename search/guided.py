"""The learned evaluator inside the search (the twin of `core/search/src/guided.rs`).

A leaf is evaluated from the view of the seat to move there (after its chance steps), as the
network was trained: the features of that seat's view, the value head's rotated per-seat
rewards turned back into seat order, and from the same evaluation the priors of that seat's
legal decisions, stored at the leaf's node for the iterations that come back.

An analysis shows the network's own figures of each described root move beside the search's
(`RootFigures`): its prior at the root and its value of the position after the move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardbot.engine.api import CHANCE, TERMINAL, Action, State, View
from boardbot.search.network import Network
from boardbot.search.rewards import terminal_reward
from boardbot.search.seeds import derive_seed

NET_VALUE_WORLDS = 4
"""Determinizations of the root view behind each root move's `net_value`."""


def leaf_value(
    game: Any, network: Network, state: State, mover: int
) -> tuple[tuple[float, ...], np.ndarray]:
    """The network's reward vector of `state` in seat order, from the view of `mover` (the
    seat to move), and the policy head's outputs of the same evaluation."""
    features = np.asarray(game.features(state, mover), dtype=np.float32)
    values, policy = network.forward(features)
    row = values[0]
    players = len(row)
    reward = tuple(float(row[(seat - mover) % players]) for seat in range(players))
    return reward, policy[0]


def priors(game: Any, state: State, legal: Sequence[Action], policy: np.ndarray) -> list[float]:
    """The softmax over `legal` of each decision's summed policy outputs (uniform when the
    outputs are not finite)."""
    logits = [
        sum(float(policy[j]) for j in game.action_features(state, action))
        for action in legal
    ]
    top = max(logits)
    weights = [math.exp(logit - top) for logit in logits]
    total = sum(weights)
    if not (total > 0.0 and math.isfinite(total)):
        return [1.0 / len(legal)] * len(legal)
    return [w / total for w in weights]


def puct_score(q: float, prior: float, sqrt_parent: float, visits: int, puct: float) -> float:
    """The PUCT selection score of a decision: `q + puct · prior · sqrt(n_parent) / (1 + n)`."""
    return q + puct * prior * sqrt_parent / (1 + visits)


class RootFigures:
    """The network's figures of one search's root moves for the view's seat, each computed the
    first time it is asked for (the twin of `root_figures` in guided.rs; the same meaning, not
    the same random draws):

    - prior: the softmax over the legal root moves of the policy outputs, from the features of
      the root view (any determinization gives the same: features are the seat's view);
    - net_value: the mean over `NET_VALUE_WORLDS` determinizations of the root view, seeded
      from the search's `seed`, of: the move, chance sampled on to the next decision, then the
      terminal reward at the end of the game or the network's value from the mover's view, in
      the deciding seat's entry. Every move is played in the same worlds with the same draws.
    """

    def __init__(
        self, game: Any, view: View, network: Network, margin_weight: float, seed: int
    ) -> None:
        self.game = game
        self.view = view
        self.network = network
        self.margin_weight = margin_weight
        self.seed = seed
        self._worlds: list[tuple[State, Any]] | None = None
        self._priors: dict[Action, float] | None = None
        self._values: dict[Action, float] = {}

    def worlds(self) -> list[tuple[State, Any]]:
        """The determinizations with the generator state their chance draws start from."""
        if self._worlds is None:
            self._worlds = []
            for k in range(NET_VALUE_WORLDS):
                rng = random.Random(derive_seed(self.seed, "net", k))
                world = self.game.determinize(self.view, rng)
                self._worlds.append((world, rng.getstate()))
        return self._worlds

    def prior(self, action: Action) -> float | None:
        """The network's prior of root move `action` (None for a move not legal at the root)."""
        if self._priors is None:
            game, seat = self.game, self.view.seat
            world = self.worlds()[0][0]
            legal = game.legal_actions(self.view.state)
            _, policy = leaf_value(game, self.network, world, seat)
            self._priors = dict(zip(legal, priors(game, world, legal, policy), strict=True))
        return self._priors.get(action)

    def net_value(self, action: Action) -> float:
        """The network's value for the deciding seat of the position after root move `action`."""
        found = self._values.get(action)
        if found is not None:
            return found
        game, seat = self.game, self.view.seat
        total = 0.0
        for world, rng_state in self.worlds():
            rng = random.Random()
            rng.setstate(rng_state)
            state = game.apply(world, action)
            while game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            mover = game.current_player(state)
            if mover == TERMINAL:
                total += terminal_reward(game, state, self.margin_weight)[seat]
            else:
                total += leaf_value(game, self.network, state, mover)[0][seat]
        value = total / NET_VALUE_WORLDS
        self._values[action] = value
        return value
