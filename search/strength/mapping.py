"""The knob: a target Elo to an iteration budget and a share of uniformly random moves.

The family is `medium@N`. Between two calibrated points the budget is interpolated
geometrically (strength grows about linearly in log iterations); below the weakest search
point that point's budget is kept and a share of uniformly random moves is mixed in, growing
to 1 at the random bot's Elo: interpolated linearly in Elo between the measured points of the
mixture (`medium@N+random=S` bots in the table), or, without any, along the straight line from
0 at the weakest search point to 1 at the random bot.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass

from boardbot.engine.api import Action, Game, State
from boardbot.search.api import SearchConfig
from boardbot.search.presets import resolve_preset
from boardbot.search.strength.errors import EloOutOfRangeError
from boardbot.search.strength.table import Calibration


@dataclass(frozen=True)
class Strength:
    """What the knob plays for a target: a budget of the family and a random-move share."""

    target_elo: float
    iterations: int
    random_share: float
    """Probability that a move is drawn uniformly from the legal moves instead of searched."""


def strength_for(calibration: Calibration, target: float) -> Strength:
    """The knob's setting for `target` (EloOutOfRangeError outside [low, high], NaN included)."""
    if not (math.isfinite(target) and calibration.low <= target <= calibration.high):
        span = (calibration.players, calibration.low, calibration.high)
        raise EloOutOfRangeError(target, calibration.game, (span,))
    search = calibration.search_points()
    weakest = search[0]
    assert weakest.iterations is not None, "search points have budgets"
    if target < weakest.elo:
        return Strength(target, weakest.iterations, random_share_for(calibration, target))
    elos = [p.elo for p in search]
    upper = min(bisect.bisect_right(elos, target), len(search) - 1)
    lower = search[upper - 1] if upper > 0 else search[0]
    high = search[upper]
    assert lower.iterations is not None and high.iterations is not None
    if target >= high.elo or lower is high:
        return Strength(target, high.iterations, 0.0)
    fraction = (target - lower.elo) / (high.elo - lower.elo)
    log_budget = math.log(lower.iterations) + fraction * (
        math.log(high.iterations) - math.log(lower.iterations)
    )
    budget = min(max(round(math.exp(log_budget)), lower.iterations), high.iterations)
    return Strength(target, budget, 0.0)


def random_share_for(calibration: Calibration, target: float) -> float:
    """The random-move share at a target in [low, weakest search point's Elo]: linear in Elo
    between the two neighbouring measured points among the random bot (share 1), the mixture
    points and the weakest search point (share 0)."""
    weakest = calibration.search_points()[0]
    anchors = [
        (calibration.low, 1.0),
        *((p.elo, p.random_share) for p in calibration.mixture_points()),
        (weakest.elo, 0.0),
    ]
    upper = min(max(bisect.bisect_right([elo for elo, _ in anchors], target), 1), len(anchors) - 1)
    (low_elo, low_share), (high_elo, high_share) = anchors[upper - 1], anchors[upper]
    if target == low_elo:
        return low_share
    # Measured from the upper point, so that without mixture points this is exactly
    # (e_1 - t) / (e_1 - e_random), the straight line of the knob's first tables.
    share = high_share + (high_elo - target) / (high_elo - low_elo) * (low_share - high_share)
    return min(max(share, high_share), low_share)


def knob_config(calibration: Calibration, strength: Strength) -> SearchConfig:
    """The family's preset for the calibration's game and engine, with the knob's budget."""
    family = resolve_preset(calibration.family, calibration.game, calibration.engine)
    return family.replace(iterations=strength.iterations)


def draws_random(share: float, rng: random.Random) -> bool:
    """One seeded draw: True (with probability `share`) when this move is to be uniformly
    random."""
    return rng.random() < share


def plays_random(strength: Strength, rng: random.Random) -> bool:
    """One seeded draw: True when this move is to be uniformly random."""
    return draws_random(strength.random_share, rng)


def random_move(game: Game, state: State, seat: int, rng: random.Random) -> Action:
    """A legal move of `seat` drawn uniformly, read from the seat's view only."""
    actions = game.legal_actions(game.observe(state, seat).state)
    return actions[rng.randrange(len(actions))]
