"""Parsing of game options given on the command line (`--option key=value`, `--players`)."""

from __future__ import annotations

import argparse
from typing import Any

import orjson


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Add `--game`, `--players` and repeatable `--option key=value` to a subcommand."""
    parser.add_argument("--game", required=True, help="game name, e.g. leda or legend_raiders")
    parser.add_argument("--players", type=int, default=None, help="number of players")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game option (VALUE parsed as JSON when possible), repeatable",
    )


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options dict described by `--players` and `--option` flags."""
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    for item in args.option:
        key, sep, raw = item.partition("=")
        if not sep:
            raise SystemExit(f"--option expects KEY=VALUE, got {item!r}")
        try:
            options[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            options[key] = raw
    return options
