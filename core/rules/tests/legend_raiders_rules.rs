//! Legend Raiders scenario tests: the rulebook's six examples, the die, Prepare, Expedition,
//! the diceless variant and the end of the game (a 6th discovery, the end out of reach, no
//! idle-round ending), each from a state built by names.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use boardbot_rules::legend_raiders::components::components;
use boardbot_rules::legend_raiders::rules::tiles_in_supply;
use boardbot_rules::legend_raiders::scoring::{mission_points, symbol_counts};
use boardbot_rules::legend_raiders::state::Phase;
use boardbot_rules::{Game, TERMINAL};
use common::*;
use serde_json::Value;

fn hq_table() -> Table {
    Table {
        hq: [
            Some("aegis"),
            Some("adam"),
            Some("necronomicon"),
            Some("babel"),
        ],
        hq_tools: [
            tools(&[("compass", 2)]),
            tools(&[("map", 1), ("rope", 1)]),
            tools(&[("shovel", 2)]),
            tools(&[("rope", 2)]),
        ],
        ..Table::default()
    }
}

fn diceless() -> Turn {
    Turn {
        dice: false,
        ..Turn::default()
    }
}

// ---------------------------------------------------------------- the rulebook's examples

#[test]
fn example_1_florence_ovaraby_takes_the_necronomicon_column() {
    let state = build(&[p(4), p(1)], &hq_table(), Turn::default());
    assert_eq!(
        GAME.state_to_json(&state, None)["players"][0]["character"],
        "Lawrence Ovaraby / Florence Ovaraby"
    );
    let state = play(state, &["roll:coin"]);
    assert!(texts(&state).contains(&"prepare:3".to_string()));
    let after = play(state, &["prepare:3"]);
    let florence = &after.players[0];
    assert_eq!(florence.prepared, 1u64 << tile("necronomicon"));
    assert_eq!(florence.tools, tools(&[("shovel", 2)]));
    assert_eq!(after.hq_tiles[2], None);
    assert_eq!(after.hq_tools[2], tools(&[]));
    assert_eq!(phase_name(&after), "refill-tile");
}

#[test]
fn example_2_montana_john_scores_six_for_olympus() {
    let state = build(
        &[
            p(1).tools(&[("shovel", 2), ("rope", 1)])
                .prepared(&["olympus"])
                .torch(false),
            p(2).torch(false),
        ],
        &Table::default(),
        Turn::default(),
    );
    let state = play(
        state,
        &["roll:torch", "expedition:row1", "reveal:mission-book-book"],
    );
    assert!(state.players[0].torch, "the torch roll relit it");
    let state = play(state, &["complete:olympus"]);
    assert_eq!(state.players[0].points, 6);
    assert_eq!(
        GAME.state_to_json(&state, None)["players"][0]["coins_visible"],
        5
    );
}

#[test]
fn example_3_joe_manjee_gets_two_extra_points_for_two_maps_on_el_dorado() {
    let state = build(
        &[
            p(2).tools(&[("map", 2), ("compass", 1)])
                .prepared(&["el-dorado"]),
            p(1),
        ],
        &Table::default(),
        Turn::default(),
    );
    let state = play(
        state,
        &[
            "roll:torch",
            "expedition:row1",
            "reveal:mission-book-book",
            "complete:el-dorado",
        ],
    );
    assert_eq!(
        GAME.state_to_json(&state, None)["players"][0]["coins_visible"],
        5
    );
    assert_eq!(state.players[0].points, 5 + 2);
}

