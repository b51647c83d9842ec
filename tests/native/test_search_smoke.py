"""The native search through the binding: legal, deterministic, cancellable, GIL-free."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import pytest

from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

MEDIUM = {"iterations": 400, "exploration": 0.7, "rollout": "heuristic", "cutoff_depth": 12}


def decision_state(seed: int = 3, steps: int = 30) -> Any:
    """A native 2-player state at a decision with several legal moves, from a Python playout."""
    game = LegendRaidersGame()
    rng = random.Random(seed)
    state = game.new_state({"players": 2}, seed)
    taken = 0
    while True:
        player = game.current_player(state)
        if player >= 0 and taken >= steps and len(game.legal_actions(state)) > 1:
            break
        if player == -1:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(list(game.legal_actions(state))))
            taken += 1
    native = parity.boardbot_native
    assert native is not None
    return native.LegendRaiders().state_from_json(json.dumps(game.state_to_json(state)))


def test_search_returns_a_legal_move_with_python_shaped_stats() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()
    seat = state.current_player()
    result = native.search(state, seat, MEDIUM, 11)
    assert result["action"] in state.legal_actions()
    assert result["notation"] == state.action_to_str(result["action"])
    assert result["seat"] == seat
    assert result["stopped_by"] in {"iterations", "early_stop"}
    assert 0 < result["iterations"] <= 400
    assert result["nodes"] > 1
    assert sorted(m["action"] for m in result["moves"]) == sorted(state.legal_actions())
    top = result["moves"][0]
    assert set(top) == {
        "action",
        "notation",
        "visits",
        "mean_value",
        "lower_bound",
        "principal_variation",
        "principal_variation_seats",
        "prior",
        "net_value",
        "seat_values",
    }
    assert top["seat_values"] == result["seat_values"]
    assert top["seat_values"][seat] == top["mean_value"]
    assert len(top["principal_variation_seats"]) == len(top["principal_variation"])
    # The network's figures of a move: none without a model.
    assert (top["prior"], top["net_value"]) == (None, None)
    assert top["visits"] == max(m["visits"] for m in result["moves"])
    assert 0.0 <= top["mean_value"] <= 1.0


def test_search_is_deterministic_for_a_seed() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state(seed=8)
    seat = state.current_player()
    config = dict(MEDIUM, early_stop=False)
    first = native.search(state, seat, config, 5)
    second = native.search(state, seat, config, 5)
    for result in (first, second):
        result.pop("elapsed_ms")
    assert first == second
    assert first["iterations"] == 400


def test_search_refuses_bad_configs_and_requests() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()
    seat = state.current_player()
    with pytest.raises(ValueError, match="unknown search configuration key 'iteration'"):
        native.search(state, seat, {"iteration": 10}, 0)
    with pytest.raises(native.SearchError, match="budget"):
        native.search(state, seat, {"iterations": None}, 0)
    with pytest.raises(ValueError, match="rollout"):
        native.search(state, seat, {"rollout": "clever"}, 0)
    with pytest.raises(TypeError, match="workers"):
        native.search(state, seat, {"workers": "two"}, 0)
    with pytest.raises(ValueError):
        native.search(state, 1 - seat, MEDIUM, 0)


def test_cancel_from_another_thread_stops_the_search() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()
    flag = native.CancelFlag()
    timer = threading.Timer(0.2, flag.cancel)
    timer.start()
    start = time.perf_counter()
    config = {"iterations": None, "time_ms": 30_000}
    result = native.search(state, state.current_player(), config, 1, cancel=flag)
    elapsed = time.perf_counter() - start
    timer.join()
    assert result["stopped_by"] == "cancelled"
    assert flag.cancelled
    assert elapsed < 5.0
    assert result["action"] in state.legal_actions()


def test_the_gil_is_released_during_a_search_and_progress_is_reported() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    reports: list[dict[str, Any]] = []
    thread = threading.Thread(target=count)
    thread.start()
    try:
        result = native.search(
            state,
            state.current_player(),
            {"iterations": None, "time_ms": 1000, "rollout": "heuristic", "cutoff_depth": 12},
            2,
            on_progress=reports.append,
            progress_every=5000,
        )
    finally:
        done.set()
        thread.join()
    assert result["stopped_by"] == "time"
    assert ticks > 100  # the Python thread ran all along the 1-second search
    assert reports and all(r["stopped_by"] == "running" for r in reports)


def test_a_progress_callback_error_stops_the_search_and_is_raised() -> None:
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()

    def boom(report: dict[str, Any]) -> None:
        raise KeyError("from the callback")

    start = time.perf_counter()
    with pytest.raises(KeyError, match="from the callback"):
        native.search(
            state,
            state.current_player(),
            {"iterations": None, "time_ms": 20_000},
            3,
            on_progress=boom,
            progress_every=100,
        )
    assert time.perf_counter() - start < 5.0


@pytest.mark.parametrize(
    "far", [{"deadline": 1e300}, {"time_ms": 1e300}, {"deadline": 9.3e18, "time_ms": 1e25}]
)
def test_budgets_beyond_any_clock_are_no_panic(far: dict[str, float]) -> None:
    """A server without a client deadline sends one centuries away: it is simply far."""
    native = parity.boardbot_native
    assert native is not None
    state = decision_state()
    result = native.search(state, state.current_player(), {**MEDIUM, **far}, 5)
    assert result["stopped_by"] in {"iterations", "early_stop"}
