//! Consistency checks of a decoded state (the twin of `validation.py`); each failure names the
//! JSON path and the reason, in the Python engine's order.
//!
//! Only public facts are used for checks that involve hidden cards, so an observer's view
//! (with placeholder cards) validates exactly when the full state does.

use super::bounds::bounds;
use super::components::{components, FACE_COIN, FACE_TOOL};
use super::rules::{can_complete_any, can_reach_end, may_hold_die_card};
use super::state::{tool_sum, Phase, PlayerState, RaidersState, REFILL};
use crate::jsonread::{JsonError, JsonResult};

/// The die's Tool face draws one tool.
const DICE_TOOL_DRAWS: usize = 1;

fn fail(path: impl Into<String>, reason: impl Into<String>) -> JsonError {
    JsonError {
        path: path.into(),
        reason: reason.into(),
    }
}

/// The largest per-discovery bonus a turn can give: the die shows one face; without the die
/// each Die card used adds 1, and a returned one may be drawn and used again.
pub fn max_coin_bonus(dice: bool) -> i32 {
    if dice {
        1
    } else {
        bounds().coin_bonus_max as i32
    }
}

fn completed_coins_from(k: usize) -> i32 {
    components()
        .completed_coins_from
        .get(k)
        .copied()
        .unwrap_or(0)
}

/// The fewest points the player's completed tiles can have scored, in their order.
pub fn min_points(p: &PlayerState) -> i32 {
    let c = components();
    let mut total = 0;
    let mut places = 0;
    for (k, &tile) in p.completed.as_slice().iter().enumerate() {
        places += c.tile_coins[usize::from(tile)];
        // At least one discovery space is empty right after a completion.
        total += c.coins_per_empty_space + places + completed_coins_from(k + 1);
    }
    total
}

/// The most points the player's completed tiles can have scored, in their order.
pub fn max_points(p: &PlayerState, dice: bool) -> i32 {
    let c = components();
    let favourite = c.board_favourite[usize::from(p.board)];
    let mut total = 0;
    let mut places = 0;
    for (k, &tile) in p.completed.as_slice().iter().enumerate() {
        places += c.tile_coins[usize::from(tile)];
        total += c.discovery_spaces as i32 * c.coins_per_empty_space
            + places
            + completed_coins_from(k + 1)
            + i32::from(c.tile_cost[usize::from(tile)][favourite])
            + max_coin_bonus(dice);
    }
    total
}

/// The most tools the player to move may hold in this phase (over the backpack only while
/// gaining).
pub fn tool_limit(s: &RaidersState) -> usize {
    let c = components();
    let per_draw_step = if s.dice {
        DICE_TOOL_DRAWS
    } else {
        c.diceless_tools
    } as i64;
    let gained: i64 = match s.phase {
        Phase::Draw => per_draw_step - i64::from(s.draws),
        Phase::DiscardTile => c.tools_per_column as i64,
        Phase::DiscardTool if s.resume == Some(REFILL) => c.tools_per_column as i64,
        Phase::DiscardTool => per_draw_step,
        _ => 0,
    };
    c.backpack_size + gained.max(0) as usize
}

fn check_tools(s: &RaidersState) -> JsonResult<()> {
    let c = components();
    for (t, tool) in c.tool_ids.iter().enumerate() {
        let total = usize::from(s.bag[t])
            + s.players
                .iter()
                .map(|p| usize::from(p.tools[t]))
                .sum::<usize>()
            + s.hq_tools[..c.hq_columns]
                .iter()
                .map(|h| usize::from(h[t]))
                .sum::<usize>();
        if total != usize::from(c.tool_counts[t]) {
            return Err(fail(
                "$.bag",
                format!(
                    "{tool}: {total} tokens in the game (players, HQ and bag), expected {}",
                    c.tool_counts[t]
                ),
            ));
        }
    }
    Ok(())
}

