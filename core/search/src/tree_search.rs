//! One single-observer ISMCTS tree: the iteration loop and its raw root statistics (the twin
//! of `search/tree_search.py`).

use std::sync::Arc;
use std::time::Instant;

use boardbot_rules::rng::below;
use boardbot_rules::{Featurize, Game, SeededRng, View, CHANCE, TERMINAL};

use crate::config::SearchConfig;
use crate::control::{StopFlags, StopReason, STOP_POLL_EVERY};
use crate::guided::{leaf_value, priors, stored_prior, Model, NetBuffers};
use crate::results::{RootTally, TreeReport};
use crate::rewards::terminal_reward;
use crate::rollout::{rollout, RolloutBuffers, RolloutSettings};
use crate::seeds::{pv_rng, tree_rng};
use crate::tree::{NodeId, Tree, ROOT};

/// Moves shown in a principal variation, the root move included.
pub const PV_LENGTH: usize = 8;

/// Iterations between two checks of the early-stop condition.
pub const EARLY_STOP_EVERY: u64 = 8;

/// The selection score of a child: `mean + exploration · sqrt(ln(avail) / visits)`, where
/// `avail` counts the parent's visits in which this child's action was legal.
#[inline]
pub fn ucb_score(total: f64, visits: u64, avail: u64, exploration: f64) -> f64 {
    let visits = visits as f64;
    total / visits + exploration * ((avail as f64).ln() / visits).sqrt()
}

/// The most children a node may have for one seat under progressive widening:
/// `ceil(k · visits^alpha)`, `visits` counting the node's visits with that seat to move, the
/// current one included.
#[inline]
pub fn widening_limit(k: f64, alpha: f64, visits: u64) -> f64 {
    (k * (visits as f64).powf(alpha)).ceil()
}

/// `prior_weight · P(a)` for each of `actions` into `out`, P the game's `policy_weights`
/// normalised over `actions` (all 0 when the weights do not sum to a positive number).
pub fn prior_bias<G: Game>(
    game: &G,
    state: &G::State,
    actions: &[G::Action],
    prior_weight: f64,
    out: &mut Vec<f64>,
) {
    game.policy_weights(state, actions, out);
    out.resize(actions.len(), 0.0);
    let total: f64 = out.iter().sum();
    if total > 0.0 {
        let scale = prior_weight / total;
        for weight in out.iter_mut() {
            *weight *= scale;
        }
    } else {
        out.iter_mut().for_each(|w| *w = 0.0);
    }
}

/// The PUCT selection score of a decision: `q + puct · prior · sqrt(n_parent) / (1 + visits)`.
#[inline]
pub fn puct_score(q: f64, prior: f64, sqrt_parent: f64, visits: u64, puct: f64) -> f64 {
    q + puct * prior * sqrt_parent / (1.0 + visits as f64)
}

/// A wall-clock stop: the instant, and the reason it stands for (time budget or deadline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopAt {
    /// When to stop.
    pub instant: Instant,
    /// [`StopReason::Time`] or [`StopReason::Deadline`].
    pub reason: StopReason,
}

/// The limits of one tree's run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunLimits {
    /// This tree's iteration budget (None: unbounded).
    pub iterations: Option<u64>,
    /// The wall-clock stop, if any.
    pub stop_at: Option<StopAt>,
    /// Iterations between two progress calls (0: none).
    pub progress_every: u64,
}

/// Grows one ISMCTS tree for the seat of `view`, from worlds sampled from it, seeded by `seed`;
/// the tree never sees more than the view.
pub struct TreeSearch<'g, G: Featurize> {
    game: &'g G,
    view: &'g View<G::State>,
    seat_id: u32,
    exploration: f64,
    prior_weight: f64,
    widening: f64,
    widening_exponent: f64,
    node_cap: usize,
    early_stop: bool,
    rollout: RolloutSettings,
    seed: u64,
    rng: SeededRng,
    tree: Tree<G::Action>,
    iterations: u64,
    root_actions: Vec<G::Action>,
    pv_world: Option<(G::State, SeededRng)>,
    legal: Vec<G::Action>,
    untried: Vec<G::Action>,
    priors: Vec<f64>,
    path: Vec<(NodeId, usize)>,
    reward: Vec<f64>,
    buffers: RolloutBuffers<G::Action>,
    guide: Option<Guide<G::Action>>,
}

