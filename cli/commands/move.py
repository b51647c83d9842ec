"""`boardbot move`: ask a running server for the bot's move."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import orjson

from boardbot.cli.commands.analysis_text import (
    figure,
    line_text,
    move_analysis_json,
    seat_values_text,
)
from boardbot.cli.commands.common import (
    add_search_arguments,
    add_server_arguments,
    add_state_arguments,
    read_state_bytes,
    run_guarded,
)
from boardbot.jobs import game_ops

if TYPE_CHECKING:
    from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `move` command."""
    p = sub.add_parser("move", help="ask the server for the bot's move")
    add_state_arguments(p)
    p.add_argument("--seat", type=int, default=None, help="bot's seat (default: the seat to move)")
    add_search_arguments(p)
    add_server_arguments(p)
    p.add_argument("--json", action="store_true", help="print the whole response as JSON")
    p.set_defaults(func=lambda args: run_guarded(run_move, args))


def seat_to_move(game_name: str, raw: bytes) -> int:
    """The seat to move in a state, decoded locally."""
    game = game_ops.load_game(game_name)
    return game.current_player(game_ops.decode_state(game, raw))


def run_move(args: argparse.Namespace) -> int:
    """Call ChooseMove and print the move with its statistics."""
    raw = read_state_bytes(args.state)
    seat = args.seat if args.seat is not None else seat_to_move(args.game, raw)
    # Imported here, not at the top: only client commands load gRPC.
    from boardbot.cli.commands.remote import choose_move_request, connect

    client = connect(args)
    try:
        reply = client.choose_move(choose_move_request(args, raw, seat, args.seed))
    finally:
        client.close()
    if args.json:
        print(orjson.dumps(_response_json(reply)).decode())
        return 0
    stats = reply.stats
    print(reply.move.notation)
    print(f"  json        {reply.move.move_json.decode()}")
    analysis = reply.analysis
    if analysis.HasField("value"):
        print(f"  value       {analysis.value:.3f} (lower bound {figure(analysis, 'lower_bound')})")
    else:
        print(f"  value       not searched ({stats.stopped_by})")
    if analysis.seat_values:
        print(f"  seats       {seat_values_text(analysis.seat_values)}")
    if analysis.HasField("prior") and analysis.HasField("net_value"):
        print(f"  network     prior {analysis.prior:.3f}, value {analysis.net_value:.3f}")
    print(f"  visits      {analysis.visits} of {stats.iterations} iterations")
    print(f"  search      {stats.elapsed_ms:.1f} ms, stopped by {stats.stopped_by}")
    if analysis.principal_variation:
        line = line_text(analysis.principal_variation, analysis.principal_variation_seats)
        print(f"  line        {line}")
    return 0


def _response_json(reply: pb.ChooseMoveResponse) -> dict[str, object]:
    """The move as JSON: its figures as `analyze --json` gives each move's (`value` and
    `lower_bound` null when not searched), then how the search went."""
    out: dict[str, object] = move_analysis_json(reply.analysis)
    out.update(
        move=orjson.loads(reply.move.move_json),
        notation=reply.move.notation,
        iterations=reply.stats.iterations,
        elapsed_ms=reply.stats.elapsed_ms,
        stopped_by=reply.stats.stopped_by,
        budget=reply.stats.settings.iterations,
        random_move=reply.stats.random_move,
    )
    return out
