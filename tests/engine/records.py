"""Helpers of the game record tests: seeded random games recorded, and the record schema."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from boardbot.engine import CHANCE, get_game
from boardbot.engine.record import Record, RecordBuilder

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "engine" / "schemas" / "record.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
"""The record format's JSON Schema."""


def random_record(
    name: str, options: dict[str, Any], seed: int, steps: int | None = None
) -> tuple[Record, Any]:
    """A seeded random game's record (to the end, or `steps` moves) and its last state."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    players = [{"seat": s, "name": f"p{s}", "kind": "bot"} for s in range(game.num_players(state))]
    builder = RecordBuilder(game, state, options, seed, players)
    while not game.is_terminal(state) and (steps is None or len(builder.moves) < steps):
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        comment = f"move {len(builder.moves)}"
        builder.add(state, action, clock_ms=rng.random() * 100, comment=comment)
        state = game.apply(state, action)
    return builder.finish(state, date="2026-12-02T14:00:00Z", event="test"), state
