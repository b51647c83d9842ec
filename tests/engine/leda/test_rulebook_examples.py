"""The rulebook's worked examples, and rulings not pinned elsewhere."""

from __future__ import annotations

from boardbot.engine.leda.board import mv_symbols
from boardbot.engine.leda.frames import F_CONFLICT, F_ORG, F_ROUND_END, F_ZONE
from tests.engine.leda.builders import (
    Engine,
    card,
    conflict_stack,
    make_player,
    make_state,
    org_stack,
    sq,
    top_frame,
)


def test_action_tile_2_offers_row_2_column_2_or_the_top_right_square(engine: Engine) -> None:
    stack = (
        (F_ROUND_END, 0), (F_ORG, 1), (F_ORG, 0), (F_CONFLICT, 0), (1, 1), (1, 0),
        (F_ZONE, 0, card("action-2")),
    )  # fmt: skip
    p0, p1 = make_player("sharks"), make_player("pandas")
    state = make_state(p0, p1, stack=stack, revealed=["action-2"], zone=None)
    assert engine.options(state) == ["zone:row2", "zone:col2", "zone:square-tr"]
    state = engine.play(state, "zone:square-tr")
    # Pierrick (seat 0) activates his top-right square, then Renaud does the same.
    assert engine.options(state) == [f"activate:r{r}c{c}" for r in (1, 2) for c in (3, 4)]
    state = engine.play(state, "activate:r1c3", "activate:r1c4", "activate:r2c3", "activate:r2c4")
    assert engine.current_player(state) == 1
    assert engine.options(state)[0] == "activate:r1c3"


def test_conflict_example_sharks_special_beats_a_temporary_military_tile(engine: Engine) -> None:
    # Pierrick (Sharks) gets 2 Military from his crystal, Renaud 1 from a temporary tile.
    p0 = make_player("sharks", food=0, tiles={"r1c1": ("temp-special", "front")})
    p1 = make_player("pandas", tiles={"r1c1": ("temp-military", "front")})
    state = make_state(p0, p1, zone="row1", mv_top=["mv-13"])
    state = engine.play(state, "activate:r1c1", "activate:r1c2", "activate:r1c3", "activate:r1c4")
    state = engine.play(state, "activate:r1c1", "activate:r1c2", "activate:r1c3", "activate:r1c4")
    assert state.players[1].grid[sq("r1c1")].face == 1  # flipped to its Desert
    p = state.players[0]
    assert mv_symbols(p) == 1 and p.mv == (card("mv-13"),)
    assert p.food == 3 + 1  # three Food tiles, then the token's Food


def test_organization_example_panda_card_on_a_desert(engine: Engine) -> None:
    p0 = make_player("sharks")
    p1 = make_player("pandas", hand=["panda-2"], food=5, tiles={"r3c1": ("temp-food-1", "back")})
    state = make_state(p0, p1, stack=org_stack())
    state = engine.play(state, "food", "play:panda-2@r3c1")
    assert state.players[1].food == 0
    assert state.players[1].grid[sq("r3c1")].cards == (card("panda-2"),)


def test_swap_example_food_tile_with_a_shark_card(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r2c2": ["shark-1"]}, tokens=["r2c2"], food=0)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    state = engine.play(state, "swap:r1c1-r2c2")
    grid = state.players[0].grid
    assert grid[sq("r1c1")].cards == (card("shark-1"),) and grid[sq("r1c1")].token
    assert not grid[sq("r2c2")].cards and state.players[0].food == 1


# ----------------------------------------------------------------------------- rulings
def test_mv_token_from_a_card_effect_opens_no_red_window(engine: Engine) -> None:
    p0 = make_player("cats", cards={"r1c1": ["cat-6"]}, hand=["cat-10", "cat-11"], military=5)
    state = make_state(p0, make_player("sharks"), zone="row1")
    state = engine.play(state, "activate:r1c1", "reveal:cat-11")
    assert len(state.players[0].mv) == 1 and top_frame(state) == "activate"


def test_empty_mv_pile_means_nobody_won_the_conflict() -> None:
    # 20 symbols always make a winner before the pile runs out, so the case is only reachable
    # for a hand-made world: run the conflict on one directly (Python only: an engine is handed
    # states through JSON, and a conflict still to run is never on top of a state's work).
    from boardbot.engine.leda.rules import advance

    p0 = make_player("cats", hand=["cat-10"], military=5)
    state = make_state(p0, make_player("sharks"), stack=org_stack())
    state = advance(state._replace(mv_pile=(), stack=conflict_stack()))
    assert top_frame(state) == "organization" and not state.players[0].mv


def test_a_deck_emptied_during_the_step_opens_the_blue_ring(engine: Engine) -> None:
    names = [f"cat-{i}" for i in range(1, 14) if i not in (5,)]
    p0 = make_player("cats", hand=names, deck=["cat-5"])
    state = make_state(p0, make_player("sharks"), zone="row2")
    state = engine.play(state, "activate:r2c3")  # the Draw tile takes the last card
    state = engine.play(state, "activate:r2c1", "activate:r2c2", "activate:r2c4")
    # The crystal (Draw 1) finds an empty deck; the window offers only the Blue Ring.
    assert {o.split("@")[0] for o in engine.options(state)} == {"ring:cat-11", "done"}


def test_rings_may_be_declined_and_several_played_in_one_window(engine: Engine) -> None:
    names = [f"cat-{i}" for i in range(1, 14)]
    names.remove("cat-7")
    names.remove("cat-8")
    names.remove("cat-9")
    cards = {"r1c1": ["cat-7"], "r1c2": ["cat-8"], "r1c3": ["cat-9"]}
    p0 = make_player("cats", cards=cards, hand=names, deck=[])
    state = make_state(p0, make_player("sharks"), zone="row1")
    state = engine.play(state, "activate:r1c1", "activate:r1c2", "activate:r1c3", "activate:r1c4")
    rings = {o.split("@")[0] for o in engine.options(state)}
    assert rings == {"ring:cat-11", "ring:cat-12", "done"}  # Blue and Purple, not Red
    state = engine.play(state, "ring:cat-11@r4c4", "ring:cat-12@r4c3")
    assert engine.current_player(state) == 1
    assert state.players[0].grid[sq("r4c3")].cards == (card("cat-12"),)


def test_rotation_applies_to_the_card_wherever_it_is_by_then(engine: Engine) -> None:
    # Cat-1 copies the Scorpions' Portal P3 (swap two squares) and moves itself: it still turns.
    p1 = make_player("scorpions", cards={"r1c2": ["scorpion-10"]})
    p0 = make_player("cats", cards={"r1c1": ["cat-1"]})
    state = make_state(p0, p1, zone="row1")
    state = engine.play(state, "activate:r1c1", "copy:r1c2", "swap:r1c1-r4c4")
    assert state.players[0].grid[sq("r4c4")].cards == (card("cat-1"),)
    assert card("cat-1") in state.players[0].rotated
