//! The JSON state format of docs/leda/state-format.md, encoding and decoding: the twin of
//! `engine/leda/codec.py`.
//!
//! [`state_to_json`] writes exactly the Python engine's JSON, full states (`observer` null) and
//! seat views (hidden parts as counts plus what that seat knows), with the same keys in the same
//! order. [`state_from_json`] decodes either form and checks the format as Python does, in the
//! same order and with the same JSON path and wording for the first problem found: shapes,
//! types, ranges, names, each item exactly once, hidden parts that add up. It then runs the
//! rule-consistency checks of [`super::validation`] (every check of `engine/leda/validation.py`,
//! the legal actions of the decision on top last). Decoding a view fills every unknown position
//! canonically: the missing cards, ascending, go to the opponent's hand first and then to the
//! unknown deck positions in order; the piles likewise.

use std::ops::Range;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::bounds::{
    FOOD_MAX, MILITARY_MAX, MV_TOKEN_COUNT, PENDING_MAX, REVEALED_MAX, ROTATED_MAX, SPECIALS_MAX,
};
use super::data::{
    clan_cards, item_by_name, ACTION_TILE_BASE, ACTION_TILE_COUNT, CLAN_NAMES, EFFECTS, ITEM_COUNT,
    ITEM_NAMES, MV_BASE, SHARKS, SHARK_TOKENS, SQUARES, TILE_FACE_NAMES, TILE_NAMES, ZONE_NAMES,
};
use super::frames::{FRAME_ARGS, FRAME_NAMES, F_EFFECT};
use super::state::{ActionTiles, Cards, Frame, ItemSet, LedaState, MvTokens, Player, Square};
use super::validation;
use crate::error::InvalidState;
use crate::jsonread::{JsonError, JsonResult, Reader};
use crate::pyrepr::{echo_str, str_repr};

/// The version of the format this codec reads and writes.
pub const FORMAT_VERSION: i64 = 1;

const TOP_FIELDS: [&str; 12] = [
    "game",
    "version",
    "observer",
    "active",
    "winner",
    "zone",
    "mv_blocked",
    "action_pile",
    "revealed_actions",
    "mv_pile",
    "players",
    "pending",
];
const PLAYER_FIELDS: [&str; 10] = [
    "clan",
    "food",
    "military",
    "specials",
    "mv_tokens",
    "hand",
    "deck",
    "grid",
    "rotated",
    "knows",
];
const SQUARE_FIELDS: [&str; 4] = ["tile", "face", "cards", "shark_token"];
const COUNT_FIELDS: [&str; 2] = ["count", "known"];
const KNOWN_FIELDS: [&str; 2] = ["index", "item"];
const FRAME_FIELDS: [&str; 3] = ["frame", "seat", "args"];

const MV_TOKENS: Range<usize> = MV_BASE..MV_BASE + MV_TOKEN_COUNT;
const ACTION_TILES: Range<usize> = ACTION_TILE_BASE..ACTION_TILE_BASE + ACTION_TILE_COUNT;
const CAT_ROTATING: Range<usize> = 0..ROTATED_MAX;
const ANY_ITEM: Range<usize> = 0..ITEM_COUNT;

// ----------------------------------------------------------------------------- encoding

fn names(items: impl Iterator<Item = usize>) -> Value {
    Value::Array(items.map(|i| Value::from(ITEM_NAMES[i])).collect())
}

