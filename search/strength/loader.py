"""Finding and reading the calibration table of a game, player count and engine."""

from __future__ import annotations

import os
import re
from pathlib import Path

import orjson

from boardbot.search.engines import Engine
from boardbot.search.presets import searches_natively
from boardbot.search.strength.errors import CalibrationFileError, NotCalibratedError
from boardbot.search.strength.table import Calibration, table_from_json

DIR_VARIABLE = "BOARDBOT_STRENGTH_DIR"
"""Environment variable naming the folder of calibration files (default: this package's)."""

MAX_FILE_BYTES = 64 * 1024
"""Largest calibration file read."""

_GAME_NAME = re.compile(r"[a-z0-9_]{1,64}")


def calibration_dir() -> Path:
    """The folder calibration files are read from: $BOARDBOT_STRENGTH_DIR, else the package's."""
    chosen = os.environ.get(DIR_VARIABLE)
    return Path(chosen) if chosen else Path(__file__).resolve().parent


def file_name(game: str, players: int) -> str:
    """The calibration file's name for a game and player count, e.g. `leda-2p.json`."""
    if not _GAME_NAME.fullmatch(game):
        raise CalibrationFileError(f"not a game name usable in a file name: {game[:64]!r}")
    return f"{game}-{players}p.json"


def calibration_engine(game: str, engine: Engine | str) -> str:
    """Which engine's points apply: `native` when the search runs on the native core here."""
    return Engine.NATIVE.value if searches_natively(game, engine) else Engine.PYTHON.value


def read_table(
    game: str, players: int, directory: Path | None = None
) -> dict[str, Calibration]:
    """Every engine's calibration of the game and player count (empty: no file, or a game
    whose name no calibration file can carry)."""
    if not _GAME_NAME.fullmatch(game):
        return {}
    path = (directory or calibration_dir()) / file_name(game, players)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise CalibrationFileError(f"{path}: {error.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CalibrationFileError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return table_from_json(orjson.loads(raw), game, players)
    except orjson.JSONDecodeError as error:
        raise CalibrationFileError(f"{path}: malformed JSON: {error}") from None
    except CalibrationFileError as error:
        raise CalibrationFileError(f"{path}: {error}") from None


def load_calibration(
    game: str, players: int, engine: Engine | str, directory: Path | None = None
) -> Calibration:
    """The calibration searches of `game` with `players` seats on `engine` use
    (NotCalibratedError when there is none)."""
    which = calibration_engine(game, engine)
    calibration = read_table(game, players, directory).get(which)
    if calibration is None:
        raise NotCalibratedError(game, players, which)
    return calibration


def calibrations_for(
    game: str, player_counts: range, engine: Engine | str, directory: Path | None = None
) -> dict[int, Calibration]:
    """The calibration of each player count that has one, on the engine searches use."""
    which = calibration_engine(game, engine)
    found = {}
    for players in player_counts:
        calibration = read_table(game, players, directory).get(which)
        if calibration is not None:
            found[players] = calibration
    return found
