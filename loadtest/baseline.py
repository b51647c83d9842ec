"""The unloaded baseline: one request at a time, per RPC and preset, over the corpus."""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from loadtest.corpus import SETUPS, Position
from loadtest.names import search_name
from loadtest.stats import Row, row_from_samples


@dataclass(frozen=True)
class BaselinePlan:
    """How many sequential samples to take of each kind of request, within a time budget."""

    presets: tuple[str, ...]
    analyze_preset: str
    search_samples: int = 24
    rules_samples: int = 24
    seconds_per_name: float = 6.0
    rpc_timeout_s: float = 60.0


def _positions(corpus: dict[str, list[Position]], rng: random.Random) -> Iterator[Position]:
    """Positions round-robin over the setups (each setup weighs the same), each setup's in a
    seeded shuffled order, so a few samples still spread over the whole corpus."""
    columns = [rng.sample(corpus[s.label], len(corpus[s.label])) for s in SETUPS]
    for index in itertools.count():
        column = columns[index % len(columns)]
        yield column[(index // len(columns)) % len(column)]


def _measure(name: str, make_call: Callable[[], Any], samples: int, budget_s: float) -> Row:
    """Time `samples` sequential calls (fewer if `budget_s` runs out) after one warm-up call,
    untimed because the first call of a kind may pay one-off costs in the server."""
    times: list[float] = []
    failures = 0
    start = time.perf_counter()
    for attempt in range(samples + 1):
        t0 = time.perf_counter()
        try:
            make_call()
        except grpc.RpcError:
            failures += 1
        if attempt > 0:
            times.append((time.perf_counter() - t0) * 1000.0)
        if time.perf_counter() - start > budget_s:
            break
    return row_from_samples(name, times, failures, time.perf_counter() - start)


def measure_baseline(
    address: str, corpus: dict[str, list[Position]], plan: BaselinePlan, seed: int = 0
) -> dict[str, Row]:
    """Rows of sequential, unloaded requests by request name (the locustfile's names)."""
    rng = random.Random(seed)
    positions = _positions(corpus, rng)
    setups = itertools.cycle(SETUPS)
    timeout = plan.rpc_timeout_s
    rows: dict[str, Row] = {}
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.BoardBotStub(channel)

        def new_game() -> Any:
            setup = next(setups)
            options = json.dumps(setup.options).encode()
            return stub.NewGame(
                pb.NewGameRequest(game=setup.game, options_json=options, seed=rng.getrandbits(63)),
                timeout=timeout,
            )

        def legal_moves(p: Position) -> Any:
            request = pb.LegalMovesRequest(game=p.game, state_json=p.state_json, seat=p.seat)
            return stub.LegalMoves(request, timeout=timeout)

        pending: list[tuple[Position, bytes]] = []

        def list_moves() -> Any:
            p = next(positions)
            reply = legal_moves(p)
            pending.append((p, rng.choice(reply.moves).move_json))
            return reply

        def apply_move() -> Any:
            p, move = pending.pop() if pending else (next(positions), b"")
            if not move:
                move = rng.choice(legal_moves(p).moves).move_json
            request = pb.ApplyMoveRequest(
                game=p.game, state_json=p.state_json, move_json=move, seed=rng.getrandbits(63)
            )
            return stub.ApplyMove(request, timeout=timeout)

        def choose(preset: str) -> Callable[[], Any]:
            def call() -> Any:
                p = next(positions)
                request = pb.ChooseMoveRequest(
                    game=p.game, state_json=p.state_json, seat=p.seat, preset=preset,
                    seed=rng.getrandbits(63),
                )
                return stub.ChooseMove(request, timeout=timeout)

            return call

        def analyze() -> Any:
            p = next(positions)
            request = pb.AnalyzeRequest(
                game=p.game, state_json=p.state_json, seat=p.seat, preset=plan.analyze_preset,
                seed=rng.getrandbits(63), top_k=5,
            )
            return stub.Analyze(request, timeout=timeout)

        budget, n_rules, n_search = plan.seconds_per_name, plan.rules_samples, plan.search_samples
        rows["NewGame"] = _measure("NewGame", new_game, n_rules, budget)
        rows["LegalMoves"] = _measure("LegalMoves", list_moves, n_rules, budget)
        rows["ApplyMove"] = _measure("ApplyMove", apply_move, n_rules, budget)
        for preset in plan.presets:
            name = search_name("ChooseMove", preset)
            rows[name] = _measure(name, choose(preset), n_search, budget)
        name = search_name("Analyze", plan.analyze_preset)
        rows[name] = _measure(name, analyze, n_search, budget)
    return rows
