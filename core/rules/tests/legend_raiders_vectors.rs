//! Replays the vectors recorded from the Python engine (`tests/vectors/`) step by step and
//! checks that the native engine agrees at every step: current player, legal actions and
//! their notation, chance outcomes, the state JSON after each step, evaluation, rollout
//! weights, seat views and determinization, move parsing, the decoder's verdict on mutated
//! states, and the final returns and scores.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use boardbot_rules::legend_raiders::notation::{parse_action_json, parse_action_text};
use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::{seeded_rng, ActionError, Game, LegendRaiders};
use flate2::read::GzDecoder;
use serde_json::Value;

const GAME: LegendRaiders = LegendRaiders;
const FLOAT_TOLERANCE: f64 = 1e-9;

fn vector_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/legend_raiders.jsonl.gz")
}

/// `value` with the recorded patch operations applied (`["set", path, v]`, `["del", path]`).
fn patched(value: &Value, ops: &Value) -> Value {
    let mut out = value.clone();
    patch(&mut out, ops);
    out
}

/// Apply the recorded patch operations to `out` in place.
fn patch(out: &mut Value, ops: &Value) {
    for op in ops.as_array().unwrap() {
        let kind = op[0].as_str().unwrap();
        let path = op[1].as_array().unwrap();
        if path.is_empty() {
            *out = op[2].clone();
            continue;
        }
        let mut parent = &mut *out;
        for key in &path[..path.len() - 1] {
            parent = match key {
                Value::String(k) => &mut parent[k.as_str()],
                _ => &mut parent[key.as_u64().unwrap() as usize],
            };
        }
        let last = &path[path.len() - 1];
        match (kind, last, parent) {
            ("del", Value::String(k), Value::Object(map)) => {
                map.shift_remove(k.as_str());
            }
            ("del", i, Value::Array(items)) => {
                items.remove(i.as_u64().unwrap() as usize);
            }
            ("set", Value::String(k), Value::Object(map)) => {
                map.insert(k.clone(), op[2].clone());
            }
            ("set", i, Value::Array(items)) => {
                let i = i.as_u64().unwrap() as usize;
                if i == items.len() {
                    items.push(op[2].clone());
                } else {
                    items[i] = op[2].clone();
                }
            }
            other => panic!("bad patch operation {op} ({other:?})"),
        }
    }
}

/// The paths where two JSON values differ (for failure messages).
fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => differences(v, w, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: only in the first")),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{path}.{k}: only in the second"));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                differences(v, w, &format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => out.push(format!("{path}: {a} vs {b}")),
        _ => {}
    }
}

fn assert_json(native: &Value, python: &Value, context: &str) {
    if native != python {
        let mut diffs = Vec::new();
        differences(native, python, "$", &mut diffs);
        panic!(
            "{context}: the native JSON differs from Python's (native vs python):\n  {}",
            diffs.join("\n  ")
        );
    }
}

fn assert_floats(native: &[f64], python: &Value, context: &str) {
    let python: Vec<f64> = python
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(native.len(), python.len(), "{context}: lengths differ");
    for (a, b) in native.iter().zip(&python) {
        assert!(
            (a - b).abs() <= FLOAT_TOLERANCE,
            "{context}: {native:?} vs {python:?}"
        );
    }
}

fn actions_of(v: &Value) -> Vec<u16> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap() as u16)
        .collect()
}

fn error_triple(e: &ActionError) -> [String; 3] {
    let kind = match e {
        ActionError::Invalid { .. } => "InvalidActionError",
        ActionError::Illegal { .. } => "IllegalActionError",
    };
    [
        kind.to_string(),
        e.path().to_string(),
        e.reason().to_string(),
    ]
}

fn python_error(v: &Value) -> [String; 3] {
    let items = v.as_array().unwrap();
    [0, 1, 2].map(|i| items[i].as_str().unwrap().to_string())
}

#[derive(Default)]
struct Counts {
    games: usize,
    steps: usize,
    decisions: usize,
    chance_steps: usize,
    evaluations: usize,
    weights: usize,
    views: usize,
    mutations: usize,
    mutation_errors: usize,
    parses: usize,
}

