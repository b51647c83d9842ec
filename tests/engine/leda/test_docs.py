"""The documented example state and schema agree with the engine (the example on both engines;
the schema's names against the Python engine's tables)."""

from __future__ import annotations

import json
from pathlib import Path

from boardbot.engine import get_game
from boardbot.engine.leda.data import TILE_NAMES, ZONE_NAMES
from boardbot.engine.leda.frames import FRAME_NAMES
from tests.engine.leda.builders import Engine

DOCS = Path(__file__).resolve().parents[3] / "docs" / "leda"
GAME = get_game("leda")


def test_example_state_decodes_and_round_trips(engine: Engine) -> None:
    game = engine.game
    data = json.loads((DOCS / "example-state.json").read_text())
    state = game.state_from_json(data)
    assert game.state_to_json(state) == data
    for observer in (0, 1):
        view = game.state_to_json(state, observer)
        assert game.state_to_json(game.state_from_json(view), observer) == view


def test_schema_names_match_the_engine() -> None:
    schema = json.loads((DOCS / "state.schema.json").read_text())
    defs = schema["$defs"]
    assert defs["zone"]["enum"] == list(ZONE_NAMES)
    assert defs["tile"]["enum"] == list(TILE_NAMES)
    assert defs["frame"]["properties"]["frame"]["enum"] == list(FRAME_NAMES)
