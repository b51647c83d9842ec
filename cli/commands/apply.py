"""`boardbot apply`: apply one move to a state and print the next state."""

from __future__ import annotations

import argparse
import random
import sys

from boardbot.cli.commands.common import (
    CommandError,
    add_output_arguments,
    add_state_arguments,
    describe_turn,
    load_state,
    run_guarded,
    write_state,
)
from boardbot.jobs import game_ops


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `apply` command."""
    p = sub.add_parser("apply", help="apply a move and print the next state JSON")
    add_state_arguments(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--move", help="the move in notation")
    which.add_argument("--move-json", help="the move as a JSON object")
    which.add_argument("--number", type=int, help="the move's number in `boardbot moves`")
    p.add_argument("--seed", type=int, default=0, help="seed of the chance steps that follow")
    add_output_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_apply, args))


def run_apply(args: argparse.Namespace) -> int:
    """Parse and apply the move, resolve chance steps, print the state."""
    game = game_ops.load_game(args.game)
    state, _ = load_state(game, args.state)
    game_ops.check_decision_state(game, state)
    if args.number is not None:
        actions = game.legal_actions(state)
        if not 1 <= args.number <= len(actions):
            raise CommandError(f"--number must be in 1..{len(actions)}, got {args.number}")
        action = actions[args.number - 1]
    else:
        raw = args.move_json.encode() if args.move_json is not None else None
        action = game_ops.parse_move(game, state, raw, args.move)
    print(f"applied {game.action_to_str(state, action)}", file=sys.stderr)
    state = game.apply(state, action)
    state, events = game_ops.resolve_chance(game, state, random.Random(args.seed))
    for event in events:
        print(f"chance: {event}", file=sys.stderr)
    write_state(game, state, args)
    print(describe_turn(game, state), file=sys.stderr)
    return 0
