"""`boardbot bench rpc`: every RPC's p50/p99 and requests/s against one server."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import orjson

from boardbot.cli.commands.common import (
    CommandError,
    add_engine_argument,
    chosen_engine,
    run_guarded,
)
from boardbot.cli.commands.options import add_game_arguments, game_options

if TYPE_CHECKING:  # the module itself loads gRPC: imported where it runs
    from boardbot.tools.rpc_bench import RpcBenchResult


def register(kinds: argparse._SubParsersAction) -> None:
    """Add `bench rpc` to the bench command's kinds."""
    rpc = kinds.add_parser(
        "rpc",
        help="every RPC's p50/p99 and requests/s, one client and N, against one server",
        description="Start a local server (or use --server), then for every RPC (ListGames, "
        "NewGame, LegalMoves, ApplyMove, ViewState, ChooseMove at beginner and at 200 "
        "iterations, Analyze at 200 iterations, and the gRPC health check as the floor) run "
        "one closed-loop client, then --clients of them at once, on seeded decision positions; "
        "report p50, p99, requests/s and each p50 over the health check's.",
    )
    add_game_arguments(rpc)
    rpc.add_argument("--server", default=None, metavar="HOST:PORT", help="use a running server")
    rpc.add_argument("--workers", type=int, default=1, help="the local server's search workers")
    rpc.add_argument("--clients", type=int, default=4, help="concurrent clients (default 4)")
    rpc.add_argument("--requests", type=int, default=200, help="most calls per RPC and phase")
    rpc.add_argument("--seconds", type=float, default=5.0, help="longest time per RPC and phase")
    rpc.add_argument("--positions", type=int, default=4, help="decision positions to cycle")
    rpc.add_argument("--seed", type=int, default=0, help="seeds the positions and the requests")
    rpc.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_engine_argument(rpc)
    rpc.set_defaults(func=lambda args: run_guarded(run_rpc_bench, args))


def run_rpc_bench(args: argparse.Namespace) -> int:
    """Measure every RPC and print the figures."""
    if min(args.clients, args.workers, args.requests, args.positions) < 1 or args.seconds <= 0:
        raise CommandError(
            "--clients, --workers, --requests and --positions must be at least 1 and "
            "--seconds more than 0"
        )
    engine = chosen_engine(args, say_notice=args.server is None)
    # Imported here, not at the top: it loads gRPC, and only this subcommand needs it.
    from boardbot.tools.rpc_bench import bench_rpcs

    result = bench_rpcs(
        args.game,
        game_options(args),
        server=args.server,
        engine=engine,
        workers=args.workers,
        clients=args.clients,
        requests=args.requests,
        seconds=args.seconds,
        positions=args.positions,
        seed=args.seed,
    )
    if args.json:
        sys.stdout.write(orjson.dumps(result.to_json()).decode() + "\n")
    else:
        print_rpc_bench(result)
    return 0


def print_rpc_bench(result: RpcBenchResult) -> None:
    """One row per RPC: one client's p50, p99, requests/s and p50 over the floor, then the
    same with every client at once."""
    options = f" {orjson.dumps(result.options).decode()}" if result.options else ""
    where = (
        f"local server, {result.workers} worker(s), {result.engine} engine"
        if result.server == "local"
        else f"server {result.server}"
    )
    print(
        f"game {result.game}{options}  {where}  {result.positions} positions  seed "
        f"{result.seed}  at most {result.max_requests} requests or {result.max_seconds:g} s "
        "per RPC and phase  (ms)"
    )
    n = result.clients
    print(f"{'':<22}{'1 client':^34}{f'{n} clients':^34}")
    columns = f"{'p50':>8}{'p99':>8}{'req/s':>9}{'x floor':>9}"
    print(f"{'rpc':<22}{columns}{columns}")
    for r in result.rpcs:
        row = f"{r.rpc:<22}"
        for phase, ratio in (
            (r.single, r.single_p50_over_floor),
            (r.concurrent, r.concurrent_p50_over_floor),
        ):
            row += (
                f"{phase.p50_ms:>8.2f}{phase.p99_ms:>8.2f}{phase.requests_per_second:>9.1f}"
                f"{ratio:>8.1f}x"
            )
        print(row)
    print("x floor: the p50 over the health check's p50 with as many clients")
