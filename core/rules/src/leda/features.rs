//! Features of a seat's view and of its decisions (the twin of `engine/leda/features.py`).
//!
//! `features(state, seat)` turns what `seat` may know of a state into `feature_size(2)` = 563
//! floats, scaled to about [0, 1] (the round outlook, a signed lead, to about [-1, 1]). It reads
//! only what `observe(state, seat)` keeps unchanged: both grids, Food, Military, MV tokens won,
//! the sizes of every hidden sequence, the pending work, the seat's own hand, and of the hidden
//! items only those the seat can place (`known[seat]`, looked up where they lie: the opponent's
//! hand as a set, the top of a deck or pile). So every world of one view gives the same vector.
//! Each value is computed in f64 with the Rust twin's arithmetic; Rust stores it as f32, and the
//! parity tests demand equality with these values cast to float32.
//!
//! Layout of the view vector. Block 0 is global; seat blocks follow, rotated: block 1 (offset
//! `GLOBAL_SIZE`) is `seat`, block 2 (offset `GLOBAL_SIZE + SEAT_SIZE`) the opponent.
//!
//! Global block, `GLOBAL_SIZE` = 89 values at offset 0:
//!
//! | offset | size | value |
//! |---:|---:|---|
//! | 0 | 1 | `seat` is to decide |
//! | 1 | 1 | the opponent is to decide |
//! | 2 | 1 | a shuffle (chance step) is pending |
//! | 3 | 1 | the game is over |
//! | 4 | 1 | `seat` won |
//! | 5 | 1 | the opponent won |
//! | 6 | 1 | `seat` is the round's active player |
//! | 7 | 25 | the top decision frame's kind, one-hot at kind - `F_MULLIGAN` (whoever decides) |
//! | 32 | 1 | `seat`'s activation step is still to come or under way this round |
//! | 33 | 1 | the opponent's activation step likewise |
//! | 34 | 1 | this round's military conflict is still to come |
//! | 35 | 1 | `seat`'s Organization is still to come |
//! | 36 | 1 | the opponent's Organization is still to come |
//! | 37 | 5 | Action tiles revealed since the last shuffle, multi-hot over the 5 tiles |
//! | 42 | 1 | Action pile size / 5 |
//! | 43 | 5 | the top Action tile of the pile when `seat` knows it (spied), one-hot |
//! | 48 | 14 | the zone chosen this round, one-hot (all 0 before the choice) |
//! | 62 | 16 | the squares of that zone, multi-hot (row-major) |
//! | 78 | 1 | Portal P4 blocks this round's MV token |
//! | 79 | 1 | MV pile size / 18 |
//! | 80 | 8 | the top MV token of the pile when `seat` knows it: its kind (`MV_KIND`), one-hot |
//! | 88 | 1 | round outlook: `seat`'s points lead from this round's pending work (1) / 10 |
//!
//! Seat block, `SEAT_SIZE` = 237 values (offsets within the block):
//!
//! | offset | size | value |
//! |---:|---:|---|
//! | 0 | 4 | clan, one-hot (cats, pandas, sharks, scorpions) |
//! | 4 | 1 | Food, min(food, 20) / 20 |
//! | 5 | 1 | Military gained this round, min(military, 10) / 10 |
//! | 6 | 1 | special activations waiting, min(specials, 4) / 4 |
//! | 7 | 1 | MV victory progress, min(1, MV symbols / the clan's threshold) |
//! | 8 | 1 | MV tokens won, min(count, 10) / 10 |
//! | 9 | 8 | MV tokens won by kind (`MV_KIND`), min(count, 3) / 3 each |
//! | 17 | 1 | hand size / 13 |
//! | 18 | 1 | deck size / 13 |
//! | 19 | 1 | clan victory progress as the heuristic counts it, at most 1 |
//! | 20 | 1 | the heuristic's points (`heuristics.player_points`) / 40 |
//! | 21 | 1 | uncovered upgraded tiles / 8 |
//! | 22 | 1 | uncovered Deserts / 8 |
//! | 23 | 1 | Military this round's still pending activations should bring / 8 |
//! | 24 | 1 | other points they should bring (`heuristics.pending_yield`) / 4 |
//! | 25 | 13 | cards in hand by clan slot (2); the opponent's: only those `seat` knows |
//! | 38 | 13 | cards on top of a square (uncovered), by clan slot |
//! | 51 | 13 | cards covered by another card, by clan slot |
//! | 64 | 13 | the top card of the deck when `seat` knows it, by clan slot |
//! | 77 | 160 | the 16 squares (row-major), `SQUARE_SIZE` = 10 values each |
//!
//! (1) `heuristics.round_outlook`: the points this round's pending activations and conflict
//! should bring, seat 0's lead, negated for seat 1. (2) A card's clan slot: its id minus the id
//! of its clan's first card.
//!
//! Square, `SQUARE_SIZE` = 10 values (offsets within the square):
//!
//! | offset | value |
//! |---:|---|
//! | 0 | a clan card is on top |
//! | 1 | uncovered permanent tile on its front (upgradable) |
//! | 2 | uncovered permanent tile, upgraded |
//! | 3 | uncovered temporary tile on its front |
//! | 4 | uncovered Desert |
//! | 5 | a Shark token lies here |
//! | 6 | the Pack is awake here (a token, and tokens on 2+ orthogonal neighbours) |
//! | 7 | the top item's live effect: expected Military (`heuristics.FX_YIELD`) / 4 |
//! | 8 | ... its expected other points / 2 |
//! | 9 | still to be activated by its owner this round (in the zone, not yet activated) |
//!
//! Action features (`action_feature_size()` = 370): each decision activates a few indices, the
//! policy logit being the sum of the head's outputs there. Shuffle outcomes are chance, not
//! decisions: a shuffle gets its kind index only. Indices, in the order they are listed:
//!
//! | base | size | index |
//! |---:|---:|---|
//! | 0 | 28 | the action kind (`A_*`) |
//! | 28 | 33 | the (decision frame kind, action kind) pair, `PAIRS` (absent for an unlisted pair) |
//! | 61 | 46 | the card played onto the grid (play, ring, awaken) |
//! | 107 | 46 | the card paid, put under the deck (pay) |
//! | 153 | 46 | the card taken or revealed (take, reveal) |
//! | 199 | 36 | the MV token: retrigger at 0..17, under at 18..35 (token - first MV token) |
//! | 235 | 16 | the square a card or a Shark token is placed on (play, ring, awaken, token) |
//! | 251 | 6 | what a played card lands on (3) |
//! | 257 | 16 | the target square (4) |
//! | 273 | 56 | the effect the decision resolves, `NONE` at 55 (5) |
//! | 329 | 18 | the target tile: tile kind * 2 + face (upgrade, flip, downgrade, activate-tile) |
//! | 347 | 14 | the zone chosen |
//! | 361 | 3 | the pile spied |
//! | 364 | 2 | put back: 0 top, 1 bottom |
//! | 366 | 2 | mulligan: 0 keep, 1 redraw |
//! | 368 | 2 | the branch of an "or": 0 first, 1 second |
//!
//! (3) 0 a clan card, 1 a permanent tile on its front, 2 an upgraded tile, 3 a temporary tile on
//! its front, 4 a Desert; and 5 as well when a Shark token lies there. (4) Of activate, upgrade,
//! flip, activate-tile, desert, copy, rotate, downgrade and queen; both squares of a swap. (5) The
//! live face of the square activated, the tile activated, the Desert's reminded front, the
//! opponent's square copied, the card the Queen activates, the Cat card rotated (its current
//! face), the branch of an "or" chosen.
//!
//!
//! The names above are the Python module's; the constants below carry the same names and
//! values (`tests/native/test_features_parity.py` checks the two agree value for value).

