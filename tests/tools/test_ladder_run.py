"""Playing a ladder into a folder: one line per game, resume without replaying, refusals."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.tools import ladder, match
from boardbot.tools.ladder import run_ladder
from boardbot.tools.ladder_store import LadderError, LadderStore
from boardbot.tools.match import MatchError, play_game, run_match
from tests.tools.ladder_helpers import small_settings, without_times

GAME = get_game("legend_raiders")


def lines(folder: Path) -> list[bytes]:
    return (folder / "games.jsonl").read_bytes().splitlines()


def test_a_stopped_ladder_resumes_without_replaying(tmp_path: Path) -> None:
    settings = small_settings()
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    run = run_ladder(GAME, settings, whole, stream=io.StringIO())
    assert (run.before, run.played, run.remaining, run.total) == (0, 12, 0, 12)

    first = run_ladder(GAME, settings, parts, limit=5, stream=io.StringIO())
    assert (first.played, first.remaining) == (5, 7)
    played_first = lines(parts)
    second = run_ladder(GAME, settings, parts, stream=io.StringIO())
    assert (second.before, second.played, second.remaining) == (5, 7, 0)
    assert lines(parts)[:5] == played_first  # the first five games were not played again
    again = run_ladder(GAME, settings, parts, stream=io.StringIO())
    assert again.played == 0 and len(lines(parts)) == 12

    assert [without_times(orjson.loads(x)) for x in lines(parts)] == [
        without_times(orjson.loads(x)) for x in lines(whole)
    ]
    keys = {(tuple(orjson.loads(x)["table"]), orjson.loads(x)["game"]) for x in lines(whole)}
    assert len(keys) == 12


def test_a_game_past_the_step_limit_is_kept_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game the bots never end is stopped, kept as unfinished and not played again."""
    monkeypatch.setattr(ladder, "LADDER_STEP_LIMIT", 3)
    settings = small_settings(("random", "greedy"), games=2, seed=3)
    run = run_ladder(GAME, settings, tmp_path, stream=io.StringIO())
    assert run.played == 2
    entries = [orjson.loads(x) for x in lines(tmp_path)]
    assert all(e["unfinished"] is True and e["returns"] == [] for e in entries)
    assert len(entries[0]["scores"]) == 2
    assert run_ladder(GAME, settings, tmp_path, stream=io.StringIO()).played == 0
    record = play_game(GAME, {"players": 2}, ["random", "greedy"], (0, 1), 3, step_limit=3)
    assert not record.finished and record.returns == ()
    whole = play_game(GAME, {"players": 2}, ["random", "greedy"], (0, 1), 3)
    assert whole.finished and len(whole.returns) == 2
    with pytest.raises(MatchError, match="did not end within"):
        monkeypatch.setattr(match, "MAX_GAME_STEPS", 3)
        play_game(GAME, {"players": 2}, ["random", "greedy"], (0, 1), 3)


def test_the_games_file_holds_the_table_matches(tmp_path: Path) -> None:
    settings = small_settings(("random", "greedy"), games=4, seed=3)
    run_ladder(GAME, settings, tmp_path, stream=io.StringIO())
    entries = [orjson.loads(x) for x in lines(tmp_path)]
    _, records = run_match(GAME, ["random", "greedy"], 4, 3, settings.option_sets)
    assert [(e["seating"], e["returns"], e["scores"], e["decisions"]) for e in entries] == [
        (list(r.seating), list(r.returns), list(r.scores), r.decisions) for r in records
    ]
    first = entries[1]
    assert first["seats"] == [first["table"][b] for b in first["seating"]]
    assert set(first) >= {"table", "game", "deal", "seed", "options", "decision_seconds"}


def test_other_settings_into_the_same_folder_are_refused(tmp_path: Path) -> None:
    run_ladder(GAME, small_settings(("random", "greedy"), games=2), tmp_path,
               stream=io.StringIO())
    with pytest.raises(LadderError, match=r"other settings \(seed: folder has 1, asked 2\)"):
        run_ladder(GAME, small_settings(("random", "greedy"), games=2, seed=2), tmp_path)
    with pytest.raises(LadderError, match="bots"):
        run_ladder(GAME, small_settings(("random", "beginner@5"), games=2), tmp_path)
    assert len(lines(tmp_path)) == 2


def test_a_cut_last_line_is_dropped_and_its_game_played_again(tmp_path: Path) -> None:
    settings = small_settings(("random", "greedy"), games=4)
    run_ladder(GAME, settings, tmp_path, limit=3, stream=io.StringIO())
    complete = lines(tmp_path)
    with (tmp_path / "games.jsonl").open("ab") as handle:
        handle.write(b'{"table": ["random", "gre')
    assert len(LadderStore(tmp_path).load_games()) == 3
    run_ladder(GAME, settings, tmp_path, stream=io.StringIO())
    assert lines(tmp_path)[:3] == complete and len(lines(tmp_path)) == 4


def test_progress_is_reported_per_finished_game(tmp_path: Path) -> None:
    stream = io.StringIO()
    run_ladder(GAME, small_settings(("random", "greedy"), games=2), tmp_path, stream=stream)
    text = stream.getvalue()
    assert "ladder: 1/2 games" in text and "ladder: 2/2 games" in text
    assert "random vs greedy, game 1" in text and "left" in text


def test_a_ladder_extended_with_bots_and_games_keeps_what_it_played(tmp_path: Path) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    extended = small_settings(("random", "beginner@5", "greedy"), games=4)
    run_ladder(GAME, small_settings(("random", "greedy"), games=2), grown, stream=io.StringIO())
    played = lines(grown)
    run = run_ladder(GAME, extended, grown, stream=io.StringIO())
    assert (run.before, run.played, run.total) == (2, 10, 12)
    assert lines(grown)[:2] == played
    assert LadderStore(grown).read_settings() == extended
    run_ladder(GAME, extended, whole, stream=io.StringIO())

    def games(folder: Path) -> list[dict[str, Any]]:
        entries = [without_times(orjson.loads(x)) for x in lines(folder)]
        return sorted(entries, key=lambda e: (e["table"], e["game"]))

    assert games(grown) == games(whole)
    with pytest.raises(LadderError, match="games_per_pairing: folder has 4, asked 2"):
        run_ladder(GAME, small_settings(("random", "beginner@5", "greedy"), games=2), grown)
    with pytest.raises(LadderError, match="bots"):
        run_ladder(GAME, small_settings(("greedy", "random", "beginner@5"), games=4), grown)
