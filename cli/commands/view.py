"""`boardbot view`: a state as one seat sees it (hidden parts as counts), here or from a server."""

from __future__ import annotations

import argparse
import sys

import orjson

from boardbot.cli.commands.common import (
    add_output_arguments,
    add_server_arguments,
    add_state_arguments,
    describe_summary,
    read_state_bytes,
    run_guarded,
    write_document,
)
from boardbot.jobs.game_ops import Summary
from boardbot.jobs.rules_job import SeatView, ViewStateCall, view_state


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `view` command."""
    p = sub.add_parser("view", help="print the state as one seat sees it (hidden parts as counts)")
    add_state_arguments(p)
    p.add_argument("--seat", type=int, required=True, help="the seat whose view to print")
    p.add_argument(
        "--remote", action="store_true", help="ask the server (ViewState) instead of computing it"
    )
    add_server_arguments(p)
    add_output_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_view, args))


def run_view(args: argparse.Namespace) -> int:
    """Print the seat's view of the state, and who is to move as that seat sees it."""
    call = ViewStateCall(args.game, read_state_bytes(args.state), args.seat)
    seen = remote_view(args, call) if args.remote else view_state(call)
    write_document(orjson.loads(seen.state_json), args)
    print(f"seat {args.seat}'s view; {describe_summary(seen.summary)}", file=sys.stderr)
    return 0


def remote_view(args: argparse.Namespace, call: ViewStateCall) -> SeatView:
    """The seat's view as the server's ViewState answers it."""
    # Imported here, not at the top: only client commands load gRPC.
    from boardbot.cli.commands.remote import connect
    from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

    client = connect(args)
    try:
        reply = client.view_state(
            pb.ViewStateRequest(game=call.game, state_json=call.state_json, seat=call.seat)
        )
    finally:
        client.close()
    s = reply.summary
    summary = Summary(
        s.current_player, s.terminal, s.num_players, tuple(s.scores), tuple(s.returns)
    )
    return SeatView(reply.state_json, summary)
