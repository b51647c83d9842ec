//! Resolution of effect ops (the twin of `engine/leda/ops.py`): each op changes the state or
//! pushes the decision it needs.

use super::board;
use super::bounds::SPECIALS_MAX;
use super::data::{
    is_cat_rotating, Op, EFFECTS, FX_MIL1, NONE, OP_ACT_TILE, OP_ACT_TILE_UPGRADE, OP_AWAKEN,
    OP_BLOCK_MV, OP_COPY, OP_DESERT_FX, OP_DISCOUNT_DESERT_PAIRS, OP_DOWNGRADE_OPP, OP_DRAW,
    OP_DRAW_MV, OP_FLIP, OP_FOOD, OP_FOOD_PER_DESERT_PAIR, OP_FOOD_PER_HAND, OP_FOOD_PER_MV,
    OP_FOOD_PER_MV_PAIR, OP_MIL, OP_MIL_PER_ADJ_TOKEN, OP_MIL_PER_DESERT_PAIR, OP_MIL_PER_HAND,
    OP_MV_UNDER_DRAW, OP_OR, OP_PLACE_TOKEN, OP_PLAY_DISCOUNT, OP_PORTAL_BONUS, OP_QUEEN,
    OP_RETRIGGER_MV, OP_RING_FOR_MV, OP_RING_ROTATE, OP_SEARCH_RING, OP_SPECIAL, OP_SPY, OP_SPY2,
    OP_STEAL, OP_SWAP, OP_UPGRADE, OP_UPGRADE_ACTIVATE, TILE_KIND, TILE_KIND_FX, TILE_PERMANENT,
};
use super::frames::{
    F_ACT_TILE, F_AWAKEN, F_COPY, F_DESERT_FX, F_DISCOUNT, F_DOWNGRADE, F_EFFECT, F_FLIP,
    F_MV_UNDER, F_OR, F_PLACE_TOKEN, F_QUEEN, F_RETRIGGER, F_RING_REVEAL, F_RING_ROTATE,
    F_ROTATE_CARD, F_SEARCH_RING, F_SPY_PILE, F_SWAP, F_UPGRADE,
};
use super::moves::{
    draw, gain_food, gain_military, gain_mv_token, pop, push, set_tile_face, steal_food,
};
use super::state::{Frame, LedaState};

/// Count as the `u32` amounts ops deal in.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Argument `i` of an op as an amount (0 when absent or negative).
fn amount(op: &Op, i: usize) -> u32 {
    op.args.get(i).map_or(0, |&v| u32::try_from(v).unwrap_or(0))
}

/// Argument `i` of an op as is.
fn arg(op: &Op, i: usize) -> i32 {
    op.args.get(i).copied().unwrap_or(0)
}

/// Resolve one op of seat's effect, activated from square `sq` (-1: none).
fn run_op(s: &mut LedaState, seat: usize, op: &Op, sq: i32) {
    let p = s.player(seat);
    match op.kind {
        OP_FOOD => gain_food(s, seat, amount(op, 0)),
        OP_MIL => gain_military(s, seat, amount(op, 0)),
        OP_DRAW => draw(s, seat, amount(op, 0)),
        OP_UPGRADE => push(s, F_UPGRADE, seat, &[0]),
        OP_UPGRADE_ACTIVATE => push(s, F_UPGRADE, seat, &[1]),
        OP_SPY => push(s, F_SPY_PILE, seat, &[-1, 0]),
        OP_SPY2 => push(s, F_SPY_PILE, seat, &[-1, 1]),
        // Only a hand-made state gets past the bound (see bounds.rs).
        OP_SPECIAL if p.specials < SPECIALS_MAX => s.player_mut(seat).specials += 1,
        OP_FLIP => push(s, F_FLIP, seat, &[]),
        OP_STEAL => steal_food(s, seat),
        OP_OR => push(s, F_OR, seat, &[arg(op, 0), arg(op, 1), sq]),
        OP_PLAY_DISCOUNT => push(s, F_DISCOUNT, seat, &[arg(op, 0), arg(op, 1)]),
        OP_DISCOUNT_DESERT_PAIRS => {
            let pairs = board::desert_count(p) / 2;
            push(s, F_DISCOUNT, seat, &[pairs as i32, 0]);
        }
        OP_DRAW_MV => gain_mv_token(s, seat),
        OP_QUEEN => push(s, F_QUEEN, seat, &[sq]),
        OP_COPY => push(s, F_COPY, seat, &[sq]),
        OP_ACT_TILE => push(s, F_ACT_TILE, seat, &[0]),
        OP_ACT_TILE_UPGRADE => push(s, F_ACT_TILE, seat, &[1]),
        OP_RETRIGGER_MV => push(s, F_RETRIGGER, seat, &[]),
        OP_MV_UNDER_DRAW => push(s, F_MV_UNDER, seat, &[]),
        OP_MIL_PER_ADJ_TOKEN => {
            let n = usize::try_from(sq).map_or(0, |sq| board::adjacent_tokens(p, sq));
            gain_military(s, seat, count(n));
        }
        OP_FOOD_PER_MV_PAIR => gain_food(s, seat, count(p.mv.len() / 2)),
        OP_FOOD_PER_MV => gain_food(s, seat, count(p.mv.len())),
        OP_MIL_PER_HAND => gain_military(s, seat, count(p.hand.len())),
        OP_FOOD_PER_HAND => gain_food(s, seat, count(p.hand.len())),
        OP_FOOD_PER_DESERT_PAIR => gain_food(s, seat, count(board::desert_count(p) / 2)),
        OP_MIL_PER_DESERT_PAIR => gain_military(s, seat, count(board::desert_count(p) / 2)),
        OP_PLACE_TOKEN => push(s, F_PLACE_TOKEN, seat, &[]),
        OP_SEARCH_RING => push(s, F_SEARCH_RING, seat, &[]),
        OP_RING_FOR_MV => push(s, F_RING_REVEAL, seat, &[]),
        OP_DESERT_FX => push(s, F_DESERT_FX, seat, &[]),
        OP_PORTAL_BONUS => {
            let portals = board::portals_in_play(p);
            // Pushed in reverse so that they resolve Spy, then Military, then the Desert.
            if portals >= 3 {
                push(s, F_DESERT_FX, seat, &[]);
            }
            if portals >= 2 {
                push(s, F_EFFECT, seat, &[FX_MIL1, 0, sq]);
            }
            if portals >= 1 {
                push(s, F_SPY_PILE, seat, &[-1, 0]);
            }
        }
        OP_DOWNGRADE_OPP => push(s, F_DOWNGRADE, 1 - seat, &[]),
        OP_SWAP => push(s, F_SWAP, seat, &[]),
        OP_BLOCK_MV => s.blocked = true,
        OP_AWAKEN => push(s, F_AWAKEN, seat, &[]),
        OP_RING_ROTATE => push(s, F_RING_ROTATE, seat, &[]),
        _ => {}
    }
}

