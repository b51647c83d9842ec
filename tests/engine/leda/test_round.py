"""The round: setup, mulligan, zones, activation order, conflict, organization, end of round."""

from __future__ import annotations

import random

import pytest

from boardbot.engine import CHANCE, IllegalActionError, InvalidStateError, get_game
from boardbot.engine.leda.data import ITEM_NAMES, MV_BASE
from boardbot.engine.leda.frames import A_FOOD
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import (
    Engine,
    card,
    check_valid,
    make_player,
    make_state,
    org_stack,
    sq,
    top_frame,
)

GAME = get_game("leda")


# ----------------------------------------------------------------------------- setup
def test_new_game_setup(engine: Engine) -> None:
    state = engine.new_state({"clans": ["sharks", "pandas"], "first_player": 1}, seed=5)
    for p in state.players:
        assert len(p.hand) == 3 and p.food == 1 and len(p.grid) == 16
        assert not p.mv and len(p.deck) == 8
    assert state.active == 1 and len(state.action_pile) == 5 and len(state.mv_pile) == 18
    assert engine.current_player(state) == 1
    assert engine.options(state) == ["mulligan:yes", "mulligan:no"]


def test_seeded_grid_shuffle_and_random_clans(engine: Engine) -> None:
    a = engine.new_state({}, seed=1)
    b = engine.new_state({}, seed=1)
    assert a == b
    assert a.players[0].clan != a.players[1].clan
    grids = {tuple(s.tile for s in engine.new_state({}, seed=i).players[0].grid) for i in range(5)}
    assert len(grids) > 1


@pytest.mark.parametrize(
    "options_",
    [
        {"clans": ["cats", "cats"]},
        {"clans": ["cats"]},
        {"clans": ["cats", "owls"]},
        {"first_player": 2},
        {"first_player": True},
        {"players": 3},
        {"colour": "red"},
    ],
)
def test_bad_options_are_rejected(engine: Engine, options_: dict[str, object]) -> None:
    with pytest.raises(InvalidStateError) as err:
        engine.game.new_state(options_, seed=0)
    with pytest.raises(InvalidStateError) as py_err:
        GAME.new_state(options_, seed=0)
    assert (err.value.path, err.value.reason) == (py_err.value.path, py_err.value.reason)


def test_mulligan_in_turn_order_redraws_the_same_number(engine: Engine) -> None:
    state = engine.new_state({"clans": ["cats", "sharks"], "first_player": 0}, seed=3)
    state = engine.play(state, "mulligan:yes")
    assert engine.current_player(state) == CHANCE and len(state.players[0].hand) == 0
    state = engine.sample(state, random.Random(1))
    assert len(state.players[0].hand) == 3 and len(state.players[0].deck) == 10
    assert engine.current_player(state) == 1 and top_frame(state) == "mulligan"
    state = engine.play(state, "mulligan:no")
    # First round: the first player chooses a zone of the revealed tile.
    assert top_frame(state) == "zone" and engine.current_player(state) == 0
    assert len(state.revealed) == 1


def test_zone_choices_follow_the_action_tile(engine: Engine) -> None:
    state = engine.new_state({"clans": ["cats", "sharks"], "first_player": 0}, seed=3)
    state = engine.play(state, "mulligan:no", "mulligan:no")
    tile = ITEM_NAMES[state.revealed[-1]]
    expected = {
        "action-1": ["zone:row1", "zone:col1", "zone:square-tl"],
        "action-2": ["zone:row2", "zone:col2", "zone:square-tr"],
        "action-3": ["zone:row3", "zone:col3", "zone:square-bl"],
        "action-4": ["zone:row4", "zone:col4", "zone:square-br"],
        "action-5": ["zone:corners", "zone:centre"],
    }[tile]
    assert engine.options(state) == expected


# ----------------------------------------------------------------------------- activation
def test_active_player_activates_first_in_any_order_then_the_other(engine: Engine) -> None:
    state = make_state(make_player("sharks"), make_player("pandas"), zone="row1")
    assert engine.options(state) == [f"activate:r1c{c}" for c in range(1, 5)]
    state = engine.play(state, "activate:r1c3", "activate:r1c1")
    assert engine.options(state) == ["activate:r1c2", "activate:r1c4"]
    state = engine.play(state, "activate:r1c4", "activate:r1c2")
    assert state.players[0].food == 4
    assert engine.current_player(state) == 1 and top_frame(state) == "activate"


