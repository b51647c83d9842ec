//! The search on the real Legend Raiders engine: no peeking through the seat's view, legal and
//! reproducible answers from mid-game positions.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, LegendRaiders, CHANCE, TERMINAL};
use boardbot_search::{
    search, search_view, RolloutPolicy, SearchConfig, SearchError, SearchResult, StopReason,
};
use serde_json::json;

const GAME: LegendRaiders = LegendRaiders;

/// The `medium` preset's settings with another iteration budget.
fn medium(iterations: u64) -> SearchConfig {
    SearchConfig {
        iterations: Some(iterations),
        exploration: 0.7,
        rollout: RolloutPolicy::Heuristic,
        cutoff_depth: Some(12),
        temperature: 0.0,
        ..SearchConfig::default()
    }
}

fn without_time<A: Clone>(result: &SearchResult<A>) -> SearchResult<A> {
    SearchResult {
        elapsed: std::time::Duration::ZERO,
        ..result.clone()
    }
}

/// Decision states of one seeded random game, with at least two legal moves.
fn decisions(players: u64, seed: u64) -> Vec<RaidersState> {
    let mut rng = seeded_rng(seed);
    let mut state = GAME.new_state(&json!({"players": players}), seed).unwrap();
    let mut legal = Vec::new();
    let mut found = Vec::new();
    loop {
        let action = match GAME.current_player(&state) {
            TERMINAL => return found,
            CHANCE => GAME.sample_chance(&state, &mut rng).unwrap(),
            _ => {
                GAME.legal_actions(&state, &mut legal);
                if legal.len() > 1 {
                    found.push(state.clone());
                }
                legal[below(&mut rng, legal.len() as u32) as usize]
            }
        };
        state = GAME.apply(&state, action);
    }
}

/// A decision state and a second state the deciding seat cannot tell from it (same view,
/// different hidden cards).
fn twin_states(players: u64) -> (RaidersState, RaidersState, usize) {
    for seed in 0..50 {
        for state in decisions(players, seed) {
            let seat = GAME.current_player(&state) as usize;
            let twin = GAME.determinize(&GAME.observe(&state, seat), &mut seeded_rng(seed + 1000));
            if GAME.state_to_json(&twin, None) != GAME.state_to_json(&state, None) {
                assert_eq!(
                    GAME.state_to_json(&twin, Some(seat)),
                    GAME.state_to_json(&state, Some(seat))
                );
                return (state, twin, seat);
            }
        }
    }
    panic!("no state with hidden cards in 50 games");
}

#[test]
fn states_differing_only_in_hidden_cards_give_the_same_search() {
    for players in [2, 3] {
        let (state, twin, seat) = twin_states(players);
        for workers in [1, 2] {
            let config = SearchConfig {
                workers,
                early_stop: false,
                ..medium(300)
            };
            let first = search(&GAME, &state, seat, &config, 17).unwrap();
            let second = search(&GAME, &twin, seat, &config, 17).unwrap();
            assert_eq!(
                without_time(&first),
                without_time(&second),
                "{players} players"
            );
        }
    }
}

#[test]
fn a_search_from_the_seats_view_is_the_search_from_the_state() {
    for players in [2, 3] {
        let (state, twin, seat) = twin_states(players);
        let view = GAME.observe(&state, seat);
        assert_eq!(GAME.observe(&twin, seat), view);
        for workers in [1, 2] {
            let config = SearchConfig {
                workers,
                early_stop: false,
                ..medium(300)
            };
            let from_state = search(&GAME, &state, seat, &config, 23).unwrap();
            let from_view = search_view(&GAME, &view, &config, 23).unwrap();
            assert_eq!(without_time(&from_state), without_time(&from_view));
            // The view's own state is a state like any other: searching it changes nothing.
            let from_view_state = search(&GAME, view.state(), seat, &config, 23).unwrap();
            assert_eq!(without_time(&from_state), without_time(&from_view_state));
        }
    }
}

#[test]
fn a_search_from_a_view_checks_the_request() {
    let state = &decisions(2, 4)[0];
    let seat = GAME.current_player(state) as usize;
    let other = GAME.observe(state, 1 - seat);
    assert_eq!(
        search_view(&GAME, &other, &medium(10), 1).unwrap_err(),
        SearchError::SeatNotToMove {
            seat: 1 - seat,
            current_player: seat as i32
        }
    );
    let no_budget = SearchConfig {
        iterations: None,
        ..medium(10)
    };
    assert_eq!(
        search_view(&GAME, &GAME.observe(state, seat), &no_budget, 1).unwrap_err(),
        SearchError::NoBudget
    );
}

