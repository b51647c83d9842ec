"""The `boardbot` command line: one subcommand module per job under `service.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = [
    "service.commands.serve",
    "service.commands.health",
    "service.commands.new",
    "service.commands.moves",
    "service.commands.apply",
    "service.commands.move",
    "service.commands.analyze",
    "service.commands.play",
    "service.commands.overhead",
    "service.commands.bench",
    "service.commands.match",
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