#[test]
fn example_4_mjollnir_with_the_torch_for_the_rope_earns_no_favourite_bonus() {
    let state = build(
        &[
            p(1).tools(&[("shovel", 1), ("rope", 1)])
                .prepared(&["mjollnir"])
                .completed(&["olympus", "atlantis"])
                .points(13)
                .torch(false),
            p(2),
        ],
        &Table::default(),
        Turn::default(),
    );
    let state = play(
        state,
        &["roll:torch", "expedition:row1", "reveal:mission-book-book"],
    );
    assert!(texts(&state).contains(&"complete:mjollnir+torch=rope".to_string()));
    let after = play(state.clone(), &["complete:mjollnir+torch=rope"]);
    let montana = &after.players[0];
    assert_eq!(montana.points - 13, 6);
    assert!(!montana.torch, "the torch is turned unlit");
    assert_eq!(
        montana.tools,
        tools(&[("rope", 1)]),
        "the Rope token stays in the backpack"
    );
    let with_rope = play(state, &["complete:mjollnir"]);
    assert_eq!(
        with_rope.players[0].points - 13,
        7,
        "paying the Rope token earns the bonus"
    );
}

#[test]
fn example_5_lana_soft_turns_the_torch_roll_into_a_coin() {
    let state = build(
        &[
            p(3).known(&["die-1"])
                .tools(&[("shovel", 2), ("rope", 1)])
                .prepared(&["aegis"]),
            p(1),
        ],
        &Table::default(),
        Turn::default(),
    );
    let after = play(state, &["roll:torch", "die-card:coin"]);
    assert!(
        after.players[0].torch && after.players[1].torch,
        "nobody's torch flipped"
    );
    assert_eq!(after.players[0].known, 0);
    assert_eq!(
        after.removed_cards,
        1u64 << card("die-1"),
        "the Die card leaves the game"
    );
    assert_eq!(after.coin_bonus, 1);
    let done = play(
        after,
        &[
            "expedition:row1",
            "reveal:mission-book-book",
            "complete:aegis",
        ],
    );
    // 3 empty spaces + the 6th completed space = 4 coins, +2 Shovels (her favourite), +1 Coin.
    assert_eq!(done.players[0].points, 4 + 2 + 1);
}

#[test]
fn example_6_joe_manjee_scores_ten_points_for_his_missions() {
    let joe = p(2)
        .completed(&["grand-grimoire", "aegis", "el-dorado"])
        .points(20)
        .known(&["mission-book-weapon-place", "discovery-book-2"])
        .blind(&[
            "mission-book-book-place",
            "mission-place-place",
            "mission-idol-idol",
        ]);
    let state = build(&[joe, p(1)], &Table::default(), Turn::default());
    let counts = symbol_counts(&state.players[0]);
    assert_eq!(counts[..5], [2, 1, 0, 0, 1]); // book (tile + card), weapon, place
    assert_eq!(mission_points(&state.players[0]), 10);
}

// ---------------------------------------------------------------- the die

#[test]
fn die_faces_have_the_data_file_chances() {
    let state = build(&[p(1), p(2)], &Table::default(), Turn::default());
    let outcomes = GAME.chance_outcomes(&state).unwrap();
    let texts: Vec<String> = outcomes
        .iter()
        .map(|(a, _)| GAME.action_to_str(&state, *a))
        .collect();
    assert_eq!(texts, ["roll:tool", "roll:torch", "roll:coin"]);
    assert!(outcomes.iter().all(|(_, p)| (p - 1.0 / 3.0).abs() < 1e-12));
}

#[test]
fn tool_face_with_a_full_backpack_puts_one_back_new_one_allowed() {
    let state = build(
        &[p(1).tools(&[("map", 3), ("rope", 3)]), p(2)],
        &Table::default(),
        Turn::default(),
    );
    let state = play(state, &["roll:tool", "draw:shovel"]);
    assert_eq!(phase_name(&state), "discard-tool");
    assert_eq!(
        texts(&state),
        ["discard:map", "discard:shovel", "discard:rope"]
    );
    let state = play(state, &["discard:shovel"]);
    assert_eq!(phase_name(&state), "action");
}