fn object(fields: Vec<(&str, Value)>) -> Value {
    let mut map = Map::new();
    for (key, value) in fields {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

fn hidden_pile(items: impl Iterator<Item = usize>, known: ItemSet) -> Value {
    let mut count = 0;
    let mut listed = Vec::new();
    for (i, x) in items.enumerate() {
        count += 1;
        if known.contains(x) {
            listed.push(object(vec![
                ("index", Value::from(i)),
                ("item", Value::from(ITEM_NAMES[x])),
            ]));
        }
    }
    object(vec![
        ("count", Value::from(count)),
        ("known", Value::Array(listed)),
    ])
}

fn square_json(sq: &Square) -> Value {
    object(vec![
        ("tile", Value::from(TILE_NAMES[usize::from(sq.tile)])),
        ("face", Value::from(TILE_FACE_NAMES[usize::from(sq.face)])),
        ("cards", names(sq.cards.iter())),
        ("shark_token", Value::Bool(sq.token)),
    ])
}

fn player_json(state: &LedaState, seat: usize, observer: Option<usize>) -> Value {
    let p = state.player(seat);
    let rotated = (0..16).filter(|&c| p.is_rotated(c));
    let mut fields = vec![
        ("clan", Value::from(CLAN_NAMES[usize::from(p.clan)])),
        ("food", Value::from(p.food)),
        ("military", Value::from(p.military)),
        ("specials", Value::from(p.specials)),
        ("mv_tokens", names(p.mv.iter())),
        (
            "grid",
            Value::Array(p.grid.iter().map(square_json).collect()),
        ),
        ("rotated", names(rotated)),
    ];
    match observer {
        None => {
            fields.push(("hand", names(p.hand.iter())));
            fields.push(("deck", names(p.deck.iter())));
            fields.push(("knows", names(state.known[seat].iter())));
        }
        Some(observer) => {
            let known = state.known[observer];
            if seat == observer {
                fields.push(("hand", names(p.hand.iter())));
            } else {
                let held = p.hand.iter().filter(|&c| known.contains(c));
                fields.push((
                    "hand",
                    object(vec![
                        ("count", Value::from(p.hand.len())),
                        ("known", names(held)),
                    ]),
                ));
            }
            fields.push(("deck", hidden_pile(p.deck.iter(), known)));
        }
    }
    object(fields)
}

fn frame_json(frame: &Frame) -> Value {
    object(vec![
        ("frame", Value::from(FRAME_NAMES[usize::from(frame.kind)])),
        ("seat", Value::from(frame.seat)),
        (
            "args",
            Value::Array(frame.args().iter().map(|&a| Value::from(a)).collect()),
        ),
    ])
}

/// The JSON form of `state`; with an observer, hidden parts are counts plus what that seat
/// knows (Python's `state_to_json(state, observer)`, key for key).
///
/// # Panics
///
/// When `observer` is not 0 or 1.
pub fn state_to_json(state: &LedaState, observer: Option<usize>) -> Value {
    let known = observer.map_or(ItemSet::EMPTY, |o| state.known[o]);
    let pile = |items: &[u8]| {
        let items = items.iter().map(|&x| usize::from(x));
        match observer {
            None => names(items),
            Some(_) => hidden_pile(items, known),
        }
    };
    object(vec![
        ("game", Value::from("leda")),
        ("version", Value::from(FORMAT_VERSION)),
        ("observer", observer.map_or(Value::Null, Value::from)),
        ("active", Value::from(state.active)),
        (
            "winner",
            if state.winner >= 0 {
                Value::from(state.winner)
            } else {
                Value::Null
            },
        ),
        (
            "zone",
            usize::try_from(state.zone).map_or(Value::Null, |z| Value::from(ZONE_NAMES[z])),
        ),
        ("mv_blocked", Value::Bool(state.blocked)),
        ("action_pile", pile(state.action_pile.as_bytes())),
        ("revealed_actions", names(state.revealed.iter())),
        ("mv_pile", pile(state.mv_pile.as_bytes())),
        (
            "players",
            Value::Array((0..2).map(|s| player_json(state, s, observer)).collect()),
        ),
        (
            "pending",
            Value::Array(state.stack.iter().map(frame_json).collect()),
        ),
    ])
}

// ----------------------------------------------------------------------------- decoding

fn at(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

fn fail_at(path: String, reason: impl Into<String>) -> JsonError {
    JsonError {
        path,
        reason: reason.into(),
    }
}

/// The item named by `r`, which must lie in `allowed` (Python's `_item`).
fn item(r: &Reader, allowed: &Range<usize>, what: &str) -> JsonResult<usize> {
    let name = r.as_str(None)?;
    match item_by_name(name) {
        Some(i) if allowed.contains(&i) => Ok(i),
        _ => Err(r.fail(format!("{} is not {what}", echo_str(name)))),
    }
}

/// The optional list `key` (absent: empty) of at most `most` entries.
fn opt_list<'a>(parent: &Reader<'a>, key: &str, most: usize) -> JsonResult<Vec<Reader<'a>>> {
    match parent.opt(key)? {
        None => Ok(Vec::new()),
        Some(r) => r.as_list(0, Some(most)),
    }
}

/// The optional list of names `key`, each an item of `allowed` (Python's `_items`).
fn items(parent: &Reader, key: &str, allowed: &Range<usize>, what: &str) -> JsonResult<Vec<usize>> {
    opt_list(parent, key, allowed.len())?
        .iter()
        .map(|r| item(r, allowed, what))
        .collect()
}

/// Fail at the second listing of any item of the list `key`.
fn reject_repeats(parent: &Reader, key: &str, ids: &[usize]) -> JsonResult<()> {
    let mut seen = ItemSet::EMPTY;
    for (i, &item) in ids.iter().enumerate() {
        if seen.contains(item) {
            return Err(fail_at(
                at(&format!("{}.{key}", parent.path()), i),
                "listed twice",
            ));
        }
        seen.insert(item);
    }
    Ok(())
}

/// How a hidden sequence was given, to name the JSON entry behind a position.
enum Form {
    /// A plain list: position i is entry i.
    List,
    /// `{count, known: [{index, item}]}`: the `known` entry that gave each position.
    Pile(Vec<usize>),
    /// A hidden hand `{count, known: [names]}`: known cards first.
    Hand,
}

/// A hidden sequence being decoded: known items by position, None for a placeholder.
struct Slots<'a> {
    reader: Reader<'a>,
    items: Vec<Option<usize>>,
    known: ItemSet,
    form: Form,
}

