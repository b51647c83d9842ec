"""`boardbot play` deals from a chosen or a printed fresh seed and writes the game's record."""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path

import pytest

from boardbot.cli.commands.play import RecordTarget, play_game
from boardbot.cli.main import main
from boardbot.engine import CHANCE, get_game
from boardbot.engine.record import read_record, replay
from boardbot.engine.record_model import MAX_MOVE_BYTES, MAX_NOTATION_CHARS, MAX_STATE_BYTES
from boardbot.jobs import request_bounds

SEED_LINE = re.compile(r"^legend_raiders, seed (\d+) \(deal it again with --seed (\d+)\)$")


def _random_bot(game: object, state: object, seat: int, seed: int) -> str:
    """A bot that plays a seeded random legal move (fast, and it finishes a game)."""
    rules = get_game("legend_raiders")
    actions = rules.legal_actions(state)
    return rules.action_to_str(state, actions[random.Random(seed).randrange(len(actions))])


def _first_legal(game: object, state: object, seat: int, seed: int) -> str:
    rules = get_game("legend_raiders")
    return rules.action_to_str(state, rules.legal_actions(state)[0])


def _human(seed: int) -> io.StringIO:
    """A player's answers: move numbers, some of them past the list (asked again)."""
    rng = random.Random(seed)
    return io.StringIO("".join(f"{rng.randint(1, 4)}\n" for _ in range(5000)))


def test_a_played_game_is_recorded_and_replays_to_its_end(tmp_path: Path) -> None:
    game = get_game("legend_raiders")
    state = game.new_state({"players": 3}, 6)
    out = io.StringIO()
    target = RecordTarget(tmp_path / "game.json", {"players": 3}, "beginner")
    assert play_game(game, state, 1, _random_bot, 6, _human(6), out, target) == 0
    assert out.getvalue().rstrip().endswith(f"game record written to {target.path}")
    record = read_record(target.path)
    assert record.seed == 6 and record.options == {"players": 3}
    assert record.event == "boardbot play" and record.date is not None
    assert record.players == (
        {"seat": 0, "name": "beginner", "kind": "bot"},
        {"seat": 1, "name": "you", "kind": "human"},
        {"seat": 2, "name": "beginner", "kind": "bot"},
    )
    assert record.initial_state == game.state_to_json(state)
    last = replay(game, record)[-1].state
    assert game.is_terminal(last) and record.result is not None
    assert record.result["returns"] == list(game.returns(last))
    assert any(m.seat == CHANCE for m in record.moves)
    assert all(m.clock_ms is not None for m in record.moves if m.seat != CHANCE)
    assert all(m.clock_ms is None for m in record.moves if m.seat == CHANCE)


def test_quitting_writes_the_unfinished_game(tmp_path: Path) -> None:
    game = get_game("legend_raiders")
    state = game.new_state({"players": 2, "first_player": 0}, 2)
    out = io.StringIO()
    target = RecordTarget(tmp_path / "quit.json", {"players": 2}, "easy")
    assert play_game(game, state, 0, _first_legal, 2, io.StringIO("1\n1\nq\n"), out, target) == 0
    assert out.getvalue().endswith(f"> game record (unfinished) written to {target.path}\nbye\n")
    record = read_record(target.path)
    assert record.result is None
    assert [m.seat for m in record.moves].count(0) == 2  # the two moves answered before q
    assert not game.is_terminal(replay(game, record)[-1].state)


def _play_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code = main(["play", "legend_raiders", "--players", "2", "--preset", "beginner",
                 "--iterations", "5", *flags])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_deals_the_seed_it_is_given_and_says_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "seeded.json"
    code, out, _ = _play_command(monkeypatch, capsys, "--seed", "41", "--record", str(path))
    assert code == 0
    assert out.splitlines()[0] == "legend_raiders, seed 41 (deal it again with --seed 41)"
    assert f"written to {path}" in out
    record = read_record(path)
    game = get_game("legend_raiders")
    assert record.seed == 41
    assert record.initial_state == game.state_to_json(game.new_state({"players": 2}, 41))


def test_play_without_a_seed_deals_a_fresh_one_and_prints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = get_game("legend_raiders")
    seeds = []
    for attempt in range(3):
        path = tmp_path / f"fresh{attempt}.json"
        code, out, _ = _play_command(monkeypatch, capsys, "--record", str(path))
        found = SEED_LINE.match(out.splitlines()[0])
        assert code == 0 and found and found.group(1) == found.group(2), out
        seed = int(found.group(1))
        record = read_record(path)
        assert record.seed == seed
        assert record.initial_state == game.state_to_json(game.new_state({"players": 2}, seed))
        seeds.append(seed)
    assert len(set(seeds)) > 1, "three fresh seeds in a row were all the same"


def test_play_refuses_a_record_in_a_missing_folder_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _play_command(
        monkeypatch, capsys, "--record", str(tmp_path / "missing" / "game.json"))
    assert code == 1 and out == ""
    assert err.strip() == (
        f"error: --record {tmp_path / 'missing' / 'game.json'}: no folder {tmp_path / 'missing'}")
    code, _, err = _play_command(monkeypatch, capsys, "--seed", "-3")
    assert code == 1 and err.strip() == "error: --seed must be at least 0, got -3"


def test_the_record_bounds_are_the_services() -> None:
    assert MAX_STATE_BYTES == request_bounds.MAX_STATE_BYTES
    assert MAX_MOVE_BYTES == request_bounds.MAX_MOVE_BYTES
    assert MAX_NOTATION_CHARS == request_bounds.MAX_NOTATION_CHARS
