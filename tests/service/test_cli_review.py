"""`boardbot review`: the table, the summary, --json, the graph, and the remote form."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from boardbot.cli.main import main
from boardbot.search.engines import Engine, engine_notice
from tests.service.records import random_record, record_bytes
from tests.service.servers import Served

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _record(tmp_path: Path, decisions: int = 8) -> tuple[Path, dict]:
    record = random_record("legend_raiders", seed=4, decisions=decisions)
    path = tmp_path / "game.json"
    path.write_bytes(record_bytes(record))
    return path, record


def test_review_prints_a_table_and_the_summary_and_draws_the_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = _record(tmp_path)
    assert main(["review", str(path), "--iterations", "80", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == f"review of {path}"
    assert lines[1].split()[:4] == ["#", "seat", "played", "best"]
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    rows = lines[2 : 2 + len(decisions)]
    assert [int(row.split()[0]) for row in rows] == decisions
    for row, index in zip(rows, decisions, strict=True):
        assert row.split()[2] == record["moves"][index]["notation"]
    assert lines[2 + len(decisions)].split()[:2] == ["seat", "moves"]
    assert lines[3 + len(decisions)].startswith("0 random-0")
    png = tmp_path / "game.review.png"
    assert f"wrote {png}" in err
    assert png.read_bytes().startswith(PNG_SIGNATURE)


def test_review_json_has_every_position_and_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = _record(tmp_path)
    assert main(["review", str(path), "--iterations", "80", "--json", "--no-png",
                 "--seats", "1"]) == 0
    document = orjson.loads(capsys.readouterr().out)
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    assert [p["index"] for p in document["positions"]] == decisions
    assert document["positions"][0]["played"]["move_json"] == record["moves"][decisions[0]]["move"]
    assert [s["seat"] for s in document["summary"]["seats"]] == [1]
    assert not (tmp_path / "game.review.png").exists()


def test_several_records_end_with_the_losses_per_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = _record(tmp_path, decisions=5)
    second = tmp_path / "other.json"
    second.write_bytes(record_bytes(random_record("legend_raiders", seed=5, decisions=5)))
    assert main(["review", str(first), str(second), "--iterations", "60", "--no-png"]) == 0
    out = capsys.readouterr().out
    table = out[out.rindex("player") :].splitlines()
    assert table[0].split()[:3] == ["player", "moves", "mean"]
    assert [line.split()[0] for line in table[1:]] == ["random-0", "random-1"]


def test_review_refuses_a_bad_record_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = _record(tmp_path, decisions=3)
    record["moves"][0]["move"] = {"type": "nonsense"}
    path.write_bytes(record_bytes(record))
    assert main(["review", str(path), "--iterations", "50", "--no-png"]) == 1
    notice = engine_notice(Engine.AUTO)  # said first when the core is not built
    lines = [line for line in capsys.readouterr().err.splitlines() if line != notice]
    assert len(lines) == 1
    assert lines[0].startswith("error (INVALID_ARGUMENT, INVALID_RECORD): record_json $.moves[0]")


def test_review_without_matplotlib_says_which_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _record(tmp_path, decisions=2)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["review", str(path), "--iterations", "50"]) == 1
    err = capsys.readouterr().err
    assert "`ladder` extra" in err and "--no-png" in err


def test_review_on_a_server_prints_the_same_table(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _record(tmp_path, decisions=6)
    args = ["review", str(path), "--iterations", "80", "--seed", "3", "--no-png"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main([*args, "--server", served.address]) == 0
    remote = capsys.readouterr().out
    # The same searches (one thread each, same seeds) give the same review.
    assert remote == local


@pytest.mark.parametrize(("flags", "model"), [(["--model", "none"], ""),
                                              (["--model", "auto"], "legend_raiders-2p")])
def test_review_takes_the_model_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], model: str
) -> None:
    path, _ = _record(tmp_path, decisions=4)
    assert main(["review", str(path), "--iterations", "40", "--json", "--no-png", *flags]) == 0
    document = orjson.loads(capsys.readouterr().out)
    searched = [p for p in document["positions"] if p["judgement"] != "forced"]
    assert searched
    assert {p["stats"]["settings"].get("model", "") for p in searched} == {model}
