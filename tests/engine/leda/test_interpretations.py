"""The interpretations listed in docs/leda/README.md for points the rules leave open."""

from __future__ import annotations

from tests.engine.leda.builders import Engine, card, make_player, make_state, top_frame

PACK = ("r2c2", "r1c2", "r2c1")


def test_p4_block_also_stops_mv_tokens_from_card_effects(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r2c2": ["shark-7"]}, tokens=PACK)
    state = make_state(p0, make_player("scorpions"), zone="row2", blocked=True)
    state = engine.play(state, "activate:r2c2")
    assert not state.players[0].mv


def test_shark_3_in_a_blocked_round_puts_the_token_under_and_draws_nothing(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r2c2": ["shark-3"]}, tokens=PACK, mv=["mv-1"])
    state = make_state(p0, make_player("scorpions"), zone="row2", blocked=True)
    state = engine.play(state, "activate:r2c2", "under:mv-1")
    assert not state.players[0].mv and state.mv_pile[-1] == card("mv-1")


def test_scorpion_4_without_a_desert_pair_offers_a_full_price_play(engine: Engine) -> None:
    p0 = make_player("scorpions", cards={"r1c1": ["scorpion-4"]}, hand=["scorpion-7"], food=2)
    state = make_state(p0, make_player("pandas"), zone="row1")
    state = engine.play(state, "activate:r1c1")
    assert "play:scorpion-7@r4c4" in engine.options(state)
    assert engine.play(state, "play:scorpion-7@r4c4").players[0].food == 0


def test_purple_ring_counts_rings_in_the_zone_as_cat_cards(engine: Engine) -> None:
    cards = {"r1c1": ["cat-7"], "r1c2": ["cat-8"], "r1c3": ["cat-10"]}
    p0 = make_player("cats", cards=cards, hand=["cat-12"])
    state = make_state(p0, make_player("sharks"), zone="row1")
    state = engine.play(state, "activate:r1c1", "activate:r1c2", "activate:r1c3")
    while top_frame(state) == "ring-rotate":
        state = engine.play(state, "skip")
    state = engine.play(state, "activate:r1c4")
    assert "ring:cat-12@r1c4" in engine.options(state)


def test_ring_window_keeps_the_rings_offered_when_it_opened(engine: Engine) -> None:
    names = ["food-1", "food-2", "food-3", "food-4", "military-1"]
    tiles = {f"r2c{c}": (n, "back") for c, n in enumerate(names[:4], start=1)}
    tiles["r4c1"] = (names[4], "back")
    rest = [f"cat-{i}" for i in range(1, 14)]
    p0 = make_player("cats", tiles=tiles, hand=rest, deck=[])
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    # Orange on an upgraded tile leaves 4 upgraded tiles; Blue is still offered, and so would
    # be Orange's condition-mates: the window does not re-check.
    state = engine.play(state, "ring:cat-13@r2c1")
    assert {o.split("@")[0] for o in engine.options(state)} == {"ring:cat-11", "done"}


def test_cat_3_activates_a_tile_with_an_effect_but_shark_1_may_pick_a_desert(
    engine: Engine,
) -> None:
    tiles = {"r3c1": ("temp-food-1", "back")}
    p0 = make_player("cats", cards={"r1c1": ["cat-3"]}, rotated=["cat-3"], tiles=tiles)
    state = engine.play(make_state(p0, make_player("sharks"), zone="row1"), "activate:r1c1")
    opts = engine.options(state)
    assert "activate-tile:r3c1" not in opts and "activate-tile:r3c2" in opts
    p0 = make_player("sharks", cards={"r2c2": ["shark-1"]}, tokens=PACK, tiles=tiles)
    state = engine.play(make_state(p0, make_player("cats"), zone="row2"), "activate:r2c2")
    assert "activate-tile:r3c1" in engine.options(state)
