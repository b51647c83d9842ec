//! Budgets, stopping, cancellation, progress, move choice and refused requests.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod toy_games;

use std::thread;
use std::time::{Duration, Instant, SystemTime};

use boardbot_rules::Game;
use boardbot_search::{
    search, search_with, CancelToken, RolloutPolicy, SearchConfig, SearchError, SearchHooks,
    SearchResult, StopReason,
};
use toy_games::{guess, nim, panicking_nim, GuessState, NimRules};

fn no_early_stop(n: u64) -> SearchConfig {
    SearchConfig {
        iterations: Some(n),
        early_stop: false,
        ..SearchConfig::default()
    }
}

fn timed(budget: Duration) -> SearchConfig {
    SearchConfig {
        iterations: None,
        time_budget: Some(budget),
        ..SearchConfig::default()
    }
}

#[test]
fn the_iteration_budget_is_exact() {
    for workers in [1, 2, 3, 4] {
        let config = SearchConfig {
            workers,
            ..no_early_stop(137)
        };
        let result = search(&nim(), &NimRules::state(15), 0, &config, 0).unwrap();
        assert_eq!(result.iterations, 137, "{workers} workers");
        assert_eq!(result.stopped_by, StopReason::Iterations);
        assert_eq!(result.moves.iter().map(|m| m.visits).sum::<u64>(), 137);
    }
}

#[test]
fn more_workers_than_iterations_still_spend_the_budget_exactly() {
    let config = SearchConfig {
        workers: 5,
        ..no_early_stop(3)
    };
    let result = search(&nim(), &NimRules::state(15), 0, &config, 0).unwrap();
    assert_eq!(result.iterations, 3);
    assert_eq!(result.moves.iter().map(|m| m.visits).sum::<u64>(), 3);
    assert_eq!(result.stopped_by, StopReason::Iterations);
}

#[test]
fn the_time_budget_stops_the_search() {
    for workers in [1, 2] {
        let config = SearchConfig {
            workers,
            ..timed(Duration::from_millis(50))
        };
        let start = Instant::now();
        let result = search(&nim(), &NimRules::state(40), 0, &config, 0).unwrap();
        assert_eq!(result.stopped_by, StopReason::Time);
        assert!(result.iterations > 0);
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(result.elapsed >= Duration::from_millis(50));
    }
}

#[test]
fn the_deadline_stops_the_search() {
    for workers in [1, 2] {
        let config = SearchConfig {
            iterations: None,
            deadline: Some(SystemTime::now() + Duration::from_millis(50)),
            workers,
            ..SearchConfig::default()
        };
        let result = search(&nim(), &NimRules::state(40), 0, &config, 0).unwrap();
        assert_eq!(result.stopped_by, StopReason::Deadline);
        assert!(result.elapsed >= Duration::from_millis(45));
        assert!(result.elapsed < Duration::from_secs(10));
    }
}

#[test]
fn the_earlier_of_time_and_deadline_applies() {
    let config = SearchConfig {
        iterations: None,
        time_budget: Some(Duration::from_secs(3600)),
        deadline: Some(SystemTime::now() + Duration::from_millis(30)),
        ..SearchConfig::default()
    };
    let result = search(&nim(), &NimRules::state(40), 0, &config, 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::Deadline);
    let config = SearchConfig {
        time_budget: Some(Duration::from_millis(30)),
        deadline: Some(SystemTime::now() + Duration::from_secs(3600)),
        ..config
    };
    let result = search(&nim(), &NimRules::state(40), 0, &config, 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::Time);
}

#[test]
fn a_past_deadline_still_runs_one_iteration() {
    let config = SearchConfig {
        iterations: Some(1000),
        deadline: Some(SystemTime::UNIX_EPOCH),
        ..SearchConfig::default()
    };
    let result = search(&nim(), &NimRules::state(40), 0, &config, 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::Deadline);
    assert_eq!(result.iterations, 1);
    let huge = SearchConfig {
        iterations: Some(50),
        time_budget: Some(Duration::MAX),
        deadline: Some(SystemTime::now() + Duration::from_secs(u64::MAX / 4)),
        early_stop: false,
        ..SearchConfig::default()
    };
    let result = search(&nim(), &NimRules::state(40), 0, &huge, 0).unwrap();
    assert_eq!(result.iterations, 50);
}

