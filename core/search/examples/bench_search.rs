//! Search speed: iterations per second of the native ISMCTS on two-player Legend Raiders at the
//! `medium` preset's settings (400 iterations, exploration 0.7, heuristic rollouts, cut-off 12;
//! early stop off so every search spends its budget), like `boardbot bench search`.
//!
//! Positions: the decisions at 10%, 50% and 85% of seeded random games. Each position is
//! searched again and again (seeds 0, 1, ...) for the given seconds; the figure is all
//! iterations over all search time. A second pass runs the same searches through a game
//! wrapper that times every engine call and every drop of a state, for the share of time spent
//! inside the engine (the clock's own cost, calibrated first, is taken out of both sides; the
//! figure is indicative, as the clock costs about as much as a small engine call).
//!
//! ```sh
//! cargo run --release --example bench_search -- [SECONDS_PER_POSITION] [GAMES] [WORKERS] [SHARE]
//! ```
//!
//! Defaults: 2 seconds, 2 games (6 positions), 1 worker, SHARE 1 (0 skips the timed pass).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::rng::below;
use boardbot_rules::{
    seeded_rng, ActionError, Featurize, Game, InvalidState, LegendRaiders, View, CHANCE, TERMINAL,
};
use boardbot_search::{search, RolloutPolicy, SearchConfig};
use rand_core::RngCore;
use serde_json::{json, Value};

/// The `medium` preset (search/presets.py) without early stop.
fn medium(workers: usize) -> SearchConfig {
    SearchConfig {
        iterations: Some(400),
        exploration: 0.7,
        rollout: RolloutPolicy::Heuristic,
        cutoff_depth: Some(12),
        temperature: 0.0,
        early_stop: false,
        workers,
        ..SearchConfig::default()
    }
}

/// The decisions at 10%, 50% and 85% of one seeded random two-player game.
fn positions(seed: u64) -> Vec<RaidersState> {
    let game = LegendRaiders;
    let mut rng = seeded_rng(seed);
    let mut state = game.new_state(&json!({"players": 2}), seed).unwrap();
    let mut legal = Vec::new();
    let mut decisions = Vec::new();
    loop {
        let action = match game.current_player(&state) {
            TERMINAL => break,
            CHANCE => game.sample_chance(&state, &mut rng).unwrap(),
            _ => {
                game.legal_actions(&state, &mut legal);
                if legal.len() > 1 {
                    decisions.push(state.clone());
                }
                legal[below(&mut rng, legal.len() as u32) as usize]
            }
        };
        state = game.apply(&state, action);
    }
    let n = decisions.len();
    [n / 10, n / 2, n * 85 / 100]
        .iter()
        .map(|&i| decisions[i].clone())
        .collect()
}

/// Search `state` repeatedly for `seconds`; (iterations, time inside the searches, searches).
fn run<G: Featurize>(
    game: &G,
    state: &G::State,
    config: &SearchConfig,
    seconds: f64,
) -> (u64, Duration, u64) {
    let seat = game.current_player(state) as usize;
    let (mut iterations, mut searches) = (0, 0);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        let result = search(game, state, seat, config, searches).unwrap();
        iterations += result.iterations;
        searches += 1;
    }
    (iterations, start.elapsed(), searches)
}

/// Nanoseconds spent inside the engine during the timed pass (calls and state drops).
static ENGINE_NANOS: AtomicU64 = AtomicU64::new(0);
/// Timed engine calls and state drops.
static ENGINE_CALLS: AtomicU64 = AtomicU64::new(0);

/// Run `call`, adding its time to the engine counters.
fn time<T>(call: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = call();
    let spent = start.elapsed().as_nanos() as u64;
    ENGINE_NANOS.fetch_add(spent, Ordering::Relaxed);
    ENGINE_CALLS.fetch_add(1, Ordering::Relaxed);
    out
}

/// A state whose drop (reference counts, freed players) is timed as engine time too; the
/// state of a view also keeps the inner game's view, so `determinize` can pass it on.
#[derive(Clone, Debug)]
struct TimedState<S> {
    state: Option<S>,
    view: Option<View<S>>,
}

