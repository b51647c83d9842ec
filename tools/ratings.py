"""Elo ratings of bots from finished games: a Bradley-Terry fit (choix) and a deal bootstrap.

Every game is broken into the pairwise results of its seats: in a two-player game the winner
(higher return) beats the loser and equal returns are a draw, half a win each way; with three
or four players each pair of seats is ordered by return, then score, ties again half a win each
way. The Bradley-Terry strengths are fitted to the summed results with
`choix.ilsr_pairwise_dense`, after adding one virtual win each way between every pair of bots
(a prior of two drawn games per pair, as BayesElo's default) so that a bot that wins or loses
every game still has a finite rating. Elo is `400 / ln(10)` times the strength, anchored at 0 for
`random` (or the first bot). Intervals come from resampling whole deals with replacement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

import numpy as np

from boardbot.tools.extras import import_extra

ELO_PER_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley-Terry strength (natural-log odds)."""
PRIOR_WINS = 1.0
"""Virtual wins each way between every pair of bots, added before each fit."""
ANCHOR = "random"


@dataclass(frozen=True)
class BotRating:
    """One bot's Elo with its 95% bootstrap interval and the games it played."""

    bot: str
    elo: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class Step:
    """The Elo difference from one bot to the next in the given order, with its interval."""

    lower: str
    upper: str
    difference: float
    low: float
    high: float


@dataclass(frozen=True)
class LadderRatings:
    """The fitted ladder: ratings, adjacent steps and the pairwise record."""

    bots: tuple[str, ...]
    anchor: str
    model: str
    prior_wins: float
    bootstrap: int
    bootstrap_seed: int
    games: int
    deals: int
    ratings: tuple[BotRating, ...]
    steps: tuple[Step, ...]
    wins: tuple[tuple[float, ...], ...]
    """wins[i][j]: times bot i finished ahead of bot j (ties count half)."""
    meetings: tuple[tuple[int, ...], ...]
    """meetings[i][j]: games in which bots i and j both played."""
    unfinished: int = 0
    """Games stopped at the step limit, left out of the fit."""

    def to_json(self) -> dict[str, Any]:
        """The ratings as a JSON-ready dict."""
        return asdict(self)


def pairwise_results(entry: dict[str, Any]) -> list[tuple[str, str, float]]:
    """`(a, b, share)` for every pair of seats of a finished game: the share of a win `a` takes
    from `b` (1, 0 or 1/2), by return, then (three or more players) by score."""
    seats, returns, scores = entry["seats"], entry["returns"], entry["scores"]
    use_scores = len(seats) > 2
    results = []
    for a, b in combinations(range(len(seats)), 2):
        key_a = (returns[a], scores[a] if use_scores else 0.0)
        key_b = (returns[b], scores[b] if use_scores else 0.0)
        share = 1.0 if key_a > key_b else 0.0 if key_a < key_b else 0.5
        results.append((seats[a], seats[b], share))
    return results