#[test]
fn torch_face_flips_every_players_torch() {
    let state = build(
        &[p(1), p(2).torch(false), p(3)],
        &Table::default(),
        Turn::default(),
    );
    let after = play(state.clone(), &["roll:torch"]);
    let torches: Vec<bool> = after.players.iter().map(|p| p.torch).collect();
    assert_eq!(torches, [false, true, false]);
    for seat in 0..3 {
        assert!(!std::sync::Arc::ptr_eq(
            state.players.shared(seat),
            after.players.shared(seat)
        ));
    }
}

#[test]
fn die_card_step_for_blind_cards_offers_only_keep_without_a_die_card() {
    let state = build(
        &[p(3).blind(&["mission-book-book"]), p(1)],
        &Table::default(),
        Turn::default(),
    );
    let state = play(state, &["roll:torch"]);
    assert_eq!(
        phase_name(&state),
        "die-card",
        "a blind card might be a Die card"
    );
    assert_eq!(texts(&state), ["keep-roll"]);
    let with_die = build(
        &[p(3).known(&["die-1"]), p(1)],
        &Table::default(),
        Turn::default(),
    );
    let with_die = play(with_die, &["roll:torch"]);
    assert_eq!(
        texts(&with_die),
        ["keep-roll", "die-card:tool", "die-card:coin"]
    );
}

#[test]
fn a_known_die_card_is_used_before_a_blind_one() {
    let state = build(
        &[p(3).known(&["die-1"]).blind(&["die-2"]), p(1)],
        &Table::default(),
        Turn::default(),
    );
    let after = play(state, &["roll:coin", "die-card:torch"]);
    assert_eq!(after.players[0].known, 0);
    assert_eq!(after.players[0].blind, 1u64 << card("die-2"));
}

// ---------------------------------------------------------------- Prepare

#[test]
fn a_fourth_tile_forces_a_discard_new_tile_included() {
    let state = build(
        &[p(4).prepared(&["horus", "eden", "mater"]), p(1)],
        &hq_table(),
        Turn::default(),
    );
    let state = play(state, &["roll:coin", "prepare:1"]);
    assert_eq!(phase_name(&state), "discard-tile");
    assert_eq!(
        texts(&state),
        [
            "discard:aegis",
            "discard:horus",
            "discard:mater",
            "discard:eden"
        ]
    );
    let after = play(state, &["discard:aegis"]);
    assert_eq!(
        after.removed_tiles,
        1u64 << tile("aegis"),
        "a discarded tile leaves the game"
    );
    assert_eq!(phase_name(&after), "refill-tile");
}

#[test]
fn tile_then_tool_discards_when_both_limits_are_exceeded() {
    let state = build(
        &[
            p(4).tools(&[("map", 3), ("rope", 3)])
                .prepared(&["horus", "eden", "mater"]),
            p(1),
        ],
        &hq_table(),
        Turn::default(),
    );
    let state = play(state, &["roll:coin", "prepare:3", "discard:horus"]);
    assert_eq!(phase_name(&state), "discard-tool");
    let state = play(state, &["discard:shovel", "discard:map"]);
    assert_eq!(
        state.players[0].tools,
        tools(&[("map", 2), ("shovel", 1), ("rope", 3)])
    );
    assert_eq!(phase_name(&state), "refill-tile");
    let state = play(state, &["reveal:olympus", "draw:map", "draw:rope"]);
    assert_eq!(state.hq_tiles[2], Some(tile("olympus") as u8));
    assert_eq!(state.seat, 1);
}

#[test]
fn an_empty_stack_leaves_a_tools_only_column_that_can_still_be_taken() {
    let table = table_with(
        [
            Some("aegis"),
            Some("adam"),
            Some("necronomicon"),
            Some("babel"),
        ],
        &[],
        &[],
    );
    let table = Table {
        hq_tools: hq_table().hq_tools,
        ..table
    };
    let state = play(
        build(&[p(4), p(1)], &table, Turn::default()),
        &["roll:coin", "prepare:3"],
    );
    assert_eq!(phase_name(&state), "refill-tools");
    let state = play(state, &["draw:compass", "draw:compass", "roll:coin"]);
    assert_eq!(state.hq_tiles[2], None);
    assert!(texts(&state).contains(&"prepare:3".to_string()));
}

