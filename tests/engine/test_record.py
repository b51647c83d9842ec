"""Game records: round trips, every refusal with its JSON path, replays, and the schema."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from boardbot.engine import CHANCE, get_game
from boardbot.engine.record import (
    MAX_RECORD_BYTES,
    MAX_RECORD_MOVES,
    Record,
    RecordBuilder,
    RecordedMove,
    RecordError,
    read_record,
    record_bytes,
    record_from_bytes,
    record_from_json,
    record_to_json,
    replay,
    write_record,
)
from boardbot.engine.record_model import (
    MAX_CLOCK_MS,
    MAX_COMMENT_CHARS,
    MAX_DATE_CHARS,
    MAX_EVENT_CHARS,
    MAX_NAME_CHARS,
    MAX_NOTATION_CHARS,
    MAX_SEATS,
    MAX_SEED,
)
from tests.engine.records import SCHEMA, random_record
from tests.engine.schema_check import schema_errors

GAMES = [
    ("leda", {"clans": ["cats", "sharks"]}),
    ("leda", {"clans": ["pandas", "scorpions"]}),
    ("legend_raiders", {"players": 2}),
    ("legend_raiders", {"players": 3}),
    ("legend_raiders", {"players": 4, "variant": "diceless"}),
]


@pytest.fixture(scope="module")
def leda_record() -> Record:
    return random_record("leda", {"clans": ["cats", "sharks"]}, 3)[0]


@pytest.fixture(scope="module")
def raiders_record() -> Record:
    return random_record("legend_raiders", {"players": 3}, 5)[0]


def refusal(action: Callable[[], object]) -> RecordError:
    with pytest.raises(RecordError) as caught:
        action()
    return caught.value


# --- round trips and replays -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_random_game_round_trips_and_replays_to_its_end(
    name: str, options: dict[str, Any], tmp_path: Path
) -> None:
    game = get_game(name)
    record, last = random_record(name, options, 11)
    assert record.result == {
        "returns": list(game.returns(last)), "scores": list(game.scores(last))}
    assert any(m.seat == CHANCE for m in record.moves), "chance outcomes are recorded"
    assert record_from_json(record_to_json(record)) == record
    assert record_from_json(orjson.loads(orjson.dumps(record_to_json(record)))) == record
    assert record_from_bytes(record_bytes(record)) == record
    write_record(record, tmp_path / "game.json")
    assert read_record(tmp_path / "game.json") == record
    positions = replay(game, read_record(tmp_path / "game.json"))
    assert [p.index for p in positions] == list(range(len(record.moves) + 1))
    assert game.state_to_json(positions[-1].state) == game.state_to_json(last)
    assert positions[-1].move is None and positions[-1].action is None
    for position in positions[:-1]:
        assert position.move == record.moves[position.index]
        assert game.action_to_json(position.state, position.action) == position.move.move


def test_an_unfinished_game_has_no_result_and_replays_to_where_it_stopped() -> None:
    game = get_game("legend_raiders")
    record, last = random_record("legend_raiders", {"players": 2}, 4, steps=30)
    assert record.result is None and len(record.moves) == 30
    assert "result" not in record_to_json(record)
    assert game.state_to_json(replay(game, record)[-1].state) == game.state_to_json(last)


def test_the_written_text_has_a_line_per_field_and_per_move(leda_record: Record) -> None:
    lines = record_bytes(leda_record).decode().splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert lines[1] == '  "format": "boardbot-record",'
    assert len(lines) == 2 + 11 + 1 + len(leda_record.moves)  # braces, fields, "]", moves
    assert json.loads("\n".join(lines)) == record_to_json(leda_record)


def test_optional_fields_given_as_null_read_as_absent(leda_record: Record) -> None:
    data = record_to_json(leda_record)
    for key in ("seed", "players", "result", "date", "event", "comment"):
        data[key] = None
    data["moves"][0].update(notation=None, clock_ms=None, comment=None)
    read = record_from_json(data)
    assert read.seed is None and read.players == () and read.result is None
    assert read.moves[0] == RecordedMove(read.moves[0].seat, read.moves[0].move)


def test_the_smallest_record_is_a_setup_with_no_moves() -> None:
    game = get_game("leda")
    state = game.new_state({}, 1)
    data = {"format": "boardbot-record", "version": 1, "game": "leda", "options": {},
            "initial_state": game.state_to_json(state), "moves": []}
    record = record_from_json(data)
    assert record_to_json(record) == data
    assert len(replay(game, record)) == 1


# --- refusals of the document's shape and bounds -----------------------------------------------

Edit = Callable[[dict[str, Any]], object]


def _set(path: tuple[str | int, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return edit


def _drop(key: str) -> Edit:
    return lambda data: data.pop(key)


def _nested(depth: int) -> Any:
    value: Any = {}
    for _ in range(depth):
        value = {"a": value}
    return value


SHAPE_FAULTS: list[tuple[str, Edit, str]] = [
    ("unknown field", _set(("winner",), 1), "$.winner"),
    ("format missing", _drop("format"), "$.format"),
    ("format wrong", _set(("format",), "pgn"), "$.format"),
    ("version 2", _set(("version",), 2), "$.version"),
    ("version text", _set(("version",), "1"), "$.version"),
    ("game unknown", _set(("game",), "chess"), "$.game"),
    ("game too long", _set(("game",), "x" * (MAX_NAME_CHARS + 1)), "$.game"),
    ("options a list", _set(("options",), []), "$.options"),
    ("options too large", _set(("options",), {"x": "y" * 17_000}), "$.options"),
    ("options too deep", _set(("options",), _nested(40)), "$.options" + ".a" * 31),
    ("state missing", _drop("initial_state"), "$.initial_state"),
    ("state a string", _set(("initial_state",), "{}"), "$.initial_state"),
    ("state too large", _set(("initial_state", "pad"), "x" * 300_000), "$.initial_state"),
    ("state a seat's view", _set(("initial_state", "observer"), 0), "$.initial_state.observer"),
    ("moves missing", _drop("moves"), "$.moves"),
    ("moves an object", _set(("moves",), {}), "$.moves"),
    ("moves too many", _set(("moves",), [{}] * (MAX_RECORD_MOVES + 1)), "$.moves"),
    ("move not an object", _set(("moves", 2), 7), "$.moves[2]"),
    ("move field unknown", _set(("moves", 2, "who"), 0), "$.moves[2].who"),
    ("move without seat", lambda d: d["moves"][2].pop("seat"), "$.moves[2].seat"),
    ("move seat below -1", _set(("moves", 2, "seat"), -2), "$.moves[2].seat"),
    ("move seat too big", _set(("moves", 2, "seat"), MAX_SEATS), "$.moves[2].seat"),
    ("move without move", lambda d: d["moves"][2].pop("move"), "$.moves[2].move"),
    ("move a string", _set(("moves", 2, "move"), "pass"), "$.moves[2].move"),
    ("move too large", _set(("moves", 2, "move", "pad"), "x" * 17_000), "$.moves[2].move"),
    ("notation a number", _set(("moves", 2, "notation"), 3), "$.moves[2].notation"),
    ("notation too long", _set(("moves", 2, "notation"), "x" * (MAX_NOTATION_CHARS + 1)),
     "$.moves[2].notation"),
    ("clock negative", _set(("moves", 2, "clock_ms"), -1), "$.moves[2].clock_ms"),
    ("clock too long", _set(("moves", 2, "clock_ms"), MAX_CLOCK_MS * 2), "$.moves[2].clock_ms"),
    ("clock infinite", _set(("moves", 2, "clock_ms"), float("inf")), "$.moves[2].clock_ms"),
    ("clock a boolean", _set(("moves", 2, "clock_ms"), True), "$.moves[2].clock_ms"),
    ("move comment too long", _set(("moves", 2, "comment"), "x" * (MAX_COMMENT_CHARS + 1)),
     "$.moves[2].comment"),
    ("seed negative", _set(("seed",), -1), "$.seed"),
    ("seed too big", _set(("seed",), MAX_SEED + 1), "$.seed"),
    ("seed a float", _set(("seed",), 1.5), "$.seed"),
    ("players empty", _set(("players",), []), "$.players"),
    ("players too many", _set(("players",), [{}] * (MAX_SEATS + 1)), "$.players"),
    ("player out of order", _set(("players", 1, "seat"), 0), "$.players[1].seat"),
    ("player kind", _set(("players", 0, "kind"), "robot"), "$.players[0].kind"),
    ("player name long", _set(("players", 0, "name"), "x" * (MAX_NAME_CHARS + 1)),
     "$.players[0].name"),
    ("player field", _set(("players", 0, "elo"), 1200), "$.players[0].elo"),
    ("player nameless", lambda d: d["players"][0].pop("name"), "$.players[0].name"),
    ("result a list", _set(("result",), [1, 0]), "$.result"),
    ("result field", _set(("result", "winner"), 0), "$.result.winner"),
    ("result no scores", lambda d: d["result"].pop("scores"), "$.result.scores"),
    ("result scores short", _set(("result", "scores"), [1]), "$.result.scores"),
    ("result return text", _set(("result", "returns", 0), "win"), "$.result.returns[0]"),
    ("date not ISO", _set(("date",), "yesterday"), "$.date"),
    ("date too long", _set(("date",), "2026-12-02" + " " * MAX_DATE_CHARS), "$.date"),
    ("event too long", _set(("event",), "x" * (MAX_EVENT_CHARS + 1)), "$.event"),
    ("comment a list", _set(("comment",), ["x"]), "$.comment"),
]


@pytest.mark.parametrize(("edit", "path"), [(e, p) for _, e, p in SHAPE_FAULTS],
                         ids=[label for label, _, _ in SHAPE_FAULTS])
def test_a_malformed_record_is_refused_at_its_json_path(
    leda_record: Record, edit: Edit, path: str
) -> None:
    data = orjson.loads(orjson.dumps(record_to_json(leda_record)))
    edit(data)
    error = refusal(lambda: record_from_json(data))
    assert error.json_path == path, error
    assert str(error) == f"{path}: {error.reason}" and error.reason


def test_a_record_that_is_not_an_object_is_refused_at_the_root() -> None:
    assert refusal(lambda: record_from_json([])).json_path == "$"
    assert "expected an object" in refusal(lambda: record_from_json(None)).reason


def test_record_text_is_bounded_and_must_be_json(leda_record: Record) -> None:
    error = refusal(lambda: record_from_bytes(b" " * (MAX_RECORD_BYTES + 1)))
    assert error.json_path == "$" and f"at most {MAX_RECORD_BYTES}" in error.reason
    error = refusal(lambda: record_from_bytes(b'{"format": '))
    assert error.json_path == "$" and error.reason.startswith("malformed JSON")
    deep = b'{"options": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    error = refusal(lambda: record_from_bytes(deep))
    assert error.json_path == "$.options" + "[0]" * 31 and "nested deeper" in error.reason


def test_a_value_json_cannot_hold_is_refused(leda_record: Record) -> None:
    data = record_to_json(leda_record)
    data["options"] = {"x": object()}
    assert refusal(lambda: record_from_json(data)).json_path == "$.options"


# --- refusals of a replay ------------------------------------------------------------------------


def _with_move(record: Record, index: int, **changes: Any) -> Record:
    moves = list(record.moves)
    moves[index] = dataclasses.replace(moves[index], **changes)
    return dataclasses.replace(record, moves=tuple(moves))


def _first(record: Record, chance: bool) -> int:
    return next(i for i, m in enumerate(record.moves) if (m.seat == CHANCE) == chance)


def test_a_move_by_a_seat_not_to_move_is_refused_at_its_seat(raiders_record: Record) -> None:
    game = get_game("legend_raiders")
    index = _first(raiders_record, chance=False)
    seat = raiders_record.moves[index].seat
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, seat=(seat + 1) % 3)))
    assert error.json_path == f"$.moves[{index}].seat"
    assert error.reason == f"seat {(seat + 1) % 3} is not to move here: seat {seat} is"
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, seat=CHANCE)))
    assert error.json_path == f"$.moves[{index}].seat"
    chance = _first(raiders_record, chance=True)
    error = refusal(lambda: replay(game, _with_move(raiders_record, chance, seat=0)))
    assert error.json_path == f"$.moves[{chance}].seat"
    assert error.reason == "seat 0 is not to move here: chance (seat -1) is"


def test_an_illegal_move_is_refused_at_its_move(raiders_record: Record) -> None:
    game = get_game("legend_raiders")
    index = _first(raiders_record, chance=False)
    illegal = {"type": "complete", "tile": "olympus"}
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, move=illegal,
                                                    notation=None)))
    assert error.json_path == f"$.moves[{index}].move" and "not legal" in error.reason
    unknown = {"type": "teleport"}
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, move=unknown,
                                                    notation=None)))
    assert error.json_path == f"$.moves[{index}].move.type"
    chance = raiders_record.moves[_first(raiders_record, chance=True)].move
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, move=chance,
                                                    notation=None)))
    assert error.json_path == f"$.moves[{index}].move"


def test_an_impossible_chance_outcome_is_refused_at_its_move(raiders_record: Record) -> None:
    game = get_game("legend_raiders")
    reveals = [i for i, m in enumerate(raiders_record.moves)
               if m.seat == CHANCE and m.move["type"] == "reveal"]
    first, later = reveals[0], reveals[-1]
    assert raiders_record.moves[first].move != raiders_record.moves[later].move
    # What came out at the first reveal is no longer there to come out again.
    again = raiders_record.moves[first].move
    error = refusal(lambda: replay(game, _with_move(raiders_record, later, move=again,
                                                    notation=None)))
    assert error.json_path == f"$.moves[{later}].move"
    assert "not a possible outcome" in error.reason


def test_an_impossible_shuffle_is_refused_at_its_order(leda_record: Record) -> None:
    game = get_game("leda")
    index = _first(leda_record, chance=True)
    assert leda_record.moves[index].move["type"] == "shuffle"
    error = refusal(lambda: replay(game, _with_move(
        leda_record, index, move={"type": "shuffle", "order": [0, 0, 1]}, notation=None)))
    assert error.json_path == f"$.moves[{index}].move.order"


def test_a_notation_that_names_another_move_is_refused(raiders_record: Record) -> None:
    game = get_game("legend_raiders")
    index = _first(raiders_record, chance=False)
    error = refusal(lambda: replay(game, _with_move(raiders_record, index, notation="stop")))
    assert error.json_path == f"$.moves[{index}].notation"
    assert error.reason.startswith("'stop' does not name this move, which is ")


def test_moves_past_the_end_are_refused(leda_record: Record) -> None:
    game = get_game("leda")
    n = len(leda_record.moves)
    longer = dataclasses.replace(leda_record, moves=(*leda_record.moves, leda_record.moves[-1]))
    error = refusal(lambda: replay(game, longer))
    assert error.json_path == f"$.moves[{n}]"
    assert error.reason == f"the game is over after {n} moves, yet the record goes on"


def test_a_result_the_moves_do_not_reach_is_refused(leda_record: Record) -> None:
    game = get_game("leda")
    assert leda_record.result is not None
    returns, scores = leda_record.result["returns"], leda_record.result["scores"]
    swapped = dataclasses.replace(leda_record, result={"returns": returns[::-1], "scores": scores})
    assert refusal(lambda: replay(game, swapped)).json_path == "$.result.returns"
    more = dataclasses.replace(
        leda_record, result={"returns": returns, "scores": [s + 1 for s in scores]})
    assert refusal(lambda: replay(game, more)).json_path == "$.result.scores"
    cut = dataclasses.replace(leda_record, moves=leda_record.moves[:-3])
    error = refusal(lambda: replay(game, cut))
    assert error.json_path == "$.result" and "not over" in error.reason


def test_a_record_of_another_game_or_a_bad_state_is_refused(leda_record: Record) -> None:
    error = refusal(lambda: replay(get_game("legend_raiders"), leda_record))
    assert error.json_path == "$.game"
    state = dict(leda_record.initial_state, active=7)
    error = refusal(lambda: replay(get_game("leda"), dataclasses.replace(
        leda_record, initial_state=state)))
    assert error.json_path == "$.initial_state.active"
    three = (*leda_record.players, {"seat": 2, "name": "x", "kind": "human"})
    error = refusal(lambda: replay(get_game("leda"), dataclasses.replace(
        leda_record, players=three)))
    assert error.json_path == "$.players" and error.reason.startswith("expected 2 players")


def test_the_builder_refuses_what_a_record_cannot_hold() -> None:
    game = get_game("leda")
    state = game.new_state({}, 2)
    error = refusal(lambda: RecordBuilder(game, state, {}, players=[
        {"seat": 0, "name": "a", "kind": "human"}]))
    assert error.json_path == "$.players"
    error = refusal(lambda: RecordBuilder(game, state, {}, players=[
        {"seat": 0, "name": "a", "kind": "human"}, {"seat": 1, "name": "b", "kind": "cat"}]))
    assert error.json_path == "$.players[1].kind"
    builder = RecordBuilder(game, state, {})
    action = game.legal_actions(state)[0]
    assert refusal(lambda: builder.add(state, action, clock_ms=-5.0)).json_path == (
        "$.moves[0].clock_ms")
    builder.add(state, action, comment="fine")
    assert refusal(lambda: builder.add(state, action, comment="x" * 5000)).json_path == (
        "$.moves[1].comment")
    assert len(builder.moves) == 1


# --- the schema ----------------------------------------------------------------------------------


def test_the_schema_carries_every_bound() -> None:
    top, defs = SCHEMA["properties"], SCHEMA["$defs"]
    assert top["moves"]["maxItems"] == MAX_RECORD_MOVES
    assert top["game"]["maxLength"] == defs["player"]["properties"]["name"]["maxLength"] == (
        MAX_NAME_CHARS)
    assert top["seed"]["oneOf"][1]["maximum"] == MAX_SEED
    assert top["players"]["oneOf"][1]["maxItems"] == MAX_SEATS
    assert top["date"]["oneOf"][1]["maxLength"] == MAX_DATE_CHARS
    assert top["event"]["oneOf"][1]["maxLength"] == MAX_EVENT_CHARS
    assert top["comment"]["oneOf"][1]["maxLength"] == MAX_COMMENT_CHARS
    move = defs["move"]["properties"]
    assert move["seat"]["minimum"] == CHANCE and move["seat"]["maximum"] == MAX_SEATS - 1
    assert move["notation"]["oneOf"][1]["maxLength"] == MAX_NOTATION_CHARS
    assert move["clock_ms"]["oneOf"][1]["maximum"] == MAX_CLOCK_MS
    assert move["comment"]["oneOf"][1]["maxLength"] == MAX_COMMENT_CHARS
    assert defs["player"]["properties"]["kind"]["enum"] == ["human", "bot"]
    assert set(SCHEMA["required"]) == {
        "format", "version", "game", "options", "initial_state", "moves"}


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_written_records_conform_to_the_schema(name: str, options: dict[str, Any]) -> None:
    record, _ = random_record(name, options, 21)
    data = json.loads(record_bytes(record))
    assert schema_errors(data, SCHEMA, SCHEMA) == []
    unfinished, _ = random_record(name, options, 22, steps=5)
    assert schema_errors(record_to_json(unfinished), SCHEMA, SCHEMA) == []


@pytest.mark.parametrize(("edit", "path"), [(e, p) for _, e, p in SHAPE_FAULTS
                                            if p.startswith(("$.moves[2].c", "$.players[0].k",
                                                             "$.format", "$.version", "$.seed",
                                                             "$.initial_state.o"))])
def test_the_schema_refuses_what_the_reader_refuses(
    leda_record: Record, edit: Edit, path: str
) -> None:
    data = orjson.loads(orjson.dumps(record_to_json(leda_record)))
    edit(data)
    errors = schema_errors(data, SCHEMA, SCHEMA)
    field = "$." + path.removeprefix("$.").split(".")[0].split("[")[0]  # oneOf says it there
    assert errors and all(e.startswith(field) for e in errors), errors


# --- the documentation ---------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_documented_example_reads_and_replays() -> None:
    record = read_record(DOCS / "example-record.json")
    game = get_game(record.game)
    positions = replay(game, record)
    assert len(positions) == 10 and record.result is None
    shown = (DOCS / "records.md").read_text()
    for move in record_bytes(record).decode().splitlines()[9:18]:  # the moves, one per line
        assert move.strip().rstrip(",") in shown
    assert schema_errors(record_to_json(record), SCHEMA, SCHEMA) == []


def test_the_documented_python_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (DOCS / "records.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "example-record.json").write_bytes(
        (DOCS / "example-record.json").read_bytes())
    exec(compile(code, "records.md", "exec"), {})
    written = read_record(tmp_path / "game.json")
    assert len(written.moves) == 1 and written.moves[0].seat == CHANCE
