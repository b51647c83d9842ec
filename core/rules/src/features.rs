//! Features of a view: what a learned evaluator reads of a state (the twin of each game's
//! `engine/<game>/features.py`).
//!
//! A game turns one seat's view of a state into a fixed-length vector, and each of its
//! decisions into a few indices of an action-feature space. Only what the seat may know is
//! read, so two worlds with the same view give the same vector: the search never peeks
//! through the network. Values are computed in f64 with the Python engine's arithmetic and
//! stored as f32; the parity tests demand equality.

use crate::game::Game;

/// A game whose views and decisions a learned evaluator can read.
pub trait Featurize: Game {
    /// Version of this game's feature definition (bumped on any change; models record it).
    const FEATURES_VERSION: u32;

    /// Length of the view vector for a game of `players` seats.
    fn feature_size(&self, players: usize) -> usize;

    /// `seat`'s view of `state` as `feature_size(players)` values into `out` (cleared first).
    ///
    /// Per-seat blocks are rotated: block 0 is `seat`, block k is seat `(seat + k) % players`.
    fn features(&self, state: &Self::State, seat: usize, out: &mut Vec<f32>);

    /// Size of the action-feature space (the policy head's width).
    fn action_feature_size(&self) -> usize;

    /// The active action-feature indices of decision `action` in `state`, appended to `out`;
    /// a policy logit is the sum of the policy head's outputs at these indices.
    fn action_features(&self, state: &Self::State, action: Self::Action, out: &mut Vec<u32>);
}
