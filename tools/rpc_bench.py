"""Latency and throughput of every RPC against one server: one closed-loop client, then N.

Each RPC runs in two phases on the same server and seeded decision positions (the overhead
bench's, `tools/overhead.decision_state`): one client sending its next request as soon as the
last one answered, then `clients` such clients at once, each on its own channel. A phase ends
after `requests` calls or `seconds`, whichever comes first. The gRPC health check is the floor:
every RPC's p50 is also given as a multiple of the health check's.
"""

from __future__ import annotations

import itertools
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

import grpc
import orjson
from grpc_health.v1 import health_pb2, health_pb2_grpc

from boardbot.jobs import game_ops
from boardbot.jobs.extra_games import register_env_games
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine, uses_native
from boardbot.tools.local_server import local_address
from boardbot.tools.overhead import decision_state, percentile

HEALTH = "Health.Check"
ITERATIONS = 200
"""The iteration budget of the fixed-budget ChooseMove and of Analyze."""
TIMEOUT_S = 60.0
WARMUP = 2
"""Unmeasured calls per RPC on every client's channel before its phases."""


@dataclass(frozen=True)
class Phase:
    """One RPC's figures with a number of closed-loop clients."""

    clients: int
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    requests_per_second: float


@dataclass(frozen=True)
class RpcFigures:
    """One RPC alone and under concurrent clients; p50s as multiples of the health check's."""

    rpc: str
    single: Phase
    concurrent: Phase
    single_p50_over_floor: float
    concurrent_p50_over_floor: float


@dataclass(frozen=True)
class RpcBenchResult:
    """Every RPC's figures from one run against one server."""

    game: str
    options: dict[str, Any]
    server: str
    """"local" for the server this run started, else the HOST:PORT given."""
    engine: str
    """What ran the local server's searches (native or python); "server" for a given one."""
    workers: int | None
    """The local server's search workers (None for a given server)."""
    clients: int
    max_requests: int
    max_seconds: float
    positions: int
    seed: int
    rpcs: tuple[RpcFigures, ...]

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class Stubs:
    """One client's stubs, on a channel of its own."""

    bot: pb_grpc.BoardBotStub
    health: health_pb2_grpc.HealthStub


Call = Callable[[Stubs, int], object]
"""Sends request number `i` of one RPC."""


@dataclass(frozen=True)
class _Position:
    state_json: bytes
    seat: int
    moves: tuple[str, ...]


Request = Callable[[int], Any]
"""Makes request number `i` of one RPC (a protobuf message)."""


def rpc_requests(
    game_name: str, options: Mapping[str, Any], seed: int, positions: int
) -> dict[str, tuple[str, Request]]:
    """Every measured BoardBot RPC by name, as (the method it calls, its requests): request `i`
    uses position `i mod positions` (the decision state of seeded game `seed + k`) and seed
    `seed + i`."""
    game = game_ops.load_game(game_name)
    cases = []
    for k in range(positions):
        state = decision_state(game, options, seed + k, plies=4)
        moves = tuple(game.action_to_str(state, a) for a in game.legal_actions(state))
        raw = game_ops.encode_state(game, state)
        cases.append(_Position(raw, game.current_player(state), moves))
    options_json = orjson.dumps(dict(options))
    budget = pb.SearchSettings(iterations=ITERATIONS, workers=1)

    def at(i: int) -> _Position:
        return cases[i % len(cases)]

    def search(i: int, preset: str, settings: pb.SearchSettings | None) -> dict[str, Any]:
        p = at(i)
        return {
            "game": game_name, "state_json": p.state_json, "seat": p.seat, "preset": preset,
            "settings": settings, "seed": seed + i,
        }  # fmt: skip

    return {
        "ListGames": ("ListGames", lambda i: pb.ListGamesRequest()),
        "NewGame": (
            "NewGame",
            lambda i: pb.NewGameRequest(game=game_name, options_json=options_json, seed=seed + i),
        ),
        "LegalMoves": (
            "LegalMoves",
            lambda i: pb.LegalMovesRequest(
                game=game_name, state_json=at(i).state_json, seat=at(i).seat
            ),
        ),
        "ApplyMove": (
            "ApplyMove",
            lambda i: pb.ApplyMoveRequest(
                game=game_name,
                state_json=at(i).state_json,
                notation=at(i).moves[i % len(at(i).moves)],
                seed=seed + i,
            ),
        ),
        "ViewState": (
            "ViewState",
            lambda i: pb.ViewStateRequest(
                game=game_name, state_json=at(i).state_json, seat=at(i).seat
            ),
        ),
        "ChooseMove beginner": (
            "ChooseMove",
            lambda i: pb.ChooseMoveRequest(**search(i, "beginner", None)),
        ),
        f"ChooseMove {ITERATIONS} it": (
            "ChooseMove",
            lambda i: pb.ChooseMoveRequest(**search(i, "", budget)),
        ),
        f"Analyze {ITERATIONS} it": (
            "Analyze",
            lambda i: pb.AnalyzeRequest(**search(i, "", budget)),
        ),
    }


