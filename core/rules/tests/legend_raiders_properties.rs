//! Properties of the Legend Raiders engine over seeded random games and garbage input:
//! every game ends, every state validates, `apply` is copy-on-write and leaves its input alone,
//! determinization keeps the observer's view, a seed reproduces a game, and no input — however
//! malformed — makes the decoder, the move parsers or the setup panic.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use std::sync::Arc;

use boardbot_rules::legend_raiders::components::components;
use boardbot_rules::legend_raiders::state::Phase;
use boardbot_rules::legend_raiders::RaidersState;
use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, SeededRng, CHANCE, TERMINAL};
use common::{playout, CONFIGS, GAME};
use rand_core::RngCore;
use serde_json::{json, Map, Value};

#[test]
fn random_games_end_and_every_state_is_valid() {
    for (i, (players, variant)) in CONFIGS.iter().enumerate() {
        for game in 0..15 {
            let seed = (i * 100 + game) as u64;
            let end = playout(*players, variant, seed, |state, _| {
                let data = GAME.state_to_json(state, None);
                let decoded = GAME
                    .state_from_json(&data)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                assert_eq!(&decoded, state);
            });
            assert_eq!(end.phase, Phase::Over);
            let returns = GAME.returns(&end);
            assert_eq!(returns.iter().sum::<f64>(), 1.0);
            let mut values = Vec::new();
            GAME.evaluate(&end, &mut values);
            assert_eq!(values, returns);
        }
    }
}

#[test]
fn a_seed_reproduces_a_game() {
    for seed in [3, 4] {
        let a = playout(3, "dice", seed, |_, _| {});
        let b = playout(3, "dice", seed, |_, _| {});
        assert_eq!(GAME.state_to_json(&a, None), GAME.state_to_json(&b, None));
    }
}

#[test]
fn apply_is_copy_on_write_and_leaves_its_input_alone() {
    let mut legal = Vec::new();
    let mut checked = 0;
    playout(4, "dice", 11, |state, rng| {
        let before = state.clone();
        let action = if GAME.current_player(state) == CHANCE {
            GAME.sample_chance(state, rng).unwrap()
        } else if GAME.is_terminal(state) {
            return;
        } else {
            GAME.legal_actions(state, &mut legal);
            legal[0]
        };
        let next = GAME.apply(state, action);
        assert_eq!(state, &before, "apply changed its input");
        for seat in 0..state.n_players() {
            let same = state.players[seat] == next.players[seat];
            let shared = Arc::ptr_eq(state.players.shared(seat), next.players.shared(seat));
            if !same {
                assert!(!shared);
            } else if seat != usize::from(state.seat) {
                assert!(shared, "an untouched player is shared, not copied");
            }
        }
        checked += 1;
    });
    assert!(checked > 100);
}

#[test]
fn determinization_keeps_the_observers_view_and_resamples_the_rest() {
    let mut changed = 0;
    for seed in 0..6 {
        playout(
            3 + seed % 2,
            if seed % 3 == 0 { "diceless" } else { "dice" },
            40 + seed,
            |state, rng| {
                if below(rng, 5) != 0 {
                    return;
                }
                for observer in 0..state.n_players() {
                    let view = GAME.state_to_json(state, Some(observer));
                    let world = GAME.determinize(&GAME.observe(state, observer), rng);
                    assert_eq!(GAME.state_to_json(&world, Some(observer)), view);
                    let data = GAME.state_to_json(&world, None);
                    assert_eq!(GAME.state_from_json(&data).unwrap(), world);
                    assert_eq!(world.players[observer], state.players[observer]);
                    for (a, b) in world.players.iter().zip(state.players.iter()) {
                        assert_eq!(a.blind.count_ones(), b.blind.count_ones());
                    }
                    let from_view = GAME.state_from_json(&view).unwrap();
                    let world2 = GAME.determinize(&GAME.observe(&from_view, observer), rng);
                    assert_eq!(GAME.state_to_json(&world2, Some(observer)), view);
                    if world != *state {
                        changed += 1;
                    }
                }
            },
        );
    }
    assert!(
        changed > 50,
        "determinization should usually redeal hidden cards ({changed})"
    );
}

// ---------------------------------------------------------------- garbage never panics

const WORDS: [&str; 24] = [
    "game",
    "legend_raiders",
    "players",
    "turn",
    "phase",
    "roll",
    "dice",
    "tools",
    "rope",
    "olympus",
    "die-1",
    "deck",
    "stack",
    "hq",
    "tile",
    "complete",
    "prepare",
    "stop",
    "row1",
    "cards_blind",
    "",
    "é€",
    "\u{0}",
    "9999999999999999999999",
];

