//! Helpers to build Legend Raiders states for scenario tests by component names (the twin of
//! the Python suite's `builders.py`): every built state and every state reached by `play` is
//! checked by a JSON round trip, which runs the full validation.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use boardbot_rules::legend_raiders::components::{components, Tools, MAX_SLOTS, MAX_TOOL_TYPES};
use boardbot_rules::legend_raiders::state::{Phase, PlayerState, RaidersState, Seats, TileList};
use boardbot_rules::rng::{below, weighted_index};
use boardbot_rules::{seeded_rng, Game, LegendRaiders, SeededRng, CHANCE, TERMINAL};
use serde_json::json;

pub const GAME: LegendRaiders = LegendRaiders;

/// Five completed tiles: one discovery short of the end.
pub const FIVE: [&str; 5] = [
    "clavicola-salomonis",
    "grand-grimoire",
    "oracula-sibyllina",
    "prophetica",
    "atlantis",
];

pub fn tile(name: &str) -> usize {
    components()
        .tile_index(name)
        .unwrap_or_else(|| panic!("unknown tile {name}"))
}

pub fn card(name: &str) -> usize {
    components()
        .card_index(name)
        .unwrap_or_else(|| panic!("unknown card {name}"))
}

/// Tool counts by tool id, e.g. `tools(&[("rope", 1), ("shovel", 2)])`.
pub fn tools(counts: &[(&str, u8)]) -> Tools {
    let mut out = [0; MAX_TOOL_TYPES];
    for (name, n) in counts {
        out[components().tool_index(name).unwrap()] += n;
    }
    out
}

fn tile_mask<S: AsRef<str>>(names: &[S]) -> u64 {
    names.iter().fold(0, |m, n| m | 1u64 << tile(n.as_ref()))
}

fn card_mask(names: &[&str]) -> u64 {
    names.iter().fold(0, |m, n| m | 1u64 << card(n))
}

/// A player for `build`, by names.
#[derive(Clone)]
pub struct P {
    pub board: u8,
    pub tools: Tools,
    pub prepared: Vec<&'static str>,
    pub completed: Vec<&'static str>,
    pub torch: bool,
    pub points: i32,
    pub known: Vec<&'static str>,
    pub blind: Vec<&'static str>,
}

/// A player on board `board` (1-4) with nothing yet.
pub fn p(board: u8) -> P {
    P {
        board,
        tools: [0; MAX_TOOL_TYPES],
        prepared: vec![],
        completed: vec![],
        torch: true,
        points: 0,
        known: vec![],
        blind: vec![],
    }
}

