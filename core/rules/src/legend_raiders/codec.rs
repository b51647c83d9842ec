//! The JSON form of a state (docs/legend_raiders/state-format.md), the twin of `codec.py`.
//!
//! `state_to_json(s, observer)` hides what `observer` cannot know (the other players' blind
//! cards and the deck's contents) as counts. `state_from_json` accepts a full state or such a
//! view; hidden cards are filled canonically as placeholders (the lowest unseen card ids, seat
//! by seat, then the deck; Die cards first into a deck that can hold only used Die cards, see
//! [`super::knowledge::deal_hidden`]), and the state is validated by [`super::validation`].
//! Checks run in the Python engine's order, so the first problem reported is the same one.

use serde_json::{json, Map, Value};

use super::bounds::bounds;
use super::components::{components, Tools, FACE_KINDS, MAX_SLOTS, MAX_TOOL_TYPES};
use super::knowledge::deal_hidden;
use super::rules::{deck_holds_only_die_cards, visible_coins};
use super::scoring::{final_scores, winner};
use super::state::{
    bits, Phase, PlayerState, RaidersState, Seats, TileList, PHASES, PHASE_NAMES, REFILL,
};
use super::validation::check_state;
use crate::error::InvalidState;
use crate::jsonread::{JsonResult, Reader};
use crate::pyrepr::str_repr;

/// The game's name in the JSON (`game`).
pub const GAME_NAME: &str = "legend_raiders";

const ROOT_KEYS: [&str; 17] = [
    "game",
    "variant",
    "observer",
    "first_player",
    "turn",
    "end_triggered",
    "idle_turns",
    "players",
    "hq",
    "bag",
    "stack",
    "row",
    "deck",
    "removed_tiles",
    "removed_cards",
    "final_scores",
    "winner",
];
const PLAYER_KEYS: [&str; 11] = [
    "board",
    "character",
    "favourite",
    "tools",
    "torch_lit",
    "points",
    "coins_visible",
    "prepared",
    "completed",
    "cards_face_up",
    "cards_blind",
];
const TURN_KEYS: [&str; 9] = [
    "player",
    "phase",
    "die",
    "coin_bonus",
    "completed_this_turn",
    "column",
    "row_slot",
    "tool_draws_left",
    "then",
];
const RESUME_NAMES: [&str; 4] = ["action", "complete", "finish", "refill"];
const RESUME_PHASES: [Phase; 4] = [Phase::Action, Phase::Complete, Phase::Finish, REFILL];

fn resume_name(resume: Option<Phase>) -> Value {
    resume
        .and_then(|phase| RESUME_PHASES.iter().position(|p| *p == phase))
        .map_or(Value::Null, |i| Value::from(RESUME_NAMES[i]))
}

/// Tool counts as an object keyed by tool id.
pub fn tools_json(counts: &Tools) -> Value {
    let c = components();
    let map: Map<String, Value> = c
        .tool_ids
        .iter()
        .zip(counts)
        .map(|(id, &n)| (id.clone(), Value::from(n)))
        .collect();
    Value::Object(map)
}

fn tiles_json(items: impl Iterator<Item = usize>) -> Value {
    let c = components();
    Value::Array(items.map(|i| Value::from(c.tile_ids[i].as_str())).collect())
}

fn cards_json(mask: u64) -> Value {
    let c = components();
    Value::Array(
        bits(mask)
            .map(|j| Value::from(c.card_ids[j].as_str()))
            .collect(),
    )
}

