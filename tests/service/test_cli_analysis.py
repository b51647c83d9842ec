"""How `boardbot analyze` and `boardbot move` show an analysis: the legend, seat markers in
lines that start with the move itself, unset values, every seat's value and `--json`."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from boardbot.cli.commands.analysis_text import LEGEND, analysis_json, line_text
from boardbot.cli.commands.analyze import analysis_table
from boardbot.cli.main import main
from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.search.positions import forced_decision
from tests.service.positions import decision_state, load
from tests.service.servers import Served


def _analysis(value: float | None, visits: int) -> pb.MoveAnalysis:
    message = pb.MoveAnalysis(
        rank=1,
        move=pb.Move(notation="keep-roll", move_json=b'{"type": "keep"}'),
        visits=visits,
        principal_variation=["keep-roll", "pass", "roll:tool"],
        principal_variation_seats=[1, 2, 0],
    )
    if value is not None:
        message.value = value
        message.lower_bound = value / 2
        message.seat_values.extend([0.25, value, 0.5])
    return message


def test_a_line_marks_the_seat_of_each_move_from_the_move_itself() -> None:
    assert line_text(["a", "b", "c"], [0, 1, 0]) == "S0 a  S1 b  S0 c"
    assert line_text(["a", "b", "c"], [2, 0, 1], limit=2) == "S2 a  S0 b  …"
    assert line_text(["a"], []) == "a"


def test_the_table_shows_unset_values_as_not_searched() -> None:
    table = analysis_table([_analysis(None, 0)]).splitlines()
    assert table[0].split() == ["#", "move", "visits", "value", "lower", "line"]
    assert table[1].split()[:5] == ["1", "keep-roll", "0", "-", "-"]
    assert table[1].endswith("S1 keep-roll  S2 pass  S0 roll:tool")
    searched = analysis_table([_analysis(0.625, 40)]).splitlines()[1].split()
    assert searched[3:5] == ["0.625", "0.312"]


def test_the_json_of_an_analysis_keeps_unset_values_null() -> None:
    reply = pb.AnalyzeResponse(
        moves=[_analysis(0.625, 40), _analysis(None, 0)],
        stats=pb.SearchStats(iterations=40, stopped_by="iterations", seat=1, nodes=9),
        final=True,
        seat_values=[0.25, 0.625, 0.5],
    )
    data = analysis_json(reply)
    first, unsearched = data["moves"]
    assert first["move"] == {"type": "keep"} and first["notation"] == "keep-roll"
    assert (first["value"], first["lower_bound"], first["visits"]) == (0.625, 0.3125, 40)
    assert first["principal_variation_seats"] == [1, 2, 0]
    assert "prior" not in first and "net_value" not in first
    assert (unsearched["value"], unsearched["lower_bound"], unsearched["seat_values"]) == (
        None, None, []
    )
    assert data["seat_values"] == [0.25, 0.625, 0.5]
    assert data["stats"]["iterations"] == 40 and data["stats"]["seat"] == 1


def _state_file(tmp_path: Path, state: object) -> Path:
    game = load("legend_raiders")
    path = tmp_path / "state.json"
    path.write_bytes(game_ops.encode_state(game, state))
    return path


def test_analyze_prints_the_legend_seat_values_and_marked_lines(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 3}, seed=4)
    seat = game.current_player(state)
    common = ["--game", "legend_raiders", "--state", str(_state_file(tmp_path, state)),
              "--iterations", "120", "--seed", "3", "--server", served.address]
    assert main(["analyze", *common, "--top-k", "3"]) == 0
    out = capsys.readouterr().out
    assert LEGEND in out and "iterations" in out.splitlines()[-1]
    rows = out.splitlines()[1:4]
    for row in rows:
        notation = row.split()[1]
        # The line starts with the move itself, played by the seat analysed.
        assert f"  S{seat} {notation}" in row
    seat_line = next(line for line in out.splitlines() if line.startswith("seat values"))
    assert seat_line.split()[2:8:2] == ["S0", "S1", "S2"]

    assert main(["analyze", *common, "--top-k", "3", "--json"]) == 0
    data = orjson.loads(capsys.readouterr().out)
    assert len(data["moves"]) == 3 and len(data["seat_values"]) == 3
    best = data["moves"][0]
    assert data["seat_values"][seat] == best["value"]
    assert best["principal_variation"][0] == best["notation"]
    assert best["principal_variation_seats"][0] == seat
    assert len(best["principal_variation_seats"]) == len(best["principal_variation"])
    assert data["stats"]["iterations"] > 0 and data["stats"]["seat"] == seat
    # The same figures as the table, move by move.
    table_rows = [row.split() for row in rows]
    assert [m["notation"] for m in data["moves"]] == [row[1] for row in table_rows]
    assert [f"{m['value']:.3f}" for m in data["moves"]] == [row[3] for row in table_rows]

    assert main(["move", *common]) == 0
    said = capsys.readouterr().out
    line = next(text for text in said.splitlines() if text.startswith("  line"))
    assert line.split()[1:3] == [f"S{seat}", said.splitlines()[0]]


def test_a_forced_move_is_analysed_and_its_move_says_not_searched(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = forced_decision("legend_raiders", {"players": 3}, 1)
    common = ["--game", "legend_raiders", "--state", str(_state_file(tmp_path, state)),
              "--iterations", "60", "--server", served.address]
    assert main(["analyze", *common, "--json"]) == 0
    data = orjson.loads(capsys.readouterr().out)
    (only,) = data["moves"]
    assert only["visits"] > 0 and only["value"] is not None
    assert data["stats"]["stopped_by"] != "single_move"
    assert main(["move", *common]) == 0
    assert "  value       not searched (single_move)" in capsys.readouterr().out
    assert main(["move", *common, "--json"]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    assert (answer["value"], answer["lower_bound"], answer["stopped_by"]) == (
        None, None, "single_move"
    )