use super::actions::{
    Action, ACTION_KINDS, A_ACTIVATE, A_ACT_TILE, A_AWAKEN, A_CHOOSE, A_COPY, A_DESERT, A_DONE,
    A_DOWNGRADE, A_FLIP, A_FOOD, A_MULLIGAN, A_PAY, A_PLAY, A_PUT, A_QUEEN, A_RETRIGGER, A_REVEAL,
    A_RING, A_ROTATE, A_SKIP, A_SPY, A_SWAP, A_TAKE, A_TOKEN, A_UNDER, A_UPGRADE, A_ZONE,
};
use super::board;
use super::bounds::LARGEST_CLAN;
use super::data::{
    clan_cards, panda_level, ACTION_TILE_BASE, ACTION_TILE_COUNT, CARDS, CARD_COUNT, CLAN_COUNT,
    CORNERS, EFFECT_COUNT, MV_BASE, MV_FX, MV_SYMBOLS, MV_THRESHOLD, MV_TOKEN_COUNT, NONE, PANDAS,
    PORTALS, RINGS, SCORPIONS, SHARKS, SHARK_TOKENS, SQUARES, TILE_KIND, TILE_KIND_COUNT,
    TILE_PERMANENT, ZONE_COUNT, ZONE_MASKS, ZONE_SQUARES,
};
use super::frames::{
    FRAME_KINDS, F_ACTIVATE, F_ACT_TILE, F_AWAKEN, F_CONFLICT, F_COPY, F_DESERT_FX, F_DISCOUNT,
    F_DOWNGRADE, F_FLIP, F_MULLIGAN, F_MV_UNDER, F_OR, F_ORG, F_PAY, F_PLACE_TOKEN, F_QUEEN,
    F_RETRIGGER, F_RINGS, F_RING_REVEAL, F_RING_ROTATE, F_SEARCH_RING, F_SHUFFLE, F_SPY_PILE,
    F_SPY_PUT, F_STEP, F_SWAP, F_UPGRADE, F_ZONE,
};
use super::heuristics;
use super::ops::desert_reminder_fx;
use super::state::{LedaState, Player};
use crate::features::Featurize;
use crate::leda::game::Leda;

