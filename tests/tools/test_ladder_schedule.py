"""The ladder's schedule: every table, every seat, every clan pairing, interleaved deals."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from boardbot.engine import get_game
from boardbot.tools.ladder import ladder_settings, schedule_of
from boardbot.tools.ladder_schedule import build_schedule
from boardbot.tools.match import run_match
from tests.tools.ladder_helpers import small_settings


def test_two_players_every_pair_every_seat_and_deals_interleaved() -> None:
    settings = small_settings(games=4)
    schedule = schedule_of(get_game("legend_raiders"), settings)
    assert len(schedule) == 3 * 4
    assert {g.table for g in schedule} == set(combinations(settings.bots, 2))
    seats = Counter((g.table[g.job[3][s]], s) for g in schedule for s in range(2))
    assert set(seats.values()) == {4}  # each bot sits 4 times in each seat (2 tables x 2)
    # Deal by deal: the first deal at every table before any second deal.
    assert [g.deal for g in schedule] == [0] * 6 + [1] * 6
    assert [g.table for g in schedule[:6:2]] == list(combinations(settings.bots, 2))
    # A deal is the same at every table and played from both seats.
    assert len({g.job[4] for g in schedule if g.deal == 0}) == 1
    assert {g.job[3] for g in schedule if g.deal == 0} == {(0, 1), (1, 0)}


def test_leda_plays_every_ordered_clan_pairing_from_both_seats() -> None:
    game = get_game("leda")
    settings = ladder_settings(game, {}, ["random", "greedy"], 24, 3, "python")
    assert len(settings.option_sets) == 12
    schedule = schedule_of(game, settings)
    played = Counter((tuple(g.job[1]["clans"]), g.job[3]) for g in schedule)
    assert len(played) == 24 and set(played.values()) == {1}


def test_three_players_every_combination_every_seat_and_balanced_opponents() -> None:
    bots = ["random", "greedy", "beginner@5", "easy@5"]
    settings = small_settings(bots, games=3, players=3)
    schedule = schedule_of(get_game("legend_raiders"), settings)
    assert len(schedule) == 4 * 3
    seats = Counter((g.table[g.job[3][s]], s) for g in schedule for s in range(3))
    assert set(seats.values()) == {3} and len(seats) == 12  # every bot, every seat, 3 times
    met = Counter(pair for g in schedule for pair in combinations(sorted(g.table), 2))
    assert set(met.values()) == {6}  # every pair of bots at 2 tables of 3 games


def test_a_table_plays_the_match_run_match_plays() -> None:
    game = get_game("legend_raiders")
    settings = small_settings(("random", "greedy"), games=4, seed=8)
    schedule = build_schedule(game, settings.bots, 2, 4, 8, settings.option_sets)
    _, records = run_match(game, ["random", "greedy"], 4, 8, settings.option_sets)
    assert [(g.job[3], g.job[4], g.job[1]) for g in schedule] == [
        (r.seating, r.seed, r.options) for r in records
    ]
