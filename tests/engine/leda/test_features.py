"""What LEDA's learned-evaluation features mean: values where the layout documents them."""

from __future__ import annotations

import numpy as np
import pytest

from boardbot.engine.leda import features as lf
from boardbot.engine.leda.data import CLAN_BY_NAME, CLAN_CARDS, ZONE_BY_NAME, ZONE_SQUARES
from boardbot.engine.leda.frames import A_FOOD, A_PLAY, A_SWAP, F_ORG
from tests.engine.leda.builders import (
    Engine,
    card,
    check_valid,
    make_player,
    make_state,
    org_stack,
    sq,
)

SEAT_0 = lf.GLOBAL_SIZE
SEAT_1 = lf.GLOBAL_SIZE + lf.SEAT_SIZE


def f32(value: float) -> float:
    """`value` as the float32 the native engine stores."""
    return float(np.float32(value))


def view(engine: Engine, state: object, seat: int) -> list[float]:
    """The engine's features of `seat`, each value as float32."""
    return [f32(v) for v in engine.game.features(engine.state(state), seat)]


def test_the_layout_is_the_documented_one() -> None:
    assert lf.FEATURES_VERSION == 1
    assert (lf.GLOBAL_SIZE, lf.SEAT_SIZE, lf.SQUARE_SIZE) == (89, 237, 10)
    assert lf.feature_size(2) == lf.FEATURE_SIZE == 563
    assert lf.action_feature_size() == lf.ACTION_FEATURE_SIZE == 370
    assert (lf.G_OUTLOOK, lf.S_HAND, lf.S_SQUARES, lf.X_EFFECT, lf.X_OPTION) == (
        88, 25, 77, 273, 368,
    )  # fmt: skip
    assert lf.MV_KINDS == 8
    doc = lf.__doc__ or ""
    for row in ("| 88 | 1 |", "| 25 | 13 |", "| 77 | 160 |", "| 273 | 56 |", "| 368 | 2 |"):
        assert row in doc


