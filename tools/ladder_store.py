"""The ladder's folder: its settings (`ladder.json`) and one JSON line per finished game
(`games.jsonl`), so that a stopped run resumes and a report can be redrawn without playing."""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson

from boardbot.engine.errors import BoardbotError
from boardbot.tools.ladder_schedule import ScheduledGame
from boardbot.tools.match import GameRecord

SETTINGS_FILE = "ladder.json"
GAMES_FILE = "games.jsonl"
FORMAT = 1
"""Version of the folder's format and schedule, stored with the settings."""


class LadderError(BoardbotError, RuntimeError):
    """A ladder cannot run or report (settings differ from the folder's, files missing...)."""


@dataclass(frozen=True)
class LadderSettings:
    """Everything that decides which games the ladder plays (not how fast it plays them)."""

    game: str
    options: dict[str, Any]
    players: int
    bots: tuple[str, ...]
    games_per_pairing: int
    seed: int
    engine: str
    option_sets: tuple[dict[str, Any], ...]
    format: int = FORMAT

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LadderSettings:
        """Settings read back from `ladder.json`."""
        fields = dict(data)
        fields["bots"] = tuple(fields["bots"])
        fields["option_sets"] = tuple(fields["option_sets"])
        return cls(**fields)


def game_entry(scheduled: ScheduledGame, record: GameRecord) -> dict[str, Any]:
    """The games-file line of one played game: what identifies it and how it went (a game stopped
    at the step limit has `"unfinished": true` and no returns)."""
    return {
        "table": list(scheduled.table),
        "game": scheduled.index,
        "deal": scheduled.deal,
        "seed": record.seed,
        "options": record.options,
        "seating": list(record.seating),
        "seats": [scheduled.table[b] for b in record.seating],
        "returns": list(record.returns),
        "scores": list(record.scores),
        "decisions": record.decisions,
        "decision_seconds": list(record.decision_seconds),
        "decision_counts": list(record.decision_counts),
        **({} if record.finished else {"unfinished": True}),
    }


def entry_key(entry: dict[str, Any]) -> tuple[tuple[str, ...], int]:
    """The (table, index) key of a games-file line."""
    return tuple(entry["table"]), int(entry["game"])


def extends(wanted: dict[str, Any], stored: dict[str, Any]) -> bool:
    """True when the settings `wanted` keep every game of `stored`: the same settings but for
    bots added (the stored ones in their order) and as many games per pairing or more. Tables
    and deals are named by their bots and the ladder's seed, so the games played stay
    scheduled, with the same seeds."""
    same = all(
        wanted.get(k) == stored.get(k)
        for k in {*wanted, *stored}
        if k not in ("bots", "games_per_pairing")
    )
    kept = [bot for bot in wanted["bots"] if bot in stored["bots"]]
    return (
        same
        and kept == list(stored["bots"])
        and wanted["games_per_pairing"] >= stored["games_per_pairing"]
    )


class LadderStore:
    """Reads and appends the files of one ladder folder."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.settings_path = self.directory / SETTINGS_FILE
        self.games_path = self.directory / GAMES_FILE

    def read_settings(self) -> LadderSettings:
        """The settings of an existing ladder folder."""
        if not self.settings_path.exists():
            raise LadderError(f"{self.settings_path} does not exist: no ladder was run into "
                              f"{self.directory}")
        return LadderSettings.from_json(orjson.loads(self.settings_path.read_bytes()))

    def open(self, settings: LadderSettings) -> None:
        """Create the folder for `settings`, or check that it holds a ladder with the same
        settings or settings `settings` extends (more bots, more games per pairing), which are
        then stored: the games already played stay part of the extended ladder."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.settings_path.exists():
            stored = orjson.loads(self.settings_path.read_bytes())
            wanted = orjson.loads(orjson.dumps(settings.to_json()))
            if stored == wanted:
                return
            if not extends(wanted, stored):
                keys = sorted(k for k in {*stored, *wanted} if stored.get(k) != wanted.get(k))
                details = "; ".join(
                    f"{k}: folder has {stored.get(k)!r}, asked {wanted.get(k)!r}" for k in keys
                )
                raise LadderError(
                    f"{self.directory} holds a ladder with other settings ({details}); "
                    "rerun with the folder's settings to resume it, extend it (the same "
                    "settings with bots added, keeping their order, or more games per pairing), "
                    "or choose another --out"
                )
        elif self.games_path.exists():
            raise LadderError(
                f"{self.games_path} exists without {SETTINGS_FILE}: choose another --out"
            )
        self.settings_path.write_bytes(
            orjson.dumps(settings.to_json(), option=orjson.OPT_INDENT_2) + b"\n"
        )

    def load_games(self) -> list[dict[str, Any]]:
        """Every finished game in the games file; a last line cut short by a stopped run is
        dropped from the file (its game is played again)."""
        if not self.games_path.exists():
            return []
        raw = self.games_path.read_bytes()
        lines = raw.split(b"\n")
        entries = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entries.append(orjson.loads(line))
            except orjson.JSONDecodeError:
                if number < len(lines):
                    raise LadderError(f"{self.games_path}:{number} is not a JSON line") from None
                print(f"ladder: dropping the unfinished last line of {self.games_path}",
                      file=sys.stderr)
                self.games_path.write_bytes(raw[: len(raw) - len(line)])
                return entries
        if not raw.endswith(b"\n") and raw.strip():
            with self.games_path.open("ab") as handle:
                handle.write(b"\n")
        return entries

    def append(self, entry: dict[str, Any]) -> None:
        """Add one finished game to the games file, flushed to disk at once."""
        with self.games_path.open("ab") as handle:
            handle.write(orjson.dumps(entry) + b"\n")
            handle.flush()
