//! End-game scoring: Missions, Discovery cards, kept Die cards, the winner and the tie-break.

use super::components::{components, SymbolCounts, MAX_SYMBOLS};
use super::state::{bits, PlayerState, RaidersState};

/// Symbols a player holds for Missions: completed tiles plus Discovery cards.
pub fn symbol_counts(p: &PlayerState) -> SymbolCounts {
    let c = components();
    let mut counts: SymbolCounts = [0; MAX_SYMBOLS];
    for &i in p.completed.as_slice() {
        counts[c.tile_symbol[usize::from(i)]] += 1;
    }
    for j in bits((p.known | p.blind) & c.discovery_mask) {
        if let Some(sym) = c.card_symbol[j] {
            counts[sym] += 1;
        }
    }
    counts
}

/// True when `counts` contain the Mission's required symbols.
pub fn mission_met(card: usize, counts: &SymbolCounts) -> bool {
    let need = &components().mission_requires[card];
    counts.iter().zip(need).all(|(have, need)| have >= need)
}

/// Points of the player's fulfilled Missions (a symbol may serve any number of them).
pub fn mission_points(p: &PlayerState) -> i32 {
    let c = components();
    let counts = symbol_counts(p);
    bits((p.known | p.blind) & c.mission_mask)
        .filter(|&j| mission_met(j, &counts))
        .map(|j| c.mission_points[j])
        .sum()
}

/// Number of Die cards the player still holds.
pub fn die_cards_held(p: &PlayerState) -> i32 {
    ((p.known | p.blind) & components().die_card_mask).count_ones() as i32
}

/// Points added at the end: Missions plus kept Die cards.
pub fn end_game_points(p: &PlayerState) -> i32 {
    mission_points(p) + components().die_card_points * die_cards_held(p)
}

/// Each player's total: points scored in play plus end-game points.
pub fn final_scores(s: &RaidersState) -> Vec<i32> {
    s.players
        .iter()
        .map(|p| p.points + end_game_points(p))
        .collect()
}

/// The winning seat: highest total; on a tie, the tied player who played later wins.
pub fn winner(s: &RaidersState) -> usize {
    let totals = final_scores(s);
    let n = totals.len();
    let first = usize::from(s.first);
    (0..n)
        .max_by_key(|&seat| (totals[seat], (seat + n - first) % n))
        .unwrap_or(0)
}