def test_food_clans_and_hands_sit_in_the_rotated_blocks(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-5", "cat-8"], food=7, military=3)
    p1 = make_player("sharks", hand=["shark-2"], food=25)
    state = make_state(p0, p1, stack=org_stack())
    for seat, own, other in ((0, p0, p1), (1, p1, p0)):
        f = view(engine, state, seat)
        assert len(f) == lf.FEATURE_SIZE
        assert f[lf.G_TO_MOVE] == (1.0 if seat == 0 else 0.0)  # seat 0 organizes first
        assert f[lf.G_OPP_TO_MOVE] == (0.0 if seat == 0 else 1.0)
        assert f[lf.G_ORG] == f[lf.G_ORG + 1] == 1.0
        assert f[SEAT_0 + lf.S_CLAN + own.clan] == 1.0
        assert f[SEAT_1 + lf.S_CLAN + other.clan] == 1.0
        assert f[SEAT_0 + lf.S_FOOD] == f32(min(own.food, 20) / 20)
        assert f[SEAT_1 + lf.S_FOOD] == f32(min(other.food, 20) / 20)
        assert f[SEAT_0 + lf.S_HAND_SIZE] == f32(len(own.hand) / 13)
        # The own hand is seen card by card, the opponent's not at all (nothing is known).
        own_hand = f[SEAT_0 + lf.S_HAND : SEAT_0 + lf.S_HAND + 13]
        assert sum(own_hand) == len(own.hand)
        for c in own.hand:
            assert own_hand[c - CLAN_CARDS[own.clan][0]] == 1.0
        assert sum(f[SEAT_1 + lf.S_HAND : SEAT_1 + lf.S_HAND + 13]) == 0.0
    assert view(engine, state, 0)[SEAT_0 + lf.S_MILITARY] == f32(3 / 10)
    assert view(engine, state, 0)[SEAT_1 + lf.S_FOOD] == 1.0  # 25 Food: capped


def test_a_known_card_of_the_opponents_hand_shows(engine: Engine) -> None:
    p0 = make_player("pandas", hand=["panda-1"])
    p1 = make_player("scorpions", hand=["scorpion-3", "scorpion-5"])
    state = make_state(p0, p1, stack=org_stack())
    state = check_valid(state._replace(known=(frozenset({card("scorpion-5")}), frozenset())))
    f = view(engine, state, 0)
    opp_hand = f[SEAT_1 + lf.S_HAND : SEAT_1 + lf.S_HAND + 13]
    assert opp_hand == [1.0 if i == 4 else 0.0 for i in range(13)]  # scorpion-5: slot 4
    # Seat 1 sees its own hand fully, and nothing of seat 0's.
    f1 = view(engine, state, 1)
    assert sum(f1[SEAT_0 + lf.S_HAND : SEAT_0 + lf.S_HAND + 13]) == 2.0
    assert sum(f1[SEAT_1 + lf.S_HAND : SEAT_1 + lf.S_HAND + 13]) == 0.0


def test_squares_tokens_and_the_zone_to_activate(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r1c2": ["shark-4"]}, tokens=["r1c1", "r1c3"])
    p1 = make_player("cats")
    state = make_state(p0, p1, zone="row1")  # seat 0 about to activate row 1
    f = view(engine, state, 0)
    row1 = ZONE_SQUARES[ZONE_BY_NAME["row1"]]
    assert f[lf.G_ZONE + ZONE_BY_NAME["row1"]] == 1.0
    assert [f[lf.G_ZONE_SQUARES + s] for s in range(16)] == [
        1.0 if s in row1 else 0.0 for s in range(16)
    ]
    assert f[lf.G_STEP] == f[lf.G_STEP + 1] == f[lf.G_CONFLICT] == 1.0
    at = SEAT_0 + lf.S_SQUARES + sq("r1c2") * lf.SQUARE_SIZE
    assert f[at + lf.Q_CARD] == f[at + lf.Q_TOKEN] == f[at + lf.Q_PACK] == 1.0  # 2 neighbours
    assert f[at + lf.Q_MILITARY] == f32(2.0 / 4)  # the Pack face: 2 Military
    assert f[SEAT_0 + lf.S_UNCOVERED + 3] == 1.0  # shark-4: slot 3
    for s in range(16):
        square = SEAT_0 + lf.S_SQUARES + s * lf.SQUARE_SIZE
        assert f[square + lf.Q_TO_ACTIVATE] == (1.0 if s in row1 else 0.0)
        # The opponent's step of the same zone is still to come.
        assert f[SEAT_1 + lf.S_SQUARES + s * lf.SQUARE_SIZE + lf.Q_TO_ACTIVATE] == (
            1.0 if s in row1 else 0.0
        )
    front = SEAT_0 + lf.S_SQUARES + sq("r1c4") * lf.SQUARE_SIZE  # food-4, permanent
    assert f[front + lf.Q_FRONT] == 1.0 and f[front + lf.Q_MILITARY] == 0.0
    assert f[SEAT_0 + lf.S_CLAN_PROGRESS] == f32(3 / 9)  # 3 of 9 Shark tokens


def test_decisions_have_distinct_indices_within_the_space(engine: Engine) -> None:
    p0 = make_player("scorpions", hand=["scorpion-1", "scorpion-7"], food=5)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    game = engine.game
    s = engine.state(state)
    legal = list(game.legal_actions(s))
    indices = [tuple(game.action_features(s, a)) for a in legal]
    assert len(set(indices)) == len(legal)
    assert all(0 <= i < lf.ACTION_FEATURE_SIZE for idx in indices for i in idx)
    food = indices[legal.index((A_FOOD,))]
    assert food == (lf.X_KIND + A_FOOD, lf.X_PAIR + lf.PAIRS.index((F_ORG, A_FOOD)))
    play = (A_PLAY, card("scorpion-7"), sq("r2c2"))
    assert indices[legal.index(play)] == (
        lf.X_KIND + A_PLAY,
        lf.X_PAIR + lf.PAIRS.index((F_ORG, A_PLAY)),
        lf.X_PLACED_CARD + card("scorpion-7"),
        lf.X_PLACE_SQUARE + sq("r2c2"),
        lf.X_COVER + lf.COVER_FRONT,  # military-2, a permanent tile on its front
    )
    swap = (A_SWAP, 0, 15)
    assert indices[legal.index(swap)][2:] == (lf.X_TARGET_SQUARE, lf.X_TARGET_SQUARE + 15)


@pytest.mark.parametrize("clan", ["cats", "pandas", "sharks", "scorpions"])
def test_clan_progress_counts_what_the_heuristic_counts(clan: str) -> None:
    assert lf.clan_progress(make_player(clan)) == 0.0
    if clan == "scorpions":
        p = make_player(clan, cards={"r1c1": ["scorpion-8"], "r2c2": ["scorpion-9"]})
        assert p.clan == CLAN_BY_NAME[clan]
        assert lf.clan_progress(p) == (1.0 + 0.25) / 4  # a corner Portal and another
