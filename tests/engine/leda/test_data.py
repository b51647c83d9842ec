"""Component data: the activation table, deck sizes, tokens and thresholds."""

from __future__ import annotations

from boardbot.engine.leda.data import (
    ACTION_TILE_ZONES,
    CARD_CARD_COST,
    CARD_FOOD_COST,
    CARD_NAMES,
    CLAN_CARDS,
    FX_NOTHING,
    MV_FX,
    MV_SYMBOLS,
    MV_THRESHOLD,
    ZONE_SQUARES,
)

PLAYER_AID = [
    [2, 2, 3, 4],
    [2, 3, 3, 2],
    [2, 3, 3, 2],
    [4, 3, 2, 2],
]


def test_activation_table_matches_the_player_aid() -> None:
    counts = [0] * 16
    for zones in ACTION_TILE_ZONES.values():
        covered = {sq for z in zones for sq in ZONE_SQUARES[z]}
        for sq in covered:
            counts[sq] += 1
    assert [counts[r * 4 : r * 4 + 4] for r in range(4)] == PLAYER_AID


def test_tiles_1_and_4_guarantee_their_corner_squares() -> None:
    # Every zone of Action tile 1 holds r1c1 and every zone of tile 4 holds r4c4.
    t1, _, _, t4, _ = sorted(ACTION_TILE_ZONES)
    assert all(0 in ZONE_SQUARES[z] for z in ACTION_TILE_ZONES[t1])
    assert all(15 in ZONE_SQUARES[z] for z in ACTION_TILE_ZONES[t4])


def test_every_zone_has_four_squares() -> None:
    assert all(len(set(squares)) == 4 for squares in ZONE_SQUARES)


def test_clan_decks_sizes_and_ids() -> None:
    assert [len(c) for c in CLAN_CARDS] == [13, 11, 11, 11]
    assert len(set(CARD_NAMES)) == 46
    assert CARD_NAMES[0] == "cat-1" and CARD_NAMES[-1] == "scorpion-11"


def test_mv_tokens_and_thresholds() -> None:
    assert len(MV_SYMBOLS) == 18 and sum(MV_SYMBOLS.values()) == 20
    assert sum(1 for fx in MV_FX.values() if fx == FX_NOTHING) == 5
    assert MV_THRESHOLD == (8, 7, 9, 6)  # cats, pandas, sharks, scorpions


def test_costs_from_the_spec() -> None:
    food = dict(zip(CARD_NAMES, CARD_FOOD_COST, strict=True))
    cards = dict(zip(CARD_NAMES, CARD_CARD_COST, strict=True))
    assert [food[f"shark-{i}"] for i in range(1, 12)] == [6, 6, 3, 5, 4, 7, 7, 5, 7, 3, 3]
    assert [food[f"scorpion-{i}"] for i in range(1, 8)] == [3, 3, 3, 3, 3, 4, 2]
    assert [food[f"panda-{i}"] for i in range(1, 7)] == [5] * 6
    assert [cards["cat-1"], cards["cat-3"], cards["cat-7"]] == [3, 2, 1]
    assert [food[f"cat-{i}"] for i in (2, 4, 5, 6, 8, 9)] == [2, 7, 4, 5, 5, 6]
