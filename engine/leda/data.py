"""All LEDA component data: clans, tiles, Action tiles and zones, MV tokens, the 46 clan cards."""

from __future__ import annotations

# ---------------------------------------------------------------------------- clans
CATS, PANDAS, SHARKS, SCORPIONS = 0, 1, 2, 3
CLAN_NAMES = ("cats", "pandas", "sharks", "scorpions")
CLAN_BY_NAME = {name: i for i, name in enumerate(CLAN_NAMES)}
MV_THRESHOLD = (8, 7, 9, 6)
STARTING_HAND = 3
STARTING_FOOD = 1
SHARK_TOKENS = 9

# ---------------------------------------------------------------------------- squares
SQUARES = 16
SQUARE_NAMES = tuple(f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5))
SQUARE_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}
CORNERS = (0, 3, 12, 15)


def _neighbours(sq: int) -> tuple[int, ...]:
    r, c = divmod(sq, 4)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 4 and 0 <= cc < 4:
            out.append(rr * 4 + cc)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(sq) for sq in range(SQUARES))

# ---------------------------------------------------------------------------- zones
ZONE_NAMES = (
    "row1", "row2", "row3", "row4",
    "col1", "col2", "col3", "col4",
    "square-tl", "square-tr", "square-bl", "square-br",
    "corners", "centre",
)  # fmt: skip
ZONE_BY_NAME = {name: i for i, name in enumerate(ZONE_NAMES)}


def _zone_squares(z: int) -> tuple[int, ...]:
    if z < 4:
        return tuple(z * 4 + c for c in range(4))
    if z < 8:
        return tuple(r * 4 + (z - 4) for r in range(4))
    if z < 12:
        r0, c0 = ((0, 0), (0, 2), (2, 0), (2, 2))[z - 8]
        return (r0 * 4 + c0, r0 * 4 + c0 + 1, (r0 + 1) * 4 + c0, (r0 + 1) * 4 + c0 + 1)
    if z == 12:
        return CORNERS
    return (5, 6, 9, 10)


ZONE_SQUARES = tuple(_zone_squares(z) for z in range(len(ZONE_NAMES)))
ZONE_MASKS = tuple(sum(1 << sq for sq in squares) for squares in ZONE_SQUARES)

# ---------------------------------------------------------------------------- items
# One id space for every hidden item, so a seat's knowledge is a set of ids.
CARD_COUNT = 46
ACTION_TILE_BASE = 46  # action-1 .. action-5
ACTION_TILES = tuple(range(ACTION_TILE_BASE, ACTION_TILE_BASE + 5))
MV_BASE = 51  # mv-1 .. mv-18
MV_TOKENS = tuple(range(MV_BASE, MV_BASE + 18))
ITEM_COUNT = MV_BASE + 18

ACTION_TILE_ZONES = {
    ACTION_TILE_BASE + 0: (0, 4, 8),
    ACTION_TILE_BASE + 1: (1, 5, 9),
    ACTION_TILE_BASE + 2: (2, 6, 10),
    ACTION_TILE_BASE + 3: (3, 7, 11),
    ACTION_TILE_BASE + 4: (12, 13),
}

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
) = range(37)  # fmt: skip

EFFECTS: list[tuple[tuple[int, ...], ...]] = []
EFFECT_TEXT: list[str] = []


def _fx(text: str, *ops: tuple[int, ...]) -> int:
    EFFECTS.append(tuple(ops))
    EFFECT_TEXT.append(text)
    return len(EFFECTS) - 1


def _or(text: str, a: int, b: int) -> int:
    return _fx(text, (OP_OR, a, b))


NONE = -1  # a blank face

FX_FOOD1 = _fx("1 Food", (OP_FOOD, 1))
FX_FOOD2 = _fx("2 Food", (OP_FOOD, 2))
FX_MIL1 = _fx("1 Military", (OP_MIL, 1))
FX_MIL2 = _fx("2 Military", (OP_MIL, 2))
FX_DRAW1 = _fx("Draw 1", (OP_DRAW, 1))
FX_DRAW2 = _fx("Draw 2", (OP_DRAW, 2))
FX_UPGRADE = _fx("Upgrade 1 tile", (OP_UPGRADE,))
FX_SPY = _fx("Spy", (OP_SPY,))
FX_SPECIAL = _fx("Special activation", (OP_SPECIAL,))
FX_SPECIAL_FOOD = _fx("Special activation + 1 Food", (OP_SPECIAL,), (OP_FOOD, 1))
FX_FLIP = _fx("Flip one of your Deserts", (OP_FLIP,))
FX_STEAL = _fx("Steal 1 Food", (OP_STEAL,))
FX_NOTHING = _fx("nothing")
FX_AWAKEN = _fx("1 Awakening", (OP_AWAKEN,))

