"""Turn a ladder's ratings.json into the strength knob's calibration file (real runs only).

The ladder (`boardbot ladder`) rates bots by Elo, anchored so that `random` is 0. The knob's
points are the ratings of `random` and of the family's bots `medium@N` (optionally suffixed
`/native` or `/python`), and the mixture points: bots `medium@N+random=S` of the weakest
`medium@N` budget of their engine with a share S strictly between 0 and 1 (the knob's low end,
`search/strength/mapping.py`); other bots in the ladder are left out.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from boardbot.engine.errors import BoardbotError
from boardbot.search.overrides import RANDOM_KEY, parse_random_share
from boardbot.search.strength.errors import CalibrationFileError
from boardbot.search.strength.loader import MAX_FILE_BYTES, calibration_dir, file_name, read_table
from boardbot.search.strength.table import (
    ENGINES,
    FAMILY,
    RANDOM_BOT,
    Calibration,
    CalibrationPoint,
    table_to_json,
)

MAX_RATINGS_BYTES = 4 * 1024 * 1024
"""Largest ratings file read."""

_FAMILY_BOT = re.compile(rf"{FAMILY}@(\d{{1,8}})(?:/(native|python))?")
_MIXTURE_BOT = re.compile(
    rf"{FAMILY}@(\d{{1,8}})\+{RANDOM_KEY}=([^+/]{{1,32}})(?:/(native|python))?"
)
"""A mixture of the family: `medium@N+random=S`, optionally with an engine suffix."""


class StrengthCalibrationError(BoardbotError, ValueError):
    """The ratings cannot make a calibration (missing bots, strength not growing, ...)."""


@dataclass(frozen=True)
class Rated:
    """One bot's rating from a ladder."""

    bot: str
    elo: float


def read_ratings(path: Path) -> tuple[list[Rated], dict[str, Any]]:
    """The ratings in a ladder's ratings.json and its top-level metadata (game, games, ...).

    Accepted shapes: `{"ratings": {...}}` or `{"bots": {...}}` (bot name to an Elo or to an
    object with `elo`), the same as lists of objects with `bot` (or `name`) and `elo`, or a
    bare object of bot name to Elo."""
    try:
        raw = path.read_bytes()[: MAX_RATINGS_BYTES + 1]
        doc = orjson.loads(raw)
    except OSError as error:
        raise StrengthCalibrationError(f"cannot read {path}: {error.strerror}") from None
    except orjson.JSONDecodeError as error:
        raise StrengthCalibrationError(f"{path}: malformed JSON: {error}") from None
    meta: dict[str, Any] = {}
    entries: Any = doc
    if isinstance(doc, dict):
        key = next((k for k in ("ratings", "bots") if k in doc), None)
        if key is not None:
            entries = doc[key]
            meta = {k: v for k, v in doc.items() if k != key}
    return _entries(entries, path), meta


def _entries(entries: Any, path: Path) -> list[Rated]:
    pairs: list[tuple[Any, Any]]
    if isinstance(entries, dict):
        pairs = list(entries.items())
    elif isinstance(entries, list):
        pairs = [
            (e.get("bot", e.get("name")), e) if isinstance(e, dict) else (None, None)
            for e in entries
        ]
    else:
        raise StrengthCalibrationError(f"{path}: no ratings found")
    rated = []
    for name, value in pairs:
        elo = value.get("elo", value.get("rating")) if isinstance(value, dict) else value
        if not isinstance(name, str) or isinstance(elo, bool) or not isinstance(elo, int | float):
            raise StrengthCalibrationError(f"{path}: each rating needs a bot name and an Elo")
        if not math.isfinite(elo):
            raise StrengthCalibrationError(f"{path}: {name} has no finite Elo")
        rated.append(Rated(name, float(elo)))
    return rated


