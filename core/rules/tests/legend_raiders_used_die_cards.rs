//! Diceless: once the deck has run out, it holds only the Die cards players used since (the
//! twin of `tests/engine/legend_raiders/test_used_die_cards.py`).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use std::collections::BTreeSet;

use boardbot_rules::legend_raiders::components::{components, CardKind};
use boardbot_rules::legend_raiders::knowledge::deal_hidden;
use boardbot_rules::legend_raiders::rules::deck_holds_only_die_cards;
use boardbot_rules::legend_raiders::state::{bits, Phase, RaidersState};
use boardbot_rules::{seeded_rng, Game};
use common::*;
use serde_json::Value;

/// The Die cards' ids, in id order.
fn die_cards() -> Vec<&'static str> {
    let c = components();
    (0..c.n_cards())
        .filter(|&j| c.card_kind[j] == CardKind::Die)
        .map(|j| c.card_ids[j].as_str())
        .collect()
}

/// Every other card's id, in id order.
fn other_cards() -> Vec<&'static str> {
    let c = components();
    (0..c.n_cards())
        .filter(|&j| c.card_kind[j] != CardKind::Die)
        .map(|j| c.card_ids[j].as_str())
        .collect()
}

fn is_die(j: usize) -> bool {
    components().card_kind[j] == CardKind::Die
}

/// A diceless game whose deck ran out (a face-up slot is empty) and got one Die card back.
///
/// Seat 1 holds two blind cards, one a Die card: from seat 0's view the deck and that hand are
/// hidden, and the deck's card must be a Die card.
fn ran_out() -> RaidersState {
    let die = die_cards();
    let others = other_cards();
    let row = [Some(others[0]), Some(others[1]), None, Some(others[2])];
    let rest = &others[3..];
    let last = rest.len() - 1;
    let mut seat0_known: Vec<&'static str> = rest[..12].to_vec();
    seat0_known.extend([die[2], die[3]]);
    build(
        &[
            p(1).known(&seat0_known),
            p(2).known(&rest[12..last]).blind(&[die[1], rest[last]]),
        ],
        &Table {
            row,
            deck: Some(vec![die[0]]),
            ..Table::default()
        },
        Turn {
            dice: false,
            ..Turn::default()
        },
    )
}

#[test]
fn a_view_decodes_with_a_die_card_in_the_deck() {
    let state = ran_out();
    assert!(deck_holds_only_die_cards(&state));
    let view = GAME.state_to_json(&state, Some(0));
    assert_eq!(view["deck"], Value::from(1));
    assert_eq!(view["players"][1]["cards_blind"], Value::from(2));
    let decoded = GAME.state_from_json(&view).unwrap();
    let deck: Vec<usize> = bits(decoded.deck).collect();
    assert_eq!(deck.len(), 1);
    assert!(is_die(deck[0]), "placeholder {} in the deck", deck[0]);
    let again = GAME
        .state_from_json(&GAME.state_to_json(&decoded, None))
        .unwrap();
    assert_eq!(again, decoded);
}

#[test]
fn determinize_deals_only_die_cards_to_the_deck() {
    let decoded = GAME
        .state_from_json(&GAME.state_to_json(&ran_out(), Some(0)))
        .unwrap();
    let mut dealt = BTreeSet::new();
    for seed in 0..40 {
        let world = GAME.determinize(&GAME.observe(&decoded, 0), &mut seeded_rng(seed));
        let deck: Vec<usize> = bits(world.deck).collect();
        assert_eq!(deck.len(), 1);
        assert!(is_die(deck[0]), "seed {seed}: card {} in the deck", deck[0]);
        dealt.insert(deck[0]);
        let again = GAME
            .state_from_json(&GAME.state_to_json(&world, None))
            .unwrap();
        assert_eq!(again, world);
    }
    let die = die_cards();
    // Either unseen Die card, never another card.
    assert_eq!(dealt, BTreeSet::from([card(die[0]), card(die[1])]));
}

