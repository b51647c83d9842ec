"""Move notation: JSON objects and short strings, parsing errors and illegal moves."""

from __future__ import annotations

import pytest

from boardbot.engine import IllegalActionError, InvalidActionError
from boardbot.engine.legend_raiders import actions as A
from tests.engine.legend_raiders.builders import GAME, P, build, play, tile, tools


def _expedition_state() -> object:
    state = build([P(1, tools=tools(shovel=1, rope=1), prepared=("mjollnir",)), P(2)])
    return play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")


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
def test_completion_moves_in_both_notations(text: str, data: dict[str, object]) -> None:
    state = _expedition_state()
    action = GAME.action_from_str(state, text)
    assert GAME.action_to_str(state, action) == text
    assert GAME.action_to_json(state, action) == data
    assert GAME.action_from_json(state, data) == action


def test_action_notation_for_every_kind() -> None:
    state = play(build([P(1, known=("die-1",)), P(2)]), "roll:torch")
    assert GAME.action_to_json(state, A.DIE_BASE + 2) == {"type": "die-card", "face": "coin"}
    assert GAME.action_to_json(state, A.KEEP_ROLL_ACTION) == {"type": "keep-roll"}
    diceless = build([P(1, known=("die-1",)), P(2)], dice=False)
    assert GAME.action_to_str(diceless, A.DIE_BASE) == "die-card:tools"
    assert GAME.action_from_str(diceless, "die-card:tools") == A.DIE_BASE
    assert GAME.action_to_json(diceless, A.PREPARE_BASE + 2) == {"type": "prepare", "column": 3}
    assert GAME.action_to_str(diceless, A.PREPARE_BASE + 2) == "prepare:3"
    assert GAME.action_to_str(diceless, A.ROW_BASE + 1) == "expedition:row2"
    assert GAME.action_to_str(diceless, A.TAKE_DECK_ACTION) == "expedition:deck"
    assert GAME.action_to_str(diceless, A.NO_CARD_ACTION) == "expedition:none"
    assert GAME.action_to_str(diceless, A.DISCARD_TOOL_BASE + 2) == "discard:shovel"
    assert GAME.action_to_str(diceless, A.DISCARD_TILE_BASE + tile("olympus")) == (
        "discard:olympus")
    assert GAME.action_to_str(diceless, A.ROLL_BASE + 2) == "roll:coin"
    assert GAME.action_to_str(diceless, A.TOOL_BASE + 1) == "draw:map"
    assert GAME.action_to_str(diceless, A.TILE_BASE + tile("olympus")) == "reveal:olympus"
    assert GAME.action_to_json(diceless, A.CARD_BASE) == {"type": "reveal", "card": "die-1"}


def test_chance_outcomes_parse_at_chance_steps() -> None:
    state = build([P(1), P(2)])
    assert GAME.action_from_json(state, {"type": "roll", "face": "torch"}) == A.ROLL_BASE + 1
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "draw:map")


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
def test_malformed_moves_name_the_path(data: object, path: str) -> None:
    state = _expedition_state()
    with pytest.raises(InvalidActionError) as err:
        GAME.action_from_json(state, data)
    assert err.value.path == path


def test_malformed_texts_are_rejected() -> None:
    state = _expedition_state()
    for text in ("prepare:x", "jump:1", "discard:die-1", "complete:"):
        with pytest.raises(InvalidActionError):
            GAME.action_from_str(state, text)


def test_illegal_moves_are_rejected() -> None:
    state = _expedition_state()
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "prepare:1")
    with pytest.raises(IllegalActionError):
        GAME.action_from_str(state, "complete:olympus")
    with pytest.raises(IllegalActionError):
        GAME.action_from_json(state, {"type": "complete", "tile": "mjollnir", "torch": "map"})
