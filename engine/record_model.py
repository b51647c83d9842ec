"""The game record's values (a whole game as data), its error and its bounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import EngineError

RECORD_FORMAT = "boardbot-record"
"""The `format` field every record carries."""
RECORD_VERSION = 1
"""The format version this code reads and writes."""

MAX_RECORD_MOVES = 10_000
"""Most moves (decisions and chance outcomes together) one record may hold; a long game of
four-player Legend Raiders between bots takes under 1,000."""
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Largest record document (the server's default largest message): 10,000 moves with short
comments fit."""
MAX_STATE_BYTES = 256 * 1024
"""Largest `initial_state` (the service's bound on a state document,
`jobs.request_bounds.MAX_STATE_BYTES`, which a test keeps equal)."""
MAX_OPTIONS_BYTES = 16 * 1024
"""Largest `options` document (the service's bound on options)."""
MAX_MOVE_BYTES = 16 * 1024
"""Largest `move` document of one recorded move (the service's bound on a move)."""
MAX_NOTATION_CHARS = 256
"""Longest move notation (the service's bound)."""
MAX_NAME_CHARS = 64
"""Longest game name or player name."""
MAX_COMMENT_CHARS = 2_000
"""Longest comment, on a move or on the whole game."""
MAX_EVENT_CHARS = 256
"""Longest `event`."""
MAX_DATE_CHARS = 64
"""Longest `date` (an ISO 8601 date-time is about 25 characters)."""
MAX_CLOCK_MS = 7 * 24 * 3600 * 1000.0
"""Longest time one move may be recorded as taking (a week, for games played by mail)."""
MAX_SEED = 2**64 - 1
"""Largest seed (NewGame's seed is a 64-bit unsigned integer)."""
MAX_SEATS = 16
"""Most entries of `players` (every game has far fewer seats)."""
MAX_RESULT_VALUE = 1e9
"""Largest magnitude of a number in `result` (scores are small integers)."""

PLAYER_KINDS = ("human", "bot")
"""What `players[i].kind` may say."""


class RecordError(EngineError):
    """A game record that is malformed, or whose moves do not replay: `json_path` names the
    place in the record (`$.moves[12].move`) and `reason` says what is wrong there."""

    @property
    def json_path(self) -> str:
        """The JSON path of the fault inside the record document."""
        return self.path


@dataclass(frozen=True)
class RecordedMove:
    """One step of a game: a seat's decision, or (seat -1, CHANCE) a chance outcome."""

    seat: int
    move: JsonDict
    """The move's JSON form (`action_to_json` in the position before it)."""
    notation: str | None = None
    """The move's notation in that position (checked against the move when replayed)."""
    clock_ms: float | None = None
    """Milliseconds the mover took to decide."""
    comment: str | None = None


@dataclass(frozen=True)
class Record:
    """A finished or unfinished game: its setup, its first position and every move in order."""

    game: str
    options: JsonDict
    initial_state: JsonDict
    """The first position's full JSON (`state_to_json` with no observer)."""
    moves: tuple[RecordedMove, ...]
    seed: int | None = None
    """The seed that dealt the game (informative: replay starts from `initial_state`)."""
    players: tuple[dict[str, Any], ...] = ()
    """One `{"seat", "name", "kind"}` per seat, or none."""
    result: JsonDict | None = None
    """`{"returns": [...], "scores": [...]}` of a finished game (None: unfinished)."""
    date: str | None = None
    """When the game was played, as an ISO 8601 date-time."""
    event: str | None = None
    comment: str | None = None
