"""`boardbot overhead`: measure the service's own overhead on ChooseMove."""

from __future__ import annotations

import argparse
import sys

import orjson

from boardbot.cli.commands.common import add_engine_argument, chosen_engine
from boardbot.cli.commands.options import add_game_arguments, game_options


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `overhead` command."""
    p = sub.add_parser(
        "overhead",
        help="ChooseMove latency minus in-process search time (p50, p99)",
        description="Start a local one-worker server, send ChooseMove requests with a fixed "
        "iteration budget, run the same searches in this process, and report the difference.",
    )
    add_game_arguments(p)
    p.add_argument("--iterations", type=int, default=200, help="iteration budget per search")
    p.add_argument("--requests", type=int, default=200, help="measured requests")
    p.add_argument("--warmup", type=int, default=20, help="unmeasured requests first")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--view", action="store_true", help="send the seat's view instead of the full state"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_engine_argument(p)
    p.set_defaults(func=run_overhead)


def run_overhead(args: argparse.Namespace) -> int:
    """Measure and print the overhead figures."""
    # Imported here, not at the top: it starts a gRPC server, and only this command needs it.
    from boardbot.tools.overhead import measure_overhead

    result = measure_overhead(
        args.game,
        game_options(args),
        args.iterations,
        args.requests,
        args.warmup,
        args.seed,
        send_view=args.view,
        engine=chosen_engine(args),
    )
    if args.json:
        sys.stdout.write(orjson.dumps(result.to_json()).decode() + "\n")
        return 0
    print(
        f"game              {result.game}, {result.iterations} iterations per search, "
        f"{result.engine} search"
    )
    print(f"requests          {result.requests}")
    rows = (
        ("latency", result.latency_p50_ms, result.latency_p99_ms),
        ("in-process search", result.search_p50_ms, result.search_p99_ms),
        ("overhead", result.overhead_p50_ms, result.overhead_p99_ms),
        ("outside the search", result.outside_search_p50_ms, result.outside_search_p99_ms),
    )
    for label, p50, p99 in rows:
        print(f"{label:<19}p50 {p50:.3f} ms   p99 {p99:.3f} ms")
    print(f"{'p50 difference':<19}{result.median_difference_ms:.3f} ms")
    return 0