impl<S: PartialEq> PartialEq for TimedState<S> {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
    }
}

impl<S: Clone> TimedState<S> {
    fn new(state: S) -> Self {
        Self {
            state: Some(state),
            view: None,
        }
    }

    fn of_view(view: View<S>) -> Self {
        Self {
            state: Some(view.state().clone()),
            view: Some(view),
        }
    }

    fn get(&self) -> &S {
        self.state.as_ref().expect("a live state")
    }
}

impl<S> Drop for TimedState<S> {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            time(|| drop(state));
        }
    }
}

/// A game that times every engine call (and every state drop) into the engine counters.
struct Timed<G>(G);

impl<G: Featurize> Featurize for Timed<G> {
    const FEATURES_VERSION: u32 = G::FEATURES_VERSION;

    fn feature_size(&self, players: usize) -> usize {
        self.0.feature_size(players)
    }
    fn features(&self, state: &Self::State, seat: usize, out: &mut Vec<f32>) {
        time(|| self.0.features(state.get(), seat, out));
    }
    fn action_feature_size(&self) -> usize {
        self.0.action_feature_size()
    }
    fn action_features(&self, state: &Self::State, action: G::Action, out: &mut Vec<u32>) {
        time(|| self.0.action_features(state.get(), action, out));
    }
}

impl<G: Game> Game for Timed<G> {
    type State = TimedState<G::State>;
    type Action = G::Action;

    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn min_players(&self) -> usize {
        self.0.min_players()
    }
    fn max_players(&self) -> usize {
        self.0.max_players()
    }
    fn describe_options(&self) -> Value {
        self.0.describe_options()
    }
    fn new_state(&self, options: &Value, seed: u64) -> Result<Self::State, InvalidState> {
        self.0.new_state(options, seed).map(TimedState::new)
    }
    fn num_players(&self, state: &Self::State) -> usize {
        time(|| self.0.num_players(state.get()))
    }
    fn current_player(&self, state: &Self::State) -> i32 {
        time(|| self.0.current_player(state.get()))
    }
    fn is_terminal(&self, state: &Self::State) -> bool {
        time(|| self.0.is_terminal(state.get()))
    }
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<G::Action>) {
        time(|| self.0.legal_actions(state.get(), out))
    }
    fn apply(&self, state: &Self::State, action: G::Action) -> Self::State {
        TimedState::new(time(|| self.0.apply(state.get(), action)))
    }
    fn chance_outcomes(&self, state: &Self::State) -> Option<Vec<(G::Action, f64)>> {
        time(|| self.0.chance_outcomes(state.get()))
    }
    fn sample_chance<R: RngCore + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
    ) -> Option<G::Action> {
        time(|| self.0.sample_chance(state.get(), rng))
    }
    fn observe(&self, state: &Self::State, seat: usize) -> View<Self::State> {
        let view = time(|| self.0.observe(state.get(), seat));
        View::new(seat, TimedState::of_view(view))
    }
    fn determinize<R: RngCore + ?Sized>(
        &self,
        view: &View<Self::State>,
        rng: &mut R,
    ) -> Self::State {
        match &view.state().view {
            Some(inner) => TimedState::new(time(|| self.0.determinize(inner, rng))),
            // A view made without `observe`: wrap its state (one copy, outside the timing).
            None => {
                let inner = View::new(view.seat(), view.state().get().clone());
                TimedState::new(time(|| self.0.determinize(&inner, rng)))
            }
        }
    }
    fn evaluate(&self, state: &Self::State, out: &mut Vec<f64>) {
        time(|| self.0.evaluate(state.get(), out))
    }
    fn policy_weights(&self, state: &Self::State, actions: &[G::Action], out: &mut Vec<f64>) {
        time(|| self.0.policy_weights(state.get(), actions, out))
    }
    fn returns(&self, state: &Self::State) -> Vec<f64> {
        time(|| self.0.returns(state.get()))
    }
    fn scores(&self, state: &Self::State) -> Vec<f64> {
        time(|| self.0.scores(state.get()))
    }
    fn state_from_json(&self, data: &Value) -> Result<Self::State, InvalidState> {
        time(|| self.0.state_from_json(data)).map(TimedState::new)
    }
    fn state_to_json(&self, state: &Self::State, observer: Option<usize>) -> Value {
        time(|| self.0.state_to_json(state.get(), observer))
    }
    fn action_to_str(&self, state: &Self::State, action: G::Action) -> String {
        time(|| self.0.action_to_str(state.get(), action))
    }
    fn action_from_str(&self, state: &Self::State, text: &str) -> Result<G::Action, ActionError> {
        time(|| self.0.action_from_str(state.get(), text))
    }
    fn action_to_json(&self, state: &Self::State, action: G::Action) -> Value {
        time(|| self.0.action_to_json(state.get(), action))
    }
    fn action_from_json(
        &self,
        state: &Self::State,
        data: &Value,
    ) -> Result<G::Action, ActionError> {
        time(|| self.0.action_from_json(state.get(), data))
    }
}

