//! Rule consistency of a decoded LEDA state: knowledge, and pending work a round can reach —
//! the twin of `engine/leda/validation.py`, run by [`super::codec::state_from_json`] after the
//! format checks, in Python's order and with its paths and wording.
//!
//! Every check of `validation.py`: knowledge; a finished game; victory conditions; the bottom
//! frame; queued specials; the round counters — zone, Military, the P4 block, the Action pile
//! between rounds; each frame's consistency; the zone offered; the round skeleton; an automatic
//! frame on top; and last, a decision on top that offers no legal action
//! ([`super::rules::legal_actions`]).

use super::board::has_won;
use super::data::{
    is_cat_rotating, ACTION_TILE_BASE, ACTION_TILE_ZONES, CATS, CLAN_NAMES, EFFECTS, ITEM_NAMES,
    OP_OR, PANDAS,
};
use super::frames::{
    is_automatic, FRAME_NAMES, F_ACTIVATE, F_ACT_TILE, F_AWAKEN, F_CONFLICT, F_COPY, F_DESERT_FX,
    F_MULLIGAN, F_OR, F_ORG, F_PAY, F_QUEEN, F_RINGS, F_RING_REVEAL, F_RING_ROTATE, F_ROTATE_CARD,
    F_ROUND, F_ROUND_END, F_SEARCH_RING, F_SHUFFLE, F_SPY_PUT, F_STEP, F_STEP_END, F_UPGRADE,
    F_ZONE, PILE_ACTIONS, PILE_DECK, SHUFFLE_DECK,
};
use super::rules::{legal_actions, shuffle_size};
use super::state::{Frame, ItemSet, LedaState};
use crate::jsonread::{JsonError, JsonResult, Reader};
use crate::pyrepr::str_repr;

/// An error at `parent.key` (or `parent.key`'s own error when it is missing).
fn fail_field(parent: &Reader, key: &str, reason: &str) -> JsonError {
    match parent.get(key) {
        Ok(r) => r.fail(reason),
        Err(e) => e,
    }
}

fn fail_path(path: String, reason: impl Into<String>) -> JsonError {
    JsonError {
        path,
        reason: reason.into(),
    }
}

/// Fail unless `state` is reachable under the rules (paths under `root`).
pub fn check_state(state: &LedaState, root: &Reader) -> JsonResult<()> {
    check_knowledge(state, root)?;
    check_phase(state, root)
}

fn bytes_set(items: &[u8]) -> ItemSet {
    let mut set = ItemSet::EMPTY;
    for &x in items {
        set.insert(usize::from(x));
    }
    set
}

/// Known items must lie in zones hidden from that seat (not its own hand).
fn check_knowledge(state: &LedaState, root: &Reader) -> JsonResult<()> {
    let common = bytes_set(state.action_pile.as_bytes()).0 | bytes_set(state.mv_pile.as_bytes()).0;
    for seat in 0..2 {
        let me = state.player(seat);
        let other = state.player(1 - seat);
        let allowed = common
            | bytes_set(me.deck.as_bytes()).0
            | bytes_set(other.deck.as_bytes()).0
            | bytes_set(other.hand.as_bytes()).0;
        for item in state.known[seat].iter() {
            if allowed >> item & 1 == 0 {
                // A view's knowledge comes from its hidden parts and has no "knows" field.
                let player = format!("{}.players[{seat}]", root.path());
                let has_knows = root
                    .get("players")
                    .ok()
                    .and_then(|p| p.value().get(seat).map(|v| v.get("knows").is_some()))
                    .unwrap_or(false);
                let path = if has_knows {
                    format!("{player}.knows")
                } else {
                    player
                };
                let reason = format!(
                    "{} is not in a zone hidden from this seat",
                    str_repr(ITEM_NAMES[item])
                );
                return Err(fail_path(path, reason));
            }
        }
    }
    Ok(())
}

fn has(stack: &[Frame], kind: u8, seat: usize) -> bool {
    stack
        .iter()
        .any(|f| f.kind == kind && usize::from(f.seat) == seat && f.args().is_empty())
}

/// True for a pending decision that activates a square, tile or card when taken.
fn activates(frame: &Frame) -> bool {
    matches!(frame.kind, F_ACT_TILE | F_DESERT_FX | F_COPY | F_QUEEN)
        || (frame.kind == F_UPGRADE && frame.args()[0] == 1)
}

/// Decisions only one clan's own cards or rules can ask for.
fn clan_of_frame(kind: u8) -> Option<usize> {
    match kind {
        F_COPY | F_SEARCH_RING | F_RING_REVEAL | F_RING_ROTATE | F_RINGS | F_PAY => Some(CATS),
        F_AWAKEN => Some(PANDAS),
        _ => None,
    }
}

/// Every "A or B" an effect can offer.
fn or_choice(a: i32, b: i32) -> bool {
    EFFECTS.iter().any(|e| {
        e.ops
            .iter()
            .any(|op| op.kind == OP_OR && op.args[0] == a && op.args[1] == b)
    })
}

fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// The pending frames must describe a reachable point of a round.
fn check_phase(state: &LedaState, root: &Reader) -> JsonResult<()> {
    let pending = root.get("pending")?;
    let frame_path = |i: usize| format!("{}[{i}]", pending.path());
    let player_path = |seat: usize| format!("{}.players[{seat}]", root.path());
    let stack = &state.stack;
    if let Ok(winner) = usize::try_from(state.winner) {
        if !stack.is_empty() {
            return Err(pending.fail("a finished game has no pending work"));
        }
        if !has_won(state.player(winner)) {
            return Err(fail_field(
                root,
                "winner",
                "the winner meets no victory condition",
            ));
        }
        return Ok(());
    }
    for seat in 0..2 {
        if has_won(state.player(seat)) {
            return Err(fail_path(
                player_path(seat),
                "this player meets a victory condition but the game is not over",
            ));
        }
    }
    let Some(bottom) = stack.first() else {
        return Err(pending.fail("a game in progress needs pending work"));
    };
    if !matches!(bottom.kind, F_ROUND | F_ROUND_END) {
        return Err(fail_path(
            frame_path(0),
            "the bottom frame must be a round or round-end frame",
        ));
    }
    if bottom.kind == F_ROUND_END && state.revealed.is_empty() {
        return Err(fail_field(
            root,
            "revealed_actions",
            "a round in progress has a revealed tile",
        ));
    }
    for seat in 0..2 {
        if state.player(seat).specials > 0 && !has(stack, F_STEP_END, seat) {
            return Err(fail_path(
                format!("{}.specials", player_path(seat)),
                "special activations wait only during that player's activation step",
            ));
        }
    }
    let has_zone_choice = stack.iter().any(|f| f.kind == F_ZONE);
    check_round_counters(state, root, has_zone_choice)?;
    let active = usize::from(state.active);
    for (i, frame) in stack.iter().enumerate() {
        let kind = frame.kind;
        let seat = usize::from(frame.seat);
        let args = frame.args();
        let player = state.player(seat);
        if matches!(kind, F_ROUND | F_ROUND_END) && seat != active {
            return Err(fail_path(
                format!("{}.seat", frame_path(i)),
                "round frames belong to the active player",
            ));
        }
        if kind == F_ZONE
            && state
                .revealed
                .last()
                .map_or(true, |t| i64::from(args[0]) != t as i64)
        {
            return Err(fail_path(
                frame_path(i),
                "the zone choice must be for the last revealed tile",
            ));
        }
        if kind == F_ZONE && state.zone >= 0 {
            return Err(fail_field(
                root,
                "zone",
                "no zone is chosen while the choice is pending",
            ));
        }
        if matches!(kind, F_STEP | F_ACTIVATE) && state.zone < 0 && !has_zone_choice {
            return Err(fail_field(
                root,
                "zone",
                "an activation step needs a chosen zone",
            ));
        }
        if kind == F_OR && !or_choice(args[0], args[1]) {
            return Err(fail_path(
                format!("{}.args", frame_path(i)),
                "no effect offers this choice of two effects",
            ));
        }
        if kind == F_ROTATE_CARD
            && !player
                .grid
                .iter()
                .any(|sq| sq.cards.contains(args[0] as usize))
        {
            return Err(fail_path(
                frame_path(i),
                "the card to turn is not on that player's grid",
            ));
        }
        if activates(frame) && !has(stack, F_STEP_END, seat) {
            return Err(fail_path(
                frame_path(i),
                "activations happen only in that player's activation step",
            ));
        }
        if kind == F_PAY
            && (args[0] as usize > player.hand.len()
                || stack[i + 1..].iter().any(|f| f.kind == F_PAY))
        {
            return Err(fail_path(
                frame_path(i),
                "one card play is paid at a time, from the hand it holds",
            ));
        }
        if kind == F_ROTATE_CARD && !is_cat_rotating(args[0] as usize) {
            return Err(fail_path(
                frame_path(i),
                "only a rotating Cat card can be turned",
            ));
        }
        if kind == F_ROTATE_CARD && usize::from(player.clan) != CATS {
            return Err(fail_path(frame_path(i), "only the Cats rotate cards"));
        }
        if let Some(clan) = clan_of_frame(kind) {
            if usize::from(player.clan) != clan {
                return Err(fail_path(
                    format!("{}.seat", frame_path(i)),
                    format!(
                        "only the {} make this decision",
                        capitalized(CLAN_NAMES[clan])
                    ),
                ));
            }
        }
        if kind == F_SPY_PUT {
            let pile_len = match args[0] {
                PILE_DECK => player.deck.len(),
                PILE_ACTIONS => state.action_pile.len(),
                _ => state.mv_pile.len(),
            };
            if pile_len == 0 {
                return Err(fail_path(
                    frame_path(i),
                    "nothing was spied on an empty pile",
                ));
            }
        }
        if kind == F_MULLIGAN && !state.revealed.is_empty() {
            return Err(fail_path(
                frame_path(i),
                "mulligans happen before the first round",
            ));
        }
        if kind == F_SHUFFLE && i != stack.len() - 1 {
            return Err(fail_path(
                frame_path(i),
                "a shuffle is always the top frame",
            ));
        }
    }
    if let (Ok(zone), Some(last)) = (usize::try_from(state.zone), state.revealed.last()) {
        if !ACTION_TILE_ZONES[last - ACTION_TILE_BASE].contains(&zone) {
            return Err(fail_field(
                root,
                "zone",
                "the zone is not offered by the last revealed tile",
            ));
        }
    }
    check_skeleton(state, &pending)?;
    let top = stack.len() - 1;
    if is_automatic(stack[top].kind) {
        return Err(fail_path(
            frame_path(top),
            "the top frame must wait for a decision",
        ));
    }
    if stack[top].kind == F_SHUFFLE && shuffle_size(state) < 2 {
        return Err(fail_path(
            frame_path(top),
            format!(
                "a shuffle orders at least 2 items (the rules shuffle no smaller pile), \
                 this pile holds {}",
                shuffle_size(state)
            ),
        ));
    }
    if stack[top].kind != F_SHUFFLE {
        let mut legal = Vec::new();
        legal_actions(state, &mut legal);
        if legal.is_empty() {
            return Err(fail_path(
                frame_path(top),
                "the decision on top offers no legal action",
            ));
        }
    }
    Ok(())
}

