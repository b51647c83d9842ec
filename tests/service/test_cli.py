"""The frontend developer's commands: new, moves, apply, view, move, analyze, play, health."""

from __future__ import annotations

import io
import random
from pathlib import Path

import orjson
import pytest

from boardbot.cli.commands.play import local_bot, play_game, remote_bot
from boardbot.cli.main import build_parser, main
from boardbot.engine.leda.rules import shuffle_size
from boardbot.jobs import game_ops
from boardbot.jobs.search_job import SearchJob, run_search_job
from boardbot.jobs.settings import Limits, resolve
from tests.service.positions import load
from tests.service.servers import Served


def _new(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "state.json"
    code = main(["new", "--game", "legend_raiders", "--players", "2", "--seed", "3",
                 "--out", str(path)])
    assert code == 0
    assert "to move" in capsys.readouterr().err
    return path


def test_new_moves_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _new(tmp_path, capsys)
    game = load("legend_raiders")
    state = game_ops.decode_state(game, path.read_bytes())
    assert main(["moves", "--game", "legend_raiders", "--state", str(path)]) == 0
    listed = capsys.readouterr().out.splitlines()
    expected = [game.action_to_str(state, a) for a in game.legal_actions(state)]
    assert [line.split(". ", 1)[1] for line in listed] == expected

    after = tmp_path / "after.json"
    assert main(["apply", "--game", "legend_raiders", "--state", str(path), "--number", "1",
                 "--seed", "2", "--out", str(after)]) == 0
    by_number = after.read_bytes()
    assert main(["apply", "--game", "legend_raiders", "--state", str(path), "--move", expected[0],
                 "--seed", "2"]) == 0
    assert orjson.loads(capsys.readouterr().out) == orjson.loads(by_number)


def test_chance_steps_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = load("legend_raiders")
    path = tmp_path / "chance.json"
    raiders = ["--game", "legend_raiders"]
    assert main(["new", *raiders, "--players", "2", "--seed", "3", "--manual-chance",
                 "--out", str(path)]) == 0
    assert "chance step (seat -1)" in capsys.readouterr().err
    state = game_ops.decode_state(game, path.read_bytes())
    assert state == game.new_state({"players": 2}, 3)

    assert main(["moves", *raiders, "--state", str(path)]) == 0
    listed = capsys.readouterr().out.splitlines()
    outcomes = game.chance_outcomes(state) or []
    assert listed == [
        f"{i:3d}. {game.action_to_str(state, a)}  p={p:.4f}" for i, (a, p) in enumerate(outcomes, 1)
    ]

    drawing = tmp_path / "drawing.json"
    assert main(["apply", *raiders, "--state", str(path), "--move", "roll:tool",
                 "--manual-chance", "--out", str(drawing)]) == 0
    err = capsys.readouterr().err
    assert "applied roll:tool" in err and "chance:" not in err
    draw = game_ops.decode_state(game, drawing.read_bytes())
    assert draw == game.apply(state, game.action_from_str(state, "roll:tool"))

    assert main(["apply", *raiders, "--state", str(drawing), "--number", "2",
                 "--manual-chance"]) == 0
    second = (game.chance_outcomes(draw) or [])[1][0]
    assert orjson.loads(capsys.readouterr().out) == game.state_to_json(game.apply(draw, second))

    assert main(["apply", *raiders, "--state", str(drawing), "--roll", "--seed", "5"]) == 0
    captured = capsys.readouterr()
    expected, events = game_ops.resolve_chance(game, draw, random.Random(5))
    assert orjson.loads(captured.out) == game.state_to_json(expected)
    chance_lines = [line for line in captured.err.splitlines() if line.startswith("chance: ")]
    assert chance_lines == [f"chance: {event}" for event in events]

    decided = tmp_path / "decided.json"
    assert main(["apply", *raiders, "--state", str(path), "--move-json",
                 '{"type": "roll", "face": "coin"}', "--out", str(decided)]) == 0
    assert "applied roll:coin" in capsys.readouterr().err
    assert main(["apply", *raiders, "--state", str(decided), "--roll"]) == 1
    assert "error: --roll: no chance step is pending; seat 0 is to move" in capsys.readouterr().err
    assert main(["apply", *raiders, "--state", str(path), "--move", "draw:map"]) == 1
    assert "ILLEGAL_MOVE): notation $: draw:map is not a possible outcome" in (
        capsys.readouterr().err
    )


def test_a_leda_shuffle_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = load("leda")
    start, shuffle = tmp_path / "start.json", tmp_path / "shuffle.json"
    leda = ["--game", "leda"]
    assert main(["new", *leda, "--seed", "1", "--out", str(start)]) == 0
    assert main(["apply", *leda, "--state", str(start), "--move", "mulligan:yes",
                 "--manual-chance", "--out", str(shuffle)]) == 0
    capsys.readouterr()
    state = game_ops.decode_state(game, shuffle.read_bytes())
    n = shuffle_size(state)
    assert main(["moves", *leda, "--state", str(shuffle)]) == 0
    captured = capsys.readouterr()
    assert "cannot be listed" in captured.err
    assert captured.out.strip() == game.chance_form(state)
    assert f"shuffle of {n} cards" in captured.out

    assert main(["apply", *leda, "--state", str(shuffle), "--number", "1"]) == 1
    assert "error: --number: this chance step's outcomes cannot be listed" in (
        capsys.readouterr().err
    )
    assert main(["apply", *leda, "--state", str(shuffle), "--move-json",
                 '{"type": "shuffle", "order": [0, 0]}']) == 1
    assert "INVALID_MOVE): move_json $.order: not a permutation" in capsys.readouterr().err
    order = ",".join(str(i) for i in reversed(range(n)))
    assert main(["apply", *leda, "--state", str(shuffle), "--move", f"shuffle:{order}",
                 "--seed", "2"]) == 0
    action = game.action_from_str(state, f"shuffle:{order}")
    expected, _ = game_ops.resolve_chance(game, game.apply(state, action), random.Random(2))
    assert orjson.loads(capsys.readouterr().out) == game.state_to_json(expected)


def test_view_here_and_from_a_server(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _new(tmp_path, capsys)
    game = load("legend_raiders")
    state = game_ops.decode_state(game, path.read_bytes())
    view = ["view", "--game", "legend_raiders", "--state", str(path)]
    assert main([*view, "--seat", "1"]) == 0
    local = capsys.readouterr()
    assert orjson.loads(local.out) == game.state_to_json(state, 1)
    assert local.err.strip() == f"seat 1's view; seat {game.current_player(state)} to move"
    remote = ["--remote", "--server", served.address]
    assert main([*view, "--seat", "1", *remote]) == 0
    assert capsys.readouterr().out == local.out
    out = tmp_path / "view.json"
    assert main([*view, "--seat", "0", *remote, "--pretty", "--out", str(out)]) == 0
    assert out.read_text().startswith("{\n") and orjson.loads(out.read_bytes())["observer"] == 0
    for command in ([*view, "--seat", "2"], [*view, "--seat", "2", *remote]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert "error (INVALID_ARGUMENT, INVALID_SEAT): seat: must be in 0..1" in err


def test_cli_errors_are_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _new(tmp_path, capsys)
    assert main(["apply", "--game", "legend_raiders", "--state", str(path), "--move", "fly"]) == 1
    assert "error (INVALID_ARGUMENT, INVALID_MOVE): notation" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"{")
    assert main(["moves", "--game", "legend_raiders", "--state", str(bad)]) == 1
    assert "malformed JSON" in capsys.readouterr().err
    assert main(["moves", "--game", "chess", "--state", str(bad)]) == 1
    assert "NOT_FOUND" in capsys.readouterr().err
    assert main(["moves", "--game", "legend_raiders", "--state", str(tmp_path / "none")]) == 1
    assert "cannot read state file" in capsys.readouterr().err
    assert main(["match", "--game", "leda", "--bots", "grandmaster,random", "--games", "2"]) == 1
    said = capsys.readouterr().err.splitlines()
    assert said[-1].startswith("error: unknown bot 'grandmaster'; known: random")


def test_move_analyze_health_against_a_server(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _new(tmp_path, capsys)
    server = ["--server", served.address]
    assert main(["move", "--game", "legend_raiders", "--state", str(path), "--iterations", "40",
                 "--json", *server]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    game = load("legend_raiders")
    state = game_ops.decode_state(game, path.read_bytes())
    assert answer["notation"] in {game.action_to_str(state, a) for a in game.legal_actions(state)}
    assert answer["iterations"] > 0 or answer["stopped_by"] == "single_move"

    assert main(["analyze", "--game", "legend_raiders", "--state", str(path), "--iterations",
                 "40", "--top-k", "3", *server]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["#", "move", "visits", "value"]
    assert table[1].split()[0] == "1"
    assert "iterations" in table[-1]

    assert main(["health", *server]) == 0
    assert capsys.readouterr().out.strip() == "SERVING"
    assert main(["health", "--server", "127.0.0.1:1", "--timeout", "0.5"]) == 1


def test_play_a_whole_game_against_the_bot() -> None:
    game = load("legend_raiders")
    args = type("Args", (), {"preset": "beginner", "iterations": 10, "time_ms": None,
                             "workers": None, "exploration": None, "temperature": None,
                             "game": "legend_raiders"})()
    bot = local_bot(args)  # type: ignore[arg-type]
    state = game.new_state({"players": 2}, 5)
    moves = io.StringIO("1\n" * 2000)
    out = io.StringIO()
    assert play_game(game, state, 0, bot, 5, moves, out) == 0
    text = out.getvalue()
    assert "your moves:" in text and "(bot) plays" in text
    assert "game over" in text


def test_play_quits_on_q() -> None:
    game = load("legend_raiders")
    config = resolve("beginner", {"iterations": 5}, Limits())

    def bot(g: object, s: object, seat: int, seed: int) -> str:
        job = SearchJob("legend_raiders", game_ops.encode_state(game, s), seat, config, seed)
        return run_search_job(job).chosen.notation

    out = io.StringIO()
    state = game.new_state({"players": 2, "first_player": 0}, 1)
    assert play_game(game, state, 0, bot, 1, io.StringIO("nonsense\n0\n999\nq\n"), out) == 0
    assert "your turn (seat 0)" in out.getvalue()
    assert "not a legal move" in out.getvalue()
    assert "no move numbered 0: choose 1.." in out.getvalue()
    assert "no move numbered 999: choose 1.." in out.getvalue()
    assert out.getvalue().rstrip().endswith("bye")


def test_play_against_a_remote_bot(served: Served) -> None:
    args = build_parser().parse_args(
        ["play", "legend_raiders", "--remote", "--server", served.address, "--iterations", "10",
         "--seat", "1"]
    )
    game = load("legend_raiders")
    out = io.StringIO()
    state = game.new_state({"players": 2}, 9)
    assert play_game(game, state, 1, remote_bot(args), 9, io.StringIO("1\n" * 2000), out) == 0
    assert "(bot) plays" in out.getvalue() and "game over" in out.getvalue()


def test_serve_start_line_names_the_engine_that_searches() -> None:
    from boardbot.cli.commands.serve import _threads_said
    from boardbot.search.engines import Engine, native_games
    from boardbot.service.server import ServerConfig

    python = ServerConfig(workers=2, engine=Engine.PYTHON)
    assert _threads_said(python) == "searches on the Python engines"
    auto = ServerConfig(workers=2, engine=Engine.AUTO)
    expected = "up to 2 threads per native search" if native_games() else "Python engines"
    assert expected in _threads_said(auto)
