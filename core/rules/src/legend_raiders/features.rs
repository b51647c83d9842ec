//! Features of a seat's view and of its decisions (the twin of `engine/legend_raiders/features.py`).
//!
//! `features(state, seat)` is a fixed-length vector of `feature_size(P)` values, each computed in
//! f64 with the same arithmetic in the Python and the native engine (the native one stores them as
//! f32), scaled to about [0, 1]. It reads only what `seat` may know: other players' blind cards
//! only as a count, the Expedition deck and the cards nobody has placed only as the set of cards
//! `seat` has not seen (the deck plus the other players' blind hands, which every determinization
//! keeps). Offsets below are those of the shipped component set (4 tools, 5 symbols, 28 tiles,
//! 28 cards of which 16 Missions, 4 HQ columns, 4 face-up slots); every size follows from the
//! component data.
//!
//! Global block (199 values):
//!
//! | offset | size | value |
//! |---|---|---|
//! | 0 | 13 | phase one-hot (state.py numbering; chance steps and `over` included) |
//! | 13 | 1 | 1 in the standard game (die), 0 in the diceless variant |
//! | 14 | 3 | number of players one-hot (2, 3, 4) |
//! | 17 | 4 | seat to play relative to the viewer one-hot ((seat - viewer) % P) |
//! | 21 | 4 | first player relative to the viewer one-hot |
//! | 25 | 3 | die face one-hot (tool, torch, coin; all 0 before the roll or diceless) |
//! | 28 | 1 | coin bonus / 3 |
//! | 29 | 1 | discoveries completed this turn / completions per turn (3) |
//! | 30 | 1 | tool draws pending / 2 |
//! | 31 | 4 | resume one-hot: action, refill, complete, finish (all 0 when none) |
//! | 35 | 4 | HQ column / face-up slot being refilled one-hot (all 0 when none) |
//! | 39 | 1 | 1 when the end is triggered (the round is being finished) |
//! | 40 | 1 | tiles still to prepare (HQ + stack) / tiles (28) |
//! | 41 | 1 | lead: 0.5 + (estimate(viewer) - best other estimate) / 40, clipped to [0, 1] |
//! | 42 | 60 | HQ columns, 15 values each (below) |
//! | 102 | 4 | bag: tools per type / that type's count in the game (9) |
//! | 106 | 1 | Discovery stack size / tiles (28) |
//! | 107 | 5 | stack tiles per symbol / tiles of that symbol in the game |
//! | 112 | 64 | face-up slots, 16 values each (below) |
//! | 176 | 1 | Expedition deck size / cards (28) |
//! | 177 | 1 | 1 when the deck can hold only used Die cards (diceless, after it ran out) |
//! | 178 | 3 | cards unseen by the viewer (deck + others' blind cards) per kind / count in the game |
//! | 181 | 16 | per Mission card (card order): 1 when unseen by the viewer |
//! | 197 | 1 | Die cards used out of the game / Die cards (4) |
//! | 198 | 1 | tiles discarded out of the game / tiles (28) |
//!
//! An HQ column (15 values):
//!
//! | offset | size | value |
//! |---|---|---|
//! | 0 | 1 | the column has a tile |
//! | 1 | 5 | its symbol one-hot |
//! | 6 | 4 | its cost per tool / 2 |
//! | 10 | 1 | its coins (a Place's back) |
//! | 11 | 4 | the column's tools per type / 2 |
//!
//! A face-up slot (16 values):
//!
//! | offset | size | value |
//! |---|---|---|
//! | 0 | 1 | the slot has a card |
//! | 1 | 3 | its kind one-hot (die, discovery, mission) |
//! | 4 | 5 | a Discovery card's symbol one-hot |
//! | 9 | 5 | a Mission's required symbols / 3 |
//! | 14 | 1 | a Mission's points / 8 |
//! | 15 | 1 | share of a Mission's symbols the viewer holds (completed, prepared, own Discovery) |
//!
//! Then one block of 59 values per seat, rotated: block k (offset 199 + 59 k) is seat
//! (viewer + k) % P. A seat's "visible cards" are its face-up-taken cards, plus its blind cards
//! for the viewer's own block (block 0) only.
//!
//! | offset | size | value |
//! |---|---|---|
//! | 0 | 4 | favourite tool one-hot (from the character board) |
//! | 4 | 4 | backpack: tools per type / 6 |
//! | 8 | 1 | backpack total / 6 |
//! | 9 | 1 | torch lit |
//! | 10 | 1 | points scored in play / 50 |
//! | 11 | 1 | prepared tiles / 3 |
//! | 12 | 5 | prepared tiles per symbol / 3 |
//! | 17 | 4 | prepared tiles' total cost per tool / 6 |
//! | 21 | 1 | prepared tiles payable with tools alone / 3 |
//! | 22 | 1 | prepared tiles payable now (tools, or tools and the lit torch) / 3 |
//! | 23 | 1 | tools missing to pay every prepared tile (no torch) / 9 |
//! | 24 | 1 | completed tiles / end trigger (6) |
//! | 25 | 5 | completed tiles per symbol / 6 |
//! | 30 | 1 | coins visible on the board / 10 |
//! | 31 | 1 | 1 while the seat can still complete a 6th discovery |
//! | 32 | 1 | blind cards held / 8 (every seat: the count is public) |
//! | 33 | 1 | visible Die cards / Die cards (4) |
//! | 34 | 1 | 1 when the seat may hold a Die card (a known one, or any blind card) |
//! | 35 | 5 | symbols for Missions (completed tiles + visible Discovery cards) / 6 |
//! | 40 | 1 | points of the visible Missions met / 40 |
//! | 41 | 1 | visible Missions' worth (met in full, unmet by share of symbols, as heuristics) / 40 |
//! | 42 | 16 | per Mission card (card order): 1 when among the seat's visible cards |
//! | 58 | 1 | estimate / 60 (heuristics.estimate over the visible cards only) |
//!
//! feature_size(P) = 199 + 59 P: 317, 376, 435 for 2, 3, 4 players.
//!
//! Action features (`action_feature_size()` = 228 indices; a decision activates a few):
//!
//! | offset | size | index of |
//! |---|---|---|
//! | 0 | 187 | the decision's action id (every id below `ROLL_BASE`) |
//! | 187 | 14 | the action kind (actions.py kinds, chance kinds included) |
//! | 201 | 5 | complete a tile of symbol s |
//! | 206 | 1 | complete using the torch |
//! | 207 | 5 | prepare a column whose tile has symbol s |
//! | 212 | 1 | prepare a column with no tile |
//! | 213 | 3 | take a face-up card of kind k (die, discovery, mission) |
//! | 216 | 5 | discard a prepared tile of symbol s |
//! | 221 | 1 | discard a tool of the player's favourite type |
//! | 222 | 6 | a Die card's face (standard game: 0-2) or effect (diceless: 3-5) |
//!
//! Chance outcomes are never decisions: their action features are only their kind's index (an id
//! outside the action numbering gives none). Indices come out ascending.

