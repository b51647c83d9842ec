"""Native (through the binding) against Python: engine steps/s and search iterations/s.

    python -m tests.native.bench [--seconds 3]

Engine: seeded uniformly random playouts of Legend Raiders; a step is the current player plus
`legal_actions` + choice + `apply` (or `chance_outcomes` + weighted choice + `apply`), every
call made from Python (so the binding's per-call cost is included). Search: two-player Legend
Raiders at the `medium` settings (400 iterations, exploration 0.7, heuristic rollouts, cut-off
12, early stop off so every search runs its 400 iterations) on the same decisions in both.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from boardbot.engine.legend_raiders.game import LegendRaidersGame
from boardbot.search.api import SearchConfig
from boardbot.search.ismcts import search as python_search
from tests.native.parity import boardbot_native

MEDIUM: dict[str, Any] = {
    "iterations": 400,
    "exploration": 0.7,
    "rollout": "heuristic",
    "cutoff_depth": 12,
    "temperature": 0.0,
    "early_stop": False,
}


def python_steps(players: int, variant: str, seconds: float) -> float:
    game = LegendRaidersGame()
    rng = random.Random(1)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state({"players": players, "variant": variant}, seed)
        seed += 1
        while True:
            player = game.current_player(state)
            if player == -2:
                break
            if player == -1:
                action = game.sample_chance(state, rng)
            else:
                action = rng.choice(list(game.legal_actions(state)))
            state = game.apply(state, action)
            steps += 1
    return steps / (time.perf_counter() - start)


def native_steps(players: int, variant: str, seconds: float) -> float:
    assert boardbot_native is not None
    game = boardbot_native.LegendRaiders()
    options = json.dumps({"players": players, "variant": variant})
    rng = random.Random(1)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(options, seed)
        seed += 1
        while True:
            player = state.current_player()
            if player == -2:
                break
            if player == -1:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def decisions(games: int) -> list[Any]:
    """Python states at 10%, 50% and 85% of seeded random 2-player games."""
    game = LegendRaidersGame()
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        states = []
        state = game.new_state({"players": 2}, seed)
        while game.current_player(state) != -2:
            if game.current_player(state) == -1:
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                if len(game.legal_actions(state)) > 1:
                    states.append(state)
                state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        out += [states[int(len(states) * f)] for f in (0.1, 0.5, 0.85)]
    return out


def search_rates(games: int) -> tuple[float, float]:
    assert boardbot_native is not None
    game = LegendRaidersGame()
    native_game = boardbot_native.LegendRaiders()
    config = SearchConfig(**MEDIUM)
    py_iterations = native_iterations = 0
    py_time = native_time = 0.0
    for index, state in enumerate(decisions(games)):
        seat = game.current_player(state)
        start = time.perf_counter()
        result = python_search(game, state, seat, config, index)
        py_time += time.perf_counter() - start
        py_iterations += result.iterations
        native_state = native_game.state_from_json(json.dumps(game.state_to_json(state)))
        start = time.perf_counter()
        for repeat in range(20):
            native_iterations += boardbot_native.search(
                native_state, seat, MEDIUM, index * 100 + repeat
            )["iterations"]
        native_time += time.perf_counter() - start
    return py_iterations / py_time, native_iterations / native_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per engine row")
    parser.add_argument("--games", type=int, default=3, help="games for the search positions")
    args = parser.parse_args()
    print("players variant   python steps/s  native steps/s (binding)  ratio")
    for players in (2, 4):
        for variant in ("dice", "diceless"):
            py = python_steps(players, variant, args.seconds)
            nat = native_steps(players, variant, args.seconds)
            print(f"{players:7} {variant:9} {py:14,.0f}  {nat:24,.0f}  {nat / py:5.1f}x")
    py_rate, native_rate = search_rates(args.games)
    print(
        f"search, medium, 2 players: python {py_rate:,.0f} iterations/s, "
        f"native {native_rate:,.0f} iterations/s ({native_rate / py_rate:.0f}x)"
    )


if __name__ == "__main__":
    main()
