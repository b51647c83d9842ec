"""Resolution of effect ops: each op changes the state or pushes the decision it needs."""

from __future__ import annotations

from collections.abc import Callable

from boardbot.engine.leda import board
from boardbot.engine.leda.bounds import SPECIALS_MAX
from boardbot.engine.leda.data import (
    CAT_ROTATING,
    EFFECTS,
    FX_MIL1,
    NONE,
    OP_ACT_TILE,
    OP_ACT_TILE_UPGRADE,
    OP_AWAKEN,
    OP_BLOCK_MV,
    OP_COPY,
    OP_DESERT_FX,
    OP_DISCOUNT_DESERT_PAIRS,
    OP_DOWNGRADE_OPP,
    OP_DRAW,
    OP_DRAW_MV,
    OP_FLIP,
    OP_FOOD,
    OP_FOOD_PER_DESERT_PAIR,
    OP_FOOD_PER_HAND,
    OP_FOOD_PER_MV,
    OP_FOOD_PER_MV_PAIR,
    OP_MIL,
    OP_MIL_PER_ADJ_TOKEN,
    OP_MIL_PER_DESERT_PAIR,
    OP_MIL_PER_HAND,
    OP_MV_UNDER_DRAW,
    OP_OR,
    OP_PLACE_TOKEN,
    OP_PLAY_DISCOUNT,
    OP_PORTAL_BONUS,
    OP_QUEEN,
    OP_RETRIGGER_MV,
    OP_RING_FOR_MV,
    OP_RING_ROTATE,
    OP_SEARCH_RING,
    OP_SPECIAL,
    OP_SPY,
    OP_SPY2,
    OP_STEAL,
    OP_SWAP,
    OP_UPGRADE,
    OP_UPGRADE_ACTIVATE,
    TILE_KIND,
    TILE_KIND_FX,
    TILE_PERMANENT,
)
from boardbot.engine.leda.frames import (
    F_ACT_TILE,
    F_AWAKEN,
    F_COPY,
    F_DESERT_FX,
    F_DISCOUNT,
    F_DOWNGRADE,
    F_EFFECT,
    F_FLIP,
    F_MV_UNDER,
    F_OR,
    F_PLACE_TOKEN,
    F_QUEEN,
    F_RETRIGGER,
    F_RING_REVEAL,
    F_RING_ROTATE,
    F_ROTATE_CARD,
    F_SEARCH_RING,
    F_SPY_PILE,
    F_SWAP,
    F_UPGRADE,
)
from boardbot.engine.leda.moves import draw as draw_cards
from boardbot.engine.leda.moves import gain_food, gain_military, gain_mv_token, push, set_tile_face
from boardbot.engine.leda.moves import steal_food as steal
from boardbot.engine.leda.state import LedaState, set_player, set_stack

Op = tuple[int, ...]
OpHandler = Callable[[LedaState, int, Op, int], LedaState]


def activate_square(state: LedaState, seat: int, sq: int) -> LedaState:
    """Push the activation of a square's top item (a card's live face or the tile)."""
    p = state.players[seat]
    square = p.grid[sq]
    if square.cards:
        card = square.cards[-1]
        fx = board.card_live_fx(p, sq, card)
        if card in CAT_ROTATING:
            state = push(state, (F_ROTATE_CARD, seat, card))
        if fx != NONE:
            state = start_effect(state, seat, fx, sq)
        return state
    return activate_tile(state, seat, sq)


def activate_tile(state: LedaState, seat: int, sq: int) -> LedaState:
    """Push the activation of an uncovered tile; a temporary front turns into a Desert."""
    square = state.players[seat].grid[sq]
    fx = board.tile_live_fx(square)
    if fx == NONE:
        return state
    if not TILE_PERMANENT[square.tile]:
        state = set_tile_face(state, seat, sq, 1)
    return start_effect(state, seat, fx, sq)


def desert_reminder_fx(state: LedaState, seat: int, sq: int) -> int:
    """The front effect a Desert reminds."""
    return TILE_KIND_FX[TILE_KIND[state.players[seat].grid[sq].tile]][0]


