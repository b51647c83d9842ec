//! The native LEDA data and JSON codec against the Python engine: the component tables, every
//! recorded state and view (`tests/vectors/leda_states.jsonl.gz`, written by
//! `record_leda_states.py`) decoded and re-encoded to exactly Python's JSON, the decoder's
//! verdict on mutated documents, and hand-made bad documents with Python's path and reason.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod leda_vectors;

use std::sync::Arc;

use boardbot_rules::leda::bounds;
use boardbot_rules::leda::data::{self, CARDS, EFFECTS};
use boardbot_rules::leda::frames::{FRAME_ARGS, FRAME_NAMES};
use boardbot_rules::leda::{state_from_json, state_to_json, LedaState};
use serde_json::{json, Value};

/// The last check of `engine/leda/validation.py`, which runs the rules' legal actions.
const NO_LEGAL_ACTION: &str = "the decision on top offers no legal action";

use leda_vectors::text;

fn lines() -> Vec<Value> {
    leda_vectors::read("leda_states.jsonl.gz", "record_leda_states.py")
}

fn to_json<T: serde_json::value::Index>(value: &Value, key: T) -> Vec<i64> {
    value[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

#[test]
fn component_tables_match_python() {
    let all = lines();
    let d = all.iter().find(|l| l["kind"] == "data").unwrap();
    assert_eq!(d["clan_names"], json!(data::CLAN_NAMES));
    assert_eq!(d["mv_threshold"], json!(data::MV_THRESHOLD));
    assert_eq!(
        d["starting"],
        json!([data::STARTING_HAND, data::STARTING_FOOD, data::SHARK_TOKENS])
    );
    assert_eq!(d["square_names"], json!(data::SQUARE_NAMES));
    assert_eq!(d["corners"], json!(data::CORNERS));
    assert_eq!(d["neighbours"], json!(data::NEIGHBOURS));
    assert_eq!(d["zone_names"], json!(data::ZONE_NAMES));
    assert_eq!(d["zone_squares"], json!(data::ZONE_SQUARES));
    assert_eq!(d["action_tile_zones"], json!(data::ACTION_TILE_ZONES));
    let effects: Vec<Value> = EFFECTS
        .iter()
        .map(|e| {
            let ops: Vec<Value> = e
                .ops
                .iter()
                .map(|op| {
                    let mut v = vec![i64::from(op.kind)];
                    v.extend(op.args.iter().map(|&a| i64::from(a)));
                    json!(v)
                })
                .collect();
            json!(ops)
        })
        .collect();
    assert_eq!(d["effects"], json!(effects));
    let texts: Vec<&str> = EFFECTS.iter().map(|e| e.text).collect();
    assert_eq!(d["effect_text"], json!(texts));
    assert_eq!(d["tile_kind_names"], json!(data::TILE_KIND_NAMES));
    assert_eq!(d["tile_kind_fx"], json!(data::TILE_KIND_FX));
    assert_eq!(d["tile_kind"], json!(data::TILE_KIND));
    assert_eq!(d["tile_permanent"], json!(data::TILE_PERMANENT));
    assert_eq!(d["tile_names"], json!(data::TILE_NAMES));
    assert_eq!(d["mv_symbols"], json!(data::MV_SYMBOLS));
    assert_eq!(d["mv_fx"], json!(data::MV_FX));
    let cards: Vec<Value> = CARDS
        .iter()
        .map(|c| json!([c.name, c.clan, c.faces, c.food_cost, c.card_cost, c.text]))
        .collect();
    assert_eq!(d["cards"], json!(cards));
    assert_eq!(d["panda_level"], json!(data::PANDA_LEVEL));
    assert_eq!(d["rings"], json!(data::RINGS));
    assert_eq!(d["portals"], json!(data::PORTALS));
    assert_eq!(d["special_fx"], json!(data::SPECIAL_FX));
    assert_eq!(d["item_names"], json!(data::ITEM_NAMES.to_vec()));
    assert_eq!(
        to_json(d, "bounds"),
        [
            i64::from(bounds::FOOD_MAX),
            i64::from(bounds::MILITARY_MAX),
            i64::from(bounds::SPECIALS_MAX),
            bounds::PENDING_MAX as i64,
            bounds::LARGEST_CLAN as i64,
            bounds::MV_TOKEN_COUNT as i64,
            bounds::REVEALED_MAX as i64,
            bounds::ROTATED_MAX as i64,
            bounds::KNOWS_MAX as i64,
            i64::from(bounds::DISCOUNT_MAX),
            i64::from(bounds::CARD_COST_MAX),
            bounds::OP_INDEX_MAX as i64,
        ]
    );
    assert_eq!(d["frame_names"], json!(FRAME_NAMES.to_vec()));
    let shapes: Vec<Value> = FRAME_ARGS
        .iter()
        .map(|args| {
            let ranges: Vec<Value> = args
                .iter()
                .map(|a| {
                    let (lo, hi) = a.range();
                    json!([lo, hi])
                })
                .collect();
            json!(ranges)
        })
        .collect();
    assert_eq!(d["frame_args"], json!(shapes));
}

#[test]
fn recorded_states_and_views_round_trip_exactly() {
    let mut states = 0;
    let mut views = 0;
    for (n, line) in lines().iter().enumerate() {
        if line["kind"] != "state" {
            continue;
        }
        let full = &line["state"];
        let state = state_from_json(full).unwrap_or_else(|e| panic!("line {n}: {e}"));
        assert_eq!(text(&state_to_json(&state, None)), text(full), "line {n}");
        assert_eq!(
            state_from_json(&state_to_json(&state, None)).unwrap(),
            state
        );
        states += 1;
        for seat in 0..2 {
            let view = &line["views"][seat];
            let encoded = state_to_json(&state, Some(seat));
            assert_eq!(text(&encoded), text(view), "line {n}, seat {seat}");
            let decoded = state_from_json(view).unwrap_or_else(|e| panic!("line {n}: {e}"));
            assert_eq!(
                text(&state_to_json(&decoded, Some(seat))),
                text(view),
                "line {n}, seat {seat}: the decoded view"
            );
            assert_eq!(
                text(&state_to_json(&decoded, None)),
                text(&line["view_states"][seat]),
                "line {n}, seat {seat}: the state a view decodes to"
            );
            views += 1;
        }
    }
    eprintln!("{states} states, {views} views");
    assert!(states >= 2000, "{states} states");
    assert_eq!(views, 2 * states);
}

#[test]
fn mutated_documents_get_pythons_verdict() {
    let (mut rejected, mut accepted, mut no_legal) = (0, 0, 0);
    for (n, line) in lines().iter().enumerate() {
        if line["kind"] != "mutation" {
            continue;
        }
        assert!(line.get("crash").is_none(), "line {n}: Python crashed");
        let got = state_from_json(&line["doc"]);
        if let Some(error) = line.get("error") {
            no_legal += usize::from(error["reason"] == NO_LEGAL_ACTION);
            let err = got.expect_err(&format!("line {n}: Python rejects {error}"));
            assert_eq!(
                (err.path.as_str(), err.reason.as_str()),
                (
                    error["path"].as_str().unwrap(),
                    error["reason"].as_str().unwrap()
                ),
                "line {n} ({})",
                line["stage"]
            );
            rejected += 1;
        } else {
            let state = got.unwrap_or_else(|e| panic!("line {n}: Python accepts, native: {e}"));
            let observer = line["doc"]["observer"].as_u64().map(|o| o as usize);
            assert_eq!(
                text(&state_to_json(&state, observer)),
                text(&line["decoded"]),
                "line {n}"
            );
            accepted += 1;
        }
    }
    eprintln!(
        "mutations: {rejected} rejected ({no_legal} with no legal action on top), {accepted} accepted"
    );
    assert!(rejected >= 6000, "{rejected} rejected");
    assert!(accepted >= 1000, "{accepted} accepted");
    assert!(
        no_legal > 0,
        "no mutation leaves a decision without a legal action"
    );
}

fn example() -> Value {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/leda/example-state.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn set(doc: &Value, pointer: &str, value: Value) -> Value {
    let mut out = doc.clone();
    *out.pointer_mut(pointer).unwrap() = value;
    out
}

#[test]
fn hand_made_bad_documents_fail_as_in_python() {
    let full = example();
    let state = state_from_json(&full).unwrap();
    assert_eq!(text(&state_to_json(&state, None)), text(&full));
    let view = state_to_json(&state, Some(1));
    let frames = "activate, activate-tile, awaken, conflict, copy, desert-effect, discount-play, \
                  downgrade, effect, flip, mulligan, ... (34 names)";
    let zones = "centre, col1, col2, col3, col4, corners, row1, row2, row3, row4, square-bl, \
                 square-br, square-tl, square-tr";
    let fields = "clan, deck, food, grid, hand, knows, military, mv_tokens, rotated, specials";
    // (document, JSON pointer, value, Python's path, Python's reason): from running the Python
    // decoder on the same documents.
    let cases: Vec<(&Value, &str, Value, &str, String)> = vec![
        (
            &full,
            "/game",
            json!("chess"),
            "$.game",
            "not a LEDA state".into(),
        ),
        (
            &full,
            "/version",
            json!(2),
            "$.version",
            "unsupported version; expected 1".into(),
        ),
        (
            &full,
            "/active",
            json!(2),
            "$.active",
            "must be at most 1, got 2".into(),
        ),
        (
            &full,
            "/zone",
            json!("middle"),
            "$.zone",
            format!("unknown value 'middle'; expected one of: {zones}"),
        ),
        (
            &full,
            "/players/1/clan",
            json!("sharks"),
            "$.players[1].clan",
            "both players have the same clan".into(),
        ),
        (
            &full,
            "/players/0/food",
            json!(1000),
            "$.players[0].food",
            "must be at most 999, got 1000".into(),
        ),
        (
            &full,
            "/players/0/grid/0/tile",
            json!("special"),
            "$.players[0].grid[2].tile",
            "tile 'special' appears twice in the grid".into(),
        ),
        (
            &full,
            "/players/1/hand/0",
            json!("shark-1"),
            "$.players[1].hand[0]",
            "'shark-1' is not a card of this clan".into(),
        ),
        (
            &full,
            "/players/1/deck/0",
            json!("panda-2"),
            "$.players[1].deck[0]",
            "card 'panda-2' appears more than once".into(),
        ),
        (
            &full,
            "/players/0/mv_tokens/0",
            json!("mv-17"),
            "$.players[0].mv_tokens[0]",
            "MV token 'mv-17' appears more than once".into(),
        ),
        (
            &full,
            "/players/0/grid/2/shark_token",
            json!(false),
            "$.players[0].grid[2].shark_token",
            "a square holding a Shark card holds a Shark token".into(),
        ),
        (
            &full,
            "/pending/5/args/0",
            json!(65536),
            "$.pending[5].args[0]",
            "must be at most 65535, got 65536".into(),
        ),
        (
            &full,
            "/pending/0/frame",
            json!("banana"),
            "$.pending[0].frame",
            format!("unknown value 'banana'; expected one of: {frames}"),
        ),
        (
            &full,
            "/players/1/extra",
            json!(1),
            "$.players[1].extra",
            format!("unknown field; allowed: {fields}"),
        ),
        (
            &full,
            "/action_pile",
            json!([]),
            "$.action_pile",
            "expected 4 hidden Action tiles".into(),
        ),
        (
            &full,
            "/players/0/knows",
            json!(["mv-6"]),
            "$.players[0].knows",
            "'mv-6' is not in a zone hidden from this seat".into(),
        ),
        (
            &full,
            "/players/1/specials",
            json!(1),
            "$.players[1].specials",
            "special activations wait only during that player's activation step".into(),
        ),
        (
            &view,
            "/players/0/hand/count",
            json!(9),
            "$.players[0]",
            "6 cards of the clan are unaccounted for but the hidden parts hold 14".into(),
        ),
        (
            &view,
            "/mv_pile/known",
            json!([{"index": 0, "item": "mv-1"}]),
            "$.players[0].mv_tokens[4]",
            "MV token 'mv-1' appears more than once".into(),
        ),
        (
            &view,
            "/players/1/deck/known",
            json!(["panda-9"]),
            "$.players[1].deck.known[0]",
            "expected an object {index, item}".into(),
        ),
    ];
    for (doc, pointer, value, path, reason) in cases {
        let bad = if pointer == "/players/1/extra" {
            let mut out = doc.clone();
            out["players"][1]["extra"] = value;
            out
        } else {
            set(doc, pointer, value)
        };
        let err = state_from_json(&bad).expect_err(pointer);
        assert_eq!(
            (err.path.as_str(), err.reason.as_str()),
            (path, reason.as_str())
        );
    }
    let err = state_from_json(&json!([1])).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.reason.as_str()),
        ("$", "expected an object, got a list")
    );
}

#[test]
fn players_are_shared_copy_on_write() {
    let state = state_from_json(&example()).unwrap();
    let mut next: LedaState = state.clone();
    assert!(Arc::ptr_eq(&state.players[0], &next.players[0]));
    next.player_mut(1).food += 1;
    assert!(Arc::ptr_eq(&state.players[0], &next.players[0]));
    assert!(!Arc::ptr_eq(&state.players[1], &next.players[1]));
    assert_eq!(state.player(1).food + 1, next.player(1).food);
    assert_ne!(state, next);
}
