//! Seeded determinism, across runs, threads and processes; no peeking at hidden parts.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod toy_games;

use std::collections::HashSet;
use std::process::Command;

use boardbot_rules::Game;
use boardbot_search::{search, SearchConfig, SearchResult};
use serde_json::json;
use toy_games::{figures, guess, nim, order_sensitive_guess, GuessState, NimRules};

fn no_early_stop(n: u64) -> SearchConfig {
    SearchConfig {
        iterations: Some(n),
        early_stop: false,
        ..SearchConfig::default()
    }
}

#[test]
fn the_same_inputs_give_the_same_result() {
    let game = nim();
    let state = NimRules::state(11);
    for workers in [1, 3] {
        let config = SearchConfig {
            workers,
            ..no_early_stop(300)
        };
        let first = search(&game, &state, 0, &config, 7).unwrap();
        for _ in 0..3 {
            let again = search(&game, &state, 0, &config, 7).unwrap();
            assert_eq!(figures(&first), figures(&again), "{workers} workers");
        }
    }
}

#[test]
fn different_seeds_give_different_statistics() {
    let game = guess();
    let state = game.new_state(&json!({}), 1).unwrap();
    let config = no_early_stop(200);
    let results: HashSet<String> = (0..4)
        .map(|seed| {
            format!(
                "{:?}",
                figures(&search(&game, &state, 0, &config, seed).unwrap())
            )
        })
        .collect();
    assert!(results.len() > 1);
}

#[test]
fn worker_count_changes_the_trees_not_the_totals() {
    let game = guess();
    let state = GuessState::new([2, 4], [1, 3]);
    let mut coin_means = Vec::new();
    for workers in 1..=4 {
        let config = SearchConfig {
            workers,
            ..no_early_stop(1001)
        };
        let result = search(&game, &state, 0, &config, 9).unwrap();
        assert_eq!(result.iterations, 1001);
        assert_eq!(result.moves.iter().map(|m| m.visits).sum::<u64>(), 1001);
        assert_eq!(result.notation, "coin", "{workers} workers");
        coin_means.push(result.moves[0].mean_value);
    }
    // The same (seed, workers) is reproducible; another worker count is another sample.
    assert!(
        coin_means.iter().all(|m| (m - 0.5).abs() < 0.15),
        "{coin_means:?}"
    );
}

const CHILD_VARIABLE: &str = "BOARDBOT_SEARCH_PRINT_FIGURES";

fn fresh_process_figures() -> String {
    let game = guess();
    let state = game.new_state(&json!({}), 3).unwrap();
    let config = SearchConfig {
        workers: 2,
        ..no_early_stop(250)
    };
    let result: SearchResult<_> = search(&game, &state, 0, &config, 11).unwrap();
    let single = search(&game, &state, 0, &no_early_stop(250), 11).unwrap();
    format!("{:?}\n{:?}", figures(&result), figures(&single))
}

#[test]
fn the_same_result_in_a_fresh_process() {
    let here = fresh_process_figures();
    if std::env::var_os(CHILD_VARIABLE).is_some() {
        println!("FIGURES-BEGIN\n{here}\nFIGURES-END");
        return;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "the_same_result_in_a_fresh_process",
            "--exact",
            "--nocapture",
        ])
        .args(["--test-threads", "1"])
        .env(CHILD_VARIABLE, "1")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let begin = stdout
        .find("FIGURES-BEGIN\n")
        .expect("the child printed its figures")
        + 14;
    let end = stdout.find("\nFIGURES-END").unwrap();
    assert_eq!(&stdout[begin..end], here);
}

#[test]
fn no_peeking_at_hidden_cards() {
    // States differing only in the opponent's card and the deck order: identical search.
    let game = guess();
    let states = [
        GuessState::new([2, 4], [1, 3]),
        GuessState::new([2, 1], [3, 4]),
        GuessState::new([2, 3], [4, 1]),
    ];
    for workers in [1, 2] {
        let config = SearchConfig {
            workers,
            ..no_early_stop(400)
        };
        let results: Vec<_> = states
            .iter()
            .map(|s| figures(&search(&game, s, 0, &config, 5).unwrap()))
            .collect();
        assert_eq!(results[0], results[1]);
        assert_eq!(results[1], results[2]);
    }
    // Even a determinization that deals from the stored order of hidden cards cannot leak it:
    // the search only ever determinizes the seat's view.
    let careless = order_sensitive_guess();
    let results: Vec<_> = states
        .iter()
        .map(|s| figures(&search(&careless, s, 0, &no_early_stop(400), 5).unwrap()))
        .collect();
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1], results[2]);
    // Seat 0's own card is not hidden from it: changing it changes the search.
    let other = search(
        &game,
        &GuessState::new([1, 4], [2, 3]),
        0,
        &no_early_stop(400),
        5,
    );
    let first = search(&game, &states[0], 0, &no_early_stop(400), 5);
    assert_ne!(figures(&other.unwrap()), figures(&first.unwrap()));
}
