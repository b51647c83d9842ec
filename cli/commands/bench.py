"""`boardbot bench engine|search|presets|rpc|net`: engine and search speed, ChooseMove per preset,
every RPC's latency (`bench rpc` lives in `bench_rpc`), one network evaluation."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

import orjson

from boardbot.cli.commands import bench_rpc
from boardbot.cli.commands.common import CommandError, run_guarded, say_engine_notice
from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.cli.commands.train import hidden_widths
from boardbot.engine import get_game
from boardbot.search.engines import (
    HOW_TO_GET_NATIVE,
    Engine,
    NativeUnavailableError,
    native_module,
    native_twin,
    uses_native,
)
from boardbot.search.presets import preset_names, resolve_preset
from boardbot.tools.engine_bench import (
    NATIVE_MAX_SECONDS,
    EngineBenchResult,
    bench_engine,
    bench_native_engine,
)
from boardbot.tools.net_bench import NetBenchResult, bench_net
from boardbot.tools.search_bench import SearchBenchResult, bench_search

if TYPE_CHECKING:  # the module itself starts a gRPC server: imported where it runs
    from boardbot.tools.preset_latency import PresetLatencyResult


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` command group."""
    bench = sub.add_parser("bench", help="speed benchmarks")
    kinds = bench.add_subparsers(dest="bench_kind", required=True, metavar="KIND")
    engine = kinds.add_parser("engine", help="random-play engine steps per second")
    add_game_arguments(engine)
    engine.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    engine.add_argument("--seed", type=int, default=0)
    engine.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_engine_choice(engine, "engine")
    engine.set_defaults(func=lambda args: run_guarded(run_engine_bench, args))
    search = kinds.add_parser("search", help="search iterations per second and engine share")
    add_game_arguments(search)
    search.add_argument("--preset", default="medium", choices=preset_names())
    search.add_argument("--iterations", type=int, default=None, help="override the budget")
    search.add_argument("--seed", type=int, default=0)
    search.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_engine_choice(search, "search")
    search.set_defaults(func=lambda args: run_guarded(run_search_bench, args))
    presets = kinds.add_parser(
        "presets",
        help="ChooseMove p50/p99 per preset through a local server",
        description="Start a local one-worker server per engine, send ChooseMove for every "
        "preset on fixed decision positions of seeded games, each preset with its iteration "
        "budget on that engine (the native core's are larger), and report per preset the "
        "budget, the latency, the mean search time, the iterations run and how the search "
        "stopped.",
    )
    add_game_arguments(presets)
    presets.add_argument(
        "--presets",
        default=",".join(preset_names()),
        help="comma-separated presets, weakest first (default: all)",
    )
    presets.add_argument("--requests", type=int, default=20, help="measured requests per preset")
    presets.add_argument("--positions", type=int, default=4, help="decision positions to cycle")
    presets.add_argument("--seed", type=int, default=0, help="seeds the games and the requests")
    presets.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_engine_choice(presets, "search")
    presets.set_defaults(func=lambda args: run_guarded(run_presets_bench, args))
    bench_rpc.register(kinds)
    net = kinds.add_parser(
        "net",
        help="time of one network evaluation, Python (numpy) and native",
        description="Time one evaluation of a random value and policy network as a search "
        "asks for it: the trunk and value head on a dense feature vector, then the logits of "
        "--actions legal actions of --indices action-feature indices each. The native figure "
        "is a loop inside Rust (no Python call overhead); each figure is the median of "
        "--repeats runs. Sizes: --features/--action-features, else the game's, else 300/600.",
    )
    net.add_argument("--game", default=None, help="take the sizes of this game's features")
    net.add_argument("--players", type=int, default=2, help="seats (the value head's width)")
    net.add_argument("--hidden", type=hidden_widths, default=(128, 64), metavar="W1,W2")
    net.add_argument("--features", type=int, default=None, help="feature vector length F")
    net.add_argument("--action-features", type=int, default=None, help="policy head width A")
    net.add_argument("--actions", type=int, default=20, help="legal actions per evaluation")
    net.add_argument("--indices", type=int, default=2, help="action-feature indices per action")
    net.add_argument("--repeats", type=int, default=5, help="runs of each (the median is shown)")
    net.add_argument("--seed", type=int, default=0)
    net.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_engine_choice(net, "network")
    net.set_defaults(func=lambda args: run_guarded(run_net_bench, args))


