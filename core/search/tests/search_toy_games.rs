//! The ISMCTS algorithm on small games: forced wins, information sets, reward vectors, chance,
//! terminal rewards and the game's heuristics (the twin of tests/search/test_ismcts.py).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod toy_games;

use std::sync::atomic::Ordering;

use boardbot_rules::Game;
use boardbot_search::tree::ROOT;
use boardbot_search::tree_search::{ucb_score, TreeSearch};
use boardbot_search::{search, RolloutPolicy, SearchConfig};
use serde_json::json;
use toy_games::{
    by_notation, counting_nim, dice, guess, hidden_options, kingmaker, margin, nim, peeking_guess,
    GuessState, NimRules, OptionAction,
};

fn iterations(n: u64) -> SearchConfig {
    SearchConfig {
        iterations: Some(n),
        ..SearchConfig::default()
    }
}

fn no_early_stop(n: u64) -> SearchConfig {
    SearchConfig {
        early_stop: false,
        ..iterations(n)
    }
}

#[test]
fn a_forced_win_is_found() {
    let game = nim();
    for (stones, winning_take) in [(5, 1), (6, 2), (7, 3), (9, 1), (11, 3)] {
        let result = search(&game, &NimRules::state(stones), 0, &iterations(3000), 1).unwrap();
        assert_eq!(result.action, winning_take, "{stones} stones");
        assert!(result.moves[0].mean_value > 0.8, "{stones} stones");
    }
}

#[test]
fn the_forced_win_is_found_by_every_worker_count() {
    let game = nim();
    for workers in [2, 3] {
        let config = SearchConfig {
            workers,
            ..iterations(3000)
        };
        let result = search(&game, &NimRules::state(11), 0, &config, 1).unwrap();
        assert_eq!(result.action, 3, "{workers} workers");
    }
}

#[test]
fn information_set_reasoning_beats_peeking() {
    // The coin (1/2) beats a guess (1/3) for seat 0; a search that saw the card would guess.
    let state = GuessState::new([2, 4], [1, 3]);
    let config = iterations(2000);
    let honest = search(&guess(), &state, 0, &config, 3).unwrap();
    assert_eq!(honest.notation, "coin");
    assert_eq!(by_notation(&honest, "guess-2").mean_value, 0.0); // seat 0 holds card 2 itself
    assert!((by_notation(&honest, "coin").mean_value - 0.5).abs() < 0.1);
    let peeking = search(&peeking_guess(), &state, 0, &config, 3).unwrap();
    assert_eq!(peeking.notation, "guess-4");
}

#[test]
fn each_seat_maximises_its_own_reward() {
    let game = kingmaker();
    let state = game.new_state(&json!({}), 0).unwrap();
    let result = search(&game, &state, 0, &no_early_stop(2000), 2).unwrap();
    assert_eq!(result.notation, "ask-2");
    let ask_1 = by_notation(&result, "ask-1");
    let ask_2 = by_notation(&result, "ask-2");
    assert!(ask_1.mean_value < 0.2, "{ask_1:?}");
    assert!(
        0.3 < ask_2.mean_value && ask_2.mean_value < 0.7,
        "{ask_2:?}"
    );
    assert_eq!(ask_1.principal_variation, ["ask-1", "crown-1"]);
    // Each move of a line with the seat that plays it: seat 0 asks, the asked seat crowns.
    assert_eq!(ask_1.principal_variation_seats, [0, 1]);
    assert_eq!(ask_2.principal_variation_seats, [0, 2]);
}

#[test]
fn seat_values_are_every_seats_means_from_the_one_search() {
    let game = kingmaker();
    let state = game.new_state(&json!({}), 0).unwrap();
    let result = search(&game, &state, 0, &no_early_stop(2000), 2).unwrap();
    let best = &result.moves[0];
    assert_eq!(result.seat_values, best.seat_values);
    assert_eq!(result.seat_values.len(), 3);
    assert_eq!(result.seat_values[0], best.mean_value);
    // Exactly one seat is crowned: the seats' means add up to 1.
    for stats in &result.moves {
        let sum: f64 = stats.seat_values.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{stats:?}");
    }
    assert!(by_notation(&result, "ask-1").seat_values[1] > 0.8);
    assert_eq!(by_notation(&result, "ask-2").seat_values[2], 0.0);
}

#[test]
fn seat_values_of_a_win_or_lose_game_are_complementary() {
    let result = search(&nim(), &NimRules::state(9), 0, &no_early_stop(400), 5).unwrap();
    for stats in &result.moves {
        assert_eq!(stats.seat_values[0], stats.mean_value);
        assert!((stats.seat_values[1] - (1.0 - stats.mean_value)).abs() < 1e-9);
    }
}

#[test]
fn chance_steps_are_sampled_open_loop() {
    let game = dice();
    let state = game.new_state(&json!({}), 0).unwrap();
    let result = search(&game, &state, 0, &no_early_stop(3000), 4).unwrap();
    assert_eq!(result.notation, "die");
    let die = by_notation(&result, "die");
    assert!((die.mean_value - 2.0 / 3.0).abs() < 0.06, "{die:?}");
    assert!(die.lower_bound < die.mean_value);
    // Open loop: the die's outcome makes no node, so after `die` comes seat 1's decision.
    assert_eq!(die.principal_variation.len(), 2);
    assert!(["ack", "sigh"].contains(&die.principal_variation[1].as_str()));
}

