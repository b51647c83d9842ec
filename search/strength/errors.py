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


class EloOutOfRangeError(StrengthError):
    """The target lies outside the calibrated range."""

    def __init__(self, target: float, low: float, high: float) -> None:
        super().__init__(
            f"target Elo {target:g} is outside the calibrated range [{low:g}, {high:g}]"
        )
        self.target = target
        self.low = low
        self.high = high

    def __reduce__(self) -> tuple[type[EloOutOfRangeError], tuple[float, float, float]]:
        return type(self), (self.target, self.low, self.high)


class CalibrationFileError(StrengthError):
    """A calibration table that cannot be read or breaks the format's rules."""