// ---------------------------------------------------------------- Expedition

#[test]
fn card_choices_are_the_face_up_row_or_the_deck_top() {
    let state = play(
        build(&[p(1), p(2)], &Table::default(), Turn::default()),
        &["roll:coin"],
    );
    let options: Vec<String> = texts(&state)
        .into_iter()
        .filter(|t| t.starts_with("expedition"))
        .collect();
    assert_eq!(
        options,
        [
            "expedition:row1",
            "expedition:row2",
            "expedition:row3",
            "expedition:row4",
            "expedition:deck"
        ]
    );
}

#[test]
fn a_blind_card_is_known_only_to_its_owner() {
    let state = play(
        build(&[p(1), p(2)], &Table::default(), Turn::default()),
        &["roll:coin", "expedition:deck"],
    );
    assert_eq!(phase_name(&state), "blind-card");
    let state = play(state, &["reveal:mission-book-book"]);
    assert_eq!(
        GAME.state_to_json(&state, Some(0))["players"][0]["cards_blind"],
        serde_json::json!(["mission-book-book"])
    );
    assert_eq!(
        GAME.state_to_json(&state, Some(1))["players"][0]["cards_blind"],
        1
    );
    assert!(GAME.state_to_json(&state, Some(0))["deck"].is_u64());
}

#[test]
fn the_lit_torch_stands_in_for_one_missing_tool() {
    let state = build(
        &[
            p(3).tools(&[("map", 2)]).prepared(&["eden", "el-dorado"]),
            p(2),
        ],
        &Table::default(),
        Turn::default(),
    );
    let state = play(
        state,
        &["roll:coin", "expedition:row1", "reveal:mission-book-book"],
    );
    assert_eq!(
        texts(&state),
        [
            "complete:eden+torch=shovel",
            "complete:el-dorado+torch=compass",
            "stop"
        ]
    );
    let after = play(state, &["complete:el-dorado+torch=compass"]);
    assert!(!after.players[0].torch);
    assert_eq!(
        after.seat, 1,
        "nothing else can be completed: the turn ends"
    );
}

#[test]
fn at_most_three_completions_and_the_sixth_space_coin() {
    let state = build(
        &[
            p(4).tools(&[("shovel", 4), ("rope", 2)])
                .prepared(&["aegis", "wen-dae-ke", "draconite"])
                .completed(&FIVE)
                .points(20)
                .torch(false),
            p(2),
        ],
        &Table::default(),
        Turn::default(),
    );
    let state = play(
        state,
        &["roll:torch", "expedition:row1", "reveal:mission-book-book"],
    );
    let sixth = play(state, &["complete:aegis"]);
    // 1 empty space + Atlantis's coin; the 6th space is now covered.
    assert_eq!(sixth.players[0].points, 22);
    assert!(sixth.ending);
    let eighth = play(sixth, &["complete:wen-dae-ke", "complete:draconite"]);
    assert_eq!(eighth.players[0].points, 22 + 3 + 4);
    assert_eq!(
        eighth.players[0].completed.len(),
        8,
        "the 7th and 8th lie beside the board"
    );
    assert_eq!(eighth.seat, 1, "the third completion ends the turn");
}

// ---------------------------------------------------------------- diceless

