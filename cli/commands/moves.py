"""`boardbot moves`: the numbered legal moves of the seat to move."""

from __future__ import annotations

import argparse
import sys

from boardbot.cli.commands.common import add_state_arguments, load_state, run_guarded
from boardbot.jobs import game_ops


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `moves` command."""
    p = sub.add_parser("moves", help="list the legal moves in a state")
    add_state_arguments(p)
    p.add_argument("--json", action="store_true", help="print each move's JSON too")
    p.set_defaults(func=lambda args: run_guarded(run_moves, args))


def run_moves(args: argparse.Namespace) -> int:
    """Print `N. notation` for each legal move (with `--json`, the move's JSON after it)."""
    game = game_ops.load_game(args.game)
    state, _ = load_state(game, args.state)
    game_ops.check_decision_state(game, state)
    print(f"seat {game.current_player(state)} to move", file=sys.stderr)
    for number, move in enumerate(game_ops.legal_moves(game, state), start=1):
        suffix = f"  {move.json.decode()}" if args.json else ""
        print(f"{number:3d}. {move.notation}{suffix}")
    return 0