impl Slots<'_> {
    /// The path of the JSON entry that gave position `index`.
    fn where_path(&self, index: usize) -> String {
        let path = self.reader.path();
        match &self.form {
            Form::List => at(path, index),
            Form::Pile(entries) => format!("{}.item", at(&format!("{path}.known"), entries[index])),
            Form::Hand => at(&format!("{path}.known"), index),
        }
    }

    /// The items, each placeholder taken in order from `pool`.
    fn fill(&self, pool: &mut impl Iterator<Item = usize>) -> Vec<usize> {
        self.items
            .iter()
            .map(|x| x.or_else(|| pool.next()).unwrap_or_default())
            .collect()
    }

    fn holes(&self) -> usize {
        self.items.iter().filter(|x| x.is_none()).count()
    }

    fn listed(&self) -> impl Iterator<Item = usize> + '_ {
        self.items.iter().flatten().copied()
    }
}

/// A sequence given in full (a list) or as a view `{count, known: [{index, item}]}`.
fn pile_slots<'a>(
    parent: &Reader<'a>,
    key: &str,
    allowed: &Range<usize>,
    what: &str,
) -> JsonResult<Slots<'a>> {
    let reader = parent.get(key)?;
    let most = allowed.len();
    if reader.value().is_array() {
        let mut out = Vec::new();
        for r in reader.as_list(0, Some(most))? {
            out.push(Some(item(&r, allowed, what)?));
        }
        return Ok(Slots {
            reader,
            items: out,
            known: ItemSet::EMPTY,
            form: Form::List,
        });
    }
    reader.obj(Some(&COUNT_FIELDS))?;
    let count = reader.get("count")?.as_count(0, most)?;
    let mut out: Vec<Option<usize>> = vec![None; count];
    let mut entries = vec![0; count];
    let mut known = ItemSet::EMPTY;
    for (k, entry) in opt_list(&reader, "known", count)?.iter().enumerate() {
        if entry.value().is_string() {
            return Err(entry.fail("expected an object {index, item}"));
        }
        entry.obj(Some(&KNOWN_FIELDS))?;
        let index_r = entry.get("index")?;
        let index = index_r.as_int(Some(0), Some(count as i64 - 1))? as usize;
        if out[index].is_some() {
            return Err(index_r.fail("position given twice"));
        }
        let x = item(&entry.get("item")?, allowed, what)?;
        out[index] = Some(x);
        entries[index] = k;
        known.insert(x);
    }
    Ok(Slots {
        reader,
        items: out,
        known,
        form: Form::Pile(entries),
    })
}

/// A hand given in full, or hidden as `{count, known: [names]}` (known cards first).
fn hand_slots<'a>(parent: &Reader<'a>, allowed: &Range<usize>) -> JsonResult<Slots<'a>> {
    let what = "a card of this clan";
    let given = parent.opt("hand")?;
    let Some(reader) = given.filter(|r| r.value().is_object()) else {
        return pile_slots(parent, "hand", allowed, what);
    };
    reader.obj(Some(&COUNT_FIELDS))?;
    let count = reader.get("count")?.as_count(0, allowed.len())?;
    let mut known_items = Vec::new();
    for r in opt_list(&reader, "known", allowed.len())? {
        known_items.push(item(&r, allowed, what)?);
    }
    if known_items.len() > count {
        return Err(reader
            .get("known")?
            .fail("more known cards than the hand holds"));
    }
    let mut known = ItemSet::EMPTY;
    let mut out = Vec::with_capacity(count);
    for &c in &known_items {
        known.insert(c);
        out.push(Some(c));
    }
    out.resize(count, None);
    Ok(Slots {
        reader,
        items: out,
        known,
        form: Form::Hand,
    })
}

