//! Heuristics for the search: the twin of `evaluate` (leaf evaluation) and `policy_weights`
//! (rollout preferences) of `engine/leda/heuristics.py`, the same constants and the same
//! arithmetic in the same order.
//!
//! Each seat gets a score in points: progress toward its two victories (MV symbols and the clan
//! condition, 10 points each when complete), plus the engine it has built (uncovered clan cards
//! by cost, tiles by face), its hand and its Food; while a round's activations and conflict are
//! still to come, their expected yield counts too. The value is 0.5 plus a squashed points
//! lead, kept inside [0.1, 0.9] so that any real win outranks every heuristic state.

use super::actions::{
    Action, A_ACTIVATE, A_AWAKEN, A_DONE, A_FOOD, A_PLAY, A_RING, A_SKIP, A_SWAP,
};
use super::board;
use super::data::{
    BRONZE, CARDS, CATS, CORNERS, EFFECTS, GOLD, MV_THRESHOLD, NONE, OP_AWAKEN, OP_DRAW,
    OP_DRAW_MV, OP_FOOD, OP_FOOD_PER_DESERT_PAIR, OP_FOOD_PER_HAND, OP_FOOD_PER_MV,
    OP_FOOD_PER_MV_PAIR, OP_MIL, OP_MIL_PER_ADJ_TOKEN, OP_MIL_PER_DESERT_PAIR, OP_MIL_PER_HAND,
    OP_OR, OP_SPECIAL, OP_SPY, PANDAS, PANDA_BASE, PANDA_LEVEL, PORTALS, RINGS, SCORPIONS, SHARKS,
    SHARK_TOKENS, SILVER, SPECIAL_FX, TILE_PERMANENT, ZONE_MASKS, ZONE_SQUARES,
};
use super::frames::{F_ACTIVATE, F_CONFLICT, F_STEP};
use super::state::{LedaState, Player};

/// Points of a complete victory condition (MV threshold reached, or the clan condition).
pub const VICTORY_POINTS: f64 = 10.0;
/// How the nearer of the two victories weighs in the victory points.
pub const NEARER_SHARE: f64 = 0.65;
/// How the farther of the two victories weighs in the victory points.
pub const FARTHER_SHARE: f64 = 0.35;
/// An uncovered clan card is worth `CARD_BASE` plus `CARD_PER_FOOD` per Food of its cost.
pub const CARD_BASE: f64 = 0.7;
/// See [`CARD_BASE`].
pub const CARD_PER_FOOD: f64 = 0.1;
/// Food-equivalent of one card paid toward a Cat card's cost.
pub const FOOD_PER_CARD_COST: i32 = 3;
/// Points of a card in hand.
pub const HAND_CARD: f64 = 0.3;
/// Cards in hand that count.
pub const HAND_CAP: usize = 8;
/// Points of a Food up to [`FOOD_CAP`].
pub const FOOD_POINT: f64 = 0.08;
/// Food past this is worth little.
pub const FOOD_CAP: u32 = 9;
/// Points of a Food past [`FOOD_CAP`].
pub const FOOD_POINT_OVER_CAP: f64 = 0.02;
/// Bonus for a Shark card whose Pack face is live.
pub const PACK_AWAKE: f64 = 0.3;
/// Share of an MV token's symbols credited to the leader of a conflict still to come.
pub const CONFLICT_LEAD: f64 = 0.6;
/// Score lead giving tanh(1) of the value range.
pub const SQUASH: f64 = 8.0;
/// The value stays within 0.5 ± `VALUE_SPREAD` before the game is decided.
pub const VALUE_SPREAD: f64 = 0.4;
/// Share of a pending activation's expected points credited before it resolves.
pub const PENDING_SHARE: f64 = 0.7;

const PERMANENT_FRONT: f64 = 0.3;
const UPGRADED: f64 = 0.6;
const TEMPORARY_FRONT: f64 = 0.2;
const SCORPION_DESERT: f64 = 0.25;
const PANDA_STEPS_NEEDED: f64 = 5.0;
const OFF_CORNER_PORTAL: f64 = 0.25;
const PORTAL_NOMINAL_COST: i32 = 7;
const RINGS_NEEDED: f64 = 3.0;
const MEAN_TOKEN_SYMBOLS: f64 = 20.0 / 18.0;
const OTHER_OP: f64 = 0.3;

fn panda_level(card: usize) -> u8 {
    if (PANDA_BASE..PANDA_BASE + PANDA_LEVEL.len()).contains(&card) {
        PANDA_LEVEL[card - PANDA_BASE]
    } else {
        0
    }
}

