"""Action a, Prepare for Expeditions: take an HQ column, discard down to the limits, refill."""

from __future__ import annotations

import pytest

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import EMPTY
from tests.engine.legend_raiders.builders import (
    GAME,
    P,
    Table,
    build,
    phase_name,
    play,
    texts,
    tile,
    tools,
)

HQ = Table(
    hq=("aegis", "adam", "necronomicon", "babel"),
    hq_tools=(tools(compass=2), tools(map=1, rope=1), tools(shovel=2), tools(rope=2)),
)


def test_florence_ovaraby_takes_the_necronomicon_column() -> None:
    """Rulebook example 1: column III gives the Necronomicon tile and 2 Shovels."""
    state = build([P(4), P(1)], HQ)
    assert GAME.state_to_json(state)["players"][0]["character"] == (
        "Lawrence Ovaraby / Florence Ovaraby"
    )
    state = play(state, "roll:coin")
    assert "prepare:3" in texts(state)
    after = play(state, "prepare:3")
    florence = after.players[0]
    assert florence.prepared == (tile("necronomicon"),)
    assert florence.tools == tools(shovel=2)
    assert after.hq_tiles[2] == EMPTY and after.hq_tools[2] == tools()
    assert phase_name(after) == "refill-tile"


def test_the_column_is_refilled_with_a_tile_and_two_tools_by_chance_steps() -> None:
    state = play(build([P(4), P(1)], HQ), "roll:coin", "prepare:3")
    outcomes = GAME.chance_outcomes(state) or []
    assert len(outcomes) == state.stack.bit_count()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state = play(state, "reveal:olympus")
    assert state.hq_tiles[2] == tile("olympus")
    assert phase_name(state) == "refill-tools"
    state = play(state, "draw:map", "draw:rope")
    assert state.hq_tools[2] == tools(map=1, rope=1)
    assert state.seat == 1 and phase_name(state) == "roll"


def test_a_fourth_tile_forces_a_discard_new_tile_included() -> None:
    state = build([P(4, prepared=("horus", "eden", "mater")), P(1)], HQ)
    state = play(state, "roll:coin", "prepare:1")
    assert phase_name(state) == "discard-tile"
    assert sorted(texts(state)) == sorted(
        ["discard:aegis", "discard:horus", "discard:eden", "discard:mater"]
    )
    after = play(state, "discard:aegis")
    assert after.players[0].prepared == tuple(sorted((tile("horus"), tile("eden"),
                                                      tile("mater"))))
    assert after.removed_tiles == 1 << tile("aegis"), "a discarded tile leaves the game"
    assert phase_name(after) == "refill-tile"


def test_tools_over_six_are_discarded_one_at_a_time_into_the_bag_before_the_refill() -> None:
    state = build([P(4, tools=tools(map=3, rope=2)), P(1)], HQ)
    state = play(state, "roll:coin", "prepare:1")
    assert state.players[0].tools == tools(compass=2, map=3, rope=2)
    assert phase_name(state) == "discard-tool"
    assert texts(state) == ["discard:compass", "discard:map", "discard:rope"]
    compasses = state.bag[0]
    after = play(state, "discard:compass")
    assert after.players[0].tools == tools(compass=1, map=3, rope=2)
    assert after.bag[0] == compasses + 1
    assert phase_name(after) == "refill-tile"


def test_tile_then_tool_discards_when_both_limits_are_exceeded() -> None:
    state = build([P(4, tools=tools(map=3, rope=3), prepared=("horus", "eden", "mater")),
                   P(1)], HQ)
    state = play(state, "roll:coin", "prepare:3")
    assert phase_name(state) == "discard-tile"
    state = play(state, "discard:horus")
    assert phase_name(state) == "discard-tool"
    state = play(state, "discard:shovel", "discard:map")
    assert state.players[0].tools == tools(map=2, shovel=1, rope=3)
    assert phase_name(state) == "refill-tile"


def test_an_empty_stack_leaves_the_column_without_a_tile() -> None:
    table = Table(
        hq=("aegis", "adam", "necronomicon", "babel"),
        hq_tools=HQ.hq_tools,
        stack=(),
        removed_tiles=tuple(t for t in C.tile_ids if t not in ("aegis", "adam", "necronomicon",
                                                                "babel")),
    )
    state = play(build([P(4), P(1)], table), "roll:coin", "prepare:3")
    assert phase_name(state) == "refill-tools"
    state = play(state, "draw:compass", "draw:compass")
    assert state.hq_tiles[2] == EMPTY
    assert state.hq_tools[2] == tools(compass=2)
    # The tool-only column can still be taken; a column with nothing is not offered.
    state = play(state, "roll:coin")
    assert "prepare:3" in texts(state)


def test_a_column_with_nothing_left_cannot_be_taken() -> None:
    table = Table(
        hq=(None, "adam", "necronomicon", "babel"),
        hq_tools=(tools(), *HQ.hq_tools[1:]),
        stack=(),
        removed_tiles=tuple(t for t in C.tile_ids if t not in ("adam", "necronomicon", "babel")),
    )
    state = play(build([P(4), P(1)], table), "roll:coin")
    assert "prepare:1" not in texts(state)
    assert "prepare:2" in texts(state)

