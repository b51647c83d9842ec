//! `LegendRaiders`: the [`Game`] trait over the Legend Raiders modules.

use rand_core::RngCore;
use serde_json::Value;

use super::actions::Action;
use super::state::{Phase, RaidersState};
use super::{chance, codec, heuristics, knowledge, notation, rules, scoring, setup};
use crate::error::{ActionError, InvalidState};
use crate::game::{Game, GameDraws, CHANCE, TERMINAL};
use crate::rng::Draws;
use crate::view::View;

/// Legend Raiders for 2-4 players, with the die or diceless (see docs/legend_raiders/).
#[derive(Clone, Copy, Debug, Default)]
pub struct LegendRaiders;

impl Game for LegendRaiders {
    type State = RaidersState;
    type Action = Action;

    fn name(&self) -> &'static str {
        codec::GAME_NAME
    }

    fn min_players(&self) -> usize {
        2
    }

    fn max_players(&self) -> usize {
        4
    }

    fn describe_options(&self) -> Value {
        setup::describe_options()
    }

    fn new_state(&self, options: &Value, seed: u64) -> Result<RaidersState, InvalidState> {
        setup::new_state(options, seed)
    }

    fn num_players(&self, state: &RaidersState) -> usize {
        state.n_players()
    }

    fn current_player(&self, state: &RaidersState) -> i32 {
        match state.phase {
            Phase::Over => TERMINAL,
            phase if phase.is_chance() => CHANCE,
            _ => i32::from(state.seat),
        }
    }

    fn is_terminal(&self, state: &RaidersState) -> bool {
        state.phase == Phase::Over
    }

    fn legal_actions(&self, state: &RaidersState, out: &mut Vec<Action>) {
        rules::legal_actions(state, out);
    }

    fn apply(&self, state: &RaidersState, action: Action) -> RaidersState {
        rules::apply(state, action)
    }

    fn chance_outcomes(&self, state: &RaidersState) -> Option<Vec<(Action, f64)>> {
        Some(chance::chance_outcomes(state))
    }

    fn sample_chance<R: RngCore + ?Sized>(
        &self,
        state: &RaidersState,
        rng: &mut R,
    ) -> Option<Action> {
        chance::sample_chance(state, rng)
    }

    fn observe(&self, state: &RaidersState, seat: usize) -> View<RaidersState> {
        knowledge::observe(state, seat)
    }

    fn determinize<R: RngCore + ?Sized>(
        &self,
        view: &View<RaidersState>,
        rng: &mut R,
    ) -> RaidersState {
        knowledge::determinize(view, rng)
    }

    fn evaluate(&self, state: &RaidersState, out: &mut Vec<f64>) {
        if state.phase == Phase::Over {
            out.clear();
            out.extend(self.returns(state));
        } else {
            heuristics::evaluate(state, out);
        }
    }

    fn policy_weights(&self, state: &RaidersState, actions: &[Action], out: &mut Vec<f64>) {
        heuristics::policy_weights(state, actions, out);
    }

    fn returns(&self, state: &RaidersState) -> Vec<f64> {
        let n = state.n_players();
        if state.phase != Phase::Over {
            return vec![0.0; n];
        }
        let best = scoring::winner(state);
        (0..n)
            .map(|seat| if seat == best { 1.0 } else { 0.0 })
            .collect()
    }

    fn scores(&self, state: &RaidersState) -> Vec<f64> {
        if state.phase == Phase::Over {
            scoring::final_scores(state)
                .into_iter()
                .map(f64::from)
                .collect()
        } else {
            state.players.iter().map(|p| f64::from(p.points)).collect()
        }
    }

    fn state_from_json(&self, data: &Value) -> Result<RaidersState, InvalidState> {
        codec::state_from_json(data)
    }

    fn state_to_json(&self, state: &RaidersState, observer: Option<usize>) -> Value {
        codec::state_to_json(state, observer)
    }

    fn action_to_str(&self, state: &RaidersState, action: Action) -> String {
        notation::action_text(action, state.dice)
    }

    fn action_from_str(&self, state: &RaidersState, text: &str) -> Result<Action, ActionError> {
        notation::check_legal(state, notation::parse_action_text(text, state.dice)?)
    }

    fn action_to_json(&self, state: &RaidersState, action: Action) -> Value {
        notation::action_json(action, state.dice)
    }

    fn action_from_json(&self, state: &RaidersState, data: &Value) -> Result<Action, ActionError> {
        notation::check_legal(state, notation::parse_action_json(data, state.dice)?)
    }
}

impl GameDraws for LegendRaiders {
    fn new_state_with<D: Draws + ?Sized>(
        &self,
        options: &Value,
        rng: &mut D,
    ) -> Result<RaidersState, InvalidState> {
        setup::new_state_with(options, rng)
    }

    fn sample_chance_with<D: Draws + ?Sized>(
        &self,
        state: &RaidersState,
        rng: &mut D,
    ) -> Option<Action> {
        chance::sample_chance(state, rng)
    }
}