# Tiles: kind -> (front effect, back effect); back of a temporary tile is the Desert.
(
    T_FOOD, T_MIL, T_DRAW, T_SPECIAL, T_TEMP_FOOD, T_TEMP_MIL, T_TEMP_DRAW, T_TEMP_UPGRADE,
    T_TEMP_SPECIAL,
) = range(9)  # fmt: skip
TILE_KIND_NAMES = (
    "food", "military", "draw", "special",
    "temp-food", "temp-military", "temp-draw", "temp-upgrade", "temp-special",
)  # fmt: skip
TILE_KIND_FX = (
    (FX_FOOD1, FX_FOOD2),
    (FX_MIL1, FX_MIL2),
    (FX_DRAW1, FX_DRAW2),
    (FX_SPECIAL, FX_SPECIAL_FOOD),
    (FX_FOOD1, NONE),
    (FX_MIL1, NONE),
    (FX_DRAW1, NONE),
    (FX_UPGRADE, NONE),
    (FX_SPECIAL, NONE),
)
# The 16 tiles of a grid (ids 0..15) and their kinds.
TILE_KIND = (
    T_FOOD, T_FOOD, T_FOOD, T_FOOD, T_MIL, T_MIL, T_DRAW, T_SPECIAL,
    T_TEMP_FOOD, T_TEMP_FOOD, T_TEMP_FOOD, T_TEMP_FOOD, T_TEMP_MIL, T_TEMP_DRAW,
    T_TEMP_UPGRADE, T_TEMP_SPECIAL,
)  # fmt: skip
TILE_PERMANENT = tuple(kind <= T_SPECIAL for kind in TILE_KIND)


def _tile_names() -> tuple[str, ...]:
    names = []
    for tid, kind in enumerate(TILE_KIND):
        base = TILE_KIND_NAMES[kind]
        same = [t for t, k in enumerate(TILE_KIND) if k == kind]
        names.append(base if len(same) == 1 else f"{base}-{same.index(tid) + 1}")
    return tuple(names)


TILE_NAMES = _tile_names()
TILE_BY_NAME = {name: i for i, name in enumerate(TILE_NAMES)}
TILE_FACE_NAMES = ("front", "back")
TILE_FACE_BY_NAME = {name: i for i, name in enumerate(TILE_FACE_NAMES)}

# ---------------------------------------------------------------------------- MV tokens
# (symbols, effect) for mv-1 .. mv-18 in the order of the spec's table.
_MV_SPEC = (
    [(1, FX_NOTHING)] * 3
    + [(2, FX_NOTHING)] * 2
    + [(1, FX_SPY)] * 2
    + [(1, FX_FLIP)] * 2
    + [(1, FX_UPGRADE)] * 3
    + [(1, FX_FOOD1)] * 2
    + [(1, FX_STEAL)] * 2
    + [(1, FX_DRAW1)] * 2
)
MV_SYMBOLS = {MV_BASE + i: sym for i, (sym, _) in enumerate(_MV_SPEC)}
MV_FX = {MV_BASE + i: fx for i, (_, fx) in enumerate(_MV_SPEC)}

# ---------------------------------------------------------------------------- clan cards
CARD_NAMES: list[str] = []
CARD_CLAN: list[int] = []
CARD_FACES: list[tuple[int, int]] = []  # (face 0, face 1); NONE = blank
CARD_FOOD_COST: list[int] = []  # -1: not paid in Food (card cost, Portal, or not playable)
CARD_CARD_COST: list[int] = []  # Cats: cards put under the deck
CARD_TEXT: list[str] = []


def _card(clan: int, n: int, cost: int, faces: tuple[int, int], text: str, cards: int = 0) -> int:
    CARD_NAMES.append(f"{CLAN_NAMES[clan][:-1]}-{n}")
    CARD_CLAN.append(clan)
    CARD_FACES.append(faces)
    CARD_FOOD_COST.append(cost)
    CARD_CARD_COST.append(cards)
    CARD_TEXT.append(text)
    return len(CARD_NAMES) - 1


