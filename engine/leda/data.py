"""All LEDA component data as the engine's tables: clans, squares and zones, tiles, Action tiles,
MV tokens, effects and the 46 clan cards, read from `components.json` (`components.py`).

Only geometry is computed here (square names and neighbours from the grid's size); every fact
of the components comes from the data file.
"""

from __future__ import annotations

from boardbot.engine.leda.components import (
    COMPONENTS,
    OP_NAMES,
    PANDA_LEVELS,
    PORTAL_NUMBERS,
    RING_COLOURS,
    ComponentDataError,
    square_names,
)


def _named(names: tuple[str, ...], name: str, what: str) -> int:
    """The index of a name the engine's rules refer to."""
    if name not in names:
        raise ComponentDataError("$", f"the rules need the {what} {name!r}, which the data lacks")
    return names.index(name)


# ---------------------------------------------------------------------------- clans
CLAN_NAMES = COMPONENTS.clan_names
CLAN_BY_NAME = {name: i for i, name in enumerate(CLAN_NAMES)}
CATS, PANDAS, SHARKS, SCORPIONS = (
    _named(CLAN_NAMES, name, "clan") for name in ("cats", "pandas", "sharks", "scorpions")
)
MV_THRESHOLD = COMPONENTS.mv_threshold
STARTING_HAND = COMPONENTS.starting_hand
STARTING_FOOD = COMPONENTS.starting_food
SHARK_TOKENS = COMPONENTS.shark_tokens

# ---------------------------------------------------------------------------- squares
_ROWS, _COLUMNS = COMPONENTS.rows, COMPONENTS.columns
SQUARES = _ROWS * _COLUMNS
SQUARE_NAMES = square_names(_ROWS, _COLUMNS)
SQUARE_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}
CORNERS = (0, _COLUMNS - 1, SQUARES - _COLUMNS, SQUARES - 1)


def _neighbours(sq: int) -> tuple[int, ...]:
    r, c = divmod(sq, _COLUMNS)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < _ROWS and 0 <= cc < _COLUMNS:
            out.append(rr * _COLUMNS + cc)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(sq) for sq in range(SQUARES))

# ---------------------------------------------------------------------------- zones
ZONE_NAMES = COMPONENTS.zone_names
ZONE_BY_NAME = {name: i for i, name in enumerate(ZONE_NAMES)}
ZONE_SQUARES = COMPONENTS.zone_squares
ZONE_MASKS = tuple(sum(1 << sq for sq in squares) for squares in ZONE_SQUARES)

# ---------------------------------------------------------------------------- items
# One id space for every hidden item, so a seat's knowledge is a set of ids.
CARD_COUNT = len(COMPONENTS.cards)
ACTION_TILE_BASE = CARD_COUNT  # action-1 .. action-5
ACTION_TILES = tuple(range(CARD_COUNT, CARD_COUNT + len(COMPONENTS.action_tile_names)))
MV_BASE = ACTION_TILE_BASE + len(ACTION_TILES)  # mv-1 .. mv-18
MV_TOKENS = tuple(range(MV_BASE, MV_BASE + len(COMPONENTS.mv_names)))
ITEM_COUNT = MV_BASE + len(MV_TOKENS)

ACTION_TILE_ZONES = dict(zip(ACTION_TILES, COMPONENTS.action_tile_zones, strict=True))

# ---------------------------------------------------------------------------- effect ops
# An effect is a tuple of ops resolved left to right; an op is a tuple (kind, *ints).
(
    OP_FOOD, OP_MIL, OP_DRAW, OP_UPGRADE, OP_SPY, OP_SPECIAL, OP_FLIP, OP_STEAL, OP_OR,
    OP_PLAY_DISCOUNT, OP_DRAW_MV, OP_QUEEN, OP_ACT_TILE_UPGRADE, OP_RETRIGGER_MV,
    OP_MV_UNDER_DRAW, OP_MIL_PER_ADJ_TOKEN, OP_FOOD_PER_MV_PAIR, OP_FOOD_PER_MV,
    OP_PLACE_TOKEN, OP_COPY, OP_SEARCH_RING, OP_ACT_TILE, OP_MIL_PER_HAND, OP_FOOD_PER_HAND,
    OP_RING_FOR_MV, OP_FOOD_PER_DESERT_PAIR, OP_MIL_PER_DESERT_PAIR, OP_DISCOUNT_DESERT_PAIRS,
    OP_DESERT_FX, OP_UPGRADE_ACTIVATE, OP_PORTAL_BONUS, OP_SPY2, OP_DOWNGRADE_OPP, OP_SWAP,
    OP_BLOCK_MV, OP_AWAKEN, OP_RING_ROTATE,
) = range(len(OP_NAMES))  # fmt: skip

EFFECTS: list[tuple[tuple[int, ...], ...]] = [e.ops for e in COMPONENTS.effects]
EFFECT_TEXT: list[str] = [e.text for e in COMPONENTS.effects]
EFFECT_BY_NAME = {e.id: i for i, e in enumerate(COMPONENTS.effects)}

NONE = -1  # a blank face


def _effect(name: str) -> int:
    return _named(tuple(EFFECT_BY_NAME), name, "effect")


