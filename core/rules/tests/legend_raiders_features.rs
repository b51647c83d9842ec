//! Features of Legend Raiders views (`Featurize`) over seeded random games of 2, 3 and 4
//! players, with the die and diceless: the vector has its size and stays about [0, 1], a
//! seat's features are those of its view and of every world of that view, and action
//! features are ascending indices inside the action-feature space.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use std::time::Instant;

use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Featurize, Game, SeededRng, CHANCE, TERMINAL};
use common::{playout, CONFIGS, GAME};

/// Every configuration, two games each, every state.
fn every_state(mut visit: impl FnMut(&RaidersState, &mut SeededRng, &str)) {
    for (i, (players, variant)) in CONFIGS.iter().enumerate() {
        for game in 0..2 {
            let seed = 900 + (i as u64) * 100 + game;
            let context = format!("{players} players {variant}, seed {seed}");
            playout(*players, variant, seed, |state, rng| {
                visit(state, rng, &context)
            });
        }
    }
}

#[test]
fn the_sizes_follow_the_player_count() {
    assert_eq!(GAME.feature_size(2), 317);
    assert_eq!(GAME.feature_size(3), 376);
    assert_eq!(GAME.feature_size(4), 435);
    assert_eq!(GAME.action_feature_size(), 228);
    assert_eq!(
        <boardbot_rules::LegendRaiders as Featurize>::FEATURES_VERSION,
        1
    );
}

#[test]
fn features_have_their_size_and_stay_in_range() {
    let mut out = Vec::new();
    let mut seen = 0;
    every_state(|state, _, context| {
        let n = state.n_players();
        for seat in 0..n {
            GAME.features(state, seat, &mut out);
            assert_eq!(out.len(), GAME.feature_size(n), "{context}");
            for (i, &x) in out.iter().enumerate() {
                assert!((0.0..=2.0).contains(&x), "{context}: value {i} is {x}");
            }
            seen += 1;
        }
    });
    assert!(seen > 1_000, "{seen}");
}

#[test]
fn a_seat_s_features_are_those_of_every_world_of_its_view() {
    let (mut a, mut b, mut truth) = (Vec::new(), Vec::new(), Vec::new());
    let (mut legal, mut fa, mut fb) = (Vec::new(), Vec::new(), Vec::new());
    let mut changed = 0;
    every_state(|state, rng, context| {
        if below(rng, 2) != 0 {
            return;
        }
        let n = state.n_players();
        for seat in 0..n {
            let view = GAME.observe(state, seat);
            let one = GAME.determinize(&view, &mut seeded_rng(u64::from(below(rng, 1000))));
            let two = GAME.determinize(&view, &mut seeded_rng(u64::from(below(rng, 1000))));
            if one != two {
                changed += 1;
            }
            GAME.features(state, seat, &mut truth);
            GAME.features(&one, seat, &mut a);
            GAME.features(&two, seat, &mut b);
            assert_eq!(a, truth, "{context}: seat {seat}");
            assert_eq!(b, truth, "{context}: seat {seat}");
            if GAME.current_player(state) == seat as i32 {
                GAME.legal_actions(state, &mut legal);
                for &action in &legal {
                    fa.clear();
                    fb.clear();
                    GAME.action_features(state, action, &mut fa);
                    GAME.action_features(&one, action, &mut fb);
                    assert_eq!(fa, fb, "{context}: action {action}");
                }
            }
        }
    });
    assert!(
        changed > 100,
        "{changed} determinizations changed the world"
    );
}

#[test]
fn action_features_are_ascending_indices_in_the_space() {
    let mut legal = Vec::new();
    let mut idx = Vec::new();
    let size = GAME.action_feature_size() as u32;
    every_state(|state, _, context| {
        let player = GAME.current_player(state);
        if player == TERMINAL {
            return;
        }
        if player == CHANCE {
            for (action, _) in GAME.chance_outcomes(state).unwrap() {
                idx.clear();
                GAME.action_features(state, action, &mut idx);
                assert_eq!(idx.len(), 1, "{context}: a chance outcome gives its kind");
            }
            return;
        }
        GAME.legal_actions(state, &mut legal);
        for &action in &legal {
            idx.clear();
            GAME.action_features(state, action, &mut idx);
            assert_eq!(idx[0], u32::from(action), "{context}");
            assert!(idx.windows(2).all(|w| w[0] < w[1]), "{context}: {idx:?}");
            assert!(idx.iter().all(|&i| i < size), "{context}: {idx:?}");
        }
    });
    idx.clear();
    GAME.action_features(
        &GAME.new_state(&serde_json::json!({}), 1).unwrap(),
        60_000,
        &mut idx,
    );
    assert!(idx.is_empty());
}

/// Nanoseconds per `features` call by player count (run with `--release --ignored --nocapture`).
#[test]
#[ignore = "a timing, meaningful in release builds only"]
fn time_features() {
    let mut states = Vec::new();
    every_state(|state, _, _| states.push(state.clone()));
    let mut out = Vec::new();
    for n in 2..=4 {
        let some: Vec<&RaidersState> = states.iter().filter(|s| s.n_players() == n).collect();
        let start = Instant::now();
        let mut calls = 0u64;
        for _ in 0..20 {
            for state in &some {
                GAME.features(state, calls as usize % n, &mut out);
                calls += 1;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / calls as f64;
        println!("{n} players: {calls} calls, {ns:.0} ns per features call");
    }
}