fn decode_grid(parent: &Reader, clan: usize, cards: &Range<usize>) -> JsonResult<[Square; 16]> {
    let reader = parent.get("grid")?;
    let mut squares = [Square::default(); SQUARES];
    let mut seen_tiles = 0u32;
    for (i, r) in reader.as_list(SQUARES, Some(SQUARES))?.iter().enumerate() {
        r.obj(Some(&SQUARE_FIELDS))?;
        let tile_r = r.get("tile")?;
        let tile = tile_r.as_choice(&TILE_NAMES)?;
        if seen_tiles >> tile & 1 == 1 {
            return Err(tile_r.fail(format!(
                "tile {} appears twice in the grid",
                str_repr(TILE_NAMES[tile])
            )));
        }
        seen_tiles |= 1 << tile;
        let face = r.get("face")?.as_choice(&TILE_FACE_NAMES)?;
        let mut stack = Cards::new();
        for c in opt_list(r, "cards", cards.len())? {
            stack.push(item(&c, cards, "a card of this clan")?);
        }
        let token = match r.opt("shark_token")? {
            None => false,
            Some(t) => t.as_bool()?,
        };
        if token && clan != SHARKS {
            return Err(r
                .get("shark_token")?
                .fail("only the Sharks have Shark tokens"));
        }
        if !stack.is_empty() && clan == SHARKS && !token {
            // Playing a Shark card brings a token, and tokens never leave their square.
            return Err(r
                .get("shark_token")?
                .fail("a square holding a Shark card holds a Shark token"));
        }
        squares[i] = Square {
            tile: tile as u8,
            face: face as u8,
            cards: stack,
            token,
        };
    }
    if squares.iter().filter(|sq| sq.token).count() > SHARK_TOKENS {
        return Err(reader.fail(format!("more than {SHARK_TOKENS} Shark tokens on the grid")));
    }
    Ok(squares)
}

fn decode_frame(r: &Reader) -> JsonResult<Frame> {
    r.obj(Some(&FRAME_FIELDS))?;
    let kind = r.get("frame")?.as_choice(&FRAME_NAMES)?;
    let seat = r.get("seat")?.as_int(Some(0), Some(1))?;
    let shapes = FRAME_ARGS[kind];
    let args_r = r.get("args")?.as_list(shapes.len(), Some(shapes.len()))?;
    let mut args = Vec::with_capacity(shapes.len());
    for (a, shape) in args_r.iter().zip(shapes) {
        let (lo, hi) = shape.range();
        args.push(a.as_int(Some(lo), Some(hi))? as i32);
    }
    if kind == usize::from(F_EFFECT) {
        let ops = EFFECTS[args[0] as usize].ops.len();
        if args[1] as usize >= ops.max(1) {
            return Err(args_r[1].fail("op index beyond the effect"));
        }
    }
    Frame::new(kind as u8, seat as u8, &args).ok_or_else(|| r.fail("too many arguments"))
}

/// Integer field `key` in `lo..=hi`, or None when it is absent or null.
fn opt_int(parent: &Reader, key: &str, lo: i64, hi: i64) -> JsonResult<Option<i64>> {
    match parent.opt(key)? {
        Some(r) if !r.is_null() => Ok(Some(r.as_int(Some(lo), Some(hi))?)),
        _ => Ok(None),
    }
}

/// Fail at the second place (grid, then hand, then deck) listing the same card.
fn repeated_card(grid_r: &Reader, grid: &[Square; 16], hand: &Slots, deck: &Slots) -> JsonError {
    let mut listed: Vec<(usize, String)> = Vec::new();
    for (i, sq) in grid.iter().enumerate() {
        for c in sq.cards.iter() {
            listed.push((c, at(grid_r.path(), i)));
        }
    }
    for slots in [hand, deck] {
        for (i, c) in slots.items.iter().enumerate() {
            if let Some(c) = c {
                listed.push((*c, slots.where_path(i)));
            }
        }
    }
    let mut placed = ItemSet::EMPTY;
    for (card, path) in listed {
        if placed.contains(card) {
            let reason = format!("card {} appears more than once", str_repr(ITEM_NAMES[card]));
            return fail_at(path, reason);
        }
        placed.insert(card);
    }
    grid_r.fail("a card appears more than once")
}

