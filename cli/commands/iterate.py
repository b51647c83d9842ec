"""`boardbot iterate`: expert iteration, generation by generation, while matches show a gain."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boardbot.cli.commands.common import CommandError, run_guarded
from boardbot.cli.commands.options import add_game_arguments, game_options
from boardbot.cli.commands.runner_args import add_ray_argument, chosen_runner
from boardbot.cli.commands.train import hidden_widths
from boardbot.engine import get_game
from boardbot.learn.iteration import IterationError, IterationSettings, run_iteration
from boardbot.learn.selfplay import SelfPlayError
from boardbot.learn.train import TrainError
from boardbot.tools.match import with_seat_count


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `iterate` command."""
    p = sub.add_parser(
        "iterate",
        help="expert iteration: self-play, train, match at equal time, while it gains",
        description="Generation by generation: self-play by the current search (generation 1: "
        "no model; later: the last kept model), a network trained on it, and a match of the "
        "new model against the incumbent at equal time per move. A generation is kept while "
        "the lower end of its win rate's 95%% interval is above an equal share; the run stops "
        "at the first that is not. Resumable: a rerun continues where the folder stands "
        "(docs/learning.md).",
    )
    add_game_arguments(p)
    p.add_argument("--dir", type=Path, required=True, help="the run's folder")
    p.add_argument("--generations", type=int, default=3, help="most generations (default 3)")
    p.add_argument("--games", type=int, default=2000, help="self-play games per generation")
    p.add_argument("--first-bot", default="hard", help="generation 1's self-play search")
    p.add_argument(
        "--bot", default="hard",
        help="later generations' self-play search (the last kept model is added)",
    )
    p.add_argument(
        "--match-bot", default="hard@5ms",
        help="both sides' search in a match: equal time per move (default hard@5ms)",
    )
    p.add_argument("--match-games", type=int, default=200, help="games per match")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--temperature-moves", type=int, default=8)
    p.add_argument("--hidden", type=hidden_widths, default=None, metavar="W1,W2")
    p.add_argument("--l2", type=float, default=None, help="training's L2 weight")
    p.add_argument("--parallel", type=int, default=1, help="games played at once (processes)")
    add_ray_argument(p)
    p.set_defaults(func=lambda args: run_guarded(run_iterate_command, args))


def run_iterate_command(args: argparse.Namespace) -> int:
    """Run the generations and print each one's outcome."""
    game = get_game(args.game)
    train: dict[str, object] = {}
    if args.hidden is not None:
        train["hidden"] = list(args.hidden)
    if args.l2 is not None:
        train["l2"] = args.l2
    options = with_seat_count(game, game_options(args), 2)
    settings = IterationSettings(
        game=game.name,
        options=options,
        first_bot=args.first_bot,
        bot=args.bot,
        games=args.games,
        match_bot=args.match_bot,
        match_games=args.match_games,
        seed=args.seed,
        temperature=args.temperature,
        temperature_moves=args.temperature_moves,
        train=train,
    )
    try:
        results = run_iteration(
            args.dir, settings, args.generations, chosen_runner(args), stream=sys.stderr
        )
    except (IterationError, SelfPlayError, TrainError) as error:
        raise CommandError(str(error)) from None
    kept = [r for r in results if r.kept]
    print(f"best model: {kept[-1].model}" if kept else "no generation showed a gain")
    return 0
