//! Priors in selection (progressive bias) and progressive widening (the twin of
//! tests/search/test_priors_widening.py).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod toy_games;

use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, Leda, CHANCE};
use boardbot_search::tree_search::widening_limit;
use boardbot_search::{search, RolloutPolicy, SearchConfig, SearchError};
use serde_json::json;
use toy_games::{figures, needle, nim, NeedleRules, NimRules};

fn plain(n: u64) -> SearchConfig {
    SearchConfig {
        iterations: Some(n),
        early_stop: false,
        ..SearchConfig::default()
    }
}

/// Root children after `iterations` under widening: one expansion per visit while fewer than
/// `ceil(k · visits^alpha)` (visits counting the current one) and moves remain.
fn expanded_after(iterations: u64, k: f64, alpha: f64, moves: usize) -> usize {
    let mut children = 0usize;
    for visits in 1..=iterations {
        let limit = (k * (visits as f64).powf(alpha)).ceil();
        if children < moves && (children == 0 || (children as f64) < limit) {
            children += 1;
        }
    }
    children
}

fn visited<A>(result: &boardbot_search::SearchResult<A>) -> usize {
    result.moves.iter().filter(|m| m.visits > 0).count()
}

/// A LEDA decision with many legal moves, from a seeded random game.
fn leda_decision(seed: u64, steps: usize) -> (<Leda as Game>::State, usize) {
    let game = Leda;
    let mut rng = seeded_rng(seed);
    let mut state = game.new_state(&json!({}), seed).unwrap();
    let mut legal = Vec::new();
    let mut taken = 0;
    loop {
        let player = game.current_player(&state);
        if player == CHANCE {
            let outcome = game.sample_chance(&state, &mut rng).unwrap();
            state = game.apply(&state, outcome);
            continue;
        }
        assert!(player >= 0, "the game ended before {steps} steps");
        game.legal_actions(&state, &mut legal);
        if taken >= steps && legal.len() > 20 {
            return (state, player as usize);
        }
        let action = legal[below(&mut rng, legal.len() as u32) as usize];
        state = game.apply(&state, action);
        taken += 1;
    }
}

fn leda_medium(n: u64) -> SearchConfig {
    SearchConfig {
        rollout: RolloutPolicy::Heuristic,
        cutoff_depth: Some(12),
        ..plain(n)
    }
}

#[test]
fn defaults_are_todays_search() {
    let default = SearchConfig::default();
    assert_eq!(default.prior_weight, 0.0);
    assert_eq!(default.widening, 0.0);
    let (state, seat) = leda_decision(4, 30);
    let config = leda_medium(300);
    let explicit = SearchConfig {
        prior_weight: 0.0,
        widening: 0.0,
        widening_exponent: 0.5,
        ..config.clone()
    };
    let a = search(&Leda, &state, seat, &config, 9).unwrap();
    let b = search(&Leda, &state, seat, &explicit, 9).unwrap();
    assert_eq!(figures(&a), figures(&b));
}

#[test]
fn priors_find_the_needle_in_fewer_iterations() {
    let game = needle();
    let state = NeedleRules::state(20, 13);
    let guided = SearchConfig {
        prior_weight: 1.0,
        ..plain(10)
    };
    let found = |config: &SearchConfig| {
        (0..10)
            .filter(|&seed| search(&game, &state, 0, config, seed).unwrap().notation == "m13")
            .count()
    };
    assert_eq!(found(&guided), 10);
    assert!(found(&plain(10)) < 10);
    let one = SearchConfig {
        iterations: Some(1),
        ..guided
    };
    assert_eq!(search(&game, &state, 0, &one, 3).unwrap().notation, "m13");
}

#[test]
fn priors_keep_the_search_correct() {
    let config = SearchConfig {
        prior_weight: 2.0,
        ..plain(3000)
    };
    let result = search(&nim(), &NimRules::state(11), 0, &config, 1).unwrap();
    assert_eq!(result.action, 3);
}

#[test]
fn widening_caps_the_root_children() {
    let game = needle();
    let state = NeedleRules::state(40, 13);
    for (k, alpha, n) in [(1.0, 0.5, 50), (2.0, 0.3, 120), (0.5, 1.0, 9)] {
        for prior_weight in [0.0, 1.0] {
            let config = SearchConfig {
                widening: k,
                widening_exponent: alpha,
                prior_weight,
                ..plain(n)
            };
            let result = search(&game, &state, 0, &config, 5).unwrap();
            let expected = expanded_after(n, k, alpha, 40);
            assert_eq!(visited(&result), expected, "k {k} alpha {alpha}");
            assert_eq!(result.nodes, 1 + expected as u64);
        }
    }
    assert_eq!(expanded_after(50, 1.0, 0.5, 40), 8);
    assert_eq!(expanded_after(9, 0.5, 1.0, 40), 5);
    assert_eq!(widening_limit(1.0, 0.5, 1), 1.0);
}

#[test]
fn widening_with_priors_expands_the_likeliest_first() {
    let game = needle();
    let state = NeedleRules::state(40, 31);
    let config = SearchConfig {
        widening: 1.0,
        prior_weight: 1.0,
        ..plain(30)
    };
    let result = search(&game, &state, 0, &config, 2).unwrap();
    let mut seen: Vec<&str> = result
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .map(|m| m.notation.as_str())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, ["m0", "m1", "m2", "m3", "m31", "m4"]);
    assert_eq!(result.notation, "m31");
}

#[test]
fn widening_caps_a_real_games_root_on_every_worker() {
    let (state, seat) = leda_decision(2, 30);
    let mut legal = Vec::new();
    Leda.legal_actions(&state, &mut legal);
    for workers in [1, 2] {
        let config = SearchConfig {
            workers,
            prior_weight: 1.0,
            widening: 1.0,
            ..leda_medium(120 * workers as u64)
        };
        let first = search(&Leda, &state, seat, &config, 4).unwrap();
        let again = search(&Leda, &state, seat, &config, 4).unwrap();
        assert_eq!(figures(&first), figures(&again));
        // Priors order the expansions alike in every tree: the trees share their children.
        assert_eq!(
            visited(&first),
            expanded_after(120, 1.0, 0.5, legal.len()),
            "{workers} workers"
        );
    }
}

#[test]
fn out_of_range_values_are_refused() {
    let game = nim();
    let state = NimRules::state(5);
    let cases = [
        SearchConfig {
            prior_weight: -1.0,
            ..plain(10)
        },
        SearchConfig {
            widening: f64::INFINITY,
            ..plain(10)
        },
        SearchConfig {
            widening_exponent: 1.5,
            ..plain(10)
        },
    ];
    let errors: Vec<SearchError> = cases
        .iter()
        .map(|config| search(&game, &state, 0, config, 0).unwrap_err())
        .collect();
    assert_eq!(
        errors,
        [
            SearchError::PriorWeightOutOfRange { prior_weight: -1.0 },
            SearchError::WideningOutOfRange {
                widening: f64::INFINITY
            },
            SearchError::WideningExponentOutOfRange {
                widening_exponent: 1.5
            },
        ]
    );
    assert_eq!(
        errors[0].to_string(),
        "prior_weight must be a finite number >= 0, got -1"
    );
}
