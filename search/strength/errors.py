"""Why a target Elo cannot be met: no calibration, a target out of range, a bad table."""

from __future__ import annotations

from boardbot.engine.errors import BoardbotError


class StrengthError(BoardbotError, ValueError):
    """Base class of the strength knob's errors."""


class NotCalibratedError(StrengthError):
    """No calibration table for this game, player count and engine."""

    def __init__(self, game: str, players: int | None, engine: str) -> None:
        seats = "" if players is None else f" with {players} players"
        super().__init__(
            f"{game}{seats} has no strength calibration on the {engine} engine "
            "(docs/search.md, 'Strength by Elo: the knob')"
        )
        self.game = game
        self.players = players
        self.engine = engine

    def __reduce__(self) -> tuple[type[NotCalibratedError], tuple[str, int | None, str]]:
        return type(self), (self.game, self.players, self.engine)


CalibratedRange = tuple[int, float, float]
"""A player count and the Elo range calibrated for it: (players, low, high)."""


def out_of_range_message(target: float, game: str, ranges: tuple[CalibratedRange, ...]) -> str:
    """The one wording of a target Elo outside the calibrated ranges of `game`, naming them:
    `target Elo 1400 is outside the calibrated range of leda: [0, 972.8] with 2 players`."""
    spans = ", ".join(f"[{low:g}, {high:g}] with {n} players" for n, low, high in ranges)
    noun = "range" if len(ranges) == 1 else "ranges"
    return f"target Elo {target:g} is outside the calibrated {noun} of {game}: {spans}"


class EloOutOfRangeError(StrengthError):
    """The target lies outside the calibrated range (of every player count given)."""

    def __init__(self, target: float, game: str, ranges: tuple[CalibratedRange, ...]) -> None:
        super().__init__(out_of_range_message(target, game, ranges))
        self.target = target
        self.game = game
        self.ranges = ranges

    def __reduce__(
        self,
    ) -> tuple[type[EloOutOfRangeError], tuple[float, str, tuple[CalibratedRange, ...]]]:
        return type(self), (self.target, self.game, self.ranges)


class CalibrationFileError(StrengthError):
    """A calibration table that cannot be read or breaks the format's rules."""
