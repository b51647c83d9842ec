//! The rules: legal actions and transitions (the hot path; no validation here, the JSON
//! decoder does it all). A port of `engine/legend_raiders/rules.py`, action for action.
//!
//! `apply` clones the input state (a flat copy plus shared players) and changes the clone:
//! only the players a step changes get a new `Arc`, so the input and every other state
//! stay as they were.

use super::actions::{layout, Action, ActionKind};
use super::bounds::bounds;
use super::components::{components, Components, FACE_COIN, FACE_TOOL, FACE_TORCH};
use super::state::{
    add_tools, bits, remove_tools, tool_sum, Phase, PlayerState, RaidersState, REFILL,
};

// ---------------------------------------------------------------- helpers on players

/// True when the player really holds a Die card.
#[inline]
pub fn holds_die_card(p: &PlayerState) -> bool {
    (p.known | p.blind) & components().die_card_mask != 0
}

/// True when everyone can see the player might hold a Die card (a known one, or any blind).
#[inline]
pub fn may_hold_die_card(p: &PlayerState) -> bool {
    p.blind != 0 || p.known & components().die_card_mask != 0
}

/// The Die card the player uses (a face-up-taken one first, the lowest id), removed from
/// `p`; None when the player holds none.
pub fn take_die_card(p: &mut PlayerState) -> Option<usize> {
    let die = components().die_card_mask;
    if p.known & die != 0 {
        let j = (p.known & die).trailing_zeros() as usize;
        p.known &= !(1u64 << j);
        return Some(j);
    }
    if p.blind & die != 0 {
        let j = (p.blind & die).trailing_zeros() as usize;
        p.blind &= !(1u64 << j);
        return Some(j);
    }
    None
}

/// Coins visible on a board with `prepared` tiles waiting and `completed` tiles done.
pub fn visible_coins(prepared: usize, completed: &[u8]) -> i32 {
    let c = components();
    let empty = c.max_prepared as i32 - prepared as i32;
    let mut coins = empty * c.coins_per_empty_space
        + c.completed_coins_from
            .get(completed.len())
            .copied()
            .unwrap_or(0);
    for &i in completed {
        coins += c.tile_coins[usize::from(i)];
    }
    coins
}

/// Tools missing to pay `tile` from `tools`, and the last tool type short.
#[inline]
fn shortfall(c: &Components, tile: usize, tools: &super::components::Tools) -> (u32, usize) {
    let cost = &c.tile_cost[tile];
    let mut short = 0u32;
    let mut missing = 0usize;
    for t in 0..c.n_tools {
        if cost[t] > tools[t] {
            short += u32::from(cost[t] - tools[t]);
            missing = t;
        }
    }
    (short, missing)
}

/// True when at least one prepared tile can be paid (tools, or tools and the lit torch).
pub fn can_complete_any(p: &PlayerState) -> bool {
    let c = components();
    bits(p.prepared).any(|i| {
        let (short, _) = shortfall(c, i, &p.tools);
        short == 0 || (short == 1 && p.torch)
    })
}

/// Tiles still to prepare: on the Headquarters and in the Discovery stack.
pub fn tiles_in_supply(s: &RaidersState) -> usize {
    let hq = s.hq_tiles[..components().hq_columns]
        .iter()
        .filter(|t| t.is_some())
        .count();
    hq + s.stack.count_ones() as usize
}

/// True when the deck can hold only used Die cards (diceless, after it once ran out).
///
/// A face-up slot stays empty once the deck has run out; from then on the only cards that go
/// back into the deck are the Die cards players use, so every card in it is a Die card. The
/// slot being refilled (`column` while a card is revealed) does not count.
pub fn deck_holds_only_die_cards(s: &RaidersState) -> bool {
    if s.dice {
        return false;
    }
    let refilling = if s.phase == Phase::RevealCard {
        s.column
    } else {
        None
    };
    s.row[..components().face_up_cards]
        .iter()
        .enumerate()
        .any(|(k, card)| card.is_none() && refilling != Some(k as u8))
}

/// True when a player can still complete the end-trigger discovery: their completed and
/// prepared tiles plus every tile still to prepare reach the trigger.
pub fn can_reach_end(s: &RaidersState, p: &PlayerState) -> bool {
    p.completed.len() + p.n_prepared() + tiles_in_supply(s) >= components().end_trigger
}

