"""`boardbot match`: seeded bot-vs-bot games with seats rotated, and per-bot figures."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import sys
from collections.abc import Sequence
from pathlib import Path

import orjson

from boardbot.cli.commands.common import (
    CommandError,
    add_engine_argument,
    chosen_engine,
    run_guarded,
)
from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.cli.commands.runner_args import add_ray_argument, chosen_runner
from boardbot.engine import get_game
from boardbot.engine.record import write_record
from boardbot.search.bots import bot_names
from boardbot.tools.match import (
    GameRecord,
    MatchReport,
    clan_option_sets,
    run_match,
    with_seat_count,
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `match` command."""
    match = sub.add_parser("match", help="play bots against each other and report win rates")
    add_game_arguments(match)
    match.add_argument(
        "--bots", required=True,
        help=f"comma-separated bots, one per seat ({', '.join(bot_names())}; preset@N for "
        "N iterations; a /native or /python suffix picks one bot's engine)",
    )
    match.add_argument("--games", type=int, default=20, help="number of games")
    match.add_argument("--seed", type=int, default=0)
    match.add_argument("--parallel", type=int, default=1, help="games played at once (processes)")
    match.add_argument(
        "--clans", default=None,
        help="LEDA clan pairing: 'a,b' fixes seat 0 and seat 1 clans, 'rotate' cycles all pairings",
    )
    match.add_argument(
        "--no-duplicate", dest="duplicate", action="store_false",
        help="give every game its own deal (default: each deal is played from every seat)",
    )
    match.add_argument("--json", action="store_true", help="print the report as JSON")
    match.add_argument(
        "--record", type=Path, default=None, metavar="DIR",
        help="write each game's record into DIR (created if missing), game-NNNN-seed-S.json "
        "by game index and seed (docs/records.md)",
    )
    add_engine_argument(match)
    add_ray_argument(match)
    match.set_defaults(func=lambda args: run_guarded(run_match_command, args))


def run_match_command(args: argparse.Namespace) -> int:
    """Parse the flags, play the match and print the report."""
    game = get_game(args.game)
    engine = chosen_engine(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    given = game_options(args)
    if args.players is not None and args.players != len(bots):
        raise SystemExit(f"--players {args.players} but {len(bots)} bots were given")
    options = with_seat_count(game, given, len(bots))
    option_sets = clan_option_sets(game, options, args.clans) if args.clans else [options]
    runner = chosen_runner(args)
    if args.record is not None:
        try:
            args.record.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"--record {args.record}: {error.strerror or error}") from None
    report, games = run_match(
        game, bots, args.games, args.seed, option_sets, args.parallel, args.duplicate, engine,
        runner, record=args.record is not None,
    )
    if args.record is not None:
        written = write_match_records(args.record, report, games)
        print(f"wrote {written} game records to {args.record}", file=sys.stderr, flush=True)
    if args.json:
        sys.stdout.write(orjson.dumps(report.to_json()).decode() + "\n")
    else:
        print_report(report)
    return 0


def record_name(game: GameRecord) -> str:
    """The file name of a match game's record: its index in the match and its seed."""
    return f"game-{game.index:04d}-seed-{game.seed}.json"


def write_match_records(folder: Path, report: MatchReport, games: Sequence[GameRecord]) -> int:
    """Write the record of every game of a match into `folder`; the number written."""
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    written = 0
    for game in games:
        if game.record is None:
            continue
        event = f"boardbot match, game {game.index + 1} of {report.games}"
        record = dataclasses.replace(game.record, date=date, event=event)
        try:
            write_record(record, folder / record_name(game))
        except OSError as error:
            raise CommandError(f"--record: cannot write {folder / record_name(game)}: "
                               f"{error.strerror or error}") from None
        written += 1
    return written


def print_report(report: MatchReport) -> None:
    """A readable table of the per-bot figures."""
    deals = "duplicate deals" if report.duplicate else "independent deals"
    print(
        f"game {report.game}  games {report.games}  seed {report.seed}  {deals}"
        f"  ({report.seconds:.1f} s)"
    )
    if len(report.option_sets) > 1 or report.option_sets[0]:
        print("options " + "; ".join(str(o) for o in report.option_sets))
    print(
        f"{'seat list':<12}{'games':>6}{'wins':>7}{'win rate':>10}{'95% CI':>16}"
        f"{'score':>8}{'margin':>8}{'length':>8}{'ms/move':>10}"
    )
    for bot in report.reports:
        interval = f"[{bot.win_rate_low:.2f}, {bot.win_rate_high:.2f}]"
        print(
            f"{bot.entry}:{bot.bot:<10}{bot.games:>6}{bot.wins:>7g}{bot.win_rate:>10.1%}"
            f"{interval:>16}{bot.mean_score:>8.2f}{bot.mean_margin:>8.2f}"
            f"{bot.mean_game_length:>8.1f}{bot.mean_decision_ms:>10.1f}"
        )
    for bot in report.reports:
        if bot.reuse_rate is not None and bot.mean_reused_visits is not None:
            print(
                f"{bot.entry}:{bot.bot}: tree reused on {bot.reuse_rate:.1%} of its searches, "
                f"{bot.mean_reused_visits:.0f} root visits reused per move"
            )
