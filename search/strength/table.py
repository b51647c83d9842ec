"""Calibration tables: measured (Elo, bot) points of the knob's family, per game and engine."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardbot.search.strength.errors import CalibrationFileError

FORMAT = 1
"""Version of the calibration file format."""

FAMILY = "medium"
"""The preset whose iteration budget the knob varies (`medium@N` bots)."""

RANDOM_BOT = "random"
"""The uniformly random bot, the bottom of every table (Elo 0 on an anchored ladder)."""

ENGINES = ("native", "python")
"""Engines a table may hold points for (the engine the search runs on)."""

MAX_POINTS = 64
MAX_ABS_ELO = 10_000.0
MAX_ITERATIONS = 10_000_000


@dataclass(frozen=True)
class CalibrationPoint:
    """One measured bot: its ladder name, Elo and iteration budget (None: the random bot)."""

    bot: str
    elo: float
    iterations: int | None


@dataclass(frozen=True)
class Calibration:
    """The measured points of one game, player count and engine, weakest first."""

    game: str
    players: int
    engine: str
    points: tuple[CalibrationPoint, ...]
    """The random bot first, then `FAMILY@N` bots by growing N (and growing Elo)."""
    family: str = FAMILY
    source: Mapping[str, Any] = field(default_factory=dict)
    """Where the points came from: command, ratings file, date, games."""

    def __post_init__(self) -> None:
        check_points(self.points)

    @property
    def low(self) -> float:
        """The weakest calibrated Elo (the random bot's)."""
        return self.points[0].elo

    @property
    def high(self) -> float:
        """The strongest calibrated Elo."""
        return self.points[-1].elo

    def search_points(self) -> tuple[CalibrationPoint, ...]:
        """The searching bots' points, by growing iterations."""
        return self.points[1:]


def check_points(points: Sequence[CalibrationPoint]) -> None:
    """Raise CalibrationFileError unless `points` is random first, then strictly stronger
    search points with strictly more iterations."""
    if not 2 <= len(points) <= MAX_POINTS:
        raise CalibrationFileError(
            f"a table needs the random bot and 1..{MAX_POINTS - 1} search points, "
            f"got {len(points)} points"
        )
    for point in points:
        if not (math.isfinite(point.elo) and abs(point.elo) <= MAX_ABS_ELO):
            raise CalibrationFileError(f"{point.bot}: Elo must be finite, got {point.elo}")
    if points[0].iterations is not None:
        raise CalibrationFileError(f"the first point must be {RANDOM_BOT}, got {points[0].bot}")
    for before, after in itertools.pairwise(points):
        if after.iterations is None or not 1 <= after.iterations <= MAX_ITERATIONS:
            raise CalibrationFileError(
                f"{after.bot}: iterations must be in 1..{MAX_ITERATIONS}, got {after.iterations}"
            )
        if before.iterations is not None and after.iterations <= before.iterations:
            raise CalibrationFileError(f"{after.bot}: iterations must grow along the table")
        if after.elo <= before.elo:
            raise CalibrationFileError(
                f"{after.bot} ({after.elo:g}) must be rated above {before.bot} ({before.elo:g}): "
                "the knob needs strength growing with iterations"
            )


def calibration_to_json(calibration: Calibration) -> dict[str, Any]:
    """One engine's entry of a calibration file."""
    return {
        "family": calibration.family,
        "points": [
            {"bot": p.bot, "elo": round(p.elo, 1), "iterations": p.iterations}
            for p in calibration.points
        ],
        "source": dict(calibration.source),
    }


def table_to_json(game: str, players: int, entries: Mapping[str, Calibration]) -> dict[str, Any]:
    """A whole calibration file: one game and player count, an entry per engine."""
    return {
        "format": FORMAT,
        "game": game,
        "players": players,
        "engines": {engine: calibration_to_json(entries[engine]) for engine in sorted(entries)},
    }


def table_from_json(doc: Any, game: str, players: int) -> dict[str, Calibration]:
    """Every engine's calibration in a parsed file (CalibrationFileError when malformed)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CalibrationFileError(f"not a calibration file of format {FORMAT}")
    if doc.get("game") != game or doc.get("players") != players:
        raise CalibrationFileError(
            f"the file is for {doc.get('game')!r} with {doc.get('players')!r} players, "
            f"not {game!r} with {players}"
        )
    engines = doc.get("engines")
    if not isinstance(engines, dict) or not set(engines) <= set(ENGINES):
        raise CalibrationFileError(f"engines must be an object keyed by {', '.join(ENGINES)}")
    return {
        engine: _calibration_from_json(entry, game, players, engine)
        for engine, entry in engines.items()
    }


def _calibration_from_json(entry: Any, game: str, players: int, engine: str) -> Calibration:
    if not isinstance(entry, dict) or not isinstance(entry.get("points"), list):
        raise CalibrationFileError(f"engines.{engine}: expected an object with points")
    family = entry.get("family", FAMILY)
    if family != FAMILY:
        raise CalibrationFileError(f"engines.{engine}: unknown family {family!r}")
    source = entry.get("source", {})
    if not isinstance(source, dict):
        raise CalibrationFileError(f"engines.{engine}.source: expected an object")
    points = tuple(_point(raw, f"engines.{engine}.points[{i}]") for i, raw in enumerate(
        entry["points"][: MAX_POINTS + 1]
    ))
    return Calibration(game, players, engine, points, family, source)


def _point(raw: Any, where: str) -> CalibrationPoint:
    if not isinstance(raw, dict):
        raise CalibrationFileError(f"{where}: expected an object")
    bot, elo, iterations = raw.get("bot"), raw.get("elo"), raw.get("iterations")
    if not isinstance(bot, str) or not bot:
        raise CalibrationFileError(f"{where}.bot: expected a bot name")
    if isinstance(elo, bool) or not isinstance(elo, int | float):
        raise CalibrationFileError(f"{where}.elo: expected a number")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)):
        raise CalibrationFileError(f"{where}.iterations: expected an integer or null")
    return CalibrationPoint(bot, float(elo), iterations)
