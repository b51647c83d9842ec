"""ChooseMove latency per difficulty preset through a local one-worker server, on one engine."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from boardbot.engine import Game, State
from boardbot.jobs import game_ops
from boardbot.jobs.extra_games import register_env_games
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine, uses_native
from boardbot.search.presets import resolve_preset
from boardbot.tools.local_server import local_server
from boardbot.tools.overhead import percentile
from boardbot.tools.search_bench import bench_positions

TIMEOUT_S = 120.0
"""Deadline of each ChooseMove: generous, so the preset's own budget ends the search (the
server still bounds any search by its `max_time_ms`, 30 s by default)."""


@dataclass(frozen=True)
class PresetLatency:
    """One preset's figures over every request sent for it."""

    preset: str
    iterations: int
    """The preset's iteration budget on this engine (each request asks for exactly it)."""
    requests: int
    p50_ms: float
    """End-to-end ChooseMove latency seen by the client, median."""
    p99_ms: float
    search_p50_ms: float
    """The search time the worker reports (`stats.elapsed_ms`), median."""
    search_mean_ms: float
    """The same, mean: the time per move the preset's latency target bounds."""
    mean_iterations: float
    stopped_by: str
    """The most common `stats.stopped_by` (ties: the one seen first)."""
    stopped_by_counts: dict[str, int]


@dataclass(frozen=True)
class PresetLatencyResult:
    """The figures of every preset on one engine."""

    game: str
    options: dict[str, Any]
    engine: str
    """What ran the searches: python or native."""
    requests: int
    """Measured requests per preset, spread round-robin over the positions."""
    positions: int
    seed: int
    presets: tuple[PresetLatency, ...]

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def latency_positions(game: Game, options: Mapping[str, Any], seed: int, count: int) -> list[State]:
    """`count` decision states (each with a choice): the early, mid and late bench positions
    (tools/search_bench.py) of the seeded games `seed`, `seed + 1`, ... in turn."""
    found: list[State] = []
    game_seed = seed
    while len(found) < count:
        found.extend(state for _, _, state in bench_positions(game, options, game_seed))
        game_seed += 1
    return found[:count]


def measure_preset_latency(
    game_name: str,
    options: Mapping[str, Any],
    presets: Sequence[str],
    requests: int = 20,
    positions: int = 4,
    seed: int = 0,
    engine: Engine = Engine.PYTHON,
    warmup: int = 2,
    timeout_s: float = TIMEOUT_S,
) -> PresetLatencyResult:
    """Send `requests` ChooseMove calls per preset to a local one-worker server on `engine`.

    Request `i` of every preset searches position `i mod positions` with seed `seed + i`, so
    the presets (and two engines) answer the same questions, each preset with its iteration
    budget on the engine that runs it (sent as the request's iterations, so the figures do not
    depend on which engine the server resolves presets for). `warmup` unmeasured
    requests at the first preset come first. `engine` auto means native where the game has a
    twin; native for a game without one raises NativeUnavailableError.
    """
    if requests < 1 or positions < 1 or not presets:
        raise ValueError("need at least one preset, one request and one position")
    register_env_games()
    native = uses_native(engine, game_name)  # refuses `native` for a game without a twin
    game = game_ops.load_game(game_name)
    server_engine = Engine.NATIVE if native else Engine.PYTHON
    # UnknownPresetError before any server starts.
    budgets = {name: resolve_preset(name, game, server_engine).iterations for name in presets}
    cases = []
    for state in latency_positions(game, options, seed, positions):
        seat = game.current_player(state)
        cases.append((seat, game_ops.encode_state(game, state)))

    def choose(preset: str, i: int) -> tuple[float, pb.ChooseMoveResponse]:
        seat, raw = cases[i % len(cases)]
        budget = budgets[preset]
        settings = pb.SearchSettings() if budget is None else pb.SearchSettings(iterations=budget)
        request = pb.ChooseMoveRequest(
            game=game_name,
            state_json=raw,
            seat=seat,
            preset=preset,
            settings=settings,
            seed=seed + i,
        )
        start = time.perf_counter()
        reply = stub.ChooseMove(request, timeout=timeout_s)
        return (time.perf_counter() - start) * 1000.0, reply

    figures = []
    with local_server(server_engine) as stub:
        for i in range(warmup):
            choose(presets[0], i)
        for preset in presets:
            latencies, searches, iterations = [], [], []
            stops: Counter[str] = Counter()
            for i in range(requests):
                latency, reply = choose(preset, i)
                latencies.append(latency)
                searches.append(reply.stats.elapsed_ms)
                iterations.append(reply.stats.iterations)
                stops[reply.stats.stopped_by] += 1
            figures.append(
                PresetLatency(
                    preset=preset,
                    iterations=budgets[preset] or 0,
                    requests=requests,
                    p50_ms=round(statistics.median(latencies), 2),
                    p99_ms=round(percentile(latencies, 0.99), 2),
                    search_p50_ms=round(statistics.median(searches), 2),
                    search_mean_ms=round(statistics.fmean(searches), 2),
                    mean_iterations=round(statistics.fmean(iterations), 1),
                    stopped_by=stops.most_common(1)[0][0],
                    stopped_by_counts=dict(stops),
                )
            )
    return PresetLatencyResult(
        game=game_name,
        options=dict(options),
        engine="native" if native else "python",
        requests=requests,
        positions=len(cases),
        seed=seed,
        presets=tuple(figures),
    )