/// Version of this feature definition (bumped on any change; models record it).
pub const FEATURES_VERSION: u32 = 1;

const PLAYERS: usize = 2;
/// Clan slots: a card's index among its clan's cards (13: the Cats).
pub const CLAN_SLOTS: usize = LARGEST_CLAN;
/// Decision frame kinds (`F_MULLIGAN` .. `F_ORG`).
const DECISION_KINDS: usize = (F_SHUFFLE - F_MULLIGAN) as usize;

/// Each MV token's kind (indexed by token - `MV_BASE`): tokens with the same effect and
/// symbols share one, numbered in order of first appearance.
pub const MV_KIND: [usize; MV_TOKEN_COUNT] = {
    let mut keys = [(0i32, 0u32); MV_TOKEN_COUNT];
    let mut out = [0usize; MV_TOKEN_COUNT];
    let mut count = 0;
    let mut t = 0;
    while t < MV_TOKEN_COUNT {
        let mut k = 0;
        while k < count && !(keys[k].0 == MV_FX[t] && keys[k].1 == MV_SYMBOLS[t]) {
            k += 1;
        }
        if k == count {
            keys[count] = (MV_FX[t], MV_SYMBOLS[t]);
            count += 1;
        }
        out[t] = k;
        t += 1;
    }
    out
};
/// Number of MV token kinds (8).
pub const MV_KINDS: usize = {
    let mut most = 0;
    let mut t = 0;
    while t < MV_TOKEN_COUNT {
        if MV_KIND[t] + 1 > most {
            most = MV_KIND[t] + 1;
        }
        t += 1;
    }
    most
};

// ---------------------------------------------------------------------------- view layout
const G_TO_MOVE: usize = 0;
const G_OPP_TO_MOVE: usize = 1;
const G_CHANCE: usize = 2;
const G_TERMINAL: usize = 3;
const G_WON: usize = 4;
const G_LOST: usize = 5;
const G_ACTIVE: usize = 6;
const G_FRAME: usize = 7;
const G_STEP: usize = G_FRAME + DECISION_KINDS;
const G_CONFLICT: usize = G_STEP + 2;
const G_ORG: usize = G_CONFLICT + 1;
const G_REVEALED: usize = G_ORG + 2;
const G_ACTION_PILE: usize = G_REVEALED + ACTION_TILE_COUNT;
const G_ACTION_TOP: usize = G_ACTION_PILE + 1;
const G_ZONE: usize = G_ACTION_TOP + ACTION_TILE_COUNT;
const G_ZONE_SQUARES: usize = G_ZONE + ZONE_COUNT;
const G_BLOCKED: usize = G_ZONE_SQUARES + SQUARES;
const G_MV_PILE: usize = G_BLOCKED + 1;
const G_MV_TOP: usize = G_MV_PILE + 1;
const G_OUTLOOK: usize = G_MV_TOP + MV_KINDS;
/// Values of the global block.
pub const GLOBAL_SIZE: usize = G_OUTLOOK + 1;

const S_CLAN: usize = 0;
const S_FOOD: usize = S_CLAN + CLAN_COUNT;
const S_MILITARY: usize = S_FOOD + 1;
const S_SPECIALS: usize = S_MILITARY + 1;
const S_MV_PROGRESS: usize = S_SPECIALS + 1;
const S_MV_COUNT: usize = S_MV_PROGRESS + 1;
const S_MV_KINDS: usize = S_MV_COUNT + 1;
const S_HAND_SIZE: usize = S_MV_KINDS + MV_KINDS;
const S_DECK_SIZE: usize = S_HAND_SIZE + 1;
const S_CLAN_PROGRESS: usize = S_DECK_SIZE + 1;
const S_POINTS: usize = S_CLAN_PROGRESS + 1;
const S_UPGRADED: usize = S_POINTS + 1;
const S_DESERTS: usize = S_UPGRADED + 1;
const S_PENDING_MILITARY: usize = S_DESERTS + 1;
const S_PENDING_POINTS: usize = S_PENDING_MILITARY + 1;
const S_HAND: usize = S_PENDING_POINTS + 1;
const S_UNCOVERED: usize = S_HAND + CLAN_SLOTS;
const S_COVERED: usize = S_UNCOVERED + CLAN_SLOTS;
const S_DECK_TOP: usize = S_COVERED + CLAN_SLOTS;
const S_SQUARES: usize = S_DECK_TOP + CLAN_SLOTS;