def _add_engine_choice(parser: argparse.ArgumentParser, what: str) -> None:
    """`--engine` of a benchmark: auto runs every engine the game has, side by side."""
    parser.add_argument(
        "--engine",
        choices=[e.value for e in Engine],
        default=Engine.AUTO.value,
        help="auto: every engine the game has, side by side (default); native: the native "
        f"core alone; python: the Python {what} alone",
    )


def run_engine_bench(args: argparse.Namespace) -> int:
    """Run the engine benchmark on each engine asked for and print the figures."""
    game = get_game(args.game)
    options = game_options(args)
    engines = engines_to_bench(args.engine, game.name)
    if Engine.NATIVE in engines and not 0 < args.seconds <= NATIVE_MAX_SECONDS:
        raise CommandError(
            f"--seconds must be more than 0 and at most {NATIVE_MAX_SECONDS:g} for the native "
            f"engine, got {args.seconds:g}"
        )
    results: dict[Engine, EngineBenchResult] = {}
    for engine in engines:
        if engine is Engine.PYTHON:
            results[engine] = bench_engine(game, options, args.seconds, args.seed)
            continue
        try:
            results[engine] = bench_native_engine(
                native_twin(game.name), options, args.seconds, args.seed
            )
        except ValueError as error:
            raise CommandError(f"native engine: {error}") from None
    if args.json:
        write_json(results)
    else:
        print_engine_bench(results)
    return 0


DEFAULT_NET_SIZES = (300, 600)
"""Feature and action-feature sizes of `bench net` when neither the flags nor the game give
them."""


def net_sizes(args: argparse.Namespace) -> tuple[int, int]:
    """(F, A) of `bench net`: the flags, else the game's features, else the defaults."""
    features, actions = args.features, args.action_features
    if args.game is not None:
        game = get_game(args.game)
        if not game.min_players <= args.players <= game.max_players:
            raise CommandError(
                f"--players must be in {game.min_players}..{game.max_players} for {game.name}"
            )
        size = getattr(game, "feature_size", None)
        action_size = getattr(game, "action_feature_size", None)
        if features is None and size is not None and size(args.players) > 0:
            features = size(args.players)
        if actions is None and action_size is not None and action_size() > 0:
            actions = action_size()
        if features is None or actions is None:
            print(
                f"note: {game.name} does not define the sizes of its features here; timing "
                "the default sizes (or give --features and --action-features)",
                file=sys.stderr,
            )
    features = DEFAULT_NET_SIZES[0] if features is None else features
    actions = DEFAULT_NET_SIZES[1] if actions is None else actions
    if features < 1 or actions < 1 or args.players < 1:
        raise CommandError("--features, --action-features and --players must be at least 1")
    if args.actions < 1 or args.indices < 1 or args.repeats < 1:
        raise CommandError("--actions, --indices and --repeats must be at least 1")
    return features, actions


def run_net_bench(args: argparse.Namespace) -> int:
    """Time one network evaluation on the engines asked for and print the figures."""
    engine = Engine(args.engine)
    native = native_module_or_error(engine)
    features, actions = net_sizes(args)
    result = bench_net(
        features, actions, args.hidden, args.players, args.actions, args.indices,
        args.repeats, seed=args.seed, native=native, python=engine is not Engine.NATIVE,
    )
    if args.json:
        sys.stdout.write(orjson.dumps(result.to_json()).decode() + "\n")
    else:
        print_net_bench(result)
    return 0


def native_module_or_error(engine: Engine) -> bool:
    """Whether `bench net` times the native network (a CommandError when `native` is asked
    for and the core is not built; otherwise the engine notice, if any, said once)."""
    if engine is Engine.PYTHON:
        return False
    built = native_module() is not None
    if not built and engine is Engine.NATIVE:
        raise CommandError(f"the native core is not built: {HOW_TO_GET_NATIVE}")
    say_engine_notice(engine)
    return built