fn check_players(s: &RaidersState) -> JsonResult<()> {
    let c = components();
    for (seat, p) in s.players.iter().enumerate() {
        let at = |field: &str| format!("$.players[{seat}].{field}");
        let current = seat == usize::from(s.seat) && s.phase != Phase::Over;
        let n_tools = tool_sum(&p.tools);
        if current && s.phase == Phase::DiscardTool && n_tools <= c.backpack_size {
            return Err(fail(
                at("tools"),
                "a tool discard is pending but the backpack is not over its limit",
            ));
        }
        let limit = if current {
            tool_limit(s)
        } else {
            c.backpack_size
        };
        if n_tools > limit {
            return Err(fail(
                at("tools"),
                format!("{n_tools} tools, at most {limit} allowed"),
            ));
        }
        if current && s.phase == Phase::DiscardTile {
            if p.n_prepared() != c.max_prepared + 1 {
                return Err(fail(
                    at("prepared"),
                    "a tile discard is pending but the player does not hold one tile too many",
                ));
            }
        } else if p.n_prepared() > c.max_prepared {
            return Err(fail(
                at("prepared"),
                format!("at most {} prepared tiles", c.max_prepared),
            ));
        }
        let least = min_points(p);
        if p.points < least {
            return Err(fail(
                at("points"),
                format!("the completed tiles score at least {least} points"),
            ));
        }
        let most = max_points(p, s.dice);
        if p.points > most {
            return Err(fail(
                at("points"),
                format!("the completed tiles score at most {most} points"),
            ));
        }
    }
    Ok(())
}

fn check_turn(s: &RaidersState, column: Option<u8>, row_slot: Option<u8>) -> JsonResult<()> {
    let c = components();
    let phase = s.phase;
    let p = s.current();
    let n = s.n_players();
    if s.dice && phase == Phase::Finish {
        return Err(fail(
            "$.turn.phase",
            "the finish step exists only in the diceless variant",
        ));
    }
    if !s.dice && matches!(phase, Phase::Roll | Phase::DieCard) {
        return Err(fail(
            "$.turn.phase",
            "there is no die in the diceless variant",
        ));
    }
    // The die.
    if !s.dice || matches!(phase, Phase::Roll | Phase::Over) {
        if s.die.is_some() {
            return Err(fail("$.turn.die", "must be null now"));
        }
    } else if s.die.is_none() {
        return Err(fail("$.turn.die", "the die has been rolled: name its face"));
    }
    // The coin bonus.
    if s.dice {
        let want = u8::from(
            s.die == Some(FACE_COIN)
                && !matches!(phase, Phase::Roll | Phase::DieCard | Phase::Over),
        );
        if s.coin_bonus != want {
            return Err(fail(
                "$.turn.coin_bonus",
                format!("must be {want} with this die face and phase"),
            ));
        }
    } else if phase == Phase::Over && s.coin_bonus != 0 {
        return Err(fail("$.turn.coin_bonus", "must be 0 once the game is over"));
    } else if i32::from(s.coin_bonus) > max_coin_bonus(false) {
        return Err(fail(
            "$.turn.coin_bonus",
            format!(
                "at most {}: one per Die card used this turn",
                max_coin_bonus(false)
            ),
        ));
    }
    // Completions this turn.
    if s.done > 0 {
        let completing = phase == Phase::Complete
            || (matches!(phase, Phase::Draw | Phase::DiscardTool)
                && s.resume == Some(Phase::Complete));
        if !completing {
            return Err(fail(
                "$.turn.completed_this_turn",
                "completions happen only during an expedition",
            ));
        }
        if usize::from(s.done) > p.completed.len() {
            return Err(fail(
                "$.turn.completed_this_turn",
                "more than the player's completed tiles",
            ));
        }
    }
    // What comes next.
    let allowed_resume: &[Phase] = match phase {
        Phase::Draw if s.dice => &[Phase::Action],
        Phase::Draw => &[Phase::Action, Phase::Complete, Phase::Finish],
        Phase::DiscardTool if s.dice => &[Phase::Action, REFILL],
        Phase::DiscardTool => &[Phase::Action, Phase::Complete, Phase::Finish, REFILL],
        Phase::DiscardTile => &[REFILL],
        _ => &[],
    };
    let resume_fits = match s.resume {
        None => allowed_resume.is_empty(),
        Some(r) => allowed_resume.contains(&r),
    };
    if !resume_fits {
        return Err(fail("$.turn.then", "does not fit the phase"));
    }
    let tool_face_step =
        phase == Phase::Draw || (phase == Phase::DiscardTool && s.resume == Some(Phase::Action));
    if s.dice && tool_face_step && s.die != Some(FACE_TOOL) {
        return Err(fail(
            "$.turn.die",
            "a tool is drawn only when the die shows the tool",
        ));
    }
    if s.dice && phase == Phase::Draw && usize::from(s.draws) != DICE_TOOL_DRAWS {
        return Err(fail(
            "$.turn.tool_draws_left",
            format!("the die's Tool face draws {DICE_TOOL_DRAWS}"),
        ));
    }
    // Tool draws.
    let bag = tool_sum(&s.bag);
    if matches!(phase, Phase::Draw | Phase::RefillTool) {
        if !(1..=bag).contains(&usize::from(s.draws)) {
            return Err(fail(
                "$.turn.tool_draws_left",
                "must be between 1 and the tools in the bag",
            ));
        }
    } else if s.draws > 0 {
        return Err(fail("$.turn.tool_draws_left", "must be 0 in this phase"));
    }
    // The HQ column being taken and refilled.
    let hq_phase = matches!(
        phase,
        Phase::DiscardTile | Phase::RefillTile | Phase::RefillTool
    ) || (phase == Phase::DiscardTool && s.resume == Some(REFILL));
    if hq_phase != column.is_some() {
        return Err(fail(
            "$.turn.column",
            if hq_phase {
                "names the HQ column being refilled"
            } else {
                "must be null in this phase"
            },
        ));
    }
    if let (true, Some(col)) = (hq_phase, column) {
        let col = usize::from(col);
        if phase != Phase::RefillTool
            && (s.hq_tiles[col].is_some() || tool_sum(&s.hq_tools[col]) > 0)
        {
            return Err(fail("$.turn.column", "this HQ column is not empty"));
        }
        if phase == Phase::RefillTool {
            // The refill draws 2 tools, or all the bag held when it started.
            let placed = tool_sum(&s.hq_tools[col]);
            let want = c.tools_per_column.min(bag + placed);
            if placed + usize::from(s.draws) != want {
                return Err(fail(
                    "$.turn.tool_draws_left",
                    format!(
                        "the column gets {want} tools: {} still to draw",
                        want as i64 - placed as i64
                    ),
                ));
            }
        }
    }
    if (phase == Phase::RevealCard) != row_slot.is_some() {
        return Err(fail(
            "$.turn.row_slot",
            "names the face-up slot being refilled only while a card is revealed",
        ));
    }
    if let (Phase::RevealCard, Some(slot)) = (phase, row_slot) {
        if s.row[usize::from(slot)].is_some() {
            return Err(fail("$.turn.row_slot", "this face-up slot is not empty"));
        }
    }
    if phase == Phase::RefillTile && s.stack == 0 {
        return Err(fail("$.turn.phase", "the Discovery stack is empty"));
    }
    if matches!(phase, Phase::RevealCard | Phase::BlindCard) && s.deck == 0 {
        return Err(fail("$.turn.phase", "the Expedition deck is empty"));
    }
    if matches!(phase, Phase::DieCard | Phase::Finish) && !may_hold_die_card(p) {
        return Err(fail("$.turn.phase", "the player cannot hold a Die card"));
    }
    if phase == Phase::Complete
        && !((usize::from(s.done) < c.completions_per_turn && can_complete_any(p))
            || (!s.dice && may_hold_die_card(p)))
    {
        return Err(fail(
            "$.turn.phase",
            "nothing can be completed: the turn would be over",
        ));
    }
    if phase != Phase::Over && p.completed.len() >= c.end_trigger + usize::from(s.done) {
        return Err(fail(
            format!("$.players[{}].completed", s.seat),
            format!(
                "{} discoveries completed before this turn: the round that followed would have \
                 ended the game before this player's turn",
                c.end_trigger
            ),
        ));
    }
    if phase == Phase::Over {
        if !s.ending {
            return Err(fail(
                "$.end_triggered",
                "the game is over but its end was not triggered",
            ));
        }
        if (usize::from(s.seat) + 1) % n != usize::from(s.first) {
            return Err(fail(
                "$.turn.player",
                "the game ends after the last player of the round",
            ));
        }
    }
    Ok(())
}

