"""`boardbot ladder`: play, report (json, md, png), report-only, refusals, missing extras."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from boardbot.cli.main import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def ladder(out: Path, *extra: str) -> list[str]:
    return ["ladder", "--game", "legend_raiders", "--players", "2", "--bots",
            "random,greedy,beginner@5", "--games-per-pairing", "2", "--seed", "4",
            "--engine", "python", "--bootstrap", "30", "--out", str(out), *extra]


def test_the_ladder_writes_its_report_and_prints_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(ladder(tmp_path)) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].split() == ["bot", "Elo", "95%", "interval", "games"]
    assert "random" in captured.out and "beginner@5" in captured.out
    assert "ladder: 6/6 games" in captured.err
    ratings = json.loads((tmp_path / "ratings.json").read_text())
    assert ratings["game"] == "legend_raiders" and ratings["players"] == 2
    assert [r["bot"] for r in ratings["ratings"]] == ["random", "greedy", "beginner@5"]
    assert ratings["ratings"][0]["elo"] == 0.0 and ratings["games"] == 6
    assert [(s["lower"], s["upper"]) for s in ratings["steps"]] == [
        ("random", "greedy"), ("greedy", "beginner@5")
    ]
    markdown = (tmp_path / "ratings.md").read_text()
    assert "| bot | Elo | 95% interval | games |" in markdown
    assert "| `greedy` over `random` |" in markdown
    assert "| row beats column |" in markdown
    png = (tmp_path / "ratings.png").read_bytes()
    assert png.startswith(PNG_MAGIC)
    import matplotlib.image

    assert matplotlib.image.imread(tmp_path / "ratings.png").shape[0] > 300

    (tmp_path / "ratings.json").unlink()
    assert main(["ladder", "--report-only", "--bootstrap", "30", "--out", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "ratings.json").read_text()) == ratings
    assert "ladder:" not in capsys.readouterr().err  # nothing played


def test_the_command_refuses_other_settings_and_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(ladder(tmp_path / "a", "--max-games", "1")) == 0
    capsys.readouterr()
    assert main(ladder(tmp_path / "a", "--games-per-pairing", "1")) == 1
    err = capsys.readouterr().err
    assert "other settings (games_per_pairing: folder has 2, asked 1)" in err
    assert main(["ladder", "--report-only", "--out", str(tmp_path / "none")]) == 1
    assert "no ladder was run" in capsys.readouterr().err


def test_missing_extras_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "choix", None)
    assert main(ladder(tmp_path)) == 1
    assert "with its `ladder` extra" in capsys.readouterr().err
    assert not (tmp_path / "games.jsonl").exists()  # refused before playing
    monkeypatch.delitem(sys.modules, "choix")
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["match", "--game", "legend_raiders", "--bots", "random,greedy", "--games", "2",
                 "--ray"]) == 1
    assert "--ray needs the ray package" in capsys.readouterr().err
    assert main(["match", "--game", "legend_raiders", "--bots", "random,greedy", "--games", "2",
                 "--ray", "--parallel", "2"]) == 1
    assert "give one" in capsys.readouterr().err
