"""Move notation: JSON objects and short strings, parsing errors and illegal moves."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.engine import IllegalActionError, InvalidActionError
from boardbot.engine.legend_raiders import actions as A
from tests.engine.legend_raiders.builders import Engine, P, tile, tools


def _expedition_state(engine: Engine) -> Any:
    state = engine.build([P(1, tools=tools(shovel=1, rope=1), prepared=("mjollnir",)), P(2)])
    return engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("complete:mjollnir", {"type": "complete", "tile": "mjollnir"}),
        ("complete:mjollnir+torch=rope", {"type": "complete", "tile": "mjollnir",
                                          "torch": "rope"}),
        ("complete:mjollnir+torch=shovel", {"type": "complete", "tile": "mjollnir",
                                            "torch": "shovel"}),
        ("stop", {"type": "stop"}),
    ],
)
def test_completion_moves_in_both_notations(
    engine: Engine, text: str, data: dict[str, object]
) -> None:
    state = _expedition_state(engine)
    action = engine.game.action_from_str(state, text)
    assert engine.game.action_to_str(state, action) == text
    assert engine.game.action_to_json(state, action) == data
    assert engine.game.action_from_json(state, data) == action


def test_action_notation_for_every_kind(engine: Engine) -> None:
    state = engine.play(engine.build([P(1, known=("die-1",)), P(2)]), "roll:torch")
    assert engine.game.action_to_json(state, A.DIE_BASE + 2) == {"type": "die-card", "face": "coin"}
    assert engine.game.action_to_json(state, A.KEEP_ROLL_ACTION) == {"type": "keep-roll"}
    diceless = engine.build([P(1, known=("die-1",)), P(2)], dice=False)
    assert engine.game.action_to_str(diceless, A.DIE_BASE) == "die-card:tools"
    assert engine.game.action_from_str(diceless, "die-card:tools") == A.DIE_BASE
    assert engine.game.action_to_json(diceless, A.PREPARE_BASE + 2) == {
        "type": "prepare", "column": 3}
    assert engine.game.action_to_str(diceless, A.PREPARE_BASE + 2) == "prepare:3"
    assert engine.game.action_to_str(diceless, A.ROW_BASE + 1) == "expedition:row2"
    assert engine.game.action_to_str(diceless, A.TAKE_DECK_ACTION) == "expedition:deck"
    assert engine.game.action_to_str(diceless, A.NO_CARD_ACTION) == "expedition:none"
    assert engine.game.action_to_str(diceless, A.DISCARD_TOOL_BASE + 2) == "discard:shovel"
    assert engine.game.action_to_str(diceless, A.DISCARD_TILE_BASE + tile("olympus")) == (
        "discard:olympus")
    assert engine.game.action_to_str(diceless, A.ROLL_BASE + 2) == "roll:coin"
    assert engine.game.action_to_str(diceless, A.TOOL_BASE + 1) == "draw:map"
    assert engine.game.action_to_str(diceless, A.TILE_BASE + tile("olympus")) == "reveal:olympus"
    assert engine.game.action_to_json(diceless, A.CARD_BASE) == {"type": "reveal", "card": "die-1"}


def test_chance_outcomes_parse_at_chance_steps(engine: Engine) -> None:
    state = engine.build([P(1), P(2)])
    assert engine.game.action_from_json(state, {"type": "roll", "face": "torch"}) == A.ROLL_BASE + 1
    with pytest.raises(IllegalActionError):
        engine.game.action_from_str(state, "draw:map")


def test_only_possible_outcomes_are_accepted_at_a_chance_step(engine: Engine) -> None:
    # Every map is out of the bag (6 held by seat 0, 1 by seat 1, 2 at the Headquarters).
    state = engine.play(
        engine.build([P(1, tools=tools(map=6)), P(2, tools=tools(map=1, rope=3))]), "roll:tool"
    )
    game = engine.game
    outcomes = game.chance_outcomes(state)
    assert [game.action_to_str(state, a) for a, _ in outcomes] == [
        "draw:compass", "draw:shovel", "draw:rope",
    ]
    assert [p for _, p in outcomes] == pytest.approx([7 / 18, 7 / 18, 4 / 18])
    assert game.action_from_json(state, {"type": "draw", "tool": "rope"}) == A.TOOL_BASE + 3
    assert game.action_from_str(state, "draw:shovel") == A.TOOL_BASE + 2
    refused = [
        ("str", "draw:map"), ("json", {"type": "draw", "tool": "map"}), ("str", "roll:tool"),
        ("str", "reveal:olympus"), ("json", {"type": "reveal", "card": "die-1"}),
        ("str", "prepare:1"), ("str", "stop"),
    ]  # fmt: skip
    for form, value in refused:
        with pytest.raises(IllegalActionError, match="is not a possible outcome of this chance"):
            if form == "str":
                game.action_from_str(state, value)
            else:
                game.action_from_json(state, value)
    decision = engine.play(state, "draw:shovel")
    assert game.current_player(decision) == 0
    with pytest.raises(IllegalActionError, match="draw:shovel is not legal now"):
        game.action_from_str(decision, "draw:shovel")


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"type": "fly"}, "$.type"),
        ({"type": "prepare", "column": 5}, "$.column"),
        ({"type": "prepare", "column": "x"}, "$.column"),
        ({"type": "complete", "tile": "holy-grail"}, "$.tile"),
        ({"type": "complete", "tile": "mjollnir", "torch": "whip"}, "$.torch"),
        ({"type": "discard", "tile": "aegis", "tool": "map"}, "$"),
        ({"type": "stop", "now": True}, "$.now"),
        ("stop", "$"),
    ],
)
def test_malformed_moves_name_the_path(engine: Engine, data: object, path: str) -> None:
    state = _expedition_state(engine)
    with pytest.raises(InvalidActionError) as err:
        engine.game.action_from_json(state, data)
    assert err.value.path == path


def test_malformed_texts_are_rejected(engine: Engine) -> None:
    state = _expedition_state(engine)
    for text in ("prepare:x", "jump:1", "discard:die-1", "complete:"):
        with pytest.raises(InvalidActionError):
            engine.game.action_from_str(state, text)


def test_illegal_moves_are_rejected(engine: Engine) -> None:
    state = _expedition_state(engine)
    with pytest.raises(IllegalActionError):
        engine.game.action_from_str(state, "prepare:1")
    with pytest.raises(IllegalActionError):
        engine.game.action_from_str(state, "complete:olympus")
    with pytest.raises(IllegalActionError):
        engine.game.action_from_json(state, {"type": "complete", "tile": "mjollnir",
                                             "torch": "map"})