/// True when no player can complete the end-trigger discovery any more; checked at the end
/// of every turn, it finishes the round as a 6th discovery does.
pub fn end_out_of_reach(s: &RaidersState) -> bool {
    !s.players.iter().any(|p| can_reach_end(s, p))
}

#[inline]
fn update_player(s: &mut RaidersState, seat: usize, change: impl FnOnce(&mut PlayerState)) {
    let mut p = s.players[seat].clone();
    change(&mut p);
    s.players.set(seat, p);
}

#[inline]
fn bag_total(s: &RaidersState) -> usize {
    tool_sum(&s.bag)
}

// ---------------------------------------------------------------- legal actions

/// Diceless: the Die-card effects that would change something now.
fn die_effects(s: &RaidersState, p: &PlayerState, out: &mut Vec<Action>) {
    if !holds_die_card(p) {
        return;
    }
    let a = layout();
    if bag_total(s) > 0 {
        out.push(a.die_base + Action::from(FACE_TOOL));
    }
    if !p.torch {
        out.push(a.die_base + Action::from(FACE_TORCH));
    }
    // A real turn never reaches the bonus bound with a Die card left; a hand-made state might.
    let coin_phase = s.phase == Phase::Action
        || (s.phase == Phase::Complete && usize::from(s.done) < components().completions_per_turn);
    if coin_phase && usize::from(s.coin_bonus) < bounds().coin_bonus_max {
        out.push(a.die_base + Action::from(FACE_COIN));
    }
}

fn completions(p: &PlayerState, out: &mut Vec<Action>) {
    let c = components();
    let a = layout();
    for i in bits(p.prepared) {
        let (short, missing) = shortfall(c, i, &p.tools);
        let base = a.complete(i, 0);
        if short == 0 {
            out.push(base);
            if p.torch {
                for &t in &c.tile_cost_types[i] {
                    out.push(base + 1 + t as Action);
                }
            }
        } else if short == 1 && p.torch {
            out.push(base + 1 + missing as Action);
        }
    }
}

/// The current player's legal decisions into `out` (cleared first; empty at chance and
/// terminal states), in the Python engine's order.
pub fn legal_actions(s: &RaidersState, out: &mut Vec<Action>) {
    out.clear();
    let c = components();
    let a = layout();
    let p = s.current();
    match s.phase {
        Phase::Action => {
            for col in 0..c.hq_columns {
                if s.hq_tiles[col].is_some() || tool_sum(&s.hq_tools[col]) > 0 {
                    out.push(a.prepare_base + col as Action);
                }
            }
            let mut any_card = false;
            for k in 0..c.face_up_cards {
                if s.row[k].is_some() {
                    out.push(a.row_base + k as Action);
                    any_card = true;
                }
            }
            if s.deck != 0 {
                out.push(a.take_deck);
            } else if !any_card {
                out.push(a.no_card);
            }
            if !s.dice {
                die_effects(s, p, out);
            }
        }
        Phase::Complete => {
            if usize::from(s.done) < c.completions_per_turn {
                completions(p, out);
            }
            if !s.dice {
                die_effects(s, p, out);
            }
            out.push(a.stop);
        }
        Phase::DiscardTool => {
            for t in 0..c.n_tools {
                if p.tools[t] > 0 {
                    out.push(a.discard_tool_base + t as Action);
                }
            }
        }
        Phase::DiscardTile => {
            for i in bits(p.prepared) {
                out.push(a.discard_tile_base + i as Action);
            }
        }
        Phase::DieCard => {
            out.push(a.keep_roll);
            if holds_die_card(p) {
                for f in [FACE_TOOL, FACE_TORCH, FACE_COIN] {
                    if Some(f) != s.die {
                        out.push(a.die_base + Action::from(f));
                    }
                }
            }
        }
        Phase::Finish => {
            die_effects(s, p, out);
            out.push(a.stop);
        }
        _ => {}
    }
}

// ---------------------------------------------------------------- transitions

fn end_turn(s: &mut RaidersState) {
    if !s.ending {
        s.ending = end_out_of_reach(s);
    }
    let next = (usize::from(s.seat) + 1) % s.n_players();
    if !(s.ending && next == usize::from(s.first)) {
        s.seat = next as u8;
        s.phase = if s.dice { Phase::Roll } else { Phase::Action };
    } else {
        s.phase = Phase::Over;
    }
    s.die = None;
    s.coin_bonus = 0;
    s.done = 0;
    s.column = None;
    s.draws = 0;
    s.resume = None;
}

