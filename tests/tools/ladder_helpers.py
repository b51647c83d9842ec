"""Helpers shared by the ladder tests: small real ladders and synthetic games of known strength."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from boardbot.engine import get_game
from boardbot.tools.ladder import ladder_settings
from boardbot.tools.ladder_store import LadderSettings

TIME_FIELDS = ("decision_seconds",)


def without_times(entry: dict[str, Any]) -> dict[str, Any]:
    """A games-file entry without the fields that measure time (they differ run to run)."""
    return {k: v for k, v in entry.items() if k not in TIME_FIELDS}


def small_settings(
    bots: Sequence[str] = ("random", "greedy", "beginner@5"),
    games: int = 4,
    seed: int = 1,
    players: int = 2,
) -> LadderSettings:
    """Settings of a cheap Legend Raiders ladder."""
    game = get_game("legend_raiders")
    return ladder_settings(game, {"players": players}, list(bots), games, seed, "python")


def synthetic_games(
    elo: Sequence[float], players: int, deals: int, seed: int
) -> list[dict[str, Any]]:
    """Games-file entries of bots with the given true Elo: every table of `players` bots plays
    each deal once, finishing order drawn from the Plackett-Luce model (Bradley-Terry for two)."""
    from itertools import combinations

    rng = np.random.default_rng(seed)
    names = [f"bot{i}" for i in range(len(elo))]
    weights = [math.exp(e * math.log(10.0) / 400.0) for e in elo]
    entries = []
    for deal in range(deals):
        for table in combinations(range(len(elo)), players):
            left = list(table)
            order = []
            while left:
                w = np.array([weights[b] for b in left])
                pick = int(rng.choice(len(left), p=w / w.sum()))
                order.append(left.pop(pick))
            place = {bot: rank for rank, bot in enumerate(order)}
            entries.append({
                "table": [names[b] for b in table],
                "game": deal,
                "seed": deal,
                "seats": [names[b] for b in table],
                "returns": [1.0 if place[b] == 0 else 0.0 for b in table],
                "scores": [float(players - place[b]) for b in table],
            })
    return entries
