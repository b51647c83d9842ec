"""Search benchmark: iterations per second and the engine's share of the time."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, cast

from boardbot.engine.api import CHANCE, Game, State
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine, uses_native
from boardbot.search.ismcts import search
from boardbot.search.seeds import derive_seed
from boardbot.tools.timing import TimedGame

PHASES = (("early", 0.1), ("mid", 0.5), ("late", 0.85))
"""Bench positions: the decision at this fraction of a seeded random game."""


@dataclass(frozen=True)
class PositionBench:
    """Figures of the search on one position."""

    phase: str
    decision_index: int
    legal_moves: int
    iterations: int
    seconds: float
    iterations_per_second: float
    engine_share: float | None
    """Share of the (timed run's) search time spent inside engine calls (None on the native
    core, which `cargo run --release --example bench_search` in core/search measures)."""
    engine_calls_per_iteration: float | None
    fifth_move_visits: int = 0
    """Visits of the 5th most visited root move (what the 5th line of an Analyze shows; 0 with
    fewer than 5 moves)."""


def fifth_move_visits(visits: list[int]) -> int:
    """Visits of the 5th most visited move (0 with fewer than 5)."""
    ranked = sorted(visits, reverse=True)
    return ranked[4] if len(ranked) >= 5 else 0


@dataclass(frozen=True)
class SearchBenchResult:
    """The benchmark over the early, mid and late positions."""

    game: str
    options: dict[str, Any]
    preset: str
    seed: int
    positions: tuple[PositionBench, ...]
    iterations_per_second: float
    engine_share: float | None
    engine: str = "python"
    """What ran the searches: python or native."""

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def bench_positions(
    game: Game, options: Mapping[str, Any], seed: int
) -> list[tuple[str, int, State]]:
    """Early, mid and late decision states (more than one legal move) of a seeded random game."""
    rng = random.Random(derive_seed(seed, "bench-game"))
    state = game.new_state(options, seed)
    decisions: list[State] = []
    while not game.is_terminal(state):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        actions = game.legal_actions(state)
        if len(actions) > 1:
            decisions.append(state)
        state = game.apply(state, actions[rng.randrange(len(actions))])
    if not decisions:
        raise ValueError(f"a random {game.name} game with seed {seed} had no real decision")
    picks = []
    for phase, fraction in PHASES:
        index = min(len(decisions) - 1, int(fraction * len(decisions)))
        picks.append((phase, index, decisions[index]))
    return picks


def bench_search(
    game: Game,
    options: Mapping[str, Any],
    preset: str,
    config: SearchConfig,
    seed: int = 0,
    engine: Engine = Engine.PYTHON,
) -> SearchBenchResult:
    """Search each bench position twice in Python (plain for speed, timed for the engine
    share), once on the native core (`engine` native, or auto for a game with a twin)."""
    native = uses_native(engine, game.name)
    config = config.replace(workers=1, early_stop=False, time_ms=None, deadline=None)
    figures = []
    total_iterations = 0
    total_seconds = 0.0
    total_engine = 0.0
    total_timed = 0.0
    for phase, index, state in bench_positions(game, options, seed):
        seat = game.current_player(state)
        start = time.perf_counter()
        plain = search(game, state, seat, config, seed, engine=engine)
        seconds = time.perf_counter() - start
        total_iterations += plain.iterations
        total_seconds += seconds
        fifth = fifth_move_visits([m.visits for m in plain.moves])
        if native:
            figures.append(
                PositionBench(
                    phase, index, len(game.legal_actions(state)), plain.iterations,
                    round(seconds, 3), round(plain.iterations / seconds, 1), None, None, fifth,
                )
            )  # fmt: skip
            continue
        timed_game = TimedGame(game)
        start = time.perf_counter()
        search(cast(Game, timed_game), state, seat, config, seed, engine=Engine.PYTHON)
        timed_seconds = time.perf_counter() - start
        share = timed_game.engine_seconds / timed_seconds
        figures.append(
            PositionBench(
                phase=phase,
                decision_index=index,
                legal_moves=len(game.legal_actions(state)),
                iterations=plain.iterations,
                seconds=round(seconds, 3),
                iterations_per_second=round(plain.iterations / seconds, 1),
                engine_share=round(share, 3),
                engine_calls_per_iteration=round(timed_game.calls / max(1, plain.iterations), 1),
                fifth_move_visits=fifth,
            )
        )
        total_engine += timed_game.engine_seconds
        total_timed += timed_seconds
    return SearchBenchResult(
        game=game.name,
        options=dict(options),
        preset=preset,
        seed=seed,
        positions=tuple(figures),
        iterations_per_second=round(total_iterations / total_seconds, 1),
        engine_share=None if native else round(total_engine / total_timed, 3),
        engine="native" if native else "python",
    )
