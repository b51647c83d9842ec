"""`boardbot bench engine|search`: engine and search speed figures."""

from __future__ import annotations

import argparse
import sys

import orjson

from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.engine import get_game
from boardbot.search.presets import preset_names, resolve_preset
from boardbot.tools.engine_bench import bench_engine
from boardbot.tools.search_bench import SearchBenchResult, bench_search


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
    search = kinds.add_parser("search", help="search iterations per second and engine share")
    add_game_arguments(search)
    search.add_argument("--preset", default="medium", choices=preset_names())
    search.add_argument("--iterations", type=int, default=None, help="override the budget")
    search.add_argument("--seed", type=int, default=0)
    search.add_argument("--json", action="store_true", help="print the figures as JSON")
    search.set_defaults(func=run_search_bench)


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


def run_search_bench(args: argparse.Namespace) -> int:
    """Run the search benchmark on early, mid and late positions and print its figures."""
    config = resolve_preset(args.preset, args.game)
    if args.iterations is not None:
        config = config.replace(iterations=args.iterations)
    result = bench_search(get_game(args.game), game_options(args), args.preset, config, args.seed)
    if args.json:
        sys.stdout.write(orjson.dumps(result.to_json()).decode() + "\n")
    else:
        print_search_bench(result)
    return 0


def print_search_bench(result: SearchBenchResult) -> None:
    """A readable table of the search benchmark."""
    print(f"game {result.game} {result.options or ''}  preset {result.preset}  seed {result.seed}")
    print(f"{'position':<10}{'moves':>6}{'iterations':>11}{'seconds':>9}{'iter/s':>10}{'engine':>8}")
    for p in result.positions:
        print(
            f"{p.phase:<6}#{p.decision_index:<3}{p.legal_moves:>6}{p.iterations:>11}"
            f"{p.seconds:>9.2f}{p.iterations_per_second:>10,.0f}{p.engine_share:>8.0%}"
        )
    print(
        f"overall: {result.iterations_per_second:,.0f} iterations/s, "
        f"{result.engine_share:.0%} of the time inside the engine"
    )