#[test]
fn a_full_state_with_another_card_in_such_a_deck_is_refused() {
    let die = die_cards();
    let mut data = GAME.state_to_json(&ran_out(), None);
    let hand: Vec<String> = data["players"][1]["cards_blind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let swapped: Vec<&String> = hand.iter().filter(|c| !die.contains(&c.as_str())).collect();
    let mut kept: Vec<String> = hand
        .iter()
        .filter(|c| die.contains(&c.as_str()))
        .cloned()
        .collect();
    kept.push(die[0].to_string());
    kept.sort();
    data["players"][1]["cards_blind"] = Value::from(kept);
    data["deck"] = Value::from(swapped.iter().map(|c| c.as_str()).collect::<Vec<_>>());
    let err = GAME.state_from_json(&data).unwrap_err();
    assert_eq!(err.path, "$.deck[0]");
    assert!(err.reason.contains("only used Die cards"), "{}", err.reason);
}

#[test]
fn the_error_names_the_first_other_card_in_the_list_order() {
    // Two cards back in such a deck, a Die card listed first: the other one is at index 1.
    let die = die_cards();
    let mut data = GAME.state_to_json(&ran_out(), None);
    let hand: Vec<String> = data["players"][1]["cards_blind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let other = hand.iter().find(|c| !die.contains(&c.as_str())).unwrap();
    data["players"][1]["cards_blind"] = Value::from(vec![die[1]]);
    data["deck"] = Value::from(vec![die[0], other.as_str()]);
    let err = GAME.state_from_json(&data).unwrap_err();
    assert_eq!(err.path, "$.deck[1]");
    assert_eq!(
        err.reason,
        "a face-up slot is empty, so the deck holds only used Die cards"
    );
}

#[test]
fn the_slot_being_refilled_does_not_count_as_empty() {
    let mut state = ran_out();
    assert!(deck_holds_only_die_cards(&state));
    // The empty slot is the one a card is being revealed into: the deck has not run out.
    state.phase = Phase::RevealCard;
    state.column = Some(2);
    assert!(!deck_holds_only_die_cards(&state));
    state.column = Some(0);
    assert!(deck_holds_only_die_cards(&state));
    state.dice = true;
    assert!(!deck_holds_only_die_cards(&state));
}

#[test]
fn deal_hidden_orders_die_cards_first_only_for_such_a_deck() {
    let die: Vec<usize> = die_cards().iter().map(|c| card(c)).collect();
    let others: Vec<usize> = other_cards().iter().map(|c| card(c)).collect();
    let pool = [others[5], die[3], others[1], die[0], others[2]];
    let mask = |cards: &[usize]| cards.iter().fold(0u64, |m, &j| m | 1u64 << j);
    let sizes = [Some(2), None, Some(1)];
    // The deck first: the pool's Die cards in its order, then the others; hands take the rest.
    let (hands, deck) = deal_hidden(&pool, &sizes, 2, true);
    assert_eq!(deck, mask(&[die[3], die[0]]));
    assert_eq!(
        hands[..3],
        [
            Some(mask(&[others[5], others[1]])),
            None,
            Some(mask(&[others[2]]))
        ]
    );
    // More deck cards than Die cards in the pool: the counts still hold.
    let (hands, deck) = deal_hidden(&pool, &[Some(1), None], 4, true);
    assert_eq!(deck, mask(&[die[3], die[0], others[5], others[1]]));
    assert_eq!(hands[..2], [Some(mask(&[others[2]])), None]);
    // Otherwise (or with no deck card) the hands come first, in seat order.
    for (deck_size, only_die) in [(2, false), (0, true)] {
        let (hands, deck) = deal_hidden(&pool, &sizes, deck_size, only_die);
        assert_eq!(
            hands[..3],
            [
                Some(mask(&[others[5], die[3]])),
                None,
                Some(mask(&[others[1]]))
            ]
        );
        assert_eq!(deck, mask(&[die[0], others[2]]));
    }
}

#[test]
fn a_view_whose_own_hand_leaves_too_few_die_cards_for_the_deck_is_refused() {
    let die = die_cards();
    let mut view = GAME.state_to_json(&ran_out(), Some(1)); // seat 1 sees its own blind Die card
    GAME.state_from_json(&view).unwrap();
    // Hide one more card in the deck: it would need a second Die card, and the only other
    // unseen one is in seat 1's own hand.
    let known: Vec<String> = view["players"][0]["cards_face_up"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut fewer: Vec<&String> = known
        .iter()
        .filter(|c| !die.contains(&c.as_str()))
        .skip(1)
        .collect();
    fewer.extend(known.iter().filter(|c| die.contains(&c.as_str())));
    view["players"][0]["cards_face_up"] =
        Value::from(fewer.iter().map(|c| c.as_str()).collect::<Vec<_>>());
    view["deck"] = Value::from(2);
    let err = GAME.state_from_json(&view).unwrap_err();
    assert_eq!(err.path, "$.deck");
    assert!(err.reason.contains("at most 1"), "{}", err.reason);
}

/// The twin of `test_diceless_empty_slot_means_the_deck_holds_only_used_die_cards` in
/// `tests/engine/legend_raiders/test_audit_validation.py`.
#[test]
fn diceless_empty_slot_means_the_deck_holds_only_used_die_cards() {
    let c = components();
    let row = Table::default().row;
    let rest: Vec<&'static str> = c
        .card_ids
        .iter()
        .map(String::as_str)
        .filter(|id| !row.contains(&Some(*id)) && *id != "die-1")
        .collect();
    let state = build(
        &[p(1).known(&["die-1"]), p(2).known(&rest)],
        &Table {
            deck: Some(vec![]),
            ..Table::default()
        },
        Turn {
            dice: false,
            ..Turn::default()
        },
    );
    let state = play(state, &["expedition:row1"]);
    assert!(state.row[0].is_none() && state.deck == 0);
    let state = play(state, &["die-card:coin"]);
    assert_eq!(
        state.deck.count_ones(),
        1,
        "the used Die card went back; the slot stays empty"
    );
    for observer in [None, Some(0), Some(1)] {
        GAME.state_from_json(&GAME.state_to_json(&state, observer))
            .unwrap();
    }
    // A mission card moved into the deck, after the used Die card.
    let mut data = GAME.state_to_json(&state, None);
    let moved = data["players"][1]["cards_face_up"]
        .as_array_mut()
        .unwrap()
        .pop()
        .unwrap();
    data["deck"].as_array_mut().unwrap().push(moved);
    let err = GAME.state_from_json(&data).unwrap_err();
    assert_eq!(err.path, "$.deck[1]");
    assert!(err.reason.contains("only used Die cards"), "{}", err.reason);
}