#[test]
fn early_stop_when_the_leader_cannot_be_caught() {
    let budget = 20_000;
    let config = SearchConfig {
        iterations: Some(budget),
        ..SearchConfig::default()
    };
    let result = search(&nim(), &NimRules::state(5), 0, &config, 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::EarlyStop);
    assert!(result.iterations < budget);
    assert_eq!(result.iterations % 8, 0);
    let (first, second) = (result.moves[0].visits, result.moves[1].visits);
    assert!(first - second > budget - result.iterations);
}

#[test]
fn early_stop_needs_an_iteration_budget() {
    let config = SearchConfig {
        early_stop: true,
        ..timed(Duration::from_millis(30))
    };
    let result = search(&nim(), &NimRules::state(5), 0, &config, 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::Time);
}

#[test]
fn the_node_cap_bounds_the_tree() {
    let config = SearchConfig {
        node_cap: 6,
        ..no_early_stop(500)
    };
    let result = search(&nim(), &NimRules::state(20), 0, &config, 0).unwrap();
    assert!(result.nodes <= 6, "{}", result.nodes);
    assert_eq!(result.iterations, 500);
    assert_eq!(result.moves.iter().map(|m| m.visits).sum::<u64>(), 500);
    let unbounded = SearchConfig {
        node_cap: 1_000_000,
        ..config.clone()
    };
    let result = search(&nim(), &NimRules::state(20), 0, &unbounded, 0).unwrap();
    assert!(result.nodes > 6);
    // A cap of one node (the root alone) still searches: every rollout starts at the root.
    let root_only = SearchConfig {
        node_cap: 1,
        ..config.clone()
    };
    let result = search(&nim(), &NimRules::state(20), 0, &root_only, 0).unwrap();
    assert_eq!(result.nodes, 1);
    assert_eq!(result.iterations, 500);
    let config = SearchConfig {
        workers: 3,
        ..config
    };
    let result = search(&nim(), &NimRules::state(20), 0, &config, 0).unwrap();
    assert!(result.nodes <= 18, "{}", result.nodes);
}

#[test]
fn temperature_zero_picks_the_most_visited_move() {
    let state = GuessState::new([2, 4], [1, 3]);
    for seed in 0..5 {
        let result = search(&guess(), &state, 0, &no_early_stop(300), seed).unwrap();
        assert_eq!(result.action, result.moves[0].action);
        let most = result.moves.iter().map(|m| m.visits).max().unwrap();
        assert_eq!(result.moves[0].visits, most);
        for pair in result.moves.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            assert!(a.visits > b.visits || (a.visits == b.visits && a.mean_value >= b.mean_value));
        }
    }
}

#[test]
fn temperature_samples_from_visits() {
    let state = GuessState::new([2, 4], [1, 3]);
    let warm = SearchConfig {
        temperature: 2.0,
        ..no_early_stop(300)
    };
    let picks: Vec<String> = (0..30)
        .map(|seed| search(&guess(), &state, 0, &warm, seed).unwrap().notation)
        .collect();
    let distinct: std::collections::HashSet<&String> = picks.iter().collect();
    assert!(distinct.len() > 1, "{picks:?}");
    assert!(
        picks.iter().filter(|p| *p == "coin").count() > 5,
        "{picks:?}"
    );
    // The draw is seeded: the same seed picks the same move.
    let again: Vec<String> = (0..30)
        .map(|seed| search(&guess(), &state, 0, &warm, seed).unwrap().notation)
        .collect();
    assert_eq!(picks, again);
}