const Q_CARD: usize = 0;
const Q_FRONT: usize = 1;
const Q_UPGRADED: usize = 2;
const Q_TEMPORARY: usize = 3;
const Q_DESERT: usize = 4;
const Q_TOKEN: usize = 5;
const Q_PACK: usize = 6;
const Q_MILITARY: usize = 7;
const Q_POINTS: usize = 8;
const Q_TO_ACTIVATE: usize = 9;
/// Values of one square.
pub const SQUARE_SIZE: usize = 10;

/// Values of one seat block.
pub const SEAT_SIZE: usize = S_SQUARES + SQUARES * SQUARE_SIZE;
/// Length of the view vector (563).
pub const FEATURE_SIZE: usize = GLOBAL_SIZE + PLAYERS * SEAT_SIZE;

const FOOD_CAP: u32 = 20;
const MILITARY_CAP: u32 = 10;
const SPECIALS_CAP: u32 = 4;
const MV_COUNT_CAP: usize = 10;
const MV_KIND_CAP: u32 = 3;
const POINTS_SCALE: f64 = 40.0;
const OUTLOOK_SCALE: f64 = 10.0;
const FX_MILITARY_SCALE: f64 = 4.0;
const FX_POINTS_SCALE: f64 = 2.0;
const PENDING_MILITARY_SCALE: f64 = 8.0;
const PENDING_POINTS_SCALE: f64 = 4.0;
const TILE_COUNT_SCALE: f64 = 8.0;

// ---------------------------------------------------------------------------- action layout
/// Every (decision frame kind, action kind) a legal decision pairs, in index order.
pub const PAIRS: [(u8, u8); 33] = [
    (F_MULLIGAN, A_MULLIGAN),
    (F_ZONE, A_ZONE),
    (F_ACTIVATE, A_ACTIVATE),
    (F_OR, A_CHOOSE),
    (F_UPGRADE, A_UPGRADE),
    (F_FLIP, A_FLIP),
    (F_SPY_PILE, A_SPY),
    (F_SPY_PUT, A_PUT),
    (F_PLACE_TOKEN, A_TOKEN),
    (F_ACT_TILE, A_ACT_TILE),
    (F_DESERT_FX, A_DESERT),
    (F_RETRIGGER, A_RETRIGGER),
    (F_MV_UNDER, A_UNDER),
    (F_COPY, A_COPY),
    (F_RING_REVEAL, A_REVEAL),
    (F_RING_REVEAL, A_SKIP),
    (F_SEARCH_RING, A_TAKE),
    (F_SEARCH_RING, A_SKIP),
    (F_RING_ROTATE, A_ROTATE),
    (F_RING_ROTATE, A_SKIP),
    (F_DISCOUNT, A_PLAY),
    (F_DISCOUNT, A_SKIP),
    (F_PAY, A_PAY),
    (F_AWAKEN, A_AWAKEN),
    (F_AWAKEN, A_FOOD),
    (F_QUEEN, A_QUEEN),
    (F_DOWNGRADE, A_DOWNGRADE),
    (F_SWAP, A_SWAP),
    (F_RINGS, A_RING),
    (F_RINGS, A_DONE),
    (F_ORG, A_PLAY),
    (F_ORG, A_FOOD),
    (F_ORG, A_SWAP),
];

/// `PAIRS` as a table: the pair index of (frame kind, action kind), or `NO_PAIR`.
const PAIR_INDEX: [[u8; ACTION_KINDS]; FRAME_KINDS] = {
    let mut table = [[NO_PAIR; ACTION_KINDS]; FRAME_KINDS];
    let mut i = 0;
    while i < PAIRS.len() {
        table[PAIRS[i].0 as usize][PAIRS[i].1 as usize] = i as u8;
        i += 1;
    }
    table
};
const NO_PAIR: u8 = u8::MAX;

