"""Validation of states the rules cannot reach: scores, tool limits per phase, draws, the row."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from boardbot.engine import InvalidStateError
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import (
    DATA_FILE,
    ComponentDataError,
    parse_components,
)
from tests.engine.legend_raiders.builders import Engine, P, Table, tools

ROW = ("mission-book-weapon-idol-treasure", "discovery-idol-1", "mission-idol-treasure-place",
       "discovery-book-1")
DIE_CARDS = ("die-1", "die-2", "die-3", "die-4")


def _rejected(engine: Engine, data: dict[str, Any], path: str, reason: str) -> None:
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == path, err.value
    assert reason in err.value.reason, err.value


def _changed(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    change(out)
    return out


def test_points_come_only_from_completions(engine: Engine) -> None:
    data = engine.game.state_to_json(engine.build([P(1, completed=("aegis",), points=5), P(2)]))
    assert engine.game.state_from_json(data)
    # Nothing completed, nothing scored.
    _rejected(engine, _changed(data, lambda d: d["players"][1].update(points=3)),
              "$.players[1].points", "at most 0")
    # Aegis for Montana John: at most 3 empty spaces + the 6th space + the die's Coin.
    _rejected(engine, _changed(data, lambda d: d["players"][0].update(points=6)),
              "$.players[0].points", "at most 5")


def test_the_largest_diceless_coin_bonus_is_reachable_and_bounded(engine: Engine) -> None:
    """Four Die cards used, then a returned one drawn blind and used again: +5 per discovery."""
    state = engine.build([P(1, known=DIE_CARDS, tools=tools(shovel=2), prepared=("aegis",)), P(2)],
                         dice=False)
    state = engine.play(state, *["die-card:coin"] * 4, "expedition:deck", "reveal:die-3",
                        "die-card:coin")
    assert engine.py(state).coin_bonus == 5 and engine.phase_name(state) == "complete"
    data = engine.game.state_to_json(state)
    _rejected(engine, _changed(data, lambda d: d["turn"].update(coin_bonus=6)),
              "$.turn.coin_bonus", "at most 5")
    done = engine.play(state, "complete:aegis")
    # 3 empty spaces + the 6th completed space + 5: the highest score Aegis can give.
    assert engine.py(done).players[0].points == 9


def test_the_die_draw_allows_no_extra_tool_and_draws_exactly_one(engine: Engine) -> None:
    state = engine.play(engine.build([P(1, tools=tools(compass=3, map=3)), P(2)]), "roll:tool")
    assert engine.phase_name(state) == "draw-tool"
    data = engine.game.state_to_json(state)

    def seventh_tool(d: dict[str, Any]) -> None:
        d["players"][0]["tools"]["rope"] = 1
        d["bag"]["rope"] -= 1

    _rejected(engine, _changed(data, seventh_tool), "$.players[0].tools", "at most 6")
    _rejected(engine, _changed(data, lambda d: d["turn"].update(tool_draws_left=2)),
              "$.turn.tool_draws_left", "draws 1")


def test_a_pending_discard_before_the_action_needs_the_tool_face(engine: Engine) -> None:
    state = engine.play(engine.build([P(1, tools=tools(compass=3, map=3)), P(2)]), "roll:tool",
                        "draw:rope")
    assert engine.phase_name(state) == "discard-tool"
    data = engine.game.state_to_json(state)
    _rejected(engine, _changed(data, lambda d: d["turn"].update(die="torch")), "$.turn.die",
              "tool")

    def eighth_tool(d: dict[str, Any]) -> None:
        d["players"][0]["tools"]["rope"] += 1
        d["bag"]["rope"] -= 1

    _rejected(engine, _changed(data, eighth_tool), "$.players[0].tools", "at most 7")


def test_a_column_refill_draws_two_tools_or_the_whole_bag(engine: Engine) -> None:
    state = engine.play(engine.build([P(1), P(2)]), "roll:coin", "prepare:1", "reveal:olympus")
    assert engine.phase_name(state) == "refill-tools" and engine.py(state).draws == 2
    data = engine.game.state_to_json(state)
    _rejected(engine, _changed(data, lambda d: d["turn"].update(tool_draws_left=1)),
              "$.turn.tool_draws_left", "2 still to draw")
    state = engine.play(state, "draw:map")
    assert engine.game.state_to_json(state)["turn"]["tool_draws_left"] == 1


def test_diceless_empty_slot_means_the_deck_holds_only_used_die_cards(engine: Engine) -> None:
    rest = tuple(c for c in C.card_ids if c not in (*ROW, "die-1"))
    state = engine.build([P(1, known=("die-1",)), P(2, known=rest)], Table(row=ROW, deck=()),
                         dice=False)
    state = engine.play(state, "expedition:row1")
    assert engine.py(state).row[0] == -1 and not engine.py(state).deck
    state = engine.play(state, "die-card:coin")
    assert engine.py(state).deck.bit_count() == 1, (
        "the used Die card went back; the slot stays empty"
    )
    data = engine.game.state_to_json(state)
    for observer in (None, 0, 1):
        assert engine.game.state_from_json(engine.game.state_to_json(state, observer))

    def mission_into_deck(d: dict[str, Any]) -> None:
        d["deck"].append(d["players"][1]["cards_face_up"].pop())

    _rejected(engine, _changed(data, mission_into_deck), "$.deck[1]", "only used Die cards")


def test_component_ids_never_collide_with_tool_ids() -> None:
    # Python only: the component file's loader (the native engine embeds the same file).
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    raw["tiles"][0]["id"] = "map"
    with pytest.raises(ComponentDataError) as err:
        parse_components(raw)
    assert err.value.path == "$.tiles"
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    raw["expedition_cards"][0]["id"] = "rope"
    with pytest.raises(ComponentDataError) as err:
        parse_components(raw)
    assert err.value.path == "$.expedition_cards"


@pytest.mark.parametrize("dice", [True, False])
def test_a_triggered_end_never_reaches_the_first_players_next_turn(
    engine: Engine, dice: bool
) -> None:
    table = Table(hq=(None, None, None, None), stack=(), removed_tiles=C.tile_ids,
                  hq_tools=(tools(), tools(), tools(), tools()))
    state = engine.build([P(1), P(2)], table, dice=dice, seat=1, first=1)
    exhausted = engine.game.state_to_json(state)
    assert engine.game.state_from_json(exhausted), "the end is triggered at the end of a turn"
    exhausted["end_triggered"] = True
    _rejected(engine, exhausted, "$.end_triggered", "the round is over")
    # The second player of the round may still play after the trigger.
    exhausted["first_player"] = 0
    assert engine.py(engine.game.state_from_json(exhausted)).ending
