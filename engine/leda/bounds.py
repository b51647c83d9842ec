"""The bound of every number and list of a LEDA state (docs/leda/state-format.md, "Bounds").

Most follow from the components (a count never exceeds the items there are); Food and Military
have no rule limit, so they get sanity caps that the engine holds them at (a Ruling), and the
pending work a hand-made state may carry is capped too.
"""

from __future__ import annotations

from boardbot.engine.leda.data import (
    ACTION_TILES,
    CARD_CARD_COST,
    CAT_ROTATING,
    CLAN_CARDS,
    EFFECTS,
    ITEM_COUNT,
    MV_TOKENS,
    OP_PLAY_DISCOUNT,
    TILE_PERMANENT,
    ZONE_SQUARES,
)

FOOD_MAX = 999
"""Food a player holds at most; a gain beyond it is lost (Ruling). Random games stay near 200."""

MILITARY_MAX = 999
"""Military gained in one round at most; a gain beyond it is lost (Ruling). Games stay near 15."""

SPECIALS_MAX = max(len(squares) for squares in ZONE_SQUARES)
"""Special activations waiting at most: one per activated square of a zone (4).

Every item a square activates (a tile, a card, and what that card in turn activates: Cat-3's
tile, the Queen's Panda, a Copy, Shark-1's or Scorpion-6's tile, a Desert's reminded effect)
ends in at most one Special activation, each square of the zone is activated once per step, and
a special activation never queues another. A gain beyond it is lost (only a hand-made state can
reach it).
"""

PENDING_MAX = 64
"""Frames of pending work at most. Random games stay at 10 or fewer."""

CLAN_SIZE = tuple(len(cards) for cards in CLAN_CARDS)
"""Cards of each clan: the most a hand, a deck or one square's stack can hold (13 or 11)."""

LARGEST_CLAN = max(CLAN_SIZE)

MV_TOKEN_COUNT = len(MV_TOKENS)
"""MV tokens in the game (18): the most in the pile or won by one player."""

ACTION_TILE_COUNT = len(ACTION_TILES)
"""Action tiles (5): the most in the pile."""

REVEALED_MAX = ACTION_TILE_COUNT - 1
"""Action tiles revealed since the last shuffle: the pile is shuffled with one left (4)."""

ROTATED_MAX = len(CAT_ROTATING)
"""Cat cards that can be turned (9)."""

KNOWS_MAX = ITEM_COUNT
"""Hidden items a seat can know the place of: every card, Action tile and MV token (69)."""

DISCOUNT_MAX = max(
    sum(1 for permanent in TILE_PERMANENT if not permanent) // 2,
    *(op[1] for ops in EFFECTS for op in ops if op[0] == OP_PLAY_DISCOUNT),
)
"""The largest discount of a play: Scorpion-4's pairs of Deserts (8 temporary tiles: 4)."""

CARD_COST_MAX = max(CARD_CARD_COST)
"""The most cards a Cat card costs (3)."""

OP_INDEX_MAX = max(len(ops) for ops in EFFECTS) - 1
"""The last op index of the longest effect."""