const X_KIND: usize = 0;
const X_PAIR: usize = X_KIND + ACTION_KINDS;
const X_PLACED_CARD: usize = X_PAIR + PAIRS.len();
const X_PAID_CARD: usize = X_PLACED_CARD + CARD_COUNT;
const X_OTHER_CARD: usize = X_PAID_CARD + CARD_COUNT;
const X_MV_TOKEN: usize = X_OTHER_CARD + CARD_COUNT;
const X_PLACE_SQUARE: usize = X_MV_TOKEN + 2 * MV_TOKEN_COUNT;
const X_COVER: usize = X_PLACE_SQUARE + SQUARES;
const COVER_CARD: usize = 0;
const COVER_FRONT: usize = 1;
const COVER_UPGRADED: usize = 2;
const COVER_TEMPORARY: usize = 3;
const COVER_DESERT: usize = 4;
const COVER_TOKEN: usize = 5;
const X_TARGET_SQUARE: usize = X_COVER + 6;
const X_EFFECT: usize = X_TARGET_SQUARE + SQUARES;
const X_TILE: usize = X_EFFECT + EFFECT_COUNT + 1;
const X_ZONE: usize = X_TILE + 2 * TILE_KIND_COUNT;
const X_PILE: usize = X_ZONE + ZONE_COUNT;
const X_PUT: usize = X_PILE + 3;
const X_MULLIGAN: usize = X_PUT + 2;
const X_OPTION: usize = X_MULLIGAN + 2;
/// Size of the action-feature space (370).
pub const ACTION_FEATURE_SIZE: usize = X_OPTION + 2;

const _: () = {
    assert!(FEATURE_SIZE == 563 && ACTION_FEATURE_SIZE == 370 && MV_KINDS == 8);
    assert!(ACTION_FEATURE_SIZE <= u32::MAX as usize);
};

/// A card's clan slot: its index among its clan's cards.
fn slot(card: usize) -> usize {
    card - clan_cards(CARDS[card].clan).start
}

/// Progress toward the clan victory as the heuristic's `player_points` counts it, at most 1.
pub fn clan_progress(player: &Player) -> f64 {
    let clan = usize::from(player.clan);
    if clan == SHARKS {
        return (board::token_count(player) as f64 / SHARK_TOKENS as f64).min(1.0);
    }
    let mut units = 0.0;
    for (sq, square) in player.grid.iter().enumerate() {
        let Some(top) = square.cards.last() else {
            continue;
        };
        if clan == SCORPIONS {
            if PORTALS.contains(&top) {
                units += if CORNERS.contains(&sq) { 1.0 } else { 0.25 };
            }
        } else if clan == PANDAS {
            units += match panda_level(top) {
                Some(1) => 0.5,
                Some(2) => 1.0,
                Some(3) => 2.0,
                _ => 0.0,
            };
        } else if RINGS.contains(&top) {
            units += 1.0;
        }
    }
    if clan == SCORPIONS {
        (units / CORNERS.len() as f64).min(1.0)
    } else if clan == PANDAS {
        (units / 5.0).min(1.0)
    } else {
        (units / 3.0).min(1.0)
    }
}

/// What the pending work says of this round: each seat's squares still to activate (as the
/// heuristic's round outlook reads them), whose activation step and Organization are still to
/// come, and whether the conflict is.
struct Round {
    masks: [i32; 2],
    steps: [bool; 2],
    orgs: [bool; 2],
    conflict: bool,
}

fn round_of(state: &LedaState) -> Round {
    let mut round = Round {
        masks: [0; 2],
        steps: [false; 2],
        orgs: [false; 2],
        conflict: false,
    };
    let zone = state.zone;
    for frame in &state.stack {
        let seat = usize::from(frame.seat) & 1;
        match frame.kind {
            F_CONFLICT => round.conflict = true,
            F_STEP => {
                round.steps[seat] = true;
                if zone >= 0 {
                    round.masks[seat] = i32::from(ZONE_MASKS[zone as usize]);
                }
            }
            F_ACTIVATE => {
                round.steps[seat] = true;
                if zone >= 0 {
                    round.masks[seat] = frame.arg(0);
                }
            }
            F_ORG => round.orgs[seat] = true,
            _ => {}
        }
    }
    round
}

