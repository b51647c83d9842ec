//! The native LEDA actions and notation against the Python engine
//! (`tests/vectors/leda_moves.jsonl.gz`, written by `record_leda_moves.py`): every action
//! (each recorded with Python's tuple, text and JSON) converts from and to its tuple, renders to
//! exactly Python's text and JSON and parses back from both; every malformed move text and JSON
//! object gets Python's verdict (error kind, path and reason), or parses when Python only
//! rejected it as not legal in its state.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod leda_vectors;

use std::collections::HashSet;

use boardbot_rules::leda::actions::{
    Action, ACTION_ARGS, ACTION_KINDS, ACTION_NAMES, A_SHUFFLE, A_SWAP,
};
use boardbot_rules::leda::notation::{
    action_to_json, action_to_str, json_not_legal, parse_action_json, parse_action_text,
    shuffle_not_pending, text_not_legal,
};
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, ActionError};
use serde_json::{json, Value};

use leda_vectors::text;

fn lines() -> Vec<Value> {
    leda_vectors::read("leda_moves.jsonl.gz", "record_leda_moves.py")
}

/// Every decision the parsers can produce: each kind over every value of its shapes (swaps
/// with the first square not after the second).
fn all_decisions() -> Vec<Action> {
    let mut out = Vec::new();
    for kind in 0..ACTION_KINDS as u8 {
        if kind == A_SHUFFLE {
            continue;
        }
        let sizes: Vec<usize> = ACTION_ARGS[usize::from(kind)]
            .iter()
            .map(|s| s.size())
            .collect();
        match sizes.as_slice() {
            [] => out.push(Action::decision(kind, &[]).unwrap()),
            [n] => out.extend((0..*n).map(|a| Action::decision(kind, &[a]).unwrap())),
            [n, m] => {
                for a in 0..*n {
                    let from = if kind == A_SWAP { a } else { 0 };
                    out.extend((from..*m).map(|b| Action::decision(kind, &[a, b]).unwrap()));
                }
            }
            _ => unreachable!(),
        }
    }
    out
}

#[test]
fn every_action_renders_and_parses_like_python() {
    let mut seen = HashSet::new();
    let (mut shuffles, mut legal) = (0, 0);
    for line in lines().iter().filter(|l| l["kind"] == "action") {
        let action = Action::from_tuple(&line["tuple"]).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(action.to_tuple(), line["tuple"], "{line}");
        let t = line["text"].as_str().unwrap();
        assert_eq!(action_to_str(&action), t, "{line}");
        assert_eq!(
            text(&action_to_json(&action)),
            text(&line["json"]),
            "{line}"
        );
        if t == "shuffle:" {
            // Python's text parser refuses the empty order its renderer writes (as a bad order).
            assert!(parse_action_text(t).is_err());
        } else {
            assert_eq!(parse_action_text(t), Ok(action), "{line}");
        }
        assert_eq!(parse_action_json(&line["json"]), Ok(action), "{line}");
        assert!(seen.insert(action), "{line}");
        shuffles += usize::from(action.is_shuffle());
        legal += usize::from(line["legal"].as_u64().unwrap() > 0);
    }
    let decisions = all_decisions();
    assert_eq!(seen.len() - shuffles, decisions.len());
    assert!(decisions.iter().all(|a| seen.contains(a)));
    assert!(shuffles > 400, "{shuffles} shuffle orders");
    assert!(legal > 1000, "{legal} actions seen legal");
}