/// Engine points of a clan card lying uncovered in play.
pub fn card_points(card: usize) -> f64 {
    if RINGS.contains(&card) {
        return CARD_BASE;
    }
    if PORTALS.contains(&card) {
        return CARD_BASE + CARD_PER_FOOD * f64::from(PORTAL_NOMINAL_COST);
    }
    let level = panda_level(card);
    if level == SILVER {
        return CARD_BASE + CARD_PER_FOOD * 7.0;
    }
    if level == GOLD {
        return CARD_BASE + CARD_PER_FOOD * 10.0;
    }
    let mut cost = CARDS[card].food_cost;
    if cost < 0 {
        cost = FOOD_PER_CARD_COST * CARDS[card].card_cost as i32;
    }
    CARD_BASE + CARD_PER_FOOD * f64::from(cost)
}

fn panda_points(card: usize) -> f64 {
    match panda_level(card) {
        BRONZE => 0.5,
        SILVER => 1.0,
        GOLD => 2.0,
        _ => 0.0,
    }
}

fn tile_points(clan: usize, tile: usize, face: usize) -> f64 {
    match (TILE_PERMANENT[tile], face) {
        (true, 0) => PERMANENT_FRONT,
        (true, _) => UPGRADED,
        (false, 0) => TEMPORARY_FRONT,
        (false, _) if clan == SCORPIONS => SCORPION_DESERT,
        (false, _) => 0.0,
    }
}

/// Points of one MV symbol to `clan` (its threshold's symbols make a victory).
pub fn symbol_points(clan: usize) -> f64 {
    VICTORY_POINTS / f64::from(MV_THRESHOLD[clan])
}

fn food_points(food: u32) -> f64 {
    if food <= FOOD_CAP {
        return FOOD_POINT * f64::from(food);
    }
    FOOD_POINT * f64::from(FOOD_CAP) + FOOD_POINT_OVER_CAP * f64::from(food - FOOD_CAP)
}

/// The seat's standing in points: victory progress, engine, hand and Food.
pub fn player_points(player: &Player) -> f64 {
    let clan = usize::from(player.clan);
    let mut engine = 0.0;
    let mut tokens = 0usize;
    let mut clan_units = 0.0; // Portals, Panda steps or Rings, by clan
    for (sq, square) in player.grid.iter().enumerate() {
        if square.token {
            tokens += 1;
        }
        let Some(top) = square.cards.last() else {
            engine += tile_points(clan, usize::from(square.tile), usize::from(square.face));
            continue;
        };
        engine += card_points(top);
        if clan == SCORPIONS {
            if PORTALS.contains(&top) {
                clan_units += if CORNERS.contains(&sq) {
                    1.0
                } else {
                    OFF_CORNER_PORTAL
                };
            }
        } else if clan == PANDAS {
            clan_units += panda_points(top);
        } else if clan == CATS {
            if RINGS.contains(&top) {
                clan_units += 1.0;
            }
        } else if CARDS[top].clan == SHARKS
            && square.token
            && board::adjacent_tokens(player, sq) >= 2
        {
            engine += PACK_AWAKE;
        }
    }
    let clan_frac = match clan {
        SHARKS => tokens as f64 / SHARK_TOKENS as f64,
        SCORPIONS => clan_units / CORNERS.len() as f64,
        PANDAS => clan_units / PANDA_STEPS_NEEDED,
        _ => clan_units / RINGS_NEEDED,
    };
    let mv_frac = f64::from(board::mv_symbols(player)) / f64::from(MV_THRESHOLD[clan]);
    let clan_frac = clan_frac.min(1.0);
    let mv_frac = mv_frac.min(1.0);
    let victory = if mv_frac >= clan_frac {
        NEARER_SHARE * mv_frac + FARTHER_SHARE * clan_frac
    } else {
        NEARER_SHARE * clan_frac + FARTHER_SHARE * mv_frac
    };
    let hand = player.hand.len().min(HAND_CAP) as f64 * HAND_CARD;
    VICTORY_POINTS * victory + engine + hand + food_points(player.food)
}

/// (Military, other points) one op is expected to bring.
fn op_yield(kind: u8, args: &[i32], clan: usize, symbol_points: f64) -> (f64, f64) {
    match kind {
        OP_MIL => (f64::from(args[0]), 0.0),
        OP_FOOD => (0.0, FOOD_POINT * f64::from(args[0])),
        OP_DRAW => (0.0, HAND_CARD * f64::from(args[0])),
        OP_DRAW_MV => (0.0, MEAN_TOKEN_SYMBOLS * symbol_points),
        OP_SPECIAL => fx_yield(SPECIAL_FX[clan], clan, symbol_points),
        OP_OR => {
            // Either branch may be chosen: credit half of each.
            let a = fx_yield(args[0], clan, symbol_points);
            let b = fx_yield(args[1], clan, symbol_points);
            (0.5 * (a.0 + b.0), 0.5 * (a.1 + b.1))
        }
        OP_MIL_PER_ADJ_TOKEN => (2.0, 0.0),
        OP_MIL_PER_HAND => (3.0, 0.0),
        OP_MIL_PER_DESERT_PAIR => (1.5, 0.0),
        OP_FOOD_PER_HAND => (0.0, FOOD_POINT * 3.0),
        OP_FOOD_PER_MV_PAIR => (0.0, FOOD_POINT * 1.0),
        OP_FOOD_PER_MV => (0.0, FOOD_POINT * 2.0),
        OP_FOOD_PER_DESERT_PAIR => (0.0, FOOD_POINT * 1.5),
        OP_SPY => (0.0, 0.05),
        OP_AWAKEN => (0.0, 1.0),
        _ => (0.0, OTHER_OP),
    }
}

