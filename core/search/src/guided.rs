//! The learned evaluator inside the search: the model a configuration carries, the leaf value
//! from the network, and the priors of a node's decisions (docs/learning.md).
//!
//! A leaf is evaluated from the view of the seat to move there (after its chance steps), as
//! the network was trained: the features of that seat's view, the value head's rotated
//! per-seat rewards turned back into seat order, and from the same hidden layer the priors of
//! that seat's legal decisions, stored at the leaf's node for the iterations that come back.

use std::fmt;
use std::sync::Arc;

use boardbot_rules::{Featurize, View, CHANCE, TERMINAL};

use crate::error::SearchError;
use crate::net::{NetScratch, Network};
use crate::rewards::terminal_reward;
use crate::seeds::net_value_world;
use crate::tree::Prior;

/// Determinizations of the root view behind each root move's `net_value`.
pub const NET_VALUE_WORLDS: usize = 4;

/// A loaded network shared by every tree and thread of a search (and across searches).
#[derive(Clone)]
pub struct Model(pub Arc<Network>);

impl PartialEq for Model {
    /// The same loaded network (one load, one identity).
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Model({}, {} players, {} features)",
            self.0.game(),
            self.0.players(),
            self.0.feature_size()
        )
    }
}

impl Model {
    /// An error unless the network reads `game`'s features for `players` seats as they are
    /// defined now.
    pub fn check<G: Featurize>(&self, game: &G, players: usize) -> Result<(), SearchError> {
        let net = &self.0;
        let mismatch = |reason: String| Err(SearchError::ModelMismatch { reason });
        if net.game() != game.name() {
            return mismatch(format!(
                "it was trained for {}, not {}",
                net.game(),
                game.name()
            ));
        }
        if net.players() != players {
            return mismatch(format!(
                "it was trained for {} players, the game has {players}",
                net.players()
            ));
        }
        if net.features_version() != G::FEATURES_VERSION {
            return mismatch(format!(
                "it reads features version {}, the game defines version {}",
                net.features_version(),
                G::FEATURES_VERSION
            ));
        }
        if net.feature_size() != game.feature_size(players)
            || net.action_feature_size() != game.action_feature_size()
        {
            return mismatch(format!(
                "it reads {} features and {} action features, the game gives {} and {}",
                net.feature_size(),
                net.action_feature_size(),
                game.feature_size(players),
                game.action_feature_size()
            ));
        }
        Ok(())
    }
}

/// Reusable buffers of one tree's network evaluations (nothing allocated once warm).
#[derive(Debug)]
pub struct NetBuffers<A> {
    scratch: NetScratch,
    features: Vec<f32>,
    values: Vec<f32>,
    action_features: Vec<u32>,
    logits: Vec<f64>,
    /// The priors of the last [`priors`] call.
    pub priors: Vec<Prior<A>>,
}

impl<A> Default for NetBuffers<A> {
    fn default() -> Self {
        Self {
            scratch: NetScratch::default(),
            features: Vec::with_capacity(512),
            values: Vec::with_capacity(8),
            action_features: Vec::with_capacity(8),
            logits: Vec::with_capacity(64),
            priors: Vec::with_capacity(64),
        }
    }
}

/// The network's reward vector of `state` (seat order, into `reward`) from the view of
/// `mover`, the seat to move; the hidden layer stays in `buffers` for [`priors`].
pub fn leaf_value<G: Featurize>(
    game: &G,
    net: &Network,
    state: &G::State,
    mover: usize,
    buffers: &mut NetBuffers<G::Action>,
    reward: &mut Vec<f64>,
) {
    game.features(state, mover, &mut buffers.features);
    if net
        .evaluate(&buffers.features, &mut buffers.scratch, &mut buffers.values)
        .is_err()
    {
        // Unreachable once `Model::check` passed; the heuristic keeps the search going.
        game.evaluate(state, reward);
        return;
    }
    let players = buffers.values.len();
    reward.clear();
    for seat in 0..players {
        let rotated = (seat + players - mover % players.max(1)) % players.max(1);
        reward.push(f64::from(
            buffers.values.get(rotated).copied().unwrap_or(0.0),
        ));
    }
}