def _food(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_food(state, seat, op[1])


def _mil(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_military(state, seat, op[1])


def _draw(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return draw_cards(state, seat, op[1])


def _special(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    p = state.players[seat]
    if p.specials >= SPECIALS_MAX:  # only a hand-made state gets here (see bounds.py)
        return state
    return set_player(state, seat, p._replace(specials=p.specials + 1))


def _steal(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return steal(state, seat)


def _or(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_OR, seat, op[1], op[2], sq))


def _frame(kind: int, *args: int) -> OpHandler:
    def handler(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
        """Push the decision frame of this op."""
        return push(state, (kind, seat, *args))

    return handler


def _spy(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_SPY_PILE, seat, -1, 0))


def _spy2(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_SPY_PILE, seat, -1, 1))


def _play_discount(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_DISCOUNT, seat, op[1], op[2]))


def _discount_desert_pairs(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_DISCOUNT, seat, board.desert_count(state.players[seat]) // 2, 0))


def _draw_mv(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_mv_token(state, seat)


def _queen(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_QUEEN, seat, sq))


def _copy(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_COPY, seat, sq))


def _mil_per_adj_token(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    n = board.adjacent_tokens(state.players[seat], sq) if sq >= 0 else 0
    return gain_military(state, seat, n)


def _food_per_mv_pair(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_food(state, seat, len(state.players[seat].mv) // 2)


def _food_per_mv(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_food(state, seat, len(state.players[seat].mv))


def _mil_per_hand(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_military(state, seat, len(state.players[seat].hand))


def _food_per_hand(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_food(state, seat, len(state.players[seat].hand))


def _food_per_desert_pair(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_food(state, seat, board.desert_count(state.players[seat]) // 2)


def _mil_per_desert_pair(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return gain_military(state, seat, board.desert_count(state.players[seat]) // 2)


def _portal_bonus(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    portals = board.portals_in_play(state.players[seat])
    # Pushed in reverse so that they resolve Spy, then Military, then the Desert.
    if portals >= 3:
        state = push(state, (F_DESERT_FX, seat))
    if portals >= 2:
        state = push(state, (F_EFFECT, seat, FX_MIL1, 0, sq))
    if portals >= 1:
        state = push(state, (F_SPY_PILE, seat, -1, 0))
    return state


def _block_mv(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return state._replace(blocked=True)


def _downgrade_opp(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_DOWNGRADE, 1 - seat))


def _awaken(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_AWAKEN, seat))


def _upgrade(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_UPGRADE, seat, 0))


def _upgrade_activate(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_UPGRADE, seat, 1))


def _act_tile(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_ACT_TILE, seat, 0))


def _act_tile_upgrade(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_ACT_TILE, seat, 1))


def _ring_for_mv(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_RING_REVEAL, seat))


def _mv_under_draw(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_MV_UNDER, seat))


def _retrigger(state: LedaState, seat: int, op: Op, sq: int) -> LedaState:
    return push(state, (F_RETRIGGER, seat))


OP_HANDLERS: dict[int, OpHandler] = {
    OP_FOOD: _food,
    OP_MIL: _mil,
    OP_DRAW: _draw,
    OP_UPGRADE: _upgrade,
    OP_SPY: _spy,
    OP_SPECIAL: _special,
    OP_FLIP: _frame(F_FLIP),
    OP_STEAL: _steal,
    OP_OR: _or,
    OP_PLAY_DISCOUNT: _play_discount,
    OP_DRAW_MV: _draw_mv,
    OP_QUEEN: _queen,
    OP_ACT_TILE_UPGRADE: _act_tile_upgrade,
    OP_RETRIGGER_MV: _retrigger,
    OP_MV_UNDER_DRAW: _mv_under_draw,
    OP_MIL_PER_ADJ_TOKEN: _mil_per_adj_token,
    OP_FOOD_PER_MV_PAIR: _food_per_mv_pair,
    OP_FOOD_PER_MV: _food_per_mv,
    OP_PLACE_TOKEN: _frame(F_PLACE_TOKEN),
    OP_COPY: _copy,
    OP_SEARCH_RING: _frame(F_SEARCH_RING),
    OP_ACT_TILE: _act_tile,
    OP_MIL_PER_HAND: _mil_per_hand,
    OP_FOOD_PER_HAND: _food_per_hand,
    OP_RING_FOR_MV: _ring_for_mv,
    OP_FOOD_PER_DESERT_PAIR: _food_per_desert_pair,
    OP_MIL_PER_DESERT_PAIR: _mil_per_desert_pair,
    OP_DISCOUNT_DESERT_PAIRS: _discount_desert_pairs,
    OP_DESERT_FX: _frame(F_DESERT_FX),
    OP_UPGRADE_ACTIVATE: _upgrade_activate,
    OP_PORTAL_BONUS: _portal_bonus,
    OP_SPY2: _spy2,
    OP_DOWNGRADE_OPP: _downgrade_opp,
    OP_SWAP: _frame(F_SWAP),
    OP_BLOCK_MV: _block_mv,
    OP_AWAKEN: _awaken,
    OP_RING_ROTATE: _frame(F_RING_ROTATE),
}


# Ops that never need a decision: an effect made only of them resolves at once, without a frame.
_IMMEDIATE_OPS = frozenset(
    {
        OP_FOOD, OP_MIL, OP_DRAW, OP_SPECIAL, OP_STEAL, OP_MIL_PER_ADJ_TOKEN, OP_FOOD_PER_MV_PAIR,
        OP_FOOD_PER_MV, OP_MIL_PER_HAND, OP_FOOD_PER_HAND, OP_FOOD_PER_DESERT_PAIR,
        OP_MIL_PER_DESERT_PAIR, OP_BLOCK_MV,
    }
)  # fmt: skip
IMMEDIATE_FX = frozenset(
    fx for fx, ops in enumerate(EFFECTS) if all(op[0] in _IMMEDIATE_OPS for op in ops)
)


def start_effect(state: LedaState, seat: int, fx: int, sq: int) -> LedaState:
    """Resolve an effect now when none of its ops needs a decision; else push its frame."""
    if fx in IMMEDIATE_FX:
        for op in EFFECTS[fx]:
            state = OP_HANDLERS[op[0]](state, seat, op, sq)
        return state
    return push(state, (F_EFFECT, seat, fx, 0, sq))


def run_effect_frame(state: LedaState, frame: tuple[int, ...]) -> LedaState:
    """Resolve the next op of an effect frame (the rest of the effect waits beneath)."""
    _, seat, fx, index, sq = frame
    ops = EFFECTS[fx]
    state = set_stack(state, state.stack[:-1])
    if index + 1 < len(ops):
        state = push(state, (F_EFFECT, seat, fx, index + 1, sq))
    if not ops:
        return state
    op = ops[index]
    return OP_HANDLERS[op[0]](state, seat, op, sq)