#[test]
fn cancellation_stops_the_search_at_the_next_poll() {
    let token = CancelToken::new();
    token.cancel();
    let config = timed(Duration::from_secs(60));
    let result = search_with(
        &nim(),
        &NimRules::state(40),
        0,
        &config,
        0,
        SearchHooks::with_cancel(token.clone()),
    )
    .unwrap();
    assert_eq!(result.stopped_by, StopReason::Cancelled);
    assert_eq!(result.iterations, 16);

    // Cancelled from the progress callback after its third report.
    let token = CancelToken::new();
    let mut reports = 0;
    let mut on_progress = |_: &SearchResult<u8>| {
        reports += 1;
        if reports == 3 {
            token.cancel();
        }
    };
    let hooks = SearchHooks::with_cancel(token.clone()).progress(10, &mut on_progress);
    let result = search_with(&nim(), &NimRules::state(40), 0, &config, 0, hooks).unwrap();
    assert_eq!(result.stopped_by, StopReason::Cancelled);
    assert_eq!(result.iterations, 32);
}

#[test]
fn cancellation_from_another_thread_stops_every_worker_promptly() {
    for workers in [1, 2, 4] {
        let token = CancelToken::new();
        let config = SearchConfig {
            workers,
            ..timed(Duration::from_secs(600))
        };
        let (result, cancelled_at) = thread::scope(|scope| {
            let canceller = token.clone();
            let cancelled_at = scope.spawn(move || {
                thread::sleep(Duration::from_millis(50));
                canceller.cancel();
                Instant::now()
            });
            let result = search_with(
                &nim(),
                &NimRules::state(60),
                0,
                &config,
                0,
                SearchHooks::with_cancel(token.clone()),
            )
            .unwrap();
            (result, cancelled_at.join().unwrap())
        });
        assert_eq!(
            result.stopped_by,
            StopReason::Cancelled,
            "{workers} workers"
        );
        // 16 iterations of a toy game take microseconds; a second covers any scheduling delay.
        assert!(
            cancelled_at.elapsed() < Duration::from_secs(1),
            "{workers} workers"
        );
        assert!(result.iterations > 0);
    }
}

#[test]
fn a_panicking_worker_fails_the_search_with_an_error() {
    let config = SearchConfig {
        workers: 2,
        cutoff_depth: Some(0),
        ..no_early_stop(200)
    };
    let outcome = search(&panicking_nim(), &NimRules::state(20), 0, &config, 0);
    assert!(
        matches!(outcome, Err(SearchError::WorkerFailed { .. })),
        "{outcome:?}"
    );
}

#[test]
fn progress_reports_arrive_every_n_iterations() {
    let mut seen: Vec<(u64, StopReason, u64)> = Vec::new();
    let mut on_progress = |r: &SearchResult<u8>| {
        seen.push((
            r.iterations,
            r.stopped_by,
            r.moves.iter().map(|m| m.visits).sum(),
        ));
    };
    let hooks = SearchHooks::default().progress(25, &mut on_progress);
    let final_result = search_with(
        &nim(),
        &NimRules::state(30),
        0,
        &no_early_stop(100),
        0,
        hooks,
    )
    .unwrap();
    assert_eq!(final_result.iterations, 100);
    let running = StopReason::Running;
    assert_eq!(
        seen,
        [
            (25, running, 25),
            (50, running, 50),
            (75, running, 75),
            (100, running, 100)
        ]
    );
}

#[test]
fn progress_reports_merge_the_workers() {
    let mut seen: Vec<SearchResult<u8>> = Vec::new();
    let mut on_progress = |r: &SearchResult<u8>| seen.push(r.clone());
    // Long enough for the coordinating thread to ask for reports while the workers run (it
    // gets none from a search that has already ended: reports are coalesced, never queued).
    let total = 300_000;
    let config = SearchConfig {
        workers: 3,
        ..no_early_stop(total)
    };
    let hooks = SearchHooks::default().progress(600, &mut on_progress);
    let final_result = search_with(&nim(), &NimRules::state(30), 0, &config, 0, hooks).unwrap();
    assert_eq!(final_result.iterations, total);
    assert!(!seen.is_empty());
    let mut last = 0;
    for report in &seen {
        assert_eq!(report.stopped_by, StopReason::Running);
        assert!(report.iterations >= last);
        assert!(report.iterations <= total);
        assert_eq!(
            report.moves.iter().map(|m| m.visits).sum::<u64>(),
            report.iterations
        );
        last = report.iterations;
    }
    // Reports pass each multiple of 600 at most once.
    let crossed: Vec<u64> = seen.iter().map(|r| r.iterations / 600).collect();
    let mut deduped = crossed.clone();
    deduped.dedup();
    assert_eq!(crossed, deduped);
}