use std::sync::OnceLock;

use super::actions::{layout, Action, ActionKind};
use super::components::{
    components, CardKind, Components, SymbolCounts, FACE_KINDS, MAX_SYMBOLS, MAX_TOOL_TYPES,
};
use super::rules::{deck_holds_only_die_cards, visible_coins};
use super::state::{bits, Phase, PlayerState, RaidersState, MAX_PLAYERS, PHASES};
use crate::features::Featurize;
use crate::legend_raiders::game::LegendRaiders;

/// Version of this feature definition (bumped on any change; models record it).
pub const FEATURES_VERSION: u32 = 1;

/// Phases a pending `resume` is one-hot over (any other: all 0).
const RESUMES: [Phase; 4] = [
    Phase::Action,
    Phase::RefillTile,
    Phase::Complete,
    Phase::Finish,
];
const CARD_KINDS: usize = 3;
const N_KINDS: usize = 14;
const POINTS_SCALE: f64 = 50.0;
const COINS_SCALE: f64 = 10.0;
const BLIND_SCALE: f64 = 8.0;
const MISSION_VALUE_SCALE: f64 = 40.0;
const ESTIMATE_SCALE: f64 = 60.0;
const LEAD_SCALE: f64 = 40.0;
const COIN_BONUS_SCALE: f64 = 3.0;