/// Die cards everyone can see: in the face-up row or taken from it.
fn visible_die_cards(s: &RaidersState) -> usize {
    let die = components().die_card_mask;
    let in_row = s
        .row
        .iter()
        .flatten()
        .filter(|&&j| die & (1u64 << j) != 0)
        .count();
    let taken: usize = s
        .players
        .iter()
        .map(|p| (p.known & die).count_ones() as usize)
        .sum();
    in_row + taken
}

/// Die cards in the blind hands the document lists (a view lists only its observer's):
/// `listed_blind[seat]` tells whether seat's `cards_blind` is a JSON list.
fn listed_blind_die_cards(s: &RaidersState, listed_blind: &[bool]) -> usize {
    let die = components().die_card_mask;
    s.players
        .iter()
        .zip(listed_blind)
        .filter(|(_, &listed)| listed)
        .map(|(p, _)| (p.blind & die).count_ones() as usize)
        .sum()
}

fn check_board(
    s: &RaidersState,
    column: Option<u8>,
    deck_order: Option<&[usize]>,
    listed_blind: &[bool],
) -> JsonResult<()> {
    let c = components();
    for col in 0..c.hq_columns {
        if s.hq_tiles[col].is_none() && s.stack != 0 && column != Some(col as u8) {
            return Err(fail(
                format!("$.hq[{col}].tile"),
                "empty while the Discovery stack still has tiles",
            ));
        }
    }
    for k in 0..c.face_up_cards {
        let refilling = s.phase == Phase::RevealCard && s.column == Some(k as u8);
        if s.row[k].is_none() && s.deck != 0 && !refilling {
            if s.dice {
                return Err(fail(
                    format!("$.row[{k}]"),
                    "empty while the Expedition deck still has cards",
                ));
            }
            // Diceless: a slot stays empty once the deck ran out; after that only used Die
            // cards go back into the deck (counted from public facts, as views hide the deck).
            if let Some(order) = deck_order {
                if let Some(i) = order.iter().position(|&j| c.die_card_mask >> j & 1 == 0) {
                    return Err(fail(
                        format!("$.deck[{i}]"),
                        "a face-up slot is empty, so the deck holds only used Die cards",
                    ));
                }
            }
            // A view hides the deck: count the Die cards it can still hold from what is listed.
            let unseen_die = c.n_die_cards as i64
                - visible_die_cards(s) as i64
                - listed_blind_die_cards(s, listed_blind) as i64;
            if i64::from(s.deck.count_ones()) > unseen_die {
                return Err(fail(
                    "$.deck",
                    format!(
                        "a face-up slot is empty, so the deck holds only used Die cards: at most \
                         {unseen_die}"
                    ),
                ));
            }
        }
    }
    if s.removed_cards != 0 {
        if !s.dice {
            return Err(fail(
                "$.removed_cards",
                "Die cards return to the deck in the diceless variant",
            ));
        }
        let not_die = s.removed_cards & !c.die_card_mask;
        if not_die != 0 {
            let j = not_die.trailing_zeros() as usize;
            return Err(fail(
                "$.removed_cards",
                format!("{} is not a Die card", c.card_ids[j]),
            ));
        }
    }
    check_end_trigger(s)?;
    let before_action = matches!(s.phase, Phase::Roll | Phase::DieCard | Phase::Action)
        || (matches!(s.phase, Phase::Draw | Phase::DiscardTool) && s.resume == Some(Phase::Action));
    if s.ending && usize::from(s.seat) == usize::from(s.first) && before_action {
        // Only a completion during this turn could have triggered the end now; an earlier
        // trigger finished the round before the first player's turn came again.
        return Err(fail(
            "$.end_triggered",
            "the round is over: the game should have ended",
        ));
    }
    Ok(())
}

