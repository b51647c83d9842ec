"""`boardbot review RECORD...`: review recorded games move by move, in this process or on a
server, print the table and the summary, and draw each game's evaluation graph."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from boardbot.cli.commands.common import (
    CommandError,
    add_engine_argument,
    chosen_engine,
    run_guarded,
    search_overrides,
)
from boardbot.engine.record import record_from_json
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.tools.extras import MissingExtraError, import_extra
from boardbot.tools.review_report import LossTable

MOVE_WIDTH = 24
"""Width of the move columns (a longer move pushes its row's later columns right)."""
SERVER_TIMEOUT_S = 3600.0
"""Default deadline of a review on a server (`--timeout`)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `review` command."""
    p = sub.add_parser(
        "review",
        help="review recorded games: each move's loss and judgement, a summary per seat and "
        "an evaluation graph (PNG)",
    )
    p.add_argument("records", nargs="+", type=Path, metavar="RECORD",
                   help="game record files (docs/records.md); with several, a table of the "
                   "losses per player name follows")
    p.add_argument("--preset", default="", help="search of each position (default: medium)")
    p.add_argument("--time-ms", type=float, default=None,
                   help="time per position in milliseconds (at most 10000)")
    p.add_argument("--iterations", type=int, default=None, help="iterations per position")
    p.add_argument("--workers", type=int, default=None, help="threads per search")
    p.add_argument("--model", default=None, metavar="NAME",
                   help="the network guiding each search: a shipped model's name, auto or none "
                   "(default: the preset's; Legend Raiders' analyses name auto)")
    p.add_argument("--seats", default="",
                   help="comma-separated seats to judge (default: every seat)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true",
                   help="print each review as one JSON document instead of the table")
    p.add_argument("--png", type=Path, default=None, metavar="FILE",
                   help="where to draw the evaluation graph (default: RECORD with the suffix "
                   ".review.png; several records: always that)")
    p.add_argument("--no-png", action="store_true", help="draw no graph")
    add_engine_argument(p)
    p.add_argument("--server", default=None, metavar="HOST:PORT",
                   help="review on this server (ReviewGame) instead of in this process")
    p.add_argument("--token", default=os.environ.get("BOARDBOT_TOKEN"),
                   help="with --server: shared token, if any")
    p.add_argument("--tls-ca", type=Path, default=os.environ.get("BOARDBOT_TLS_CA"),
                   help="with --server: CA certificate for TLS")
    p.add_argument("--timeout", type=float, default=SERVER_TIMEOUT_S,
                   help="with --server: the review's deadline in seconds")
    # The search settings a review does not offer, for the shared search-flag helpers.
    p.set_defaults(exploration=None, temperature=None)
    p.set_defaults(func=lambda args: run_guarded(run_review, args))


def run_review(args: argparse.Namespace) -> int:
    """Review every record given; print the tables (or JSON) and draw the graphs."""
    seats = _seats(args.seats)
    if not args.no_png:
        try:
            import_extra("matplotlib", "ladder", "drawing the review's evaluation graph")
        except MissingExtraError as error:
            raise CommandError(f"{error} (or give --no-png)") from None
    if args.png is not None and len(args.records) > 1:
        raise CommandError("--png names one file: give one record, or leave --png out")
    table = LossTable()
    for path in args.records:
        raw = _read(path)
        names = _player_names(raw)
        positions: list[pb.PositionReview] = []
        summary = pb.ReviewSummary()
        if not args.json:
            print(f"review of {path}")
            print(position_header())
        started = time.perf_counter()
        first = None
        for response in _responses(args, raw, seats):
            if response.HasField("summary"):
                summary = response.summary
                continue
            if first is None:
                first = time.perf_counter() - started
            positions.append(response.position)
            if not args.json:
                print(position_line(response.position), flush=True)
        took = time.perf_counter() - started
        print(
            f"{path}: {len(positions)} decisions reviewed in {took:.1f} s"
            + ("" if first is None else f", the first after {first:.2f} s"),
            file=sys.stderr,
        )
        table.add(names, positions)
        if args.json:
            print(orjson.dumps(review_json(str(path), positions, summary)).decode())
        else:
            print(summary_text(summary, names))
        if not args.no_png:
            from boardbot.tools.review_plot import draw_review_png

            png = args.png or path.with_name(path.stem + ".review.png")
            draw_review_png(positions, names, png, f"{path.name}: value of each seat")
            print(f"wrote {png}", file=sys.stderr)
    if len(args.records) > 1 and not args.json:
        print(table.text())
    return 0


def _seats(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError(f"--seats expects comma-separated seat numbers, got {text!r}") from None


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read record {path}: {error.strerror}") from None


def _player_names(raw: bytes) -> list[str]:
    """Each seat's name in the record (`seat N` where it names none)."""
    from boardbot.jobs import game_ops
    from boardbot.jobs.review import RECORD_FIELD

    try:
        record = record_from_json(game_ops.parse_json(raw, RECORD_FIELD, len(raw) + 1))
    except Exception:
        return []  # the review itself says what is wrong with the record
    game = game_ops.load_game(record.game)
    players = game.num_players(game_ops.decode_document(game, record.initial_state))
    named = {p.get("seat"): str(p.get("name", "")) for p in record.players}
    return [named.get(seat) or f"seat {seat}" for seat in range(players)]


def _responses(
    args: argparse.Namespace, raw: bytes, seats: list[int]
) -> Iterator[pb.ReviewGameResponse]:
    if args.server is not None:
        yield from _remote(args, raw, seats)
    else:
        yield from _local(args, raw, seats)


def _local(
    args: argparse.Namespace, raw: bytes, seats: list[int]
) -> Iterator[pb.ReviewGameResponse]:
    """The review in this process, each position searched here."""
    from boardbot.jobs import review, settings
    from boardbot.jobs.review_job import run_position_job
    from boardbot.service.convert import review_response

    engine = chosen_engine(args)
    plan = review.plan_review(raw, seats)
    limits = settings.Limits(max_workers=os.cpu_count() or 1)
    config = review.review_config(args.preset, search_overrides(args), limits, plan.game, engine)
    options = review.ReviewSettings(config=config, seed=args.seed, engine=engine)
    for item in review.review(plan, options, run_position_job):
        yield review_response(item)


def _remote(
    args: argparse.Namespace, raw: bytes, seats: list[int]
) -> Iterator[pb.ReviewGameResponse]:
    """The review on the server `--server` (ReviewGame)."""
    from boardbot.cli.commands.remote import connect, search_settings

    client = connect(args)
    request = pb.ReviewGameRequest(
        record_json=raw, preset=args.preset, settings=search_settings(args), seed=args.seed,
        seats=seats,
    )
    try:
        yield from client.stub.ReviewGame(request, timeout=args.timeout, metadata=client.metadata)
    finally:
        client.close()


def position_header() -> str:
    """The table's header."""
    return (
        f"{'#':>4}  {'seat':>4}  {'played':<{MOVE_WIDTH}}  {'best':<{MOVE_WIDTH}}  "
        f"{'before':>6}  {'loss':>6}  "
        "judgement"
    )


def position_line(p: pb.PositionReview) -> str:
    """One decision: move number, seat, played, best (blank when it is the move played), the
    mover's value before, loss, judgement."""
    before = f"{p.values_before[p.seat]:.3f}" if len(p.values_before) > p.seat else "-"
    best = "" if p.best.notation == p.played.notation else p.best.notation
    loss = f"{p.loss:.3f}" if p.judgement not in ("", "forced") else ""
    return (
        f"{p.index:>4}  {p.seat:>4}  {p.played.notation:<{MOVE_WIDTH}}  {best:<{MOVE_WIDTH}}  "
        f"{before:>6}  {loss:>6}  {p.judgement}"
    )


def summary_text(summary: pb.ReviewSummary, names: list[str]) -> str:
    """The summary per seat, one line each."""
    lines = [
        f"{'seat':<16}{'moves':>6}{'avg loss':>10}{'accuracy':>10}{'inacc.':>8}"
        f"{'mistakes':>10}{'blunders':>10}"
    ]
    for s in summary.seats:
        name = f"{s.seat} {names[s.seat]}" if s.seat < len(names) else str(s.seat)
        lines.append(
            f"{name:<16}{s.moves:>6}{s.average_loss:>10.3f}{s.accuracy:>9.1f}%"
            f"{s.inaccuracies:>8}{s.mistakes:>10}{s.blunders:>10}"
        )
    return "\n".join(lines)


def review_json(
    path: str, positions: list[pb.PositionReview], summary: pb.ReviewSummary
) -> dict[str, Any]:
    """One review as a JSON document: the gRPC field names, moves as JSON documents."""
    from boardbot.web.wire import to_json

    return {
        "record": path,
        "positions": [to_json(p) for p in positions],
        "summary": to_json(summary),
    }