fn set_phase(s: &mut RaidersState, phase: Phase) {
    s.phase = phase;
    s.draws = 0;
    s.resume = None;
}

/// Continue the turn at `phase`, skipping a step that offers no real choice.
fn enter(s: &mut RaidersState, phase: Phase) {
    match phase {
        Phase::Complete => {
            let p = s.current();
            let c = components();
            if (usize::from(s.done) < c.completions_per_turn && can_complete_any(p))
                || (!s.dice && may_hold_die_card(p))
            {
                set_phase(s, Phase::Complete);
            } else {
                end_turn(s);
            }
        }
        REFILL => start_refill(s),
        Phase::Finish => {
            if !s.dice && may_hold_die_card(s.current()) {
                set_phase(s, Phase::Finish);
            } else {
                end_turn(s);
            }
        }
        other => set_phase(s, other),
    }
}

fn start_refill(s: &mut RaidersState) {
    if s.stack != 0 {
        set_phase(s, Phase::RefillTile);
    } else {
        refill_tools(s);
    }
}

fn refill_tools(s: &mut RaidersState) {
    let n = components().tools_per_column.min(bag_total(s));
    if n > 0 {
        s.phase = Phase::RefillTool;
        s.draws = n as u8;
        s.resume = None;
    } else {
        s.column = None;
        enter(s, Phase::Finish);
    }
}

fn apply_face(s: &mut RaidersState, face: u8) {
    s.die = Some(face);
    s.phase = Phase::Action;
    match face {
        FACE_TOOL => {
            if bag_total(s) > 0 {
                s.phase = Phase::Draw;
                s.draws = 1;
                s.resume = Some(Phase::Action);
            }
        }
        FACE_TORCH => {
            for seat in 0..s.n_players() {
                update_player(s, seat, |p| p.torch = !p.torch);
            }
        }
        _ => s.coin_bonus = 1,
    }
}

fn after_tools_gained(s: &mut RaidersState) {
    if s.current().n_tools() > components().backpack_size {
        s.phase = Phase::DiscardTool;
        s.draws = 0;
    } else {
        match s.resume {
            Some(phase) => enter(s, phase),
            None => set_phase(s, Phase::Action),
        }
    }
}

/// Diceless: discard a Die card (back into the deck) for one effect.
fn use_die_card(s: &mut RaidersState, effect: u8) {
    let seat = usize::from(s.seat);
    let mut card = None;
    update_player(s, seat, |p| {
        card = take_die_card(p);
        if effect == FACE_TORCH {
            p.torch = true;
        }
    });
    if let Some(j) = card {
        s.deck |= 1u64 << j;
    }
    let phase = s.phase;
    match effect {
        FACE_TOOL => {
            let n = components().diceless_tools.min(bag_total(s));
            s.phase = Phase::Draw;
            s.draws = n as u8;
            s.resume = Some(phase);
        }
        FACE_TORCH => enter(s, phase),
        _ => {
            s.coin_bonus += 1;
            enter(s, phase);
        }
    }
}

fn complete(s: &mut RaidersState, tile: usize, option: usize) {
    let c = components();
    let seat = usize::from(s.seat);
    let mut pay = c.tile_cost[tile];
    if option > 0 {
        pay[option - 1] -= 1;
    }
    add_tools(&mut s.bag, &pay);
    let coin_bonus = i32::from(s.coin_bonus);
    let mut completed_now = 0;
    update_player(s, seat, |p| {
        if option > 0 {
            p.torch = false;
        }
        remove_tools(&mut p.tools, &pay);
        p.prepared &= !(1u64 << tile);
        p.completed = p.completed.pushed(tile as u8);
        let favourite = c.board_favourite[usize::from(p.board)];
        let gained = visible_coins(p.n_prepared(), p.completed.as_slice())
            + i32::from(pay[favourite])
            + coin_bonus;
        p.points += gained;
        completed_now = p.completed.len();
    });
    s.done += 1;
    s.ending = s.ending || completed_now >= c.end_trigger;
    enter(s, Phase::Complete);
}