def print_net_bench(result: NetBenchResult) -> None:
    """The figures as a small table."""
    print(
        f"network         F={result.feature_size} hidden={','.join(map(str, result.hidden))} "
        f"A={result.action_feature_size} P={result.players}"
    )
    print(
        f"evaluation      values + logits of {result.actions} actions x "
        f"{result.indices_per_action} indices (dense input)"
    )
    if result.python_us is not None:
        runs = ", ".join(f"{r:.1f}" for r in result.python_runs)
        print(f"python (numpy)  {result.python_us:9.2f} us  (runs: {runs})")
    if result.native_us is not None:
        runs = ", ".join(f"{r:.2f}" for r in result.native_runs)
        print(f"native          {result.native_us:9.2f} us  (runs: {runs}; one core)")
    if result.python_us is not None and result.native_us:
        print(f"python/native   {result.python_us / result.native_us:,.1f}x")


def write_json(results: Mapping[Engine, EngineBenchResult | SearchBenchResult]) -> None:
    """The figures as one JSON line: a Python-only run keeps the shape from before native
    engines, otherwise one object per engine."""
    if list(results) == [Engine.PYTHON]:
        figures = results[Engine.PYTHON].to_json()
    else:
        figures = {engine.value: result.to_json() for engine, result in results.items()}
    sys.stdout.write(orjson.dumps(figures).decode() + "\n")


def engines_to_bench(choice: str, game: str) -> list[Engine]:
    """The engines `bench engine --engine CHOICE` plays for `game`: Python first, then native.

    `auto` is every engine the game has here (saying once on stderr when the native core is not
    built); `native` for a game or machine without the native core is a CommandError.
    """
    engine = Engine(choice)
    if engine is Engine.PYTHON:
        return [Engine.PYTHON]
    try:
        native = uses_native(engine, game)
    except NativeUnavailableError as error:
        raise CommandError(str(error)) from None
    say_engine_notice(engine)
    if engine is Engine.NATIVE:
        return [Engine.NATIVE]
    return [Engine.PYTHON, Engine.NATIVE] if native else [Engine.PYTHON]


def print_engine_bench(results: dict[Engine, EngineBenchResult]) -> None:
    """One block of figures per engine, then how many times faster the native engine is."""
    first = next(iter(results.values()))
    print(f"game            {first.game} {first.options or ''}")
    for index, (engine, result) in enumerate(results.items()):
        if index:
            print()
        print(f"engine          {engine.value}")
        print(f"time            {result.seconds:.2f} s (one core)")
        print(f"games           {result.games}  ({result.games_per_second:.2f} games/s)")
        print(f"steps           {result.steps}  ({result.steps_per_second:,.0f} steps/s)")
        print(f"  decisions     {result.decision_steps}")
        print(f"  chance        {result.chance_steps}")
        print(f"steps per game  {result.mean_steps_per_game}")
    python, native = results.get(Engine.PYTHON), results.get(Engine.NATIVE)
    if python is not None and native is not None and python.steps_per_second > 0:
        ratio = native.steps_per_second / python.steps_per_second
        print()
        print(f"native/python   {ratio:,.1f}x the steps/s")


def run_search_bench(args: argparse.Namespace) -> int:
    """Run the search benchmark on early, mid and late positions and print its figures; each
    engine runs the preset with its own budget unless `--iterations` sets one for both."""
    game = get_game(args.game)
    results = {}
    for engine in engines_to_bench(args.engine, game.name):
        config = resolve_preset(args.preset, game, engine)
        if args.iterations is not None:
            config = config.replace(iterations=args.iterations)
        results[engine] = bench_search(
            game, game_options(args), args.preset, config, args.seed, engine
        )
    if args.json:
        write_json(results)
        return 0
    for index, result in enumerate(results.values()):
        if index:
            print()
        print_search_bench(result)
    python, native = results.get(Engine.PYTHON), results.get(Engine.NATIVE)
    if python is not None and native is not None and python.iterations_per_second > 0:
        ratio = native.iterations_per_second / python.iterations_per_second
        print(f"\nnative/python: {ratio:,.1f}x the iterations/s")
    return 0


