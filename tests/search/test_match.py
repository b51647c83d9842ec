"""The match runner and the `boardbot match` / `boardbot bench search` commands."""

from __future__ import annotations

import json

import pytest

from boardbot.cli.main import main
from boardbot.engine.registry import register_game
from boardbot.search import presets
from boardbot.search.api import SearchConfig
from boardbot.search.presets import resolve_preset
from boardbot.tools.match import MatchError, run_match, seating_for
from boardbot.tools.search_bench import bench_positions, bench_search
from boardbot.tools.stats import wilson_interval
from tests.search.toy_games import KingmakerGame, NimGame


def test_wilson_interval() -> None:
    low, high = wilson_interval(18, 20)
    assert low == pytest.approx(0.6990, abs=1e-3)
    assert high == pytest.approx(0.9721, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_seats_rotate() -> None:
    assert [seating_for(i, 3) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def figures_without_time(report: object) -> list[tuple[object, ...]]:
    return [(b.bot, b.games, b.wins, b.mean_score, b.mean_game_length) for b in report.reports]  # type: ignore[attr-defined]


def test_match_is_seeded_and_reports_per_bot() -> None:
    game = NimGame()
    options = [{"stones": 9}, {"stones": 10}]
    report, records = run_match(game, ["easy", "random"], 8, 3, options)
    again, _ = run_match(game, ["easy", "random"], 8, 3, options)
    assert figures_without_time(report) == figures_without_time(again)
    assert [r.seating for r in records] == [(0, 1), (1, 0)] * 4
    assert [r.options["stones"] for r in records] == [9, 9, 10, 10] * 2
    easy, rand = report.reports
    assert easy.games == rand.games == 8
    assert easy.wins + rand.wins == 8
    assert easy.wins > rand.wins
    assert easy.win_rate_low <= easy.win_rate <= easy.win_rate_high
    assert easy.mean_decision_ms > 0


def test_match_plays_the_presets_tuned_for_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tuned for toy-nim, "easy" becomes a 1-iteration, high-temperature search: a weak bot.
    weak = SearchConfig(iterations=1, rollout="random", temperature=5.0)
    game, options = NimGame(), [{"stones": 9}, {"stones": 10}]
    plain, _ = run_match(game, ["easy", "random"], 8, 3, options)
    monkeypatch.setattr(
        NimGame, "preset_overrides", {"easy": weak.__dict__}, raising=False
    )
    tuned, _ = run_match(game, ["easy", "random"], 8, 3, options)
    monkeypatch.delattr(NimGame, "preset_overrides")
    monkeypatch.setitem(presets.PRESETS, "easy", weak)
    weak_everywhere, _ = run_match(game, ["easy", "random"], 8, 3, options)
    assert figures_without_time(tuned) == figures_without_time(weak_everywhere)
    assert figures_without_time(tuned) != figures_without_time(plain)


def test_parallel_match_gives_the_same_games() -> None:
    game = NimGame()
    sequential, _ = run_match(game, ["greedy", "random"], 6, 1, [{"stones": 13}])
    parallel, _ = run_match(game, ["greedy", "random"], 6, 1, [{"stones": 13}], parallel=2)
    assert figures_without_time(sequential) == figures_without_time(parallel)


def test_match_refuses_a_wrong_bot_count() -> None:
    with pytest.raises(MatchError, match="seats"):
        run_match(KingmakerGame(), ["random", "random"], 2, 0)


def test_match_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    register_game("toy-nim", "tests.search.toy_games:NimGame")
    code = main(["match", "--game", "toy-nim", "--option", "stones=9", "--bots", "greedy,random",
                 "--games", "4", "--seed", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert [b["bot"] for b in report["reports"]] == ["greedy", "random"]
    assert sum(b["wins"] for b in report["reports"]) == 4
    assert report["duplicate"] is True


def test_match_command_can_give_every_game_its_own_deal(capsys: pytest.CaptureFixture[str]) -> None:
    register_game("toy-nim", "tests.search.toy_games:NimGame")
    main(["match", "--game", "toy-nim", "--option", "stones=9", "--bots", "greedy,random",
          "--games", "4", "--no-duplicate"])
    assert "independent deals" in capsys.readouterr().out


def test_match_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    register_game("toy-kingmaker", "tests.search.toy_games:KingmakerGame")
    main(["match", "--game", "toy-kingmaker", "--bots", "beginner,random,random", "--games", "3"])
    out = capsys.readouterr().out
    assert "win rate" in out
    assert "0:beginner" in out
    assert "duplicate deals" in out


def test_bench_positions_and_figures() -> None:
    game = NimGame()
    positions = bench_positions(game, {"stones": 40}, 0)
    assert [p[0] for p in positions] == ["early", "mid", "late"]
    result = bench_search(game, {"stones": 40}, "easy", resolve_preset("easy"), 0)
    assert len(result.positions) == 3
    assert all(p.iterations == resolve_preset("easy").iterations for p in result.positions)
    assert all(0.0 < p.engine_share < 1.0 for p in result.positions)


def test_bench_search_command(capsys: pytest.CaptureFixture[str]) -> None:
    register_game("toy-nim", "tests.search.toy_games:NimGame")
    assert main(["bench", "search", "--game", "toy-nim", "--option", "stones=30",
                 "--preset", "beginner", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["preset"] == "beginner"
    assert len(data["positions"]) == 3


def test_duplicate_deals_replay_each_setup_from_every_seat() -> None:
    game = KingmakerGame()
    _, records = run_match(game, ["random", "random", "greedy"], 6, 5)
    seeds = [r.seed for r in records]
    assert seeds[0] == seeds[1] == seeds[2] != seeds[3]
    assert seeds[3] == seeds[4] == seeds[5]
    _, independent = run_match(game, ["random", "random", "greedy"], 6, 5, duplicate=False)
    assert len({r.seed for r in independent}) == 6