fn prepare(s: &mut RaidersState, column: usize) {
    let c = components();
    let seat = usize::from(s.seat);
    let tile = s.hq_tiles[column];
    let hq_tools = s.hq_tools[column];
    let mut over_tiles = false;
    let mut over_tools = false;
    update_player(s, seat, |p| {
        if let Some(i) = tile {
            p.prepared |= 1u64 << i;
        }
        add_tools(&mut p.tools, &hq_tools);
        over_tiles = p.n_prepared() > c.max_prepared;
        over_tools = p.n_tools() > c.backpack_size;
    });
    s.hq_tools[column] = [0; super::components::MAX_TOOL_TYPES];
    s.hq_tiles[column] = None;
    s.column = Some(column as u8);
    if over_tiles {
        s.phase = Phase::DiscardTile;
        s.resume = Some(REFILL);
    } else if over_tools {
        s.phase = Phase::DiscardTool;
        s.resume = Some(REFILL);
    } else {
        start_refill(s);
    }
}

/// The state after `action` (a legal decision or a possible chance outcome).
///
/// `action` must be legal in `s` (as in the Python engine, `apply` does no validation; parse
/// untrusted moves with the notation functions, which check legality).
pub fn apply(s: &RaidersState, action: Action) -> RaidersState {
    let mut next = s.clone();
    step(&mut next, action);
    next
}

fn step(s: &mut RaidersState, action: Action) {
    let a = layout();
    let arg = a.arg(action);
    let seat = usize::from(s.seat);
    match a.kind(action) {
        ActionKind::DrawTool => {
            s.bag[arg] -= 1;
            s.draws = s.draws.saturating_sub(1);
            if s.phase == Phase::RefillTool {
                if let Some(col) = s.column {
                    s.hq_tools[usize::from(col)][arg] += 1;
                }
                if s.draws == 0 {
                    s.column = None;
                    enter(s, Phase::Finish);
                }
                return;
            }
            update_player(s, seat, |p| p.tools[arg] += 1);
            if s.draws > 0 && bag_total(s) > 0 {
                return;
            }
            after_tools_gained(s);
        }
        ActionKind::Complete => complete(s, arg, a.arg2(action)),
        ActionKind::Stop => end_turn(s),
        ActionKind::Prepare => prepare(s, arg),
        ActionKind::TakeRow => {
            if let Some(card) = s.row[arg] {
                update_player(s, seat, |p| p.known |= 1u64 << card);
            }
            s.row[arg] = None;
            if s.deck != 0 {
                s.phase = Phase::RevealCard;
                s.column = Some(arg as u8);
            } else {
                enter(s, Phase::Complete);
            }
        }
        ActionKind::RevealCard => {
            s.deck &= !(1u64 << arg);
            if s.phase == Phase::BlindCard {
                update_player(s, seat, |p| p.blind |= 1u64 << arg);
            } else {
                if let Some(slot) = s.column {
                    s.row[usize::from(slot)] = Some(arg as u8);
                }
                s.column = None;
            }
            enter(s, Phase::Complete);
        }
        ActionKind::TakeDeck => s.phase = Phase::BlindCard,
        ActionKind::NoCard => enter(s, Phase::Complete),
        ActionKind::RevealTile => {
            if let Some(col) = s.column {
                s.hq_tiles[usize::from(col)] = Some(arg as u8);
            }
            s.stack &= !(1u64 << arg);
            refill_tools(s);
        }
        ActionKind::DiscardTool => {
            s.bag[arg] += 1;
            update_player(s, seat, |p| p.tools[arg] -= 1);
            if s.current().n_tools() > components().backpack_size {
                return;
            }
            match s.resume {
                Some(phase) => enter(s, phase),
                None => set_phase(s, Phase::Action),
            }
        }
        ActionKind::DiscardTile => {
            update_player(s, seat, |p| p.prepared &= !(1u64 << arg));
            s.removed_tiles |= 1u64 << arg;
            if s.current().n_tools() > components().backpack_size {
                s.phase = Phase::DiscardTool;
            } else {
                start_refill(s);
            }
        }
        ActionKind::RollFace => {
            if may_hold_die_card(s.current()) {
                s.die = Some(arg as u8);
                s.phase = Phase::DieCard;
            } else {
                apply_face(s, arg as u8);
            }
        }
        ActionKind::KeepRoll => apply_face(s, s.die.unwrap_or(FACE_TOOL)),
        ActionKind::DieCard => {
            if s.dice {
                let mut card = None;
                update_player(s, seat, |p| card = take_die_card(p));
                if let Some(j) = card {
                    s.removed_cards |= 1u64 << j;
                }
                apply_face(s, arg as u8);
            } else {
                use_die_card(s, arg as u8);
            }
        }
    }
}
