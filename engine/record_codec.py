"""A game record to and from its JSON document (format `boardbot-record`, version 1).

Reading checks the shape and the bounds of every field and names the JSON path of the first
fault; whether the moves are legal is `replay`'s job (it needs the game's rules).
"""

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import Any

import orjson

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import echo
from boardbot.engine.jsonread import JsonReader, nesting_error, text_depth_path
from boardbot.engine.record_model import (
    MAX_CLOCK_MS,
    MAX_COMMENT_CHARS,
    MAX_DATE_CHARS,
    MAX_EVENT_CHARS,
    MAX_MOVE_BYTES,
    MAX_NAME_CHARS,
    MAX_NOTATION_CHARS,
    MAX_OPTIONS_BYTES,
    MAX_RECORD_BYTES,
    MAX_RECORD_MOVES,
    MAX_RESULT_VALUE,
    MAX_SEATS,
    MAX_SEED,
    MAX_STATE_BYTES,
    PLAYER_KINDS,
    RECORD_FORMAT,
    RECORD_VERSION,
    Record,
    RecordedMove,
    RecordError,
)
from boardbot.engine.registry import list_games

TOP_FIELDS = (
    "format", "version", "game", "options", "seed", "players", "initial_state", "moves",
    "result", "date", "event", "comment",
)  # fmt: skip
"""Every field of a record, in the order a written record gives them."""
MOVE_FIELDS = ("seat", "move", "notation", "clock_ms", "comment")
PLAYER_FIELDS = ("seat", "name", "kind")
RESULT_FIELDS = ("returns", "scores")


def record_from_json(data: object) -> Record:
    """The record a decoded JSON document holds; RecordError names the path of its first fault."""
    root = JsonReader.document(data, (), RecordError).obj(TOP_FIELDS)
    form = root.get("format")
    if form.as_str() != RECORD_FORMAT:
        raise form.fail(f"expected {RECORD_FORMAT!r}, got {echo(form.value)}")
    version = root.get("version")
    if version.as_int() != RECORD_VERSION:
        raise version.fail(
            f"unsupported version {echo(version.value)}: this boardbot reads version "
            f"{RECORD_VERSION}"
        )
    game = root.get("game")
    name = _text(game, MAX_NAME_CHARS)
    if name not in list_games():
        raise game.fail(f"unknown game {echo(name)}; known: {', '.join(list_games())}")
    moves = root.get("moves").as_list(0, MAX_RECORD_MOVES)
    return Record(
        game=name,
        options=_document(root.get("options"), MAX_OPTIONS_BYTES),
        initial_state=_full_state(root.get("initial_state")),
        moves=tuple(_move(m) for m in moves),
        seed=_optional(root, "seed", lambda r: r.as_int(0, MAX_SEED)),
        players=_optional(root, "players", _players) or (),
        result=_optional(root, "result", _result),
        date=_optional(root, "date", _date),
        event=_optional(root, "event", lambda r: _text(r, MAX_EVENT_CHARS)),
        comment=_optional(root, "comment", lambda r: _text(r, MAX_COMMENT_CHARS)),
    )


def record_to_json(record: Record) -> JsonDict:
    """The record's JSON document (optional fields left out when they are unset)."""
    data: JsonDict = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": record.game,
        "options": record.options,
    }
    if record.seed is not None:
        data["seed"] = record.seed
    if record.players:
        data["players"] = [dict(p) for p in record.players]
    data["initial_state"] = record.initial_state
    data["moves"] = [_move_json(m) for m in record.moves]
    for field in ("result", "date", "event", "comment"):
        value = getattr(record, field)
        if value is not None:
            data[field] = value
    return data