def test_special_activation_waits_for_the_end_of_the_step(engine: Engine) -> None:
    # Sharks' crystal is 2 Military; the Special tile on r2c4 queues it.
    state = make_state(make_player("sharks"), make_player("pandas"), zone="row2")
    state = engine.play(state, "activate:r2c4")
    assert state.players[0].specials == 1 and state.players[0].military == 0
    state = engine.play(state, "activate:r2c1")
    assert state.players[0].military == 1
    state = engine.play(state, "activate:r2c2", "activate:r2c3")
    # Step over: the special resolved (+2 Military), now the opponent activates.
    assert state.players[0].military == 4 and state.players[0].specials == 0
    assert engine.current_player(state) == 1


def test_military_restarts_every_round(engine: Engine) -> None:
    p0 = make_player("sharks", military=3)
    p1 = make_player("pandas", military=1)
    state = engine.conflict(p0, p1)
    state = engine.play(state, "food", "food")
    assert [p.military for p in state.players] == [0, 0]


# ----------------------------------------------------------------------------- conflict
def test_conflict_winner_takes_the_top_token_and_resolves_it(engine: Engine) -> None:
    p0 = make_player("sharks", military=2, food=0)
    p1 = make_player("pandas", military=1, food=0)
    state = engine.conflict(p0, p1, mv_top=["mv-13"])
    assert state.players[0].mv == (card("mv-13"),) and state.players[0].food == 1
    assert top_frame(state) == "organization"


def test_conflict_tie_gives_nothing(engine: Engine) -> None:
    p0 = make_player("sharks", military=2)
    p1 = make_player("pandas", military=2)
    state = engine.conflict(p0, p1)
    assert not state.players[0].mv and not state.players[1].mv