/// The documented JSON form; with `observer`, hidden cards appear only as counts. Once the
/// game is over every hand has been revealed, so a view hides nothing.
pub fn state_to_json(s: &RaidersState, observer: Option<usize>) -> Value {
    let c = components();
    let hide_from = if s.phase == Phase::Over {
        None
    } else {
        observer
    };
    let players: Vec<Value> = s
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let board = usize::from(p.board);
            let blind = match hide_from {
                Some(obs) if obs != seat => Value::from(p.blind.count_ones()),
                _ => cards_json(p.blind),
            };
            json!({
                "board": board + 1,
                "character": c.character(board),
                "favourite": c.tool_ids[c.board_favourite[board]],
                "tools": tools_json(&p.tools),
                "torch_lit": p.torch,
                "points": p.points,
                "coins_visible": visible_coins(p.n_prepared(), p.completed.as_slice()),
                "prepared": tiles_json(bits(p.prepared)),
                "completed": tiles_json(p.completed.as_slice().iter().map(|&i| usize::from(i))),
                "cards_face_up": cards_json(p.known),
                "cards_blind": blind,
            })
        })
        .collect();
    let reveal = s.phase == Phase::RevealCard;
    let hq_column = match s.column {
        Some(col) if !reveal => Value::from(col + 1),
        _ => Value::Null,
    };
    let row_slot = match s.column {
        Some(slot) if reveal => Value::from(slot + 1),
        _ => Value::Null,
    };
    let mut out = Map::new();
    out.insert("game".into(), Value::from(GAME_NAME));
    out.insert(
        "variant".into(),
        Value::from(if s.dice { "dice" } else { "diceless" }),
    );
    if let Some(obs) = observer {
        out.insert("observer".into(), Value::from(obs));
    }
    out.insert("first_player".into(), Value::from(s.first));
    out.insert(
        "turn".into(),
        json!({
            "player": s.seat,
            "phase": s.phase.name(),
            "die": s.die.map_or(Value::Null, |f| Value::from(FACE_KINDS[usize::from(f)])),
            "coin_bonus": s.coin_bonus,
            "completed_this_turn": s.done,
            "column": hq_column,
            "row_slot": row_slot,
            "tool_draws_left": s.draws,
            "then": resume_name(s.resume),
        }),
    );
    out.insert("end_triggered".into(), Value::from(s.ending));
    out.insert("players".into(), Value::Array(players));
    let hq: Vec<Value> = (0..c.hq_columns)
        .map(|col| {
            json!({
                "tile": s.hq_tiles[col].map_or(Value::Null, |t| Value::from(c.tile_ids[usize::from(t)].as_str())),
                "tools": tools_json(&s.hq_tools[col]),
            })
        })
        .collect();
    out.insert("hq".into(), Value::Array(hq));
    out.insert("bag".into(), tools_json(&s.bag));
    out.insert("stack".into(), tiles_json(bits(s.stack)));
    let row: Vec<Value> = (0..c.face_up_cards)
        .map(|k| {
            s.row[k].map_or(Value::Null, |j| {
                Value::from(c.card_ids[usize::from(j)].as_str())
            })
        })
        .collect();
    out.insert("row".into(), Value::Array(row));
    out.insert(
        "deck".into(),
        if hide_from.is_some() {
            Value::from(s.deck.count_ones())
        } else {
            cards_json(s.deck)
        },
    );
    out.insert("removed_tiles".into(), tiles_json(bits(s.removed_tiles)));
    out.insert("removed_cards".into(), cards_json(s.removed_cards));
    if s.phase == Phase::Over {
        out.insert("final_scores".into(), json!(final_scores(s)));
        out.insert("winner".into(), Value::from(winner(s)));
    }
    Value::Object(out)
}

/// Where each tile and card was found while decoding, to report duplicates by path.
struct Places {
    tiles: Vec<Option<String>>,
    cards: Vec<Option<String>>,
}

impl Places {
    fn new() -> Self {
        let c = components();
        Self {
            tiles: vec![None; c.n_tiles()],
            cards: vec![None; c.n_cards()],
        }
    }

    fn tile(&mut self, r: &Reader<'_>) -> JsonResult<usize> {
        let c = components();
        let names: Vec<&str> = c.tile_ids.iter().map(String::as_str).collect();
        let i = r.as_choice(&names)?;
        if let Some(prev) = &self.tiles[i] {
            return Err(r.fail(format!(
                "tile {} appears more than once (also at {prev})",
                str_repr(&c.tile_ids[i])
            )));
        }
        self.tiles[i] = Some(r.path().to_string());
        Ok(i)
    }