def rpc_calls(
    game_name: str, options: Mapping[str, Any], seed: int, positions: int
) -> dict[str, Call]:
    """Every measured RPC by name, the health check first, each sending its request `i`
    (`rpc_requests`)."""
    calls: dict[str, Call] = {
        HEALTH: lambda s, i: s.health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT_S)
    }
    for name, (method, request) in rpc_requests(game_name, options, seed, positions).items():
        calls[name] = partial(_send, method, request)
    return calls


def _send(method: str, request: Request, stubs: Stubs, i: int) -> object:
    """Request `i` of `method`, sent through `stubs`."""
    return getattr(stubs.bot, method)(request(i), timeout=TIMEOUT_S)


def run_phase(call: Call, stubs: Sequence[Stubs], requests: int, seconds: float) -> Phase:
    """Closed-loop clients, one per stub, sharing a bound of `requests` calls and `seconds`."""
    numbers = itertools.count()  # next() on it is atomic: each request number is sent once
    start_line = threading.Barrier(len(stubs))

    def client(s: Stubs) -> list[float]:
        start_line.wait()
        latencies: list[float] = []
        while (i := next(numbers)) < requests and time.perf_counter() < deadline:
            sent = time.perf_counter()
            call(s, i)
            latencies.append((time.perf_counter() - sent) * 1000.0)
        return latencies

    with ThreadPoolExecutor(max_workers=len(stubs)) as pool:
        deadline = time.perf_counter() + seconds
        began = time.perf_counter()
        futures = [pool.submit(client, s) for s in stubs]
        latencies = [ms for f in futures for ms in f.result()]
        elapsed = time.perf_counter() - began
    return Phase(
        clients=len(stubs),
        requests=len(latencies),
        seconds=round(elapsed, 3),
        p50_ms=round(statistics.median(latencies), 3),
        p99_ms=round(percentile(latencies, 0.99), 3),
        requests_per_second=round(len(latencies) / elapsed, 1),
    )


@contextmanager
def _clients(address: str, count: int) -> Iterator[list[Stubs]]:
    channels = [grpc.insecure_channel(address) for _ in range(count)]
    try:
        yield [Stubs(pb_grpc.BoardBotStub(c), health_pb2_grpc.HealthStub(c)) for c in channels]
    finally:
        for channel in channels:
            channel.close()


def measure_rpcs(
    address: str, calls: Mapping[str, Call], clients: int, requests: int, seconds: float
) -> list[RpcFigures]:
    """Every RPC of `calls` (the floor first) alone, then with `clients` clients at once."""
    figures: list[RpcFigures] = []
    with _clients(address, clients) as stubs:
        floor: tuple[float, float] | None = None
        for name, call in calls.items():
            for s in stubs:
                for i in range(WARMUP):
                    call(s, requests + i)
            single = run_phase(call, stubs[:1], requests, seconds)
            concurrent = run_phase(call, stubs, requests, seconds)
            if floor is None:
                floor = (single.p50_ms, concurrent.p50_ms)
            figures.append(
                RpcFigures(
                    rpc=name,
                    single=single,
                    concurrent=concurrent,
                    single_p50_over_floor=round(single.p50_ms / floor[0], 2),
                    concurrent_p50_over_floor=round(concurrent.p50_ms / floor[1], 2),
                )
            )
    return figures


def bench_rpcs(
    game_name: str,
    options: Mapping[str, Any],
    *,
    server: str | None = None,
    engine: Engine = Engine.AUTO,
    workers: int = 1,
    clients: int = 4,
    requests: int = 200,
    seconds: float = 5.0,
    positions: int = 4,
    seed: int = 0,
) -> RpcBenchResult:
    """Measure every RPC against `server` (HOST:PORT), or against a local server started here
    with `workers` search workers on `engine` (auto: native where the game has a twin)."""
    if min(clients, workers, requests, positions) < 1 or seconds <= 0:
        raise ValueError("clients, workers, requests and positions must be at least 1, seconds > 0")
    register_env_games()
    calls = rpc_calls(game_name, options, seed, positions)
    if server is not None:
        used, figures = "server", measure_rpcs(server, calls, clients, requests, seconds)
    else:
        native = uses_native(engine, game_name)  # refuses `native` for a game without a twin
        used = "native" if native else "python"
        served = Engine.NATIVE if native else Engine.PYTHON
        with local_address(served, workers, queue_limit=max(4, clients)) as address:
            figures = measure_rpcs(address, calls, clients, requests, seconds)
    return RpcBenchResult(
        game=game_name,
        options=dict(options),
        server=server or "local",
        engine=used,
        workers=None if server is not None else workers,
        clients=clients,
        max_requests=requests,
        max_seconds=seconds,
        positions=positions,
        seed=seed,
        rpcs=tuple(figures),
    )
