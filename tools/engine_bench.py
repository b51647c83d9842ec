"""Engine speed benchmark: seeded random games, counting steps (legal_actions + apply).

`bench_engine` plays the Python engine; `bench_native_engine` has a native twin (the Rust core,
`boardbot_native`) play the same kind of games natively, in one call: stepping it from Python
would measure the binding's per-call cost instead of the engine. Both count a step the same way
(one decision or one chance step), play whole games and check the clock after each.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from boardbot.engine.api import CHANCE, Game

NATIVE_MAX_SECONDS = 600.0
"""The longest native run `bench_native_engine` accepts (the binding's bound)."""


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
    return _result(game.name, options, elapsed, games, decision, chance)


def bench_native_engine(
    twin: Any, options: Mapping[str, Any], seconds: float = 5.0, seed: int = 0
) -> EngineBenchResult:
    """The same benchmark played by a native twin (`search.engines.native_twin`) in one call.

    `seconds` must be in (0, 600] (the binding's bound). The native random streams are its own:
    the same seed does not give the same games as `bench_engine`, only the same kind of figures.
    """
    figures = twin.random_playouts(json.dumps(dict(options)), seed, seconds)
    return _result(
        twin.name,
        options,
        float(figures["seconds"]),
        int(figures["games"]),
        int(figures["decisions"]),
        int(figures["chance"]),
    )


def _result(
    game: str,
    options: Mapping[str, Any],
    elapsed: float,
    games: int,
    decision: int,
    chance: int,
) -> EngineBenchResult:
    steps = decision + chance
    return EngineBenchResult(
        game=game,
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