#[test]
fn diceless_die_card_effects_while_choosing_the_action() {
    let state = build(
        &[p(1).known(&["die-1"]).torch(false), p(2)],
        &Table::default(),
        diceless(),
    );
    let effects: Vec<String> = texts(&state)
        .into_iter()
        .filter(|t| t.starts_with("die-card"))
        .collect();
    assert_eq!(
        effects,
        ["die-card:tools", "die-card:torch", "die-card:coin"]
    );
    let after = play(state, &["die-card:torch"]);
    assert!(after.players[0].torch);
    assert_eq!(
        after.deck & (1u64 << card("die-1")),
        1u64 << card("die-1"),
        "shuffled back into the deck"
    );
}

#[test]
fn diceless_coin_effects_stack() {
    let state = build(
        &[
            p(3).known(&["die-1", "die-2"])
                .tools(&[("shovel", 2)])
                .prepared(&["aegis"]),
            p(2),
        ],
        &Table::default(),
        diceless(),
    );
    let state = play(state, &["die-card:coin", "die-card:coin"]);
    assert_eq!(state.coin_bonus, 2);
    let state = play(
        state,
        &[
            "expedition:row1",
            "reveal:mission-book-book",
            "complete:aegis",
        ],
    );
    // 3 empty spaces + the 6th space + 2 Shovels + 2 coin effects.
    assert_eq!(state.players[0].points, 4 + 2 + 2);
}

#[test]
fn diceless_draw_two_tools_and_discard_down_to_six() {
    let state = build(
        &[
            p(1).known(&["die-1"]).tools(&[("map", 3), ("rope", 2)]),
            p(2),
        ],
        &Table::default(),
        diceless(),
    );
    let state = play(state, &["die-card:tools", "draw:compass", "draw:compass"]);
    assert_eq!(phase_name(&state), "discard-tool");
    let state = play(state, &["discard:map"]);
    assert_eq!(phase_name(&state), "action");
}

// ---------------------------------------------------------------- the end of the game

fn trigger(first: u8, seat: usize) -> boardbot_rules::legend_raiders::RaidersState {
    let mut players = vec![p(1), p(2), p(3)];
    players[seat] = p(players[seat].board)
        .tools(&[("shovel", 2)])
        .prepared(&["aegis"])
        .completed(&FIVE)
        .points(20);
    let state = build(
        &players,
        &Table::default(),
        Turn {
            seat: seat as u8,
            first,
            ..Turn::default()
        },
    );
    play(
        state,
        &[
            "roll:coin",
            "expedition:row1",
            "reveal:mission-book-book",
            "complete:aegis",
        ],
    )
}

#[test]
fn the_sixth_discovery_triggers_the_end_and_the_round_is_finished() {
    let state = trigger(0, 1);
    assert!(state.ending && state.seat == 2);
    assert_ne!(GAME.current_player(&state), TERMINAL);
    let state = play(
        state,
        &[
            "roll:coin",
            "prepare:1",
            "reveal:olympus",
            "draw:map",
            "draw:map",
        ],
    );
    assert_eq!(state.phase, Phase::Over, "seat 2 was the last of the round");
    assert_eq!(GAME.current_player(&state), TERMINAL);
}

#[test]
fn when_the_first_player_triggers_everyone_else_still_plays() {
    let state = trigger(0, 0);
    let state = play(
        state,
        &[
            "roll:coin",
            "prepare:1",
            "reveal:olympus",
            "draw:map",
            "draw:map",
        ],
    );
    assert!(state.seat == 2 && !GAME.is_terminal(&state));
    let state = play(
        state,
        &[
            "roll:coin",
            "prepare:2",
            "reveal:babel",
            "draw:map",
            "draw:map",
        ],
    );
    assert!(GAME.is_terminal(&state));
}

#[test]
fn when_the_last_player_of_the_round_triggers_the_game_ends_at_once() {
    assert!(GAME.is_terminal(&trigger(1, 0)));
}

