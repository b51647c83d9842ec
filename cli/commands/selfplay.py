"""`boardbot selfplay`: games of the native search against itself into a folder of training
shards (resumable; docs/learning.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boardbot.cli.commands.common import CommandError, run_guarded
from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.tools.extras import MissingExtraError
from boardbot.tools.runners import make_runner


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `selfplay` command."""
    p = sub.add_parser(
        "selfplay",
        help="self-play games of the native search into a folder of training shards (resumable)",
    )
    add_game_arguments(p)
    p.add_argument("--games", type=int, required=True,
                   help="games 0..N-1 the folder should hold (those missing are played)")
    p.add_argument("--out", type=Path, required=True, help="the data folder")
    p.add_argument("--bot", default="medium",
                   help="the search setting of every seat, as `boardbot match` names a bot: a "
                   "preset, preset@N or preset+key=value (default %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--temperature", type=float, default=0.0,
                   help="explore: over the first --temperature-moves recorded decisions of a "
                   "game, play a move drawn from visits^(1/T) instead of the search's choice "
                   "(default 0: the search's choice)")
    p.add_argument("--temperature-moves", type=int, default=30,
                   help="recorded decisions per game that explore (default %(default)s)")
    p.add_argument("--games-per-shard", type=int, default=50,
                   help="whole games per shard file (default %(default)s)")
    p.add_argument("--workers", type=int, default=1, help="games played at once (processes)")
    p.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="run the games as Ray tasks: alone, on a local Ray instance with this machine's "
        "cores; with an address, on that cluster (needs the ray extra)",
    )
    p.set_defaults(func=lambda args: run_guarded(run_selfplay_command, args))


def run_selfplay_command(args: argparse.Namespace) -> int:
    """Check the settings against the folder and play the games it lacks."""
    from boardbot.learn.selfplay import SelfPlayError, run_selfplay, selfplay_settings

    if args.workers < 1:
        raise CommandError("--workers must be at least 1")
    if args.ray is not None and args.workers > 1:
        raise CommandError("--ray and --workers both choose where games run: give one")
    try:
        settings = selfplay_settings(
            args.game, game_options(args), args.bot, args.seed, args.temperature,
            args.temperature_moves,
        )
        runner = make_runner(args.workers, args.ray)
        run = run_selfplay(settings, args.out, args.games, runner, args.games_per_shard)
    except (SelfPlayError, MissingExtraError) as error:
        raise CommandError(str(error)) from None
    per_second = run.decisions / run.seconds if run.seconds > 0 else 0.0
    print(
        f"selfplay: {run.played} games played now ({run.decisions} decisions, "
        f"{per_second:.0f}/s, {run.shards} shards), {run.before} before, of {run.total}; "
        f"{args.out}", file=sys.stderr,
    )
    return 0