/// Offsets and scales, derived from the component data (the Python module's constants).
#[derive(Clone, Debug)]
pub struct FeatureLayout {
    n_tools: usize,
    n_symbols: usize,
    n_tiles: usize,
    n_cards: usize,
    n_columns: usize,
    n_row: usize,
    missions: Vec<usize>,
    n_die_cards: usize,
    kind_counts: [usize; CARD_KINDS],
    symbol_tiles: SymbolCounts,
    requires_total: Vec<u32>,
    draws_scale: f64,
    column_tools_scale: usize,
    cost_scale: f64,
    tile_coins_scale: f64,
    mission_need_scale: f64,
    mission_points_scale: f64,
    missing_scale: f64,
    // global block
    dice_at: usize,
    players_at: usize,
    current_at: usize,
    first_at: usize,
    die_at: usize,
    coin_bonus_at: usize,
    done_at: usize,
    draws_at: usize,
    resume_at: usize,
    column_at: usize,
    ending_at: usize,
    to_prepare_at: usize,
    lead_at: usize,
    hq_at: usize,
    hq_cost: usize,
    hq_coins: usize,
    hq_tools: usize,
    hq_size: usize,
    bag_at: usize,
    stack_at: usize,
    row_at: usize,
    row_symbol: usize,
    row_need: usize,
    row_points: usize,
    row_share: usize,
    row_size: usize,
    deck_at: usize,
    unseen_at: usize,
    removed_at: usize,
    /// Length of the global block.
    pub global_size: usize,
    // per-seat block
    tools_at: usize,
    tools_total_at: usize,
    torch_at: usize,
    points_at: usize,
    prepared_at: usize,
    prepared_symbols_at: usize,
    prepared_cost_at: usize,
    payable_at: usize,
    payable_torch_at: usize,
    missing_at: usize,
    completed_at: usize,
    completed_symbols_at: usize,
    coins_at: usize,
    reach_at: usize,
    blind_at: usize,
    die_cards_at: usize,
    may_die_at: usize,
    mission_symbols_at: usize,
    missions_met_at: usize,
    missions_value_at: usize,
    mission_cards_at: usize,
    estimate_at: usize,
    /// Length of one seat's block.
    pub seat_size: usize,
    // action features
    decisions: usize,
    kind_at: usize,
    complete_symbol_at: usize,
    complete_torch_at: usize,
    prepare_symbol_at: usize,
    prepare_no_tile_at: usize,
    take_kind_at: usize,
    discard_symbol_at: usize,
    discard_favourite_at: usize,
    die_effect_at: usize,
    /// Size of the action-feature space.
    pub action_feature_size: usize,
}

fn kind_index(kind: CardKind) -> usize {
    match kind {
        CardKind::Die => 0,
        CardKind::Discovery => 1,
        CardKind::Mission => 2,
    }
}

fn action_kind_index(kind: ActionKind) -> usize {
    match kind {
        ActionKind::Prepare => 0,
        ActionKind::TakeRow => 1,
        ActionKind::TakeDeck => 2,
        ActionKind::NoCard => 3,
        ActionKind::DiscardTile => 4,
        ActionKind::DiscardTool => 5,
        ActionKind::Complete => 6,
        ActionKind::Stop => 7,
        ActionKind::KeepRoll => 8,
        ActionKind::DieCard => 9,
        ActionKind::RollFace => 10,
        ActionKind::DrawTool => 11,
        ActionKind::RevealTile => 12,
        ActionKind::RevealCard => 13,
    }
}

