"""Read-only questions about a player's board: top items, live faces, counts, victory."""

from __future__ import annotations

from boardbot.engine.leda.data import (
    CARD_CARD_COST,
    CARD_CLAN,
    CARD_FACES,
    CARD_FOOD_COST,
    CATS,
    CORNERS,
    MV_SYMBOLS,
    MV_THRESHOLD,
    NEIGHBOURS,
    NONE,
    NOT_PLAYABLE,
    PANDA_KING,
    PANDA_LEVEL,
    PANDA_QUEEN,
    PORTAL_1,
    PORTAL_2,
    PORTAL_3,
    PORTAL_4,
    PORTALS,
    RINGS,
    SCORPIONS,
    SHARK_TOKENS,
    SHARKS,
    TILE_KIND,
    TILE_KIND_FX,
    TILE_PERMANENT,
    ZONE_SQUARES,
)
from boardbot.engine.leda.state import Player, Square

_PORTAL_SET = frozenset(PORTALS)
_RING_SET = frozenset(RINGS)


def pack_awake(player: Player, sq: int) -> bool:
    """A Shark card's Pack face is live: its square has a token and 2+ neighbours have one."""
    grid = player.grid
    if not grid[sq].token:
        return False
    n = 0
    for nb in NEIGHBOURS[sq]:
        if grid[nb].token:
            n += 1
    return n >= 2


def card_live_fx(player: Player, sq: int, card: int) -> int:
    """The effect id of the live face of `card` lying on square `sq` (NONE when blank)."""
    faces = CARD_FACES[card]
    clan = CARD_CLAN[card]
    if clan == SHARKS:
        return faces[1] if pack_awake(player, sq) else faces[0]
    if clan == CATS and card in player.rotated:
        return faces[1]
    return faces[0]


def tile_live_fx(square: Square) -> int:
    """The activation effect of an uncovered tile (NONE for a Desert)."""
    return TILE_KIND_FX[TILE_KIND[square.tile]][square.face]


def live_fx(player: Player, sq: int) -> int:
    """The effect id the top item of `sq` would resolve (NONE when nothing)."""
    square = player.grid[sq]
    if square.cards:
        return card_live_fx(player, sq, square.cards[-1])
    return tile_live_fx(square)


def has_activation(player: Player, sq: int) -> bool:
    """The square's top item has something to activate (a Cat card always does: it rotates)."""
    square = player.grid[sq]
    if square.cards:
        card = square.cards[-1]
        if CARD_CLAN[card] == CATS:
            return True
        return card_live_fx(player, sq, card) != NONE
    return TILE_KIND_FX[TILE_KIND[square.tile]][square.face] != NONE


def is_desert(square: Square) -> bool:
    """An uncovered temporary tile on its Desert side."""
    return not square.cards and square.face == 1 and not TILE_PERMANENT[square.tile]


def deserts(player: Player) -> list[int]:
    """Squares holding an uncovered Desert."""
    return [sq for sq, square in enumerate(player.grid) if is_desert(square)]


def desert_count(player: Player) -> int:
    """Number of uncovered Deserts."""
    return sum(1 for square in player.grid if is_desert(square))


def upgradable(player: Player) -> list[int]:
    """Squares holding an uncovered permanent tile not yet upgraded."""
    return [
        sq
        for sq, square in enumerate(player.grid)
        if not square.cards and square.face == 0 and TILE_PERMANENT[square.tile]
    ]


def upgraded_count(player: Player) -> int:
    """Number of uncovered upgraded tiles."""
    return sum(
        1
        for square in player.grid
        if not square.cards and square.face == 1 and TILE_PERMANENT[square.tile]
    )


def top_card(square: Square) -> int:
    """The top clan card of a square, or -1."""
    return square.cards[-1] if square.cards else -1


def portals_in_play(player: Player) -> int:
    """Number of uncovered Portals."""
    return sum(1 for square in player.grid if square.cards and square.cards[-1] in _PORTAL_SET)


def rings_in_play(player: Player) -> int:
    """Number of uncovered Rings."""
    return sum(1 for square in player.grid if square.cards and square.cards[-1] in _RING_SET)


def token_count(player: Player) -> int:
    """Shark tokens on the grid."""
    return sum(1 for square in player.grid if square.token)


def token_supply(player: Player) -> int:
    """Shark tokens left to place (Sharks only; any other clan has none)."""
    return SHARK_TOKENS - token_count(player) if player.clan == SHARKS else 0


def adjacent_tokens(player: Player, sq: int) -> int:
    """Shark tokens on the squares orthogonally adjacent to `sq`."""
    grid = player.grid
    return sum(1 for nb in NEIGHBOURS[sq] if grid[nb].token)


def mv_symbols(player: Player) -> int:
    """MV symbols on the tokens the player owns."""
    return sum(MV_SYMBOLS[t] for t in player.mv)


def cats_in_zone(player: Player, zone: int) -> int:
    """Uncovered Cat cards in a zone of the player's grid."""
    grid = player.grid
    return sum(
        1 for sq in ZONE_SQUARES[zone] if grid[sq].cards and CARD_CLAN[grid[sq].cards[-1]] == CATS
    )


def uncovered_level(player: Player, level: int) -> list[int]:
    """Squares whose top card is a Panda of that level."""
    return [
        sq
        for sq, square in enumerate(player.grid)
        if square.cards and PANDA_LEVEL.get(square.cards[-1], -1) == level
    ]


def clan_victory(player: Player) -> bool:
    """The player's clan victory condition holds."""
    clan = player.clan
    grid = player.grid
    if clan == SHARKS:
        return token_count(player) >= SHARK_TOKENS
    if clan == SCORPIONS:
        return all(grid[sq].cards and grid[sq].cards[-1] in _PORTAL_SET for sq in CORNERS)
    if clan == CATS:
        return rings_in_play(player) >= 3
    tops = {square.cards[-1] for square in grid if square.cards}
    return PANDA_KING in tops and PANDA_QUEEN in tops


def has_won(player: Player) -> bool:
    """Either victory condition holds for the player."""
    return mv_symbols(player) >= MV_THRESHOLD[player.clan] or clan_victory(player)


def play_cost(player: Player, card: int, discount: int = 0) -> tuple[int, int] | None:
    """(Food, cards) to play `card` from hand now, or None when it cannot be played that way."""
    if card in NOT_PLAYABLE:
        return None
    if card in _PORTAL_SET:
        if card == PORTAL_1:
            counter = len(player.hand)
        elif card == PORTAL_2:
            counter = upgraded_count(player)
        elif card == PORTAL_3:
            counter = portals_in_play(player)
        else:
            assert card == PORTAL_4
            counter = len(player.mv)
        return max(0, 9 - counter - discount), 0
    cost = CARD_FOOD_COST[card]
    if cost < 0:
        return 0, CARD_CARD_COST[card]
    return max(0, cost - discount), 0


def can_pay(player: Player, card: int, discount: int = 0) -> bool:
    """`card` (in hand) is playable with the player's Food and hand."""
    cost = play_cost(player, card, discount)
    if cost is None:
        return False
    food, cards = cost
    return food <= player.food and cards <= len(player.hand) - 1
