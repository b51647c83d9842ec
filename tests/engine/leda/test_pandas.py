"""Every Panda card, Awakening (with its fallback) and the Panda clan victory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from boardbot.engine.leda.board import clan_victory
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import Engine, card, make_player, make_state, sq, top_frame


def panda_state(
    cards: Mapping[str, Sequence[str]], hand: Sequence[str] = (), food: int = 0, **kw: object
) -> LedaState:
    """Seat 0 (Pandas) about to activate row 1 holding `cards`."""
    p0 = make_player("pandas", cards=cards, hand=hand, food=food)
    return make_state(p0, make_player("sharks", food=2), zone="row1", **kw)  # type: ignore[arg-type]


def test_panda_1_draws_and_triggers_the_special_activation(engine: Engine) -> None:
    state = panda_state({"r1c1": ["panda-1"]})
    state = engine.play(state, "activate:r1c1")
    assert len(state.players[0].hand) == 1 and state.players[0].specials == 1
    state = engine.play(state, "activate:r1c2", "activate:r1c3", "activate:r1c4")
    # End of step: the Panda crystal, 1 Food or 1 Awakening.
    assert engine.options(state) == ["choose:1", "choose:2"]
    state = engine.play(state, "choose:1")
    assert state.players[0].food == 4  # 3 Food tiles + the special's Food


def test_panda_2_upgrades(engine: Engine) -> None:
    state = engine.play(panda_state({"r1c1": ["panda-2"]}), "activate:r1c1")
    assert top_frame(state) == "upgrade" and "upgrade:r1c1" not in engine.options(state)


def test_panda_3_food_or_military(engine: Engine) -> None:
    state = engine.play(panda_state({"r1c1": ["panda-3"]}), "activate:r1c1")
    assert engine.play(state, "choose:1").players[0].food == 1
    assert engine.play(state, "choose:2").players[0].military == 1


def test_panda_4_food_then_may_play_a_panda_one_cheaper(engine: Engine) -> None:
    state = panda_state({"r1c1": ["panda-4"]}, hand=["panda-2", "panda-7"], food=3)
    state = engine.play(state, "activate:r1c1")
    assert state.players[0].food == 4
    opts = engine.options(state)
    assert "play:panda-2@r4c4" in opts and "skip" in opts
    assert not any(o.startswith("play:panda-7") for o in opts)  # Silver: never at a discount
    state = engine.play(state, "play:panda-2@r4c4")
    assert state.players[0].food == 0 and state.players[0].grid[sq("r4c4")].cards == (
        card("panda-2"),
    )


def test_panda_4_without_an_affordable_panda_offers_nothing(engine: Engine) -> None:
    state = panda_state({"r1c1": ["panda-4"]}, hand=["panda-2"], food=0)
    state = engine.play(state, "activate:r1c1")
    # Still asked (with only `skip`): the opponent must not learn what the hand holds.
    assert engine.options(state) == ["skip"]
    assert top_frame(engine.play(state, "skip")) == "activate"


def test_panda_5_draw_or_military(engine: Engine) -> None:
    state = engine.play(panda_state({"r1c1": ["panda-5"]}), "activate:r1c1")
    assert len(engine.play(state, "choose:1").players[0].hand) == 1
    assert engine.play(state, "choose:2").players[0].military == 1


def test_panda_6_food_and_spy(engine: Engine) -> None:
    state = engine.play(panda_state({"r1c1": ["panda-6"]}), "activate:r1c1")
    assert state.players[0].food == 1 and top_frame(state) == "spy-pile"


def test_panda_7_and_8_silvers(engine: Engine) -> None:
    state = engine.play(panda_state({"r1c1": ["panda-7"]}), "activate:r1c1")
    assert state.players[0].military == 2
    state = engine.play(panda_state({"r1c1": ["panda-8"]}), "activate:r1c1")
    assert state.players[0].military == 1 and top_frame(state) == "upgrade"


def test_panda_9_spy_then_play_a_panda_two_cheaper(engine: Engine) -> None:
    state = panda_state({"r1c1": ["panda-9"]}, hand=["panda-3"], food=3)
    state = engine.play(state, "activate:r1c1", "spy:mv", "put:top")
    state = engine.play(state, "play:panda-3@r2c2")
    assert state.players[0].food == 0


def test_panda_10_king_military_and_mv_token(engine: Engine) -> None:
    state = panda_state({"r1c1": ["panda-10"]}, mv_top=["mv-13"])
    state = engine.play(state, "activate:r1c1")
    p = state.players[0]
    assert p.military == 2 and p.mv == (card("mv-13"),) and p.food == 1


def test_panda_11_queen_activates_another_uncovered_panda(engine: Engine) -> None:
    cards = {"r1c1": ["panda-11"], "r3c3": ["panda-7"], "r4c4": ["panda-3", "panda-5"]}
    state = engine.play(panda_state(cards), "activate:r1c1")
    assert engine.options(state) == ["queen:r3c3", "queen:r4c4"]  # panda-3 is covered
    state = engine.play(state, "queen:r3c3")
    assert state.players[0].military == 2


def _awakening_state(
    engine: Engine, cards: Mapping[str, Sequence[str]], hand: Sequence[str]
) -> LedaState:
    """One Panda crystal queued; row 3 (four temporary Food tiles) activated: the crystal's
    choice is pending."""
    p0 = make_player("pandas", cards=cards, hand=hand, specials=1)
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    assert engine.options(state) == ["choose:1", "choose:2"]
    return state


def test_awakening_bronze_to_silver(engine: Engine) -> None:
    cards = {"r1c1": ["panda-2"], "r1c2": ["panda-3"]}
    state = _awakening_state(engine, cards, ["panda-7"])
    state = engine.play(state, "choose:2")
    assert engine.options(state) == ["awaken:panda-7@r1c1", "awaken:panda-7@r1c2"]
    state = engine.play(state, "awaken:panda-7@r1c2")
    p = state.players[0]
    assert p.grid[sq("r1c2")].cards == (card("panda-7"),) and card("panda-3") in p.hand
    # The returned card is public: the opponent knows it is in the Panda hand.
    assert card("panda-3") in state.known[1]


def test_awakening_silver_to_gold(engine: Engine) -> None:
    cards = {"r1c1": ["panda-7"], "r1c2": ["panda-8"], "r2c1": ["panda-2"]}
    state = _awakening_state(engine, cards, ["panda-10", "panda-9"])
    state = engine.play(state, "choose:2")
    assert engine.options(state) == ["awaken:panda-10@r1c1", "awaken:panda-10@r1c2"]


def test_awakening_that_cannot_be_carried_out_gives_one_food(engine: Engine) -> None:
    state = _awakening_state(engine, {"r1c1": ["panda-2"]}, ["panda-7"])
    food = state.players[0].food
    state = engine.play(state, "choose:2")
    assert state.players[0].food == food + 1


def test_awakening_needs_uncovered_bronzes(engine: Engine) -> None:
    cards = {"r1c1": ["panda-2"], "r1c2": ["panda-3", "panda-1"]}
    state = _awakening_state(engine, cards, ["panda-7"])
    food = state.players[0].food
    assert engine.play(state, "choose:2").players[0].food == food + 1


def test_panda_clan_victory_needs_both_golds_uncovered() -> None:
    # Python only: the board's victory check itself (a Gold awakened wins below, on both).
    p = make_player("pandas", cards={"r1c1": ["panda-10"], "r1c2": ["panda-11"]})
    assert clan_victory(p)
    p = make_player("pandas", cards={"r1c1": ["panda-10"], "r1c2": ["panda-11", "panda-2"]})
    assert not clan_victory(p)


def test_awakening_a_gold_wins_immediately(engine: Engine) -> None:
    cards = {"r1c1": ["panda-7"], "r1c2": ["panda-8"], "r2c1": ["panda-11"]}
    state = _awakening_state(engine, cards, ["panda-10"])
    state = engine.play(state, "choose:2", "awaken:panda-10@r1c1")
    assert state.winner == 0


def test_awakening_in_reach_without_a_silver_in_hand_asks_and_gives_one_food(
    engine: Engine,
) -> None:
    """Two uncovered Bronzes make the Awakening public; with no Silver in hand it gives 1 Food."""
    p0 = make_player(
        "pandas", cards={"r1c1": ["panda-2"], "r1c2": ["panda-3"]}, hand=["panda-4"], specials=1
    )
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    food = state.players[0].food
    state = engine.play(state, "choose:2")
    assert engine.options(state) == ["food"]
    assert engine.play(state, "food").players[0].food == food + 1