/// The priors of `mover`'s `legal` decisions in `state` into `buffers.priors`: the softmax of
/// each decision's summed policy outputs, from the hidden layer of the last [`leaf_value`]
/// (which must have been of the same state and seat).
pub fn priors<G: Featurize>(
    game: &G,
    net: &Network,
    state: &G::State,
    mover: u32,
    legal: &[G::Action],
    buffers: &mut NetBuffers<G::Action>,
) {
    buffers.logits.clear();
    let mut top = f64::NEG_INFINITY;
    for &action in legal {
        buffers.action_features.clear();
        game.action_features(state, action, &mut buffers.action_features);
        let logit: f64 = buffers
            .action_features
            .iter()
            .map(|&j| f64::from(net.policy_output(&buffers.scratch, j)))
            .sum();
        top = top.max(logit);
        buffers.logits.push(logit);
    }
    let mut total = 0.0;
    for logit in &mut buffers.logits {
        *logit = (*logit - top).exp();
        total += *logit;
    }
    buffers.priors.clear();
    let uniform = 1.0 / legal.len().max(1) as f64;
    for (&action, &weight) in legal.iter().zip(&buffers.logits) {
        let prior = if total > 0.0 && total.is_finite() {
            weight / total
        } else {
            uniform
        };
        buffers.priors.push(Prior {
            seat: mover,
            action,
            prior: prior as f32,
        });
    }
}

/// The stored prior of `seat`'s `action` among `stored`, looked up first at `hint` (priors are
/// stored in the order of the legal actions they were computed for).
#[inline]
pub fn stored_prior<A: Copy + Eq>(
    stored: &[Prior<A>],
    seat: u32,
    action: A,
    hint: usize,
) -> Option<f32> {
    if let Some(p) = stored.get(hint) {
        if p.seat == seat && p.action == action {
            return Some(p.prior);
        }
    }
    stored
        .iter()
        .find(|p| p.seat == seat && p.action == action)
        .map(|p| p.prior)
}

/// The network's own figures of one root move, beside the search's (an analysis shows both).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetFigures<A> {
    /// The move.
    pub action: A,
    /// The network's prior of the move at the root for the deciding seat: the softmax over
    /// the legal moves of the policy outputs, from the features of the root view.
    pub prior: f64,
    /// The network's value of the position after the move for the deciding seat: the mean
    /// over [`NET_VALUE_WORLDS`] determinizations of the root view of the move, then chance
    /// sampled on to the next decision, valued by the terminal reward at the end of the game
    /// or by the network from the mover's view (in the deciding seat's entry).
    pub net_value: f64,
}

/// Each legal root move's [`NetFigures`] (in legal order) for the view's seat, the worlds and
/// their chance draws seeded from the search's `seed` (the same worlds for every move).
pub fn root_figures<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    net: &Network,
    margin_weight: f64,
    seed: u64,
) -> Vec<NetFigures<G::Action>> {
    let seat = view.seat();
    let mover = u32::try_from(seat).unwrap_or(u32::MAX);
    let mut legal = Vec::new();
    game.legal_actions(view.state(), &mut legal);
    let worlds: Vec<_> = (0..NET_VALUE_WORLDS)
        .map(|k| {
            let mut rng = net_value_world(seed, k);
            let world = game.determinize(view, &mut rng);
            (world, rng)
        })
        .collect();
    let mut buffers = NetBuffers::default();
    let mut reward = Vec::with_capacity(8);
    // Features and action features are the seat's view: any world gives the same priors.
    leaf_value(game, net, &worlds[0].0, seat, &mut buffers, &mut reward);
    priors(game, net, &worlds[0].0, mover, &legal, &mut buffers);
    let shares: Vec<f64> = buffers.priors.iter().map(|p| f64::from(p.prior)).collect();
    legal
        .iter()
        .zip(shares)
        .map(|(&action, prior)| {
            let mut total = 0.0;
            for (world, world_rng) in &worlds {
                let mut rng = world_rng.clone();
                let mut state = game.apply(world, action);
                while game.current_player(&state) == CHANCE {
                    let Some(outcome) = game.sample_chance(&state, &mut rng) else {
                        break;
                    };
                    state = game.apply(&state, outcome);
                }
                let player = game.current_player(&state);
                if player == TERMINAL {
                    terminal_reward(game, &state, margin_weight, &mut reward);
                } else if let Ok(next) = usize::try_from(player) {
                    leaf_value(game, net, &state, next, &mut buffers, &mut reward);
                } else {
                    game.evaluate(&state, &mut reward);
                }
                total += reward.get(seat).copied().unwrap_or(0.0);
            }
            NetFigures {
                action,
                prior,
                net_value: total / NET_VALUE_WORLDS as f64,
            }
        })
        .collect()
}