fn check_verdict(line: &Value, got: Result<Action, ActionError>, not_legal: Option<ActionError>) {
    match line["stage"].as_str().unwrap() {
        "parse" => {
            let err = got.expect_err(&line.to_string());
            let kind = match err {
                ActionError::Invalid { .. } => "invalid",
                ActionError::Illegal { .. } => "illegal",
            };
            assert_eq!(
                (kind, err.path(), err.reason()),
                (
                    line["error"].as_str().unwrap(),
                    line["path"].as_str().unwrap(),
                    line["reason"].as_str().unwrap()
                ),
                "{line}"
            );
        }
        "legality" => {
            let action = got.unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(line["error"], "illegal", "{line}");
            // The recorded states are decisions: no shuffle is pending there.
            let err = if action.is_shuffle() {
                shuffle_not_pending()
            } else {
                not_legal.unwrap_or_else(|| json_not_legal(&action))
            };
            assert_eq!(
                (err.path(), err.reason()),
                ("$", line["reason"].as_str().unwrap()),
                "{line}"
            );
        }
        _ => {
            let action = got.unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(action.to_tuple(), line["action"], "{line}");
        }
    }
}

#[test]
fn malformed_texts_get_pythons_verdict() {
    let mut n = 0;
    for line in lines().iter().filter(|l| l["kind"] == "bad_text") {
        let t = line["text"].as_str().unwrap();
        check_verdict(line, parse_action_text(t), Some(text_not_legal(t)));
        n += 1;
    }
    assert!(n > 600, "{n} texts");
}

#[test]
fn malformed_json_gets_pythons_verdict() {
    let mut n = 0;
    for line in lines().iter().filter(|l| l["kind"] == "bad_json") {
        check_verdict(line, parse_action_json(&line["json"]), None);
        n += 1;
    }
    assert!(n > 600, "{n} objects");
}

#[test]
fn hand_made_cases() {
    let err = parse_action_text("dance:row1").unwrap_err();
    assert_eq!(
        (err.path(), err.reason()),
        ("$", "unknown action 'dance:row1'")
    );
    let err = parse_action_json(&json!({"type": "choose", "option": 3})).unwrap_err();
    assert_eq!(
        (err.path(), err.reason()),
        ("$.option", "must be at most 2, got 3")
    );
    let err = parse_action_json(&json!({"type": "shuffle", "order": [1, 1]})).unwrap_err();
    assert_eq!((err.path(), err.reason()), ("$.order", "not a permutation"));
}

#[test]
fn garbage_never_panics() {
    let mut rng = seeded_rng(7);
    let alphabet: Vec<char> = "shuffle:,0123456789playr1c@-zone\u{e9}\u{663} "
        .chars()
        .collect();
    let values = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(2),
        json!(1.5),
        json!("r1c1"),
        json!("shark-6"),
        json!("row1"),
        json!("deck"),
        json!("top"),
        json!([]),
        json!([0, 1]),
        json!(["r1c1", "r2c2"]),
        json!({}),
    ];
    let keys = [
        "type", "order", "squares", "square", "card", "token", "zone", "pile", "put",
    ];
    let keys = [&keys[..], &["redraw", "option", "extra"]].concat();
    for _ in 0..20_000 {
        let len = below(&mut rng, 24) as usize;
        let t: String = (0..len)
            .map(|_| alphabet[below(&mut rng, alphabet.len() as u32) as usize])
            .collect();
        if let Ok(a) = parse_action_text(&t) {
            assert_eq!(parse_action_json(&action_to_json(&a)), Ok(a));
        }
        let mut doc = serde_json::Map::new();
        let kind = below(&mut rng, ACTION_KINDS as u32 + 1) as usize;
        doc.insert(
            "type".into(),
            ACTION_NAMES.get(kind).map_or(json!(1), |n| json!(n)),
        );
        for _ in 0..below(&mut rng, 3) {
            let key = keys[below(&mut rng, keys.len() as u32) as usize];
            let value = values[below(&mut rng, values.len() as u32) as usize].clone();
            doc.insert(key.into(), value);
        }
        if let Ok(a) = parse_action_json(&Value::Object(doc)) {
            let text = action_to_str(&a);
            if text != "shuffle:" {
                assert_eq!(parse_action_text(&text), Ok(a));
            }
        }
    }
}