impl FeatureLayout {
    fn build() -> Self {
        let c = components();
        let n_tools = c.n_tools;
        let n_symbols = c.symbols.len();
        let n_tiles = c.n_tiles();
        let n_cards = c.n_cards();
        let n_columns = c.hq_columns;
        let n_row = c.face_up_cards;
        let n_faces = FACE_KINDS.len();
        let missions: Vec<usize> = (0..n_cards)
            .filter(|&j| c.card_kind[j] == CardKind::Mission)
            .collect();
        let n_missions = missions.len();
        let mut kind_counts = [0usize; CARD_KINDS];
        for &k in &c.card_kind {
            kind_counts[kind_index(k)] += 1;
        }
        let kind_counts = kind_counts.map(|n| n.max(1));
        let mut symbol_tiles: SymbolCounts = [0; MAX_SYMBOLS];
        for &sym in &c.tile_symbol {
            symbol_tiles[sym] += 1;
        }
        let symbol_tiles = symbol_tiles.map(|n| n.max(1));
        let requires_total = c
            .mission_requires
            .iter()
            .map(|req| req.iter().map(|&n| u32::from(n)).sum())
            .collect();
        let max_cost = c
            .tile_cost
            .iter()
            .flat_map(|cost| cost[..n_tools].iter().copied())
            .max()
            .unwrap_or(1)
            .max(1);
        let max_cost_total = c.tile_cost_total.iter().copied().max().unwrap_or(1).max(1);
        let max_need = c
            .mission_requires
            .iter()
            .flat_map(|req| req[..n_symbols].iter().copied())
            .max()
            .unwrap_or(1)
            .max(1);
        let max_tile_coins = c.tile_coins.iter().copied().max().unwrap_or(0).max(1);
        let max_points = c.mission_points.iter().copied().max().unwrap_or(1).max(1);

        let dice_at = PHASES.len();
        let players_at = dice_at + 1;
        let current_at = players_at + 3;
        let first_at = current_at + MAX_PLAYERS;
        let die_at = first_at + MAX_PLAYERS;
        let coin_bonus_at = die_at + n_faces;
        let done_at = coin_bonus_at + 1;
        let draws_at = done_at + 1;
        let resume_at = draws_at + 1;
        let column_at = resume_at + RESUMES.len();
        let ending_at = column_at + n_columns.max(n_row);
        let to_prepare_at = ending_at + 1;
        let lead_at = to_prepare_at + 1;
        let hq_at = lead_at + 1;
        let hq_cost = 1 + n_symbols;
        let hq_coins = hq_cost + n_tools;
        let hq_tools = hq_coins + 1;
        let hq_size = hq_tools + n_tools;
        let bag_at = hq_at + n_columns * hq_size;
        let stack_at = bag_at + n_tools;
        let row_at = stack_at + 1 + n_symbols;
        let row_symbol = 1 + CARD_KINDS;
        let row_need = row_symbol + n_symbols;
        let row_points = row_need + n_symbols;
        let row_share = row_points + 1;
        let row_size = row_share + 1;
        let deck_at = row_at + n_row * row_size;
        let unseen_at = deck_at + 2;
        let removed_at = unseen_at + CARD_KINDS + n_missions;
        let global_size = removed_at + 2;

        let tools_at = n_tools;
        let tools_total_at = tools_at + n_tools;
        let torch_at = tools_total_at + 1;
        let points_at = torch_at + 1;
        let prepared_at = points_at + 1;
        let prepared_symbols_at = prepared_at + 1;
        let prepared_cost_at = prepared_symbols_at + n_symbols;
        let payable_at = prepared_cost_at + n_tools;
        let payable_torch_at = payable_at + 1;
        let missing_at = payable_torch_at + 1;
        let completed_at = missing_at + 1;
        let completed_symbols_at = completed_at + 1;
        let coins_at = completed_symbols_at + n_symbols;
        let reach_at = coins_at + 1;
        let blind_at = reach_at + 1;
        let die_cards_at = blind_at + 1;
        let may_die_at = die_cards_at + 1;
        let mission_symbols_at = may_die_at + 1;
        let missions_met_at = mission_symbols_at + n_symbols;
        let missions_value_at = missions_met_at + 1;
        let mission_cards_at = missions_value_at + 1;
        let estimate_at = mission_cards_at + n_missions;
        let seat_size = estimate_at + 1;

        let decisions = usize::from(layout().roll_base);
        let kind_at = decisions;
        let complete_symbol_at = kind_at + N_KINDS;
        let complete_torch_at = complete_symbol_at + n_symbols;
        let prepare_symbol_at = complete_torch_at + 1;
        let prepare_no_tile_at = prepare_symbol_at + n_symbols;
        let take_kind_at = prepare_no_tile_at + 1;
        let discard_symbol_at = take_kind_at + CARD_KINDS;
        let discard_favourite_at = discard_symbol_at + n_symbols;
        let die_effect_at = discard_favourite_at + 1;
        let action_feature_size = die_effect_at + 2 * n_faces;
        Self {
            n_tools,
            n_symbols,
            n_tiles,
            n_cards,
            n_columns,
            n_row,
            missions,
            kind_counts,
            symbol_tiles,
            requires_total,
            draws_scale: c.tools_per_column.max(c.diceless_tools).max(1) as f64,
            column_tools_scale: c.tools_per_column.max(1),
            n_die_cards: c.n_die_cards.max(1),
            cost_scale: f64::from(max_cost),
            tile_coins_scale: f64::from(max_tile_coins),
            mission_need_scale: f64::from(max_need),
            mission_points_scale: f64::from(max_points),
            missing_scale: (c.max_prepared * max_cost_total as usize) as f64,
            dice_at,
            players_at,
            current_at,
            first_at,
            die_at,
            coin_bonus_at,
            done_at,
            draws_at,
            resume_at,
            column_at,
            ending_at,
            to_prepare_at,
            lead_at,
            hq_at,
            hq_cost,
            hq_coins,
            hq_tools,
            hq_size,
            bag_at,
            stack_at,
            row_at,
            row_symbol,
            row_need,
            row_points,
            row_share,
            row_size,
            deck_at,
            unseen_at,
            removed_at,
            global_size,
            tools_at,
            tools_total_at,
            torch_at,
            points_at,
            prepared_at,
            prepared_symbols_at,
            prepared_cost_at,
            payable_at,
            payable_torch_at,
            missing_at,
            completed_at,
            completed_symbols_at,
            coins_at,
            reach_at,
            blind_at,
            die_cards_at,
            may_die_at,
            mission_symbols_at,
            missions_met_at,
            missions_value_at,
            mission_cards_at,
            estimate_at,
            seat_size,
            decisions,
            kind_at,
            complete_symbol_at,
            complete_torch_at,
            prepare_symbol_at,
            prepare_no_tile_at,
            take_kind_at,
            discard_symbol_at,
            discard_favourite_at,
            die_effect_at,
            action_feature_size,
        }
    }
}