/// (Military, other points) one activation of effect `fx` is expected to bring to `clan`.
pub fn fx_yield(fx: i32, clan: usize, symbol_points: f64) -> (f64, f64) {
    let (mut military, mut points) = (0.0, 0.0);
    if fx == NONE {
        return (military, points);
    }
    for op in EFFECTS[fx as usize].ops {
        let (m, p) = op_yield(op.kind, op.args, clan, symbol_points);
        military += m;
        points += p;
    }
    (military, points)
}

/// (Military, points) the squares of `mask` in `zone` are expected to bring this round.
pub fn pending_yield(player: &Player, mask: i32, zone: usize) -> (f64, f64) {
    let clan = usize::from(player.clan);
    let sp = symbol_points(clan);
    let (mut military, mut points) = (0.0, 0.0);
    for &sq in &ZONE_SQUARES[zone] {
        if mask >> sq & 1 == 1 {
            let fx = board::live_fx(player, sq);
            if fx != NONE {
                let (m, p) = fx_yield(fx, clan, sp);
                military += m;
                points += p;
            }
        }
    }
    (military, PENDING_SHARE * points)
}

/// Seat 0's points lead from this round's pending activations and conflict.
pub fn round_outlook(state: &LedaState) -> f64 {
    let mut conflict = false;
    let mut masks = [0i32; 2];
    let zone = state.zone;
    for frame in &state.stack {
        let seat = usize::from(frame.seat) & 1;
        if frame.kind == F_CONFLICT {
            conflict = true;
        } else if zone >= 0 && frame.kind == F_STEP {
            masks[seat] = i32::from(ZONE_MASKS[zone as usize]);
        } else if zone >= 0 && frame.kind == F_ACTIVATE {
            masks[seat] = frame.args().first().copied().unwrap_or(0);
        }
    }
    if !conflict {
        return 0.0;
    }
    let (p0, p1) = (state.player(0), state.player(1));
    let (mut m0, mut m1) = (f64::from(p0.military), f64::from(p1.military));
    let mut lead = 0.0;
    if masks[0] != 0 {
        let (m, p) = pending_yield(p0, masks[0], zone as usize);
        m0 += m;
        lead += p;
    }
    if masks[1] != 0 {
        let (m, p) = pending_yield(p1, masks[1], zone as usize);
        m1 += m;
        lead -= p;
    }
    if m0 != m1 && !state.blocked && !state.mv_pile.is_empty() {
        if m0 > m1 {
            lead += CONFLICT_LEAD * MEAN_TOKEN_SYMBOLS * symbol_points(usize::from(p0.clan));
        } else {
            lead -= CONFLICT_LEAD * MEAN_TOKEN_SYMBOLS * symbol_points(usize::from(p1.clan));
        }
    }
    lead
}

/// Per-seat value in [0, 1] from the points lead (1/0 once decided; the two sum to 1), into
/// `out`.
pub fn evaluate(state: &LedaState, out: &mut Vec<f64>) {
    out.clear();
    if state.winner >= 0 {
        let first = if state.winner == 0 { 1.0 } else { 0.0 };
        out.extend([first, 1.0 - first]);
        return;
    }
    let lead =
        player_points(state.player(0)) - player_points(state.player(1)) + round_outlook(state);
    let v = 0.5 + VALUE_SPREAD * (lead / SQUASH).tanh();
    out.extend([v, 1.0 - v]);
}

/// Rollout preferences, into `out` (one per action): play cards and Rings, Awaken, rarely
/// swap, finish activations.
pub fn policy_weights(_state: &LedaState, actions: &[Action], out: &mut Vec<f64>) {
    out.clear();
    out.extend(actions.iter().map(|action| match action.kind() {
        A_DONE => 0.2,
        A_ACTIVATE => 1.0,
        A_PLAY => 6.0,
        A_RING => 8.0,
        A_AWAKEN => 4.0,
        A_FOOD => 2.0,
        A_SWAP => 0.02,
        A_SKIP => 0.5,
        _ => 1.0,
    }));
}
