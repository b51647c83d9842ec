"""`boardbot analyze`: a table of the best moves, from a running server."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

import orjson

from boardbot.cli.commands.analysis_text import (
    LEGEND,
    analysis_json,
    figure,
    line_text,
    seat_values_text,
)
from boardbot.cli.commands.common import (
    add_search_arguments,
    add_server_arguments,
    add_state_arguments,
    read_state_bytes,
    run_guarded,
)
from boardbot.cli.commands.move import seat_to_move

if TYPE_CHECKING:
    from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

PV_SHOWN = 7
"""Moves of each principal variation shown in the table, the move itself included."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `analyze` command."""
    p = sub.add_parser("analyze", help="ask the server for a table of the best moves")
    add_state_arguments(p)
    p.add_argument(
        "--seat", type=int, default=None, help="seat analysed (default: the seat to move)"
    )
    p.add_argument("--top-k", type=int, default=5, help="moves shown (0: all)")
    add_search_arguments(p)
    add_server_arguments(p)
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.set_defaults(func=lambda args: run_guarded(run_analyze, args))


def run_analyze(args: argparse.Namespace) -> int:
    """Call Analyze and print the ranked table."""
    raw = read_state_bytes(args.state)
    seat = args.seat if args.seat is not None else seat_to_move(args.game, raw)
    # Imported here, not at the top: only client commands load gRPC.
    from boardbot.cli.commands.remote import analyze_request, connect

    client = connect(args)
    try:
        reply = client.analyze(analyze_request(args, raw, seat))
    finally:
        client.close()
    if args.json:
        print(orjson.dumps(analysis_json(reply)).decode())
        return 0
    print(analysis_table(reply.moves))
    print(LEGEND)
    stats = reply.stats
    if reply.seat_values:
        print(f"seat values {seat_values_text(reply.seat_values)}  (every seat, this search)")
    print(
        f"seat {stats.seat}: {stats.iterations} iterations in {stats.elapsed_ms:.1f} ms, "
        f"stopped by {stats.stopped_by}"
    )
    return 0


def analysis_table(moves: Sequence[pb.MoveAnalysis]) -> str:
    """A fixed-width table: rank, move, visits, value, lower bound ('-' when not searched),
    then with a model the network's prior and value of the move (`prior`, `net`), and the
    principal variation from the move itself, each move after its seat's marker."""
    width = max([len("move"), *(len(m.move.notation) for m in moves)])
    learned = any(m.HasField("prior") or m.HasField("net_value") for m in moves)
    extra = f"  {'prior':>6}  {'net':>6}" if learned else ""
    lines = [
        f"{'#':>3}  {'move':<{width}}  {'visits':>7}  {'value':>6}  {'lower':>6}{extra}  line"
    ]
    for m in moves:
        line = line_text(m.principal_variation, m.principal_variation_seats, PV_SHOWN)
        figures = f"  {figure(m, 'prior'):>6}  {figure(m, 'net_value'):>6}" if learned else ""
        lines.append(
            f"{m.rank:>3}  {m.move.notation:<{width}}  {m.visits:>7}  {figure(m, 'value'):>6}  "
            f"{figure(m, 'lower_bound'):>6}{figures}  {line}"
        )
    return "\n".join(lines)
