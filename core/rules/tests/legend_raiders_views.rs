//! Views of Legend Raiders (`Game::observe`) over seeded random games of 2, 3 and 4 players,
//! with the die and diceless: a view is exactly the state the seat's JSON view decodes to
//! (computed without JSON), it ignores what the seat cannot see, observing a view again gives
//! the same view, a determinization of a view has that view, and a view shares every player
//! it does not change with the observed state.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use std::sync::Arc;

use boardbot_rules::legend_raiders::state::{bits, Phase};
use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, SeededRng, View};
use common::{playout, CONFIGS, GAME};
use serde_json::json;

/// Games per configuration.
const GAMES: u64 = 5;

/// Every configuration, every game, every state.
fn every_state(mut visit: impl FnMut(&RaidersState, &mut SeededRng, &str)) {
    for (i, (players, variant)) in CONFIGS.iter().enumerate() {
        for game in 0..GAMES {
            let seed = 500 + (i as u64) * 100 + game;
            let context = format!("{players} players {variant}, seed {seed}");
            playout(*players, variant, seed, |state, rng| {
                visit(state, rng, &context)
            });
        }
    }
}

#[test]
fn a_view_is_the_state_its_json_view_decodes_to() {
    let mut checked = 0;
    every_state(|state, _, context| {
        for seat in 0..state.n_players() {
            let view = GAME.observe(state, seat);
            let decoded = GAME
                .state_from_json(&GAME.state_to_json(state, Some(seat)))
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(view.seat(), seat);
            assert_eq!(view.state(), &decoded, "{context}: seat {seat}");
            // The same JSON, both ways (the view of a view, and the full form).
            assert_eq!(
                GAME.state_to_json(view.state(), Some(seat)),
                GAME.state_to_json(state, Some(seat))
            );
            assert_eq!(
                GAME.state_to_json(view.state(), None),
                GAME.state_to_json(&decoded, None)
            );
            checked += 1;
        }
    });
    assert!(checked > 10_000, "{checked} views");
}

#[test]
fn observing_a_view_again_gives_the_same_view() {
    every_state(|state, _, context| {
        for seat in 0..state.n_players() {
            let view = GAME.observe(state, seat);
            let again = GAME.observe(view.state(), seat);
            assert_eq!(again, view, "{context}: seat {seat}");
        }
    });
}

#[test]
fn a_determinized_world_has_the_view_it_came_from() {
    let mut changed = 0;
    every_state(|state, rng, context| {
        if below(rng, 3) != 0 {
            return;
        }
        for seat in 0..state.n_players() {
            let view = GAME.observe(state, seat);
            let world = GAME.determinize(&view, rng);
            assert_eq!(GAME.observe(&world, seat), view, "{context}: seat {seat}");
            let full = GAME.state_to_json(&world, None);
            assert_eq!(GAME.state_from_json(&full).unwrap(), world, "{context}");
            // The true state is one of the worlds: it has the same view.
            assert_eq!(GAME.observe(state, seat), view);
            if world != *view.state() {
                changed += 1;
            }
        }
    });
    assert!(
        changed > 500,
        "determinization should usually redeal ({changed})"
    );
}

#[test]
fn states_differing_only_in_hidden_cards_give_equal_views() {
    let mut swapped = 0;
    every_state(|state, rng, context| {
        if state.phase == Phase::Over || below(rng, 4) != 0 {
            return;
        }
        // Swap one blind card of seat `k` with one card of the deck: only `k` can tell.
        for k in 0..state.n_players() {
            let blind = state.players[k].blind;
            let (Some(mine), Some(other)) = (bits(blind).next(), bits(state.deck).last()) else {
                continue;
            };
            let mut changed = state.players[k].clone();
            changed.blind = blind & !(1u64 << mine) | 1u64 << other;
            let mut twin = state.clone();
            twin.players.set(k, changed);
            twin.deck = state.deck & !(1u64 << other) | 1u64 << mine;
            for seat in 0..state.n_players() {
                let (a, b) = (GAME.observe(state, seat), GAME.observe(&twin, seat));
                if seat == k {
                    assert_ne!(a, b, "{context}: seat {seat} sees its own hand");
                } else {
                    assert_eq!(a, b, "{context}: seat {seat} cannot see seat {k}'s hand");
                }
            }
            swapped += 1;
        }
        // Any determinization for a seat is a world that seat cannot tell from the truth.
        let seat = below(rng, state.n_players() as u32) as usize;
        let world = GAME.determinize(&GAME.observe(state, seat), rng);
        assert_eq!(GAME.observe(&world, seat), GAME.observe(state, seat));
    });
    assert!(swapped > 200, "{swapped} swaps");
}

#[test]
fn a_view_shares_every_player_it_does_not_change() {
    every_state(|state, _, context| {
        for seat in 0..state.n_players() {
            let view = GAME.observe(state, seat);
            for k in 0..state.n_players() {
                let shared = Arc::ptr_eq(state.players.shared(k), view.state().players.shared(k));
                if k == seat || state.players[k] == view.state().players[k] {
                    assert!(shared, "{context}: seat {seat}'s view copied player {k}");
                }
            }
            // A clone of a view shares its state.
            let copy = view.clone();
            assert!(std::ptr::eq(copy.state(), view.state()));
        }
    });
}

#[test]
fn a_finished_game_hides_nothing() {
    for (players, variant) in CONFIGS {
        let mut end = None;
        playout(players, variant, 77, |state, _| end = Some(state.clone()));
        let end = end.unwrap();
        assert_eq!(end.phase, Phase::Over);
        for seat in 0..end.n_players() {
            assert_eq!(GAME.observe(&end, seat).state(), &end);
            let world = GAME.determinize(&GAME.observe(&end, seat), &mut seeded_rng(1));
            assert_eq!(world, end);
        }
    }
}

#[test]
fn a_seat_out_of_range_sees_no_hand_and_nothing_panics() {
    playout(3, "dice", 9, |state, rng| {
        let view = GAME.observe(state, 7);
        let world = GAME.determinize(&view, rng);
        assert_eq!(GAME.observe(&world, 7), view);
    });
}

#[test]
fn views_are_values_threads_can_share() {
    fn send_sync<T: Send + Sync + Clone + Eq + std::hash::Hash>() {}
    send_sync::<View<RaidersState>>();
    let state = GAME.new_state(&json!({"players": 2}), 3).unwrap();
    let view = View::new(1, state.clone());
    assert_eq!(view.seat(), 1);
    assert_eq!(view.clone().into_state(), state);
}
