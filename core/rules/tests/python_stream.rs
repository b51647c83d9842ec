//! Setups and chance draws from CPython's stream ([`PythonRandom`]) give the Python engine's;
//! from the native stream, the same as `new_state` and `sample_chance` (whose results existing
//! tests pin).
//!
//! The expected values come from the Python engine (`tests/native/test_python_stream.py`
//! compares whole states and long games; these are a few fields of each):
//!
//! ```python
//! import random
//! from boardbot.engine.legend_raiders.game import LegendRaidersGame
//! from boardbot.engine.leda.game import LedaGame
//! g = LegendRaidersGame(); s = g.new_state({"players": 4}, 5); j = g.state_to_json(s)
//! print(j["first_player"], [p["board"] for p in j["players"]], [h["tile"] for h in j["hq"]], j["row"])
//! rng = random.Random(99); print([g.sample_chance(s, rng) for _ in range(4)])
//! g = LedaGame(); s = g.new_state({}, 5); j = g.state_to_json(s)
//! print(j["active"], [p["clan"] for p in j["players"]], j["action_pile"], j["players"][1]["hand"])
//! t = g.apply(s, (0, 1))  # mulligan:yes, a shuffle next
//! rng = random.Random(99); print([g.sample_chance(t, rng) for _ in range(2)])
//! s = g.new_state({"clans": ["cats", "pandas"], "first_player": 0}, 5); j = g.state_to_json(s)
//! print(j["players"][0]["hand"], j["players"][0]["deck"])
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use boardbot_rules::leda::actions::Action as LedaAction;
use boardbot_rules::{seeded_rng, Game, GameDraws, Leda, LegendRaiders, PythonRandom, CHANCE};
use serde_json::{json, Value};

fn field<'a>(state: &'a Value, pointer: &str) -> &'a Value {
    state.pointer(pointer).unwrap_or(&Value::Null)
}

#[test]
fn legend_raiders_setup_and_draws_are_the_python_engines() {
    let game = LegendRaiders;
    let mut rng = PythonRandom::new(5);
    let state = game
        .new_state_with(&json!({"players": 4}), &mut rng)
        .unwrap();
    let j = game.state_to_json(&state, None);
    assert_eq!(field(&j, "/first_player"), &json!(3));
    let boards: Vec<&Value> = (0..4)
        .map(|i| field(&j, &format!("/players/{i}/board")))
        .collect();
    assert_eq!(boards, [&json!(3), &json!(4), &json!(2), &json!(1)]);
    let tiles: Vec<&Value> = (0..4)
        .map(|i| field(&j, &format!("/hq/{i}/tile")))
        .collect();
    assert_eq!(
        tiles,
        [
            &json!("babylon"),
            &json!("lancea-longini"),
            &json!("alexandria"),
            &json!("grand-grimoire")
        ]
    );
    assert_eq!(
        field(&j, "/row"),
        &json!([
            "mission-idol-treasure-place",
            "discovery-weapon-2",
            "die-1",
            "mission-place-place-place"
        ])
    );
    let mut rng = PythonRandom::new(99);
    let rolls: Vec<_> = (0..4)
        .map(|_| game.sample_chance_with(&state, &mut rng).unwrap())
        .collect();
    assert_eq!(rolls, [188, 188, 187, 189]);
}

#[test]
fn leda_setup_and_shuffles_are_the_python_engines() {
    let game = Leda;
    let state = game
        .new_state_with(&json!({}), &mut PythonRandom::new(5))
        .unwrap();
    let j = game.state_to_json(&state, None);
    assert_eq!(field(&j, "/active"), &json!(1));
    assert_eq!(field(&j, "/players/0/clan"), &json!("sharks"));
    assert_eq!(field(&j, "/players/1/clan"), &json!("scorpions"));
    assert_eq!(
        field(&j, "/action_pile"),
        &json!(["action-3", "action-5", "action-1", "action-2", "action-4"])
    );
    assert_eq!(
        field(&j, "/players/1/hand"),
        &json!(["scorpion-5", "scorpion-7", "scorpion-1"])
    );

    let mulligan = LedaAction::from_tuple(&json!([0, 1])).unwrap();
    let shuffling = game.apply(&state, mulligan);
    assert_eq!(game.current_player(&shuffling), CHANCE);
    let mut rng = PythonRandom::new(99);
    let orders: Vec<Value> = (0..2)
        .map(|_| {
            game.sample_chance_with(&shuffling, &mut rng)
                .unwrap()
                .to_tuple()
        })
        .collect();
    assert_eq!(
        orders,
        [
            json!([27, [8, 7, 4, 0, 5, 9, 1, 2, 3, 10, 6]]),
            json!([27, [0, 2, 5, 6, 4, 3, 9, 7, 1, 10, 8]])
        ]
    );

    let options = json!({"clans": ["cats", "pandas"], "first_player": 0});
    let given = game
        .new_state_with(&options, &mut PythonRandom::new(5))
        .unwrap();
    let j = game.state_to_json(&given, None);
    assert_eq!(
        field(&j, "/players/0/hand"),
        &json!(["cat-3", "cat-11", "cat-5"])
    );
    assert_eq!(
        field(&j, "/players/0/deck"),
        &json!([
            "cat-13", "cat-10", "cat-6", "cat-1", "cat-12", "cat-2", "cat-9", "cat-7", "cat-4",
            "cat-8"
        ])
    );
}

#[test]
fn the_native_stream_through_game_draws_is_new_state_and_sample_chance() {
    for seed in 0..50 {
        for players in 2..=4 {
            let options = json!({"players": players});
            let game = LegendRaiders;
            let native = game.new_state(&options, seed).unwrap();
            let drawn = game
                .new_state_with(&options, &mut seeded_rng(seed))
                .unwrap();
            assert_eq!(native, drawn);
            assert_eq!(
                game.sample_chance(&native, &mut seeded_rng(seed)),
                game.sample_chance_with(&native, &mut seeded_rng(seed))
            );
        }
        let game = Leda;
        let native = game.new_state(&json!({}), seed).unwrap();
        let drawn = game
            .new_state_with(&json!({}), &mut seeded_rng(seed))
            .unwrap();
        assert_eq!(native, drawn);
    }
}

#[test]
fn bad_options_fail_alike_on_either_stream() {
    for options in [
        json!({"players": 5}),
        json!({"variant": "x"}),
        json!({"characters": [1, 1]}),
    ] {
        let native = LegendRaiders.new_state(&options, 1).unwrap_err();
        let python = LegendRaiders
            .new_state_with(&options, &mut PythonRandom::new(1))
            .unwrap_err();
        assert_eq!(native, python);
    }
    for options in [json!({"players": 3}), json!({"clans": ["cats", "cats"]})] {
        let native = Leda.new_state(&options, 1).unwrap_err();
        let python = Leda
            .new_state_with(&options, &mut PythonRandom::new(1))
            .unwrap_err();
        assert_eq!(native, python);
    }
}