fn list_of<const N: usize>(items: &[usize]) -> super::state::ItemList<N> {
    let mut out = super::state::ItemList::new();
    for &x in items {
        out.push(x);
    }
    out
}

/// Decode a full state or an observer view, validating it (errors name the JSON path).
pub fn state_from_json(data: &Value) -> Result<LedaState, InvalidState> {
    let root = Reader::document(data, "$")?;
    let state = decode(&root)?;
    validation::check_state(&state, &root)?;
    Ok(state)
}

fn decode(root: &Reader) -> JsonResult<LedaState> {
    root.obj(Some(&TOP_FIELDS))?;
    let game = root.get("game")?;
    if game.as_str(None)? != "leda" {
        return Err(game.fail("not a LEDA state"));
    }
    let version = match root.opt("version")? {
        None => FORMAT_VERSION,
        Some(r) => r.as_int(None, None)?,
    };
    if version != FORMAT_VERSION {
        return Err(root
            .get("version")?
            .fail(format!("unsupported version; expected {FORMAT_VERSION}")));
    }
    let observer = opt_int(root, "observer", 0, 1)?.map(|o| o as usize);
    let active = root.get("active")?.as_int(Some(0), Some(1))? as u8;
    let winner = opt_int(root, "winner", 0, 1)?.map_or(-1, |w| w as i8);
    let zone = match root.opt("zone")? {
        Some(r) if !r.is_null() => r.as_choice(&ZONE_NAMES)? as i8,
        _ => -1,
    };
    let blocked = match root.opt("mv_blocked")? {
        None => false,
        Some(r) => r.as_bool()?,
    };

    let players_r = root.get("players")?.as_list(2, Some(2))?;
    let mut clans = [0usize; 2];
    for (seat, pr) in players_r.iter().enumerate() {
        pr.obj(Some(&PLAYER_FIELDS))?;
        clans[seat] = pr.get("clan")?.as_choice(&CLAN_NAMES)?;
    }
    if clans[0] == clans[1] {
        return Err(players_r[1]
            .get("clan")?
            .fail("both players have the same clan"));
    }

    let mut known = [ItemSet::EMPTY; 2];
    let mut players = Vec::with_capacity(2);
    for (seat, pr) in players_r.iter().enumerate() {
        let clan = clans[seat];
        let own = clan_cards(clan);
        let grid = decode_grid(pr, clan, &own)?;
        let hand = hand_slots(pr, &own)?;
        let deck = pile_slots(pr, "deck", &own, "a card of this clan")?;
        for slots in [&hand, &deck] {
            if !slots.known.is_empty() {
                let Some(observer) = observer else {
                    return Err(slots.reader.fail("a view with counts needs an observer"));
                };
                known[observer].0 |= slots.known.0;
            }
        }
        let mut on_grid = ItemSet::EMPTY;
        let mut placed = ItemSet::EMPTY;
        let mut listed = 0;
        for sq in &grid {
            for c in sq.cards.iter() {
                on_grid.insert(c);
                placed.insert(c);
                listed += 1;
            }
        }
        for c in hand.listed().chain(deck.listed()) {
            placed.insert(c);
            listed += 1;
        }
        if placed.len() != listed {
            return Err(repeated_card(&pr.get("grid")?, &grid, &hand, &deck));
        }
        let missing: Vec<usize> = own.clone().filter(|&c| !placed.contains(c)).collect();
        let holes = hand.holes() + deck.holes();
        if missing.len() != holes {
            return Err(pr.fail(format!(
                "{} cards of the clan are unaccounted for but the hidden parts hold {holes}",
                missing.len()
            )));
        }
        let rotated_ids = items(pr, "rotated", &CAT_ROTATING, "a rotating Cat card")?;
        reject_repeats(pr, "rotated", &rotated_ids)?;
        for (i, &card) in rotated_ids.iter().enumerate() {
            if !on_grid.contains(card) {
                return Err(fail_at(
                    at(&format!("{}.rotated", pr.path()), i),
                    "a rotated card must be on the grid",
                ));
            }
        }
        if pr.has("knows") {
            let known_ids = items(pr, "knows", &ANY_ITEM, "an item")?;
            reject_repeats(pr, "knows", &known_ids)?;
            for id in known_ids {
                known[seat].insert(id);
            }
        }
        let mut pool = missing.into_iter();
        let hand_items = hand.fill(&mut pool);
        let deck_items = deck.fill(&mut pool);
        let food = pr.get("food")?.as_int(Some(0), Some(i64::from(FOOD_MAX)))? as u32;
        let military = pr
            .get("military")?
            .as_int(Some(0), Some(i64::from(MILITARY_MAX)))? as u32;
        let specials = match pr.opt("specials")? {
            None => 0,
            Some(r) => r.as_int(Some(0), Some(i64::from(SPECIALS_MAX)))? as u32,
        };
        players.push(Player {
            clan: clan as u8,
            grid,
            hand: list_of(&hand_items),
            deck: list_of(&deck_items),
            food,
            mv: MvTokens::new(),
            military,
            specials,
            rotated: rotated_ids.iter().fold(0u16, |m, &c| m | 1 << c),
        });
    }

    // MV tokens: each exactly once between the pile and the players.
    let mv_pile = pile_slots(root, "mv_pile", &MV_TOKENS, "an MV token")?;
    let mut seen_mv = ItemSet::EMPTY;
    for x in mv_pile.listed() {
        seen_mv.insert(x);
    }
    if seen_mv.len() != mv_pile.items.len() - mv_pile.holes() {
        return Err(root
            .get("mv_pile")?
            .fail("an MV token appears more than once"));
    }
    for (seat, pr) in players_r.iter().enumerate() {
        let mut tokens = MvTokens::new();
        for r in pr.get("mv_tokens")?.as_list(0, Some(MV_TOKEN_COUNT))? {
            let t = item(&r, &MV_TOKENS, "an MV token")?;
            if seen_mv.contains(t) {
                return Err(r.fail(format!(
                    "MV token {} appears more than once",
                    str_repr(ITEM_NAMES[t])
                )));
            }
            seen_mv.insert(t);
            tokens.push(t);
        }
        players[seat].mv = tokens;
    }
    let mv_missing: Vec<usize> = MV_TOKENS.filter(|&t| !seen_mv.contains(t)).collect();
    if mv_missing.len() != mv_pile.holes() {
        return Err(root
            .get("mv_pile")?
            .fail(format!("expected {} hidden MV tokens", mv_missing.len())));
    }
    if !mv_pile.known.is_empty() {
        let Some(observer) = observer else {
            return Err(root
                .get("mv_pile")?
                .fail("a view with counts needs an observer"));
        };
        known[observer].0 |= mv_pile.known.0;
    }

    // Action tiles: each exactly once between the pile and the revealed ones.
    let act_pile = pile_slots(root, "action_pile", &ACTION_TILES, "an Action tile")?;
    let mut seen_act = ItemSet::EMPTY;
    let mut revealed = ActionTiles::new();
    for r in opt_list(root, "revealed_actions", REVEALED_MAX)? {
        let t = item(&r, &ACTION_TILES, "an Action tile")?;
        if seen_act.contains(t) {
            return Err(r.fail("Action tile revealed twice"));
        }
        seen_act.insert(t);
        revealed.push(t);
    }
    for (i, slot) in act_pile.items.iter().enumerate() {
        if let Some(t) = *slot {
            if seen_act.contains(t) {
                return Err(fail_at(
                    act_pile.where_path(i),
                    "Action tile appears more than once",
                ));
            }
            seen_act.insert(t);
        }
    }
    let act_missing: Vec<usize> = ACTION_TILES.filter(|&t| !seen_act.contains(t)).collect();
    if act_missing.len() != act_pile.holes() {
        return Err(root.get("action_pile")?.fail(format!(
            "expected {} hidden Action tiles",
            act_missing.len()
        )));
    }
    if act_pile.items.is_empty() {
        return Err(root
            .get("action_pile")?
            .fail("the Action pile is never empty"));
    }
    if !act_pile.known.is_empty() {
        let Some(observer) = observer else {
            return Err(root
                .get("action_pile")?
                .fail("a view with counts needs an observer"));
        };
        known[observer].0 |= act_pile.known.0;
    }

    let mut stack = Vec::new();
    for r in root.get("pending")?.as_list(0, Some(PENDING_MAX))? {
        stack.push(decode_frame(&r)?);
    }
    let [p0, p1]: [Player; 2] = players
        .try_into()
        .map_err(|_| root.fail("expected 2 players"))?;
    Ok(LedaState {
        players: [Arc::new(p0), Arc::new(p1)],
        active,
        action_pile: list_of(&act_pile.fill(&mut act_missing.into_iter())),
        revealed,
        mv_pile: list_of(&mv_pile.fill(&mut mv_missing.into_iter())),
        zone,
        blocked,
        stack,
        known,
        winner,
    })
}
