"""Synthetic ladders for the strength knob's tests: ratings.json files and tables in tmp dirs.

The numbers are invented for tests only; shipped calibration files come from real ladders.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import orjson
import pytest

from boardbot.search.strength.loader import DIR_VARIABLE
from boardbot.tools.strength_calibration import (
    calibrations_from_ratings,
    read_ratings,
    write_calibration,
)

RATINGS: dict[str, float] = {
    "random": 0.0,
    "medium@10": 300.0,
    "medium@40": 500.0,
    "medium@160": 650.0,
    "greedy": 200.0,
}
"""A made-up ladder: random, three budgets of the family, and a bot the table leaves out."""

MIXTURE_RATINGS: dict[str, float] = {
    **RATINGS,
    "medium@10+random=0.25": 260.0,
    "medium@10+random=0.5": 200.0,
    "medium@10+random=0.75": 120.0,
    # Left out: another budget's mixture, a mixture with other overrides, shares 0 and 1.
    "medium@40+random=0.5": 350.0,
    "medium@10+random=0.5+reuse=1": 210.0,
    "medium@10+random=0": 290.0,
    "medium@10+random=1": 10.0,
}
"""The same ladder extended with mixtures of its weakest budget, medium@10 (and bots the table
leaves out)."""


def write_ratings(folder: Path, ratings: Mapping[str, float], **meta: object) -> Path:
    """A ratings.json in the ladder's shape (a list of rated bots), with top-level `meta`."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {"bot": bot, "elo": elo, "low": elo - 50, "high": elo + 50, "games": 40}
        for bot, elo in ratings.items()
    ]
    path = folder / "ratings.json"
    path.write_bytes(orjson.dumps({"anchor": "random", "games": 240, **meta, "ratings": rows}))
    return path


def write_table(
    folder: Path,
    game: str,
    players: int,
    ratings: Mapping[str, float] = RATINGS,
    engines: tuple[str, ...] = ("native", "python"),
) -> Path:
    """A calibration file for `game` with `players` seats, the same points on each engine."""
    path = write_ratings(folder / "ladder", ratings)
    rated, meta = read_ratings(path)
    source = {"command": "synthetic test ladder", "date": "2026-01-01", "games": meta["games"]}
    written = folder
    for engine in engines:
        found = calibrations_from_ratings(rated, game, players, engine, source)
        written = write_calibration(found, game, players, folder)
    return written


def serve_table(
    folder: Path, monkeypatch: pytest.MonkeyPatch, game: str, players: int = 2
) -> Path:
    """A calibration file for `game` in `folder`, read through $BOARDBOT_STRENGTH_DIR."""
    write_table(folder, game, players)
    monkeypatch.setenv(DIR_VARIABLE, str(folder))
    return folder
