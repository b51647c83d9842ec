"""Match games recorded as game records: they replay to the match's results, and recording
changes no game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from boardbot.cli.main import main
from boardbot.engine import CHANCE, get_game
from boardbot.engine.record import read_record, record_to_json, replay
from boardbot.search import engines
from boardbot.search.engines import Engine
from boardbot.tools.match import GameRecord, play_game, run_match
from tests.engine.records import SCHEMA
from tests.engine.schema_check import schema_errors

BOT_GAMES = [
    ("leda", {"clans": ["cats", "sharks"]}, ["medium@20", "greedy"]),
    ("legend_raiders", {"players": 2}, ["medium@20", "greedy"]),
    ("legend_raiders", {"players": 3}, ["medium@20", "greedy", "random"]),
    ("legend_raiders", {"players": 4}, ["medium@20", "greedy", "random", "greedy"]),
]


def _without_time(played: GameRecord) -> GameRecord:
    return dataclasses.replace(played, decision_seconds=(), record=None)


@pytest.mark.parametrize(("name", "options", "bots"), BOT_GAMES)
def test_a_recorded_bot_game_replays_to_the_matchs_result(
    name: str, options: dict[str, Any], bots: list[str]
) -> None:
    game = get_game(name)
    seating = tuple(reversed(range(len(bots))))
    played = play_game(game, options, bots, seating, 17, engine=Engine.PYTHON, record=True)
    record = played.record
    assert record is not None and record.seed == 17 and record.options == options
    assert [p["name"] for p in record.players] == [bots[b] for b in seating]
    assert {p["kind"] for p in record.players} == {"bot"}
    positions = replay(game, record)
    assert game.is_terminal(positions[-1].state)
    assert record.result is not None
    assert tuple(record.result["returns"]) == played.returns
    assert tuple(record.result["scores"]) == played.scores
    decisions = [m for m in record.moves if m.seat != CHANCE]
    assert len(decisions) == played.decisions
    for seat, count in enumerate(played.decision_counts):
        clocks = [m.clock_ms for m in decisions if m.seat == seat]
        assert len(clocks) == count and all(c is not None and c >= 0 for c in clocks)
        assert sum(c for c in clocks if c is not None) == pytest.approx(
            1000 * played.decision_seconds[seat], abs=0.01 * count + 1e-6)
    assert all(m.clock_ms is None for m in record.moves if m.seat == CHANCE)
    assert schema_errors(record_to_json(record), SCHEMA, SCHEMA) == []
    unrecorded = play_game(game, options, bots, seating, 17, engine=Engine.PYTHON)
    assert unrecorded.record is None
    assert _without_time(unrecorded) == _without_time(played)


def test_recording_a_match_changes_none_of_its_games() -> None:
    game = get_game("legend_raiders")
    bots = ["medium@10", "greedy"]
    options = [{"players": 2}]
    plain, games = run_match(game, bots, 4, 5, options, engine=Engine.PYTHON)
    recorded, recorded_games = run_match(game, bots, 4, 5, options, engine=Engine.PYTHON,
                                         record=True)
    assert [_without_time(g) for g in games] == [_without_time(g) for g in recorded_games]
    assert [(b.wins, b.mean_score, b.mean_game_length) for b in plain.reports] == [
        (b.wins, b.mean_score, b.mean_game_length) for b in recorded.reports]
    assert all(g.record is None for g in games)
    for played in recorded_games:
        assert played.record is not None
        assert replay(game, played.record)[-1].index == len(played.record.moves)


def test_records_cross_to_worker_processes() -> None:
    game = get_game("leda")
    _, serial = run_match(game, ["greedy", "random"], 2, 9, record=True)
    _, parallel = run_match(game, ["greedy", "random"], 2, 9, parallel=2, record=True)
    def moves(games: list[GameRecord]) -> list[list[tuple[int, Any, str | None]]]:
        return [[(m.seat, m.move, m.notation) for m in g.record.moves] if g.record else []
                for g in games]

    assert moves(parallel) == moves(serial) and all(moves(serial))


def test_match_command_writes_a_record_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records" / "new"
    assert main(["match", "--game", "legend_raiders", "--bots", "greedy,random,greedy",
                 "--games", "3", "--seed", "4", "--engine", "python", "--json",
                 "--record", str(folder)]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert captured.err.strip().endswith(f"wrote 3 game records to {folder}")
    files = sorted(folder.iterdir())
    assert [f.name.split("-seed-")[0] for f in files] == ["game-0000", "game-0001", "game-0002"]
    game = get_game("legend_raiders")
    wins = [0.0, 0.0, 0.0]
    for index, path in enumerate(files):
        record = read_record(path)
        assert path.name == f"game-{index:04d}-seed-{record.seed}.json"
        assert record.event == f"boardbot match, game {index + 1} of 3"
        assert record.date is not None and record.date.endswith("Z")
        assert game.is_terminal(replay(game, record)[-1].state)
        assert record.result is not None
        for seat, player in enumerate(record.players):
            entry = (seat + index) % 3  # seats rotate game by game
            assert player["name"] == ["greedy", "random", "greedy"][entry]
            wins[entry] += record.result["returns"][seat]
    assert wins == [bot["wins"] for bot in report["reports"]]


def test_match_command_says_when_it_cannot_make_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["match", "--game", "leda", "--bots", "greedy,random", "--games", "1",
                 "--record", str(blocker / "records")]) == 1
    notice = engines.engine_notice(Engine.AUTO)  # said first when the core is not built
    lines = [line for line in capsys.readouterr().err.splitlines() if line != notice]
    assert len(lines) == 1
    assert lines[0].startswith(f"error: --record {blocker / 'records'}: ")
