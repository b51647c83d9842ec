"""The end of the game: the 6th discovery, the round finished, Missions, Die cards, tie-break."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.engine import CHANCE, TERMINAL, InvalidStateError
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.rules import tiles_to_prepare
from boardbot.engine.legend_raiders.scoring import mission_points, symbol_counts
from boardbot.engine.legend_raiders.state import OVER
from tests.engine.legend_raiders.builders import (
    FIVE,
    GAME,
    Engine,
    P,
    Table,
    build,
    play,
    tools,
)


def _trigger(engine: Engine, first: int, seat: int) -> object:
    players = [P(1), P(2), P(3)]
    players[seat] = P(players[seat].board, tools=tools(shovel=2), prepared=("aegis",),
                      completed=FIVE, points=20)
    state = engine.build(players, seat=seat, first=first)
    return engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                       "complete:aegis")


def test_the_sixth_discovery_triggers_the_end_and_the_round_is_finished(engine: Engine) -> None:
    state = _trigger(engine, first=0, seat=1)
    assert engine.py(state).ending and engine.py(state).seat == 2
    assert engine.game.current_player(state) != TERMINAL
    state = engine.play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.py(state).phase == OVER, "seat 2 was the last of the round"
    assert engine.game.is_terminal(state)
    assert engine.game.current_player(state) == TERMINAL


def test_when_the_first_player_triggers_everyone_else_still_plays(engine: Engine) -> None:
    state = _trigger(engine, first=0, seat=0)
    assert engine.py(state).seat == 1 and not engine.game.is_terminal(state)
    state = engine.play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert engine.py(state).seat == 2 and not engine.game.is_terminal(state)
    state = engine.play(state, "roll:coin", "prepare:2", "reveal:babel", "draw:map", "draw:map")
    assert engine.game.is_terminal(state)


def test_when_the_last_player_of_the_round_triggers_the_game_ends_at_once(engine: Engine) -> None:
    state = _trigger(engine, first=1, seat=0)
    assert engine.game.is_terminal(state)


def test_joe_manjee_scores_ten_points_for_his_missions() -> None:
    """Rulebook example 6: shared symbols and a Discovery card fulfil two Missions."""
    # Python only: the Python scoring module's own helpers on a built state (no engine call).
    joe = P(2, completed=("grand-grimoire", "aegis", "el-dorado"), points=20,
            known=("mission-book-weapon-place", "discovery-book-2"),
            blind=("mission-book-book-place", "mission-place-place", "mission-idol-idol"))
    state = build([joe, P(1)])
    p = state.players[0]
    counts = symbol_counts(p)
    assert counts == [2, 1, 0, 0, 1]  # book (tile + card), weapon, place
    # Book Weapon Place (5) and Book Book Place (5) share the Book and the Place;
    # Place Place and Idol Idol are not met.
    assert mission_points(p) == 10


def test_missions_discovery_cards_and_kept_die_cards_are_added_at_the_end(engine: Engine) -> None:
    p0 = P(2, tools=tools(shovel=2), prepared=("aegis",), completed=FIVE, points=20,
           known=("die-1", "mission-book-book"), blind=("die-2", "discovery-weapon-1",
                                                        "mission-weapon-weapon"))
    p1 = P(1, points=8, blind=("mission-place-place",), completed=("babel",))
    state = engine.build([p0, p1], Table(hq=("lancea-longini", "horus", "pandora", "olympus")),
                         seat=1, first=0)
    state = engine.play(state, "roll:coin", "keep-roll", "prepare:1",
                        "reveal:mater", "draw:map", "draw:map")
    assert not engine.game.is_terminal(state), "nobody has 6 discoveries yet"
    state = engine.play(state, "roll:torch", "keep-roll", "expedition:row2", "reveal:die-3",
                        "complete:aegis")
    assert engine.phase_name(state) == "roll"
    state = engine.play(state, "roll:coin", "keep-roll", "expedition:deck",
                        "reveal:mission-treasure-treasure")
    assert engine.game.is_terminal(state)
    final = engine.game.scores(state)
    p0_end = engine.py(state).players[0]
    # Book Book: 4 books completed -> 3; Weapon Weapon: Aegis + the Discovery card -> 3;
    # two kept Die cards -> 2.
    assert mission_points(p0_end) == 6
    assert final[0] == p0_end.points + 6 + 2
    # Place Place: one place only -> 0. Treasure Treasure -> 0.
    assert final[1] == engine.py(state).players[1].points
    view = engine.game.state_to_json(state, 1)
    assert view["players"][0]["cards_blind"] == ["die-2", "discovery-weapon-1",
                                                 "mission-weapon-weapon"], "hands are revealed"
    assert view["final_scores"] == list(final)


def test_ties_go_to_the_player_who_played_later(engine: Engine) -> None:
    for first, winner in ((0, 1), (1, 0)):
        state = engine.build([P(1, completed=("babel",), points=6),
                              P(2, completed=("babylon",), points=6)], first=first,
                             seat=1 - first, ending=True,
                             table=Table(hq=(None, None, None, None), stack=(),
                                  removed_tiles=tuple(t for t in C.tile_ids
                                                      if t not in ("babel", "babylon")),
                                  hq_tools=(tools(), tools(), tools(), tools())))
        state = engine.play(state, "roll:coin", "expedition:row4", "reveal:die-4")
        assert engine.game.is_terminal(state)
        assert engine.game.scores(state) == (6.0, 6.0)
        assert engine.game.returns(state) == tuple(1.0 if s == winner else 0.0 for s in range(2))


def test_an_end_out_of_reach_also_ends_the_game_after_the_round(engine: Engine) -> None:
    """No tile left to prepare and nobody with 6 tiles completed or prepared."""
    table = Table(hq=(None, None, None, "babel"), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t != "babel"),
                  hq_tools=(tools(), tools(), tools(), tools(rope=2)))
    state = engine.build([P(1), P(2)], table, first=0, seat=0)
    state = engine.play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert engine.py(state).ending and engine.py(state).seat == 1
    state = engine.play(state, "roll:coin", "prepare:4", "draw:rope", "draw:rope")
    assert engine.game.is_terminal(state)


def test_returns_are_zero_before_the_end(engine: Engine) -> None:
    state = engine.build([P(1, completed=("aegis",), points=5), P(2)])
    assert engine.game.returns(state) == (0.0, 0.0)
    assert engine.game.scores(state) == (5.0, 0.0)


def _table_with(hq: tuple[str | None, ...], stack: tuple[str, ...], kept: tuple[str, ...]) -> Table:
    """A table whose Discovery tiles are `hq`, `stack` and the players' `kept`; the rest removed."""
    named = {t for t in (*hq, *stack, *kept) if t}
    column_tools = Table().hq_tools
    return Table(hq=hq, stack=stack, removed_tiles=tuple(t for t in C.tile_ids if t not in named),
                 hq_tools=tuple(c if t else tools() for t, c in zip(hq, column_tools, strict=True)))


