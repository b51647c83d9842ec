"""`boardbot analyze`: a table of the best moves, from a running server."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

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

PV_SHOWN = 6
"""Moves of each principal variation shown in the table."""


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
    print(analysis_table(reply.moves))
    stats = reply.stats
    print(
        f"seat {stats.seat}: {stats.iterations} iterations in {stats.elapsed_ms:.1f} ms, "
        f"stopped by {stats.stopped_by}"
    )
    return 0


def analysis_table(moves: Sequence[pb.MoveAnalysis]) -> str:
    """A fixed-width table: rank, move, visits, value, lower bound, then with a model the
    network's prior and value of the move (`prior`, `net`), and the principal variation."""
    width = max([len("move"), *(len(m.move.notation) for m in moves)])
    learned = any(m.HasField("prior") or m.HasField("net_value") for m in moves)
    extra = f"  {'prior':>6}  {'net':>6}" if learned else ""
    lines = [
        f"{'#':>3}  {'move':<{width}}  {'visits':>7}  {'value':>6}  {'lower':>6}{extra}  line"
    ]
    for m in moves:
        line = list(m.principal_variation[1 : PV_SHOWN + 1])
        more = " …" if len(m.principal_variation) > PV_SHOWN + 1 else ""
        figures = (
            f"  {_figure(m, 'prior'):>6}  {_figure(m, 'net_value'):>6}" if learned else ""
        )
        lines.append(
            f"{m.rank:>3}  {m.move.notation:<{width}}  {m.visits:>7}  {m.value:>6.3f}  "
            f"{m.lower_bound:>6.3f}{figures}  {' '.join(line)}{more}"
        )
    return "\n".join(lines)


def _figure(move: pb.MoveAnalysis, name: str) -> str:
    """A network figure of the move to three places, `-` when unset."""
    return f"{getattr(move, name):.3f}" if move.HasField(name) else "-"
