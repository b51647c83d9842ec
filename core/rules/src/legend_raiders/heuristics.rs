//! Cheap heuristics for the search: a leaf evaluation and a rollout policy, the same numbers
//! as `engine/legend_raiders/heuristics.py` (computed in the same order).

use super::actions::{layout, Action, ActionKind};
use super::components::{components, MAX_TOOL_TYPES};
use super::rules::visible_coins;
use super::scoring::{die_cards_held, mission_met, symbol_counts};
use super::state::{bits, PlayerState, RaidersState};

/// Points of lead giving tanh(1) of the value range (about 0.8 for a 10-point lead).
pub const SCALE: f64 = 9.6;
/// The value stays within 0.5 ± VALUE_SPREAD, so that any real win outranks every heuristic
/// state.
pub const VALUE_SPREAD: f64 = 0.4;

/// Met Missions in full, unmet ones by the share of their symbols already held.
pub fn missions_value(p: &PlayerState) -> f64 {
    let c = components();
    let done = symbol_counts(p);
    let mut counts = done;
    for i in bits(p.prepared) {
        counts[c.tile_symbol[i]] += 1; // prepared tiles count as likely symbols
    }
    let mut value = 0.0;
    for j in bits(p.known).chain(bits(p.blind)) {
        if c.mission_mask & (1u64 << j) == 0 {
            continue;
        }
        let points = f64::from(c.mission_points[j]);
        if mission_met(j, &done) {
            value += points;
            continue;
        }
        let need = &c.mission_requires[j];
        let have: u32 = counts
            .iter()
            .zip(need)
            .map(|(&h, &n)| u32::from(h.min(n)))
            .sum();
        let total: u32 = need.iter().map(|&n| u32::from(n)).sum();
        value += 0.5 * points * f64::from(have) / f64::from(total);
    }
    value
}

/// Points now plus a rough worth of Missions in reach, tools, prepared tiles and torch.
pub fn estimate(p: &PlayerState) -> f64 {
    let c = components();
    let mut value = f64::from(p.points) + missions_value(p) + f64::from(die_cards_held(p));
    value += 0.5 * p.n_tools() as f64 + if p.torch { 0.7 } else { 0.0 };
    let coins = f64::from(visible_coins(p.n_prepared(), p.completed.as_slice()));
    for i in bits(p.prepared) {
        let cost = &c.tile_cost[i];
        let missing: u32 = (0..c.n_tools)
            .map(|t| u32::from(cost[t].saturating_sub(p.tools[t])))
            .sum();
        value += f64::max(0.5, 0.6 * coins + 1.0 - f64::from(missing));
    }
    value
}

/// Per-seat value in [0.1, 0.9]: the squashed lead over the best other player, into `out`.
pub fn evaluate(s: &RaidersState, out: &mut Vec<f64>) {
    out.clear();
    let est: Vec<f64> = s.players.iter().map(estimate).collect();
    for (seat, &mine) in est.iter().enumerate() {
        let best_other = est
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != seat)
            .map(|(_, &v)| v)
            .fold(f64::NEG_INFINITY, f64::max);
        out.push(0.5 + VALUE_SPREAD * ((mine - best_other) / SCALE).tanh());
    }
}

fn column_value(s: &RaidersState, p: &PlayerState, column: usize) -> f64 {
    let c = components();
    let mut value = 1.0;
    if let Some(tile) = s.hq_tiles[column] {
        value += 1.0 + f64::from(c.tile_cost_total[usize::from(tile)]) * 0.3;
    }
    let tools = &s.hq_tools[column];
    let mut need = [0u32; MAX_TOOL_TYPES];
    for i in bits(p.prepared) {
        for (n, &cost) in need.iter_mut().zip(&c.tile_cost[i]) {
            *n += u32::from(cost);
        }
    }
    for t in 0..c.n_tools {
        if tools[t] > 0 && need[t] > u32::from(p.tools[t]) {
            value += 1.0;
        }
    }
    value
}

/// Positive weights favouring completions, useful columns and keeping useful tools, into
/// `out` (one per action).
pub fn policy_weights(s: &RaidersState, actions: &[Action], out: &mut Vec<f64>) {
    out.clear();
    let c = components();
    let a = layout();
    let p = s.current();
    let mut ready: Option<bool> = None;
    for &action in actions {
        let w = match a.kind(action) {
            ActionKind::Complete => {
                if a.arg2(action) == 0 {
                    20.0
                } else {
                    8.0
                }
            }
            ActionKind::Stop => 1.0,
            ActionKind::Prepare => {
                let mut w = column_value(s, p, a.arg(action));
                if p.n_prepared() >= 3 && p.n_tools() + 1 >= c.backpack_size {
                    w *= 0.3;
                }
                w
            }
            ActionKind::TakeRow | ActionKind::TakeDeck | ActionKind::NoCard => {
                let is_ready = *ready.get_or_insert_with(|| {
                    bits(p.prepared)
                        .any(|i| (0..c.n_tools).all(|t| p.tools[t] >= c.tile_cost[i][t]))
                });
                if is_ready {
                    6.0
                } else {
                    0.7
                }
            }
            ActionKind::DiscardTool => 1.0 + f64::from(p.tools[a.arg(action)]),
            ActionKind::KeepRoll => 4.0,
            _ => 1.0,
        };
        out.push(w);
    }
}
