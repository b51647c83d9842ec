"""`boardbot new`: set up a game and print its state JSON."""

from __future__ import annotations

import argparse
import random
import sys

from boardbot.cli.commands.common import (
    CommandError,
    add_manual_chance_argument,
    add_output_arguments,
    describe_turn,
    run_guarded,
    write_state,
)
from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.engine import EngineError
from boardbot.jobs import game_ops


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `new` command."""
    p = sub.add_parser("new", help="set up a new game and print its state JSON")
    add_game_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the setup and opening chance steps")
    add_manual_chance_argument(p)
    add_output_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_new, args))


def run_new(args: argparse.Namespace) -> int:
    """Create the game, resolve opening chance steps (unless --manual-chance), print the state."""
    game = game_ops.load_game(args.game)
    try:
        state = game.new_state(game_options(args), args.seed)
    except (EngineError, ValueError, TypeError, KeyError) as error:
        raise CommandError(f"bad options: {error}") from None
    rng = random.Random(args.seed)
    state, _ = game_ops.resolve_chance(game, state, rng, manual=args.manual_chance)
    write_state(game, state, args)
    print(describe_turn(game, state), file=sys.stderr)
    return 0