#[test]
fn missions_discovery_cards_and_kept_die_cards_are_added_at_the_end() {
    let p0 = p(2)
        .tools(&[("shovel", 2)])
        .prepared(&["aegis"])
        .completed(&FIVE)
        .points(20)
        .known(&["die-1", "mission-book-book"])
        .blind(&["die-2", "discovery-weapon-1", "mission-weapon-weapon"]);
    let p1 = p(1)
        .points(8)
        .blind(&["mission-place-place"])
        .completed(&["babel"]);
    let table = Table {
        hq: [
            Some("lancea-longini"),
            Some("horus"),
            Some("pandora"),
            Some("olympus"),
        ],
        ..Table::default()
    };
    let state = build(
        &[p0, p1],
        &table,
        Turn {
            seat: 1,
            ..Turn::default()
        },
    );
    let state = play(
        state,
        &[
            "roll:coin",
            "keep-roll",
            "prepare:1",
            "reveal:mater",
            "draw:map",
            "draw:map",
        ],
    );
    let state = play(
        state,
        &[
            "roll:torch",
            "keep-roll",
            "expedition:row2",
            "reveal:die-3",
            "complete:aegis",
        ],
    );
    let state = play(
        state,
        &[
            "roll:coin",
            "keep-roll",
            "expedition:deck",
            "reveal:mission-treasure-treasure",
        ],
    );
    assert!(GAME.is_terminal(&state));
    let scores = GAME.scores(&state);
    // Book Book (4 books) 3, Weapon Weapon (Aegis + the card) 3, two kept Die cards 2.
    assert_eq!(scores[0], f64::from(state.players[0].points + 6 + 2));
    assert_eq!(scores[1], f64::from(state.players[1].points));
    let view = GAME.state_to_json(&state, Some(1));
    assert_eq!(
        view["players"][0]["cards_blind"],
        serde_json::json!(["die-2", "discovery-weapon-1", "mission-weapon-weapon"]),
        "hands are revealed"
    );
}

#[test]
fn ties_go_to_the_player_who_played_later() {
    for (first, winner) in [(0u8, 1usize), (1, 0)] {
        let table = table_with([None, None, None, None], &[], &["babel", "babylon"]);
        let state = build(
            &[
                p(1).completed(&["babel"]).points(6),
                p(2).completed(&["babylon"]).points(6),
            ],
            &table,
            Turn {
                first,
                seat: 1 - first,
                ending: true,
                ..Turn::default()
            },
        );
        let state = play(state, &["roll:coin", "expedition:row4", "reveal:die-4"]);
        assert!(GAME.is_terminal(&state));
        assert_eq!(GAME.scores(&state), [6.0, 6.0]);
        let want: Vec<f64> = (0..2)
            .map(|s| if s == winner { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(GAME.returns(&state), want);
    }
}

#[test]
fn a_sixth_discovery_still_in_reach_keeps_the_game_going_with_nothing_to_prepare() {
    let table = table_with(
        [None, None, None, None],
        &[],
        &[
            FIVE[0],
            FIVE[1],
            FIVE[2],
            FIVE[3],
            FIVE[4],
            "draconite",
            "aegis",
        ],
    );
    let state = build(
        &[
            p(1).completed(&FIVE)
                .prepared(&["draconite"])
                .points(20)
                .tools(&[("rope", 1)]),
            p(2).completed(&["aegis"]).points(4),
        ],
        &table,
        Turn {
            seat: 1,
            ..Turn::default()
        },
    );
    // A former version wrote `idle_turns`; it is still read (and checked) but no longer used.
    let mut data = GAME.state_to_json(&state, None);
    assert!(data.get("idle_turns").is_none(), "no longer written");
    data["idle_turns"] = Value::from(5);
    let state = GAME.state_from_json(&data).unwrap();
    let mut state = play(state, &["roll:coin", "expedition:deck", "reveal:die-1"]);
    assert!(!state.ending && state.seat == 0 && phase_name(&state) == "roll");
    for _ in 0..8 {
        state = turn(state, "expedition:row1", None);
        assert!(
            !state.ending && !GAME.is_terminal(&state),
            "nothing ends the game while 6 is in reach"
        );
    }
    let state = turn(
        state,
        "expedition:row1",
        Some("complete:draconite+torch=rope"),
    );
    assert!(
        state.ending && state.seat == 1,
        "the 6th discovery: seat 1 finishes the round"
    );
    assert!(GAME.is_terminal(&turn(state, "expedition:row1", None)));
}

#[test]
fn idle_turns_are_still_range_checked_on_input() {
    let state = build(&[p(1), p(2)], &Table::default(), Turn::default());
    let mut data = GAME.state_to_json(&state, None);
    data["idle_turns"] = Value::from(7);
    let err = GAME.state_from_json(&data).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.reason.as_str()),
        ("$.idle_turns", "must be at most 6, got 7")
    );
}

