"""`boardbot calibrate-strength`: a ladder's ratings.json into the Elo knob's calibration file."""

from __future__ import annotations

import argparse
from pathlib import Path

from boardbot.cli.commands.common import CommandError, run_guarded
from boardbot.engine import get_game
from boardbot.search.strength.loader import DIR_VARIABLE
from boardbot.search.strength.table import ENGINES
from boardbot.tools.strength_calibration import (
    StrengthCalibrationError,
    calibration_source,
    calibrations_from_ratings,
    check_meta,
    ladder_engine,
    ladder_meta,
    read_ratings,
    write_calibration,
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `calibrate-strength` command."""
    p = sub.add_parser(
        "calibrate-strength",
        help="write the Elo knob's calibration of a game from a ladder's ratings.json",
    )
    p.add_argument("--game", required=True, help="game name, e.g. leda or legend_raiders")
    p.add_argument("--players", type=int, default=None, help="seats (default: the ratings')")
    p.add_argument(
        "--ratings", type=Path, required=True, help="the ladder's DIR or DIR/ratings.json"
    )
    p.add_argument(
        "--engine", choices=ENGINES, default=None,
        help="engine the ladder's unsuffixed medium@N bots ran on (default: the ratings')",
    )
    p.add_argument(
        "--out", type=Path, default=None,
        help=f"folder to write GAME-Np.json in (default: ${DIR_VARIABLE}, else search/strength)",
    )
    p.add_argument("--command", default=None, help="the ladder command, if ratings.json lacks it")
    p.add_argument("--date", default=None, help="date of the ladder run, if ratings.json lacks it")
    p.add_argument(
        "--drop-non-monotone", action="store_true",
        help="leave out bots rated no higher than a weaker one (default: refuse)",
    )
    p.set_defaults(func=lambda args: run_guarded(run_calibrate, args))


def run_calibrate(args: argparse.Namespace) -> int:
    """Read the ratings, build each engine's table, write the file and print it."""
    game = get_game(args.game)
    path = args.ratings / "ratings.json" if args.ratings.is_dir() else args.ratings
    try:
        ratings, rated_meta = read_ratings(path)
        meta = {**ladder_meta(path.parent), **rated_meta}
        players = args.players or meta.get("players")
        if players is None and game.min_players == game.max_players:
            players = game.min_players
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise CommandError(
                f"--players must be in {game.min_players}..{game.max_players} for {game.name}"
            )
        check_meta(meta, game.name, players)
        engine = ladder_engine(args.engine, meta.get("engine"))
        source = calibration_source(meta, path, args.command, args.date)
        found = calibrations_from_ratings(
            ratings, game.name, players, engine, source, args.drop_non_monotone
        )
        written = write_calibration(found, game.name, players, args.out)
    except StrengthCalibrationError as error:
        raise CommandError(str(error)) from None
    print(f"wrote {written}")
    for which, calibration in sorted(found.items()):
        points = ", ".join(f"{p.bot} {p.elo:.0f}" for p in calibration.points)
        print(f"  {which}: [{calibration.low:.0f}, {calibration.high:.0f}]  {points}")
    return 0