#[test]
fn terminal_rewards_mix_the_win_and_the_margin() {
    let game = margin();
    let state = game.new_state(&json!({}), 0).unwrap();
    let result = search(&game, &state, 0, &no_early_stop(200), 0).unwrap();
    assert_eq!(result.notation, "big");
    let share = |own: f64, rival: f64| 0.5 + 0.5 * (own - rival) / (own.abs() + rival.abs());
    let small = by_notation(&result, "small").mean_value;
    let big = by_notation(&result, "big").mean_value;
    assert!(
        (small - (0.9 + 0.1 * share(11.0, 10.0))).abs() < 1e-12,
        "{small}"
    );
    assert!(
        (big - (0.9 + 0.1 * share(20.0, 2.0))).abs() < 1e-12,
        "{big}"
    );
    let flat = SearchConfig {
        margin_weight: 0.0,
        ..no_early_stop(200)
    };
    let result = search(&game, &state, 0, &flat, 0).unwrap();
    assert!(result.moves.iter().all(|m| m.mean_value == 1.0));
}

#[test]
fn heuristic_rollouts_and_the_cutoff_use_the_game() {
    let game = counting_nim();
    let config = SearchConfig {
        rollout: RolloutPolicy::Heuristic,
        cutoff_depth: Some(2),
        ..no_early_stop(50)
    };
    search(&game, &NimRules::state(40), 0, &config, 0).unwrap();
    assert!(game.0.weights_calls.load(Ordering::Relaxed) > 0);
    assert!(game.0.evaluations.load(Ordering::Relaxed) > 0);

    let uniform = counting_nim();
    let config = SearchConfig {
        rollout: RolloutPolicy::Random,
        cutoff_depth: None,
        ..no_early_stop(50)
    };
    search(&uniform, &NimRules::state(40), 0, &config, 0).unwrap();
    assert_eq!(uniform.0.weights_calls.load(Ordering::Relaxed), 0);
    assert_eq!(uniform.0.evaluations.load(Ordering::Relaxed), 0);
}

#[test]
fn a_truncated_rollout_is_scored_by_evaluate() {
    // With no rollout step at all, every leaf below the root gets the game's neutral 0.5 unless
    // the move ends the game.
    let game = nim();
    let config = SearchConfig {
        cutoff_depth: Some(0),
        ..no_early_stop(300)
    };
    let result = search(&game, &NimRules::state(3), 0, &config, 0).unwrap();
    assert_eq!(result.notation, "3");
    assert_eq!(by_notation(&result, "3").mean_value, 1.0);
    let result = search(&game, &NimRules::state(30), 0, &config, 0).unwrap();
    assert!(result
        .moves
        .iter()
        .all(|m| (m.mean_value - 0.5).abs() < 1e-12));
}

#[test]
fn availability_counts_the_worlds_where_an_action_was_legal() {
    let game = hidden_options();
    let view = game.observe(&game.new_state(&json!({}), 1).unwrap(), 0);
    let mut tree = TreeSearch::new(&game, &view, &no_early_stop(4000), 6);
    for _ in 0..4000 {
        tree.iterate();
    }
    let tree = tree.tree();
    for root_edge in tree.edges(ROOT) {
        let reached = root_edge.visits;
        let edges = tree.edges(root_edge.child);
        let avail = |action: OptionAction| {
            edges
                .iter()
                .find(|e| e.action == action && e.seat == 1)
                .map_or(0, |e| e.avail)
        };
        let (always, odd, even) = (
            avail(OptionAction::Always),
            avail(OptionAction::Odd),
            avail(OptionAction::Even),
        );
        // Every visit after the first reaches seat 1's decision, where `always` is legal.
        assert!(
            always <= reached && always + 3 >= reached,
            "{always} of {reached}"
        );
        // `odd` and `even` are each legal in about half of the worlds, and together in all.
        assert!(odd + even <= reached && odd + even + 3 >= reached);
        let half = reached as f64 / 2.0;
        assert!((odd as f64 - half).abs() < 0.1 * half, "{odd} of {reached}");
        // Visits go only where the action was available; the first visit expanded the node.
        let child_visits: u64 = edges.iter().map(|e| e.visits).sum();
        assert_eq!(child_visits, reached - 1);
        assert!(edges.iter().all(|e| e.visits <= e.avail));
    }
}

#[test]
fn selection_scores_with_the_availability_count() {
    let expected = 0.75 + 0.7 * (9f64.ln() / 4.0).sqrt();
    assert!((ucb_score(3.0, 4, 9, 0.7) - expected).abs() < 1e-15);
    // Available once: no exploration bonus (ln 1 = 0), whatever the parent's visits.
    assert_eq!(ucb_score(2.0, 4, 1, 5.0), 0.5);
}
