"""Game records for the review's tests: seeded games of uniformly random moves."""

from __future__ import annotations

import random
from typing import Any

import orjson

from boardbot.engine import CHANCE, get_game
from boardbot.engine.record import RecordBuilder, record_to_json


def random_record(
    game_name: str = "legend_raiders",
    seed: int = 3,
    decisions: int | None = None,
    options: dict[str, Any] | None = None,
    settle: bool = True,
) -> dict[str, Any]:
    """The record of a game of random moves (chance drawn from `seed`), stopped after
    `decisions` decisions when given (an unfinished game; with `settle`, after the chance steps
    that follow the last), else played to its end."""
    game = get_game(game_name)
    chosen = {"players": 2} if options is None and game_name == "legend_raiders" else options
    chosen = chosen or {}
    state = game.new_state(chosen, seed)
    builder = RecordBuilder(
        game, state, chosen, seed=seed,
        players=[{"seat": s, "name": f"random-{s}", "kind": "bot"}
                 for s in range(game.num_players(state))],
    )
    rng = random.Random(seed)
    made = 0
    while not game.is_terminal(state) and (decisions is None or made < decisions):
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
            made += 1
        builder.add(state, action)
        state = game.apply(state, action)
    while settle and game.current_player(state) == CHANCE:
        action = game.sample_chance(state, rng)
        builder.add(state, action)
        state = game.apply(state, action)
    return record_to_json(builder.finish(state))


def record_bytes(record: dict[str, Any]) -> bytes:
    """A record document as the request's bytes."""
    return orjson.dumps(record)
