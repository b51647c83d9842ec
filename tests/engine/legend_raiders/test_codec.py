"""The JSON state format: round trips, the documented example, and precise validation errors."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boardbot.engine import InvalidStateError
from tests.engine.json_edits import setter
from tests.engine.legend_raiders.builders import GAME, Engine, P, build, tools
from tests.engine.schema_check import schema_errors

DOCS = Path(__file__).resolve().parents[3] / "docs" / "legend_raiders"


def _base(engine: Engine) -> dict[str, Any]:
    state = engine.build([
        P(1, tools=tools(map=2), prepared=("olympus",), completed=("aegis",), points=4,
          known=("die-1",), blind=("mission-book-book",)),
        P(2, tools=tools(rope=1)),
    ])
    return engine.game.state_to_json(engine.play(state, "roll:coin", "keep-roll"))


def test_base_state_is_valid_and_round_trips(engine: Engine) -> None:
    data = _base(engine)
    assert engine.game.state_to_json(engine.game.state_from_json(copy.deepcopy(data))) == data


def test_the_documented_example_state_decodes(engine: Engine) -> None:
    data = json.loads((DOCS / "example-state.json").read_text())
    state = engine.game.state_from_json(data)
    assert engine.game.state_to_json(state) == data


def test_the_schema_names_every_top_level_field(engine: Engine) -> None:
    schema = json.loads((DOCS / "state.schema.json").read_text())
    assert set(_base(engine)) <= set(schema["properties"])
    view = engine.game.state_to_json(engine.game.state_from_json(_base(engine)), 0)
    assert set(view) <= set(schema["properties"])


def _extra_compass(data: dict[str, Any]) -> None:
    data["bag"]["compass"] += 1


def _dup_tile(data: dict[str, Any]) -> None:
    data["players"][1]["prepared"] = [data["stack"][0]]
    del data["players"][1]["coins_visible"]


def _missing_tile(data: dict[str, Any]) -> None:
    data["stack"] = data["stack"][1:]


def _dup_card(data: dict[str, Any]) -> None:
    data["players"][1]["cards_face_up"] = [data["row"][0]]


def _too_many_tools(data: dict[str, Any]) -> None:
    data["players"][1]["tools"]["rope"] += 6
    data["bag"]["rope"] -= 6


def _too_many_tiles(data: dict[str, Any]) -> None:
    data["players"][0]["prepared"] += data["stack"][:3]
    data["stack"] = data["stack"][3:]
    del data["players"][0]["coins_visible"]


def _hidden_count(data: dict[str, Any]) -> None:
    data["deck"] = len(data["deck"]) + 1


def _view_count(data: dict[str, Any]) -> None:
    data["players"][0]["cards_blind"] = 2
    data["deck"] = len(data["deck"])


def _column_tools(data: dict[str, Any]) -> None:
    data["hq"][0]["tools"]["map"] += 1
    data["bag"]["map"] -= 1


def _empty_column(data: dict[str, Any]) -> None:
    data["stack"].append(data["hq"][0]["tile"])
    data["hq"][0]["tile"] = None


def _non_die_removed(data: dict[str, Any]) -> None:
    data["removed_cards"] = [data["players"][0]["cards_blind"].pop()]


def _empty_slot(data: dict[str, Any]) -> None:
    data["deck"].append(data["row"][2])
    data["row"][2] = None


def _same_board(data: dict[str, Any]) -> None:
    data["players"][1] = {k: v for k, v in data["players"][1].items()
                          if k not in ("character", "favourite")}
    data["players"][1]["board"] = 1


BAD_STATES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("tools add up", _extra_compass, "$.bag", "compass: 10 tokens"),
    ("tile twice", _dup_tile, "$.stack[0]", "appears more than once (also at $.players[1]"),
    ("tile missing", _missing_tile, "$.stack", "missing"),
    ("card twice", _dup_card, "$.row[0]", "more than once (also at $.players[1].cards_face_up"),
    ("backpack limit", _too_many_tools, "$.players[1].tools", "at most 6"),
    ("prepared limit", _too_many_tiles, "$.players[0].prepared", "at most 3"),
    ("hidden count", _hidden_count, "$.deck", "hidden counts"),
    ("view count", _view_count, "$.deck", "hidden counts"),
    ("column tools", _column_tools, "$.hq[0].tools", "at most 2"),
    ("empty column", _empty_column, "$.hq[0].tile", "stack still has tiles"),
    ("removed card", _non_die_removed, "$.removed_cards", "not a Die card"),
    ("points", setter(["players", 0, "points"], 1), "$.players[0].points", "at least 2"),
    ("coins", setter(["players", 0, "coins_visible"], 9), "$.players[0].coins_visible", "shows"),
    ("final scores", setter(["final_scores"], [1, 2]), "$.final_scores", "only present"),
    ("unknown field", setter(["colour"], "red"), "$.colour", "unknown field"),
    ("die", setter(["turn", "die"], None), "$.turn.die", "name its face"),
    ("coin bonus", setter(["turn", "coin_bonus"], 0), "$.turn.coin_bonus", "must be 1"),
    ("board twice", _same_board, "$.players[1].board", "used twice"),
    ("end trigger", setter(["end_triggered"], True), "$.end_triggered", "can still get there"),
    ("torch type", setter(["players", 0, "torch_lit"], "yes"), "$.players[0].torch_lit",
     "true or false"),
    ("tile name", setter(["stack", 0], "holy-grail"), "$.stack[0]", "unknown value"),
    ("finish in dice game", setter(["turn", "phase"], "finish"), "$.turn.phase", "diceless"),
    ("seat", setter(["turn", "player"], 2), "$.turn.player", "at most 1"),
    ("variant", setter(["variant"], "cards"), "$.variant", "unknown value"),
    ("character", setter(["players", 0, "character"], "Indiana"), "$.players[0].character",
     "unknown value"),
    ("pending discard", setter(["turn", "phase"], "discard-tool"), "$.players[0].tools",
     "not over its limit"),
    ("draws", setter(["turn", "tool_draws_left"], 1), "$.turn.tool_draws_left", "must be 0"),
    ("column", setter(["turn", "column"], 2), "$.turn.column", "must be null"),
    ("empty slot", _empty_slot, "$.row[2]", "deck still has cards"),
    ("tile discard", setter(["turn", "phase"], "discard-tile"), "$.players[0].prepared",
     "one tile too many"),
    ("nothing to complete", setter(["turn", "phase"], "complete"), "$.turn.phase",
     "nothing can be completed"),
    ("over too early", setter(["turn", "phase"], "over"), "$.turn.die", "must be null"),
]


@pytest.mark.parametrize(("label", "change", "path", "reason"), BAD_STATES,
                         ids=[b[0] for b in BAD_STATES])
def test_bad_states_name_the_path(
    engine: Engine, label: str, change: Callable[[dict[str, Any]], None], path: str, reason: str
) -> None:
    data = _base(engine)
    change(data)
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == path, err.value
    assert reason in err.value.reason, err.value


def test_a_game_over_needs_a_triggered_end(engine: Engine) -> None:
    state = build([P(1, completed=("aegis",), points=3), P(2)], first=0, seat=1)
    data = GAME.state_to_json(state._replace(phase=12))
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.end_triggered"


def _finished_game(engine: Engine) -> dict[str, Any]:
    rng = random.Random(5)
    state = engine.game.new_state({"players": 3}, 5)
    while not engine.game.is_terminal(state):
        actions = engine.game.legal_actions(state)
        state = engine.game.apply(state, engine.game.sample_chance(state, rng) if not actions
                                  else actions[rng.randrange(len(actions))])
    return engine.game.state_to_json(state)


def test_final_scores_and_winner_are_checked(engine: Engine) -> None:
    data = _finished_game(engine)
    assert engine.game.state_to_json(engine.game.state_from_json(data)) == data
    bad = copy.deepcopy(data)
    bad["final_scores"][0] += 1
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(bad)
    assert err.value.path == "$.final_scores"
    bad = copy.deepcopy(data)
    bad["winner"] = (data["winner"] + 1) % 3
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(bad)
    assert err.value.path == "$.winner"


def test_random_states_and_views_conform_to_the_schema(engine: Engine) -> None:
    schema = json.loads((DOCS / "state.schema.json").read_text())
    example = json.loads((DOCS / "example-state.json").read_text())
    assert schema_errors(example, schema, schema) == []
    for options in ({"players": 4}, {"players": 2, "variant": "diceless"}):
        rng = random.Random(1)
        state = engine.game.new_state(options, 1)
        step = 0
        while True:
            if step % 7 == 0:
                for observer in (None, 0, 1):
                    data = engine.game.state_to_json(state, observer)
                    assert schema_errors(data, schema, schema) == []
            if engine.game.is_terminal(state):
                break
            actions = engine.game.legal_actions(state)
            state = engine.game.apply(state, engine.game.sample_chance(state, rng) if not actions
                                      else actions[rng.randrange(len(actions))])
            step += 1
    bad = dict(example, variant="cards")
    assert schema_errors(bad, schema, schema) == ["$.variant: 'cards' not in enum"]
