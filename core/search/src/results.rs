//! From raw root tallies to a [`SearchResult`]: merging, confidence bounds, ordering and move
//! choice (the twin of `search/results.py`).

use std::time::Duration;

use boardbot_rules::rng::{below, weighted_index};
use boardbot_rules::Game;
use rand_core::RngCore;

use crate::control::StopReason;
use crate::error::SearchError;
use crate::guided::NetFigures;

/// Normal quantile of the two-sided 95% bound used for `lower_bound`.
pub const CONFIDENCE_Z: f64 = 1.96;

/// Raw statistics of one root move in one tree (mergeable across workers).
#[derive(Clone, Debug, PartialEq)]
pub struct RootTally<A> {
    /// The root move.
    pub action: A,
    /// Iterations that played it.
    pub visits: u64,
    /// Sum of the deciding seat's rewards over those iterations.
    pub total: f64,
    /// Iterations whose whole reward vector is summed in `seat_totals` (all of `visits` but
    /// those a reused tree's deeper node brought: [`crate::tree::SeatSums`]).
    pub seat_visits: u64,
    /// Sum of every seat's reward over those iterations, by seat.
    pub seat_totals: Vec<f64>,
    /// The most visited line from it, in the game's notation.
    pub principal_variation: Vec<String>,
    /// The seat that plays each move of `principal_variation`.
    pub principal_variation_seats: Vec<usize>,
}

/// What one tree's search produced: root tallies and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeReport<A> {
    /// Every legal root move (then any other root move the tree met), visited or not.
    pub tallies: Vec<RootTally<A>>,
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree, the root included.
    pub nodes: u64,
    /// What ended this tree's search.
    pub stopped_by: StopReason,
}

/// Statistics of one root move, as an analysis view shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<A> {
    /// The move.
    pub action: A,
    /// Its notation in the game.
    pub notation: String,
    /// Iterations that played it.
    pub visits: u64,
    /// Mean reward of the deciding seat after this move, in [0, 1].
    pub mean_value: f64,
    /// A 95% lower confidence bound on `mean_value`.
    pub lower_bound: f64,
    /// The most visited line after (and including) this move, in the game's notation.
    pub principal_variation: Vec<String>,
    /// The seat that plays each move of `principal_variation` (in the world the line was
    /// replayed in), the deciding seat first.
    pub principal_variation_seats: Vec<usize>,
    /// With a model: the network's prior of this move at the root ([`NetFigures`]).
    pub prior: Option<f64>,
    /// With a model: the network's value of the position after this move for the deciding
    /// seat, in [0, 1] ([`NetFigures`]).
    pub net_value: Option<f64>,
    /// Every seat's mean reward after this move, by seat, the deciding seat's being
    /// `mean_value` ([`seat_values`]); empty when no iteration summed every seat's reward.
    pub seat_values: Vec<f64>,
}

/// The chosen move and the statistics behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<A> {
    /// The chosen move.
    pub action: A,
    /// Its notation.
    pub notation: String,
    /// The deciding seat.
    pub seat: usize,
    /// Iterations run, over every worker.
    pub iterations: u64,
    /// Wall-clock time of the whole call.
    pub elapsed: Duration,
    /// Every root move, most visited first (higher mean, then legal order, on ties).
    pub moves: Vec<MoveStats<A>>,
    /// What ended the search (`Running` in a progress report).
    pub stopped_by: StopReason,
    /// Tree nodes, over every worker.
    pub nodes: u64,
    /// Every seat's value at the root from this search: the `seat_values` of the most
    /// visited move (`moves[0]`); empty when nothing was searched.
    pub seat_values: Vec<f64>,
}

/// Conservative 95% lower bound of a mean of [0, 1] rewards (variance at most m(1-m)).
pub fn lower_bound(mean: f64, visits: u64) -> f64 {
    if visits == 0 {
        return 0.0;
    }
    let spread = CONFIDENCE_Z * (f64::max(mean * (1.0 - mean), 0.0) / visits as f64).sqrt();
    f64::max(0.0, mean - spread)
}

/// Every seat's mean reward from a move's tally, by seat: `seat_totals / seat_visits`, the
/// deciding `seat`'s entry replaced by `mean` (the move's value, over all its visits); empty
/// when no iteration summed every seat's reward.
pub fn seat_values<A>(tally: &RootTally<A>, seat: usize, mean: f64) -> Vec<f64> {
    if tally.seat_visits == 0 {
        return Vec::new();
    }
    let count = tally.seat_visits as f64;
    let mut values: Vec<f64> = tally.seat_totals.iter().map(|t| t / count).collect();
    if let Some(own) = values.get_mut(seat) {
        *own = mean;
    }
    values
}

/// Add `more` to the seat sums `into`, seat by seat.
fn add_seat_totals(into: &mut Vec<f64>, more: &[f64]) {
    if into.len() < more.len() {
        into.resize(more.len(), 0.0);
    }
    for (total, add) in into.iter_mut().zip(more) {
        *total += add;
    }
}