def run_presets_bench(args: argparse.Namespace) -> int:
    """Time ChooseMove per preset on a local server for each engine asked for."""
    game = get_game(args.game)
    names = [name.strip() for name in args.presets.split(",") if name.strip()]
    unknown = [name for name in names if name not in preset_names()]
    if not names or unknown:
        what = f"unknown preset {', '.join(unknown)}" if unknown else "no preset given"
        raise CommandError(f"--presets: {what}; known: {', '.join(preset_names())}")
    if args.requests < 1 or args.positions < 1:
        raise CommandError("--requests and --positions must be at least 1")
    engines = engines_to_bench(args.engine, game.name)
    # Imported here, not at the top: it starts a gRPC server, and only this subcommand needs it.
    from boardbot.tools.preset_latency import measure_preset_latency

    options = game_options(args)
    results = {
        engine: measure_preset_latency(
            game.name, options, names, args.requests, args.positions, args.seed, engine
        )
        for engine in engines
    }
    if args.json:
        figures = {engine.value: result.to_json() for engine, result in results.items()}
        sys.stdout.write(orjson.dumps(figures).decode() + "\n")
    else:
        print_presets_bench(results)
    return 0


def print_presets_bench(results: dict[Engine, PresetLatencyResult]) -> None:
    """One row per preset: each engine's iteration budget, p50, p99, mean search time, mean
    iterations and most common stop side by side, and with both engines the Python p50 over the
    native one."""
    first = next(iter(results.values()))
    options = f" {first.options}" if first.options else ""
    print(
        f"game {first.game}{options}  {first.requests} requests per preset over "
        f"{first.positions} positions  seed {first.seed}  one worker  (ms)"
    )
    header = f"{'preset':<10}"
    for engine in results:
        header += (
            f"{engine.value + ' budget':>15}{'p50':>9}{'p99':>9}{'search':>9}{'iters':>8}"
            f"{'stopped by':>12}"
        )
    both = len(results) == 2
    print(header + (f"{'ratio':>8}" if both else ""))
    for index, name in enumerate(r.preset for r in first.presets):
        row = f"{name:<10}"
        for result in results.values():
            p = result.presets[index]
            row += (
                f"{p.iterations:>15}{p.p50_ms:>9.1f}{p.p99_ms:>9.1f}{p.search_mean_ms:>9.1f}"
                f"{p.mean_iterations:>8.0f}{p.stopped_by:>12}"
            )
        python, native = results.get(Engine.PYTHON), results.get(Engine.NATIVE)
        if python is not None and native is not None:
            fast = native.presets[index].p50_ms
            row += f"{python.presets[index].p50_ms / fast:>7.1f}x" if fast > 0 else f"{'-':>8}"
        print(row)
    print(
        "budget: the preset's iterations on that engine; search: the mean search time the "
        "worker reports (the time per move); iters: the mean iterations run"
    )
    if both:
        print("ratio: the Python p50 over the native p50, each engine at its own budget")


def print_search_bench(result: SearchBenchResult) -> None:
    """A readable table of the search benchmark."""
    print(
        f"game {result.game} {result.options or ''}  preset {result.preset}  seed {result.seed}"
        f"  engine {result.engine}"
    )
    print(
        f"{'position':<10}{'moves':>6}{'iterations':>11}{'seconds':>9}{'iter/s':>10}"
        f"{'engine':>8}{'5th move':>10}"
    )
    for p in result.positions:
        print(
            f"{p.phase:<6}#{p.decision_index:<3}{p.legal_moves:>6}{p.iterations:>11}"
            f"{p.seconds:>9.2f}{p.iterations_per_second:>10,.0f}{_share(p.engine_share):>8}"
            f"{p.fifth_move_visits:>10,}"
        )
    inside = (
        "engine share not measured here (core/search: cargo run --release --example "
        "bench_search)"
        if result.engine_share is None
        else f"{result.engine_share:.0%} of the time inside the engine"
    )
    print(f"overall: {result.iterations_per_second:,.0f} iterations/s, {inside}")
    print("5th move: visits of the 5th most visited root move (an Analyze's 5th line)")


def _share(share: float | None) -> str:
    return "-" if share is None else f"{share:.0%}"
