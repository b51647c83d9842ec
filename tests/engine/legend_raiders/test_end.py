"""The end of the game: the 6th discovery, the round finished, Missions, Die cards, tie-break."""

from __future__ import annotations

from engine import TERMINAL
from engine.legend_raiders.components import COMPONENTS as C
from engine.legend_raiders.scoring import mission_points, symbol_counts
from engine.legend_raiders.state import OVER, RaidersState
from tests.engine.legend_raiders.builders import (
    FIVE,
    GAME,
    P,
    Table,
    build,
    phase_name,
    play,
    tools,
)


def _trigger(first: int, seat: int) -> object:
    players = [P(1), P(2), P(3)]
    players[seat] = P(players[seat].board, tools=tools(shovel=2), prepared=("aegis",),
                      completed=FIVE, points=20)
    state = build(players, seat=seat, first=first)
    return play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book",
                "complete:aegis")


def test_the_sixth_discovery_triggers_the_end_and_the_round_is_finished() -> None:
    state = _trigger(first=0, seat=1)
    assert state.ending and state.seat == 2
    assert GAME.current_player(state) != TERMINAL
    state = play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert state.phase == OVER, "seat 2 was the last of the round"
    assert GAME.is_terminal(state)
    assert GAME.current_player(state) == TERMINAL


def test_when_the_first_player_triggers_everyone_else_still_plays() -> None:
    state = _trigger(first=0, seat=0)
    assert state.seat == 1 and not GAME.is_terminal(state)
    state = play(state, "roll:coin", "prepare:1", "reveal:olympus", "draw:map", "draw:map")
    assert state.seat == 2 and not GAME.is_terminal(state)
    state = play(state, "roll:coin", "prepare:2", "reveal:babel", "draw:map", "draw:map")
    assert GAME.is_terminal(state)


def test_when_the_last_player_of_the_round_triggers_the_game_ends_at_once() -> None:
    state = _trigger(first=1, seat=0)
    assert GAME.is_terminal(state)


def test_joe_manjee_scores_ten_points_for_his_missions() -> None:
    """Rulebook example 6: shared symbols and a Discovery card fulfil two Missions."""
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


def test_missions_discovery_cards_and_kept_die_cards_are_added_at_the_end() -> None:
    p0 = P(2, tools=tools(shovel=2), prepared=("aegis",), completed=FIVE, points=20,
           known=("die-1", "mission-book-book"), blind=("die-2", "discovery-weapon-1",
                                                        "mission-weapon-weapon"))
    p1 = P(1, points=8, blind=("mission-place-place",), completed=("babel",))
    state = build([p0, p1], Table(hq=("lancea-longini", "horus", "pandora", "olympus")),
                  seat=1, first=0)
    state = play(state, "roll:coin", "keep-roll", "prepare:1",
                 "reveal:mater", "draw:map", "draw:map")
    assert not GAME.is_terminal(state), "nobody has 6 discoveries yet"
    state = play(state, "roll:torch", "keep-roll", "expedition:row2", "reveal:die-3",
                 "complete:aegis")
    assert phase_name(state) == "roll"
    state = play(state, "roll:coin", "keep-roll", "expedition:deck",
                 "reveal:mission-treasure-treasure")
    assert GAME.is_terminal(state)
    final = GAME.scores(state)
    p0_end = state.players[0]
    # Book Book: 4 books completed -> 3; Weapon Weapon: Aegis + the Discovery card -> 3;
    # two kept Die cards -> 2.
    assert mission_points(p0_end) == 6
    assert final[0] == p0_end.points + 6 + 2
    # Place Place: one place only -> 0. Treasure Treasure -> 0.
    assert final[1] == state.players[1].points
    view = GAME.state_to_json(state, 1)
    assert view["players"][0]["cards_blind"] == ["die-2", "discovery-weapon-1",
                                                 "mission-weapon-weapon"], "hands are revealed"
    assert view["final_scores"] == list(final)


def test_ties_go_to_the_player_who_played_later() -> None:
    for first, winner in ((0, 1), (1, 0)):
        state = build([P(1, completed=("babel",), points=6),
                       P(2, completed=("babylon",), points=6)], first=first,
                      seat=1 - first, ending=True,
                      table=Table(hq=(None, None, None, None), stack=(),
                                  removed_tiles=tuple(t for t in C.tile_ids
                                                      if t not in ("babel", "babylon")),
                                  hq_tools=(tools(), tools(), tools(), tools())))
        state = play(state, "roll:coin", "expedition:row4", "reveal:die-4")
        assert GAME.is_terminal(state)
        assert GAME.scores(state) == (6.0, 6.0)
        assert GAME.returns(state) == tuple(1.0 if s == winner else 0.0 for s in range(2))


def test_an_end_out_of_reach_also_ends_the_game_after_the_round() -> None:
    """No tile left to prepare and nobody with 6 tiles completed or prepared."""
    table = Table(hq=(None, None, None, "babel"), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t != "babel"),
                  hq_tools=(tools(), tools(), tools(), tools(rope=2)))
    state = build([P(1), P(2)], table, first=0, seat=0)
    state = play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert state.ending and state.seat == 1
    state = play(state, "roll:coin", "prepare:4", "draw:rope", "draw:rope")
    assert GAME.is_terminal(state)


def test_returns_are_zero_before_the_end() -> None:
    state = build([P(1, completed=("aegis",), points=5), P(2)])
    assert GAME.returns(state) == (0.0, 0.0)
    assert GAME.scores(state) == (5.0, 0.0)



def _exhausted_table() -> Table:
    return Table(hq=(None, None, None, None), stack=(),
                 removed_tiles=tuple(t for t in C.tile_ids if t not in (*FIVE, "babel")),
                 hq_tools=(tools(map=2), tools(rope=2), tools(shovel=2), tools(compass=2)))


def _take_tools(state: RaidersState, column: int) -> RaidersState:
    """A whole turn taking a tools-only column, the refill drawing the first possible tools."""
    state = play(state, "roll:coin", f"prepare:{column}")
    while phase_name(state) != "roll":
        state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    return state


def test_three_idle_rounds_with_nothing_to_prepare_trigger_the_end() -> None:
    """Seat 0 could complete its 6th discovery but never does: the game must still end."""
    state = build([P(1, completed=FIVE, prepared=("babel",), points=20), P(2)],
                  _exhausted_table(), first=0, seat=0)
    for turn in range(5):
        assert state.idle_turns == turn and not state.ending
        state = _take_tools(state, 1 + turn % 4)
    assert state.idle_turns == 5 and not state.ending
    state = play(state, "roll:coin", "prepare:2")
    while not GAME.is_terminal(state):
        state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    assert state.ending and state.idle_turns == 6, "3 rounds of 2 turns, then the game is over"


def test_a_discovery_resets_the_idle_count() -> None:
    state = build([P(1, completed=FIVE[:4], prepared=("babel", "atlantis"), points=16,
                     tools=tools(rope=2, compass=1)), P(2)],
                  _exhausted_table(), first=0, seat=0)
    state = _take_tools(state, 1)
    state = _take_tools(state, 2)
    assert state.idle_turns == 2
    state = play(state, "roll:coin", "expedition:row1", "reveal:die-1", "complete:babel")
    if phase_name(state) == "complete":
        state = play(state, "stop")
    assert state.seat == 1 and state.idle_turns == 0 and not state.ending