/// Sum visits and rewards per root move (in order of first appearance); keep the line of the
/// tree that visited it most (the earlier tree on ties).
///
/// Each tree's visits are compared with those of the tree whose line is kept, not with the
/// running sum, so with three or more trees the line really is the most visiting tree's.
pub fn merge_tallies<A: Copy + Eq>(reports: &[TreeReport<A>]) -> Vec<RootTally<A>> {
    let mut merged: Vec<RootTally<A>> = Vec::new();
    let mut line_visits: Vec<u64> = Vec::new();
    for tally in reports.iter().flat_map(|r| &r.tallies) {
        match merged.iter().position(|m| m.action == tally.action) {
            None => {
                merged.push(tally.clone());
                line_visits.push(tally.visits);
            }
            Some(i) => {
                let seen = &mut merged[i];
                seen.visits += tally.visits;
                seen.total += tally.total;
                seen.seat_visits += tally.seat_visits;
                add_seat_totals(&mut seen.seat_totals, &tally.seat_totals);
                if tally.visits > line_visits[i] {
                    seen.principal_variation
                        .clone_from(&tally.principal_variation);
                    seen.principal_variation_seats
                        .clone_from(&tally.principal_variation_seats);
                    line_visits[i] = tally.visits;
                }
            }
        }
    }
    merged
}

/// Every root move's statistics for the deciding `seat`, most visited first (higher mean,
/// then tally order, on ties).
pub fn move_stats<G: Game>(
    game: &G,
    state: &G::State,
    seat: usize,
    tallies: &[RootTally<G::Action>],
) -> Vec<MoveStats<G::Action>> {
    let mut stats: Vec<MoveStats<G::Action>> = tallies
        .iter()
        .map(|tally| {
            let mean = if tally.visits > 0 {
                tally.total / tally.visits as f64
            } else {
                0.0
            };
            MoveStats {
                action: tally.action,
                notation: game.action_to_str(state, tally.action),
                visits: tally.visits,
                mean_value: mean,
                lower_bound: lower_bound(mean, tally.visits),
                principal_variation: tally.principal_variation.clone(),
                principal_variation_seats: tally.principal_variation_seats.clone(),
                prior: None,
                net_value: None,
                seat_values: seat_values(tally, seat, mean),
            }
        })
        .collect();
    // A stable sort keeps the tally (legal) order on ties; `+ 0.0` folds -0.0 into 0.0.
    stats.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then_with(|| (b.mean_value + 0.0).total_cmp(&(a.mean_value + 0.0)))
    });
    stats
}

/// Index of the chosen move in `moves` (ordered as [`move_stats`] orders them): the first,
/// or with `temperature > 0` a draw ∝ visits ^ (1 / temperature). None for no moves.
pub fn choose_move<A, R: RngCore>(
    moves: &[MoveStats<A>],
    temperature: f64,
    rng: &mut R,
) -> Option<usize> {
    if moves.is_empty() {
        return None;
    }
    if temperature <= 0.0 || moves.len() == 1 {
        return Some(0);
    }
    let top = moves[0].visits;
    if top == 0 {
        return Some(below(rng, moves.len() as u32) as usize);
    }
    let exponent = 1.0 / temperature;
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| (m.visits as f64 / top as f64).powf(exponent))
        .collect();
    Some(weighted_index(rng, &weights))
}

/// How a search ended, for [`build_result`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchTotals {
    /// Iterations over every tree.
    pub iterations: u64,
    /// Nodes over every tree.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// What ended it.
    pub stopped_by: StopReason,
}

/// Assemble the result from merged tallies, choosing the move with `choice_rng`; with a
/// model, each move gets its network figures from `figures` (computed once per search).
#[allow(clippy::too_many_arguments)]
pub fn build_result<G: Game, R: RngCore>(
    game: &G,
    state: &G::State,
    seat: usize,
    tallies: &[RootTally<G::Action>],
    temperature: f64,
    choice_rng: &mut R,
    totals: SearchTotals,
    figures: Option<&[NetFigures<G::Action>]>,
) -> Result<SearchResult<G::Action>, SearchError> {
    let mut moves = move_stats(game, state, seat, tallies);
    if let Some(figures) = figures {
        with_figures(&mut moves, figures);
    }
    let chosen = choose_move(&moves, temperature, choice_rng).ok_or(SearchError::NoLegalMove)?;
    let chosen = &moves[chosen];
    let root_values = moves
        .first()
        .map(|m| m.seat_values.clone())
        .unwrap_or_default();
    Ok(SearchResult {
        action: chosen.action,
        notation: chosen.notation.clone(),
        seat,
        iterations: totals.iterations,
        elapsed: totals.elapsed,
        stopped_by: totals.stopped_by,
        nodes: totals.nodes,
        moves,
        seat_values: root_values,
    })
}

