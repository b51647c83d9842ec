"""`boardbot apply`: apply one move (or chance outcome) to a state and print the next state."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from boardbot.cli.commands.common import (
    CommandError,
    add_manual_chance_argument,
    add_output_arguments,
    add_state_arguments,
    describe_turn,
    load_state,
    run_guarded,
    write_state,
)
from boardbot.engine import CHANCE, Game, State
from boardbot.jobs import game_ops


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `apply` command."""
    p = sub.add_parser(
        "apply", help="apply a move (or a chance step's outcome) and print the next state JSON"
    )
    add_state_arguments(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--move", help="the move in notation (at a chance step: its outcome)")
    which.add_argument("--move-json", help="the move as a JSON object (or a chance outcome)")
    which.add_argument("--number", type=int, help="the move's number in `boardbot moves`")
    which.add_argument(
        "--roll", action="store_true", help="at a chance step: draw its outcome with --seed"
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of the chance steps that follow (and of --roll)"
    )
    add_manual_chance_argument(p)
    add_output_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_apply, args))


def run_apply(args: argparse.Namespace) -> int:
    """Apply the move (or draw the chance outcome), resolve chance steps unless
    --manual-chance, print the state."""
    game = game_ops.load_game(args.game)
    state, _ = load_state(game, args.state)
    game_ops.check_not_over(game, state)
    rng = random.Random(args.seed)
    events: list[str] = []
    if args.roll:
        if game.current_player(state) != CHANCE:
            raise CommandError(
                f"--roll: no chance step is pending; seat {game.current_player(state)} is to move"
            )
        state, event = game_ops.sample_chance_step(game, state, rng)
        events.append(event)
    else:
        action = chosen_action(game, state, args)
        print(f"applied {game.action_to_str(state, action)}", file=sys.stderr)
        state = game.apply(state, action)
    state, more = game_ops.resolve_chance(game, state, rng, manual=args.manual_chance)
    for event in (*events, *more):
        print(f"chance: {event}", file=sys.stderr)
    write_state(game, state, args)
    print(describe_turn(game, state), file=sys.stderr)
    return 0


def chosen_action(game: Game, state: State, args: argparse.Namespace) -> Any:
    """The action of `--number`, `--move` or `--move-json`, checked legal (a chance outcome at
    a chance step)."""
    if args.number is None:
        raw = args.move_json.encode() if args.move_json is not None else None
        return game_ops.parse_move(game, state, raw, args.move)
    actions = numbered_actions(game, state)
    if not 1 <= args.number <= len(actions):
        raise CommandError(f"--number must be in 1..{len(actions)}, got {args.number}")
    return actions[args.number - 1]


def numbered_actions(game: Game, state: State) -> list[Any]:
    """The actions `boardbot moves` numbers: the legal moves, or a chance step's outcomes."""
    if game.current_player(state) != CHANCE:
        return list(game.legal_actions(state))
    outcomes = game_ops.listed_outcomes(game, state)
    if outcomes is None:
        raise CommandError(
            "--number: this chance step's outcomes cannot be listed; give one with --move-json "
            f"or --move: {game.chance_form(state)}"
        )
    return [action for action, _ in outcomes]
