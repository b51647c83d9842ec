//! Properties of the native LEDA codec beyond the Python vectors: damaged documents (random
//! values of every JSON type at random places of recorded states and views) are decoded or
//! rejected without panicking, and whatever is accepted encodes to JSON that decodes back to
//! the same state (full state and both views).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use boardbot_rules::leda::data::{ITEM_NAMES, TILE_NAMES, ZONE_NAMES};
use boardbot_rules::leda::frames::FRAME_NAMES;
use boardbot_rules::leda::{state_from_json, state_to_json};
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, SeededRng};
use flate2::read::GzDecoder;
use serde_json::{json, Value};

/// Every 7th recorded state and its two views.
fn documents() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/leda_states.jsonl.gz");
    let file = File::open(&path).expect("the LEDA vectors (run record_leda_states.py)");
    let mut out = Vec::new();
    let mut n = 0;
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let line: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if line["kind"] != "state" {
            continue;
        }
        n += 1;
        if n % 7 == 0 {
            out.push(line["state"].clone());
            out.push(line["views"][0].clone());
            out.push(line["views"][1].clone());
        }
    }
    out
}

fn pick<'a>(rng: &mut SeededRng, names: &[&'a str]) -> &'a str {
    names[below(rng, names.len() as u32) as usize]
}

/// A random JSON value: mostly plausible names and numbers, sometimes anything.
fn garbage(rng: &mut SeededRng, depth: u32) -> Value {
    match below(rng, if depth == 0 { 8 } else { 10 }) {
        0 => Value::Null,
        1 => Value::Bool(below(rng, 2) == 0),
        2 => {
            let ints = [
                json!(0),
                json!(1),
                json!(-1),
                json!(2),
                json!(4),
                json!(13),
                json!(65535),
                json!(1000),
                json!(i64::MIN),
                json!(u64::MAX),
                json!(1.5),
                json!(1e300),
            ];
            ints[below(rng, ints.len() as u32) as usize].clone()
        }
        3 => Value::from(pick(rng, &ITEM_NAMES)),
        4 => Value::from(pick(rng, &TILE_NAMES)),
        5 => Value::from(pick(rng, &FRAME_NAMES)),
        6 => Value::from(pick(rng, &ZONE_NAMES)),
        7 => Value::from(["", "x", "front", "back", "cats", "é\u{0}"][below(rng, 6) as usize]),
        8 => Value::Array(
            (0..below(rng, 4))
                .map(|_| garbage(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let keys = [
                "count", "known", "index", "item", "frame", "seat", "args", "tile",
            ];
            let mut map = serde_json::Map::new();
            for _ in 0..below(rng, 3) {
                map.insert(pick(rng, &keys).into(), garbage(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

/// `doc` with the value at one random place replaced (or a key removed).
fn damage(doc: &Value, rng: &mut SeededRng) -> Value {
    let mut pointer = String::new();
    let mut parent_key: Option<(String, String)> = None;
    let mut at = doc;
    loop {
        if below(rng, 4) == 0 {
            break;
        }
        match at {
            Value::Object(map) if !map.is_empty() => {
                let i = below(rng, map.len() as u32) as usize;
                let (key, value) = map.iter().nth(i).unwrap();
                parent_key = Some((pointer.clone(), key.clone()));
                pointer = format!("{pointer}/{key}");
                at = value;
            }
            Value::Array(items) if !items.is_empty() => {
                let i = below(rng, items.len() as u32) as usize;
                parent_key = None;
                pointer = format!("{pointer}/{i}");
                at = &items[i];
            }
            _ => break,
        }
    }
    let mut out = doc.clone();
    if let (Some((parent, key)), 0) = (&parent_key, below(rng, 12)) {
        if let Some(Value::Object(map)) = out.pointer_mut(parent) {
            map.shift_remove(key);
            return out;
        }
    }
    *out.pointer_mut(&pointer).unwrap() = garbage(rng, 2);
    out
}

#[test]
fn damaged_documents_never_panic_and_accepted_ones_round_trip() {
    let docs = documents();
    assert!(docs.len() > 900);
    let mut rng = seeded_rng(11);
    let (mut accepted, mut rejected) = (0, 0);
    for round in 0..12 {
        for doc in &docs {
            let bad = damage(doc, &mut rng);
            let Ok(state) = state_from_json(&bad) else {
                rejected += 1;
                continue;
            };
            accepted += 1;
            let full = state_to_json(&state, None);
            assert_eq!(state_from_json(&full).unwrap(), state, "round {round}");
            for seat in 0..2 {
                let view = state_to_json(&state, Some(seat));
                let seen = state_from_json(&view).unwrap();
                assert_eq!(state_to_json(&seen, Some(seat)), view, "round {round}");
            }
        }
    }
    assert!(
        rejected > accepted,
        "{rejected} rejected, {accepted} accepted"
    );
    assert!(accepted > 0);
}

#[test]
fn pure_garbage_is_rejected_without_panicking() {
    let mut rng = seeded_rng(5);
    for _ in 0..5000 {
        let doc = garbage(&mut rng, 4);
        assert!(state_from_json(&doc).is_err());
    }
    let mut doc = json!({"game": "leda", "active": 0});
    for _ in 0..2000 {
        for key in [
            "players",
            "pending",
            "mv_pile",
            "action_pile",
            "zone",
            "observer",
        ] {
            doc[key] = garbage(&mut rng, 3);
        }
        assert!(state_from_json(&doc).is_err());
    }
}
