//! Views of LEDA (`leda::knowledge::observe`) against the Python engine: for every recorded
//! state (`tests/vectors/leda_states.jsonl.gz`) and seat, the view computed on the state (no
//! JSON) is exactly the state Python decodes the seat's JSON view to; observing a view again
//! gives the same view; players the view does not change stay shared with the observed state.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod leda_vectors;

use std::sync::Arc;

use boardbot_rules::leda::knowledge::{determinize, observe, sample_world};
use boardbot_rules::leda::{state_from_json, state_to_json, LedaState};
use boardbot_rules::seeded_rng;
use serde_json::Value;

use leda_vectors::text;

fn lines() -> Vec<Value> {
    leda_vectors::read("leda_states.jsonl.gz", "record_leda_states.py")
}

/// Every recorded full state with its two recorded views and the states they decode to.
fn recorded() -> Vec<(usize, LedaState, [Value; 2], [Value; 2])> {
    lines()
        .iter()
        .enumerate()
        .filter(|(_, line)| line["kind"] == "state")
        .map(|(n, line)| {
            let state = state_from_json(&line["state"]).unwrap_or_else(|e| panic!("line {n}: {e}"));
            let views = [line["views"][0].clone(), line["views"][1].clone()];
            let decoded = [
                line["view_states"][0].clone(),
                line["view_states"][1].clone(),
            ];
            (n, state, views, decoded)
        })
        .collect()
}

#[test]
fn a_view_is_the_state_python_decodes_its_json_view_to() {
    let mut checked = 0;
    let mut hiding = 0;
    for (n, state, views, decoded) in recorded() {
        for seat in 0..2 {
            let view = observe(&state, seat);
            assert_eq!(view.seat(), seat);
            let from_json = state_from_json(&views[seat]).unwrap();
            assert_eq!(view.state(), &from_json, "line {n}, seat {seat}");
            assert_eq!(
                text(&state_to_json(view.state(), None)),
                text(&decoded[seat]),
                "line {n}, seat {seat}: the full JSON of the view"
            );
            assert_eq!(
                text(&state_to_json(view.state(), Some(seat))),
                text(&views[seat]),
                "line {n}, seat {seat}: the view's own JSON view"
            );
            if view.state() != &state {
                hiding += 1;
            }
            checked += 1;
        }
    }
    eprintln!("{checked} views ({hiding} differ from the full state)");
    assert!(checked >= 4000, "{checked} views");
    assert!(hiding >= checked / 2, "{hiding} views hide something");
}

#[test]
fn observing_a_view_again_gives_the_same_view() {
    for (n, state, _, _) in recorded() {
        for seat in 0..2 {
            let view = observe(&state, seat);
            let again = observe(view.state(), seat);
            assert_eq!(again, view, "line {n}, seat {seat}");
            for p in 0..2 {
                assert!(
                    Arc::ptr_eq(&again.state().players[p], &view.state().players[p]),
                    "line {n}, seat {seat}: player {p} of a view is shared by its view"
                );
            }
        }
    }
}

#[test]
fn untouched_players_stay_shared() {
    let (mut shared, mut copied) = (0, 0);
    for (n, state, _, _) in recorded() {
        for seat in 0..2 {
            let view = observe(&state, seat);
            for p in 0..2 {
                let same = view.state().players[p] == state.players[p];
                let ptr = Arc::ptr_eq(&view.state().players[p], &state.players[p]);
                assert_eq!(same, ptr, "line {n}, seat {seat}, player {p}");
                if ptr {
                    shared += 1;
                } else {
                    copied += 1;
                }
            }
        }
    }
    eprintln!("players: {shared} shared, {copied} copied");
    assert!(shared > 0 && copied > 0);
}

/// The determinizations each view gets (seeds per view).
const SEEDS: u64 = 3;

#[test]
fn a_determinization_has_the_view_and_validates() {
    let (mut checked, mut resampled) = (0, 0);
    for (n, state, _, _) in recorded() {
        for seat in 0..2 {
            let view = observe(&state, seat);
            for seed in 0..SEEDS {
                let mut rng = seeded_rng(1000 * n as u64 + 10 * seed + seat as u64);
                let world = determinize(&view, &mut rng);
                let context = format!("line {n}, seat {seat}, seed {seed}");
                assert_eq!(observe(&world, seat), view, "{context}");
                let json = state_to_json(&world, None);
                let back = state_from_json(&json).unwrap_or_else(|e| panic!("{context}: {e}"));
                assert_eq!(back, world, "{context}: the JSON round trip");
                for p in 0..2 {
                    if world.players[p] == view.state().players[p] {
                        assert!(
                            Arc::ptr_eq(&world.players[p], &view.state().players[p]),
                            "{context}: player {p} unchanged but copied"
                        );
                    }
                }
                if &world != view.state() {
                    resampled += 1;
                }
                checked += 1;
            }
        }
    }
    eprintln!("{checked} determinizations ({resampled} differ from the view)");
    assert!(resampled >= checked / 2, "{resampled} resampled");
}

#[test]
fn a_full_state_resampled_for_a_seat_keeps_that_seats_view() {
    let mut checked = 0;
    for (n, state, _, _) in recorded() {
        for seat in 0..2 {
            let mut rng = seeded_rng(7 + n as u64 * 2 + seat as u64);
            let world = sample_world(&state, seat, &mut rng);
            let context = format!("line {n}, seat {seat}");
            assert_eq!(observe(&world, seat), observe(&state, seat), "{context}");
            assert_eq!(world.known[seat], state.known[seat], "{context}");
            let json = state_to_json(&world, None);
            let back = state_from_json(&json).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(back, world, "{context}: the JSON round trip");
            checked += 1;
        }
    }
    assert!(checked >= 4000, "{checked}");
}

#[test]
fn determinization_is_deterministic_for_a_seed() {
    let (mut differ, mut total) = (0, 0);
    for (n, state, _, _) in recorded().into_iter().step_by(7) {
        for seat in 0..2 {
            let view = observe(&state, seat);
            let a = determinize(&view, &mut seeded_rng(n as u64));
            let b = determinize(&view, &mut seeded_rng(n as u64));
            assert_eq!(a, b, "line {n}, seat {seat}");
            let c = determinize(&view, &mut seeded_rng(n as u64 + 1));
            if c != a {
                differ += 1;
            }
            total += 1;
        }
    }
    eprintln!("{differ} of {total} views determinize differently under another seed");
    assert!(differ > 0);
}