def calibrations_from_ratings(
    ratings: list[Rated],
    game: str,
    players: int,
    engine: str | None,
    source: Mapping[str, Any],
    drop_non_monotone: bool = False,
) -> dict[str, Calibration]:
    """One calibration per engine found in the ratings: the random bot and the family's bots.

    Unsuffixed `medium@N` bots ran on `engine` (the ladder's `--engine`); a table whose Elo
    does not grow with iterations is refused, or thinned with `drop_non_monotone`."""
    randoms = [r for r in ratings if r.bot == RANDOM_BOT]
    if len(randoms) != 1:
        raise StrengthCalibrationError(f"the ladder must rate {RANDOM_BOT!r} exactly once")
    by_engine: dict[str, list[CalibrationPoint]] = {}
    mixtures: dict[str, list[CalibrationPoint]] = {}
    for rated in ratings:
        point, which = _family_point(rated, engine)
        if point is not None:
            into = mixtures if point.is_mixture else by_engine
            into.setdefault(which, []).append(point)
    if not by_engine:
        raise StrengthCalibrationError(f"the ladder rates no {FAMILY}@N bot")
    anchor = CalibrationPoint(RANDOM_BOT, randoms[0].elo, None)
    found = {}
    for which, points in sorted(by_engine.items()):
        points.sort(key=lambda p: p.iterations or 0)
        kept, dropped = _monotone(anchor, points, drop_non_monotone)
        mixed, left = (
            _mixtures(anchor, kept[0], mixtures.get(which, []), drop_non_monotone)
            if kept else ([], [])
        )
        dropped = [*left, *dropped]
        entry_source = {**source, **({"dropped": dropped} if dropped else {})}
        try:
            found[which] = Calibration(
                game, players, which, (anchor, *mixed, *kept), FAMILY, entry_source
            )
        except CalibrationFileError as error:
            raise StrengthCalibrationError(f"{which}: {error}") from None
    return found


def _family_point(rated: Rated, engine: str | None) -> tuple[CalibrationPoint | None, str]:
    """The point of a `medium@N` or `medium@N+random=S` bot and its engine (None: another
    bot, or a share that makes no mixture: 0, 1 or not a number in [0, 1])."""
    match = _FAMILY_BOT.fullmatch(rated.bot)
    share = 0.0
    if match is not None:
        iterations, suffix = match.group(1), match.group(2)
    else:
        match = _MIXTURE_BOT.fullmatch(rated.bot)
        if match is None:
            return None, ""
        iterations, suffix = match.group(1), match.group(3)
        try:
            share = parse_random_share(match.group(2))
        except ValueError:
            return None, ""
        if not 0.0 < share < 1.0:
            return None, ""
    which = suffix or engine
    if which not in ENGINES:
        raise StrengthCalibrationError(
            f"{rated.bot} names no engine: pass the ladder's engine (native or python)"
        )
    return CalibrationPoint(rated.bot, rated.elo, int(iterations), share), which


def _mixtures(
    anchor: CalibrationPoint,
    weakest: CalibrationPoint,
    points: list[CalibrationPoint],
    drop: bool,
) -> tuple[list[CalibrationPoint], list[str]]:
    """The mixture points of the weakest search point's budget (the others are left out), by
    falling share, each rated above the one before (from the random bot) and below `weakest`."""
    chosen = sorted(
        (p for p in points if p.iterations == weakest.iterations),
        key=lambda p: -p.random_share,
    )
    kept: list[CalibrationPoint] = []
    dropped: list[str] = []
    for point in chosen:
        below = kept[-1] if kept else anchor
        if kept and point.random_share == below.random_share:
            problem = f"{point.bot} has the random share of {below.bot}"
        elif not below.elo < point.elo < weakest.elo:
            problem = (
                f"{point.bot} ({point.elo:g}) is not rated between {below.bot} "
                f"({below.elo:g}) and {weakest.bot} ({weakest.elo:g})"
            )
        else:
            kept.append(point)
            continue
        if not drop:
            raise StrengthCalibrationError(
                f"{problem}: a mixture must be stronger the fewer random moves it plays; "
                "play more ladder games, or pass --drop-non-monotone"
            )
        dropped.append(point.bot)
    return kept, dropped


