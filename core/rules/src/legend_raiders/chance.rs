//! Chance steps: the die roll, tool draws from the bag, tile and card reveals.

use super::actions::{layout, Action};
use super::components::{components, FACE_KINDS};
use super::state::{bits, tool_sum, Phase, RaidersState};
use crate::rng::Draws;

/// Every outcome of the pending chance step with its probability (empty when the state is
/// not at a chance step).
pub fn chance_outcomes(s: &RaidersState) -> Vec<(Action, f64)> {
    let c = components();
    let a = layout();
    match s.phase {
        Phase::Roll => {
            let n = c.die_faces.len() as f64;
            (0..FACE_KINDS.len() as u8)
                .filter_map(|f| {
                    let count = c.die_faces.iter().filter(|&&x| x == f).count();
                    (count > 0).then(|| (a.roll_base + Action::from(f), count as f64 / n))
                })
                .collect()
        }
        Phase::Draw | Phase::RefillTool => {
            let total = tool_sum(&s.bag) as f64;
            (0..c.n_tools)
                .filter(|&t| s.bag[t] > 0)
                .map(|t| (a.tool_base + t as Action, f64::from(s.bag[t]) / total))
                .collect()
        }
        Phase::RefillTile => {
            let n = f64::from(s.stack.count_ones());
            bits(s.stack)
                .map(|i| (a.tile_base + i as Action, 1.0 / n))
                .collect()
        }
        Phase::RevealCard | Phase::BlindCard => {
            let n = f64::from(s.deck.count_ones());
            bits(s.deck)
                .map(|j| (a.card_base + j as Action, 1.0 / n))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The `k`-th set bit of `mask` (0-based).
#[inline]
fn nth_bit(mask: u64, k: u32) -> usize {
    let mut rest = mask;
    for _ in 0..k {
        rest &= rest.wrapping_sub(1);
    }
    rest.trailing_zeros() as usize
}

/// One outcome of the pending chance step, drawn with `rng` (one `randrange`, as `chance.py`
/// draws it); None when the state is not at a chance step (or the step has nothing to draw
/// from).
pub fn sample_chance<D: Draws + ?Sized>(s: &RaidersState, rng: &mut D) -> Option<Action> {
    let c = components();
    let a = layout();
    match s.phase {
        Phase::Roll => {
            let k = rng.randrange(c.die_faces.len() as u32) as usize;
            c.die_faces.get(k).map(|&f| a.roll_base + Action::from(f))
        }
        Phase::Draw | Phase::RefillTool => {
            let total = tool_sum(&s.bag) as u32;
            if total == 0 {
                return None;
            }
            let mut r = rng.randrange(total);
            for t in 0..c.n_tools {
                let n = u32::from(s.bag[t]);
                if r < n {
                    return Some(a.tool_base + t as Action);
                }
                r -= n;
            }
            None
        }
        Phase::RefillTile if s.stack != 0 => {
            let k = rng.randrange(s.stack.count_ones());
            Some(a.tile_base + nth_bit(s.stack, k) as Action)
        }
        Phase::RevealCard | Phase::BlindCard if s.deck != 0 => {
            let k = rng.randrange(s.deck.count_ones());
            Some(a.card_base + nth_bit(s.deck, k) as Action)
        }
        _ => None,
    }
}
