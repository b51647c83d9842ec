"""Action a, Prepare for Expeditions: take an HQ column, discard down to the limits, refill."""

from __future__ import annotations

import pytest

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import EMPTY
from tests.engine.legend_raiders.builders import (
    Engine,
    P,
    Table,
    tile,
    tools,
)

HQ = Table(
    hq=("aegis", "adam", "necronomicon", "babel"),
    hq_tools=(tools(compass=2), tools(map=1, rope=1), tools(shovel=2), tools(rope=2)),
)


def test_florence_ovaraby_takes_the_necronomicon_column(engine: Engine) -> None:
    """Rulebook example 1: column III gives the Necronomicon tile and 2 Shovels."""
    state = engine.build([P(4), P(1)], HQ)
    assert engine.game.state_to_json(state)["players"][0]["character"] == (
        "Lawrence Ovaraby / Florence Ovaraby"
    )
    state = engine.play(state, "roll:coin")
    assert "prepare:3" in engine.texts(state)
    after = engine.play(state, "prepare:3")
    florence = engine.py(after).players[0]
    assert florence.prepared == (tile("necronomicon"),)
    assert florence.tools == tools(shovel=2)
    assert engine.py(after).hq_tiles[2] == EMPTY and engine.py(after).hq_tools[2] == tools()
    assert engine.phase_name(after) == "refill-tile"


def test_the_column_is_refilled_with_a_tile_and_two_tools_by_chance_steps(engine: Engine) -> None:
    state = engine.play(engine.build([P(4), P(1)], HQ), "roll:coin", "prepare:3")
    outcomes = engine.game.chance_outcomes(state) or []
    assert len(outcomes) == engine.py(state).stack.bit_count()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state = engine.play(state, "reveal:olympus")
    assert engine.py(state).hq_tiles[2] == tile("olympus")
    assert engine.phase_name(state) == "refill-tools"
    state = engine.play(state, "draw:map", "draw:rope")
    assert engine.py(state).hq_tools[2] == tools(map=1, rope=1)
    assert engine.py(state).seat == 1 and engine.phase_name(state) == "roll"


def test_a_fourth_tile_forces_a_discard_new_tile_included(engine: Engine) -> None:
    state = engine.build([P(4, prepared=("horus", "eden", "mater")), P(1)], HQ)
    state = engine.play(state, "roll:coin", "prepare:1")
    assert engine.phase_name(state) == "discard-tile"
    assert sorted(engine.texts(state)) == sorted(
        ["discard:aegis", "discard:horus", "discard:eden", "discard:mater"]
    )
    after = engine.play(state, "discard:aegis")
    assert engine.py(after).players[0].prepared == tuple(sorted((tile("horus"), tile("eden"),
                                                                 tile("mater"))))
    assert engine.py(after).removed_tiles == 1 << tile("aegis"), "a discarded tile leaves the game"
    assert engine.phase_name(after) == "refill-tile"


def test_tools_over_six_are_discarded_one_at_a_time_into_the_bag_before_the_refill(
    engine: Engine,
) -> None:
    state = engine.build([P(4, tools=tools(map=3, rope=2)), P(1)], HQ)
    state = engine.play(state, "roll:coin", "prepare:1")
    assert engine.py(state).players[0].tools == tools(compass=2, map=3, rope=2)
    assert engine.phase_name(state) == "discard-tool"
    assert engine.texts(state) == ["discard:compass", "discard:map", "discard:rope"]
    compasses = engine.py(state).bag[0]
    after = engine.play(state, "discard:compass")
    assert engine.py(after).players[0].tools == tools(compass=1, map=3, rope=2)
    assert engine.py(after).bag[0] == compasses + 1
    assert engine.phase_name(after) == "refill-tile"


def test_tile_then_tool_discards_when_both_limits_are_exceeded(engine: Engine) -> None:
    state = engine.build([P(4, tools=tools(map=3, rope=3), prepared=("horus", "eden", "mater")),
                          P(1)], HQ)
    state = engine.play(state, "roll:coin", "prepare:3")
    assert engine.phase_name(state) == "discard-tile"
    state = engine.play(state, "discard:horus")
    assert engine.phase_name(state) == "discard-tool"
    state = engine.play(state, "discard:shovel", "discard:map")
    assert engine.py(state).players[0].tools == tools(map=2, shovel=1, rope=3)
    assert engine.phase_name(state) == "refill-tile"


def test_an_empty_stack_leaves_the_column_without_a_tile(engine: Engine) -> None:
    table = Table(
        hq=("aegis", "adam", "necronomicon", "babel"),
        hq_tools=HQ.hq_tools,
        stack=(),
        removed_tiles=tuple(t for t in C.tile_ids if t not in ("aegis", "adam", "necronomicon",
                                                               "babel")),
    )
    state = engine.play(engine.build([P(4), P(1)], table), "roll:coin", "prepare:3")
    assert engine.phase_name(state) == "refill-tools"
    state = engine.play(state, "draw:compass", "draw:compass")
    assert engine.py(state).hq_tiles[2] == EMPTY
    assert engine.py(state).hq_tools[2] == tools(compass=2)
    # The tool-only column can still be taken; a column with nothing is not offered.
    state = engine.play(state, "roll:coin")
    assert "prepare:3" in engine.texts(state)


def test_a_column_with_nothing_left_cannot_be_taken(engine: Engine) -> None:
    table = Table(
        hq=(None, "adam", "necronomicon", "babel"),
        hq_tools=(tools(), *HQ.hq_tools[1:]),
        stack=(),
        removed_tiles=tuple(t for t in C.tile_ids if t not in ("adam", "necronomicon", "babel")),
    )
    state = engine.play(engine.build([P(4), P(1)], table), "roll:coin")
    assert "prepare:1" not in engine.texts(state)
    assert "prepare:2" in engine.texts(state)

