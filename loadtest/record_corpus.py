"""Record the load-test corpus: seeded self-play games, mid-game states stored as JSON.

Run `python -m loadtest.record_corpus` from the repository root. Each game is played by a
cheap bot (one-step greedy, with some uniformly random moves for variety) and a few states
from the middle of the game, where some seat has a real choice, are kept with the seat to move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from boardbot.engine import CHANCE, Game, State, get_game
from boardbot.search.bots import GreedyBot, RandomBot
from loadtest.corpus import CORPUS_DIR, SETUPS, Position, Setup, write_positions

MAX_STEPS = 20_000
"""Bound on the steps (decisions and chance) of one self-play game."""

MIDGAME = (0.2, 0.8)
"""The stretch of a game, as fractions of its decisions, that positions are drawn from."""


def play_decisions(game: Game, setup: Setup, seed: int, random_share: float) -> list[State]:
    """The decision states (two or more legal moves) of one seeded self-play game, in order."""
    rng = random.Random(seed)
    greedy, uniform = GreedyBot(), RandomBot()
    state = game.new_state(setup.options, seed)
    decisions: list[State] = []
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            return decisions
        seat = game.current_player(state)
        if seat == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if len(game.legal_actions(state)) >= 2:
            decisions.append(state)
        bot = uniform if rng.random() < random_share else greedy
        state = game.apply(state, bot.choose(game, state, seat, rng))
    raise RuntimeError(f"{setup.label} seed {seed}: no end after {MAX_STEPS} steps")


def record_setup(
    setup: Setup, games: int, per_game: int, first_seed: int, random_share: float
) -> list[Position]:
    """`per_game` mid-game positions from each of `games` self-play games of `setup`."""
    game = get_game(setup.game)
    positions: list[Position] = []
    for seed in range(first_seed, first_seed + games):
        decisions = play_decisions(game, setup, seed, random_share)
        low, high = (int(len(decisions) * f) for f in MIDGAME)
        if high - low < per_game:
            raise RuntimeError(f"{setup.label} seed {seed}: only {len(decisions)} decisions")
        picks = sorted(random.Random(seed).sample(range(low, high), per_game))
        for ply in picks:
            state = decisions[ply]
            positions.append(
                Position(
                    setup=setup.label,
                    game=setup.game,
                    options=dict(setup.options),
                    seat=game.current_player(state),
                    ply=ply,
                    game_seed=seed,
                    state_json=json.dumps(
                        game.state_to_json(state), separators=(",", ":")
                    ).encode(),
                )
            )
    return positions


def main(argv: list[str] | None = None) -> int:
    """Record every setup and report the files written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CORPUS_DIR, help="corpus directory")
    parser.add_argument("--games", type=int, default=8, help="self-play games per setup")
    parser.add_argument("--per-game", type=int, default=3, help="positions kept per game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument(
        "--random-share", type=float, default=0.25, help="share of uniformly random moves"
    )
    args = parser.parse_args(argv)
    for setup in SETUPS:
        positions = record_setup(setup, args.games, args.per_game, args.seed, args.random_share)
        path = write_positions(args.out, setup.label, positions)
        print(f"{path}: {len(positions)} positions, {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
