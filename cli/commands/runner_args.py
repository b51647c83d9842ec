"""`--ray [ADDRESS]` and the choice of where games run (serial, process pool or Ray)."""

from __future__ import annotations

import argparse

from boardbot.cli.commands.common import CommandError
from boardbot.tools.extras import MissingExtraError
from boardbot.tools.runners import Runner, make_runner


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """`--ray [ADDRESS]`: one Ray task per game, on a local instance or a cluster."""
    parser.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="run the games as Ray tasks: alone, on a local Ray instance with this machine's "
        "cores; with an address (ray://HOST:10001, HOST:6379 or auto), on that cluster "
        "(needs the ray extra)",
    )


def chosen_runner(args: argparse.Namespace) -> Runner:
    """The runner the flags ask for (`--ray` takes over from `--parallel`)."""
    if args.ray is not None and args.parallel > 1:
        raise CommandError("--ray and --parallel both choose where games run: give one")
    try:
        return make_runner(args.parallel, args.ray)
    except MissingExtraError as error:
        raise CommandError(str(error)) from None
