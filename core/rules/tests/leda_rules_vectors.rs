//! The native LEDA transitions against the Python engine: every recorded game
//! (`tests/vectors/leda_games.jsonl.gz`, written by `record_leda_games.py`) replayed step by step
//! from its start JSON: the same current player, the same legal actions in the same order, the
//! recorded action (or shuffle outcome) applied natively to exactly the recorded next state JSON,
//! and the same returns and scores at the end. Along the way, every legal action's text and JSON
//! parse back to it (`action_from_str`, `action_from_json`), and moves Python refused as not legal
//! get Python's error.
//!
//! A step that differs is reported (game, step, the state JSON before, the action, the JSON paths
//! that differ) and the replay resumes from the recorded state, so one run lists every difference.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod leda_vectors;

use boardbot_rules::error::ActionError;
use boardbot_rules::leda::actions::Action;
use boardbot_rules::leda::{notation, state_from_json, state_to_json, Leda, LedaState};
use boardbot_rules::{Game, CHANCE, TERMINAL};
use serde_json::{Map, Value};

fn games() -> Vec<Value> {
    leda_vectors::read("leda_games.jsonl.gz", "record_leda_games.py")
}

/// `doc` changed by a recorded patch: top-level keys replaced, players key by key.
fn patched(doc: &Value, patch: &Value) -> Value {
    let mut out = doc.clone();
    for (key, value) in patch.as_object().unwrap() {
        if key == "players" {
            for (seat, changes) in value.as_array().unwrap().iter().enumerate() {
                let player = out["players"][seat].as_object_mut().unwrap();
                for (k, v) in changes.as_object().unwrap() {
                    player.insert(k.clone(), v.clone());
                }
            }
        } else {
            out[key.as_str()] = value.clone();
        }
    }
    out
}

/// The JSON paths where `got` and `want` differ (at most a few, each with both values).
fn diff(path: &str, got: &Value, want: &Value, out: &mut Vec<String>) {
    if got == want || out.len() >= 8 {
        return;
    }
    match (got, want) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            let null = Value::Null;
            for k in keys {
                diff(
                    &format!("{path}.{k}"),
                    a.get(k).unwrap_or(&null),
                    b.get(k).unwrap_or(&null),
                    out,
                );
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ => out.push(format!("{path}: native {got} python {want}")),
    }
}

fn tuples(actions: &[Action]) -> Vec<Value> {
    actions.iter().map(Action::to_tuple).collect()
}

fn error_json(err: &ActionError) -> Value {
    let kind = match err {
        ActionError::Invalid { .. } => "invalid",
        ActionError::Illegal { .. } => "illegal",
    };
    serde_json::json!([kind, err.path(), err.reason()])
}

fn verdict(got: Result<Action, ActionError>) -> Value {
    match got {
        Ok(action) => {
            let mut ok = Map::new();
            ok.insert("ok".into(), action.to_tuple());
            Value::Object(ok)
        }
        Err(err) => error_json(&err),
    }
}

#[derive(Default)]
struct Tally {
    games: usize,
    steps: usize,
    decisions: usize,
    shuffles: usize,
    probes: usize,
    parsed: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, what: String) {
        if self.failures.len() < 40 {
            eprintln!("{what}\n");
        }
        self.failures.push(what);
    }
}

/// Replay one game; every difference is recorded in `tally`.
fn replay(g: usize, game: &Value, tally: &mut Tally) {
    let leda = Leda;
    let mut doc = game["start"].clone();
    let mut state: LedaState =
        state_from_json(&doc).unwrap_or_else(|e| panic!("game {g}: start: {e}"));
    assert_eq!(state_to_json(&state, None), doc, "game {g}: start");
    let mut legal = Vec::new();
    for (i, step) in game["steps"].as_array().unwrap().iter().enumerate() {
        let here = || format!("game {g} step {i}: state before {doc}");
        let player = leda.current_player(&state);
        if i64::from(player) != step["player"].as_i64().unwrap() {
            tally.fail(format!(
                "{}\ncurrent player: native {player} python {}",
                here(),
                step["player"]
            ));
        }
        let action = Action::from_tuple(&step["action"]).unwrap();
        leda.legal_actions(&state, &mut legal);
        if let Some(want) = step["actions"].as_array() {
            tally.decisions += 1;
            if &tuples(&legal) != want {
                tally.fail(format!(
                    "{}\nlegal actions:\n native {:?}\n python {:?}",
                    here(),
                    tuples(&legal),
                    want
                ));
            }
            if step.get("parsed").is_some() {
                for &a in &legal {
                    let text = leda.action_to_str(&state, a);
                    let data = leda.action_to_json(&state, a);
                    let by_text = notation::action_from_str(&state, &text);
                    let by_json = notation::action_from_json(&state, &data);
                    if by_text.as_ref().ok() != Some(&a) || by_json.as_ref().ok() != Some(&a) {
                        tally.fail(format!(
                            "{}\nparse of legal {text}: {by_text:?} / {data}: {by_json:?}",
                            here()
                        ));
                    }
                    tally.parsed += 1;
                }
            }
        } else {
            tally.shuffles += 1;
            if !legal.is_empty() {
                tally.fail(format!("{}\nlegal actions at a shuffle", here()));
            }
            let text = leda.action_to_str(&state, action);
            if leda.action_from_str(&state, &text).ok() != Some(action) {
                tally.fail(format!("{}\nshuffle {text} refused", here()));
            }
        }
        for probe in step["probes"].as_array().into_iter().flatten() {
            let text = probe["text"].as_str().unwrap();
            let by_text = verdict(notation::action_from_str(&state, text));
            let by_json = verdict(notation::action_from_json(&state, &probe["json"]));
            if by_text != probe["text_error"] || by_json != probe["json_error"] {
                tally.fail(format!(
                    "{}\nprobe {probe}: native text {by_text} json {by_json}",
                    here()
                ));
            }
            tally.probes += 1;
        }
        let next = leda.apply(&state, action);
        let want = patched(&doc, &step["patch"]);
        let got = state_to_json(&next, None);
        if got != want {
            let mut paths = Vec::new();
            diff("$", &got, &want, &mut paths);
            tally.fail(format!(
                "{}\naction {} ({})\ndiffers at:\n  {}",
                here(),
                step["action"],
                leda.action_to_str(&state, action),
                paths.join("\n  ")
            ));
            // Resume from Python's state, to find the next difference.
            state = state_from_json(&want).unwrap_or_else(|e| panic!("game {g} step {i}: {e}"));
        } else {
            state = next;
        }
        doc = want;
        tally.steps += 1;
    }
    if leda.current_player(&state) != TERMINAL || !leda.is_terminal(&state) {
        tally.fail(format!("game {g}: not over at the end"));
    }
    let returns: Vec<Value> = leda.returns(&state).into_iter().map(Value::from).collect();
    let scores: Vec<Value> = leda.scores(&state).into_iter().map(Value::from).collect();
    if Value::from(returns.clone()) != game["returns"]
        || Value::from(scores.clone()) != game["scores"]
    {
        tally.fail(format!(
            "game {g}: returns {returns:?} scores {scores:?}, python {} {}",
            game["returns"], game["scores"]
        ));
    }
    tally.games += 1;
}