#[test]
fn taking_the_last_tile_another_player_needed_ends_the_game_after_the_round() {
    let table = table_with([Some("babel"), None, None, None], &[], &FIVE);
    let state = build(
        &[p(1).completed(&FIVE).points(20), p(2)],
        &table,
        Turn {
            seat: 1,
            ..Turn::default()
        },
    );
    let state = turn(state, "prepare:1", None);
    assert!(
        state.ending,
        "seat 0's 5 completed tiles and nothing left to prepare: 5 < 6"
    );
    assert!(GAME.is_terminal(&state), "seat 1 was the last of the round");
}

#[test]
fn a_tile_discard_that_puts_six_out_of_reach_ends_the_game_after_the_round() {
    let kept = ["aegis", "eden", "olympus", "babel", "adam"];
    let table = table_with([Some("horus"), None, None, None], &[], &kept);
    let state = build(
        &[
            p(1).completed(&kept[..2]).prepared(&kept[2..]).points(8),
            p(2),
        ],
        &table,
        Turn::default(),
    );
    let state = play(state, &["roll:coin", "prepare:1", "discard:olympus"]);
    assert!(
        !state.ending,
        "checked when the turn ends, not in the middle of it"
    );
    let state = settle(state);
    assert!(
        state.ending && state.seat == 1,
        "2 completed + 3 prepared + nothing left: 5"
    );
    let state = turn(state, "expedition:row1", None);
    assert!(GAME.is_terminal(&state));
    assert!(state
        .players
        .iter()
        .all(|p| p.completed.len() < components().end_trigger));
}

#[test]
fn the_end_comes_once_nobody_can_reach_six_even_with_tiles_left_to_prepare() {
    let table = table_with(
        [Some("babel"), Some("horus"), Some("eden"), Some("aegis")],
        &["adam"],
        &[],
    );
    let state = build(&[p(1), p(2), p(3)], &table, Turn::default());
    assert!(
        !state.ending,
        "a state from before the rule still decodes; the turn's end checks"
    );
    let state = turn(state, "prepare:1", None);
    assert!(
        state.ending && state.seat == 1,
        "1 prepared + 4 on the Headquarters: 5 < 6"
    );
    let state = turn(state, "expedition:row1", None);
    assert!(state.seat == 2 && !GAME.is_terminal(&state));
    let state = turn(state, "prepare:2", None);
    assert!(GAME.is_terminal(&state));
    assert!(tiles_in_supply(&state) > 0 && tiles_in_supply(&state) < components().end_trigger);
}

#[test]
fn a_state_claiming_the_end_while_six_is_in_reach_is_rejected() {
    let state = build(
        &[p(1), p(2)],
        &Table::default(),
        Turn {
            seat: 1,
            ..Turn::default()
        },
    );
    let mut data = GAME.state_to_json(&state, None);
    data["end_triggered"] = Value::Bool(true);
    let err = GAME.state_from_json(&data).unwrap_err();
    assert_eq!(err.path, "$.end_triggered");
    assert_eq!(
        err.reason,
        "no player has completed 6 discoveries and seat 0 can still get there"
    );
}
