//! Primitive state changes (Food, draws, tiles, cards, MV tokens) keeping what each seat knows
//! in step: the twin of `engine/leda/moves.py`.
//!
//! Each works in place on a state the caller owns (a clone of the previous one): a player is
//! changed through [`LedaState::player_mut`], so a player shared with another state is copied
//! first and nothing another state sees changes.

use super::bounds::{FOOD_MAX, MILITARY_MAX};
use super::data::{CARDS, MV_BASE, MV_FX, SHARKS};
use super::frames::F_EFFECT;
use super::state::{Frame, ItemSet, LedaState};

/// Push `frame` on top of the pending work.
pub fn push(s: &mut LedaState, kind: u8, seat: usize, args: &[i32]) {
    s.stack.push(Frame::of(kind, seat, args));
}

/// Drop the top frame.
pub fn pop(s: &mut LedaState) {
    s.stack.pop();
}

/// Both seats lose track of `items` (they moved somewhere hidden, or became public).
pub fn forget(s: &mut LedaState, items: ItemSet) {
    for known in &mut s.known {
        known.0 &= !items.0;
    }
}

/// `seat` now knows where `item` is.
pub fn learn(s: &mut LedaState, seat: usize, item: usize) {
    s.known[seat].insert(item);
}

/// `seat` no longer tracks `item` (e.g. it is now in its own hand, known implicitly).
pub fn unlearn(s: &mut LedaState, seat: usize, item: usize) {
    s.known[seat].remove(item);
}

/// Seat gains `n` Food, holding at most [`FOOD_MAX`] (the rest is lost: a Ruling).
pub fn gain_food(s: &mut LedaState, seat: usize, n: u32) {
    let food = s.player(seat).food.saturating_add(n).min(FOOD_MAX);
    if food != s.player(seat).food {
        s.player_mut(seat).food = food;
    }
}

/// Seat gains `n` Military for this round's conflict, up to [`MILITARY_MAX`] (a Ruling).
pub fn gain_military(s: &mut LedaState, seat: usize, n: u32) {
    let military = s.player(seat).military.saturating_add(n).min(MILITARY_MAX);
    if military != s.player(seat).military {
        s.player_mut(seat).military = military;
    }
}

/// Seat draws `n` cards (an empty deck gives nothing).
pub fn draw(s: &mut LedaState, seat: usize, n: u32) {
    for _ in 0..n {
        if s.player(seat).deck.is_empty() {
            break;
        }
        let p = s.player_mut(seat);
        let Some(card) = p.deck.remove(0) else { break };
        p.hand.push(card);
        unlearn(s, seat, card);
    }
}

/// Seat takes 1 Food from the opponent, if they have any.
pub fn steal_food(s: &mut LedaState, seat: usize) {
    if s.player(1 - seat).food == 0 {
        return;
    }
    s.player_mut(1 - seat).food -= 1;
    gain_food(s, seat, 1);
}

/// Turn the tile of a square to a face (0 front, 1 back: upgraded or Desert).
pub fn set_tile_face(s: &mut LedaState, seat: usize, sq: usize, face: u8) {
    s.player_mut(seat).grid[sq].face = face;
}

/// Put a card from hand on top of a square (a Shark card brings a token if it has none).
pub fn place_card(s: &mut LedaState, seat: usize, card: usize, sq: usize) {
    let p = s.player_mut(seat);
    p.hand.remove_item(card);
    let square = &mut p.grid[sq];
    square.cards.push(card);
    square.token |= CARDS[card].clan == SHARKS;
    forget(s, single(card));
}

/// Put a card from hand at the bottom of its owner's deck (face down unless revealed).
pub fn put_under_deck(s: &mut LedaState, seat: usize, card: usize, revealed: bool) {
    let p = s.player_mut(seat);
    p.hand.remove_item(card);
    p.deck.push(card);
    learn(s, seat, card);
    if revealed {
        learn(s, 1 - seat, card);
    } else {
        unlearn(s, 1 - seat, card);
    }
}

/// The top card of a square goes back to its owner's hand, seen by both.
pub fn return_to_hand(s: &mut LedaState, seat: usize, sq: usize) {
    let p = s.player_mut(seat);
    let Some(card) = p.grid[sq].cards.pop() else {
        return;
    };
    p.hand.push(card);
    learn(s, 1 - seat, card);
}

/// Exchange two squares with everything on them.
pub fn swap_squares(s: &mut LedaState, seat: usize, a: usize, b: usize) {
    s.player_mut(seat).grid.swap(a, b);
}

/// Seat draws the top MV token, keeps it and resolves its effect (unless blocked or empty).
pub fn gain_mv_token(s: &mut LedaState, seat: usize) {
    if s.blocked {
        return;
    }
    let Some(token) = s.mv_pile.remove(0) else {
        return;
    };
    s.player_mut(seat).mv.push(token);
    forget(s, single(token));
    push(s, F_EFFECT, seat, &[MV_FX[token - MV_BASE], 0, -1]);
}

/// The set of one item.
pub fn single(item: usize) -> ItemSet {
    let mut set = ItemSet::EMPTY;
    set.insert(item);
    set
}