/// Seat `owner`'s block as `seat` sees it, into `out` (the block's slice).
fn seat_block(out: &mut [f32], state: &LedaState, seat: usize, owner: usize, mask: i32) {
    let p = state.player(owner);
    let known = state.known[seat];
    let clan = usize::from(p.clan);
    let mut put = |i: usize, v: f64| out[i] = v as f32;
    put(S_CLAN + clan, 1.0);
    put(
        S_FOOD,
        f64::from(p.food.min(FOOD_CAP)) / f64::from(FOOD_CAP),
    );
    put(
        S_MILITARY,
        f64::from(p.military.min(MILITARY_CAP)) / f64::from(MILITARY_CAP),
    );
    put(
        S_SPECIALS,
        f64::from(p.specials.min(SPECIALS_CAP)) / f64::from(SPECIALS_CAP),
    );
    put(
        S_MV_PROGRESS,
        (f64::from(board::mv_symbols(p)) / f64::from(MV_THRESHOLD[clan])).min(1.0),
    );
    put(
        S_MV_COUNT,
        p.mv.len().min(MV_COUNT_CAP) as f64 / MV_COUNT_CAP as f64,
    );
    let mut counts = [0u32; MV_KINDS];
    for token in p.mv.iter() {
        if let Some(&kind) = token.checked_sub(MV_BASE).and_then(|t| MV_KIND.get(t)) {
            counts[kind] += 1;
        }
    }
    for (kind, &count) in counts.iter().enumerate() {
        put(
            S_MV_KINDS + kind,
            f64::from(count.min(MV_KIND_CAP)) / f64::from(MV_KIND_CAP),
        );
    }
    put(S_HAND_SIZE, p.hand.len() as f64 / CLAN_SLOTS as f64);
    put(S_DECK_SIZE, p.deck.len() as f64 / CLAN_SLOTS as f64);
    put(S_CLAN_PROGRESS, clan_progress(p));
    put(S_POINTS, heuristics::player_points(p) / POINTS_SCALE);
    put(
        S_UPGRADED,
        board::upgraded_count(p) as f64 / TILE_COUNT_SCALE,
    );
    put(S_DESERTS, board::desert_count(p) as f64 / TILE_COUNT_SCALE);
    if mask != 0 && state.zone >= 0 {
        let (military, points) = heuristics::pending_yield(p, mask, state.zone as usize);
        put(S_PENDING_MILITARY, military / PENDING_MILITARY_SCALE);
        put(S_PENDING_POINTS, points / PENDING_POINTS_SCALE);
    }
    for card in p.hand.iter() {
        if owner == seat || known.contains(card) {
            put(S_HAND + slot(card), 1.0);
        }
    }
    if let Some(top) = p.deck.get(0) {
        if known.contains(top) {
            put(S_DECK_TOP + slot(top), 1.0);
        }
    }
    let symbol_points = heuristics::symbol_points(clan);
    for (sq, square) in p.grid.iter().enumerate() {
        let at = S_SQUARES + sq * SQUARE_SIZE;
        if let Some(top) = square.cards.last() {
            put(at + Q_CARD, 1.0);
            put(S_UNCOVERED + slot(top), 1.0);
            for covered in square.cards.iter().take(square.cards.len() - 1) {
                put(S_COVERED + slot(covered), 1.0);
            }
        } else if TILE_PERMANENT[usize::from(square.tile)] {
            put(
                at + if square.face != 0 {
                    Q_UPGRADED
                } else {
                    Q_FRONT
                },
                1.0,
            );
        } else {
            put(
                at + if square.face != 0 {
                    Q_DESERT
                } else {
                    Q_TEMPORARY
                },
                1.0,
            );
        }
        if square.token {
            put(at + Q_TOKEN, 1.0);
            if board::pack_awake(p, sq) {
                put(at + Q_PACK, 1.0);
            }
        }
        let fx = board::live_fx(p, sq);
        if fx != NONE {
            let (military, points) = heuristics::fx_yield(fx, clan, symbol_points);
            put(at + Q_MILITARY, military / FX_MILITARY_SCALE);
            put(at + Q_POINTS, points / FX_POINTS_SCALE);
        }
        if mask >> sq & 1 == 1 {
            put(at + Q_TO_ACTIVATE, 1.0);
        }
    }
}

