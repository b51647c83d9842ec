"""Kinds of pending-work frames and of actions, with their names and arities.

A frame is a tuple `(kind, seat, *args)` of small ints. Automatic frames run by themselves;
decision frames wait for an action of `seat`; the chance frame waits for a shuffle outcome.
"""

from __future__ import annotations

from boardbot.engine.leda.bounds import CARD_COST_MAX, DISCOUNT_MAX, LARGEST_CLAN, OP_INDEX_MAX
from boardbot.engine.leda.data import ACTION_TILES, CARD_CLAN, EFFECTS, SQUARES

# ---- automatic frames
F_ROUND = 0  # (seat=active): reveal the Action tile, lay out the round
F_STEP = 1  # (seat): start seat's activation step
F_STEP_END = 2  # (seat): queued special activations, then the Ring window
F_CONFLICT = 3  # (seat=active)
F_ROUND_END = 4  # (seat=active)
F_EFFECT = 5  # (seat, effect, op index, square)
F_ROTATE_CARD = 6  # (seat, card): turn a Cat card after its face resolved
F_UPGRADE_SQ = 7  # (seat, square): upgrade that tile if still possible (Shark-1 Pack)
# ---- decision frames
F_MULLIGAN = 8  # (seat)
F_ZONE = 9  # (seat, action tile)
F_ACTIVATE = 10  # (seat, bit mask of squares not yet activated)
F_OR = 11  # (seat, effect a, effect b, square)
F_UPGRADE = 12  # (seat, then activate 0/1)
F_FLIP = 13  # (seat)
F_SPY_PILE = 14  # (seat, excluded pile or -1, another Spy follows 0/1)
F_SPY_PUT = 15  # (seat, pile, another Spy follows 0/1)
F_PLACE_TOKEN = 16  # (seat)
F_ACT_TILE = 17  # (seat, mode: 0 Cat-3 a tile with an effect, 1 Shark-1 any tile then upgrade)
F_DESERT_FX = 18  # (seat)
F_RETRIGGER = 19  # (seat)
F_MV_UNDER = 20  # (seat)
F_COPY = 21  # (seat, square of the Cat card)
F_RING_REVEAL = 22  # (seat)
F_SEARCH_RING = 23  # (seat)
F_RING_ROTATE = 24  # (seat)
F_DISCOUNT = 25  # (seat, discount, Panda cards only 0/1)
F_PAY = 26  # (seat, cards still to put under the deck)
F_AWAKEN = 27  # (seat)
F_QUEEN = 28  # (seat, square of the Queen)
F_DOWNGRADE = 29  # (seat = the opponent who chooses)
F_SWAP = 30  # (seat)
F_RINGS = 31  # (seat, window 0 end of step / 1 after the conflict, bit mask of Rings offered)
F_ORG = 32  # (seat)
# ---- chance
F_SHUFFLE = 33  # (seat, what: 0 mulligan, 1 deck, 2 Action tiles, cards to draw after)

FRAME_NAMES = (
    "round", "step", "step-end", "conflict", "round-end", "effect", "rotate-card", "upgrade-square",
    "mulligan", "zone", "activate", "or", "upgrade", "flip", "spy-pile", "spy-put", "place-token",
    "activate-tile", "desert-effect", "retrigger", "mv-under", "copy", "ring-reveal",
    "search-ring", "ring-rotate", "discount-play", "pay-cards", "awaken", "queen", "downgrade",
    "swap", "rings", "organization", "shuffle",
)  # fmt: skip
FRAME_BY_NAME = {name: i for i, name in enumerate(FRAME_NAMES)}
# The meaning of each frame's arguments (validated by the codec): fx effect id, op op index,
# sq square (-1 none), card, tile Action tile, mask16 squares bit mask, flag 0/1, pile, pile?
# pile or -1, discount Food off a play, cost cards still to pay, draw cards drawn after a
# shuffle, ringmask bit mask over the 4 Rings, what shuffle kind.
FRAME_ARGS: tuple[tuple[str, ...], ...] = (
    (), (), (), (), (), ("fx", "op", "sq"), ("card",), ("sq",),
    (), ("tile",), ("mask16",), ("fx", "fx", "sq"), ("flag",), (), ("pile?", "flag"),
    ("pile", "flag"), (), ("flag",), (), (), (), ("sq",), (), (), (), ("discount", "flag"),
    ("cost",), (), ("sq",), (), (), ("flag", "ringmask"), (),
    ("what", "draw"),
)  # fmt: skip
# The values each argument shape allows (inclusive bounds).
ARG_RANGES = {
    "sq": (-1, SQUARES - 1),
    "card": (0, len(CARD_CLAN) - 1),
    "tile": (min(ACTION_TILES), max(ACTION_TILES)),
    "mask16": (0, (1 << SQUARES) - 1),
    "flag": (0, 1),
    "pile?": (-1, 2),
    "pile": (0, 2),
    "discount": (0, DISCOUNT_MAX),
    "cost": (1, CARD_COST_MAX),
    "draw": (0, LARGEST_CLAN),
    "ringmask": (1, 15),
    "what": (0, 2),
    "fx": (0, len(EFFECTS) - 1),
    "op": (0, OP_INDEX_MAX),
}
AUTOMATIC = frozenset(range(F_MULLIGAN))
SHUFFLE_MULLIGAN, SHUFFLE_DECK, SHUFFLE_ACTIONS = 0, 1, 2
PILE_DECK, PILE_ACTIONS, PILE_MV = 0, 1, 2
PILE_NAMES = ("deck", "actions", "mv")

# ---- actions: (kind, *args)
(
    A_MULLIGAN, A_ZONE, A_ACTIVATE, A_CHOOSE, A_UPGRADE, A_FLIP, A_TOKEN, A_ACT_TILE, A_DESERT,
    A_COPY, A_ROTATE, A_DOWNGRADE, A_QUEEN, A_SPY, A_PUT, A_TAKE, A_REVEAL, A_PAY, A_RETRIGGER,
    A_UNDER, A_AWAKEN, A_RING, A_PLAY, A_FOOD, A_SWAP, A_SKIP, A_DONE, A_SHUFFLE,
) = range(28)  # fmt: skip
ACTION_NAMES = (
    "mulligan", "zone", "activate", "choose", "upgrade", "flip", "token", "activate-tile",
    "desert", "copy", "rotate", "downgrade", "queen", "spy", "put", "take", "reveal", "pay",
    "retrigger", "under", "awaken", "ring", "play", "food", "swap", "skip", "done", "shuffle",
)  # fmt: skip
ACTION_BY_NAME = {name: i for i, name in enumerate(ACTION_NAMES)}
# The argument shape of each action kind: sq square, card, token, pile, put, zone, opt, bool.
ACTION_ARGS: tuple[tuple[str, ...], ...] = (
    ("bool",), ("zone",), ("square",), ("option",), ("square",), ("square",), ("square",),
    ("square",), ("square",), ("square",), ("square",), ("square",), ("square",), ("pile",),
    ("put",), ("card",), ("card",), ("card",), ("token",), ("token",), ("card", "square"),
    ("card", "square"), ("card", "square"), (), ("square", "square"), (), (), ("order",),
)  # fmt: skip