static FEATURE_LAYOUT: OnceLock<FeatureLayout> = OnceLock::new();

/// The feature layout for the component set in play (computed once).
pub fn feature_layout() -> &'static FeatureLayout {
    FEATURE_LAYOUT.get_or_init(FeatureLayout::build)
}

/// Store `value` (computed in f64) at `index`.
#[inline]
fn put(out: &mut [f32], index: usize, value: f64) {
    out[index] = value as f32;
}

/// Store `values` (computed in f64) from `at` on.
#[inline]
fn put_all(out: &mut [f32], at: usize, values: impl IntoIterator<Item = f64>) {
    for (slot, value) in out[at..].iter_mut().zip(values) {
        *slot = value as f32;
    }
}

#[inline]
fn flag(value: bool) -> f64 {
    if value {
        1.0
    } else {
        0.0
    }
}

#[inline]
fn ratio(n: usize, d: usize) -> f64 {
    n as f64 / d as f64
}

/// Symbols for Missions: completed tiles plus the Discovery cards among `cards`.
fn symbols(c: &Components, p: &PlayerState, cards: u64) -> SymbolCounts {
    let mut counts: SymbolCounts = [0; MAX_SYMBOLS];
    for &i in p.completed.as_slice() {
        counts[c.tile_symbol[usize::from(i)]] += 1;
    }
    for j in bits(cards & c.discovery_mask) {
        if let Some(sym) = c.card_symbol[j] {
            counts[sym] += 1;
        }
    }
    counts
}

/// `done` plus the prepared tiles' symbols (likely symbols, as the heuristics count them).
fn with_prepared(c: &Components, p: &PlayerState, done: &SymbolCounts) -> SymbolCounts {
    let mut counts = *done;
    for i in bits(p.prepared) {
        counts[c.tile_symbol[i]] += 1;
    }
    counts
}

fn met(c: &Components, j: usize, counts: &SymbolCounts) -> bool {
    counts
        .iter()
        .zip(&c.mission_requires[j])
        .all(|(h, n)| h >= n)
}

/// How many of Mission `j`'s required symbols `counts` hold.
fn held_share(c: &Components, j: usize, counts: &SymbolCounts) -> u32 {
    counts
        .iter()
        .zip(&c.mission_requires[j])
        .map(|(&h, &n)| u32::from(h.min(n)))
        .sum()
}

/// Points of the Missions met among `cards`, and their worth (heuristics' missions value);
/// `done` are the player's symbols with those cards.
fn missions(
    c: &Components,
    f: &FeatureLayout,
    p: &PlayerState,
    cards: u64,
    done: &SymbolCounts,
) -> (i32, f64) {
    let counts = with_prepared(c, p, done);
    let mut points = 0;
    let mut value = 0.0;
    for j in bits(cards & c.mission_mask) {
        let pts = c.mission_points[j];
        if met(c, j, done) {
            points += pts;
            value += f64::from(pts);
            continue;
        }
        value += 0.5 * f64::from(pts) * f64::from(held_share(c, j, &counts))
            / f64::from(f.requires_total[j]);
    }
    (points, value)
}

/// Tools missing to pay `tile` from the player's backpack (no torch).
fn shortfall(c: &Components, p: &PlayerState, tile: usize) -> u32 {
    let cost = &c.tile_cost[tile];
    (0..c.n_tools)
        .map(|t| u32::from(cost[t].saturating_sub(p.tools[t])))
        .sum()
}