/// True for an op that never needs a decision.
const fn is_immediate_op(kind: u8) -> bool {
    matches!(
        kind,
        OP_FOOD
            | OP_MIL
            | OP_DRAW
            | OP_SPECIAL
            | OP_STEAL
            | OP_MIL_PER_ADJ_TOKEN
            | OP_FOOD_PER_MV_PAIR
            | OP_FOOD_PER_MV
            | OP_MIL_PER_HAND
            | OP_FOOD_PER_HAND
            | OP_FOOD_PER_DESERT_PAIR
            | OP_MIL_PER_DESERT_PAIR
            | OP_BLOCK_MV
    )
}

/// The ops of effect `fx` (none for an id out of range).
fn ops_of(fx: i32) -> &'static [Op] {
    usize::try_from(fx)
        .ok()
        .and_then(|fx| EFFECTS.get(fx))
        .map_or(&[], |effect| effect.ops)
}

/// Resolve an effect now when none of its ops needs a decision; else push its frame.
pub fn start_effect(s: &mut LedaState, seat: usize, fx: i32, sq: i32) {
    let ops = ops_of(fx);
    if ops.iter().all(|op| is_immediate_op(op.kind)) {
        for op in ops {
            run_op(s, seat, op, sq);
        }
    } else {
        push(s, F_EFFECT, seat, &[fx, 0, sq]);
    }
}

/// Resolve the next op of the effect frame on top (the rest of the effect waits beneath).
pub fn run_effect_frame(s: &mut LedaState, frame: Frame) {
    let seat = usize::from(frame.seat);
    let (fx, index, sq) = (frame.arg(0), frame.arg(1), frame.arg(2));
    let ops = ops_of(fx);
    pop(s);
    let index = usize::try_from(index).unwrap_or(0);
    if index + 1 < ops.len() {
        push(s, F_EFFECT, seat, &[fx, index as i32 + 1, sq]);
    }
    if let Some(op) = ops.get(index) {
        run_op(s, seat, op, sq);
    }
}

/// Push the activation of a square's top item (a card's live face or the tile).
pub fn activate_square(s: &mut LedaState, seat: usize, sq: usize) {
    let p = s.player(seat);
    let Some(card) = p.grid[sq].cards.last() else {
        activate_tile(s, seat, sq);
        return;
    };
    let fx = board::card_live_fx(p, sq, card);
    if is_cat_rotating(card) {
        push(s, F_ROTATE_CARD, seat, &[card as i32]);
    }
    if fx != NONE {
        start_effect(s, seat, fx, sq as i32);
    }
}

/// Push the activation of an uncovered tile; a temporary front turns into a Desert.
pub fn activate_tile(s: &mut LedaState, seat: usize, sq: usize) {
    let square = s.player(seat).grid[sq];
    let fx = board::tile_live_fx(&square);
    if fx == NONE {
        return;
    }
    if !TILE_PERMANENT[usize::from(square.tile)] {
        set_tile_face(s, seat, sq, 1);
    }
    start_effect(s, seat, fx, sq as i32);
}

/// The front effect a Desert reminds.
pub fn desert_reminder_fx(s: &LedaState, seat: usize, sq: usize) -> i32 {
    TILE_KIND_FX[TILE_KIND[usize::from(s.player(seat).grid[sq].tile)]][0]
}