fn check_header(header: &Value) {
    for (variant, dice) in [("dice", true), ("diceless", false)] {
        let state = GAME
            .new_state(&serde_json::json!({"variant": variant}), 0)
            .unwrap();
        let table = header["notation"][variant].as_array().unwrap();
        for (a, entry) in table.iter().enumerate() {
            let a = a as u16;
            let text = entry[0].as_str().unwrap();
            assert_eq!(
                GAME.action_to_str(&state, a),
                text,
                "notation of action {a} ({variant})"
            );
            assert_json(
                &GAME.action_to_json(&state, a),
                &entry[1],
                &format!("JSON of action {a}"),
            );
            assert_eq!(parse_action_text(text, dice).unwrap(), a, "parsing {text}");
            assert_eq!(
                parse_action_json(&entry[1], dice).unwrap(),
                a,
                "parsing {}",
                entry[1]
            );
        }
    }
    for case in header["options"].as_array().unwrap() {
        let result = GAME.new_state(&case["options"], 1);
        let context = format!("options {}", case["options"]);
        if let Some(err) = case.get("error") {
            let e = result.expect_err(&context);
            let want = python_error(err);
            assert_eq!(
                [e.path.as_str(), e.reason.as_str()],
                [want[1].as_str(), want[2].as_str()],
                "{context}"
            );
        } else {
            let state = result.expect(&context);
            let data = GAME.state_to_json(&state, None);
            assert_eq!(data["variant"], case["ok"]["variant"], "{context}");
            if case["options"]
                .get("characters")
                .is_some_and(|c| !c.is_null())
            {
                let boards: Vec<Value> = data["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["board"].clone())
                    .collect();
                assert_eq!(Value::Array(boards), case["ok"]["boards"], "{context}");
            }
            if !case["ok"]["first_player"].is_null() {
                assert_eq!(
                    data["first_player"], case["ok"]["first_player"],
                    "{context}"
                );
            }
        }
    }
}

fn check_views(state: &RaidersState, expected: &Value, views: &Value, context: &str, seed: u64) {
    for (k, case) in views.as_array().unwrap().iter().enumerate() {
        let observer = case["observer"].as_u64().unwrap() as usize;
        let context = format!("{context}, view of seat {observer}");
        let view = patched(expected, &case["view"]);
        assert_json(&GAME.state_to_json(state, Some(observer)), &view, &context);
        // A view decodes (placeholders for the hidden cards) as the Python engine decodes it.
        let from_view = GAME
            .state_from_json(&view)
            .unwrap_or_else(|e| panic!("{context}: {e}"));
        assert_json(
            &GAME.state_to_json(&from_view, None),
            &patched(expected, &case["decoded"]),
            &format!("{context}, decoded"),
        );
        // The native view is the state the view decodes to, computed without JSON.
        let observed = GAME.observe(state, observer);
        assert_eq!(observed.state(), &from_view, "{context}: observe");
        assert_eq!(observed.seat(), observer);
        // Python's determinization is a state the native engine accepts, with the same view.
        let python_world = patched(expected, &case["determinized"]);
        let world = GAME
            .state_from_json(&python_world)
            .unwrap_or_else(|e| panic!("{context}: Python's world: {e}"));
        assert_json(
            &GAME.state_to_json(&world, Some(observer)),
            &view,
            &format!("{context}, Python's world"),
        );
        // The native determinization keeps the view and is a valid state.
        let mut rng = seeded_rng(seed * 31 + k as u64);
        for source in [state, &from_view] {
            let native = GAME.determinize(&GAME.observe(source, observer), &mut rng);
            assert_json(
                &GAME.state_to_json(&native, Some(observer)),
                &view,
                &format!("{context}, native world"),
            );
            let full = GAME.state_to_json(&native, None);
            let again = GAME
                .state_from_json(&full)
                .unwrap_or_else(|e| panic!("{context}: native world invalid: {e}"));
            assert_eq!(again, native, "{context}: native world round trip");
        }
    }
}

fn check_mutations(expected: &Value, cases: &Value, context: &str, counts: &mut Counts) {
    for (k, case) in cases.as_array().unwrap().iter().enumerate() {
        let mutated = patched(expected, &case["ops"]);
        let context = format!("{context}, mutation {k} {}", case["ops"]);
        let result = GAME.state_from_json(&mutated);
        counts.mutations += 1;
        if let Some(err) = case.get("error") {
            counts.mutation_errors += 1;
            let want = python_error(err);
            let e = result
                .err()
                .unwrap_or_else(|| panic!("{context}: accepted, Python says {err}"));
            assert_eq!(
                [e.path.as_str(), e.reason.as_str()],
                [want[1].as_str(), want[2].as_str()],
                "{context}"
            );
        } else {
            let state =
                result.unwrap_or_else(|e| panic!("{context}: rejected ({e}), Python accepts it"));
            assert_json(
                &GAME.state_to_json(&state, None),
                &patched(&mutated, &case["ok"]),
                &context,
            );
        }
    }
}

fn check_parses(state: &RaidersState, cases: &Value, context: &str, counts: &mut Counts) {
    for case in cases.as_array().unwrap() {
        counts.parses += 1;
        let (result, shown) = if let Some(text) = case.get("text") {
            (
                GAME.action_from_str(state, text.as_str().unwrap()),
                text.to_string(),
            )
        } else {
            (
                GAME.action_from_json(state, &case["json"]),
                case["json"].to_string(),
            )
        };
        let context = format!("{context}, parsing {shown}");
        match (result, case.get("ok")) {
            (Ok(a), Some(ok)) => assert_eq!(u64::from(a), ok.as_u64().unwrap(), "{context}"),
            (Err(e), None) => {
                assert_eq!(error_triple(&e), python_error(&case["error"]), "{context}")
            }
            (got, _) => panic!("{context}: native {got:?}, Python {case}"),
        }
    }
}

fn replay_game(record: &Value, counts: &mut Counts) {
    let id = record["id"].as_u64().unwrap();
    let mut expected = record["start"].clone();
    let mut state = GAME
        .state_from_json(&expected)
        .unwrap_or_else(|e| panic!("game {id}: start: {e}"));
    assert_json(
        &GAME.state_to_json(&state, None),
        &expected,
        &format!("game {id}: start"),
    );
    let mut legal = Vec::new();
    let mut values = Vec::new();
    let steps = record["steps"].as_array().unwrap();
    for (k, step) in steps.iter().enumerate() {
        let context = format!("game {id} ({}), step {k}", record["options"]);
        counts.steps += 1;
        assert_eq!(
            i64::from(GAME.current_player(&state)),
            step["player"].as_i64().unwrap(),
            "{context}: current player"
        );
        if let Some(python) = step.get("evaluate") {
            GAME.evaluate(&state, &mut values);
            assert_floats(&values, python, &format!("{context}: evaluate"));
            assert_floats(
                &GAME.scores(&state),
                &step["scores"],
                &format!("{context}: scores"),
            );
            counts.evaluations += 1;
        }
        if let Some(views) = step.get("views") {
            check_views(&state, &expected, views, &context, id * 1000 + k as u64);
            counts.views += views.as_array().unwrap().len();
        }
        if let Some(cases) = step.get("mutations") {
            check_mutations(&expected, cases, &context, counts);
        }
        let Some(action) = step.get("action") else {
            assert!(
                GAME.is_terminal(&state),
                "{context}: the Python game is over"
            );
            break;
        };
        let action = action.as_u64().unwrap() as u16;
        if let Some(outcomes) = step.get("chance") {
            counts.chance_steps += 1;
            let native = GAME.chance_outcomes(&state).unwrap();
            let python = outcomes.as_array().unwrap();
            assert_eq!(
                native.len(),
                python.len(),
                "{context}: chance outcomes {native:?} vs {outcomes}"
            );
            for ((a, p), q) in native.iter().zip(python) {
                assert_eq!(
                    u64::from(*a),
                    q[0].as_u64().unwrap(),
                    "{context}: chance outcomes"
                );
                assert!(
                    (p - q[1].as_f64().unwrap()).abs() < 1e-12,
                    "{context}: probabilities"
                );
            }
            legal.clear();
        } else {
            counts.decisions += 1;
            GAME.legal_actions(&state, &mut legal);
            assert_eq!(
                legal,
                actions_of(&step["legal"]),
                "{context}: legal actions"
            );
            for &a in &legal {
                let text = GAME.action_to_str(&state, a);
                assert_eq!(
                    GAME.action_from_str(&state, &text),
                    Ok(a),
                    "{context}: {text}"
                );
            }
            if let Some(python) = step.get("weights") {
                GAME.policy_weights(&state, &legal, &mut values);
                assert_floats(&values, python, &format!("{context}: policy weights"));
                counts.weights += 1;
            }
            if let Some(cases) = step.get("parse") {
                check_parses(&state, cases, &context, counts);
            }
        }
        let before = state.clone();
        let next = GAME.apply(&state, action);
        assert_eq!(state, before, "{context}: apply changed its input");
        patch(&mut expected, &step["next"]);
        let text = GAME.action_to_str(&state, action);
        assert_json(
            &GAME.state_to_json(&next, None),
            &expected,
            &format!("{context}: after {text}"),
        );
        let decoded = GAME
            .state_from_json(&expected)
            .unwrap_or_else(|e| panic!("{context}: after {text}: {e}"));
        assert_eq!(decoded, next, "{context}: decoding the state after {text}");
        state = next;
    }
    assert!(GAME.is_terminal(&state), "game {id}: not over");
    assert_floats(
        &GAME.returns(&state),
        &record["returns"],
        &format!("game {id}: returns"),
    );
    assert_floats(
        &GAME.scores(&state),
        &record["scores"],
        &format!("game {id}: scores"),
    );
    let view = patched(&expected, &record["terminal_view"]);
    assert_json(
        &GAME.state_to_json(&state, Some(0)),
        &view,
        &format!("game {id}: terminal view"),
    );
    counts.games += 1;
}

#[test]
fn the_native_engine_replays_every_python_vector() {
    let file = File::open(vector_file()).expect("the recorded vectors (see tests/vectors/)");
    let mut lines = BufReader::new(GzDecoder::new(file)).lines();
    let header: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(header["kind"], "header");
    check_header(&header);
    let mut counts = Counts::default();
    for line in lines {
        let record: Value = serde_json::from_str(&line.unwrap()).unwrap();
        replay_game(&record, &mut counts);
    }
    assert!(
        counts.games >= 100,
        "too few games recorded: {}",
        counts.games
    );
    println!(
        "replayed {} games, {} steps ({} decisions, {} chance), {} evaluations, {} weight \
         vectors, {} views, {} mutated states ({} rejected), {} parsed moves",
        counts.games,
        counts.steps,
        counts.decisions,
        counts.chance_steps,
        counts.evaluations,
        counts.weights,
        counts.views,
        counts.mutations,
        counts.mutation_errors,
        counts.parses
    );
}