#[test]
fn mid_game_searches_answer_a_legal_move_reproducibly() {
    let states = decisions(2, 5);
    let picks = [states.len() / 10, states.len() / 2, states.len() * 85 / 100];
    let mut legal = Vec::new();
    for &i in &picks {
        let state = &states[i];
        let seat = GAME.current_player(state) as usize;
        GAME.legal_actions(state, &mut legal);
        let config = medium(400);
        let result = search(&GAME, state, seat, &config, 3).unwrap();
        assert!(legal.contains(&result.action));
        assert_eq!(result.moves.len(), legal.len());
        assert!(matches!(
            result.stopped_by,
            StopReason::Iterations | StopReason::EarlyStop
        ));
        assert_eq!(
            result.moves.iter().map(|m| m.visits).sum::<u64>(),
            result.iterations
        );
        for stats in &result.moves {
            assert!((0.0..=1.0).contains(&stats.mean_value));
            assert!(stats.lower_bound <= stats.mean_value);
            assert!(!stats.principal_variation.is_empty());
            assert!(stats.principal_variation.len() <= 8);
            assert_eq!(stats.principal_variation[0], stats.notation);
            assert_eq!(
                GAME.action_from_str(state, &stats.notation),
                Ok(stats.action)
            );
        }
        let again = search(&GAME, state, seat, &config, 3).unwrap();
        assert_eq!(without_time(&result), without_time(&again));
        let threaded = SearchConfig {
            workers: 2,
            ..config
        };
        let first = search(&GAME, state, seat, &threaded, 3).unwrap();
        let second = search(&GAME, state, seat, &threaded, 3).unwrap();
        assert_eq!(without_time(&first), without_time(&second));
        assert!(legal.contains(&first.action));
    }
}

#[test]
fn four_players_search_with_uniform_rollouts_to_the_end() {
    let states = decisions(4, 2);
    let state = &states[states.len() / 2];
    let seat = GAME.current_player(state) as usize;
    let config = SearchConfig {
        iterations: Some(60),
        rollout: RolloutPolicy::Random,
        cutoff_depth: None,
        ..SearchConfig::default()
    };
    let result = search(&GAME, state, seat, &config, 8).unwrap();
    assert_eq!(result.seat, seat);
    assert!(result.iterations > 0);
    assert!(result
        .moves
        .iter()
        .all(|m| (0.0..=1.0).contains(&m.mean_value)));
}

/// A model for `players` seats without hidden layers: a uniform policy and a value head saying
/// `own` for the seat whose view it reads and `others` for every other seat.
fn seat_valued_model(players: usize, own: f32, others: f32) -> boardbot_search::guided::Model {
    use boardbot_rules::Featurize;
    let features = GAME.feature_size(players);
    let actions = GAME.action_feature_size();
    let header = json!({
        "game": "legend_raiders",
        "players": players,
        "feature_size": features,
        "action_feature_size": actions,
        "features_version": LegendRaiders::FEATURES_VERSION,
        "hidden": [],
        "card": {},
    })
    .to_string();
    let logit = |p: f32| (p / (1.0 - p)).ln();
    let mut weights = vec![0.0f32; features * players];
    weights.push(logit(own));
    weights.extend(std::iter::repeat(logit(others)).take(players - 1));
    weights.extend(std::iter::repeat(0.0f32).take(features * actions + actions));
    let mut bytes = boardbot_search::net::MAGIC.to_vec();
    bytes.extend((header.len() as u32).to_le_bytes());
    bytes.extend(header.as_bytes());
    for w in weights {
        bytes.extend(w.to_le_bytes());
    }
    let network = boardbot_search::Network::from_bytes(&bytes).unwrap();
    boardbot_search::guided::Model(std::sync::Arc::new(network))
}

#[test]
fn with_a_model_every_move_carries_the_networks_prior_and_value() {
    let state = decisions(2, 3).swap_remove(4);
    let seat = GAME.current_player(&state) as usize;
    let plain = search(&GAME, &state, seat, &medium(60), 5).unwrap();
    assert!(plain
        .moves
        .iter()
        .all(|m| m.prior.is_none() && m.net_value.is_none()));
    let config = SearchConfig {
        model: Some(seat_valued_model(2, 0.9, 0.2)),
        ..medium(60)
    };
    let guided = search(&GAME, &state, seat, &config, 5).unwrap();
    let count = guided.moves.len() as f64;
    let worlds = boardbot_search::guided::NET_VALUE_WORLDS;
    for stats in &guided.moves {
        // A uniform policy: every prior is 1 / moves.
        assert!((stats.prior.unwrap() - 1.0 / count).abs() < 1e-6);
        // A mean of one value per world: 0.9 when the seat moves next, 0.2 when its rival does.
        let value = stats.net_value.unwrap();
        assert!(
            (0..=worlds).any(|k| {
                let mean = (k as f64 * 0.9 + (worlds - k) as f64 * 0.2) / worlds as f64;
                (value - mean).abs() < 1e-5
            }),
            "{value}"
        );
    }
    // The figures depend on the view, the model and the seed, not on how many trees searched.
    let parallel = SearchConfig {
        workers: 2,
        ..config.clone()
    };
    let merged = search(&GAME, &state, seat, &parallel, 5).unwrap();
    let figures = |r: &SearchResult<_>| {
        let mut all: Vec<_> = r
            .moves
            .iter()
            .map(|m| {
                (
                    m.action,
                    m.prior.map(f64::to_bits),
                    m.net_value.map(f64::to_bits),
                )
            })
            .collect();
        all.sort();
        all
    };
    assert_eq!(figures(&merged), figures(&guided));
}