/// Write one seat's block at `at`; returns the seat's estimate (the heuristics' estimate with
/// only `cards` counted).
fn seat_block(
    c: &Components,
    f: &FeatureLayout,
    out: &mut [f32],
    at: usize,
    p: &PlayerState,
    cards: u64,
    to_prepare: usize,
) -> f64 {
    let backpack = c.backpack_size;
    let max_prepared = c.max_prepared;
    let end_trigger = c.end_trigger;
    put(out, at + c.board_favourite[usize::from(p.board)], 1.0);
    for t in 0..f.n_tools {
        put(
            out,
            at + f.tools_at + t,
            ratio(usize::from(p.tools[t]), backpack),
        );
    }
    put(out, at + f.tools_total_at, ratio(p.n_tools(), backpack));
    put(out, at + f.torch_at, flag(p.torch));
    put(out, at + f.points_at, f64::from(p.points) / POINTS_SCALE);
    put(out, at + f.prepared_at, ratio(p.n_prepared(), max_prepared));
    let coins = visible_coins(p.n_prepared(), p.completed.as_slice());
    let done = symbols(c, p, cards);
    let (met_points, value) = missions(c, f, p, cards, &done);
    let die = (cards & c.die_card_mask).count_ones();
    let mut est = f64::from(p.points) + value + f64::from(die);
    est += 0.5 * p.n_tools() as f64 + if p.torch { 0.7 } else { 0.0 };
    let tile_base = 0.6 * f64::from(coins) + 1.0;
    let mut prepared_symbols = [0usize; MAX_SYMBOLS];
    let mut cost = [0usize; MAX_TOOL_TYPES];
    let mut payable = 0;
    let mut payable_torch = 0;
    let mut missing = 0u32;
    for i in bits(p.prepared) {
        prepared_symbols[c.tile_symbol[i]] += 1;
        for (total, &n) in cost.iter_mut().zip(&c.tile_cost[i]) {
            *total += usize::from(n);
        }
        let short = shortfall(c, p, i);
        est += f64::max(0.5, tile_base - f64::from(short));
        missing += short;
        if short == 0 {
            payable += 1;
        }
        if short == 0 || (short == 1 && p.torch) {
            payable_torch += 1;
        }
    }
    let prepared_symbols = prepared_symbols[..f.n_symbols].iter();
    let values = prepared_symbols.map(|&n| ratio(n, max_prepared));
    put_all(out, at + f.prepared_symbols_at, values);
    let values = cost[..f.n_tools].iter().map(|&n| ratio(n, backpack));
    put_all(out, at + f.prepared_cost_at, values);
    put(out, at + f.payable_at, ratio(payable, max_prepared));
    put(
        out,
        at + f.payable_torch_at,
        ratio(payable_torch, max_prepared),
    );
    put(out, at + f.missing_at, f64::from(missing) / f.missing_scale);
    put(
        out,
        at + f.completed_at,
        ratio(p.completed.len(), end_trigger),
    );
    let mut completed_symbols = [0usize; MAX_SYMBOLS];
    for &i in p.completed.as_slice() {
        completed_symbols[c.tile_symbol[usize::from(i)]] += 1;
    }
    let completed_symbols = completed_symbols[..f.n_symbols].iter();
    let values = completed_symbols.map(|&n| ratio(n, end_trigger));
    put_all(out, at + f.completed_symbols_at, values);
    put(out, at + f.coins_at, f64::from(coins) / COINS_SCALE);
    let reach = p.completed.len() + p.n_prepared() + to_prepare >= end_trigger;
    put(out, at + f.reach_at, flag(reach));
    put(
        out,
        at + f.blind_at,
        f64::from(p.blind.count_ones()) / BLIND_SCALE,
    );
    put(out, at + f.die_cards_at, ratio(die as usize, f.n_die_cards));
    let may_die = p.blind != 0 || p.known & c.die_card_mask != 0;
    put(out, at + f.may_die_at, flag(may_die));
    let values = done[..f.n_symbols]
        .iter()
        .map(|&n| ratio(usize::from(n), end_trigger));
    put_all(out, at + f.mission_symbols_at, values);
    put(
        out,
        at + f.missions_met_at,
        f64::from(met_points) / MISSION_VALUE_SCALE,
    );
    put(out, at + f.missions_value_at, value / MISSION_VALUE_SCALE);
    for (m, &j) in f.missions.iter().enumerate() {
        if cards >> j & 1 != 0 {
            put(out, at + f.mission_cards_at + m, 1.0);
        }
    }
    put(out, at + f.estimate_at, est / ESTIMATE_SCALE);
    est
}