/// What a search with a model keeps: the network, its settings and its buffers.
struct Guide<A> {
    model: Model,
    leaf_lambda: f64,
    puct: f64,
    fpu: f64,
    margin_weight: f64,
    buffers: NetBuffers<A>,
    mixed: Vec<f64>,
}

impl<'g, G: Featurize> TreeSearch<'g, G> {
    /// A tree holding only its root; nothing is searched yet.
    pub fn new(game: &'g G, view: &'g View<G::State>, config: &SearchConfig, seed: u64) -> Self {
        Self::with_tree(game, view, config, seed, Tree::new())
    }

    /// A search growing on `tree` (a subtree of an earlier search re-rooted at the node that
    /// stands for the view: tree reuse), its statistics kept; nothing is searched yet.
    pub fn with_tree(
        game: &'g G,
        view: &'g View<G::State>,
        config: &SearchConfig,
        seed: u64,
        tree: Tree<G::Action>,
    ) -> Self {
        let mut root_actions = Vec::new();
        game.legal_actions(view.state(), &mut root_actions);
        Self {
            game,
            view,
            seat_id: u32::try_from(view.seat()).unwrap_or(u32::MAX),
            exploration: config.exploration,
            prior_weight: config.prior_weight,
            widening: config.widening,
            widening_exponent: config.widening_exponent,
            node_cap: config.node_cap,
            early_stop: config.early_stop,
            rollout: RolloutSettings::from_config(config),
            seed,
            rng: tree_rng(seed),
            tree,
            iterations: 0,
            root_actions,
            pv_world: None,
            legal: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            priors: Vec::with_capacity(64),
            path: Vec::with_capacity(64),
            reward: Vec::with_capacity(8),
            buffers: RolloutBuffers::default(),
            guide: config.model.clone().map(|model| Guide {
                model,
                leaf_lambda: config.leaf_lambda,
                puct: config.puct,
                fpu: config.fpu,
                margin_weight: config.margin_weight,
                buffers: NetBuffers::default(),
                mixed: Vec::with_capacity(8),
            }),
        }
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Nodes in the tree, the root included.
    pub fn nodes(&self) -> usize {
        self.tree.len()
    }

    /// The tree itself.
    pub fn tree(&self) -> &Tree<G::Action> {
        &self.tree
    }

    /// The tree, to keep for a later search (tree reuse).
    pub fn into_tree(self) -> Tree<G::Action> {
        self.tree
    }

    /// One iteration: determinize, select/expand, roll out, back up the reward vector (with
    /// a model: PUCT on learned priors and the network's value at the leaf).
    pub fn iterate(&mut self) {
        if let Some(mut guide) = self.guide.take() {
            self.iterate_guided(&mut guide);
            self.guide = Some(guide);
            return;
        }
        let game = self.game;
        let c = self.exploration;
        let can_grow = self.tree.len() < self.node_cap;
        let mut state = game.determinize(self.view, &mut self.rng);
        let mut node = ROOT;
        self.path.clear();
        while let Some(mover) = self.next_mover(&mut state) {
            game.legal_actions(&state, &mut self.legal);
            self.untried.clear();
            let mut may_grow = can_grow;
            if self.widening > 0.0 && can_grow {
                let (children, visits) = self
                    .tree
                    .edges(node)
                    .iter()
                    .filter(|e| e.seat == mover)
                    .fold((0u64, 1u64), |(n, v), e| (n + 1, v + e.visits));
                if children > 0 {
                    let limit = widening_limit(self.widening, self.widening_exponent, visits);
                    may_grow = (children as f64) < limit;
                }
            }
            let priors = self.prior_weight > 0.0;
            if priors {
                prior_bias(
                    game,
                    &state,
                    &self.legal,
                    self.prior_weight,
                    &mut self.priors,
                );
            }
            let mut best: Option<usize> = None;
            let mut best_score = f64::NEG_INFINITY;
            let mut chosen: Option<G::Action> = None;
            let mut chosen_bias = f64::NEG_INFINITY;
            let edges = self.tree.edges_mut(node);
            for (k, &action) in self.legal.iter().enumerate() {
                let bias = if priors {
                    self.priors.get(k).copied().unwrap_or(0.0)
                } else {
                    0.0
                };
                let Some(i) = edges
                    .iter()
                    .position(|e| e.action == action && e.seat == mover)
                else {
                    if priors {
                        if bias > chosen_bias {
                            chosen_bias = bias;
                            chosen = Some(action);
                        }
                    } else {
                        self.untried.push(action);
                    }
                    continue;
                };
                let edge = &mut edges[i];
                edge.avail += 1;
                let untried_seen = chosen.is_some() || !self.untried.is_empty();
                if !untried_seen || !may_grow {
                    let mut score = ucb_score(edge.total, edge.visits, edge.avail, c);
                    if priors {
                        score += bias / (edge.visits as f64 + 1.0);
                    }
                    if score > best_score {
                        best_score = score;
                        best = Some(i);
                    }
                }
            }
            let expand = can_grow && (may_grow || best.is_none());
            if expand && !priors && !self.untried.is_empty() {
                let count = self.untried.len();
                let pick = if count > 1 {
                    below(&mut self.rng, count as u32) as usize
                } else {
                    0
                };
                chosen = Some(self.untried[pick]);
            }
            if let Some(action) = chosen.filter(|_| expand) {
                self.expand(node, mover, action, &mut state);
                break;
            }
            let Some(i) = best else { break };
            node = self.follow(node, i, &mut state);
        }
        rollout(
            game,
            state,
            &mut self.rng,
            &self.rollout,
            &mut self.buffers,
            &mut self.reward,
        );
        self.back_up();
    }

    /// One iteration guided by a model: determinize; select by PUCT on the priors stored at
    /// each node (computed from the view of the seat to move the first time a node meets a
    /// decision it has none for), expanding the best-scoring untried decision; then value
    /// the leaf with `leaf_lambda · net + (1 - leaf_lambda) · rollout` and back it up.
    fn iterate_guided(&mut self, guide: &mut Guide<G::Action>) {
        let game = self.game;
        let net = Arc::clone(&guide.model.0);
        let can_grow = self.tree.len() < self.node_cap;
        let mut state = game.determinize(self.view, &mut self.rng);
        let mut node = ROOT;
        self.path.clear();
        while let Some(mover) = self.next_mover(&mut state) {
            game.legal_actions(&state, &mut self.legal);
            if self.legal.is_empty() {
                break;
            }
            if self.legal.len() == 1 {
                self.priors.clear();
                self.priors.push(1.0);
            } else if !self.gather_priors(node, mover) {
                leaf_value(
                    game,
                    &net,
                    &state,
                    mover as usize,
                    &mut guide.buffers,
                    &mut self.reward,
                );
                priors(game, &net, &state, mover, &self.legal, &mut guide.buffers);
                let stored = self.tree.priors(node);
                let fresh: Vec<_> = guide
                    .buffers
                    .priors
                    .iter()
                    .copied()
                    .filter(|p| {
                        !stored
                            .iter()
                            .any(|k| k.seat == p.seat && k.action == p.action)
                    })
                    .collect();
                self.tree.add_priors(node, fresh);
                self.gather_priors(node, mover);
            }
            let (visits, total) = self
                .tree
                .edges(node)
                .iter()
                .filter(|e| e.seat == mover)
                .fold((0u64, 0.0), |(n, t), e| (n + e.visits, t + e.total));
            let parent_q = if visits > 0 {
                total / visits as f64
            } else {
                0.5
            };
            let fpu_q = parent_q - guide.fpu;
            let sqrt_parent = (visits.max(1) as f64).sqrt();
            let mut best_score = f64::NEG_INFINITY;
            let mut best_edge: Option<usize> = None;
            let mut best_new: Option<G::Action> = None;
            let edges = self.tree.edges_mut(node);
            for (k, &action) in self.legal.iter().enumerate() {
                let prior = self.priors.get(k).copied().unwrap_or(0.0);
                let found = edges
                    .iter()
                    .position(|e| e.action == action && e.seat == mover);
                let score = match found {
                    Some(i) => {
                        let edge = &mut edges[i];
                        edge.avail += 1;
                        let q = if edge.visits > 0 {
                            edge.total / edge.visits as f64
                        } else {
                            fpu_q
                        };
                        puct_score(q, prior, sqrt_parent, edge.visits, guide.puct)
                    }
                    None if can_grow => puct_score(fpu_q, prior, sqrt_parent, 0, guide.puct),
                    None => continue,
                };
                if score > best_score {
                    best_score = score;
                    (best_edge, best_new) = match found {
                        Some(i) => (Some(i), None),
                        None => (None, Some(action)),
                    };
                }
            }
            if let Some(action) = best_new {
                node = self.expand(node, mover, action, &mut state);
                break;
            }
            let Some(i) = best_edge else { break };
            node = self.follow(node, i, &mut state);
        }
        self.guided_leaf(guide, &net, node, state);
        self.back_up();
    }

    /// Sample chance steps on from `state` to the next decision: its mover, or None at the
    /// end of the game (or at a chance step without an outcome).
    fn next_mover(&mut self, state: &mut G::State) -> Option<u32> {
        loop {
            let player = self.game.current_player(state);
            if player >= 0 {
                return Some(player as u32);
            }
            if player != CHANCE {
                return None;
            }
            let outcome = self.game.sample_chance(state, &mut self.rng)?;
            *state = self.game.apply(state, outcome);
        }
    }

    /// Take `mover`'s untried `action` at `node`: a new edge joins the path (unless the arena
    /// is full) and `state` takes the action; the new node (`node` when none was added).
    fn expand(
        &mut self,
        node: NodeId,
        mover: u32,
        action: G::Action,
        state: &mut G::State,
    ) -> NodeId {
        let mut leaf = node;
        if let Some(i) = self.tree.add_edge(node, mover, action) {
            self.path.push((node, i));
            leaf = self.tree.edges(node)[i].child;
        }
        *state = self.game.apply(state, action);
        leaf
    }

    /// Follow edge `i` of `node`: it joins the path and `state` takes its action; its child.
    fn follow(&mut self, node: NodeId, i: usize, state: &mut G::State) -> NodeId {
        let edge = &self.tree.edges(node)[i];
        let (action, child) = (edge.action, edge.child);
        self.path.push((node, i));
        *state = self.game.apply(state, action);
        child
    }

    /// Add the iteration's reward vector to every edge of its path (each edge its seat's
    /// reward, the root's edge every seat's: [`crate::tree::SeatSums`]); count the iteration.
    fn back_up(&mut self) {
        for &(parent, i) in &self.path {
            let edge = &mut self.tree.edges_mut(parent)[i];
            edge.visits += 1;
            edge.total += self.reward.get(edge.seat as usize).copied().unwrap_or(0.0);
        }
        if let Some(&(ROOT, i)) = self.path.first() {
            self.tree.add_root_reward(i, &self.reward);
        }
        self.iterations += 1;
    }

    /// The stored prior of each of `self.legal` for `mover` at `node` into `self.priors`;
    /// false when some decision has none yet (its entry is 0).
    fn gather_priors(&mut self, node: NodeId, mover: u32) -> bool {
        let stored = self.tree.priors(node);
        self.priors.clear();
        let mut complete = true;
        for (k, &action) in self.legal.iter().enumerate() {
            let prior = stored_prior(stored, mover, action, k);
            complete &= prior.is_some();
            self.priors.push(prior.map_or(0.0, f64::from));
        }
        complete
    }

    /// The reward vector of a guided iteration's leaf into `self.reward`: chance steps are
    /// sampled on to the next decision; the end of the game scores exactly; a decision gets
    /// the network's value from its mover's view (mixed with a rollout when `leaf_lambda` <
    /// 1), and its priors are stored at `node` when it has none for that seat.
    fn guided_leaf(
        &mut self,
        guide: &mut Guide<G::Action>,
        net: &crate::net::Network,
        node: NodeId,
        mut state: G::State,
    ) {
        let game = self.game;
        let Some(mover) = self.next_mover(&mut state) else {
            if game.current_player(&state) == TERMINAL {
                terminal_reward(game, &state, guide.margin_weight, &mut self.reward);
            } else {
                game.evaluate(&state, &mut self.reward);
            }
            return;
        };
        if guide.leaf_lambda > 0.0 {
            leaf_value(
                game,
                net,
                &state,
                mover as usize,
                &mut guide.buffers,
                &mut self.reward,
            );
            if !self.tree.priors(node).iter().any(|p| p.seat == mover) {
                game.legal_actions(&state, &mut self.legal);
                priors(game, net, &state, mover, &self.legal, &mut guide.buffers);
                self.tree
                    .add_priors(node, guide.buffers.priors.iter().copied());
            }
        }
        if guide.leaf_lambda < 1.0 {
            guide.mixed.clear();
            guide.mixed.extend_from_slice(&self.reward);
            rollout(
                game,
                state,
                &mut self.rng,
                &self.rollout,
                &mut self.buffers,
                &mut self.reward,
            );
            let lambda = guide.leaf_lambda;
            if lambda > 0.0 {
                for (r, net_value) in self.reward.iter_mut().zip(&guide.mixed) {
                    *r = lambda * net_value + (1.0 - lambda) * *r;
                }
            }
        }
    }

    /// Iterate until a limit ends the run; return what stopped it.
    ///
    /// Checked before each iteration, in this order: the iteration budget; then, once at least
    /// one iteration has run, the clock (every iteration), `flags` (every
    /// [`STOP_POLL_EVERY`] iterations) and early stop (every [`EARLY_STOP_EVERY`] iterations,
    /// with an iteration budget). `on_progress` runs after every `progress_every`-th iteration.
    pub fn run(
        &mut self,
        limits: &RunLimits,
        flags: StopFlags<'_>,
        mut on_progress: impl FnMut(&mut Self),
    ) -> StopReason {
        let early_stop = self.early_stop && limits.iterations.is_some();
        loop {
            if let Some(budget) = limits.iterations {
                if self.iterations >= budget {
                    return StopReason::Iterations;
                }
            }
            if self.iterations > 0 {
                if let Some(stop) = limits.stop_at {
                    if Instant::now() >= stop.instant {
                        return stop.reason;
                    }
                }
                if self.iterations % STOP_POLL_EVERY == 0 && flags.is_set() {
                    return StopReason::Cancelled;
                }
                if early_stop && self.iterations % EARLY_STOP_EVERY == 0 {
                    let remaining = limits.iterations.unwrap_or(0) - self.iterations;
                    if self.decided(remaining) {
                        return StopReason::EarlyStop;
                    }
                }
            }
            self.iterate();
            if limits.progress_every > 0 && self.iterations % limits.progress_every == 0 {
                on_progress(self);
            }
        }
    }

    /// True when the runner-up root move cannot catch the leader in `remaining` iterations.
    pub fn decided(&self, remaining: u64) -> bool {
        let (mut first, mut second, mut any) = (0, 0, false);
        for edge in self
            .tree
            .edges(ROOT)
            .iter()
            .filter(|e| e.seat == self.seat_id)
        {
            any = true;
            if edge.visits > first {
                second = first;
                first = edge.visits;
            } else if edge.visits > second {
                second = edge.visits;
            }
        }
        any && first - second > remaining
    }

    /// The root tallies (every legal root move, visited or not, then any other root move the
    /// tree met) and counters.
    pub fn report(&mut self, stopped_by: StopReason) -> TreeReport<G::Action> {
        let mut actions = self.root_actions.clone();
        for edge in self.tree.edges(ROOT) {
            if edge.seat == self.seat_id && !actions.contains(&edge.action) {
                actions.push(edge.action);
            }
        }
        let tallies = actions
            .into_iter()
            .map(|action| {
                let index = self.tree.find_edge(ROOT, self.seat_id, action);
                let found = index.map(|i| &self.tree.edges(ROOT)[i]);
                let (visits, total, child) =
                    found.map_or((0, 0.0, None), |e| (e.visits, e.total, Some(e.child)));
                let sums = index
                    .and_then(|i| self.tree.root_sums(i))
                    .cloned()
                    .unwrap_or_default();
                let (principal_variation, principal_variation_seats) =
                    self.principal_variation(action, child);
                RootTally {
                    action,
                    visits,
                    total,
                    seat_visits: sums.visits,
                    seat_totals: sums.totals,
                    principal_variation,
                    principal_variation_seats,
                }
            })
            .collect();
        TreeReport {
            tallies,
            iterations: self.iterations,
            nodes: self.tree.len() as u64,
            stopped_by,
        }
    }

    /// The most visited line from root move `action`, replayed in one fixed determinization
    /// (the same world and chance stream for every root move), with the seat that plays each
    /// of its moves there.
    ///
    /// It stops after [`PV_LENGTH`] moves, where the tree ends, at the end of the game, or
    /// where the next move is not legal in that world.
    pub fn principal_variation(
        &mut self,
        action: G::Action,
        child: Option<NodeId>,
    ) -> (Vec<String>, Vec<usize>) {
        let game = self.game;
        let (world, world_rng) = self.pv_world.get_or_insert_with(|| {
            let mut rng = pv_rng(self.seed);
            let world = game.determinize(self.view, &mut rng);
            (world, rng)
        });
        let mut rng = world_rng.clone();
        let mut state = world.clone();
        let mut line = vec![game.action_to_str(&state, action)];
        let mut seats = vec![self.view.seat()];
        game.legal_actions(&state, &mut self.legal);
        if !self.legal.contains(&action) {
            return (line, seats);
        }
        state = game.apply(&state, action);
        let mut node = child;
        while let Some(current) = node {
            if line.len() >= PV_LENGTH {
                break;
            }
            while game.current_player(&state) == CHANCE {
                let Some(outcome) = game.sample_chance(&state, &mut rng) else {
                    return (line, seats);
                };
                state = game.apply(&state, outcome);
            }
            let Ok(player) = u32::try_from(game.current_player(&state)) else {
                break;
            };
            let edges = self.tree.edges(current);
            let next = if edges.iter().any(|e| e.seat == player) {
                self.tree.most_visited(current, player)
            } else {
                self.tree.most_visited_any(current)
            };
            let Some(next) = next.filter(|e| e.visits > 0) else {
                break;
            };
            game.legal_actions(&state, &mut self.legal);
            if !self.legal.contains(&next.action) {
                break;
            }
            line.push(game.action_to_str(&state, next.action));
            seats.push(player as usize);
            state = game.apply(&state, next.action);
            node = Some(next.child);
        }
        (line, seats)
    }
}
