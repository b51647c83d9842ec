"""Calibration tables: measured (Elo, bot) points of the knob's family, per game and engine.

A table is the random bot, then optional mixture points (the weakest search point's budget
with a measured share of uniformly random moves, `medium@N+random=S` bots), then the pure
search points `medium@N` by growing N."""

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
    """One measured bot: its ladder name, Elo and iteration budget (None: the random bot), and
    the share of its moves drawn uniformly at random instead of searched (above 0: a mixture
    point; the random bot's share is 1 implicitly and not stored)."""

    bot: str
    elo: float
    iterations: int | None
    random_share: float = 0.0

    @property
    def is_mixture(self) -> bool:
        """A search point that mixes in random moves (`medium@N+random=S`)."""
        return self.iterations is not None and self.random_share != 0.0


@dataclass(frozen=True)
class Calibration:
    """The measured points of one game, player count and engine, weakest first."""

    game: str
    players: int
    engine: str
    points: tuple[CalibrationPoint, ...]
    """The random bot first, then the mixture points by falling share, then `FAMILY@N` bots
    by growing N (and growing Elo all along)."""
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
        """The pure searching bots' points (no random moves), by growing iterations."""
        return tuple(p for p in self.points[1:] if not p.is_mixture)

    def mixture_points(self) -> tuple[CalibrationPoint, ...]:
        """The mixture points of the weakest search point's budget, by falling random share
        (and growing Elo)."""
        return tuple(p for p in self.points[1:] if p.is_mixture)


def check_points(points: Sequence[CalibrationPoint]) -> None:
    """Raise CalibrationFileError unless `points` is random first, then mixture points of the
    weakest search point's budget with strictly falling random shares in (0, 1), then search
    points without random moves with strictly more iterations, all strictly stronger."""
    if not 2 <= len(points) <= MAX_POINTS:
        raise CalibrationFileError(
            f"a table needs the random bot and 1..{MAX_POINTS - 1} search points, "
            f"got {len(points)} points"
        )
    for point in points:
        if not (math.isfinite(point.elo) and abs(point.elo) <= MAX_ABS_ELO):
            raise CalibrationFileError(f"{point.bot}: Elo must be finite, got {point.elo}")
    first = points[0]
    if first.iterations is not None:
        raise CalibrationFileError(f"the first point must be {RANDOM_BOT}, got {first.bot}")
    if first.random_share not in (0.0, 1.0):
        raise CalibrationFileError(
            f"{first.bot}: the random bot's random_share is 1, got {first.random_share:g}"
        )
    for point in points[1:]:
        if point.iterations is None or not 1 <= point.iterations <= MAX_ITERATIONS:
            raise CalibrationFileError(
                f"{point.bot}: iterations must be in 1..{MAX_ITERATIONS}, got {point.iterations}"
            )
        if not (math.isfinite(point.random_share) and 0.0 <= point.random_share < 1.0):
            raise CalibrationFileError(
                f"{point.bot}: random_share must lie in [0, 1) (0: no random moves), "
                f"got {point.random_share}"
            )
    _check_mixtures(points)
    for before, after in itertools.pairwise(points):
        # After the random bot and the mixtures (one budget, _check_mixtures) budgets grow.
        budget_grows = before.iterations is not None and not before.is_mixture
        if budget_grows and (after.iterations or 0) <= (before.iterations or 0):
            raise CalibrationFileError(f"{after.bot}: iterations must grow along the table")
        if after.elo <= before.elo:
            raise CalibrationFileError(
                f"{after.bot} ({after.elo:g}) must be rated above {before.bot} ({before.elo:g}): "
                "the knob needs strength growing with iterations and falling random shares"
            )


def _check_mixtures(points: Sequence[CalibrationPoint]) -> None:
    """The mixture points come right after the random bot, search with the budget of the
    weakest pure search point, and have strictly falling shares."""
    count = next((i for i, p in enumerate(points[1:]) if not p.is_mixture), len(points) - 1)
    mixtures, pure = points[1 : 1 + count], points[1 + count :]
    if not pure:
        raise CalibrationFileError(
            "a table needs at least one search point without random moves after its mixture "
            "points"
        )
    late = next((p for p in pure if p.is_mixture), None)
    if late is not None:
        raise CalibrationFileError(
            f"{late.bot}: a mixture point (random_share {late.random_share:g}) must come "
            f"before the search points without random moves ({pure[0].bot} first)"
        )
    weakest = pure[0]
    for point in mixtures:
        if point.iterations != weakest.iterations:
            raise CalibrationFileError(
                f"{point.bot}: a mixture point must search with the weakest search point's "
                f"budget ({weakest.bot}: {weakest.iterations} iterations), got "
                f"{point.iterations}"
            )
    for before, after in itertools.pairwise(mixtures):
        if after.random_share >= before.random_share:
            raise CalibrationFileError(
                f"{after.bot}: random shares must fall along the table "
                f"({after.random_share:g} after {before.random_share:g})"
            )


def calibration_to_json(calibration: Calibration) -> dict[str, Any]:
    """One engine's entry of a calibration file."""
    return {
        "family": calibration.family,
        "points": [_point_to_json(p) for p in calibration.points],
        "source": dict(calibration.source),
    }


def _point_to_json(point: CalibrationPoint) -> dict[str, Any]:
    """A point's object; `random_share` only on a mixture point (files without mixtures are
    written as before the key existed)."""
    raw: dict[str, Any] = {
        "bot": point.bot, "elo": round(point.elo, 1), "iterations": point.iterations
    }
    if point.is_mixture:
        raw["random_share"] = point.random_share
    return raw


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
    share = raw.get("random_share", 0.0)
    if isinstance(share, bool) or not isinstance(share, int | float):
        raise CalibrationFileError(f"{where}.random_share: expected a number in [0, 1)")
    return CalibrationPoint(bot, float(elo), iterations, float(share))