/// `seat`'s view of `s` into `out` (cleared first; the layout is the module's).
pub fn features(s: &RaidersState, seat: usize, out: &mut Vec<f32>) {
    let c = components();
    let f = feature_layout();
    let n = s.n_players();
    out.clear();
    out.resize(f.global_size + f.seat_size * n, 0.0);
    let out = out.as_mut_slice();
    put(out, s.phase as usize, 1.0);
    put(out, f.dice_at, flag(s.dice));
    put(out, f.players_at + n - 2, 1.0);
    put(
        out,
        f.current_at + (usize::from(s.seat) + n - seat) % n,
        1.0,
    );
    put(out, f.first_at + (usize::from(s.first) + n - seat) % n, 1.0);
    if let Some(face) = s.die {
        put(out, f.die_at + usize::from(face), 1.0);
    }
    put(
        out,
        f.coin_bonus_at,
        f64::from(s.coin_bonus) / COIN_BONUS_SCALE,
    );
    put(
        out,
        f.done_at,
        ratio(usize::from(s.done), c.completions_per_turn),
    );
    put(out, f.draws_at, f64::from(s.draws) / f.draws_scale);
    if let Some(resume) = s.resume {
        if let Some(k) = RESUMES.iter().position(|&r| r == resume) {
            put(out, f.resume_at + k, 1.0);
        }
    }
    if let Some(column) = s.column {
        put(out, f.column_at + usize::from(column), 1.0);
    }
    put(out, f.ending_at, flag(s.ending));
    let hq_tiles = s.hq_tiles[..f.n_columns]
        .iter()
        .filter(|t| t.is_some())
        .count();
    let to_prepare = s.stack.count_ones() as usize + hq_tiles;
    put(out, f.to_prepare_at, ratio(to_prepare, f.n_tiles));
    for col in 0..f.n_columns {
        let at = f.hq_at + col * f.hq_size;
        if let Some(tile) = s.hq_tiles[col] {
            let tile = usize::from(tile);
            put(out, at, 1.0);
            put(out, at + 1 + c.tile_symbol[tile], 1.0);
            for t in 0..f.n_tools {
                put(
                    out,
                    at + f.hq_cost + t,
                    f64::from(c.tile_cost[tile][t]) / f.cost_scale,
                );
            }
            put(
                out,
                at + f.hq_coins,
                f64::from(c.tile_coins[tile]) / f.tile_coins_scale,
            );
        }
        for t in 0..f.n_tools {
            let n_tools = usize::from(s.hq_tools[col][t]);
            put(
                out,
                at + f.hq_tools + t,
                ratio(n_tools, f.column_tools_scale),
            );
        }
    }
    for t in 0..f.n_tools {
        let bag = ratio(usize::from(s.bag[t]), usize::from(c.tool_counts[t]));
        put(out, f.bag_at + t, bag);
    }
    put(
        out,
        f.stack_at,
        ratio(s.stack.count_ones() as usize, f.n_tiles),
    );
    let mut stack_symbols = [0usize; MAX_SYMBOLS];
    for i in bits(s.stack) {
        stack_symbols[c.tile_symbol[i]] += 1;
    }
    let shares = stack_symbols.iter().zip(&f.symbol_tiles[..f.n_symbols]);
    put_all(
        out,
        f.stack_at + 1,
        shares.map(|(&n, &d)| ratio(n, usize::from(d))),
    );
    let me = &s.players[seat];
    let my_cards = me.known | me.blind;
    let my_symbols = with_prepared(c, me, &symbols(c, me, my_cards));
    for k in 0..f.n_row {
        let at = f.row_at + k * f.row_size;
        let Some(card) = s.row[k] else {
            continue;
        };
        let card = usize::from(card);
        put(out, at, 1.0);
        let kind = c.card_kind[card];
        put(out, at + 1 + kind_index(kind), 1.0);
        match kind {
            CardKind::Discovery => {
                if let Some(sym) = c.card_symbol[card] {
                    put(out, at + f.row_symbol + sym, 1.0);
                }
            }
            CardKind::Mission => {
                let need = &c.mission_requires[card];
                let values = need[..f.n_symbols]
                    .iter()
                    .map(|&n| f64::from(n) / f.mission_need_scale);
                put_all(out, at + f.row_need, values);
                let points = f64::from(c.mission_points[card]);
                put(out, at + f.row_points, points / f.mission_points_scale);
                let held = f64::from(held_share(c, card, &my_symbols));
                put(
                    out,
                    at + f.row_share,
                    held / f64::from(f.requires_total[card]),
                );
            }
            CardKind::Die => {}
        }
    }
    put(
        out,
        f.deck_at,
        ratio(s.deck.count_ones() as usize, f.n_cards),
    );
    put(out, f.deck_at + 1, flag(deck_holds_only_die_cards(s)));
    let unseen = s
        .players
        .iter()
        .enumerate()
        .filter(|(q, _)| *q != seat)
        .fold(s.deck, |mask, (_, p)| mask | p.blind);
    let mut kinds = [0usize; CARD_KINDS];
    for j in bits(unseen) {
        kinds[kind_index(c.card_kind[j])] += 1;
    }
    let shares = kinds.iter().zip(&f.kind_counts);
    put_all(out, f.unseen_at, shares.map(|(&n, &d)| ratio(n, d)));
    for (m, &j) in f.missions.iter().enumerate() {
        if unseen >> j & 1 != 0 {
            put(out, f.unseen_at + CARD_KINDS + m, 1.0);
        }
    }
    let removed = s.removed_cards.count_ones() as usize;
    put(out, f.removed_at, ratio(removed, f.n_die_cards));
    let removed_tiles = s.removed_tiles.count_ones() as usize;
    put(out, f.removed_at + 1, ratio(removed_tiles, f.n_tiles));
    let mut mine = 0.0;
    let mut best_other = 0.0;
    for k in 0..n {
        let p = &s.players[(seat + k) % n];
        let cards = if k == 0 { p.known | p.blind } else { p.known };
        let at = f.global_size + k * f.seat_size;
        let est = seat_block(c, f, out, at, p, cards, to_prepare);
        if k == 0 {
            mine = est;
        } else if k == 1 || est > best_other {
            best_other = est;
        }
    }
    put(
        out,
        f.lead_at,
        (0.5 + (mine - best_other) / LEAD_SCALE).clamp(0.0, 1.0),
    );
}