#[test]
fn a_single_legal_move_needs_no_search() {
    let result = search(&nim(), &NimRules::state(1), 0, &SearchConfig::default(), 0).unwrap();
    assert_eq!(result.stopped_by, StopReason::SingleMove);
    assert_eq!(result.action, 1);
    assert_eq!(result.iterations, 0);
    assert_eq!(result.moves.len(), 1);
    assert_eq!(result.moves[0].principal_variation, ["1"]);
    assert_eq!(result.moves[0].visits, 0);
    assert!(result.seat_values.is_empty());
}

#[test]
fn a_single_legal_move_is_searched_when_asked() {
    let hooks = SearchHooks::default().searching_forced(true);
    let config = no_early_stop(50);
    let result = search_with(&nim(), &NimRules::state(1), 0, &config, 4, hooks).unwrap();
    assert_eq!(result.stopped_by, StopReason::Iterations);
    assert_eq!((result.iterations, result.moves[0].visits), (50, 50));
    // Taking the last stone wins: the position's value, not 0.
    assert_eq!(result.moves[0].mean_value, 1.0);
    assert_eq!(result.seat_values, [1.0, 0.0]);
}

#[test]
fn bad_requests_are_refused() {
    let game = nim();
    let state = NimRules::state(9);
    let cases = [
        (
            SearchConfig {
                iterations: None,
                ..SearchConfig::default()
            },
            0,
            SearchError::NoBudget,
        ),
        (
            SearchConfig {
                iterations: Some(0),
                ..SearchConfig::default()
            },
            0,
            SearchError::IterationsBelowOne,
        ),
        (
            SearchConfig {
                workers: 0,
                ..SearchConfig::default()
            },
            0,
            SearchError::WorkersBelowOne,
        ),
        (
            SearchConfig {
                node_cap: 0,
                ..SearchConfig::default()
            },
            0,
            SearchError::NodeCapBelowOne,
        ),
        (
            SearchConfig {
                margin_weight: 1.5,
                ..SearchConfig::default()
            },
            0,
            SearchError::MarginWeightOutOfRange { margin_weight: 1.5 },
        ),
        (
            SearchConfig::default(),
            1,
            SearchError::SeatNotToMove {
                seat: 1,
                current_player: 0,
            },
        ),
        (
            SearchConfig::default(),
            usize::MAX,
            SearchError::SeatNotToMove {
                seat: usize::MAX,
                current_player: 0,
            },
        ),
    ];
    for (config, seat, expected) in cases {
        assert_eq!(search(&game, &state, seat, &config, 0), Err(expected));
    }
    assert_eq!(
        "clever".parse::<RolloutPolicy>(),
        Err(SearchError::UnknownRolloutPolicy {
            name: "clever".into()
        })
    );
}

#[test]
fn a_terminal_state_is_refused() {
    let game = nim();
    let over = game.apply(&NimRules::state(1), 1);
    let error = search(&game, &over, 0, &SearchConfig::default(), 0).unwrap_err();
    assert_eq!(error, SearchError::TerminalState);
    assert!(error.to_string().contains("over"));
}

#[test]
fn odd_numbers_in_the_configuration_never_panic() {
    let state = GuessState::new([2, 4], [1, 3]);
    for (exploration, temperature) in [
        (f64::NAN, f64::NAN),
        (-1.0, f64::INFINITY),
        (f64::INFINITY, -3.0),
        (0.0, 1e-300),
    ] {
        let config = SearchConfig {
            exploration,
            temperature,
            max_rollout_steps: 0,
            ..no_early_stop(64)
        };
        let result = search(&guess(), &state, 0, &config, 0).unwrap();
        assert!(result.iterations >= 1);
        assert_eq!(result.moves.len(), 5);
    }
}

