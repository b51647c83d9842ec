//! The native LEDA leaf evaluation against the Python engine: every recorded state
//! (`tests/vectors/leda_heuristics.jsonl.gz`, written by `record_leda_heuristics.py`) decoded
//! with the native codec and evaluated, to Python's `heuristics.evaluate` within 1e-12, and
//! the rollout weights of its legal actions (Python's tuples) to `heuristics.policy_weights`.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod leda_vectors;

use boardbot_rules::leda::actions::Action;
use boardbot_rules::leda::heuristics::{evaluate, policy_weights};
use boardbot_rules::leda::state_from_json;
use serde_json::Value;

const TOLERANCE: f64 = 1e-12;

fn lines() -> Vec<Value> {
    leda_vectors::read("leda_heuristics.jsonl.gz", "record_leda_heuristics.py")
}

#[test]
fn evaluate_matches_python() {
    let all = lines();
    assert!(all.len() > 1000, "too few recorded states: {}", all.len());
    let (mut decided, mut undecided, mut pairings) = (0, 0, std::collections::BTreeSet::new());
    for (i, line) in all.iter().enumerate() {
        let doc = &line["state"];
        let state = state_from_json(doc).unwrap_or_else(|e| panic!("line {i}: {e:?}"));
        let want: Vec<f64> = line["evaluate"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let mut got = Vec::new();
        evaluate(&state, &mut got);
        assert_eq!(got.len(), 2, "line {i}");
        for seat in 0..2 {
            assert!(
                (got[seat] - want[seat]).abs() <= TOLERANCE,
                "line {i} seat {seat}: native {} python {}",
                got[seat],
                want[seat]
            );
        }
        pairings.insert((state.player(0).clan, state.player(1).clan));
        if state.winner >= 0 {
            decided += 1;
        } else {
            undecided += 1;
        }
    }
    assert_eq!(pairings.len(), 12, "every ordered clan pairing");
    assert!(
        decided >= 12 && undecided > 1000,
        "{decided} decided, {undecided} not"
    );
}

#[test]
fn policy_weights_match_python() {
    let mut decisions = 0;
    let mut kinds = std::collections::BTreeSet::new();
    let mut out = vec![7.0];
    for (i, line) in lines().iter().enumerate() {
        let Some(tuples) = line["actions"].as_array() else {
            continue;
        };
        let state = state_from_json(&line["state"]).unwrap();
        let actions: Vec<Action> = tuples
            .iter()
            .map(|t| Action::from_tuple(t).unwrap_or_else(|| panic!("line {i}: {t}")))
            .collect();
        let want: Vec<f64> = line["weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        policy_weights(&state, &actions, &mut out);
        assert_eq!(out, want, "line {i}");
        kinds.extend(actions.iter().map(Action::kind));
        decisions += 1;
    }
    assert!(decisions > 1000, "too few decision states: {decisions}");
    assert!(kinds.len() >= 10, "too few action kinds: {kinds:?}");
}
