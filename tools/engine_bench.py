"""Engine speed benchmark: seeded random games, counting steps (legal_actions + apply)."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from boardbot.engine.api import CHANCE, Game


@dataclass(frozen=True)
class EngineBenchResult:
    """Figures of one engine benchmark run."""

    game: str
    options: dict[str, Any]
    seconds: float
    games: int
    steps: int
    decision_steps: int
    chance_steps: int
    steps_per_second: float
    games_per_second: float
    mean_steps_per_game: float

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return asdict(self)


def bench_engine(
    game: Game, options: Mapping[str, Any], seconds: float = 5.0, seed: int = 0
) -> EngineBenchResult:
    """Play seeded random games for about `seconds` and report steps and games per second."""
    rng = random.Random(seed)
    games = decision = chance = 0
    game_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_state(options, game_seed)
        game_seed += 1
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                chance += 1
            else:
                actions = game.legal_actions(state)
                state = game.apply(state, actions[rng.randrange(len(actions))])
                decision += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    steps = decision + chance
    return EngineBenchResult(
        game=game.name,
        options=dict(options),
        seconds=round(elapsed, 3),
        games=games,
        steps=steps,
        decision_steps=decision,
        chance_steps=chance,
        steps_per_second=round(steps / elapsed, 1),
        games_per_second=round(games / elapsed, 2),
        mean_steps_per_game=round(steps / games, 1),
    )
