"""`boardbot bench engine`: engine speed figures."""

from __future__ import annotations

import argparse
import sys

import orjson

from engine import get_game
from engine.bench import bench_engine
from service.commands.options import add_game_arguments, game_options


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` command group."""
    bench = sub.add_parser("bench", help="speed benchmarks")
    kinds = bench.add_subparsers(dest="bench_kind", required=True, metavar="KIND")
    engine = kinds.add_parser("engine", help="random-play engine steps per second")
    add_game_arguments(engine)
    engine.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    engine.add_argument("--seed", type=int, default=0)
    engine.add_argument("--json", action="store_true", help="print the figures as JSON")
    engine.set_defaults(func=run_engine_bench)


def run_engine_bench(args: argparse.Namespace) -> int:
    """Run the engine benchmark and print its figures."""
    result = bench_engine(get_game(args.game), game_options(args), args.seconds, args.seed)
    if args.json:
        sys.stdout.write(orjson.dumps(result.to_json()).decode() + "\n")
    else:
        print(f"game            {result.game} {result.options or ''}")
        print(f"time            {result.seconds:.2f} s (one core)")
        print(f"games           {result.games}  ({result.games_per_second:.2f} games/s)")
        print(f"steps           {result.steps}  ({result.steps_per_second:,.0f} steps/s)")
        print(f"  decisions     {result.decision_steps}")
        print(f"  chance        {result.chance_steps}")
        print(f"steps per game  {result.mean_steps_per_game}")
    return 0
