//! Setting up a LEDA game: the options of `new_state` and the seeded first state (the twin of
//! `engine/leda/setup.py` and `rules.initial_state`; the same option names and messages). The
//! draws go through [`Draws`]: from the native stream, or from
//! [`PythonRandom`](crate::PythonRandom) call for call as `setup.py` makes them.
//!
//! Python's `new_state` ends with `rules.advance`, which leaves the first state as it is: its
//! top frame is the first player's mulligan, a decision that is always open.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::data::{
    clan_cards, ACTION_TILE_BASE, ACTION_TILE_COUNT, CLAN_NAMES, MV_BASE, MV_TOKEN_COUNT, SQUARES,
    STARTING_FOOD, STARTING_HAND,
};
use super::frames::{F_MULLIGAN, F_ROUND};
use super::state::{ActionTiles, Frame, ItemList, ItemSet, LedaState, MvTokens, Player, Square};
use crate::error::InvalidState;
use crate::jsonread::{JsonResult, Reader};
use crate::rng::{seeded_rng, Draws};

/// Options of `new_state` (exactly Python's `describe_options`).
pub fn describe_options() -> Value {
    json!({
        "clans": {
            "type": "list of 2 distinct clan names, seat 0 first",
            "values": CLAN_NAMES,
            "default": "a seeded random distinct pair",
        },
        "first_player": {
            "type": "0, 1 or null",
            "default": "null: chosen at random from the seed",
        },
        "players": {"type": "integer", "values": [2], "default": 2},
    })
}

/// A new game: grids, piles, decks and (unless given) clans and first player from `seed`, on
/// the native stream. Malformed options fail with Python's path (`$.options...`) and reason.
pub fn new_state(options: &Value, seed: u64) -> Result<LedaState, InvalidState> {
    new_state_with(options, &mut seeded_rng(seed))
}

/// A new game with every random setup choice drawn from `rng`, in `setup.py`'s order.
pub fn new_state_with<D: Draws + ?Sized>(
    options: &Value,
    rng: &mut D,
) -> Result<LedaState, InvalidState> {
    Ok(set_up(options, rng)?)
}

fn set_up<D: Draws + ?Sized>(options: &Value, rng: &mut D) -> JsonResult<LedaState> {
    let empty = Value::Object(Map::new());
    let options = if options.is_null() { &empty } else { options };
    let opts = Reader::document(options, "$.options")?;
    opts.obj(Some(&["clans", "first_player", "players"]))?;
    if let Some(players) = opts.opt("players")? {
        if players.as_int(None, None)? != 2 {
            return Err(players.fail("LEDA is for exactly 2 players"));
        }
    }
    let clans = match opts.opt("clans")? {
        Some(r) if !r.is_null() => {
            let entries = r.as_list(2, Some(2))?;
            let clans = [
                entries[0].as_choice(&CLAN_NAMES)?,
                entries[1].as_choice(&CLAN_NAMES)?,
            ];
            if clans[0] == clans[1] {
                return Err(r.fail("both players took the same clan"));
            }
            clans
        }
        _ => match rng.sample(CLAN_NAMES.len(), 2)[..] {
            [a, b] => [a, b],
            _ => [0, 1],
        },
    };
    let first = match opts.opt("first_player")? {
        Some(r) if !r.is_null() => r.as_count(0, 1)?,
        _ => rng.randrange(2) as usize,
    };
    Ok(initial_state(clans, first, rng))
}

/// `items` in a shuffled order (Python's `_shuffled`).
fn shuffled<D: Draws + ?Sized>(rng: &mut D, items: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut out: Vec<usize> = items.collect();
    rng.shuffle(&mut out);
    out
}

/// Lists built from ids that are in range by construction.
fn list<const N: usize>(items: &[usize]) -> ItemList<N> {
    ItemList::from_slice(items).unwrap_or_default()
}

/// The first state (Python's `rules.initial_state`): seeded grids, piles and decks, 3 cards
/// and 1 Food each, the mulligans next (seat `first`'s on top).
pub fn initial_state<D: Draws + ?Sized>(clans: [usize; 2], first: usize, rng: &mut D) -> LedaState {
    let players = clans.map(|clan| {
        let tiles = shuffled(rng, 0..SQUARES);
        let deck = shuffled(rng, clan_cards(clan));
        let mut grid = [Square::default(); SQUARES];
        for (square, &tile) in grid.iter_mut().zip(&tiles) {
            square.tile = tile as u8;
        }
        Arc::new(Player {
            clan: clan as u8,
            grid,
            hand: list(&deck[..STARTING_HAND]),
            deck: list(&deck[STARTING_HAND..]),
            food: STARTING_FOOD,
            mv: MvTokens::new(),
            military: 0,
            specials: 0,
            rotated: 0,
        })
    });
    let action_pile = shuffled(rng, ACTION_TILE_BASE..ACTION_TILE_BASE + ACTION_TILE_COUNT);
    let mv_pile = shuffled(rng, MV_BASE..MV_BASE + MV_TOKEN_COUNT);
    let seat = first as u8;
    LedaState {
        players,
        active: seat,
        action_pile: list(&action_pile),
        revealed: ActionTiles::new(),
        mv_pile: list(&mv_pile),
        zone: -1,
        blocked: false,
        stack: [(F_ROUND, seat), (F_MULLIGAN, 1 - seat), (F_MULLIGAN, seat)]
            .into_iter()
            .filter_map(|(kind, seat)| Frame::new(kind, seat, &[]))
            .collect(),
        known: [ItemSet::EMPTY; 2],
        winner: -1,
    }
}
