"""The rating fit: Bradley-Terry (choix) on pairwise results, Elo anchor, deal bootstrap."""

from __future__ import annotations

from itertools import pairwise

import pytest

from boardbot.tools.ladder_report import markdown
from boardbot.tools.ratings import anchor_of, fit_ladder, pairwise_results
from tests.tools.ladder_helpers import synthetic_games

TRUE_ELO = [0.0, 150.0, 350.0, 600.0]
NAMES = [f"bot{i}" for i in range(len(TRUE_ELO))]


def test_a_draw_is_half_a_win_each_way_and_more_players_break_ties_by_score() -> None:
    draw = {"seats": ["a", "b"], "returns": [0.5, 0.5], "scores": [3.0, 9.0]}
    assert pairwise_results(draw) == [("a", "b", 0.5)]
    won = {"seats": ["a", "b"], "returns": [0.0, 1.0], "scores": [9.0, 3.0]}
    assert pairwise_results(won) == [("a", "b", 0.0)]
    three = {"seats": ["a", "b", "c"], "returns": [0.0, 1.0, 0.0], "scores": [5.0, 1.0, 5.0]}
    assert pairwise_results(three) == [("a", "b", 0.0), ("a", "c", 0.5), ("b", "c", 1.0)]
    four = {"seats": ["a", "b", "c", "d"], "returns": [0, 0, 1, 0], "scores": [2, 7, 0, 4]}
    assert dict(((x, y), s) for x, y, s in pairwise_results(four))[("a", "d")] == 0.0


@pytest.mark.parametrize(("players", "deals"), [(2, 300), (3, 200), (4, 300)])
def test_the_fit_recovers_known_strengths(players: int, deals: int) -> None:
    entries = synthetic_games(TRUE_ELO, players, deals, seed=11)
    ratings = fit_ladder(entries, NAMES, resamples=40, seed=5)
    elo = [r.elo for r in ratings.ratings]
    assert elo[0] == 0.0  # no random bot: the first bot is the anchor
    assert ratings.anchor == "bot0"
    assert elo == sorted(elo)
    for fitted, true in zip(elo, TRUE_ELO, strict=True):
        assert fitted == pytest.approx(true, abs=90.0)
    steps = [s.difference for s in ratings.steps]
    assert steps == pytest.approx([b - a for a, b in pairwise(elo)])
    for r in ratings.ratings:
        assert r.low <= r.elo <= r.high
    for s in ratings.steps:
        assert s.low <= s.difference <= s.high
        assert s.low > 0.0  # every true step is at least 150 Elo
    model = "bradley-terry" if players == 2 else "bradley-terry on pairwise finishing orders"
    assert ratings.model == model
    assert ratings.deals == deals


def test_random_is_the_anchor_wherever_it_is_listed() -> None:
    entries = synthetic_games(TRUE_ELO, 2, 60, seed=2)
    renamed = [
        {**e, "seats": ["random" if s == "bot1" else s for s in e["seats"]]} for e in entries
    ]
    bots = ["bot0", "random", "bot2", "bot3"]
    assert anchor_of(bots) == "random"
    ratings = fit_ladder(renamed, bots, resamples=20, seed=1)
    by_bot = {r.bot: r for r in ratings.ratings}
    assert by_bot["random"].elo == 0.0
    assert (by_bot["random"].low, by_bot["random"].high) == (0.0, 0.0)
    assert by_bot["bot0"].elo < 0.0 < by_bot["bot3"].elo


def test_the_bootstrap_is_seeded_and_resamples_whole_deals() -> None:
    entries = synthetic_games(TRUE_ELO, 2, 40, seed=4)
    one = fit_ladder(entries, NAMES, resamples=30, seed=9)
    again = fit_ladder(entries, NAMES, resamples=30, seed=9)
    other = fit_ladder(entries, NAMES, resamples=30, seed=10)
    assert one == again
    assert one.ratings != other.ratings
    assert [r.elo for r in one.ratings] == [r.elo for r in other.ratings]
    # One deal only: every resample is that deal, so the interval collapses on the estimate.
    single = [e for e in entries if e["seed"] == 0]
    lone = fit_ladder(single, NAMES, resamples=10, seed=1)
    for r in lone.ratings:
        assert r.low == pytest.approx(r.elo) and r.high == pytest.approx(r.elo)


def test_a_bot_that_wins_everything_keeps_a_finite_rating() -> None:
    entries = [
        {"seed": d, "seats": ["random", "greedy"], "returns": [0.0, 1.0], "scores": [0.0, 1.0]}
        for d in range(20)
    ]
    ratings = fit_ladder(entries, ["random", "greedy"], resamples=10, seed=0)
    greedy = ratings.ratings[1].elo
    assert 300.0 < greedy < 1500.0
    assert ratings.wins == ((0.0, 0.0), (20.0, 0.0))  # wins[i][j]: i ahead of j
    assert ratings.meetings == ((0, 20), (20, 0))


def test_unfinished_games_are_counted_and_left_out() -> None:
    entries = synthetic_games([0.0, 200.0, 400.0], 2, 6, seed=3)
    stalled = dict(entries[0], returns=[], unfinished=True)
    clean = fit_ladder(entries, NAMES[:3], resamples=20, seed=2)
    with_stall = fit_ladder([*entries, stalled], NAMES[:3], resamples=20, seed=2)
    assert (clean.unfinished, with_stall.unfinished) == (0, 1)
    assert with_stall.ratings == clean.ratings and with_stall.games == clean.games
    assert "1 game(s) stopped unfinished" in markdown(with_stall, "t")
    assert "unfinished" not in markdown(clean, "t")
