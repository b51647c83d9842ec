//! The automatic frames of a round (the twin of `engine/leda/flow.py`): reveal, activation
//! steps, conflict, end of round.

use super::board;
use super::data::{
    ACTION_TILE_BASE, CATS, RINGS, RING_BLUE, RING_ORANGE, RING_PURPLE, RING_RED, SPECIAL_FX,
    ZONE_MASKS,
};
use super::frames::{
    F_ACTIVATE, F_CONFLICT, F_EFFECT, F_ORG, F_RINGS, F_ROTATE_CARD, F_ROUND, F_ROUND_END,
    F_SHUFFLE, F_STEP, F_STEP_END, F_UPGRADE_SQ, F_ZONE, SHUFFLE_ACTIONS,
};
use super::moves::{forget, gain_mv_token, pop, push, set_tile_face, single};
use super::ops::{run_effect_frame, start_effect};
use super::state::{ActionTiles, Frame, LedaState};

/// Bit mask over [`RINGS`] (red, blue, purple, orange) of the given Ring cards.
fn ring_mask(rings: &[usize]) -> i32 {
    rings
        .iter()
        .filter_map(|r| RINGS.iter().position(|x| x == r))
        .fold(0, |mask, i| mask | 1 << i)
}

/// True when `ring` lies anywhere on the grid (a mask from [`board::rings_on_grid`]).
fn on_grid(mask: u32, ring: usize) -> bool {
    RINGS
        .iter()
        .position(|&r| r == ring)
        .is_some_and(|i| mask >> i & 1 == 1)
}

/// Run the automatic frame on top; false when the top frame is not automatic.
pub fn run_automatic(s: &mut LedaState, frame: Frame) -> bool {
    match frame.kind {
        F_ROUND => round(s, frame),
        F_STEP => step(s, frame),
        F_STEP_END => step_end(s, frame),
        F_CONFLICT => conflict(s),
        F_ROUND_END => round_end(s, frame),
        F_EFFECT => run_effect_frame(s, frame),
        F_ROTATE_CARD => {
            pop(s);
            if let Ok(card) = usize::try_from(frame.arg(0)) {
                s.player_mut(usize::from(frame.seat)).rotated ^= 1 << card;
            }
        }
        F_UPGRADE_SQ => {
            pop(s);
            let (seat, sq) = (usize::from(frame.seat), frame.arg(0));
            if let Ok(sq) = usize::try_from(sq) {
                if board::is_upgradable(&s.player(seat).grid[sq]) {
                    set_tile_face(s, seat, sq, 1);
                }
            }
        }
        _ => return false,
    }
    true
}

/// Reveal the Action tile and lay out the round.
fn round(s: &mut LedaState, frame: Frame) {
    let seat = usize::from(frame.seat);
    pop(s);
    let Some(tile) = s.action_pile.remove(0) else {
        return;
    };
    s.revealed.push(tile);
    s.zone = -1;
    forget(s, single(tile));
    let other = 1 - seat;
    push(s, F_ROUND_END, seat, &[]);
    push(s, F_ORG, other, &[]);
    push(s, F_ORG, seat, &[]);
    push(s, F_CONFLICT, seat, &[]);
    push(s, F_STEP, other, &[]);
    push(s, F_STEP, seat, &[]);
    push(s, F_ZONE, seat, &[tile as i32]);
    debug_assert!(tile >= ACTION_TILE_BASE);
}

/// Start seat's activation step in the chosen zone.
fn step(s: &mut LedaState, frame: Frame) {
    let seat = usize::from(frame.seat);
    pop(s);
    let mask = usize::try_from(s.zone).map_or(0, |zone| ZONE_MASKS[zone]);
    push(s, F_STEP_END, seat, &[]);
    push(s, F_ACTIVATE, seat, &[i32::from(mask)]);
}

/// Queued special activations, then the Cats' Ring window.
fn step_end(s: &mut LedaState, frame: Frame) {
    let seat = usize::from(frame.seat);
    let p = s.player(seat);
    if p.specials > 0 {
        let fx = SPECIAL_FX[usize::from(p.clan)];
        s.player_mut(seat).specials -= 1;
        start_effect(s, seat, fx, -1);
        return;
    }
    pop(s);
    let p = s.player(seat);
    if usize::from(p.clan) != CATS {
        return;
    }
    // The window opens on public conditions only; whether a Ring is in hand stays private.
    let in_play = board::rings_on_grid(p);
    let mut offered = Vec::with_capacity(3);
    if !on_grid(in_play, RING_BLUE) && p.deck.is_empty() {
        offered.push(RING_BLUE);
    }
    let zone = usize::try_from(s.zone).ok();
    if !on_grid(in_play, RING_PURPLE) && zone.is_some_and(|z| board::cats_in_zone(p, z) >= 3) {
        offered.push(RING_PURPLE);
    }
    if !on_grid(in_play, RING_ORANGE) && board::upgraded_count(p) >= 5 {
        offered.push(RING_ORANGE);
    }
    if !offered.is_empty() && !p.hand.is_empty() {
        push(s, F_RINGS, seat, &[0, ring_mask(&offered)]);
    }
}

/// The conflict: the higher Military takes an MV token.
fn conflict(s: &mut LedaState) {
    pop(s);
    let (m0, m1) = (s.player(0).military, s.player(1).military);
    if m0 == m1 || s.blocked || s.mv_pile.is_empty() {
        return;
    }
    let winner = usize::from(m0 < m1);
    let p = s.player(winner);
    // The window opens below the token's effect, so a Ring that effect draws can be played;
    // whether the hand then holds one is checked when the window is reached.
    if usize::from(p.clan) == CATS
        && m0.abs_diff(m1) >= 3
        && !on_grid(board::rings_on_grid(p), RING_RED)
    {
        push(s, F_RINGS, winner, &[1, ring_mask(&[RING_RED])]);
    }
    gain_mv_token(s, winner);
}

/// End of round: counters reset, next round, or the Action pile reshuffled.
fn round_end(s: &mut LedaState, frame: Frame) {
    let active = usize::from(frame.seat);
    for seat in 0..2 {
        let p = s.player(seat);
        if p.military != 0 || p.specials != 0 {
            let p = s.player_mut(seat);
            p.military = 0;
            p.specials = 0;
        }
    }
    pop(s);
    s.blocked = false;
    s.zone = -1;
    if s.action_pile.len() > 1 {
        s.active = (1 - active) as u8;
        push(s, F_ROUND, 1 - active, &[]);
        return;
    }
    let (s0, s1) = (
        board::mv_symbols(s.player(0)),
        board::mv_symbols(s.player(1)),
    );
    let new_active = if s0 == s1 {
        1 - active
    } else {
        usize::from(s0 >= s1)
    };
    let mut pile = s.revealed;
    for tile in s.action_pile.iter() {
        pile.push(tile);
    }
    forget(s, pile.to_set());
    s.action_pile = pile;
    s.revealed = ActionTiles::new();
    s.active = new_active as u8;
    push(s, F_ROUND, new_active, &[]);
    push(s, F_SHUFFLE, new_active, &[SHUFFLE_ACTIONS, 0]);
}