/// Each move's `prior` and `net_value` from the figure of the same action (a move without
/// one keeps None).
pub fn with_figures<A: Copy + Eq>(moves: &mut [MoveStats<A>], figures: &[NetFigures<A>]) {
    for stats in moves {
        if let Some(found) = figures.iter().find(|f| f.action == stats.action) {
            stats.prior = Some(found.prior);
            stats.net_value = Some(found.net_value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardbot_rules::seeded_rng;

    fn tally(action: u8, visits: u64, total: f64, line: &[&str]) -> RootTally<u8> {
        RootTally {
            action,
            visits,
            total,
            seat_visits: 0,
            seat_totals: Vec::new(),
            principal_variation: line.iter().map(|s| s.to_string()).collect(),
            principal_variation_seats: vec![0; line.len()],
        }
    }

    fn report(tallies: Vec<RootTally<u8>>) -> TreeReport<u8> {
        TreeReport {
            tallies,
            iterations: 0,
            nodes: 0,
            stopped_by: StopReason::Iterations,
        }
    }

    fn stats(visits: &[u64]) -> Vec<MoveStats<u8>> {
        visits
            .iter()
            .enumerate()
            .map(|(i, &v)| MoveStats {
                action: i as u8,
                notation: i.to_string(),
                visits: v,
                mean_value: 0.5,
                lower_bound: 0.0,
                principal_variation: Vec::new(),
                principal_variation_seats: Vec::new(),
                prior: None,
                net_value: None,
                seat_values: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn lower_bound_is_the_conservative_normal_bound() {
        assert_eq!(lower_bound(0.7, 0), 0.0);
        let expected = 0.5 - 1.96 * (0.25f64 / 100.0).sqrt();
        assert!((lower_bound(0.5, 100) - expected).abs() < 1e-12);
        assert_eq!(lower_bound(1.0, 10), 1.0);
        assert_eq!(lower_bound(0.1, 1), 0.0);
    }

    #[test]
    fn merging_sums_and_keeps_the_most_visited_line() {
        let first = report(vec![tally(1, 10, 6.0, &["a"]), tally(2, 5, 1.0, &["b"])]);
        let second = report(vec![
            tally(2, 9, 3.0, &["b", "x"]),
            tally(1, 10, 2.0, &["a", "y"]),
            tally(3, 1, 1.0, &["c"]),
        ]);
        let merged = merge_tallies(&[first, second]);
        assert_eq!(
            merged,
            vec![
                tally(1, 20, 8.0, &["a"]),
                tally(2, 14, 4.0, &["b", "x"]),
                tally(3, 1, 1.0, &["c"]),
            ]
        );
    }

    #[test]
    fn merging_sums_every_seat_and_values_are_the_means_with_the_movers_own() {
        let with_seats = |visits, total, seat_visits, totals: &[f64]| RootTally {
            seat_visits,
            seat_totals: totals.to_vec(),
            ..tally(1, visits, total, &[])
        };
        let trees = [
            report(vec![with_seats(4, 3.0, 4, &[3.0, 1.0])]),
            report(vec![tally(1, 2, 1.0, &[])]),
            report(vec![with_seats(4, 1.0, 4, &[1.0, 2.0])]),
        ];
        let merged = merge_tallies(&trees);
        assert_eq!(
            (merged[0].visits, merged[0].seat_visits),
            (10, 8),
            "a tree without seat sums adds visits only"
        );
        assert_eq!(merged[0].seat_totals, [4.0, 3.0]);
        assert_eq!(seat_values(&merged[0], 0, 0.5), [0.5, 0.375]);
        assert_eq!(seat_values(&merged[0], 1, 0.25), [0.5, 0.25]);
        assert!(seat_values(&tally(2, 3, 1.0, &[]), 0, 0.3).is_empty());
    }

    #[test]
    fn merging_compares_each_tree_with_the_line_kept_so_far() {
        // The line comes from the tree that visited the move most: 6 beats the kept tree's 5
        // although the running sum is already 9.
        let trees = [
            report(vec![tally(1, 4, 0.0, &["a"])]),
            report(vec![tally(1, 5, 0.0, &["b"])]),
            report(vec![tally(1, 6, 0.0, &["c"])]),
        ];
        assert_eq!(merge_tallies(&trees)[0].principal_variation, ["c"]);
    }

    #[test]
    fn temperature_zero_takes_the_first_and_warm_draws_follow_visits() {
        let moves = stats(&[30, 10, 0]);
        let mut rng = seeded_rng(1);
        assert_eq!(choose_move(&moves, 0.0, &mut rng), Some(0));
        assert_eq!(choose_move(&moves[..1], 5.0, &mut rng), Some(0));
        assert_eq!(choose_move::<u8, _>(&[], 1.0, &mut rng), None);
        let mut counts = [0; 3];
        for _ in 0..4000 {
            counts[choose_move(&moves, 1.0, &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!((2700..3300).contains(&counts[0]), "{counts:?}");
        let unvisited = stats(&[0, 0, 0]);
        let mut seen = [false; 3];
        for _ in 0..100 {
            seen[choose_move(&unvisited, 1.0, &mut rng).unwrap()] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