/// `end_triggered` must agree with the completed tiles and who can still reach the trigger.
///
/// A trigger while someone can still reach it is refused even with no tile left to prepare
/// (the former idle-round ending wrote such states): the rules end the game only on the
/// trigger discovery or once it is out of everyone's reach. It is not recomputed instead, as
/// the out-of-reach trigger is set when a turn ends, so the flag is not a function of the state.
fn check_end_trigger(s: &RaidersState) -> JsonResult<()> {
    let c = components();
    let most = s
        .players
        .iter()
        .map(|p| p.completed.len())
        .max()
        .unwrap_or(0);
    if most >= c.end_trigger && !s.ending {
        return Err(fail(
            "$.end_triggered",
            format!("a player has completed {most} discoveries"),
        ));
    }
    if !s.ending || most >= c.end_trigger {
        return Ok(());
    }
    if let Some(seat) = s.players.iter().position(|p| can_reach_end(s, p)) {
        return Err(fail(
            "$.end_triggered",
            format!(
                "no player has completed {} discoveries and seat {seat} can still get there",
                c.end_trigger
            ),
        ));
    }
    Ok(())
}

/// Fail (with the JSON path) unless `s` is a possible state. `column` and `row_slot` are the
/// turn's `column` / `row_slot` fields as decoded (0-based); `deck_order` is the deck's cards
/// in the JSON list's order for a full state (`None` when the deck is a hidden count);
/// `listed_blind[seat]` tells whether the document lists that seat's blind hand (its
/// `cards_blind` is a list, not a hidden count: a view lists only its observer's hand).
pub fn check_state(
    s: &RaidersState,
    column: Option<u8>,
    row_slot: Option<u8>,
    deck_order: Option<&[usize]>,
    listed_blind: &[bool],
) -> JsonResult<()> {
    check_tools(s)?;
    check_players(s)?;
    check_turn(s, column, row_slot)?;
    check_board(s, column, deck_order, listed_blind)
}
