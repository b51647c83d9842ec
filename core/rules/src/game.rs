//! The `Game` trait: the rules role every game implements and a search is generic over.
//!
//! It mirrors the Python protocol (`engine/api.py`) with the same values and the same JSON:
//! a stateless rules object over immutable states. `apply` never draws randomness; every random
//! event is a chance step whose outcome is an action like any other.

use std::fmt::Debug;
use std::hash::Hash;

use rand_core::RngCore;
use serde_json::Value;

use crate::error::{ActionError, InvalidState};
use crate::rng::Draws;
use crate::view::View;

/// `current_player` at a chance step: call `chance_outcomes` / `sample_chance`.
pub const CHANCE: i32 = -1;

/// `current_player` once the game is over.
pub const TERMINAL: i32 = -2;

/// A stateless rules object; every method is pure and never mutates a state.
///
/// A search is generic over it:
///
/// ```
/// use boardbot_rules::rng::below;
/// use boardbot_rules::{seeded_rng, Game, LegendRaiders, CHANCE, TERMINAL};
///
/// /// A uniformly random playout to the end; the returns per seat.
/// fn random_playout<G: Game>(game: &G, start: &G::State, seed: u64) -> Vec<f64> {
///     let mut rng = seeded_rng(seed);
///     let mut legal = Vec::new();
///     let mut state = start.clone();
///     loop {
///         let action = match game.current_player(&state) {
///             TERMINAL => return game.returns(&state),
///             CHANCE => game.sample_chance(&state, &mut rng).expect("an outcome"),
///             _ => {
///                 game.legal_actions(&state, &mut legal);
///                 legal[below(&mut rng, legal.len() as u32) as usize]
///             }
///         };
///         state = game.apply(&state, action);
///     }
/// }
///
/// let game = LegendRaiders;
/// let start = game.new_state(&serde_json::json!({"players": 3}), 7).unwrap();
/// let returns = random_playout(&game, &start, 1);
/// assert_eq!(returns.iter().sum::<f64>(), 1.0);
/// ```
pub trait Game: Send + Sync {
    /// An immutable, cheaply cloned state (copy-on-write: clones share their parts).
    type State: Clone + Debug + PartialEq + Send + Sync;
    /// A small value naming one decision or one chance outcome.
    type Action: Copy + Debug + Eq + Ord + Hash + Send + Sync;

    /// The registry name (`legend_raiders`).
    fn name(&self) -> &'static str;

    /// The fewest seats a game can have.
    fn min_players(&self) -> usize;

    /// The most seats a game can have.
    fn max_players(&self) -> usize;

    /// Option names with their allowed values and defaults (as Python's `describe_options`).
    fn describe_options(&self) -> Value;

    /// A fresh game set up from `options` (a JSON object or null); every random setup choice
    /// derives from `seed`. Bad options name their path, e.g. `$.options.players`.
    fn new_state(&self, options: &Value, seed: u64) -> Result<Self::State, InvalidState>;

    /// Number of seats.
    fn num_players(&self, state: &Self::State) -> usize;

    /// The seat to decide, [`CHANCE`] at a chance step, [`TERMINAL`] once the game is over.
    fn current_player(&self, state: &Self::State) -> i32;

    /// True once the game is over.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.current_player(state) == TERMINAL
    }

    /// The legal decisions of the seat to move, written into `out` (cleared first), in the
    /// Python engine's order; empty at chance and terminal states.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// The state after `action` (a legal decision or a possible chance outcome).
    fn apply(&self, state: &Self::State, action: Self::Action) -> Self::State;

    /// Every outcome of the pending chance step with its probability, or None when there are
    /// too many to list.
    fn chance_outcomes(&self, state: &Self::State) -> Option<Vec<(Self::Action, f64)>>;

    /// One outcome of the pending chance step drawn with `rng` (None when `state` is not at a
    /// chance step).
    fn sample_chance<R: RngCore + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
    ) -> Option<Self::Action>;

    /// `seat`'s view of `state`: everything hidden from `seat` erased to a canonical form.
    ///
    /// Two states that differ only in what `seat` cannot see give equal views; observing a
    /// view's own state again gives the same view; for a game with a JSON codec the view's
    /// state equals `state_from_json(state_to_json(state, Some(seat)))`.
    fn observe(&self, state: &Self::State, seat: usize) -> View<Self::State>;

    /// A full world the view's seat cannot tell from the truth: every hidden part sampled
    /// with `rng` (so `observe(determinize(view), view.seat()) == view`).
    fn determinize<R: RngCore + ?Sized>(
        &self,
        view: &View<Self::State>,
        rng: &mut R,
    ) -> Self::State;

    /// Heuristic value per seat in [0, 1] (the returns once the game is over), into `out`.
    fn evaluate(&self, state: &Self::State, out: &mut Vec<f64>);

    /// Positive rollout weights for `actions` (the game's rollout policy), into `out`.
    fn policy_weights(&self, state: &Self::State, actions: &[Self::Action], out: &mut Vec<f64>);

    /// Per seat: 1.0 for the winner, 0.0 for the others; all 0.0 before the end.
    fn returns(&self, state: &Self::State) -> Vec<f64>;

    /// Per seat: points as the game counts them (final totals once the game is over).
    fn scores(&self, state: &Self::State) -> Vec<f64>;

    /// Decode and fully validate a state or a seat's view (hidden parts as counts).
    fn state_from_json(&self, data: &Value) -> Result<Self::State, InvalidState>;

    /// The documented JSON form; with `observer`, what that seat cannot know appears as counts.
    fn state_to_json(&self, state: &Self::State, observer: Option<usize>) -> Value;

    /// The short text of `action` (e.g. `prepare:3`).
    fn action_to_str(&self, state: &Self::State, action: Self::Action) -> String;

    /// Parse the short text of an action and check it is legal in `state`.
    fn action_from_str(&self, state: &Self::State, text: &str)
        -> Result<Self::Action, ActionError>;

    /// The readable JSON object of `action`.
    fn action_to_json(&self, state: &Self::State, action: Self::Action) -> Value;

    /// Parse a JSON action and check it is legal in `state`.
    fn action_from_json(
        &self,
        state: &Self::State,
        data: &Value,
    ) -> Result<Self::Action, ActionError>;

    /// How to write an outcome of the pending chance step when its outcomes are not listed
    /// (None: the game's outcomes are listed, or no such step is pending).
    fn chance_form(&self, _state: &Self::State) -> Option<String> {
        None
    }
}

/// A game whose setup and chance steps draw from any [`Draws`] generator.
///
/// [`Game::new_state`] and [`Game::sample_chance`] draw from the native stream; these take the
/// generator, so with a [`PythonRandom`](crate::PythonRandom) of a seed they give exactly the
/// Python engine's `new_state(options, seed)` and `sample_chance(state, rng)`, making the same
/// calls on the generator in the same order.
pub trait GameDraws: Game {
    /// [`Game::new_state`] with every random setup choice drawn from `rng`.
    fn new_state_with<D: Draws + ?Sized>(
        &self,
        options: &Value,
        rng: &mut D,
    ) -> Result<Self::State, InvalidState>;

    /// [`Game::sample_chance`] with the outcome drawn from `rng`.
    fn sample_chance_with<D: Draws + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut D,
    ) -> Option<Self::Action>;
}