/// `seat`'s view of `state` as [`FEATURE_SIZE`] values into `out` (cleared first; no other
/// allocation).
pub fn features(state: &LedaState, seat: usize, out: &mut Vec<f32>) {
    out.clear();
    out.resize(FEATURE_SIZE, 0.0);
    let seat = seat & 1;
    let other = 1 - seat;
    let known = state.known[seat];
    let (global, seats) = out.split_at_mut(GLOBAL_SIZE);
    let mut put = |i: usize, v: f64| global[i] = v as f32;
    if state.winner >= 0 {
        put(G_TERMINAL, 1.0);
        put(
            if usize::from(state.winner as u8) == seat {
                G_WON
            } else {
                G_LOST
            },
            1.0,
        );
    } else if let Some(frame) = state.stack.last() {
        if frame.kind == F_SHUFFLE {
            put(G_CHANCE, 1.0);
        } else {
            put(
                if usize::from(frame.seat) == seat {
                    G_TO_MOVE
                } else {
                    G_OPP_TO_MOVE
                },
                1.0,
            );
            if (F_MULLIGAN..F_SHUFFLE).contains(&frame.kind) {
                put(G_FRAME + usize::from(frame.kind - F_MULLIGAN), 1.0);
            }
        }
    }
    if usize::from(state.active) == seat {
        put(G_ACTIVE, 1.0);
    }
    let round = round_of(state);
    if round.steps[seat] {
        put(G_STEP, 1.0);
    }
    if round.steps[other] {
        put(G_STEP + 1, 1.0);
    }
    if round.conflict {
        put(G_CONFLICT, 1.0);
    }
    if round.orgs[seat] {
        put(G_ORG, 1.0);
    }
    if round.orgs[other] {
        put(G_ORG + 1, 1.0);
    }
    for tile in state.revealed.iter() {
        put(G_REVEALED + tile - ACTION_TILE_BASE, 1.0);
    }
    put(
        G_ACTION_PILE,
        state.action_pile.len() as f64 / ACTION_TILE_COUNT as f64,
    );
    if let Some(top) = state.action_pile.get(0) {
        if known.contains(top) {
            put(G_ACTION_TOP + top - ACTION_TILE_BASE, 1.0);
        }
    }
    if state.zone >= 0 {
        let zone = state.zone as usize;
        put(G_ZONE + zone, 1.0);
        for &sq in &ZONE_SQUARES[zone] {
            put(G_ZONE_SQUARES + sq, 1.0);
        }
    }
    if state.blocked {
        put(G_BLOCKED, 1.0);
    }
    put(
        G_MV_PILE,
        state.mv_pile.len() as f64 / MV_TOKEN_COUNT as f64,
    );
    if let Some(top) = state.mv_pile.get(0) {
        if known.contains(top) {
            put(G_MV_TOP + MV_KIND[top - MV_BASE], 1.0);
        }
    }
    if state.winner < 0 {
        let outlook = heuristics::round_outlook(state);
        let lead = if seat == 0 { outlook } else { -outlook };
        put(G_OUTLOOK, lead / OUTLOOK_SCALE);
    }
    let (own, theirs) = seats.split_at_mut(SEAT_SIZE);
    seat_block(own, state, seat, seat, round.masks[seat]);
    seat_block(theirs, state, seat, other, round.masks[other]);
}

fn effect_index(fx: i32) -> u32 {
    let fx = if fx == NONE {
        EFFECT_COUNT
    } else {
        fx as usize
    };
    (X_EFFECT + fx) as u32
}

fn tile_index(player: &Player, sq: usize) -> u32 {
    let square = &player.grid[sq];
    (X_TILE + TILE_KIND[usize::from(square.tile)] * 2 + usize::from(square.face)) as u32
}

fn cover_index(player: &Player, sq: usize) -> u32 {
    let square = &player.grid[sq];
    let cover = if !square.cards.is_empty() {
        COVER_CARD
    } else if TILE_PERMANENT[usize::from(square.tile)] {
        if square.face != 0 {
            COVER_UPGRADED
        } else {
            COVER_FRONT
        }
    } else if square.face != 0 {
        COVER_DESERT
    } else {
        COVER_TEMPORARY
    };
    (X_COVER + cover) as u32
}

