"""The bound of every number and list of a Legend Raiders state (state-format.md, "Bounds").

Every bound follows from the component data: counts never exceed the components there are, and
points never exceed what the most completions a player can make can score.
"""

from __future__ import annotations

from boardbot.engine.legend_raiders.components import CARD_DIE, CARD_MISSION, ID_CHARS_MAX
from boardbot.engine.legend_raiders.components import COMPONENTS as C

N_TILES = len(C.tile_ids)
N_CARDS = len(C.card_ids)
N_DIE_CARDS = sum(1 for kind in C.card_kind if kind == CARD_DIE)

STACK_MAX = N_TILES - C.hq_columns
"""Tiles in the Discovery stack (24): the Headquarters hold theirs while it has any."""

DECK_MAX = N_CARDS - C.face_up_cards
"""Cards in the Expedition deck (24): the face-up row is full while it has any (diceless, a
slot left empty once the deck ran out sees only used Die cards come back)."""

COMPLETED_MAX = C.end_trigger + C.completions_per_turn - 1
"""Completed tiles a player can hold (8): 5 before the turn that triggers the end, then 3."""

PREPARED_MAX = C.max_prepared + 1
"""Prepared tiles a player can hold (4): one over the limit while its discard is pending."""

COIN_BONUS_MAX = N_DIE_CARDS + 1
"""Points per discovery a turn can add (5): diceless, every Die card once, then one returned
to the deck and taken again as the turn's Expedition card (the die adds 1)."""

TOOL_DRAWS_MAX = max(C.tools_per_column, C.diceless_tools, 1)
"""Tools one draw sequence brings (2): a column refill or a diceless Die card."""

_COINS_BY_SIZE = sorted(C.tile_coins, reverse=True)

COINS_MAX = max(
    C.discovery_spaces * C.coins_per_empty_space
    + C.completed_coins_from(k)
    + sum(_COINS_BY_SIZE[:k])
    for k in range(COMPLETED_MAX + 1)
)
"""Coins a board can show (11): empty discovery spaces, uncovered completed spaces, Places."""


def _completion_base(k: int) -> int:
    """What the k-th completion (from 1) can score at most besides its tile's own share."""
    return (
        C.discovery_spaces * C.coins_per_empty_space
        + C.completed_coins_from(k)
        + COIN_BONUS_MAX
    )


def _tiles_share_max(board: int) -> int:
    """The most COMPLETED_MAX completions on `board` can score from the tiles themselves.

    A tile brings its favourite tools, and its coins once per completion from its own on; so
    the best tiles are completed coins first, and a table over (tiles seen, tiles chosen) finds
    them.
    """
    favourite = C.board_favourite[board]
    best = [0] + [-1] * COMPLETED_MAX
    for tile in sorted(range(N_TILES), key=lambda i: -C.tile_coins[i]):
        for chosen in range(COMPLETED_MAX - 1, -1, -1):
            if best[chosen] >= 0:
                share = C.tile_cost[tile][favourite] + C.tile_coins[tile] * (COMPLETED_MAX - chosen)
                best[chosen + 1] = max(best[chosen + 1], best[chosen] + share)
    return best[COMPLETED_MAX]


POINTS_MAX = sum(_completion_base(k) for k in range(1, COMPLETED_MAX + 1)) + max(
    _tiles_share_max(board) for board in range(len(C.board_names))
)
"""Points a player can score in play (112): COMPLETED_MAX completions, each scoring its most
(every discovery space empty, the coin bonus at its most, the best tiles in the best order)."""

FINAL_SCORE_MAX = (
    POINTS_MAX
    + sum(p for p, kind in zip(C.mission_points, C.card_kind, strict=True) if kind == CARD_MISSION)
    + C.die_card_points * N_DIE_CARDS
)
"""A final score at most (192): play points, every Mission, every Die card kept."""

LEGACY_IDLE_TURNS_PER_PLAYER = 3
"""`idle_turns` (no longer used or written) was at most 3 rounds of turns: 3 x players."""

CHARACTER_CHARS_MAX = 2 * ID_CHARS_MAX + len(" / ")
"""The longest `character` text: a board's (at most two) names joined by " / "."""