fn garbage(rng: &mut SeededRng, depth: u32) -> Value {
    match below(rng, if depth == 0 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(below(rng, 2) == 0),
        2 => {
            let ints = [
                json!(0),
                json!(1),
                json!(2),
                json!(5),
                json!(28),
                json!(256),
                json!(-1),
                json!(i64::MIN),
                json!(u64::MAX),
            ];
            ints[below(rng, ints.len() as u32) as usize].clone()
        }
        3 => json!([0.5, -0.0, 1e300, 3.0, f64::MIN_POSITIVE][below(rng, 5) as usize]),
        4 => Value::from(WORDS[below(rng, WORDS.len() as u32) as usize]),
        5 => Value::from(components().card_ids[below(rng, 28) as usize].as_str()),
        6 => Value::Array(
            (0..below(rng, 5))
                .map(|_| garbage(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..below(rng, 6) {
                let key = WORDS[below(rng, WORDS.len() as u32) as usize].to_string();
                map.insert(key, garbage(rng, depth - 1));
            }
            Value::Object(map)
        }
    }
}

fn paths(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(Value::from(k.as_str()));
                out.push(path.clone());
                paths(v, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Value::from(i));
                out.push(path.clone());
                paths(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        _ => &mut v[key.as_u64().unwrap() as usize],
    })
}

/// A valid state with one to three random edits.
fn mutated(data: &Value, rng: &mut SeededRng) -> Value {
    let mut out = data.clone();
    for _ in 0..=below(rng, 3) {
        let mut all = Vec::new();
        paths(&out, &mut Vec::new(), &mut all);
        if all.is_empty() {
            break;
        }
        let path = all[below(rng, all.len() as u32) as usize].clone();
        let (last, parent_path) = path.split_last().unwrap();
        let parent = at(&mut out, parent_path);
        match (below(rng, 4), parent, last) {
            (0, Value::Object(map), Value::String(k)) => {
                map.shift_remove(k.as_str());
            }
            (0, Value::Array(items), i) => {
                items.remove(i.as_u64().unwrap() as usize);
            }
            (1, Value::Array(items), i) => {
                let item = items[i.as_u64().unwrap() as usize].clone();
                items.push(item);
            }
            (2, target, key) => {
                let slot = at(target, std::slice::from_ref(key));
                if let Some(n) = slot.as_i64() {
                    *slot = Value::from(n + [-1, 1, 7][below(rng, 3) as usize]);
                } else {
                    *slot = garbage(rng, 1);
                }
            }
            (_, target, key) => *at(target, std::slice::from_ref(key)) = garbage(rng, 2),
        }
    }
    out
}

/// Up to `steps` random steps from `state` (an accepted state must be playable).
fn play_on(mut state: RaidersState, rng: &mut SeededRng, steps: usize) {
    let mut legal = Vec::new();
    for _ in 0..steps {
        let player = GAME.current_player(&state);
        if player == TERMINAL {
            return;
        }
        let action = if player == CHANCE {
            GAME.sample_chance(&state, rng)
                .expect("a chance step has an outcome")
        } else {
            GAME.legal_actions(&state, &mut legal);
            assert!(!legal.is_empty(), "a decision without a legal action");
            legal[below(rng, legal.len() as u32) as usize]
        };
        state = GAME.apply(&state, action);
    }
}

#[test]
fn garbage_states_are_rejected_without_panicking() {
    let mut rng = seeded_rng(7);
    let mut rejected = 0;
    for _ in 0..3000 {
        if GAME.state_from_json(&garbage(&mut rng, 4)).is_err() {
            rejected += 1;
        }
    }
    assert!(rejected > 2900);
    let mut samples = Vec::new();
    for (i, (players, variant)) in CONFIGS.iter().enumerate() {
        playout(*players, variant, 500 + i as u64, |state, rng| {
            if below(rng, 25) == 0 {
                samples.push(GAME.state_to_json(state, None));
                let observer = below(rng, state.n_players() as u32) as usize;
                samples.push(GAME.state_to_json(state, Some(observer)));
            }
        });
    }
    let mut accepted = 0;
    for data in &samples {
        for _ in 0..60 {
            let bad = mutated(data, &mut rng);
            match GAME.state_from_json(&bad) {
                Ok(state) => {
                    accepted += 1;
                    // Whatever is accepted is a real state: it survives a round trip and plays on.
                    let again = GAME
                        .state_from_json(&GAME.state_to_json(&state, None))
                        .unwrap();
                    assert_eq!(again, state);
                    play_on(state, &mut rng, 300);
                }
                Err(e) => assert!(e.path.starts_with('$') && !e.reason.is_empty()),
            }
        }
    }
    assert!(samples.len() > 20 && accepted < samples.len() * 60);
}

#[test]
fn garbage_moves_and_options_are_rejected_without_panicking() {
    let mut rng = seeded_rng(9);
    let state = GAME.new_state(&json!({"players": 3}), 1).unwrap();
    let states = [
        state.clone(),
        GAME.apply(&state, GAME.chance_outcomes(&state).unwrap()[0].0),
        GAME.new_state(&json!({"variant": "diceless"}), 2).unwrap(),
    ];
    let pieces = [
        "prepare", ":", "complete", "+torch=", "rope", "olympus", "9", "0", "row", "deck", " ",
        "die-card", "coin", "é", "reveal", "discard", "map", "999",
    ];
    for _ in 0..3000 {
        let text: String = (0..below(&mut rng, 5))
            .map(|_| pieces[below(&mut rng, pieces.len() as u32) as usize])
            .collect();
        let value = garbage(&mut rng, 3);
        for s in &states {
            let _ = GAME.action_from_str(s, &text);
            let _ = GAME.action_from_json(s, &value);
        }
        let _ = GAME.new_state(&value, rng.next_u64());
        let options = json!({"players": garbage(&mut rng, 1), "characters": garbage(&mut rng, 2), "first_player": garbage(&mut rng, 0)});
        let _ = GAME.new_state(&options, 1);
    }
}

#[test]
fn options_name_their_path() {
    let err = GAME.new_state(&json!({"players": 5}), 1).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.reason.as_str()),
        ("$.options.players", "must be at most 4, got 5")
    );
    let err = GAME
        .new_state(&json!({"characters": [1, "montana john"]}), 1)
        .unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.reason.as_str()),
        (
            "$.options.characters[1]",
            "each player needs a different board"
        )
    );
    let state = GAME.new_state(&json!({"players": 3, "characters": ["June Manjill", 4, "lana soft"], "first_player": 2}), 1).unwrap();
    let boards: Vec<u8> = state.players.iter().map(|p| p.board).collect();
    assert_eq!((boards, state.first, state.seat), (vec![1, 3, 2], 2, 2));
    assert_eq!(GAME.new_state(&Value::Null, 5).unwrap().n_players(), 2);
}