impl P {
    pub fn tools(mut self, counts: &[(&str, u8)]) -> Self {
        self.tools = tools(counts);
        self
    }
    pub fn prepared(mut self, names: &[&'static str]) -> Self {
        self.prepared = names.to_vec();
        self
    }
    pub fn completed(mut self, names: &[&'static str]) -> Self {
        self.completed = names.to_vec();
        self
    }
    pub fn torch(mut self, lit: bool) -> Self {
        self.torch = lit;
        self
    }
    pub fn points(mut self, points: i32) -> Self {
        self.points = points;
        self
    }
    pub fn known(mut self, names: &[&'static str]) -> Self {
        self.known = names.to_vec();
        self
    }
    pub fn blind(mut self, names: &[&'static str]) -> Self {
        self.blind = names.to_vec();
        self
    }
}

/// Everything else for `build`; unnamed tiles go to the stack, unnamed cards to the deck.
#[derive(Clone)]
pub struct Table {
    pub hq: [Option<&'static str>; 4],
    pub hq_tools: [Tools; 4],
    pub row: [Option<&'static str>; 4],
    pub removed_tiles: Vec<String>,
    pub removed_cards: Vec<&'static str>,
    pub stack: Option<Vec<&'static str>>,
    pub deck: Option<Vec<&'static str>>,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            hq: [
                Some("lancea-longini"),
                Some("horus"),
                Some("pandora"),
                Some("babylon"),
            ],
            hq_tools: [
                tools(&[("compass", 2)]),
                tools(&[("map", 2)]),
                tools(&[("shovel", 2)]),
                tools(&[("rope", 2)]),
            ],
            row: [
                Some("mission-book-weapon-idol-treasure"),
                Some("discovery-idol-1"),
                Some("mission-idol-treasure-place"),
                Some("discovery-book-1"),
            ],
            removed_tiles: vec![],
            removed_cards: vec![],
            stack: None,
            deck: None,
        }
    }
}

/// A table whose Discovery tiles are `hq`, `stack` and the players' `kept`; the rest removed.
pub fn table_with(
    hq: [Option<&'static str>; 4],
    stack: &[&'static str],
    kept: &[&'static str],
) -> Table {
    let c = components();
    let named: Vec<&str> = hq
        .iter()
        .flatten()
        .copied()
        .chain(stack.iter().copied())
        .chain(kept.iter().copied())
        .collect();
    let removed: Vec<String> = c
        .tile_ids
        .iter()
        .filter(|t| !named.contains(&t.as_str()))
        .cloned()
        .collect();
    let base = Table::default();
    let mut hq_tools = base.hq_tools;
    for (col, t) in hq.iter().enumerate() {
        if t.is_none() {
            hq_tools[col] = [0; MAX_TOOL_TYPES];
        }
    }
    Table {
        hq,
        hq_tools,
        removed_tiles: removed,
        stack: Some(stack.to_vec()),
        ..base
    }
}

/// Turn options for `build`.
#[derive(Clone, Copy)]
pub struct Turn {
    pub dice: bool,
    pub seat: u8,
    pub first: u8,
    pub ending: bool,
}

impl Default for Turn {
    fn default() -> Self {
        Turn {
            dice: true,
            seat: 0,
            first: 0,
            ending: false,
        }
    }
}

/// A consistent state (bag, stack and deck completed), checked by the JSON validator.
pub fn build(players: &[P], table: &Table, turn: Turn) -> RaidersState {
    let c = components();
    let ps: Vec<PlayerState> = players
        .iter()
        .map(|p| PlayerState {
            board: p.board - 1,
            tools: p.tools,
            prepared: tile_mask(&p.prepared),
            completed: TileList::from_slice(
                &p.completed
                    .iter()
                    .map(|n| tile(n) as u8)
                    .collect::<Vec<_>>(),
            ),
            torch: p.torch,
            points: p.points,
            known: card_mask(&p.known),
            blind: card_mask(&p.blind),
        })
        .collect();
    let mut placed_tiles = table
        .hq
        .iter()
        .flatten()
        .fold(0u64, |m, t| m | 1u64 << tile(t))
        | tile_mask(&table.removed_tiles);
    let mut placed_cards = table
        .row
        .iter()
        .flatten()
        .fold(0u64, |m, j| m | 1u64 << card(j))
        | card_mask(&table.removed_cards);
    for p in &ps {
        placed_tiles |= p.prepared
            | p.completed
                .as_slice()
                .iter()
                .fold(0u64, |m, &t| m | 1u64 << t);
        placed_cards |= p.known | p.blind;
    }
    let all_tiles = (1u64 << c.n_tiles()) - 1;
    let all_cards = (1u64 << c.n_cards()) - 1;
    let stack = match &table.stack {
        Some(names) => tile_mask(names),
        None => all_tiles & !placed_tiles,
    };
    let deck = match &table.deck {
        Some(names) => card_mask(names),
        None => all_cards & !placed_cards,
    };
    let mut bag = c.tool_counts;
    for counts in ps.iter().map(|p| &p.tools).chain(table.hq_tools.iter()) {
        for (b, n) in bag.iter_mut().zip(counts) {
            *b -= n;
        }
    }
    let mut hq_tiles = [None; MAX_SLOTS];
    let mut hq_tools = [[0; MAX_TOOL_TYPES]; MAX_SLOTS];
    let mut row = [None; MAX_SLOTS];
    for col in 0..4 {
        hq_tiles[col] = table.hq[col].map(|t| tile(t) as u8);
        hq_tools[col] = table.hq_tools[col];
        row[col] = table.row[col].map(|j| card(j) as u8);
    }
    let state = RaidersState {
        players: Seats::new(ps),
        dice: turn.dice,
        first: turn.first,
        seat: turn.seat,
        phase: if turn.dice {
            Phase::Roll
        } else {
            Phase::Action
        },
        die: None,
        coin_bonus: 0,
        done: 0,
        column: None,
        draws: 0,
        resume: None,
        hq_tiles,
        hq_tools,
        bag,
        stack,
        row,
        deck,
        removed_cards: card_mask(&table.removed_cards),
        removed_tiles: tile_mask(&table.removed_tiles),
        ending: turn.ending,
    };
    checked(state)
}

/// `state` after checking that its JSON decodes back to it (which validates it).
pub fn checked(state: RaidersState) -> RaidersState {
    let data = GAME.state_to_json(&state, None);
    let decoded = GAME
        .state_from_json(&data)
        .unwrap_or_else(|e| panic!("invalid state: {e}\n{data}"));
    assert_eq!(decoded, state);
    state
}

/// Apply moves and chance outcomes given in text notation, checking each is legal.
pub fn play(mut state: RaidersState, moves: &[&str]) -> RaidersState {
    for text in moves {
        let action = GAME
            .action_from_str(&state, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        state = checked(GAME.apply(&state, action));
    }
    state
}

/// The legal decisions of `state` in text notation.
pub fn texts(state: &RaidersState) -> Vec<String> {
    let mut legal = Vec::new();
    GAME.legal_actions(state, &mut legal);
    legal
        .iter()
        .map(|&a| GAME.action_to_str(state, a))
        .collect()
}

/// The current phase as its JSON name.
pub fn phase_name(state: &RaidersState) -> &'static str {
    state.phase.name()
}

/// Resolve chance steps with their first outcome until a decision, a roll or the end.
pub fn settle(mut state: RaidersState) -> RaidersState {
    while GAME.current_player(&state) == boardbot_rules::CHANCE && state.phase != Phase::Roll {
        let first = GAME.chance_outcomes(&state).unwrap()[0].0;
        state = checked(GAME.apply(&state, first));
    }
    state
}

/// A whole turn of the standard game: roll a coin, keep it, `action`, then `complete` a tile
/// or stop.
pub fn turn(state: RaidersState, action: &str, complete: Option<&str>) -> RaidersState {
    let mut state = play(state, &["roll:coin"]);
    if state.phase == Phase::DieCard {
        state = play(state, &["keep-roll"]);
    }
    state = settle(play(state, &[action]));
    if let Some(text) = complete {
        state = play(state, &[text]);
    }
    if state.phase == Phase::Complete {
        state = play(state, &["stop"]);
    }
    state
}

/// Every player count with the die and diceless.
pub const CONFIGS: [(u64, &str); 6] = [
    (2, "dice"),
    (3, "dice"),
    (4, "dice"),
    (2, "diceless"),
    (3, "diceless"),
    (4, "diceless"),
];

/// One seeded game to the end, played uniformly (even seeds) or by the rollout weights (odd
/// seeds); `visit` sees every state, the last one included, before its step.
pub fn playout(
    players: u64,
    variant: &str,
    seed: u64,
    mut visit: impl FnMut(&RaidersState, &mut SeededRng),
) -> RaidersState {
    let mut rng = seeded_rng(seed);
    let mut state = GAME
        .new_state(&json!({"players": players, "variant": variant}), seed)
        .unwrap();
    let mut legal = Vec::new();
    let mut weights = Vec::new();
    for _ in 0..20_000 {
        visit(&state, &mut rng);
        let player = GAME.current_player(&state);
        if player == TERMINAL {
            return state;
        }
        let action = if player == CHANCE {
            GAME.sample_chance(&state, &mut rng)
                .expect("a chance step has an outcome")
        } else {
            GAME.legal_actions(&state, &mut legal);
            assert!(!legal.is_empty(), "a decision without a legal action");
            if seed % 2 == 0 {
                legal[below(&mut rng, legal.len() as u32) as usize]
            } else {
                GAME.policy_weights(&state, &legal, &mut weights);
                assert!(weights.iter().all(|w| *w > 0.0));
                legal[weighted_index(&mut rng, &weights)]
            }
        };
        state = GAME.apply(&state, action);
    }
    panic!("game {seed} did not end in 20,000 steps");
}
