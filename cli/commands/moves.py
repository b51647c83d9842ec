"""`boardbot moves`: the numbered legal moves of the seat to move, or a chance step's outcomes."""

from __future__ import annotations

import argparse
import sys

from boardbot.cli.commands.common import add_state_arguments, load_state, run_guarded
from boardbot.jobs import game_ops
from boardbot.jobs.game_ops import MoveForms


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `moves` command."""
    p = sub.add_parser(
        "moves", help="list the legal moves in a state (at a chance step: its outcomes)"
    )
    add_state_arguments(p)
    p.add_argument("--json", action="store_true", help="print each move's JSON too")
    p.set_defaults(func=lambda args: run_guarded(run_moves, args))


def run_moves(args: argparse.Namespace) -> int:
    """Print `N. notation` for each legal move (with `--json`, the move's JSON after it); at a
    chance step each outcome with its probability, or the form an outcome takes."""
    game = game_ops.load_game(args.game)
    state, _ = load_state(game, args.state)
    game_ops.check_not_over(game, state)
    listed = game_ops.move_list(game, state)
    if not listed.chance:
        print(f"seat {game.current_player(state)} to move", file=sys.stderr)
    elif listed.moves:
        print("chance step: its outcomes, with their probabilities", file=sys.stderr)
    else:
        print("chance step whose outcomes cannot be listed; an outcome is a", file=sys.stderr)
        print(listed.chance_form)
    for number, move in enumerate(listed.moves, start=1):
        print(f"{number:3d}. {move_line(move, args.json)}")
    return 0


def move_line(move: MoveForms, with_json: bool) -> str:
    """A listed move: its notation, a chance outcome's probability, and with `with_json` its
    JSON."""
    line = move.notation
    if move.probability is not None:
        line += f"  p={move.probability:.4f}"
    if with_json:
        line += f"  {move.json.decode()}"
    return line
