"""The proto's breaking-change check: the proto passes against its release, and each kind of
breaking edit is reported with its path while additions pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2 as d

from boardbot.tools.proto_breaking import (
    DESCRIPTORS,
    PROTO_TREE,
    ROOT,
    breaking_changes,
    compile_protos,
    main,
    newest_release,
    proto_files,
    read_descriptor_set,
)

PROTO = PROTO_TREE / "v1" / "boardbot.proto"
TEXT = (ROOT / PROTO).read_text()


@pytest.fixture(scope="module")
def released() -> d.FileDescriptorSet:
    return read_descriptor_set(newest_release(ROOT / DESCRIPTORS))


def _in_message(text: str, message: str, old: str, new: str) -> str:
    """`text` with the first `old` inside `message`'s block replaced by `new`."""
    start = text.index(f"\nmessage {message} {{")
    end = text.index("\n}\n", start)
    at = text.index(old, start)
    assert at < end, f"{old!r} is not in message {message}"
    return text[:at] + new + text[at + len(old) :]


def _once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _changes(tmp_path: Path, text: str, against: d.FileDescriptorSet) -> list[str]:
    """The breaking changes of the proto `text` (at the real proto's path) from `against`."""
    path = tmp_path / PROTO
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return breaking_changes(against, compile_protos(tmp_path, proto_files(tmp_path)))


def test_the_proto_has_no_breaking_change_against_its_release(
    released: d.FileDescriptorSet, capsys: pytest.CaptureFixture[str]
) -> None:
    assert newest_release(ROOT / DESCRIPTORS).name == "boardbot-0.1.0.binpb"
    assert [file.package for file in released.file] == ["boardbot.v1"]
    assert breaking_changes(released, compile_protos(ROOT, proto_files(ROOT))) == []
    assert main([]) == 0
    assert "no breaking change against proto/descriptors/boardbot-0.1.0.binpb" in (
        capsys.readouterr().out
    )