    fn card(&mut self, r: &Reader<'_>) -> JsonResult<usize> {
        let c = components();
        let names: Vec<&str> = c.card_ids.iter().map(String::as_str).collect();
        let j = r.as_choice(&names)?;
        if let Some(prev) = &self.cards[j] {
            return Err(r.fail(format!(
                "card {} appears more than once (also at {prev})",
                str_repr(&c.card_ids[j])
            )));
        }
        self.cards[j] = Some(r.path().to_string());
        Ok(j)
    }

    fn tile_mask(&mut self, list: &Reader<'_>, max_len: usize) -> JsonResult<u64> {
        let mut mask = 0u64;
        for t in list.as_list(0, Some(max_len))? {
            mask |= 1u64 << self.tile(&t)?;
        }
        Ok(mask)
    }

    /// The cards of a list, in its order.
    fn card_list(&mut self, list: &Reader<'_>, max_len: usize) -> JsonResult<Vec<usize>> {
        let mut cards = Vec::new();
        for t in list.as_list(0, Some(max_len))? {
            cards.push(self.card(&t)?);
        }
        Ok(cards)
    }

    fn card_mask(&mut self, list: &Reader<'_>, max_len: usize) -> JsonResult<u64> {
        let mut mask = 0u64;
        for t in list.as_list(0, Some(max_len))? {
            mask |= 1u64 << self.card(&t)?;
        }
        Ok(mask)
    }
}

/// Tool counts from an object keyed by tool id (absent ids count 0).
fn read_tools(r: &Reader<'_>) -> JsonResult<Tools> {
    let c = components();
    let names: Vec<&str> = c.tool_ids.iter().map(String::as_str).collect();
    r.obj(Some(&names))?;
    let mut tools: Tools = [0; MAX_TOOL_TYPES];
    for (t, id) in c.tool_ids.iter().enumerate() {
        if let Some(v) = r.opt(id)? {
            tools[t] = v.as_count(0, usize::from(c.tool_counts[t]))? as u8;
        }
    }
    Ok(tools)
}

fn read_player(r: &Reader<'_>, places: &mut Places) -> JsonResult<(PlayerState, Option<usize>)> {
    let c = components();
    let b = bounds();
    r.obj(Some(&PLAYER_KEYS))?;
    let board = r.get("board")?.as_count(1, c.board_names.len())? - 1;
    if let Some(ch) = r.opt("character")? {
        ch.as_str(Some(&[c.character(board).as_str()]))?;
    }
    if let Some(fav) = r.opt("favourite")? {
        fav.as_str(Some(&[c.tool_ids[c.board_favourite[board]].as_str()]))?;
    }
    let tools = read_tools(&r.get("tools")?)?;
    let torch = r.get("torch_lit")?.as_bool()?;
    let points = r.get("points")?.as_int(Some(0), Some(b.points_max))?;
    let prepared = places.tile_mask(&r.get("prepared")?, b.prepared_max)?;
    let mut completed = Vec::new();
    for t in r.get("completed")?.as_list(0, Some(b.completed_max))? {
        completed.push(places.tile(&t)? as u8);
    }
    let known = places.card_mask(&r.get("cards_face_up")?, b.n_cards)?;
    let blind_r = r.get("cards_blind")?;
    let mut hidden = None;
    let mut blind = 0;
    if blind_r.is_int() {
        hidden = Some(blind_r.as_count(0, b.n_cards)?);
    } else {
        blind = places.card_mask(&blind_r, b.n_cards)?;
    }
    if let Some(coins_r) = r.opt("coins_visible")? {
        let coins = visible_coins(prepared.count_ones() as usize, &completed);
        if coins_r.as_int(Some(0), Some(b.coins_max))? != i64::from(coins) {
            return Err(coins_r.fail(format!("the board shows {coins} coins")));
        }
    }
    let player = PlayerState {
        board: board as u8,
        tools,
        prepared,
        completed: TileList::from_slice(&completed),
        torch,
        points: points as i32,
        known,
        blind,
    };
    Ok((player, hidden))
}

fn opt_index(r: &Reader<'_>, hi: usize) -> JsonResult<Option<u8>> {
    if r.is_null() {
        return Ok(None);
    }
    Ok(Some((r.as_count(1, hi)? - 1) as u8))
}

