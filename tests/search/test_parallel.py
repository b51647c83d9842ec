"""Root-parallel search: worker seeds, budget split, merging and determinism."""

from __future__ import annotations

from boardbot.search.api import SearchConfig
from boardbot.search.ismcts import search
from boardbot.search.parallel import split_iterations, worker_seed
from boardbot.search.results import merge_tallies, seat_values
from boardbot.search.tree_search import RootTally
from tests.search.toy_games import GuessGame, GuessState, NimGame


def test_budget_split_and_seeds() -> None:
    assert split_iterations(10, 3) == [4, 3, 3]
    assert split_iterations(None, 2) == [None, None]
    assert worker_seed(5, 0) != worker_seed(5, 1)
    assert worker_seed(5, 1) == worker_seed(5, 1)


def test_merge_sums_visits_and_keeps_the_busiest_line() -> None:
    a = (RootTally("x", 10, 6.0, ("x", "p")), RootTally("y", 2, 1.0, ("y",)))
    b = (RootTally("x", 4, 1.0, ("x", "q")), RootTally("y", 8, 4.0, ("y", "r")))
    merged = {t.action: t for t in merge_tallies([a, b])}
    assert merged["x"] == RootTally("x", 14, 7.0, ("x", "p"))
    assert merged["y"] == RootTally("y", 10, 5.0, ("y", "r"))


def test_merge_keeps_the_line_of_the_single_busiest_tree() -> None:
    """With three trees, the kept line is the one tree that visited the move most, not the
    one that beat the running sum."""
    a = (RootTally("x", 5, 2.0, ("x", "a")),)
    b = (RootTally("x", 4, 2.0, ("x", "b")),)
    c = (RootTally("x", 6, 3.0, ("x", "c")),)
    (merged,) = merge_tallies([a, b, c])
    assert merged == RootTally("x", 15, 7.0, ("x", "c"))


def test_root_parallel_is_deterministic_and_merges_all_workers() -> None:
    game = GuessGame()
    state = GuessState((2, 4), (1, 3), 0)
    config = SearchConfig(iterations=400, workers=2, early_stop=False)
    first = search(game, state, 0, config, 9)
    second = search(game, state, 0, config, 9)
    assert first.iterations == 400
    assert sum(m.visits for m in first.moves) == 400
    assert [(m.action, m.visits, m.mean_value) for m in first.moves] == [
        (m.action, m.visits, m.mean_value) for m in second.moves
    ]
    assert first.notation == "coin"
    assert first.seat_values == second.seat_values == first.moves[0].seat_values
    assert first.seat_values[0] == first.moves[0].mean_value


def test_merge_keeps_the_seats_of_the_line_it_keeps() -> None:
    a = (RootTally("x", 5, 2.0, ("x", "a"), principal_variation_seats=(0, 1)),)
    b = (RootTally("x", 6, 3.0, ("x", "b", "c"), principal_variation_seats=(0, 2, 1)),)
    (merged,) = merge_tallies([a, b])
    assert (merged.principal_variation, merged.principal_variation_seats) == (
        ("x", "b", "c"), (0, 2, 1)
    )


def test_merge_sums_every_seat() -> None:
    a = (RootTally("x", 4, 3.0, (), 4, (3.0, 1.0)),)
    b = (RootTally("x", 2, 1.0, ()),)
    c = (RootTally("x", 4, 1.0, (), 4, (1.0, 2.0)),)
    (merged,) = merge_tallies([a, b, c])
    assert merged == RootTally("x", 10, 5.0, (), 8, (4.0, 3.0))
    assert seat_values(merged, 0, 0.5) == (0.5, 0.375)
    assert seat_values(RootTally("y", 3, 1.0), 0, 0.3) == ()


def test_root_parallel_time_budget_and_progress() -> None:
    game = NimGame()
    seen = []
    config = SearchConfig(iterations=None, time_ms=300, workers=2)
    result = search(game, game.new_state({"stones": 30}), 0, config, 1,
                    on_progress=seen.append, progress_every=200)
    assert result.stopped_by == "time"
    assert result.iterations > 0
    assert all(r.stopped_by == "running" for r in seen)


def test_root_parallel_cancellation() -> None:
    game = NimGame()
    config = SearchConfig(iterations=None, time_ms=60_000, workers=2)
    result = search(game, game.new_state({"stones": 30}), 0, config, 1, should_stop=lambda: True)
    assert result.stopped_by == "cancelled"


def test_merge_keeps_a_reported_line_over_a_busier_tree_without_one() -> None:
    """Workers line only their own top moves: a tree that reported no line for a move never
    replaces one that did, whatever its visits."""
    lined = (RootTally("x", 5, 2.0, ("x", "a")),)
    unlined = (RootTally("x", 9, 4.0),)
    for order in ([lined, unlined], [unlined, lined]):
        (merged,) = merge_tallies(order)
        assert merged == RootTally("x", 14, 6.0, ("x", "a"))
    (nobody,) = merge_tallies([unlined, unlined])
    assert nobody == RootTally("x", 18, 8.0, ())


def test_root_parallel_describes_only_the_moves_shown() -> None:
    game = GuessGame()
    state = GuessState((2, 4), (1, 3), 0)
    config = SearchConfig(iterations=400, workers=2, early_stop=False)
    full = search(game, state, 0, config, 9)
    chosen_only = search(game, state, 0, config, 9, shown=0)
    described = [m for m in chosen_only.moves if m.notation is not None]
    assert [m.action for m in described] == [chosen_only.action] == [full.action]
    assert described[0] == full.moves[0]
    assert all(m.principal_variation for m in full.moves)