def _settle(engine: Engine, state: Any) -> Any:
    """Resolve chance steps with their first outcome until a decision, a roll or the end."""
    while engine.game.current_player(state) == CHANCE and engine.phase_name(state) != "roll":
        state = engine.checked(engine.game.apply(state, engine.game.chance_outcomes(state)[0][0]))
    return state


def _turn(engine: Engine, state: Any, action: str, complete: str | None = None) -> Any:
    """A whole turn: roll a coin, keep it, `action`, then `complete` a tile or stop."""
    state = engine.play(state, "roll:coin")
    if engine.phase_name(state) == "die-card":
        state = engine.play(state, "keep-roll")
    state = _settle(engine, engine.play(state, action))
    if complete is not None:
        state = engine.play(state, complete)
    if engine.phase_name(state) == "complete":
        state = engine.play(state, "stop")
    return state


def test_a_sixth_discovery_still_in_reach_keeps_the_game_going_with_nothing_to_prepare(
    engine: Engine,
) -> None:
    """Formerly three idle rounds ended this game; now it goes on until Draconite is completed."""
    table = _table_with((None, None, None, None), (), (*FIVE, "draconite", "aegis"))
    state = engine.build([P(1, completed=FIVE, prepared=("draconite",), points=20,
                            tools=tools(rope=1)),
                          P(2, completed=("aegis",), points=4)], table, seat=1, first=0)
    data = engine.game.state_to_json(state)
    data["idle_turns"] = 5  # as a former version wrote it: one turn short of its idle ending
    state = engine.game.state_from_json(data)
    state = engine.play(state, "roll:coin", "expedition:deck", "reveal:die-1")
    assert not engine.game.is_terminal(state) and not engine.py(state).ending
    assert engine.py(state).seat == 0 and engine.phase_name(state) == "roll"
    for _ in range(8):  # four more rounds in which seat 0 waits: nothing ends the game
        state = _turn(engine, state, "expedition:row1")
        assert not engine.py(state).ending and not engine.game.is_terminal(state)
    state = _turn(engine, state, "expedition:row1", "complete:draconite+torch=rope")
    assert engine.py(state).ending and engine.py(state).seat == 1, (
        "the 6th discovery: seat 1 finishes the round"
    )
    state = _turn(engine, state, "expedition:row1")
    assert engine.game.is_terminal(state)