/// The active action-feature indices of decision `action` in `s`, appended to `out`
/// (ascending; a chance outcome gives its kind's index only, an unknown id nothing).
pub fn action_features(s: &RaidersState, action: Action, out: &mut Vec<u32>) {
    let a = layout();
    if !a.is_action(action) {
        return;
    }
    let c = components();
    let f = feature_layout();
    let kind = a.kind(action);
    let kind_feature = (f.kind_at + action_kind_index(kind)) as u32;
    if usize::from(action) >= f.decisions {
        out.push(kind_feature);
        return;
    }
    out.push(u32::from(action));
    out.push(kind_feature);
    let arg = a.arg(action);
    let extra = match kind {
        ActionKind::Complete => {
            out.push((f.complete_symbol_at + c.tile_symbol[arg]) as u32);
            (a.arg2(action) != 0).then_some(f.complete_torch_at)
        }
        ActionKind::Prepare => Some(match s.hq_tiles[arg] {
            Some(tile) => f.prepare_symbol_at + c.tile_symbol[usize::from(tile)],
            None => f.prepare_no_tile_at,
        }),
        ActionKind::TakeRow => {
            s.row[arg].map(|card| f.take_kind_at + kind_index(c.card_kind[usize::from(card)]))
        }
        ActionKind::DiscardTile => Some(f.discard_symbol_at + c.tile_symbol[arg]),
        ActionKind::DiscardTool => (arg == c.board_favourite[usize::from(s.current().board)])
            .then_some(f.discard_favourite_at),
        ActionKind::DieCard => {
            Some(f.die_effect_at + if s.dice { 0 } else { FACE_KINDS.len() } + arg)
        }
        _ => None,
    };
    if let Some(index) = extra {
        out.push(index as u32);
    }
}

impl Featurize for LegendRaiders {
    const FEATURES_VERSION: u32 = FEATURES_VERSION;

    fn feature_size(&self, players: usize) -> usize {
        let f = feature_layout();
        f.global_size + f.seat_size * players
    }

    fn features(&self, state: &RaidersState, seat: usize, out: &mut Vec<f32>) {
        features(state, seat, out);
    }

    fn action_feature_size(&self) -> usize {
        feature_layout().action_feature_size
    }

    fn action_features(&self, state: &RaidersState, action: Action, out: &mut Vec<u32>) {
        action_features(state, action, out);
    }
}
