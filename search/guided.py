"""The learned evaluator inside the search (the twin of `core/search/src/guided.rs`).

A leaf is evaluated from the view of the seat to move there (after its chance steps), as the
network was trained: the features of that seat's view, the value head's rotated per-seat
rewards turned back into seat order, and from the same evaluation the priors of that seat's
legal decisions, stored at the leaf's node for the iterations that come back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardbot.engine.api import Action, State
from boardbot.search.network import Network


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