# ----------------------------------------------------------------------------- organization
def test_organization_choices(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-4", "shark-6"], food=5)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    opts = engine.options(state)
    assert "play:shark-4@r3c3" in opts and not any(o.startswith("play:shark-6") for o in opts)
    assert "food" in opts and "swap:r1c1-r4c4" in opts
    assert len([o for o in opts if o.startswith("swap:")]) == 120


def test_play_pays_and_places_a_card_on_any_square_even_on_a_card(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-4"], cards={"r2c2": ["shark-5"]}, food=5)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    state = engine.play(state, "play:shark-4@r2c2")
    p = state.players[0]
    assert p.food == 0 and p.grid[sq("r2c2")].cards == (card("shark-5"), card("shark-4"))
    assert engine.current_player(state) == 1


def test_swap_moves_whole_squares_and_gives_food(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r1c1": ["shark-4"]}, tokens=["r1c1"], food=0)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    before = state.players[0].grid
    state = engine.play(state, "swap:r1c1-r4c4")
    grid = state.players[0].grid
    assert grid[sq("r4c4")] == before[sq("r1c1")] and grid[sq("r1c1")] == before[sq("r4c4")]
    assert state.players[0].food == 1


def test_just_take_food(engine: Engine) -> None:
    state = make_state(make_player("sharks", food=0), make_player("pandas"), stack=org_stack())
    state = engine.play(state, "food")
    assert state.players[0].food == 1


def test_silver_gold_and_rings_are_never_played_in_organization(engine: Engine) -> None:
    p0 = make_player("pandas", hand=["panda-7", "panda-10", "panda-2"], food=20)
    p1 = make_player("cats", hand=["cat-10", "cat-11", "cat-9"], food=20)
    state = make_state(p0, p1, stack=org_stack())
    plays = {o.split("@")[0] for o in engine.options(state) if o.startswith("play")}
    assert plays == {"play:panda-2"}
    state = engine.play(state, "food")
    plays = {o.split("@")[0] for o in engine.options(state) if o.startswith("play")}
    assert plays == {"play:cat-9"}


def test_food_has_no_cap(engine: Engine) -> None:
    state = make_state(make_player("sharks", food=40), make_player("pandas"), stack=org_stack())
    state = engine.play(state, "food")
    assert state.players[0].food == 41


# ----------------------------------------------------------------------------- end of round
def test_active_player_alternates(engine: Engine) -> None:
    state = make_state(make_player("sharks"), make_player("pandas"), stack=org_stack())
    state = engine.play(state, "food", "food")
    assert state.active == 1 and top_frame(state) == "zone" and engine.current_player(state) == 1
    assert len(state.revealed) == 2


def _fourth_round(mv0: list[str], mv1: list[str], active: int) -> LedaState:
    p0 = make_player("sharks", mv=mv0)
    p1 = make_player("pandas", mv=mv1)
    shown = ["action-1", "action-2", "action-3", "action-4"]
    return make_state(
        p0, p1, stack=org_stack(active), revealed=shown, action_pile=["action-5"],
        active=active, zone="row4",
    )  # fmt: skip


def test_after_the_fourth_tile_all_five_are_shuffled_and_fewer_mv_symbols_is_active(
    engine: Engine,
) -> None:
    state = _fourth_round(["mv-4"], ["mv-1"], active=1)  # 2 symbols vs 1
    state = engine.play(state, "food", "food")
    assert engine.current_player(state) == CHANCE and len(state.action_pile) == 5
    state = engine.sample(state, random.Random(0))
    assert state.active == 1 and engine.current_player(state) == 1  # seat 1 has fewer
    assert len(state.revealed) == 1 and len(state.action_pile) == 4


def test_shuffle_tie_makes_the_non_active_player_active(engine: Engine) -> None:
    state = _fourth_round(["mv-1"], ["mv-2"], active=0)
    state = engine.play(state, "food", "food")
    state = engine.sample(state, random.Random(0))
    assert state.active == 1


# ----------------------------------------------------------------------------- victory
def test_military_victory_ends_the_game_immediately(engine: Engine) -> None:
    # Scorpions need 6 symbols: 5 owned, the conflict brings the 6th.
    p0 = make_player("scorpions", mv=["mv-4", "mv-5", "mv-1"], military=3)
    p1 = make_player("pandas")
    state = engine.conflict(p0, p1, mv_top=["mv-2"])
    assert state.winner == 0
    assert engine.game.is_terminal(engine.state(state))
    assert engine.game.returns(engine.state(state)) == (1.0, 0.0)
    check_valid(state)


def test_simultaneous_victory_goes_to_the_player_whose_effect_resolves() -> None:
    # Python only: the victory check itself, on a pair of players no game hands it.
    # Both players meet a condition at the same moment: the resolving seat wins.
    from boardbot.engine.leda.rules import check_victory

    p0 = make_player("scorpions", mv=["mv-4", "mv-5", "mv-1", "mv-2"])
    p1 = make_player("pandas", mv=["mv-3", "mv-6", "mv-7", "mv-8", "mv-9", "mv-10", "mv-11"])
    state = make_state(make_player("scorpions"), make_player("pandas"), stack=org_stack())
    both = state._replace(players=(p0, p1))
    assert check_victory(both, 1).winner == 1
    assert check_victory(both, 0).winner == 0


def test_scores_are_mv_symbols(engine: Engine) -> None:
    p0 = make_player("sharks", mv=["mv-4"])
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    assert engine.game.scores(engine.state(state)) == (2.0, 0.0)
    assert engine.game.returns(engine.state(state)) == (0.0, 0.0)
    assert card("mv-1") == MV_BASE


def _won_by_the_conflict(engine: Engine) -> LedaState:
    p0 = make_player("scorpions", mv=["mv-4", "mv-5", "mv-1"], military=3)
    return engine.conflict(p0, make_player("pandas"), mv_top=["mv-2"])


def test_no_action_applies_once_the_game_is_over(engine: Engine) -> None:
    state = _won_by_the_conflict(engine)
    over = engine.state(state)
    assert engine.game.legal_actions(over) == [] and engine.current_player(state) == -2
    with pytest.raises(IllegalActionError) as err:
        engine.game.apply(over, (A_FOOD,))
    assert err.value.path == "$"


def test_an_action_after_the_end_is_refused_with_the_python_reason(engine: Engine) -> None:
    state = _won_by_the_conflict(engine)
    with pytest.raises(IllegalActionError) as err:
        engine.game.apply(engine.state(state), (A_FOOD,))
    with pytest.raises(IllegalActionError) as py_err:
        GAME.apply(state, (A_FOOD,))
    assert (err.value.path, err.value.reason) == (py_err.value.path, py_err.value.reason)
