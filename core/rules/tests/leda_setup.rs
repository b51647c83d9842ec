//! The native LEDA setup (`leda::setup`): Python's option description and option errors
//! (recorded from `engine/leda/setup.py`), and, since a seed gives the native engine's own
//! stream (not comparable with Python's), the structural invariants of seeded first states and
//! their JSON round trip through the codec (which runs the full validation).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::HashSet;

use boardbot_rules::leda::data::{
    clan_cards, ACTION_TILE_BASE, ACTION_TILE_COUNT, CLAN_NAMES, MV_BASE, MV_TOKEN_COUNT, SQUARES,
    STARTING_FOOD, STARTING_HAND,
};
use boardbot_rules::leda::frames::{F_MULLIGAN, F_ROUND};
use boardbot_rules::leda::setup::{describe_options, new_state};
use boardbot_rules::leda::{state_from_json, state_to_json, LedaState};
use serde_json::{json, Value};

/// Python's `describe_options()`, as `json.dumps` wrote it.
const PY_OPTIONS: &str = r#"{"clans": {"type": "list of 2 distinct clan names, seat 0 first", "values": ["cats", "pandas", "sharks", "scorpions"], "default": "a seeded random distinct pair"}, "first_player": {"type": "0, 1 or null", "default": "null: chosen at random from the seed"}, "players": {"type": "integer", "values": [2], "default": 2}}"#;

#[test]
fn options_are_described_as_in_python() {
    let py: Value = serde_json::from_str(PY_OPTIONS).unwrap();
    assert_eq!(
        serde_json::to_string(&describe_options()).unwrap(),
        serde_json::to_string(&py).unwrap()
    );
}

#[test]
fn bad_options_fail_as_in_python() {
    let cases = [
        (
            json!({"x": 1}),
            "$.options.x",
            "unknown field; allowed: clans, first_player, players",
        ),
        (
            json!({"players": 3}),
            "$.options.players",
            "LEDA is for exactly 2 players",
        ),
        (
            json!({"players": null}),
            "$.options.players",
            "expected an integer, got null",
        ),
        (
            json!({"players": "2"}),
            "$.options.players",
            "expected an integer, got the string '2'",
        ),
        (
            json!({"clans": ["cats"]}),
            "$.options.clans",
            "expected 2 items, got 1",
        ),
        (
            json!({"clans": ["cats", "cats"]}),
            "$.options.clans",
            "both players took the same clan",
        ),
        (
            json!({"clans": ["cats", "dogs"]}),
            "$.options.clans[1]",
            "unknown value 'dogs'; expected one of: cats, pandas, scorpions, sharks",
        ),
        (
            json!({"clans": "cats"}),
            "$.options.clans",
            "expected a list, got the string 'cats'",
        ),
        (
            json!({"clans": ["cats", 1]}),
            "$.options.clans[1]",
            "expected a string, got the number 1",
        ),
        (
            json!({"first_player": 2}),
            "$.options.first_player",
            "must be at most 1, got 2",
        ),
        (
            json!({"first_player": true}),
            "$.options.first_player",
            "expected an integer, got a boolean",
        ),
        (
            json!({"first_player": -1}),
            "$.options.first_player",
            "must be at least 0, got -1",
        ),
    ];
    for (options, path, reason) in cases {
        let err = new_state(&options, 0).unwrap_err();
        assert_eq!(
            (err.path.as_str(), err.reason.as_str()),
            (path, reason),
            "{options}"
        );
    }
}

fn sorted(items: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = items.collect();
    v.sort_unstable();
    v
}

fn check_first_state(s: &LedaState) {
    let clans = [s.player(0).clan, s.player(1).clan];
    assert_ne!(clans[0], clans[1]);
    for seat in 0..2 {
        let p = s.player(seat);
        assert_eq!(p.hand.len(), STARTING_HAND);
        let cards = sorted(p.hand.iter().chain(p.deck.iter()));
        assert_eq!(cards, clan_cards(usize::from(p.clan)).collect::<Vec<_>>());
        let tiles = sorted(p.grid.iter().map(|sq| usize::from(sq.tile)));
        assert_eq!(tiles, (0..SQUARES).collect::<Vec<_>>());
        assert!(p
            .grid
            .iter()
            .all(|sq| sq.face == 0 && sq.cards.is_empty() && !sq.token));
        assert_eq!(p.food, STARTING_FOOD);
        assert!(p.mv.is_empty() && p.military == 0 && p.specials == 0 && p.rotated == 0);
    }
    let tiles = sorted(s.action_pile.iter());
    assert_eq!(
        tiles,
        (ACTION_TILE_BASE..ACTION_TILE_BASE + ACTION_TILE_COUNT).collect::<Vec<_>>()
    );
    assert_eq!(
        sorted(s.mv_pile.iter()),
        (MV_BASE..MV_BASE + MV_TOKEN_COUNT).collect::<Vec<_>>()
    );
    assert!(s.revealed.is_empty() && s.zone == -1 && !s.blocked && s.winner == -1);
    assert!(s.known.iter().all(|k| k.is_empty()));
    let first = s.active;
    let stack: Vec<(u8, u8)> = s.stack.iter().map(|f| (f.kind, f.seat)).collect();
    assert_eq!(
        stack,
        [
            (F_ROUND, first),
            (F_MULLIGAN, 1 - first),
            (F_MULLIGAN, first)
        ]
    );
    assert!(s.stack.iter().all(|f| f.args().is_empty()));
    // The codec round trip runs every validation check.
    let full = state_to_json(s, None);
    assert_eq!(&state_from_json(&full).unwrap(), s);
    for seat in 0..2 {
        state_from_json(&state_to_json(s, Some(seat))).unwrap();
    }
}

#[test]
fn seeded_first_states_hold_the_invariants() {
    let mut pairings = HashSet::new();
    let mut firsts = HashSet::new();
    let mut distinct = HashSet::new();
    for seed in 0..300u64 {
        let s = new_state(&Value::Null, seed).unwrap();
        check_first_state(&s);
        assert_eq!(
            new_state(&json!({}), seed).unwrap(),
            s,
            "the same seed, the same game"
        );
        pairings.insert((s.player(0).clan, s.player(1).clan));
        firsts.insert(s.active);
        distinct.insert(serde_json::to_string(&state_to_json(&s, None)).unwrap());
    }
    assert_eq!(pairings.len(), 12, "every ordered pairing drawn");
    assert_eq!(firsts.len(), 2);
    assert_eq!(distinct.len(), 300);
    for (a, b) in (0..4)
        .flat_map(|a| (0..4).map(move |b| (a, b)))
        .filter(|(a, b)| a != b)
    {
        for first in 0..2u8 {
            let options = json!({
                "clans": [CLAN_NAMES[a], CLAN_NAMES[b]],
                "first_player": first,
                "players": 2,
            });
            for seed in 0..5 {
                let s = new_state(&options, seed).unwrap();
                check_first_state(&s);
                assert_eq!(
                    (usize::from(s.player(0).clan), usize::from(s.player(1).clan)),
                    (a, b)
                );
                assert_eq!(s.active, first);
            }
        }
    }
    let nulls = json!({"clans": null, "first_player": null});
    check_first_state(&new_state(&nulls, 7).unwrap());
}