def test_taking_the_last_tile_another_player_needed_ends_the_game_after_the_round(
    engine: Engine,
) -> None:
    table = _table_with(("babel", None, None, None), (), FIVE)
    state = engine.build([P(1, completed=FIVE, points=20), P(2)], table, seat=1, first=0)
    state = _turn(engine, state, "prepare:1")
    assert engine.py(state).ending, "seat 0's 5 completed tiles and nothing left to prepare: 5 < 6"
    assert engine.game.is_terminal(state), "seat 1 was the last of the round"


def test_a_tile_discard_that_puts_six_out_of_reach_ends_the_game_after_the_round(
    engine: Engine,
) -> None:
    kept = ("aegis", "eden", "olympus", "babel", "adam")
    table = _table_with(("horus", None, None, None), (), kept)
    state = engine.build([P(1, completed=kept[:2], prepared=kept[2:], points=8), P(2)], table,
                         seat=0, first=0)
    state = engine.play(state, "roll:coin", "prepare:1", "discard:olympus")
    assert not engine.py(state).ending, "checked when the turn ends, not in the middle of it"
    state = _settle(engine, state)
    assert engine.py(state).ending and engine.py(state).seat == 1, (
        "2 completed + 3 prepared + nothing left: 5"
    )
    state = _turn(engine, state, "expedition:row1")
    assert engine.game.is_terminal(state)
    assert max(len(p.completed) for p in engine.py(state).players) < C.end_trigger


def test_the_end_comes_once_nobody_can_reach_six_even_with_tiles_left_to_prepare(
    engine: Engine,
) -> None:
    table = _table_with(("babel", "horus", "eden", "aegis"), ("adam",), ())
    state = engine.build([P(1), P(2), P(3)], table, seat=0, first=0)
    assert not engine.py(state).ending, (
        "a state from before the rule still decodes; the turn's end checks"
    )
    state = _turn(engine, state, "prepare:1")
    assert engine.py(state).ending and engine.py(state).seat == 1, (
        "1 prepared + 4 on the Headquarters: 5 < 6"
    )
    state = _turn(engine, state, "expedition:row1")
    assert engine.py(state).seat == 2 and not engine.game.is_terminal(state)
    state = _turn(engine, state, "prepare:2")
    assert engine.game.is_terminal(state) and 0 < tiles_to_prepare(engine.py(state)) < C.end_trigger