FX_FOOD1 = _effect("food-1")
FX_FOOD2 = _effect("food-2")
FX_MIL1 = _effect("military-1")
FX_MIL2 = _effect("military-2")
FX_DRAW1 = _effect("draw-1")
FX_DRAW2 = _effect("draw-2")
FX_UPGRADE = _effect("upgrade")
FX_SPY = _effect("spy")
FX_SPECIAL = _effect("special")
FX_SPECIAL_FOOD = _effect("special-food")
FX_FLIP = _effect("flip")
FX_STEAL = _effect("steal")
FX_NOTHING = _effect("nothing")
FX_AWAKEN = _effect("awaken")
FX_RING = _effect("ring-rotate")

# ---------------------------------------------------------------------------- tiles
# Tiles: kind -> (front effect, back effect); back of a temporary tile is the Desert.
TILE_KIND_NAMES = COMPONENTS.tile_kind_names
(
    T_FOOD, T_MIL, T_DRAW, T_SPECIAL, T_TEMP_FOOD, T_TEMP_MIL, T_TEMP_DRAW, T_TEMP_UPGRADE,
    T_TEMP_SPECIAL,
) = (
    _named(TILE_KIND_NAMES, name, "tile kind")
    for name in ("food", "military", "draw", "special", "temp-food", "temp-military",
                 "temp-draw", "temp-upgrade", "temp-special")
)  # fmt: skip
TILE_KIND_FX = COMPONENTS.tile_kind_fx
# The 16 tiles of a grid (ids 0..15) and their kinds.
TILE_KIND = COMPONENTS.tile_kind
TILE_PERMANENT = tuple(COMPONENTS.tile_kind_permanent[kind] for kind in TILE_KIND)
TILE_NAMES = COMPONENTS.tile_names
TILE_BY_NAME = {name: i for i, name in enumerate(TILE_NAMES)}
TILE_FACE_NAMES = ("front", "back")
TILE_FACE_BY_NAME = {name: i for i, name in enumerate(TILE_FACE_NAMES)}

# ---------------------------------------------------------------------------- MV tokens
MV_SYMBOLS = dict(zip(MV_TOKENS, COMPONENTS.mv_symbols, strict=True))
MV_FX = dict(zip(MV_TOKENS, COMPONENTS.mv_fx, strict=True))

# ---------------------------------------------------------------------------- clan cards
_CARDS = COMPONENTS.cards
CARD_NAMES: list[str] = [card.id for card in _CARDS]
CARD_CLAN: list[int] = [card.clan for card in _CARDS]
CARD_FACES: list[tuple[int, int]] = [card.faces for card in _CARDS]  # NONE: a blank face
CARD_FOOD_COST: list[int] = [card.food_cost for card in _CARDS]  # -1: not paid in Food
CARD_CARD_COST: list[int] = [card.card_cost for card in _CARDS]  # Cats: cards put under the deck
CARD_TEXT: list[str] = [card.text for card in _CARDS]
CARD_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def _only_card(what: str, found: list[int]) -> int:
    """The one card the rules single out as `what`."""
    if len(found) != 1:
        raise ComponentDataError("$.cards", f"the rules need exactly one {what}")
    return found[0]


def _card_with(key: str, value: object) -> int:
    """The one card whose field `key` is `value` (a Ring's colour, a Portal's number, ...)."""
    found = [c for c, card in enumerate(_CARDS) if getattr(card, key) == value]
    return _only_card(f"card with {key} {value!r}", found)


def _card_with_effect(name: str) -> int:
    """The one card with the effect `name` on a face."""
    fx = _effect(name)
    found = [c for c, card in enumerate(_CARDS) if fx in card.faces]
    return _only_card(f"card with the effect {name!r}", found)


CAT_COPY = _card_with_effect("copy")
CAT_SEARCH = _card_with_effect("search-ring")
RING_RED, RING_BLUE, RING_PURPLE, RING_ORANGE = (_card_with("ring", c) for c in RING_COLOURS)
RINGS = (RING_RED, RING_BLUE, RING_PURPLE, RING_ORANGE)

# Panda levels: 0 none, 1 Bronze, 2 Silver, 3 Gold.
NO_LEVEL, BRONZE, SILVER, GOLD = range(len(PANDA_LEVELS))
PANDA_LEVEL: dict[int, int] = {
    c: card.level for c, card in enumerate(_CARDS) if card.level is not None
}
PANDA_KING = _card_with("role", "king")
PANDA_QUEEN = _card_with("role", "queen")

PORTAL_1, PORTAL_2, PORTAL_3, PORTAL_4 = (_card_with("portal", n) for n in PORTAL_NUMBERS)
PORTALS = (PORTAL_1, PORTAL_2, PORTAL_3, PORTAL_4)

CLAN_CARDS = tuple(
    tuple(c for c in range(CARD_COUNT) if CARD_CLAN[c] == clan) for clan in range(len(CLAN_NAMES))
)
CAT_ROTATING = frozenset(c for c in CLAN_CARDS[CATS] if c not in RINGS)
SILVER_GOLD = frozenset(c for c, level in PANDA_LEVEL.items() if level >= SILVER)
# Cards never played in Organization or by a discounted play.
NOT_PLAYABLE = frozenset(RINGS) | SILVER_GOLD

# Clan special activation (crystal), by clan.
SPECIAL_FX = COMPONENTS.clan_special

# Item names (cards, Action tiles, MV tokens) in the one id space.
ITEM_NAMES = tuple(CARD_NAMES) + COMPONENTS.action_tile_names + COMPONENTS.mv_names
ITEM_BY_NAME = {name: i for i, name in enumerate(ITEM_NAMES)}
