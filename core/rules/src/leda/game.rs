//! `Leda`: the [`Game`] trait over the LEDA modules.

use rand_core::RngCore;
use serde_json::Value;

use super::actions::Action;
use super::state::LedaState;
use super::{codec, heuristics, knowledge, notation, rules, setup};
use crate::error::{ActionError, InvalidState};
use crate::game::{Game, GameDraws, TERMINAL};
use crate::rng::Draws;
use crate::view::View;

/// LEDA for two players (see docs/leda/).
#[derive(Clone, Copy, Debug, Default)]
pub struct Leda;

impl Game for Leda {
    type State = LedaState;
    type Action = Action;

    fn name(&self) -> &'static str {
        "leda"
    }

    fn min_players(&self) -> usize {
        2
    }

    fn max_players(&self) -> usize {
        2
    }

    fn describe_options(&self) -> Value {
        setup::describe_options()
    }

    fn new_state(&self, options: &Value, seed: u64) -> Result<LedaState, InvalidState> {
        setup::new_state(options, seed)
    }

    fn num_players(&self, _state: &LedaState) -> usize {
        2
    }

    fn current_player(&self, state: &LedaState) -> i32 {
        rules::current_player(state)
    }

    fn is_terminal(&self, state: &LedaState) -> bool {
        rules::current_player(state) == TERMINAL
    }

    fn legal_actions(&self, state: &LedaState, out: &mut Vec<Action>) {
        rules::legal_actions(state, out);
    }

    fn apply(&self, state: &LedaState, action: Action) -> LedaState {
        rules::apply(state, action)
    }

    fn chance_outcomes(&self, _state: &LedaState) -> Option<Vec<(Action, f64)>> {
        None // shuffles: too many orders to list
    }

    fn sample_chance<R: RngCore + ?Sized>(&self, state: &LedaState, rng: &mut R) -> Option<Action> {
        rules::sample_shuffle(state, rng)
    }

    fn observe(&self, state: &LedaState, seat: usize) -> View<LedaState> {
        knowledge::observe(state, seat)
    }

    fn determinize<R: RngCore + ?Sized>(&self, view: &View<LedaState>, rng: &mut R) -> LedaState {
        knowledge::determinize(view, rng)
    }

    fn evaluate(&self, state: &LedaState, out: &mut Vec<f64>) {
        heuristics::evaluate(state, out);
    }

    fn policy_weights(&self, state: &LedaState, actions: &[Action], out: &mut Vec<f64>) {
        heuristics::policy_weights(state, actions, out);
    }

    fn returns(&self, state: &LedaState) -> Vec<f64> {
        rules::returns(state)
    }

    fn scores(&self, state: &LedaState) -> Vec<f64> {
        rules::scores(state)
    }

    fn state_from_json(&self, data: &Value) -> Result<LedaState, InvalidState> {
        codec::state_from_json(data)
    }

    fn state_to_json(&self, state: &LedaState, observer: Option<usize>) -> Value {
        codec::state_to_json(state, observer)
    }

    fn action_to_str(&self, _state: &LedaState, action: Action) -> String {
        notation::action_to_str(&action)
    }

    fn action_from_str(&self, state: &LedaState, text: &str) -> Result<Action, ActionError> {
        notation::action_from_str(state, text)
    }

    fn chance_form(&self, state: &LedaState) -> Option<String> {
        notation::chance_form(state)
    }

    fn action_to_json(&self, _state: &LedaState, action: Action) -> Value {
        notation::action_to_json(&action)
    }

    fn action_from_json(&self, state: &LedaState, data: &Value) -> Result<Action, ActionError> {
        notation::action_from_json(state, data)
    }
}

impl GameDraws for Leda {
    fn new_state_with<D: Draws + ?Sized>(
        &self,
        options: &Value,
        rng: &mut D,
    ) -> Result<LedaState, InvalidState> {
        setup::new_state_with(options, rng)
    }

    fn sample_chance_with<D: Draws + ?Sized>(
        &self,
        state: &LedaState,
        rng: &mut D,
    ) -> Option<Action> {
        rules::sample_shuffle(state, rng)
    }
}
