"""A request's target Elo: checked where it arrives, resolved in the worker per player count.

The server checks what it can without the state (preset and settings given alongside, a finite
number, a calibration for the game at all); the worker, which decodes the state, picks the
calibration of its player count and turns the target into a budget and a random-move share.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from boardbot.jobs.failures import FailureKind, Reason, RequestError, internal, invalid_argument
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from boardbot.search.seeds import derive_seed
from boardbot.search.strength.errors import (
    CalibrationFileError,
    EloOutOfRangeError,
    out_of_range_message,
)
from boardbot.search.strength.loader import calibration_engine, calibrations_for
from boardbot.search.strength.mapping import Strength, plays_random, strength_for
from boardbot.search.strength.table import Calibration

FIELD = "target_elo"
"""The request field every error of this module names."""

ELO_OVERRIDABLE = ("time_ms",)
"""The `settings` fields a request may set with a target Elo (a cap; others change strength)."""


@dataclass(frozen=True)
class EloTarget:
    """A checked target with the game's calibrations by player count (picklable)."""

    target: float
    calibrations: dict[int, Calibration]
    max_iterations: int
    """The server's iteration bound; a larger calibrated budget is cut to it."""
    random_moves: bool = True
    """Apply the random-move share (ChooseMove); False for analyses."""


def check_target(
    target: float,
    preset: str,
    overrides: dict[str, Any],
    game: str,
    player_counts: range,
    engine: Engine | str,
    max_iterations: int,
) -> EloTarget:
    """The target of a request, or INVALID_ARGUMENT / FAILED_PRECONDITION naming the field."""
    if preset:
        raise invalid_argument(
            "target_elo: set either preset or target_elo, not both", Reason.PRESET_AND_ELO, FIELD
        )
    for key in overrides:
        if key not in ELO_OVERRIDABLE:
            raise invalid_argument(
                f"settings.{key}: cannot be set with target_elo (only "
                f"{', '.join(ELO_OVERRIDABLE)} may)",
                Reason.SETTINGS_AND_ELO,
                f"settings.{key}",
            )
    if not math.isfinite(target):
        raise invalid_argument(
            f"target_elo: must be a finite number, got {target}", Reason.ELO_OUT_OF_RANGE, FIELD
        )
    try:
        found = calibrations_for(game, player_counts, engine)
    except CalibrationFileError as error:
        raise internal(f"the strength calibration of {game} cannot be read: {error}") from None
    if not found:
        which = calibration_engine(game, engine)
        raise not_calibrated(f"target_elo: {game} has no strength calibration on the {which} "
                             "engine yet")
    if not any(c.low <= target <= c.high for c in found.values()):
        spans = tuple((n, c.low, c.high) for n, c in found.items())
        raise invalid_argument(
            f"target_elo: {out_of_range_message(target, game, spans)}",
            Reason.ELO_OUT_OF_RANGE,
            FIELD,
        )
    return EloTarget(target, found, max_iterations)


def not_calibrated(message: str) -> RequestError:
    """FAILED_PRECONDITION NOT_CALIBRATED on the target_elo field."""
    return RequestError(FailureKind.FAILED_PRECONDITION, message, Reason.NOT_CALIBRATED, FIELD)


def resolve_target(
    elo: EloTarget, game: str, players: int, base: SearchConfig
) -> tuple[SearchConfig, Strength]:
    """The configuration (the family's, `base`, with the knob's budget) and the knob's setting
    for a state with `players` seats."""
    calibration = elo.calibrations.get(players)
    if calibration is None:
        counts = ", ".join(str(n) for n in sorted(elo.calibrations))
        raise not_calibrated(
            f"target_elo: {game} with {players} players has no strength calibration "
            f"(calibrated: {counts} players)"
        )
    try:
        strength = strength_for(calibration, elo.target)
    except EloOutOfRangeError as error:
        raise invalid_argument(f"target_elo: {error}", Reason.ELO_OUT_OF_RANGE, FIELD) from None
    return base.replace(iterations=min(strength.iterations, elo.max_iterations)), strength


def draws_random_move(strength: Strength, seed: int) -> tuple[bool, random.Random]:
    """The seeded draw of whether this move is random, and the generator to draw it with."""
    rng = random.Random(derive_seed(seed, "random-move"))
    return plays_random(strength, rng), rng
