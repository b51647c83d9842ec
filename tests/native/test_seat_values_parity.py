"""Every seat's value from one search (`SearchResult.seat_values`): the native core sums and
reports them as the Python reference does, for one tree, root-parallel trees, tree reuse and a
searched forced move."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.search.api import SearchConfig, SearchControls, SearchResult, StopReason
from boardbot.search.engines import Engine
from boardbot.search.ismcts import search, search_view
from boardbot.search.reuse import search_reusing
from tests.native import parity
from tests.search.positions import forced_decision, mid_game_decision

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

CONFIG = SearchConfig(iterations=1500, cutoff_depth=8, rollout="heuristic", early_stop=False)
TOLERANCE = 0.06
"""How far two engines' means of 1500 iterations (different random streams) may lie apart."""
SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("leda", {"clans": ["sharks", "pandas"]}),
    ("legend_raiders", {"players": 2}),
    ("legend_raiders", {"players": 3}),
    ("legend_raiders", {"players": 4}),
]


def check_shape(result: SearchResult, players: int) -> None:
    """Every visited move has every seat's mean in [0, 1], the seat's own being its value;
    the result's are those of the most visited move."""
    assert result.seat_values == result.moves[0].seat_values
    for move in result.moves:
        if move.visits == 0:
            assert move.seat_values == ()
            continue
        assert len(move.seat_values) == players
        assert move.seat_values[result.seat] == move.mean_value
        assert all(0.0 <= v <= 1.0 for v in move.seat_values)


@pytest.mark.parametrize(("name", "options"), SETUPS)
def test_both_engines_report_every_seats_value_alike(name: str, options: dict[str, Any]) -> None:
    game = get_game(name)
    players = game.num_players(game.new_state(options, 0))
    for seed in (3, 8):
        state = mid_game_decision(name, options, seed, 40)
        seat = game.current_player(state)
        native = search(game, state, seat, CONFIG, seed, engine=Engine.NATIVE)
        python = search(game, state, seat, CONFIG, seed, engine=Engine.PYTHON)
        for result in (native, python):
            check_shape(result, players)
            if players == 2:
                # Both games' rewards of two seats add up to 1 (the margin share too).
                for move in result.moves:
                    if move.visits:
                        assert sum(move.seat_values) == pytest.approx(1.0)
        assert native.seat_values == pytest.approx(python.seat_values, abs=TOLERANCE)


def test_root_parallel_trees_merge_every_seats_sums() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", {"players": 3}, 5, 40)
    seat = game.current_player(state)
    config = CONFIG.replace(workers=2)
    native = search(game, state, seat, config, 2, engine=Engine.NATIVE)
    again = search(game, state, seat, config, 2, engine=Engine.NATIVE)
    python = search(game, state, seat, config, 2, engine=Engine.PYTHON)
    assert native.seat_values == again.seat_values
    for result in (native, python):
        check_shape(result, 3)
    assert native.seat_values == pytest.approx(python.seat_values, abs=TOLERANCE)


def test_a_reused_root_keeps_every_seats_sums_on_both_engines() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", {"players": 3}, 6, 40)
    seat = game.current_player(state)
    config = CONFIG.replace(iterations=600)
    for engine in (Engine.NATIVE, Engine.PYTHON):
        first, kept = search_reusing(game, state, seat, config, 1, None, engine=engine)
        again, _ = search_reusing(game, state, seat, config, 2, kept, engine=engine)
        assert again.reused and again.reused_visits == 600
        check_shape(again, 3)
        best = again.moves[0]
        assert best.visits > first.moves[0].visits


@pytest.mark.parametrize(
    ("name", "options"),
    [("leda", {"clans": ["sharks", "pandas"]}), ("legend_raiders", {"players": 3})],
)
def test_a_forced_move_is_searched_when_asked_on_both_engines(
    name: str, options: dict[str, Any]
) -> None:
    game = get_game(name)
    players = game.num_players(game.new_state(options, 0))
    state = forced_decision(name, options, 1)
    seat = game.current_player(state)
    view = game.observe(state, seat)
    config = CONFIG.replace(iterations=800)
    forced = SearchControls(search_forced=True)
    results = {}
    for engine in (Engine.NATIVE, Engine.PYTHON):
        plain = search_view(game, view, config, 4, engine=engine)
        assert plain.stopped_by is StopReason.SINGLE_MOVE
        assert (plain.moves[0].visits, plain.seat_values) == (0, ())
        searched = search_view(game, view, config, 4, forced, engine)
        assert searched.stopped_by is StopReason.ITERATIONS
        assert searched.iterations == searched.moves[0].visits == 800
        check_shape(searched, players)
        results[engine] = searched
    native, python = results[Engine.NATIVE], results[Engine.PYTHON]
    assert native.seat_values == pytest.approx(python.seat_values, abs=TOLERANCE)