#[test]
fn games_replay_exactly_as_python() {
    let all = games();
    let mut tally = Tally::default();
    let mut configs = std::collections::BTreeSet::new();
    for (g, game) in all.iter().enumerate() {
        configs.insert((
            game["options"]["clans"].to_string(),
            game["options"]["first_player"].to_string(),
        ));
        replay(g, game, &mut tally);
    }
    eprintln!(
        "{} games, {} steps ({} decisions, {} shuffles), {} probes, {} legal moves parsed",
        tally.games, tally.steps, tally.decisions, tally.shuffles, tally.probes, tally.parsed
    );
    assert!(
        tally.failures.is_empty(),
        "{} differences with Python (first ones above)",
        tally.failures.len()
    );
    assert_eq!(
        configs.len(),
        24,
        "every ordered clan pairing, both first players"
    );
    assert!(
        tally.games >= 200 && tally.steps > 30_000,
        "too few recorded steps"
    );
    assert!(tally.shuffles > 500 && tally.probes > 5_000 && tally.parsed > 50_000);
    assert_eq!(CHANCE, -1);
}

/// Native seeded games (no Python): every state reached decodes back to itself through the JSON
/// decoder, which runs every rule-consistency check of Python's validator (the last one on the
/// legal actions); `apply` leaves its input unchanged; every game ends. Even seeds play
/// uniformly, odd ones by the rollout weights.
#[test]
fn native_playouts_stay_valid() {
    use boardbot_rules::rng::{below, weighted_index};
    use boardbot_rules::seeded_rng;
    let leda = Leda;
    let names = ["cats", "pandas", "sharks", "scorpions"];
    let (mut games, mut steps) = (0, 0);
    let mut legal = Vec::new();
    let mut weights = Vec::new();
    for seed in 0..480u64 {
        let (a, b) = ((seed / 2) % 4, (seed / 8) % 3);
        let b = if b >= a { b + 1 } else { b };
        let options = serde_json::json!({
            "clans": [names[a as usize], names[b as usize]],
            "first_player": (seed / 24) % 2,
        });
        let mut rng = seeded_rng(seed);
        let mut state = leda.new_state(&options, seed).unwrap();
        for step in 0.. {
            assert!(step < 20_000, "game {seed} did not end");
            let data = state_to_json(&state, None);
            let decoded = state_from_json(&data)
                .unwrap_or_else(|e| panic!("game {seed} step {step}: {e}\n{data}"));
            assert_eq!(decoded, state, "game {seed} step {step}");
            let player = leda.current_player(&state);
            if player == TERMINAL {
                break;
            }
            let action = if player == CHANCE {
                leda.sample_chance(&state, &mut rng).unwrap()
            } else {
                leda.legal_actions(&state, &mut legal);
                assert!(!legal.is_empty(), "game {seed} step {step}");
                if seed % 2 == 0 {
                    legal[below(&mut rng, legal.len() as u32) as usize]
                } else {
                    leda.policy_weights(&state, &legal, &mut weights);
                    legal[weighted_index(&mut rng, &weights)]
                }
            };
            let before = state.clone();
            let next = leda.apply(&state, action);
            assert_eq!(
                state, before,
                "game {seed} step {step}: apply changed its input"
            );
            state = next;
            steps += 1;
        }
        games += 1;
    }
    eprintln!("{games} native games, {steps} steps, all valid");
}