/// Decode and fully validate a state or an observer's view; errors name the JSON path.
pub fn state_from_json(data: &Value) -> Result<RaidersState, InvalidState> {
    Ok(decode(data)?)
}

fn decode(data: &Value) -> JsonResult<RaidersState> {
    let c = components();
    let b = bounds();
    let root = Reader::document(data, "$")?;
    root.obj(Some(&ROOT_KEYS))?;
    root.get("game")?.as_str(Some(&[GAME_NAME]))?;
    let dice = root.get("variant")?.as_str(Some(&["dice", "diceless"]))? == "dice";
    let mut places = Places::new();
    let players_r = root.get("players")?.as_list(2, Some(4))?;
    if let Some(obs) = root.opt("observer")? {
        obs.as_count(0, players_r.len() - 1)?;
    }
    let mut decoded = Vec::with_capacity(players_r.len());
    for p in &players_r {
        decoded.push(read_player(p, &mut places)?);
    }
    for i in 0..decoded.len() {
        for k in 0..i {
            if decoded[k].0.board == decoded[i].0.board {
                return Err(players_r[i]
                    .get("board")?
                    .fail(format!("board {} is used twice", decoded[i].0.board + 1)));
            }
        }
    }
    let n = decoded.len();
    let first = root.get("first_player")?.as_count(0, n - 1)?;

    let turn = root.get("turn")?;
    turn.obj(Some(&TURN_KEYS))?;
    let seat = turn.get("player")?.as_count(0, n - 1)?;
    let phase = PHASES[turn.get("phase")?.as_choice(&PHASE_NAMES)?];
    let die_r = turn.get("die")?;
    let die = if die_r.is_null() {
        None
    } else {
        Some(die_r.as_choice(&FACE_KINDS)? as u8)
    };
    let coin_bonus = turn.get("coin_bonus")?.as_count(0, b.coin_bonus_max)?;
    let done = turn
        .get("completed_this_turn")?
        .as_count(0, c.completions_per_turn)?;
    let column = opt_index(&turn.get("column")?, c.hq_columns)?;
    let row_slot = opt_index(&turn.get("row_slot")?, c.face_up_cards)?;
    let draws = turn.get("tool_draws_left")?.as_count(0, b.tool_draws_max)?;
    let then_r = turn.get("then")?;
    let resume = if then_r.is_null() {
        None
    } else {
        Some(RESUME_PHASES[then_r.as_choice(&RESUME_NAMES)?])
    };
    let ending = root.get("end_triggered")?.as_bool()?;
    if let Some(idle) = root.opt("idle_turns")? {
        // Written by former versions, no longer used: read only to check its range.
        idle.as_int(Some(0), Some(b.legacy_idle_turns_per_player * n as i64))?;
    }

    let hq_r = root.get("hq")?.as_list(c.hq_columns, Some(c.hq_columns))?;
    let mut hq_tiles = [None; MAX_SLOTS];
    let mut hq_tools = [[0u8; MAX_TOOL_TYPES]; MAX_SLOTS];
    for (col, col_r) in hq_r.iter().enumerate() {
        col_r.obj(Some(&["tile", "tools"]))?;
        let tile_r = col_r.get("tile")?;
        hq_tiles[col] = if tile_r.is_null() {
            None
        } else {
            Some(places.tile(&tile_r)? as u8)
        };
        let tools_r = col_r.get("tools")?;
        let tools = read_tools(&tools_r)?;
        if super::state::tool_sum(&tools) > c.tools_per_column {
            return Err(tools_r.fail(format!(
                "at most {} tools under a column",
                c.tools_per_column
            )));
        }
        hq_tools[col] = tools;
    }
    let bag = read_tools(&root.get("bag")?)?;
    let stack = places.tile_mask(&root.get("stack")?, b.stack_max)?;
    let row_r = root
        .get("row")?
        .as_list(c.face_up_cards, Some(c.face_up_cards))?;
    let mut row = [None; MAX_SLOTS];
    for (k, card_r) in row_r.iter().enumerate() {
        row[k] = if card_r.is_null() {
            None
        } else {
            Some(places.card(card_r)? as u8)
        };
    }
    let deck_r = root.get("deck")?;
    let mut deck_hidden = None;
    let mut deck = 0u64;
    let mut deck_order = None;
    if deck_r.is_int() {
        deck_hidden = Some(deck_r.as_count(0, b.deck_max)?);
    } else {
        let order = places.card_list(&deck_r, b.deck_max)?;
        deck = order.iter().fold(0u64, |m, &j| m | 1u64 << j);
        deck_order = Some(order);
    }
    let removed_tiles = places.tile_mask(&root.get("removed_tiles")?, b.n_tiles)?;
    let removed_cards = places.card_mask(&root.get("removed_cards")?, b.n_die_cards)?;

    let missing: Vec<&str> = (0..c.n_tiles())
        .filter(|&i| places.tiles[i].is_none())
        .map(|i| c.tile_ids[i].as_str())
        .collect();
    if !missing.is_empty() {
        return Err(root.get("stack")?.fail(format!(
            "tiles missing from the game: {}",
            missing.join(", ")
        )));
    }
    let unseen: Vec<usize> = (0..c.n_cards())
        .filter(|&j| places.cards[j].is_none())
        .collect();
    let hidden_total: usize =
        decoded.iter().filter_map(|(_, h)| *h).sum::<usize>() + deck_hidden.unwrap_or(0);
    if hidden_total != unseen.len() {
        return Err(root.get("deck")?.fail(format!(
            "{} cards are not listed anywhere but the hidden counts add up to {hidden_total}",
            unseen.len()
        )));
    }
    let hand_sizes: Vec<Option<usize>> = decoded.iter().map(|(_, h)| *h).collect();
    let players: Vec<PlayerState> = decoded.into_iter().map(|(p, _)| p).collect();

    let mut state = RaidersState {
        players: Seats::new(players),
        dice,
        first: first as u8,
        seat: seat as u8,
        phase,
        die,
        coin_bonus: coin_bonus as u8,
        done: done as u8,
        column: if phase == Phase::RevealCard {
            row_slot
        } else {
            column
        },
        draws: draws as u8,
        resume,
        hq_tiles,
        hq_tools,
        bag,
        stack,
        row,
        deck,
        removed_cards,
        removed_tiles,
        ending,
    };
    if !unseen.is_empty() {
        // Placeholders: the lowest unseen ids, seat by seat, then the deck (Die cards first
        // into a deck that can hold only used Die cards).
        let (hands, dealt) = deal_hidden(
            &unseen,
            &hand_sizes,
            deck_hidden.unwrap_or(0),
            deck_holds_only_die_cards(&state),
        );
        for (seat, hand) in hands.iter().enumerate().take(n) {
            if let Some(hand) = *hand {
                let mut filled = state.players[seat].clone();
                filled.blind = hand;
                state.players.set(seat, filled);
            }
        }
        if deck_hidden.is_some() {
            state.deck = dealt;
        }
    }
    let listed_blind: Vec<bool> = hand_sizes.iter().map(Option::is_none).collect();
    check_state(
        &state,
        column,
        row_slot,
        deck_order.as_deref(),
        &listed_blind,
    )?;
    let has_scores = root.has("final_scores");
    if has_scores || root.has("winner") {
        let key = if has_scores { "final_scores" } else { "winner" };
        if phase != Phase::Over {
            return Err(root.get(key)?.fail("only present once the game is over"));
        }
        let expected = final_scores(&state);
        if has_scores {
            let scores_r = root.get("final_scores")?;
            let mut got = Vec::with_capacity(n);
            for v in scores_r.as_list(n, Some(n))? {
                got.push(v.as_int(Some(0), Some(b.final_score_max))?);
            }
            if got.iter().zip(&expected).any(|(g, e)| *g != i64::from(*e)) {
                let shown: Vec<String> = expected.iter().map(i32::to_string).collect();
                return Err(scores_r.fail(format!("expected [{}]", shown.join(", "))));
            }
        }
        if let Some(w) = root.opt("winner")? {
            let best = winner(&state);
            if w.as_count(0, n - 1)? != best {
                return Err(w.fail(format!("the winner is seat {best}")));
            }
        }
    }
    Ok(state)
}