def deal_matrices(
    entries: Sequence[dict[str, Any]], bots: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Per deal (the games sharing a seed), wins[i, j] of bot i over bot j, and the meetings
    of every pair over all games."""
    index = {bot: i for i, bot in enumerate(bots)}
    deals: dict[int, int] = {}
    n = len(bots)
    per_deal: list[np.ndarray] = []
    meetings = np.zeros((n, n), dtype=int)
    for entry in entries:
        slot = deals.setdefault(int(entry["seed"]), len(deals))
        if slot == len(per_deal):
            per_deal.append(np.zeros((n, n)))
        for a, b, share in pairwise_results(entry):
            i, j = index[a], index[b]
            per_deal[slot][i, j] += share
            per_deal[slot][j, i] += 1.0 - share
            meetings[i, j] += 1
            meetings[j, i] += 1
    stacked = np.array(per_deal) if per_deal else np.zeros((0, n, n))
    return stacked, meetings


def fit_strengths(
    wins: np.ndarray, prior_wins: float = PRIOR_WINS, start: np.ndarray | None = None
) -> np.ndarray:
    """Bradley-Terry strengths (natural-log scale, mean 0) of the win matrix plus the prior
    (`start`: strengths to iterate from, e.g. the full data's for a bootstrap refit)."""
    choix = import_extra("choix", "ladder", "fitting ratings")
    n = wins.shape[0]
    smoothed = wins + prior_wins * (1.0 - np.eye(n))
    strengths: np.ndarray = choix.ilsr_pairwise_dense(
        smoothed, initial_params=start, max_iter=1000, tol=1e-10
    )
    return strengths


def to_elo(strengths: np.ndarray, anchor: int) -> np.ndarray:
    """Elo points, `anchor` at 0."""
    result: np.ndarray = ELO_PER_UNIT * (strengths - strengths[..., anchor : anchor + 1])
    return result


def bootstrap_elo(
    per_deal: np.ndarray, anchor: int, resamples: int, seed: int, prior_wins: float = PRIOR_WINS
) -> np.ndarray:
    """Elo of every bot refitted on `resamples` resamples of whole deals (with replacement)."""
    rng = np.random.default_rng(seed)
    start = fit_strengths(per_deal.sum(axis=0), prior_wins)
    deals = per_deal.shape[0]
    samples = np.zeros((resamples, per_deal.shape[1]))
    for r in range(resamples):
        counts = np.bincount(rng.integers(0, deals, deals), minlength=deals)
        wins = np.tensordot(counts.astype(float), per_deal, axes=1)
        samples[r] = to_elo(fit_strengths(wins, prior_wins, start), anchor)
    return samples


def interval(samples: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap samples."""
    low, high = np.percentile(samples, [2.5, 97.5])
    return float(low), float(high)


def anchor_of(bots: Sequence[str]) -> str:
    """The bot rated 0: `random` when it plays, else the first bot."""
    return ANCHOR if ANCHOR in bots else bots[0]


def fit_ladder(
    entries: Sequence[dict[str, Any]],
    bots: Sequence[str],
    resamples: int = 1000,
    seed: int = 0,
    prior_wins: float = PRIOR_WINS,
) -> LadderRatings:
    """Ratings of `bots` from the games file's entries, with `resamples` bootstrap refits; games
    stopped unfinished are counted and left out."""
    unfinished = sum(bool(entry.get("unfinished")) for entry in entries)
    entries = [entry for entry in entries if not entry.get("unfinished")]
    if not entries:
        raise ValueError("no finished games to rate")
    if resamples < 1:
        raise ValueError("the bootstrap needs at least one resample")
    per_deal, meetings = deal_matrices(entries, bots)
    anchor = anchor_of(bots)
    a = list(bots).index(anchor)
    wins = per_deal.sum(axis=0)
    elo = to_elo(fit_strengths(wins, prior_wins), a)
    samples = bootstrap_elo(per_deal, a, resamples, seed, prior_wins)
    played = [sum(bot in entry["seats"] for entry in entries) for bot in bots]
    ratings = tuple(
        BotRating(bot, float(elo[i]), *interval(samples[:, i]), played[i])
        for i, bot in enumerate(bots)
    )
    steps = tuple(
        Step(bots[i], bots[i + 1], float(elo[i + 1] - elo[i]),
             *interval(samples[:, i + 1] - samples[:, i]))
        for i in range(len(bots) - 1)
    )
    players = len(entries[0]["seats"])
    model = "bradley-terry" if players == 2 else "bradley-terry on pairwise finishing orders"
    return LadderRatings(
        bots=tuple(bots),
        anchor=anchor,
        model=model,
        prior_wins=prior_wins,
        bootstrap=resamples,
        bootstrap_seed=seed,
        games=len(entries),
        deals=per_deal.shape[0],
        ratings=ratings,
        steps=steps,
        wins=tuple(tuple(float(x) for x in row) for row in wins),
        meetings=tuple(tuple(int(x) for x in row) for row in meetings),
        unfinished=unfinished,
    )