# Cats (ids 0..12): 9 rotating cards then the Red, Blue, Purple, Orange Rings.
CAT_COPY = _card(CATS, 1, -1, (_fx("Copy", (OP_COPY,)), FX_DRAW2), "Copy | Draw 2", cards=3)
CAT_SEARCH = _card(CATS, 2, 2, (_fx("Search a Ring", (OP_SEARCH_RING,)), NONE), "Search | -")
_card(CATS, 3, -1, (FX_UPGRADE, _fx("Activate a tile", (OP_ACT_TILE,))), "Upgrade | Activate", 2)
_card(
    CATS, 4, 7,
    (_fx("1 Military per card in hand", (OP_MIL_PER_HAND,)),
     _fx("1 Food per card in hand", (OP_FOOD_PER_HAND,))),
    "Military per card | Food per card",
)  # fmt: skip
_card(CATS, 5, 4, (_fx("Spy; Draw 1", (OP_SPY,), (OP_DRAW, 1)), NONE), "Spy; Draw 1 | -")
_card(CATS, 6, 5, (_fx("Ring for an MV token", (OP_RING_FOR_MV,)), NONE), "Ring -> MV | -")
_card(CATS, 7, -1, (_fx("1 Food; 1 Military", (OP_FOOD, 1), (OP_MIL, 1)), NONE), "F; M | -", 1)
_card(CATS, 8, 5, (_fx("Draw 1; 1 Food", (OP_DRAW, 1), (OP_FOOD, 1)), NONE), "Draw; Food | -")
_card(CATS, 9, 6, (FX_MIL2, FX_UPGRADE), "2 Military | Upgrade")
FX_RING = _fx("You may rotate one of your Cat cards", (OP_RING_ROTATE,))
RING_RED = _card(CATS, 10, -1, (FX_RING, NONE), "Red Ring")
RING_BLUE = _card(CATS, 11, -1, (FX_RING, NONE), "Blue Ring")
RING_PURPLE = _card(CATS, 12, -1, (FX_RING, NONE), "Purple Ring")
RING_ORANGE = _card(CATS, 13, -1, (FX_RING, NONE), "Orange Ring")
RINGS = (RING_RED, RING_BLUE, RING_PURPLE, RING_ORANGE)

# Pandas (ids 13..23). Level: 0 none, 1 Bronze, 2 Silver, 3 Gold.
NO_LEVEL, BRONZE, SILVER, GOLD = 0, 1, 2, 3
_pandas = (
    (NO_LEVEL, 5, _fx("Draw 1; Special activation", (OP_DRAW, 1), (OP_SPECIAL,))),
    (BRONZE, 5, FX_UPGRADE),
    (BRONZE, 5, _or("1 Food or 1 Military", FX_FOOD1, FX_MIL1)),
    (BRONZE, 5, _fx("1 Food; may play a Panda at 1 less", (OP_FOOD, 1), (OP_PLAY_DISCOUNT, 1, 1))),
    (BRONZE, 5, _or("Draw 1 or 1 Military", FX_DRAW1, FX_MIL1)),
    (BRONZE, 5, _fx("1 Food; Spy", (OP_FOOD, 1), (OP_SPY,))),
    (SILVER, -1, FX_MIL2),
    (SILVER, -1, _fx("1 Military; Upgrade", (OP_MIL, 1), (OP_UPGRADE,))),
    (SILVER, -1, _fx("Spy; may play a Panda at 2 less", (OP_SPY,), (OP_PLAY_DISCOUNT, 2, 1))),
    (GOLD, -1, _fx("2 Military; draw an MV token", (OP_MIL, 2), (OP_DRAW_MV,))),
    (GOLD, -1, _fx("Activate another Panda card", (OP_QUEEN,))),
)
PANDA_LEVEL: dict[int, int] = {}
for _n, (_level, _cost, _face) in enumerate(_pandas, start=1):
    PANDA_LEVEL[_card(PANDAS, _n, _cost, (_face, NONE), EFFECT_TEXT[_face])] = _level
PANDA_KING = CARD_NAMES.index("panda-10")
PANDA_QUEEN = CARD_NAMES.index("panda-11")

