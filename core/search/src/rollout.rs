//! Rollouts: play on from a leaf, then score the end or the cut-off state (the twin of
//! `search/rollout.py`).

use boardbot_rules::rng::{below, weighted_index};
use boardbot_rules::{Game, CHANCE, TERMINAL};
use rand_core::RngCore;

use crate::config::{RolloutPolicy, SearchConfig};
use crate::rewards::terminal_reward;

/// Reusable buffers of one tree's rollouts, so a rollout allocates nothing of its own.
#[derive(Debug)]
pub struct RolloutBuffers<A> {
    legal: Vec<A>,
    weights: Vec<f64>,
}

impl<A> Default for RolloutBuffers<A> {
    fn default() -> Self {
        Self {
            legal: Vec::with_capacity(64),
            weights: Vec::with_capacity(64),
        }
    }
}

/// One of `legal` (two or more actions) chosen by `policy`.
fn choose<G: Game, R: RngCore>(
    game: &G,
    state: &G::State,
    policy: RolloutPolicy,
    legal: &[G::Action],
    weights: &mut Vec<f64>,
    rng: &mut R,
) -> Option<G::Action> {
    let index = match policy {
        RolloutPolicy::Random => below(rng, legal.len() as u32) as usize,
        RolloutPolicy::Heuristic => {
            game.policy_weights(state, legal, weights);
            weights.truncate(legal.len());
            weighted_index(rng, weights)
        }
    };
    legal.get(index).or(legal.first()).copied()
}

/// How rollouts are played and scored, from a [`SearchConfig`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutSettings {
    /// How decisions are chosen.
    pub policy: RolloutPolicy,
    /// Steps (decisions and chance) before the game's `evaluate` scores the state.
    pub max_steps: u32,
    /// The margin's share of a terminal reward.
    pub margin_weight: f64,
}

impl RolloutSettings {
    /// The rollout part of `config`.
    pub fn from_config(config: &SearchConfig) -> Self {
        Self {
            policy: config.rollout,
            max_steps: config.rollout_steps(),
            margin_weight: config.margin_weight,
        }
    }
}

/// Play up to `settings.max_steps` steps (decisions and chance) from `state` and write the
/// reward vector into `reward`.
///
/// A terminal state gets [`terminal_reward`]; a state still running after `max_steps` is
/// scored with the game's `evaluate`, and so is a state the game gives no way on from (a
/// decision without legal actions, a chance step without an outcome).
pub fn rollout<G: Game, R: RngCore>(
    game: &G,
    mut state: G::State,
    rng: &mut R,
    settings: &RolloutSettings,
    buffers: &mut RolloutBuffers<G::Action>,
    reward: &mut Vec<f64>,
) {
    let RolloutSettings {
        policy,
        max_steps,
        margin_weight,
    } = *settings;
    let mut steps = 0;
    loop {
        let player = game.current_player(&state);
        if player == TERMINAL {
            terminal_reward(game, &state, margin_weight, reward);
            return;
        }
        if steps >= max_steps {
            break;
        }
        let action = if player == CHANCE {
            game.sample_chance(&state, rng)
        } else {
            game.legal_actions(&state, &mut buffers.legal);
            match buffers.legal.as_slice() {
                [only] => Some(*only),
                [] => None,
                legal => choose(game, &state, policy, legal, &mut buffers.weights, rng),
            }
        };
        let Some(action) = action else { break };
        state = game.apply(&state, action);
        steps += 1;
    }
    game.evaluate(&state, reward);
}