EDITS = {
    "method removed": (
        lambda t: _once(t, "  rpc Analyze(AnalyzeRequest) returns (AnalyzeResponse);\n", ""),
        ["method boardbot.v1.BoardBot.Analyze: removed"],
    ),
    "stream made unary": (
        lambda t: _once(t, "returns (stream AnalyzeResponse)", "returns (AnalyzeResponse)"),
        ["method boardbot.v1.BoardBot.AnalyzeStream: no longer streaming on the server side"],
    ),
    "request type changed": (
        lambda t: _once(t, "rpc ChooseMove(ChooseMoveRequest)", "rpc ChooseMove(AnalyzeRequest)"),
        [
            "method boardbot.v1.BoardBot.ChooseMove: request type changed from "
            ".boardbot.v1.ChooseMoveRequest to .boardbot.v1.AnalyzeRequest"
        ],
    ),
    "field removed": (
        lambda t: _in_message(t, "ChooseMoveRequest", "string session_key = 8;", ""),
        [
            "message boardbot.v1.ChooseMoveRequest: field 8 (session_key): removed without "
            "reserving its number and name"
        ],
    ),
    "field removed, its number reserved": (
        lambda t: _in_message(t, "ChooseMoveRequest", "string session_key = 8;", "reserved 8;"),
        [
            "message boardbot.v1.ChooseMoveRequest: field 8 (session_key): removed without "
            "reserving its name"
        ],
    ),
    "field type changed": (
        lambda t: _in_message(t, "ChooseMoveRequest", "int32 seat = 3;", "int64 seat = 3;"),
        [
            "message boardbot.v1.ChooseMoveRequest: field 3 (seat): type changed from int32 "
            "to int64"
        ],
    ),
    "field renamed": (
        lambda t: _in_message(t, "ChooseMoveRequest", "int32 seat = 3;", "int32 player = 3;"),
        [
            "message boardbot.v1.ChooseMoveRequest: field 3 (seat): name changed from seat to "
            "player (JSON carries names)"
        ],
    ),
    "JSON name changed": (
        lambda t: _in_message(
            t, "ChooseMoveRequest", "int32 seat = 3;", 'int32 seat = 3 [json_name = "who"];'
        ),
        [
            "message boardbot.v1.ChooseMoveRequest: field 3 (seat): JSON name changed from "
            "seat to who"
        ],
    ),
    "repeated made singular": (
        lambda t: _in_message(t, "ListGamesResponse", "repeated GameInfo games", "GameInfo games"),
        [
            "message boardbot.v1.ListGamesResponse: field 1 (games): label changed from "
            "repeated to singular"
        ],
    ),
    "presence lost": (
        lambda t: _in_message(
            t, "ChooseMoveRequest", "optional double target_elo", "double target_elo"
        ),
        [
            "message boardbot.v1.ChooseMoveRequest: field 7 (target_elo): lost its presence "
            "(optional): an unset value reads differently"
        ],
    ),
    "field moved into a oneof": (
        lambda t: _in_message(
            t, "ChooseMoveRequest", "string preset = 4;", "oneof strength { string preset = 4; }"
        ),
        ["message boardbot.v1.ChooseMoveRequest: field 4 (preset): moved into oneof strength"],
    ),
    "field moved out of a oneof": (
        lambda t: _in_message(
            _in_message(t, "ApplyMoveRequest", "    string notation = 4;\n", ""),
            "ApplyMoveRequest",
            "uint64 seed = 5;",
            "uint64 seed = 5; string notation = 4;",
        ),
        ["message boardbot.v1.ApplyMoveRequest: field 4 (notation): moved out of oneof move"],
    ),
    "message renamed": (
        lambda t: _once(
            _once(t, "message ListGamesRequest {}", "message ListGamesQuery {}"),
            "rpc ListGames(ListGamesRequest)",
            "rpc ListGames(ListGamesQuery)",
        ),
        [
            "method boardbot.v1.BoardBot.ListGames: request type changed from "
            ".boardbot.v1.ListGamesRequest to .boardbot.v1.ListGamesQuery",
            "message boardbot.v1.ListGamesRequest: removed",
        ],
    ),
    "service renamed": (
        lambda t: _once(t, "service BoardBot {", "service Bots {"),
        ["service boardbot.v1.BoardBot: removed"],
    ),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_breaking_edit_is_reported_with_its_path(
    tmp_path: Path, released: d.FileDescriptorSet, edit: str
) -> None:
    change, expected = EDITS[edit]
    assert _changes(tmp_path, change(TEXT), released) == expected


def test_a_changed_package_is_reported(tmp_path: Path, released: d.FileDescriptorSet) -> None:
    text = _once(TEXT, "package boardbot.v1;", "package boardbot.v2;")
    found = _changes(tmp_path, text, released)
    assert found[:2] == [
        f"file {PROTO}: package changed from boardbot.v1 to boardbot.v2",
        "package boardbot.v1: removed",
    ]
    assert "service boardbot.v1.BoardBot: removed" in found


def test_additions_and_a_properly_removed_field_pass(
    tmp_path: Path, released: d.FileDescriptorSet
) -> None:
    text = _in_message(
        TEXT, "ChooseMoveRequest", "string session_key = 8;", 'reserved 8; reserved "session_key";'
    )
    text = _in_message(text, "ChooseMoveRequest", "top_k = 9;", "top_k = 9; bool x = 99;")
    text = _once(
        text,
        "service BoardBot {",
        "service BoardBot {\n  rpc Ping(ListGamesRequest) returns (ListGamesResponse);",
    )
    text += (
        "\nenum Mood { MOOD_UNSPECIFIED = 0; MOOD_CALM = 1; }\n"
        "message Extra { Mood mood = 1; map<string, int32> counts = 2; }\n"
        "service Another { rpc Call(Extra) returns (Extra); }\n"
    )
    assert _changes(tmp_path, text, released) == []


BASE = """syntax = "proto3";
package t.v1;
enum Colour {
  COLOUR_UNSPECIFIED = 0;
  COLOUR_RED = 1;
  COLOUR_BLUE = 2;
  reserved 5 to 7;
  reserved "COLOUR_OLD";
}
message Paint {
  Colour colour = 1;
  map<string, int32> mixes = 2;
  reserved 10 to 20;
  reserved "old";
}
"""
"""A small contract with an enum and reservations, to edit."""


def _compiled(root: Path, text: str) -> d.FileDescriptorSet:
    path = root / PROTO_TREE / "t.proto"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return compile_protos(root, proto_files(root))


ENUM_BLOCK = BASE[BASE.index("enum Colour") : BASE.index("message Paint")]

SMALL_EDITS: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "enum value removed": (
        [("  COLOUR_BLUE = 2;\n", "")],
        ["enum t.v1.Colour: value 2 (COLOUR_BLUE): removed without reserving its number and name"],
    ),
    "enum value removed and reserved": (
        [("  COLOUR_BLUE = 2;\n", '  reserved 2; reserved "COLOUR_BLUE";\n')],
        [],
    ),
    "enum value renumbered": (
        [("COLOUR_BLUE = 2;", "COLOUR_BLUE = 3;")],
        ["enum t.v1.Colour: value 2 (COLOUR_BLUE): renumbered from 2 to 3"],
    ),
    "enum value renamed": (
        [("COLOUR_BLUE = 2;", "COLOUR_GREEN = 2;")],
        ["enum t.v1.Colour: value 2 (COLOUR_BLUE): renamed to COLOUR_GREEN (JSON carries names)"],
    ),
    "enum reservation narrowed": (
        [("reserved 5 to 7;", "reserved 5;")],
        ["enum t.v1.Colour: reserved numbers 6 to 7 no longer reserved"],
    ),
    "enum reserved name dropped": (
        [('  reserved "COLOUR_OLD";\n', "")],
        ["enum t.v1.Colour: reserved name COLOUR_OLD no longer reserved"],
    ),
    "message reservation narrowed": (
        [("reserved 10 to 20;", "reserved 10 to 12, 15 to 20;")],
        ["message t.v1.Paint: reserved numbers 13 to 14 no longer reserved"],
    ),
    "message reserved name dropped": (
        [('  reserved "old";\n', "")],
        ["message t.v1.Paint: reserved name old no longer reserved"],
    ),
    "map value type changed": (
        [("map<string, int32> mixes", "map<string, int64> mixes")],
        ["message t.v1.Paint.MixesEntry: field 2 (value): type changed from int32 to int64"],
    ),
    "enum removed": (
        [(ENUM_BLOCK, ""), ("Colour colour = 1;", "int32 colour = 1;")],
        [
            "message t.v1.Paint: field 1 (colour): type changed from .t.v1.Colour to int32",
            "enum t.v1.Colour: removed",
        ],
    ),
    "reservations widened, values added": (
        [
            ("reserved 10 to 20;", "reserved 3 to 30;"),
            ("COLOUR_BLUE = 2;", "COLOUR_BLUE = 2; COLOUR_TEAL = 3;"),
        ],
        [],
    ),
}