# Sharks (ids 24..34): (cost, normal, Pack).
_sharks = (
    (6, FX_UPGRADE, _fx("Activate a tile, then upgrade it", (OP_ACT_TILE_UPGRADE,))),
    (6, FX_SPY, _fx("1 Military; retrigger an MV token", (OP_MIL, 1), (OP_RETRIGGER_MV,))),
    (3, NONE, _fx("MV token under the pile, draw one", (OP_MV_UNDER_DRAW,))),
    (5, FX_MIL1, FX_MIL2),
    (4, FX_MIL1, _fx("1 Military; Draw 1", (OP_MIL, 1), (OP_DRAW, 1))),
    (7, FX_MIL2, _fx("1 Military per adjacent Shark token", (OP_MIL_PER_ADJ_TOKEN,))),
    (7, NONE, _fx("Draw an MV token", (OP_DRAW_MV,))),
    (5, FX_FOOD1, _fx("May play a card at 2 less", (OP_PLAY_DISCOUNT, 2, 0))),
    (
        7,
        _fx("1 Food per pair of MV tokens", (OP_FOOD_PER_MV_PAIR,)),
        _fx("1 Food per MV token", (OP_FOOD_PER_MV,)),
    ),
    (3, NONE, _fx("Place a Shark token", (OP_PLACE_TOKEN,))),
    (3, NONE, FX_SPY),
)
for _n, (_cost, _normal, _pack) in enumerate(_sharks, start=1):
    _normal_text = EFFECT_TEXT[_normal] if _normal != NONE else "-"
    _card(SHARKS, _n, _cost, (_normal, _pack), f"{_normal_text} | Pack: {EFFECT_TEXT[_pack]}")

# Scorpions (ids 35..45): 7 cards then Portals P1..P4 (cost 9 minus a counter).
_scorpions = (
    (3, _fx("1 Food per pair of Deserts", (OP_FOOD_PER_DESERT_PAIR,))),
    (3, _fx("1 Military per pair of Deserts", (OP_MIL_PER_DESERT_PAIR,))),
    (3, _fx("Draw 1; 1 Food", (OP_DRAW, 1), (OP_FOOD, 1))),
    (3, _fx("May play a card at 1 less per Desert pair", (OP_DISCOUNT_DESERT_PAIRS,))),
    (3, _fx("Activate a Desert's reminded effect", (OP_DESERT_FX,))),
    (4, _fx("Upgrade a tile, then activate it", (OP_UPGRADE_ACTIVATE,))),
    (2, _fx("1 Food; Portal bonuses", (OP_FOOD, 1), (OP_PORTAL_BONUS,))),
    (-1, _fx("Spy twice", (OP_SPY2,))),
    (-1, _fx("The opponent downgrades a tile", (OP_DOWNGRADE_OPP,))),
    (-1, _fx("Swap 2 of your squares", (OP_SWAP,))),
    (-1, _fx("No MV token this round", (OP_BLOCK_MV,))),
)
for _n, (_cost, _face) in enumerate(_scorpions, start=1):
    _card(SCORPIONS, _n, _cost, (_face, NONE), EFFECT_TEXT[_face])
PORTAL_1, PORTAL_2, PORTAL_3, PORTAL_4 = (CARD_NAMES.index(f"scorpion-{n}") for n in (8, 9, 10, 11))
PORTALS = (PORTAL_1, PORTAL_2, PORTAL_3, PORTAL_4)

CARD_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}
CLAN_CARDS = tuple(tuple(c for c in range(CARD_COUNT) if CARD_CLAN[c] == clan) for clan in range(4))
CAT_ROTATING = frozenset(c for c in CLAN_CARDS[CATS] if c not in RINGS)
SILVER_GOLD = frozenset(c for c, level in PANDA_LEVEL.items() if level >= SILVER)
# Cards never played in Organization or by a discounted play.
NOT_PLAYABLE = frozenset(RINGS) | SILVER_GOLD

# Clan special activation (crystal): Cats Draw 1, Pandas Food or Awakening, Sharks 2 Military,
# Scorpions Spy.
SPECIAL_FX = (FX_DRAW1, _or("1 Food or 1 Awakening", FX_FOOD1, FX_AWAKEN), FX_MIL2, FX_SPY)

# Item names (cards, Action tiles, MV tokens) in the one id space.
ITEM_NAMES = (
    tuple(CARD_NAMES)
    + tuple(f"action-{i + 1}" for i in range(5))
    + tuple(f"mv-{i + 1}" for i in range(18))
)
ITEM_BY_NAME = {name: i for i, name in enumerate(ITEM_NAMES)}

assert len(CARD_NAMES) == CARD_COUNT
assert [len(CLAN_CARDS[c]) for c in range(4)] == [13, 11, 11, 11]
assert sum(MV_SYMBOLS.values()) == 20
