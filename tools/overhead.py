"""The service's own overhead: ChooseMove latency minus in-process search time, same budget."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from boardbot.engine import Game, State
from boardbot.jobs import game_ops, settings
from boardbot.jobs.extra_games import register_env_games
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine, uses_native
from boardbot.search.ismcts import search
from boardbot.search.presets import resolve_preset
from boardbot.tools.local_server import local_server


@dataclass(frozen=True)
class OverheadResult:
    """Percentiles (milliseconds) of latency, in-process search time and their difference."""

    game: str
    engine: str
    """What ran the searches: native or python."""
    iterations: int
    requests: int
    latency_p50_ms: float
    latency_p99_ms: float
    search_p50_ms: float
    search_p99_ms: float
    overhead_p50_ms: float
    overhead_p99_ms: float
    median_difference_ms: float
    """p50 latency minus p50 search time (less sensitive to noise in long searches)."""
    outside_search_p50_ms: float
    outside_search_p99_ms: float
    """Latency minus the search time the worker itself reports for the same request."""

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of `values`, by linear interpolation."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def decision_state(game: Game, options: Mapping[str, Any], seed: int, plies: int) -> State:
    """The first state at least `plies` random decisions into a seeded game where the seat to
    move has two or more moves (so the search really runs)."""
    rng = random.Random(seed)
    state, _ = game_ops.resolve_chance(game, game.new_state(options, seed), rng)
    played = 0
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        if played >= plies and len(actions) >= 2:
            return state
        state, _ = game_ops.resolve_chance(
            game, game.apply(state, actions[rng.randrange(len(actions))]), rng
        )
        played += 1
    raise ValueError("the game ended before a state with a choice was found")


def measure_overhead(
    game_name: str,
    options: Mapping[str, Any],
    iterations: int = 200,
    requests: int = 200,
    warmup: int = 20,
    seed: int = 0,
    send_view: bool = False,
    engine: Engine = Engine.AUTO,
) -> OverheadResult:
    """Run `requests` ChooseMove calls on a local one-worker server and the same searches here.

    The requests carry the full state, or with `send_view` only the seat's view of it."""
    register_env_games()
    native = uses_native(engine, game_name)  # refuses `native` for a game without a twin
    game = game_ops.load_game(game_name)
    state = decision_state(game, options, seed, plies=4)
    seat = game.current_player(state)
    raw = game_ops.encode_state(game, state, observer=seat if send_view else None)
    used = Engine.NATIVE if native else Engine.PYTHON
    base = resolve_preset(settings.default_preset_name(), game, used)
    config: SearchConfig = base.replace(iterations=iterations, time_ms=None, workers=1)
    with local_server(engine) as stub:
        latencies, searches, outside = [], [], []
        for i in range(warmup + requests):
            request = pb.ChooseMoveRequest(
                game=game_name,
                state_json=raw,
                seat=seat,
                preset=settings.default_preset_name(),
                settings=pb.SearchSettings(iterations=iterations, workers=1),
                seed=i,
            )
            start = time.perf_counter()
            reply = stub.ChooseMove(request, timeout=60)
            latency = time.perf_counter() - start
            start = time.perf_counter()
            local = search(game, state, seat, config, i, shown=0, engine=engine)  # as ChooseMove
            searched = time.perf_counter() - start
            if (local.iterations, local.notation) != (reply.stats.iterations, reply.move.notation):
                raise RuntimeError("the server and the local search did different work")
            if i >= warmup:
                latencies.append(latency * 1000.0)
                searches.append(searched * 1000.0)
                outside.append(latency * 1000.0 - reply.stats.elapsed_ms)
    overheads = [lat - s for lat, s in zip(latencies, searches, strict=True)]
    return OverheadResult(
        game=game_name,
        engine="native" if native else "python",
        iterations=iterations,
        requests=requests,
        latency_p50_ms=round(statistics.median(latencies), 3),
        latency_p99_ms=round(percentile(latencies, 0.99), 3),
        search_p50_ms=round(statistics.median(searches), 3),
        search_p99_ms=round(percentile(searches, 0.99), 3),
        overhead_p50_ms=round(percentile(overheads, 0.5), 3),
        overhead_p99_ms=round(percentile(overheads, 0.99), 3),
        median_difference_ms=round(statistics.median(latencies) - statistics.median(searches), 3),
        outside_search_p50_ms=round(percentile(outside, 0.5), 3),
        outside_search_p99_ms=round(percentile(outside, 0.99), 3),
    )