/// The active action-feature indices of decision `action` in `state`, appended to `out`; a
/// shuffle outcome, or an action past the end, gets its kind index only.
pub fn action_features(state: &LedaState, action: Action, out: &mut Vec<u32>) {
    let kind = action.kind();
    let index = |base: usize, i: usize| (base + i) as u32;
    out.push(index(X_KIND, usize::from(kind)));
    let Some(frame) = state.stack.last() else {
        return;
    };
    if action.is_shuffle() {
        return;
    }
    let pair = PAIR_INDEX
        .get(usize::from(frame.kind))
        .map_or(NO_PAIR, |row| row[usize::from(kind)]);
    if pair != NO_PAIR {
        out.push(index(X_PAIR, usize::from(pair)));
    }
    let seat = usize::from(frame.seat) & 1;
    let p = state.player(seat);
    match kind {
        A_PLAY | A_RING | A_AWAKEN => {
            let (card, sq) = (action.arg(0), action.arg(1));
            if card < CARD_COUNT {
                out.push(index(X_PLACED_CARD, card));
            }
            out.push(index(X_PLACE_SQUARE, sq));
            out.push(cover_index(p, sq));
            if p.grid[sq].token {
                out.push(index(X_COVER, COVER_TOKEN));
            }
        }
        A_PAY if action.arg(0) < CARD_COUNT => out.push(index(X_PAID_CARD, action.arg(0))),
        A_TAKE | A_REVEAL if action.arg(0) < CARD_COUNT => {
            out.push(index(X_OTHER_CARD, action.arg(0)));
        }
        A_RETRIGGER | A_UNDER => {
            if let Some(token) = action.arg(0).checked_sub(MV_BASE) {
                if token < MV_TOKEN_COUNT {
                    let under = if kind == A_UNDER { MV_TOKEN_COUNT } else { 0 };
                    out.push(index(X_MV_TOKEN, token + under));
                }
            }
        }
        A_TOKEN => out.push(index(X_PLACE_SQUARE, action.arg(0))),
        A_SWAP => {
            out.push(index(X_TARGET_SQUARE, action.arg(0)));
            out.push(index(X_TARGET_SQUARE, action.arg(1)));
        }
        A_ACTIVATE | A_ROTATE | A_QUEEN => {
            let sq = action.arg(0);
            out.push(index(X_TARGET_SQUARE, sq));
            out.push(effect_index(board::live_fx(p, sq)));
        }
        A_COPY => {
            let sq = action.arg(0);
            out.push(index(X_TARGET_SQUARE, sq));
            out.push(effect_index(board::live_fx(state.player(1 - seat), sq)));
        }
        A_DESERT => {
            let sq = action.arg(0);
            out.push(index(X_TARGET_SQUARE, sq));
            out.push(effect_index(desert_reminder_fx(state, seat, sq)));
        }
        A_ACT_TILE => {
            let sq = action.arg(0);
            out.push(index(X_TARGET_SQUARE, sq));
            out.push(effect_index(board::tile_live_fx(&p.grid[sq])));
            out.push(tile_index(p, sq));
        }
        A_UPGRADE | A_FLIP | A_DOWNGRADE => {
            let sq = action.arg(0);
            out.push(index(X_TARGET_SQUARE, sq));
            out.push(tile_index(p, sq));
        }
        A_CHOOSE => {
            let option = action.arg(0);
            out.push(index(X_OPTION, option));
            if frame.kind == F_OR {
                out.push(effect_index(frame.arg(option)));
            }
        }
        A_ZONE => out.push(index(X_ZONE, action.arg(0))),
        A_SPY => out.push(index(X_PILE, action.arg(0))),
        A_PUT => out.push(index(X_PUT, action.arg(0))),
        A_MULLIGAN => out.push(index(X_MULLIGAN, usize::from(action.arg(0) != 0))),
        // A_FOOD, A_SKIP, A_DONE: the kind and the pair say it all.
        _ => {}
    }
}

impl Featurize for Leda {
    const FEATURES_VERSION: u32 = FEATURES_VERSION;

    fn feature_size(&self, _players: usize) -> usize {
        FEATURE_SIZE
    }

    fn features(&self, state: &LedaState, seat: usize, out: &mut Vec<f32>) {
        features(state, seat, out);
    }

    fn action_feature_size(&self) -> usize {
        ACTION_FEATURE_SIZE
    }

    fn action_features(&self, state: &LedaState, action: Action, out: &mut Vec<u32>) {
        action_features(state, action, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rng::seeded_rng;
    use rand_core::RngCore;
    use serde_json::json;

    /// Seeded random games of every clan pairing: at each step, the features of every seat
    /// have the documented size and are the same in two worlds of that seat's view; every
    /// legal decision's indices lie in the space.
    #[test]
    fn views_decide_the_features_and_indices_stay_in_the_space() {
        let game = Leda;
        let clans = ["cats", "pandas", "sharks", "scorpions"];
        let mut rng = seeded_rng(11);
        let (mut out, mut other, mut actions, mut indices) = (vec![], vec![], vec![], vec![]);
        let mut distinct = std::collections::HashSet::new();
        for (i, a) in clans.iter().enumerate() {
            for b in &clans[i + 1..] {
                let options = json!({"clans": [a, b]});
                let mut state = game.new_state(&options, rng.next_u64()).unwrap();
                while game.current_player(&state) != crate::TERMINAL {
                    for seat in 0..2 {
                        game.features(&state, seat, &mut out);
                        assert_eq!(out.len(), game.feature_size(2));
                        let view = game.observe(&state, seat);
                        for _ in 0..2 {
                            let world = game.determinize(&view, &mut rng);
                            game.features(&world, seat, &mut other);
                            assert_eq!(out, other);
                        }
                        distinct.insert(out.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
                    }
                    game.legal_actions(&state, &mut actions);
                    for &action in &actions {
                        indices.clear();
                        game.action_features(&state, action, &mut indices);
                        assert!(indices.len() >= 2);
                        assert!(indices.iter().all(|&x| (x as usize) < ACTION_FEATURE_SIZE));
                    }
                    let action = match game.sample_chance(&state, &mut rng) {
                        Some(outcome) => outcome,
                        None => actions[rng.next_u64() as usize % actions.len()],
                    };
                    state = game.apply(&state, action);
                }
            }
        }
        assert!(distinct.len() > 500, "{}", distinct.len());
    }
}