@pytest.mark.parametrize("edit", list(SMALL_EDITS))
def test_enum_map_and_reservation_edits(tmp_path: Path, edit: str) -> None:
    replacements, expected = SMALL_EDITS[edit]
    text = BASE
    for old, new in replacements:
        text = _once(text, old, new)
    before = _compiled(tmp_path / "before", BASE)
    assert breaking_changes(before, _compiled(tmp_path / "after", text)) == expected


def test_a_removed_file_is_reported(tmp_path: Path) -> None:
    before = _compiled(tmp_path, BASE)
    assert breaking_changes(before, d.FileDescriptorSet()) == [
        f"file {PROTO_TREE / 't.proto'}: removed (generated code is named after it)",
        "package t.v1: removed",
        "message t.v1.Paint: removed",
        "enum t.v1.Colour: removed",
    ]


def test_the_command_lists_the_changes_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    newer = _once(
        TEXT,
        "service BoardBot {",
        "service BoardBot {\n  rpc Ping(ListGamesRequest) returns (ListGamesResponse);",
    )
    (tmp_path / PROTO).parent.mkdir(parents=True)
    (tmp_path / PROTO).write_text(newer)
    assert main(["--root", str(tmp_path), "--write-release", "9.0.0"]) == 0
    written = tmp_path / DESCRIPTORS / "boardbot-9.0.0.binpb"
    assert written.exists()
    assert main(["--root", str(tmp_path), "--write-release", "9.0.0"]) == 2  # never rewritten
    assert main(["--root", str(tmp_path), "--write-release", "9.0"]) == 2
    capsys.readouterr()
    assert main(["--against", str(written)]) == 1  # the real proto has no Ping
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"1 breaking change(s) against {written}:",
        "  method boardbot.v1.BoardBot.Ping: removed",
    ]


def test_a_proto_that_does_not_compile_stops_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / PROTO).parent.mkdir(parents=True)
    (tmp_path / PROTO).write_text(TEXT + "\nmessage Broken { int32 a = 1; int32 b = 1; }\n")
    assert main(["--root", str(tmp_path)]) == 2
    assert "protoc failed" in capsys.readouterr().err
