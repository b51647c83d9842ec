"""`--elo` on the client commands and play, `boardbot calibrate-strength`, `elo=N` in matches."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest

from boardbot.cli.commands.play import local_bot, play_game
from boardbot.cli.main import build_parser, main
from boardbot.search.strength.loader import DIR_VARIABLE, read_table
from boardbot.search.strength.mapping import strength_for
from boardbot.tools.match import run_match
from tests.search.strength_tables import MIXTURE_RATINGS, RATINGS, write_ratings, write_table
from tests.service.positions import load
from tests.service.servers import Served

GAME = "legend_raiders"


@pytest.fixture
def calibrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two-player Legend Raiders calibrated with synthetic points in a tmp folder."""
    write_table(tmp_path / "tables", GAME, 2)
    monkeypatch.setenv(DIR_VARIABLE, str(tmp_path / "tables"))
    return tmp_path


@pytest.mark.parametrize("command", ["move", "analyze"])
def test_client_commands_take_elo(command: str) -> None:
    args = build_parser().parse_args(
        [command, "--game", GAME, "--state", "s.json", "--elo", "1400"]
    )
    assert args.elo == 1400.0 and args.preset == ""
    assert build_parser().parse_args([command, "--game", GAME, "--state", "s.json"]).elo is None


def test_play_takes_elo() -> None:
    assert build_parser().parse_args(["play", GAME, "--elo", "1250.5"]).elo == 1250.5
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", GAME, "--elo", "strong"])


def test_move_at_an_elo_against_a_server(
    served: Served, calibrated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = calibrated / "s.json"
    assert main(["new", "--game", GAME, "--option", "players=2", "--seed", "3",
                 "--out", str(state)]) == 0
    capsys.readouterr()
    server = ["--server", served.address]
    assert main(["move", "--game", GAME, "--state", str(state), "--elo", "500", "--json",
                 *server]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    assert answer["budget"] == 40 and answer["random_move"] is False
    assert main(["move", "--game", GAME, "--state", str(state), "--elo", "500",
                 "--preset", "easy", *server]) == 1
    assert "PRESET_AND_ELO" in capsys.readouterr().err


def test_play_locally_at_an_elo(calibrated: Path) -> None:
    args = build_parser().parse_args(["play", GAME, "--elo", "300"])
    game = load(GAME)
    out = io.StringIO()
    state = game.new_state({"players": 2}, 4)
    bot = local_bot(args)
    assert play_game(game, state, 0, bot, 4, io.StringIO("1\n" * 2000), out) == 0
    assert "(bot) plays" in out.getvalue() and "game over" in out.getvalue()


def test_calibrate_strength_writes_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ladder = tmp_path / "ladder"
    write_ratings(ladder, RATINGS)
    (ladder / "ladder.json").write_bytes(orjson.dumps(
        {"game": GAME, "players": 2, "engine": "python", "bots": list(RATINGS), "seed": 1}
    ))
    out = tmp_path / "tables"
    assert main(["calibrate-strength", "--game", GAME, "--ratings", str(ladder),
                 "--out", str(out), "--command", "boardbot ladder ..."]) == 0
    assert "python: [0, 650]" in capsys.readouterr().out
    table = read_table(GAME, 2, out)["python"]
    assert table.source["command"] == "boardbot ladder ..."
    assert table.source["ladder"]["seed"] == 1
    # The flag cannot contradict the ladder's engine.
    assert main(["calibrate-strength", "--game", GAME, "--engine", "native",
                 "--ratings", str(ladder), "--out", str(out)]) == 1
    assert "ran on python, not native" in capsys.readouterr().err
    # A second engine's ladder is merged into the same file.
    native = write_ratings(tmp_path / "native-ladder", RATINGS)
    assert main(["calibrate-strength", "--game", GAME, "--players", "2", "--engine", "native",
                 "--ratings", str(native), "--out", str(out)]) == 0
    assert set(read_table(GAME, 2, out)) == {"python", "native"}


def test_calibrate_strength_takes_the_mixture_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ladder = tmp_path / "ladder"
    write_ratings(ladder, MIXTURE_RATINGS)
    (ladder / "ladder.json").write_bytes(orjson.dumps(
        {"game": GAME, "players": 2, "engine": "python", "bots": list(MIXTURE_RATINGS),
         "seed": 3, "games_per_pairing": 8}
    ))
    out = tmp_path / "tables"
    assert main(["calibrate-strength", "--game", GAME, "--ratings", str(ladder),
                 "--out", str(out), "--command", "boardbot ladder ...", "--date", "d"]) == 0
    printed = capsys.readouterr().out
    assert ("python: [0, 650]  random 0, medium@10+random=0.75 120, medium@10+random=0.5 200, "
            "medium@10+random=0.25 260, medium@10 300") in printed
    doc = orjson.loads((out / f"{GAME}-2p.json").read_bytes())
    entry = doc["engines"]["python"]
    assert [p.get("random_share") for p in entry["points"]] == [
        None, 0.75, 0.5, 0.25, None, None, None
    ]
    assert entry["source"] == {  # the source block as without mixtures
        "command": "boardbot ladder ...",
        "ratings": str(ladder / "ratings.json"),
        "date": "d",
        "games": 240,
        "ladder": {"bots": list(MIXTURE_RATINGS), "seed": 3, "games_per_pairing": 8},
    }
    table = read_table(GAME, 2, out)["python"]
    assert [p.bot for p in table.search_points()] == ["medium@10", "medium@40", "medium@160"]
    assert strength_for(table, 160.0).random_share == 0.625  # between 0.75 at 120 and 0.5 at 200


def test_calibrate_strength_refuses_bad_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_ratings(tmp_path, {"random": 0.0, "medium@10": 300.0, "medium@40": 100.0})
    assert main(["calibrate-strength", "--game", GAME, "--players", "2", "--engine", "python",
                 "--ratings", str(tmp_path), "--out", str(tmp_path / "t")]) == 1
    assert "drop-non-monotone" in capsys.readouterr().err
    write_ratings(tmp_path, RATINGS, game="leda")
    assert main(["calibrate-strength", "--game", GAME, "--players", "2", "--engine", "python",
                 "--ratings", str(tmp_path), "--out", str(tmp_path / "t")]) == 1
    assert "not 'legend_raiders'" in capsys.readouterr().err


def test_elo_bots_play_a_match(calibrated: Path) -> None:
    report, _ = run_match(load(GAME), ["elo=200", "elo=600"], 2, 1, ({"players": 2},))
    assert [bot.bot for bot in report.reports] == ["elo=200", "elo=600"]