def record_bytes(record: Record) -> bytes:
    """The record as JSON text: one line per field and one per move, for reading and diffs."""
    data = record_to_json(record)
    lines = []
    for key, value in data.items():
        if key == "moves" and value:
            items = ",\n".join("    " + orjson.dumps(m).decode() for m in value)
            lines.append(f'  "moves": [\n{items}\n  ]')
        else:
            lines.append(f"  {orjson.dumps(key).decode()}: {orjson.dumps(value).decode()}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode()


def record_from_bytes(raw: bytes) -> Record:
    """The record in JSON text `raw`, bounded by MAX_RECORD_BYTES; RecordError at the fault."""
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError("$", f"{len(raw)} bytes, at most {MAX_RECORD_BYTES} allowed")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        deep = text_depth_path(raw)
        if deep is not None:  # before the parser's own recursion limit is blamed
            raise nesting_error(deep, RecordError) from None
        raise RecordError("$", f"malformed JSON: {str(error)[:200]}") from None
    return record_from_json(data)


def read_record(path: str | Path) -> Record:
    """The record in the file at `path` (OSError when it cannot be read)."""
    with open(path, "rb") as file:
        raw = file.read(MAX_RECORD_BYTES + 1)
    return record_from_bytes(raw)


def write_record(record: Record, path: str | Path) -> None:
    """Write `record` to the file at `path` as JSON text (`record_bytes`)."""
    Path(path).write_bytes(record_bytes(record))


def checked_players(players: object) -> tuple[dict[str, Any], ...]:
    """`players` as a record's `players` field reads them (RecordError at `$.players[i]`)."""
    return _players(JsonReader.document(players, ("players",), RecordError))


def checked_move(move: RecordedMove, index: int) -> RecordedMove:
    """`move` as the record's move `index` reads it (RecordError at `$.moves[index]...`)."""
    return _move(JsonReader.document(_move_json(move), ("moves", index), RecordError))


def _move(reader: JsonReader) -> RecordedMove:
    reader.obj(MOVE_FIELDS)
    return RecordedMove(
        seat=reader.get("seat").as_int(-1, MAX_SEATS - 1),
        move=_document(reader.get("move"), MAX_MOVE_BYTES),
        notation=_optional(reader, "notation", lambda r: _text(r, MAX_NOTATION_CHARS)),
        clock_ms=_optional(reader, "clock_ms", lambda r: _number(r, 0.0, MAX_CLOCK_MS)),
        comment=_optional(reader, "comment", lambda r: _text(r, MAX_COMMENT_CHARS)),
    )


def _move_json(move: RecordedMove) -> JsonDict:
    data: JsonDict = {"seat": move.seat, "move": move.move}
    for field in ("notation", "clock_ms", "comment"):
        value = getattr(move, field)
        if value is not None:
            data[field] = value
    return data


def _players(reader: JsonReader) -> tuple[dict[str, Any], ...]:
    players = []
    for index, entry in enumerate(reader.as_list(1, MAX_SEATS)):
        entry.obj(PLAYER_FIELDS)
        seat = entry.get("seat")
        if seat.as_int() != index:
            raise seat.fail(f"players are listed by seat: entry {index} must be seat {index}")
        player: dict[str, Any] = {"seat": index, "name": _text(entry.get("name"), MAX_NAME_CHARS)}
        player["kind"] = entry.get("kind").as_str(PLAYER_KINDS)
        players.append(player)
    return tuple(players)


def _result(reader: JsonReader) -> JsonDict:
    reader.obj(RESULT_FIELDS)
    returns = [_number(r, -MAX_RESULT_VALUE, MAX_RESULT_VALUE)
               for r in reader.get("returns").as_list(1, MAX_SEATS)]
    scores = reader.get("scores")
    values = [_number(s, -MAX_RESULT_VALUE, MAX_RESULT_VALUE) for s in scores.as_list(1, MAX_SEATS)]
    if len(values) != len(returns):
        raise scores.fail(f"expected {len(returns)} scores (one per return), got {len(values)}")
    return {"returns": returns, "scores": values}


def _date(reader: JsonReader) -> str:
    text = _text(reader, MAX_DATE_CHARS)
    try:
        datetime.datetime.fromisoformat(text)
    except ValueError:
        raise reader.fail(
            f"expected an ISO 8601 date-time such as 2026-12-02T14:00:00Z, got {echo(text)}"
        ) from None
    return text


def _optional(reader: JsonReader, key: str, read: Any) -> Any:
    """`read` of field `key`, or None when it is absent or null."""
    if not reader.has(key) or reader.value[key] is None:
        return None
    return read(reader.get(key))


def _text(reader: JsonReader, limit: int) -> str:
    text = reader.as_str()
    if len(text) > limit:
        raise reader.fail(f"{len(text)} characters, at most {limit} allowed")
    return text


def _number(reader: JsonReader, low: float, high: float) -> float:
    value = reader.value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise reader.fail(f"expected a number, got {echo(value)}")
    if not math.isfinite(value) or not low <= value <= high:
        raise reader.fail(f"must be in {low:g}..{high:g}, got {echo(value)}")
    return value


def _full_state(reader: JsonReader) -> JsonDict:
    """The first position: a full state, never a seat's view (whose hidden cards a decoder
    would have to guess, so that the recorded moves no longer fit)."""
    state = _document(reader, MAX_STATE_BYTES)
    if state.get("observer") is not None:
        raise reader.child("observer").fail(
            "a record starts from the full state (no observer), not from a seat's view"
        )
    return state


def _document(reader: JsonReader, limit: int) -> JsonDict:
    """An object field whose JSON text is at most `limit` bytes."""
    reader.obj()
    try:
        size = len(orjson.dumps(reader.value))
    except (orjson.JSONEncodeError, TypeError):
        raise reader.fail("is not a JSON document (a key or value JSON cannot hold)") from None
    if size > limit:
        raise reader.fail(f"{size} bytes of JSON, at most {limit} allowed")
    return reader.value
