//! Game options and the seeded setup of a new game (the twin of `setup.py`; the same option
//! names and messages). The draws go through [`Draws`]: from the native stream, or from
//! [`PythonRandom`](crate::PythonRandom) call for call as `setup.py` makes them.

use serde_json::{json, Map, Value};

use super::components::{components, MAX_SLOTS, MAX_TOOL_TYPES};
use super::state::{Phase, PlayerState, RaidersState, Seats};
use crate::error::InvalidState;
use crate::jsonread::{JsonResult, Reader};
use crate::pyrepr::echo_str;
use crate::rng::{seeded_rng, Draws};

/// The variants: the standard game with the die, and the diceless one.
pub const VARIANTS: [&str; 2] = ["dice", "diceless"];

/// Option names with their allowed values and defaults.
pub fn describe_options() -> Value {
    let c = components();
    let names: Vec<&str> = c.board_names.iter().flatten().map(String::as_str).collect();
    json!({
        "players": {"type": "int", "min": 2, "max": 4, "default": 2},
        "variant": {"type": "str", "choices": VARIANTS, "default": "dice",
                    "help": "standard game with the die, or the diceless variant"},
        "characters": {
            "type": "list|null", "default": null,
            "help": format!("one entry per seat: a board number 1-4 or a character name ({}); \
                             all different; null deals boards at random", names.join(", ")),
        },
        "first_player": {"type": "int|null", "default": null,
                         "help": "seat of the first player; null chooses at random"},
    })
}

/// Board index 0..3 from a board number (1-4) or a character name (either side, any case).
fn board_of(entry: &Reader<'_>) -> JsonResult<usize> {
    let c = components();
    if entry.is_int() {
        return Ok(entry.as_count(1, c.board_names.len())? - 1);
    }
    let given = entry.as_str(None)?;
    let name = given.to_lowercase();
    c.board_names
        .iter()
        .position(|names| names.iter().any(|n| n.to_lowercase() == name))
        .ok_or_else(|| entry.fail(format!("unknown character {}", echo_str(given))))
}

/// One tool type drawn from `bag` (counts), weighted by the counts.
fn draw_tool<D: Draws + ?Sized>(bag: &[u8], rng: &mut D) -> usize {
    let total: u32 = bag.iter().map(|&n| u32::from(n)).sum();
    let mut r = rng.randrange(total);
    for (t, &n) in bag.iter().enumerate() {
        if r < u32::from(n) {
            return t;
        }
        r -= u32::from(n);
    }
    0
}

/// Remove and return a uniformly chosen item of `items` (`items.pop(rng.randrange(len(items)))`).
fn pop_random<D: Draws + ?Sized>(items: &mut Vec<usize>, rng: &mut D) -> usize {
    let k = rng.randrange(items.len() as u32) as usize;
    items.remove(k)
}

/// A fresh game: every random setup choice (boards, first player, reveals) from `seed`, on the
/// native stream.
pub fn new_state(options: &Value, seed: u64) -> Result<RaidersState, InvalidState> {
    new_state_with(options, &mut seeded_rng(seed))
}

/// A fresh game with every random setup choice drawn from `rng`, in `setup.py`'s order.
pub fn new_state_with<D: Draws + ?Sized>(
    options: &Value,
    rng: &mut D,
) -> Result<RaidersState, InvalidState> {
    Ok(set_up(options, rng)?)
}

fn set_up<D: Draws + ?Sized>(options: &Value, rng: &mut D) -> JsonResult<RaidersState> {
    let c = components();
    let empty = Value::Object(Map::new());
    let options = if options.is_null() { &empty } else { options };
    let opts = Reader::document(options, "$.options")?;
    opts.obj(Some(&["players", "variant", "characters", "first_player"]))?;
    let n = match opts.opt("players")? {
        Some(r) => r.as_count(2, 4)?,
        None => 2,
    };
    let dice = match opts.opt("variant")? {
        Some(r) => r.as_str(Some(&VARIANTS))? == "dice",
        None => true,
    };
    let boards: Vec<usize> = match opts.opt("characters")? {
        Some(chars) if !chars.is_null() => {
            let entries = chars.as_list(n, Some(n))?;
            let mut boards = Vec::with_capacity(n);
            for entry in &entries {
                boards.push(board_of(entry)?);
            }
            for i in 0..n {
                if boards[..i].contains(&boards[i]) {
                    return Err(entries[i].fail("each player needs a different board"));
                }
            }
            boards
        }
        _ => rng.sample(c.board_names.len(), n),
    };
    let first = match opts.opt("first_player")? {
        Some(r) if !r.is_null() => r.as_count(0, n - 1)?,
        _ => rng.randrange(n as u32) as usize,
    };

    let mut stack: Vec<usize> = (0..c.n_tiles()).collect();
    let mut hq_tiles = [None; MAX_SLOTS];
    for tile in hq_tiles.iter_mut().take(c.hq_columns) {
        *tile = Some(pop_random(&mut stack, rng) as u8);
    }
    let mut bag = c.tool_counts;
    let mut hq_tools = [[0u8; MAX_TOOL_TYPES]; MAX_SLOTS];
    for column in hq_tools.iter_mut().take(c.hq_columns) {
        for _ in 0..c.tools_per_column {
            let t = draw_tool(&bag[..c.n_tools], rng);
            bag[t] -= 1;
            column[t] += 1;
        }
    }
    let mut deck: Vec<usize> = (0..c.n_cards()).collect();
    let mut row = [None; MAX_SLOTS];
    for slot in row.iter_mut().take(c.face_up_cards) {
        *slot = Some(pop_random(&mut deck, rng) as u8);
    }
    let players = boards.iter().map(|&b| PlayerState::new(b as u8)).collect();
    Ok(RaidersState {
        players: Seats::new(players),
        dice,
        first: first as u8,
        seat: first as u8,
        phase: if dice { Phase::Roll } else { Phase::Action },
        die: None,
        coin_bonus: 0,
        done: 0,
        column: None,
        draws: 0,
        resume: None,
        hq_tiles,
        hq_tools,
        bag,
        stack: stack.iter().fold(0u64, |m, &i| m | 1u64 << i),
        row,
        deck: deck.iter().fold(0u64, |m, &j| m | 1u64 << j),
        removed_cards: 0,
        removed_tiles: 0,
        ending: false,
    })
}