def test_a_former_idle_ending_is_refused_while_a_sixth_discovery_is_in_reach(
    engine: Engine,
) -> None:
    """Former versions triggered the end after idle rounds with nothing left to prepare while
    a 6th was in reach; such a state would end a game the rules keep going, so it is refused."""
    table = _table_with((None, None, None, None), (), (*FIVE, "draconite"))
    state = engine.build([P(1, completed=FIVE, prepared=("draconite",), points=20), P(2)], table,
                         seat=1, first=0)
    data = engine.game.state_to_json(state)
    assert not engine.py(engine.game.state_from_json(data)).ending
    data["end_triggered"] = True
    data["idle_turns"] = 6  # as a former version wrote it
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.end_triggered"
    assert err.value.reason == (
        f"no player has completed {C.end_trigger} discoveries and seat 0 can still get there"
    )
    # Once the 6th is out of everyone's reach, the same exhausted supply may carry the trigger.
    table = _table_with((None, None, None, None), (), FIVE)
    state = engine.build([P(1, completed=FIVE, points=20), P(2)], table, seat=1, first=0,
                         ending=True)
    assert engine.py(state).ending
    state = _turn(engine, state, "expedition:row1")
    assert engine.game.is_terminal(state)


def test_an_end_trigger_with_a_sixth_discovery_in_reach_is_rejected(engine: Engine) -> None:
    table = _table_with(("babel", None, None, None), (), FIVE)
    state = engine.build([P(1, completed=FIVE, points=20), P(2)], table, seat=1)
    data = engine.game.state_to_json(state)
    data["end_triggered"] = True
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.end_triggered"
    assert "seat 0 can still get there" in err.value.reason


def test_a_player_who_had_six_discoveries_before_the_turn_never_plays_again(engine: Engine) -> None:
    table = _table_with(("babel", None, None, None), (), (*FIVE, "aegis"))
    six = (*FIVE, "aegis")
    state = engine.build([P(1), P(2, completed=six, points=24)], table, seat=0, first=1,
                         ending=True)
    data = engine.game.state_to_json(state)
    assert engine.py(engine.game.state_from_json(data)).ending, (
        "seat 1 triggered the end: seat 0 finishes"
    )
    data["players"][0], data["players"][1] = data["players"][1], data["players"][0]
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.players[0].completed"


def test_render_reveals_every_hand_once_the_game_is_over() -> None:
    # Python only: the native engine has no text picture (`render`).
    table = Table(hq=(None, None, None, None), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in ("babel", "babylon")),
                  hq_tools=(tools(), tools(), tools(), tools()))
    state = build([P(1, completed=("babel",), points=6, blind=("mission-book-book",)),
                   P(2, completed=("babylon",), points=6)], table, seat=1, ending=True)
    assert "1 hidden" in GAME.render(state, 1)
    state = play(state, "roll:coin", "expedition:row4", "reveal:die-4")
    assert GAME.is_terminal(state)
    text = GAME.render(state, 1)
    assert "mission-book-book" in text and "hidden" not in text


def test_an_exhausted_supply_does_not_end_the_game_while_a_sixth_discovery_is_possible(
    engine: Engine,
) -> None:
    table = Table(hq=(None, None, None, "babel"), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in ("babel", *FIVE)),
                  hq_tools=(tools(), tools(), tools(), tools(rope=2)))
    state = engine.build([P(1, completed=FIVE, points=20, tools=tools(compass=1)), P(2)], table,
                         first=0, seat=0)
    state = engine.play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert engine.py(state).stack == 0 and all(t == -1 for t in engine.py(state).hq_tiles)
    assert not engine.py(state).ending, (
        "5 completed + Babel prepared: the 6th discovery is in reach"
    )
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:die-1")
    assert engine.py(state).seat == 0 and not engine.game.is_terminal(state), "a new round starts"
    data = engine.game.state_to_json(state)
    assert "idle_turns" not in data, "no longer written"
    data["idle_turns"] = 6
    assert engine.game.state_from_json(data) == state, "still accepted from former versions, unused"
    data["idle_turns"] = 7
    with pytest.raises(InvalidStateError) as err:
        engine.game.state_from_json(data)
    assert err.value.path == "$.idle_turns"
    state = engine.play(state, "roll:torch", "expedition:row2", "reveal:die-2", "complete:babel")
    assert engine.py(state).ending and engine.py(state).seat == 1
    state = engine.play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert engine.game.is_terminal(state)