/// Zone, Military, the P4 block and the Action pile must fit the point of the round.
fn check_round_counters(state: &LedaState, root: &Reader, has_zone_choice: bool) -> JsonResult<()> {
    let stack = &state.stack;
    let between = stack[0].kind == F_ROUND;
    if between {
        if state.zone >= 0 {
            return Err(fail_field(root, "zone", "no zone is chosen between rounds"));
        }
        if state.action_pile.len() < 2 {
            return Err(fail_field(
                root,
                "action_pile",
                "a round starts with at least 2 Action tiles in the pile (else they are shuffled)",
            ));
        }
    }
    for seat in 0..2 {
        if state.player(seat).military > 0
            && (between || has_zone_choice || has(stack, F_STEP, seat))
        {
            return Err(fail_path(
                format!("{}.players[{seat}].military", root.path()),
                "Military is gained only once that player's activation step has begun",
            ));
        }
    }
    let active = usize::from(state.active);
    if state.blocked && (between || has_zone_choice || has(stack, F_STEP, active)) {
        return Err(fail_field(
            root,
            "mv_blocked",
            "no Portal can have blocked a round not yet activated",
        ));
    }
    Ok(())
}

/// Frames laid out by the round itself (never pushed by an effect).
fn is_skeleton(kind: u8) -> bool {
    matches!(
        kind,
        F_ROUND
            | F_ROUND_END
            | F_MULLIGAN
            | F_ZONE
            | F_STEP
            | F_STEP_END
            | F_ACTIVATE
            | F_CONFLICT
            | F_ORG
    )
}

/// The round's own frames must be what is left, in order, of the layout the round made.
fn check_skeleton(state: &LedaState, pending: &Reader) -> JsonResult<()> {
    let stack = &state.stack;
    let frame_path = |i: usize| format!("{}[{i}]", pending.path());
    let a = state.active;
    let o = 1 - a;
    let between = stack[0].kind == F_ROUND;
    let layout: &[(u8, u8)] = if between {
        &[(F_MULLIGAN, o), (F_MULLIGAN, a)]
    } else {
        &[
            (F_ORG, o),
            (F_ORG, a),
            (F_CONFLICT, a),
            (F_STEP, o),
            (F_STEP, a),
            (F_ZONE, a),
        ]
    };
    let (mut i, mut j) = (1, 0);
    while i < stack.len() && j < layout.len() {
        let (kind, seat) = (stack[i].kind, stack[i].seat);
        if layout[j].0 == F_STEP && (kind, seat) == (F_STEP_END, layout[j].1) {
            i += 1; // this step has begun: every later frame of the layout is done
            if i < stack.len() && (stack[i].kind, stack[i].seat) == (F_ACTIVATE, seat) {
                i += 1;
            }
            break;
        }
        if (kind, seat) != layout[j] {
            break;
        }
        if kind == F_ZONE && i != stack.len() - 1 {
            return Err(fail_path(
                frame_path(i + 1),
                "nothing happens before the zone is chosen",
            ));
        }
        i += 1;
        j += 1;
    }
    for (k, frame) in stack.iter().enumerate().skip(i) {
        let kind = frame.kind;
        if is_skeleton(kind) || (between && kind != F_SHUFFLE) {
            return Err(fail_path(
                frame_path(k),
                format!(
                    "a {} frame is out of place here",
                    str_repr(FRAME_NAMES[usize::from(kind)])
                ),
            ));
        }
        if kind == F_SHUFFLE {
            let what = frame.args()[0];
            if between == (what == SHUFFLE_DECK) || (between && !state.revealed.is_empty()) {
                return Err(fail_path(
                    frame_path(k),
                    "this shuffle cannot happen at this point",
                ));
            }
        }
    }
    Ok(())
}