/// The cost of one timed call around nothing, in nanoseconds (two clock reads and the
/// counters).
fn clock_cost() -> f64 {
    let rounds = 1_000_000;
    let start = Instant::now();
    for _ in 0..rounds {
        time(|| ());
    }
    start.elapsed().as_nanos() as f64 / f64::from(rounds)
}

/// The engine's share of the time of `run` over `timed`, the clock's own cost taken out: a
/// timed call's interval holds about half the timing overhead, the run all of it.
fn engine_share<G: Featurize>(
    timed: &Timed<G>,
    state: &G::State,
    config: &SearchConfig,
    seconds: f64,
    per_call: f64,
) -> (f64, f64) {
    ENGINE_NANOS.store(0, Ordering::Relaxed);
    ENGINE_CALLS.store(0, Ordering::Relaxed);
    let state = TimedState::new(state.clone());
    let (_, elapsed, _) = run(timed, &state, config, seconds);
    let calls = ENGINE_CALLS.load(Ordering::Relaxed) as f64;
    let engine = ENGINE_NANOS.load(Ordering::Relaxed) as f64 - calls * per_call / 2.0;
    let total = elapsed.as_nanos() as f64 - calls * per_call;
    (engine, total)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let workers: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let share = args.get(4).map_or(true, |s| s != "0");
    let config = medium(workers);
    let per_call = if share { clock_cost() } else { 0.0 };
    println!(
        "Legend Raiders 2p, medium settings (400 iterations, exploration 0.7, heuristic, \
         cut-off 12, no early stop), {workers} worker(s), {seconds} s per position"
    );
    println!("| game | position | searches | iterations/s | engine share |");
    println!("|---|---|---|---|---|");
    let (mut all_iterations, mut all_time) = (0u64, Duration::ZERO);
    let (mut all_engine, mut all_timed) = (0.0f64, 0.0f64);
    for seed in 0..games {
        for (label, state) in ["10%", "50%", "85%"].iter().zip(positions(seed)) {
            let (iterations, elapsed, searches) = run(&LegendRaiders, &state, &config, seconds);
            all_iterations += iterations;
            all_time += elapsed;
            let mut share_text = "-".to_string();
            if share {
                let (engine, total) = engine_share(
                    &Timed(LegendRaiders),
                    &state,
                    &config,
                    seconds / 2.0,
                    per_call,
                );
                all_engine += engine;
                all_timed += total;
                share_text = format!("{:.0}%", 100.0 * engine / total);
            }
            println!(
                "| {seed} | {label} | {searches} | {:.0} | {share_text} |",
                iterations as f64 / elapsed.as_secs_f64(),
            );
        }
    }
    print!(
        "\nall positions: {:.0} iterations/s",
        all_iterations as f64 / all_time.as_secs_f64()
    );
    if share {
        print!(
            ", engine share {:.0}% (timed calls and state drops; {:.0} ns of clock per call \
             taken out)",
            100.0 * all_engine / all_timed,
            per_call
        );
    }
    println!();
}
