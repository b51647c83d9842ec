"""The `boardbot` command line: one subcommand module per job under `boardbot.cli.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = [
    "boardbot.cli.commands.serve",
    "boardbot.cli.commands.health",
    "boardbot.cli.commands.new",
    "boardbot.cli.commands.moves",
    "boardbot.cli.commands.apply",
    "boardbot.cli.commands.view",
    "boardbot.cli.commands.move",
    "boardbot.cli.commands.analyze",
    "boardbot.cli.commands.review",
    "boardbot.cli.commands.play",
    "boardbot.cli.commands.overhead",
    "boardbot.cli.commands.bench",
    "boardbot.cli.commands.match",
    "boardbot.cli.commands.ladder",
    "boardbot.cli.commands.selfplay",
    "boardbot.cli.commands.calibrate_strength",
    "boardbot.cli.commands.train",
    "boardbot.cli.commands.iterate",
    "boardbot.cli.commands.web",
]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="boardbot", description="AI opponents for hidden-information board games."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `boardbot` console script."""
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