#[test]
fn progress_is_coalesced_whatever_the_threads_and_iterations() {
    use boardbot_search::parallel::{ParallelSearch, ProgressPace};
    use boardbot_search::results::TreeReport;
    use boardbot_search::tree_search::StopAt;

    let game = nim();
    let view = game.observe(&NimRules::state(60), 0);
    let budget = Duration::from_millis(300);
    let slow_callback = Duration::from_millis(20);
    for workers in [2, 4, 8] {
        // Asked for a report every iteration, or every 5 ms: the callback is slower than both.
        for (every, period) in [(1, Duration::ZERO), (0, Duration::from_millis(5))] {
            let config = SearchConfig {
                workers,
                ..timed(budget)
            };
            let started = Instant::now();
            let parallel = ParallelSearch {
                game: &game,
                view: &view,
                config: &config,
                seed: 0,
                stop_at: Some(StopAt {
                    instant: started + budget,
                    reason: StopReason::Time,
                }),
                cancel: None,
            };
            let mut callback = |reports: &[TreeReport<u8>]| {
                assert_eq!(reports.len(), workers);
                thread::sleep(slow_callback);
            };
            let run = parallel
                .run_paced(Some(&mut callback), ProgressPace { every, period })
                .unwrap();
            let took = started.elapsed();
            let case = format!("{workers} workers, every {every}, period {period:?}");
            let iterations: u64 = run.reports.iter().map(|r| r.iterations).sum();
            assert!(iterations > 1_000, "{case}: {iterations} iterations");
            assert!(
                run.reports.iter().all(|r| r.stopped_by == StopReason::Time),
                "{case}"
            );
            // No backlog: the search ends at its stop, not after the reports it made.
            assert!(
                took < budget + Duration::from_millis(250),
                "{case}: {took:?}"
            );
            // At most one callback per callback duration, one report per worker per callback
            // (the last request may go unanswered), whatever the iterations.
            let most_callbacks = (budget.as_millis() / slow_callback.as_millis()) as u64 + 1;
            assert!(run.callbacks >= 1, "{case}");
            assert!(run.callbacks <= most_callbacks, "{case}: {}", run.callbacks);
            assert!(
                run.progress_reports <= workers as u64 * (run.callbacks + 1),
                "{case}: {} reports for {} callbacks",
                run.progress_reports,
                run.callbacks
            );
        }
    }
}

#[test]
fn a_progress_period_spaces_the_reports() {
    for workers in [1, 3] {
        let mut seen: Vec<Instant> = Vec::new();
        let mut on_progress = |_: &SearchResult<u8>| seen.push(Instant::now());
        let config = SearchConfig {
            workers,
            ..timed(Duration::from_millis(200))
        };
        let period = Duration::from_millis(20);
        let started = Instant::now();
        let hooks = SearchHooks::default()
            .progress(0, &mut on_progress)
            .at_most_every(period);
        let result = search_with(&nim(), &NimRules::state(60), 0, &config, 0, hooks).unwrap();
        assert_eq!(result.stopped_by, StopReason::Time, "{workers} workers");
        assert!(
            !seen.is_empty() && seen.len() <= 10,
            "{workers} workers: {}",
            seen.len()
        );
        assert!(seen[0] >= started + period, "{workers} workers");
        assert!(
            seen.windows(2).all(|w| w[1] - w[0] >= period),
            "{workers} workers"
        );
    }
}

#[test]
fn a_search_that_ends_before_its_progress_still_ends() {
    // Workers that finish before (or while) the coordinator asks for progress: the search
    // returns its result, with or without partial results.
    for round in 0..200 {
        let mut partials = 0;
        let mut on_progress = |_: &SearchResult<u8>| partials += 1;
        let config = SearchConfig {
            workers: 3,
            ..no_early_stop(600)
        };
        let hooks = SearchHooks::default().progress(1 + round % 3, &mut on_progress);
        let result = search_with(&nim(), &NimRules::state(30), 0, &config, 0, hooks).unwrap();
        assert_eq!(result.iterations, 600);
        assert!(partials <= 600);
    }
}