def _monotone(
    anchor: CalibrationPoint, points: list[CalibrationPoint], drop: bool
) -> tuple[list[CalibrationPoint], list[str]]:
    kept: list[CalibrationPoint] = []
    dropped: list[str] = []
    for point in points:
        best = kept[-1].elo if kept else anchor.elo
        if point.elo > best and (not kept or point.iterations != kept[-1].iterations):
            kept.append(point)
        elif drop:
            dropped.append(point.bot)
        else:
            raise StrengthCalibrationError(
                f"{point.bot} ({point.elo:g}) is not rated above every weaker bot (best so far "
                f"{best:g}): play more ladder games, or pass --drop-non-monotone"
            )
    return kept, dropped


def ladder_meta(folder: Path) -> dict[str, Any]:
    """What the ladder's folder says of its run: `ladder.json`'s settings (game, players,
    engine, bots, seed) and the number of lines of `games.jsonl` (empty: no such files)."""
    meta: dict[str, Any] = {}
    settings = folder / "ladder.json"
    if settings.is_file():
        try:
            loaded = orjson.loads(settings.read_bytes()[:MAX_RATINGS_BYTES])
        except orjson.JSONDecodeError as error:
            raise StrengthCalibrationError(f"{settings}: malformed JSON: {error}") from None
        if isinstance(loaded, dict):
            meta = {k: loaded[k] for k in ("game", "players", "engine") if k in loaded}
            meta["ladder"] = {
                k: loaded[k] for k in ("bots", "seed", "games_per_pairing") if k in loaded
            }
    games = folder / "games.jsonl"
    if games.is_file():
        with games.open("rb") as handle:
            meta["games"] = sum(1 for line in handle if line.strip())
    return meta


def calibration_source(
    meta: Mapping[str, Any], ratings_path: Path, command: str | None, date: str | None
) -> dict[str, Any]:
    """Provenance of the points: the ladder's command, the ratings file, date and games."""
    games = meta.get("games")
    if isinstance(games, list):
        games = len(games)
    return {
        "command": command or meta.get("command") or "boardbot ladder (command not recorded)",
        "ratings": str(ratings_path),
        "date": date or meta.get("date") or meta.get("created")
        or datetime.datetime.now(datetime.UTC).date().isoformat(),
        "games": games if isinstance(games, int) else None,
        **({"ladder": meta["ladder"]} if isinstance(meta.get("ladder"), dict) else {}),
    }


def write_calibration(
    found: Mapping[str, Calibration], game: str, players: int, directory: Path | None = None
) -> Path:
    """Write (merge into) the game's calibration file; other engines' entries are kept."""
    folder = directory or calibration_dir()
    path = folder / file_name(game, players)
    try:
        entries = {**read_table(game, players, folder), **found}
    except CalibrationFileError:
        entries = dict(found)  # an unreadable old file is replaced
    text = orjson.dumps(table_to_json(game, players, entries), option=orjson.OPT_INDENT_2)
    if len(text) > MAX_FILE_BYTES:
        raise StrengthCalibrationError(f"the table would exceed {MAX_FILE_BYTES} bytes")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text + b"\n")
    return path


def ladder_engine(asked: str | None, recorded: Any) -> str | None:
    """The engine the ladder's unsuffixed bots ran on: `asked` (the flag) or the ladder's own
    `native`/`python`; a flag contradicting the ladder is refused (`auto` decides nothing)."""
    known = recorded if recorded in ENGINES else None
    if asked is not None and known is not None and asked != known:
        raise StrengthCalibrationError(f"the ladder ran on {known}, not {asked}")
    return asked or known


def check_meta(meta: Mapping[str, Any], game: str, players: int) -> None:
    """Refuse ratings that say they are of another game or player count."""
    if meta.get("game") not in (None, game):
        raise StrengthCalibrationError(f"the ratings are of {meta['game']!r}, not {game!r}")
    if meta.get("players") not in (None, players):
        raise StrengthCalibrationError(
            f"the ratings are of {meta['players']} players, not {players}"
        )
