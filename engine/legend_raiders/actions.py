"""Action encoding: every decision and chance outcome is one small int.

Decisions: prepare a column; take a face-up card / the deck's top card / no card; discard a tile
or a tool; complete a tile (with or without the torch, and which tool the torch replaces); stop;
keep the roll; use a Die card (dice: the face set; diceless: the effect). Chance outcomes: a die
face, a tool drawn from the bag, a tile revealed from the stack, an Expedition card revealed.
"""

from __future__ import annotations

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import FACE_KINDS

N_TOOLS = len(C.tool_ids)
N_TILES = len(C.tile_ids)
N_CARDS = len(C.card_ids)
N_COLUMNS = C.hq_columns
N_ROW = C.face_up_cards
TORCH_OPTIONS = N_TOOLS + 1  # 0: no torch; 1 + t: the torch replaces one tool of type t

# Kinds of action.
PREPARE, TAKE_ROW, TAKE_DECK, NO_CARD, DISCARD_TILE, DISCARD_TOOL = 0, 1, 2, 3, 4, 5
COMPLETE, STOP, KEEP_ROLL, DIE_CARD = 6, 7, 8, 9
ROLL_FACE, DRAW_TOOL, REVEAL_TILE, REVEAL_CARD = 10, 11, 12, 13

PREPARE_BASE = 0
ROW_BASE = PREPARE_BASE + N_COLUMNS
TAKE_DECK_ACTION = ROW_BASE + N_ROW
NO_CARD_ACTION = TAKE_DECK_ACTION + 1
DISCARD_TILE_BASE = NO_CARD_ACTION + 1
DISCARD_TOOL_BASE = DISCARD_TILE_BASE + N_TILES
COMPLETE_BASE = DISCARD_TOOL_BASE + N_TOOLS
STOP_ACTION = COMPLETE_BASE + N_TILES * TORCH_OPTIONS
KEEP_ROLL_ACTION = STOP_ACTION + 1
DIE_BASE = KEEP_ROLL_ACTION + 1
ROLL_BASE = DIE_BASE + len(FACE_KINDS)
TOOL_BASE = ROLL_BASE + len(FACE_KINDS)
TILE_BASE = TOOL_BASE + N_TOOLS
CARD_BASE = TILE_BASE + N_TILES
N_ACTIONS = CARD_BASE + N_CARDS

# Die-card effects in the diceless variant share the face indices: tools, torch, coin.
EFFECT_TOOLS, EFFECT_TORCH, EFFECT_COIN = 0, 1, 2
EFFECT_NAMES = ("tools", "torch", "coin")


def _tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    kind: list[int] = []
    arg: list[int] = []
    arg2: list[int] = []

    def add(k: int, a: int = 0, b: int = 0) -> None:
        kind.append(k)
        arg.append(a)
        arg2.append(b)

    for c in range(N_COLUMNS):
        add(PREPARE, c)
    for k in range(N_ROW):
        add(TAKE_ROW, k)
    add(TAKE_DECK)
    add(NO_CARD)
    for i in range(N_TILES):
        add(DISCARD_TILE, i)
    for t in range(N_TOOLS):
        add(DISCARD_TOOL, t)
    for i in range(N_TILES):
        for o in range(TORCH_OPTIONS):
            add(COMPLETE, i, o)
    add(STOP)
    add(KEEP_ROLL)
    for f in range(len(FACE_KINDS)):
        add(DIE_CARD, f)
    for f in range(len(FACE_KINDS)):
        add(ROLL_FACE, f)
    for t in range(N_TOOLS):
        add(DRAW_TOOL, t)
    for i in range(N_TILES):
        add(REVEAL_TILE, i)
    for j in range(N_CARDS):
        add(REVEAL_CARD, j)
    assert len(kind) == N_ACTIONS
    return tuple(kind), tuple(arg), tuple(arg2)


ACTION_KIND, ACTION_ARG, ACTION_ARG2 = _tables()
"""Per action int: its kind, its first argument, its second argument (torch option)."""


def complete_action(tile: int, torch_option: int = 0) -> int:
    """The action completing `tile`; `torch_option` 0 = no torch, 1 + t = torch replaces t."""
    return COMPLETE_BASE + tile * TORCH_OPTIONS + torch_option
