//! The rules driver (the twin of `engine/leda/rules.py`): run automatic frames until a decision
//! or a chance step, apply actions, who is to move and how the game ends.

use super::actions::Action;
use super::board;
use super::decisions::{always_open, legal, resolve, resolve_none};
use super::flow::run_automatic;
use super::frames::{F_SHUFFLE, SHUFFLE_ACTIONS, SHUFFLE_MULLIGAN};
use super::moves::{draw, forget, pop};
use super::state::LedaState;
use crate::game::{CHANCE, TERMINAL};
use crate::rng::Draws;

/// End the game when a player meets a victory condition; `seat` wins a simultaneous one.
///
/// Checked after every step: a state nobody has won meets no condition (the decoder refuses
/// one that does), so this finds exactly what Python's check of the changed players finds.
fn check_victory(s: &mut LedaState, seat: usize) {
    if s.winner >= 0 {
        return;
    }
    for winner in [seat, 1 - seat] {
        if board::has_won(s.player(winner)) {
            s.winner = winner as i8;
            s.stack.clear();
            return;
        }
    }
}

/// Run automatic frames (and decisions with nothing to choose) until someone must act.
fn advance(s: &mut LedaState, scratch: &mut Vec<Action>) {
    while s.winner < 0 {
        let Some(&frame) = s.stack.last() else {
            return;
        };
        if !run_automatic(s, frame) {
            if frame.kind == F_SHUFFLE || always_open(frame.kind) {
                return;
            }
            scratch.clear();
            legal(s, &frame, scratch);
            if !scratch.is_empty() {
                return;
            }
            resolve_none(s, &frame);
        }
        check_victory(s, usize::from(frame.seat));
    }
}

/// The seat to decide, [`CHANCE`] at a shuffle, [`TERMINAL`] once someone has won.
pub fn current_player(s: &LedaState) -> i32 {
    if s.winner >= 0 {
        return TERMINAL;
    }
    match s.stack.last() {
        Some(frame) if frame.kind == F_SHUFFLE => CHANCE,
        Some(frame) => i32::from(frame.seat),
        None => TERMINAL,
    }
}

/// The decisions open to the seat to move, into `out` (cleared first).
pub fn legal_actions(s: &LedaState, out: &mut Vec<Action>) {
    out.clear();
    if s.winner >= 0 {
        return;
    }
    if let Some(frame) = s.stack.last() {
        if frame.kind != F_SHUFFLE {
            legal(s, frame, out);
        }
    }
}

/// The state after a decision or a chance outcome (trusted: boundaries check legality).
pub fn apply(state: &LedaState, action: Action) -> LedaState {
    let mut s = state.clone();
    if s.winner >= 0 {
        return s;
    }
    let Some(&frame) = s.stack.last() else {
        return s;
    };
    if frame.kind == F_SHUFFLE {
        apply_shuffle(&mut s, action);
    } else {
        resolve(&mut s, &frame, action);
    }
    check_victory(&mut s, usize::from(frame.seat));
    advance(&mut s, &mut Vec::new());
    s
}

/// How many items the pending chance step shuffles (0 when none is pending).
pub fn shuffle_size(s: &LedaState) -> usize {
    match s.stack.last() {
        Some(frame) if s.winner < 0 && frame.kind == F_SHUFFLE => {
            if frame.arg(0) == SHUFFLE_ACTIONS {
                s.action_pile.len()
            } else {
                s.player(usize::from(frame.seat)).deck.len()
            }
        }
        _ => 0,
    }
}

/// A uniformly random order for the pending shuffle, one `shuffle` of `0..n` as `rules.py`
/// draws it (None when no shuffle is pending).
pub fn sample_shuffle<D: Draws + ?Sized>(s: &LedaState, rng: &mut D) -> Option<Action> {
    if current_player(s) != CHANCE {
        return None;
    }
    let mut order: Vec<usize> = (0..shuffle_size(s)).collect();
    rng.shuffle(&mut order);
    Action::shuffle(&order)
}

/// Reorder the shuffled pile: item i of the new pile is item order[i] of the old one.
fn apply_shuffle(s: &mut LedaState, action: Action) {
    let Some(&frame) = s.stack.last() else {
        return;
    };
    let seat = usize::from(frame.seat);
    pop(s);
    let order = action.args();
    if frame.arg(0) == SHUFFLE_ACTIONS {
        let pile = s.action_pile.permuted(order);
        s.action_pile = pile;
        forget(s, pile.to_set());
        return;
    }
    let deck = s.player(seat).deck.permuted(order);
    s.player_mut(seat).deck = deck;
    forget(s, deck.to_set());
    if frame.arg(0) == SHUFFLE_MULLIGAN {
        draw(s, seat, frame.arg(1).max(0) as u32);
    }
}

/// 1.0 for the winner, 0.0 otherwise (all 0 before the end).
pub fn returns(s: &LedaState) -> Vec<f64> {
    match s.winner {
        0 => vec![1.0, 0.0],
        1 => vec![0.0, 1.0],
        _ => vec![0.0, 0.0],
    }
}

/// MV symbols each player holds.
pub fn scores(s: &LedaState) -> Vec<f64> {
    (0..2)
        .map(|seat| f64::from(board::mv_symbols(s.player(seat))))
        .collect()
}
