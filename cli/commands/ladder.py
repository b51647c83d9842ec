"""`boardbot ladder`: a round robin of bots into a folder (resumable), then Elo ratings."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boardbot.cli.commands.common import (
    CommandError,
    add_engine_argument,
    chosen_engine,
    run_guarded,
)
from boardbot.cli.commands.options import game_options
from boardbot.cli.commands.runner_args import add_ray_argument, chosen_runner
from boardbot.engine import get_game
from boardbot.search.presets import preset_names
from boardbot.tools.extras import MissingExtraError
from boardbot.tools.ladder import check_report_packages, ladder_settings, report_ladder, run_ladder
from boardbot.tools.ladder_report import terminal_table
from boardbot.tools.ladder_store import LadderError

DEFAULT_BOTS = ["random", "greedy", *preset_names()]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `ladder` command."""
    p = sub.add_parser(
        "ladder", help="round robin of bots into a folder (resumable) and their Elo ratings"
    )
    p.add_argument("--game", default=None, help="game name, e.g. leda or legend_raiders")
    p.add_argument("--players", type=int, default=None, help="seats per game (default 2)")
    p.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="game option (VALUE parsed as JSON when possible), repeatable",
    )
    p.add_argument("--out", type=Path, required=True, help="the ladder's folder")
    p.add_argument(
        "--bots", default=",".join(DEFAULT_BOTS),
        help="comma-separated bots, weakest first (default: %(default)s); any name `boardbot "
        "match` takes, e.g. medium@200 or hard/native",
    )
    p.add_argument(
        "--games-per-pairing", type=int, default=24,
        help="games per table (pair of bots, or group of --players bots); a multiple of the "
        "seat count, times the 12 clan pairings on LEDA, plays every deal from every seat "
        "(default %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--parallel", type=int, default=1, help="games played at once (processes)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default "
                   "%(default)s)")
    p.add_argument("--max-games", type=int, default=None,
                   help="play at most this many new games in this run, then report")
    p.add_argument("--report-only", action="store_true",
                   help="refit and redraw the report from the folder's games, playing nothing")
    add_engine_argument(p)
    add_ray_argument(p)
    p.set_defaults(func=lambda args: run_guarded(run_ladder_command, args))


def run_ladder_command(args: argparse.Namespace) -> int:
    """Play the missing games (unless --report-only), then write and print the ratings."""
    try:
        check_report_packages()
        if args.bootstrap < 1:
            raise CommandError("--bootstrap must be at least 1")
        if args.max_games is not None and args.max_games < 0:
            raise CommandError("--max-games must be at least 0")
        if not args.report_only:
            play(args)
        ratings, paths = report_ladder(args.out, args.bootstrap)
    except (LadderError, MissingExtraError) as error:
        raise CommandError(str(error)) from None
    print(terminal_table(ratings))
    print("wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
    return 0


def play(args: argparse.Namespace) -> None:
    """Check the settings against the folder and play the games it lacks."""
    if args.game is None:
        raise CommandError("--game is needed to play a ladder (or give --report-only)")
    game = get_game(args.game)
    engine = chosen_engine(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    settings = ladder_settings(
        game, game_options(args), bots, args.games_per_pairing, args.seed, engine
    )
    runner = chosen_runner(args)
    run = run_ladder(game, settings, args.out, runner, args.max_games)
    print(
        f"ladder: {run.played} games played now, {run.before} before, "
        f"{run.remaining} still to play of {run.total}", file=sys.stderr,
    )
