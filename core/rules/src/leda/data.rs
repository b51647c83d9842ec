//! All LEDA component data: clans, squares and zones, the one id space of hidden items (the
//! clan cards, the Action tiles, the MV tokens), effects and their ops, tiles and their faces,
//! MV tokens, the clan cards with both faces and their costs.
//!
//! The tables come from `engine/leda/components.json`, the one data file that the Python engine
//! (`engine/leda/data.py`) and the analysis board read too: the crate's build script
//! (`core/rules/codegen/`) writes them out as constants, with the same ids, names and order as
//! Python's, so they cost nothing at run time. This module adds what is code rather than data:
//! the types, the op and Panda level vocabularies, the components the rules single out (found
//! by name when compiling: a name the data lacks fails the build), the tables derived from the
//! data, and the layout the native state relies on (checked when compiling). The vector test
//! `tests/leda_codec_vectors.rs` compares every table with the Python engine's.

use std::ops::Range;

include!(concat!(env!("OUT_DIR"), "/leda_components.rs"));

/// The data file itself (the build script compiled it into the tables above).
pub const DATA: &str = include_str!("../../../../engine/leda/components.json");

// ---------------------------------------------------------------------------- types

/// One op of an effect: its kind (`OP_*`) and integer arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    /// The op kind, one of the `OP_*` constants.
    pub kind: u8,
    /// Its arguments (effect ids for `OP_OR`; amounts, flags otherwise).
    pub args: &'static [i32],
}

/// An effect: its ops, resolved left to right, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Its id in the data file (`food-1`, `copy`, ...).
    pub id: &'static str,
    /// The ops, in resolution order (empty: nothing happens).
    pub ops: &'static [Op],
    /// The text the Python engine gives it.
    pub text: &'static str,
}

/// One clan card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its name (`cat-1` .. `scorpion-11`), also its item name.
    pub name: &'static str,
    /// Its clan index.
    pub clan: usize,
    /// The effects of its two faces (`NONE`: blank). Cats: normal and rotated; Sharks: normal
    /// and Pack; other cards have a single face.
    pub faces: [i32; 2],
    /// Its Food cost; -1 when not paid in Food (a card cost, a Portal, or not playable).
    pub food_cost: i32,
    /// Cards put under the deck to play it (Cats).
    pub card_cost: u32,
    /// Its short text.
    pub text: &'static str,
    /// A Ring's colour (`red`, `blue`, `purple`, `orange`).
    pub ring: Option<&'static str>,
    /// A Panda's level (`NO_LEVEL` .. `GOLD`).
    pub level: Option<u8>,
    /// A Gold Panda's role (`king`, `queen`).
    pub role: Option<&'static str>,
    /// A Portal's number (1..4).
    pub portal: Option<u8>,
}

// ---------------------------------------------------------------------------- names
/// True when two strings are equal (usable when compiling).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The index of `name` in `names`; a name the data lacks fails the build.
const fn named(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        if same(names[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("the rules name a LEDA component that engine/leda/components.json lacks");
}

/// The one card `found` marks; anything else fails the build.
const fn only_card(found: [bool; CARD_COUNT]) -> usize {
    let (mut card, mut count, mut at) = (0, 0, 0);
    while card < CARD_COUNT {
        if found[card] {
            count += 1;
            at = card;
        }
        card += 1;
    }
    assert!(count == 1, "the rules need exactly one such LEDA card");
    at
}

/// True when `value` is `Some(wanted)`.
const fn is(value: Option<&str>, wanted: &str) -> bool {
    match value {
        Some(text) => same(text, wanted),
        None => false,
    }
}

/// The Ring of that colour.
const fn ring(colour: &str) -> usize {
    let mut found = [false; CARD_COUNT];
    let mut card = 0;
    while card < CARD_COUNT {
        found[card] = is(CARDS[card].ring, colour);
        card += 1;
    }
    only_card(found)
}

/// The Gold Panda with that role.
const fn royal(role: &str) -> usize {
    let mut found = [false; CARD_COUNT];
    let mut card = 0;
    while card < CARD_COUNT {
        found[card] = is(CARDS[card].role, role);
        card += 1;
    }
    only_card(found)
}

/// The Portal with that number.
const fn portal(number: u8) -> usize {
    let mut found = [false; CARD_COUNT];
    let mut card = 0;
    while card < CARD_COUNT {
        found[card] = matches!(CARDS[card].portal, Some(n) if n == number);
        card += 1;
    }
    only_card(found)
}

/// The card with that effect on a face.
const fn card_with_effect(fx: i32) -> usize {
    let mut found = [false; CARD_COUNT];
    let mut card = 0;
    while card < CARD_COUNT {
        found[card] = CARDS[card].faces[0] == fx || CARDS[card].faces[1] == fx;
        card += 1;
    }
    only_card(found)
}

// ---------------------------------------------------------------------------- clans
/// The Cats' clan index.
pub const CATS: usize = named(&CLAN_NAMES, "cats");
/// The Pandas' clan index.
pub const PANDAS: usize = named(&CLAN_NAMES, "pandas");
/// The Sharks' clan index.
pub const SHARKS: usize = named(&CLAN_NAMES, "sharks");
/// The Scorpions' clan index.
pub const SCORPIONS: usize = named(&CLAN_NAMES, "scorpions");

// ---------------------------------------------------------------------------- squares, zones
/// The four corner squares.
pub const CORNERS: [usize; 4] = [0, GRID_COLUMNS - 1, SQUARES - GRID_COLUMNS, SQUARES - 1];

/// The squares of each zone as a bit mask.
pub const ZONE_MASKS: [u16; ZONE_COUNT] = {
    let mut masks = [0u16; ZONE_COUNT];
    let mut zone = 0;
    while zone < ZONE_COUNT {
        let mut i = 0;
        while i < ZONE_SQUARES[zone].len() {
            masks[zone] |= 1 << ZONE_SQUARES[zone][i];
            i += 1;
        }
        zone += 1;
    }
    masks
};

// ---------------------------------------------------------------------------- effect ops
/// The ops the engines know, by name (as the data file writes them); an op's kind is its index.
pub const OP_NAMES: [&str; 37] = [
    "food",
    "military",
    "draw",
    "upgrade",
    "spy",
    "special",
    "flip",
    "steal",
    "or",
    "play-discount",
    "draw-mv",
    "queen",
    "activate-tile-upgrade",
    "retrigger-mv",
    "mv-under-draw",
    "military-per-adjacent-token",
    "food-per-mv-pair",
    "food-per-mv",
    "place-token",
    "copy",
    "search-ring",
    "activate-tile",
    "military-per-hand",
    "food-per-hand",
    "ring-for-mv",
    "food-per-desert-pair",
    "military-per-desert-pair",
    "discount-per-desert-pair",
    "desert-effect",
    "upgrade-activate",
    "portal-bonus",
    "spy-twice",
    "downgrade-opponent",
    "swap",
    "block-mv",
    "awaken",
    "ring-rotate",
];

/// The kind of the op named `name` (a name the engine does not know fails the build).
pub const fn op_kind(name: &str) -> u8 {
    named(&OP_NAMES, name) as u8
}

/// Op kind `OP_FOOD` of `data.py`.
pub const OP_FOOD: u8 = op_kind("food");
/// Op kind `OP_MIL` of `data.py`.
pub const OP_MIL: u8 = op_kind("military");
/// Op kind `OP_DRAW` of `data.py`.
pub const OP_DRAW: u8 = op_kind("draw");
/// Op kind `OP_UPGRADE` of `data.py`.
pub const OP_UPGRADE: u8 = op_kind("upgrade");
/// Op kind `OP_SPY` of `data.py`.
pub const OP_SPY: u8 = op_kind("spy");
/// Op kind `OP_SPECIAL` of `data.py`.
pub const OP_SPECIAL: u8 = op_kind("special");
/// Op kind `OP_FLIP` of `data.py`.
pub const OP_FLIP: u8 = op_kind("flip");
/// Op kind `OP_STEAL` of `data.py`.
pub const OP_STEAL: u8 = op_kind("steal");
/// Op kind `OP_OR` of `data.py`.
pub const OP_OR: u8 = op_kind("or");
/// Op kind `OP_PLAY_DISCOUNT` of `data.py`.
pub const OP_PLAY_DISCOUNT: u8 = op_kind("play-discount");
/// Op kind `OP_DRAW_MV` of `data.py`.
pub const OP_DRAW_MV: u8 = op_kind("draw-mv");
/// Op kind `OP_QUEEN` of `data.py`.
pub const OP_QUEEN: u8 = op_kind("queen");
/// Op kind `OP_ACT_TILE_UPGRADE` of `data.py`.
pub const OP_ACT_TILE_UPGRADE: u8 = op_kind("activate-tile-upgrade");
/// Op kind `OP_RETRIGGER_MV` of `data.py`.
pub const OP_RETRIGGER_MV: u8 = op_kind("retrigger-mv");
/// Op kind `OP_MV_UNDER_DRAW` of `data.py`.
pub const OP_MV_UNDER_DRAW: u8 = op_kind("mv-under-draw");
/// Op kind `OP_MIL_PER_ADJ_TOKEN` of `data.py`.
pub const OP_MIL_PER_ADJ_TOKEN: u8 = op_kind("military-per-adjacent-token");
/// Op kind `OP_FOOD_PER_MV_PAIR` of `data.py`.
pub const OP_FOOD_PER_MV_PAIR: u8 = op_kind("food-per-mv-pair");
/// Op kind `OP_FOOD_PER_MV` of `data.py`.
pub const OP_FOOD_PER_MV: u8 = op_kind("food-per-mv");
/// Op kind `OP_PLACE_TOKEN` of `data.py`.
pub const OP_PLACE_TOKEN: u8 = op_kind("place-token");
/// Op kind `OP_COPY` of `data.py`.
pub const OP_COPY: u8 = op_kind("copy");
/// Op kind `OP_SEARCH_RING` of `data.py`.
pub const OP_SEARCH_RING: u8 = op_kind("search-ring");
/// Op kind `OP_ACT_TILE` of `data.py`.
pub const OP_ACT_TILE: u8 = op_kind("activate-tile");
/// Op kind `OP_MIL_PER_HAND` of `data.py`.
pub const OP_MIL_PER_HAND: u8 = op_kind("military-per-hand");
/// Op kind `OP_FOOD_PER_HAND` of `data.py`.
pub const OP_FOOD_PER_HAND: u8 = op_kind("food-per-hand");
/// Op kind `OP_RING_FOR_MV` of `data.py`.
pub const OP_RING_FOR_MV: u8 = op_kind("ring-for-mv");
/// Op kind `OP_FOOD_PER_DESERT_PAIR` of `data.py`.
pub const OP_FOOD_PER_DESERT_PAIR: u8 = op_kind("food-per-desert-pair");
/// Op kind `OP_MIL_PER_DESERT_PAIR` of `data.py`.
pub const OP_MIL_PER_DESERT_PAIR: u8 = op_kind("military-per-desert-pair");
/// Op kind `OP_DISCOUNT_DESERT_PAIRS` of `data.py`.
pub const OP_DISCOUNT_DESERT_PAIRS: u8 = op_kind("discount-per-desert-pair");
/// Op kind `OP_DESERT_FX` of `data.py`.
pub const OP_DESERT_FX: u8 = op_kind("desert-effect");
/// Op kind `OP_UPGRADE_ACTIVATE` of `data.py`.
pub const OP_UPGRADE_ACTIVATE: u8 = op_kind("upgrade-activate");
/// Op kind `OP_PORTAL_BONUS` of `data.py`.
pub const OP_PORTAL_BONUS: u8 = op_kind("portal-bonus");
/// Op kind `OP_SPY2` of `data.py`.
pub const OP_SPY2: u8 = op_kind("spy-twice");
/// Op kind `OP_DOWNGRADE_OPP` of `data.py`.
pub const OP_DOWNGRADE_OPP: u8 = op_kind("downgrade-opponent");
/// Op kind `OP_SWAP` of `data.py`.
pub const OP_SWAP: u8 = op_kind("swap");
/// Op kind `OP_BLOCK_MV` of `data.py`.
pub const OP_BLOCK_MV: u8 = op_kind("block-mv");
/// Op kind `OP_AWAKEN` of `data.py`.
pub const OP_AWAKEN: u8 = op_kind("awaken");
/// Op kind `OP_RING_ROTATE` of `data.py`.
pub const OP_RING_ROTATE: u8 = op_kind("ring-rotate");

// ---------------------------------------------------------------------------- effects
/// A blank face (no effect).
pub const NONE: i32 = -1;

/// The id of the effect named `name` in the data file.
pub const fn effect(name: &str) -> i32 {
    let mut fx = 0;
    while fx < EFFECT_COUNT {
        if same(EFFECTS[fx].id, name) {
            return fx as i32;
        }
        fx += 1;
    }
    panic!("the rules name a LEDA effect that engine/leda/components.json lacks");
}

/// Effect id `FX_FOOD1` of `data.py`: 1 Food.
pub const FX_FOOD1: i32 = effect("food-1");
/// Effect id `FX_FOOD2` of `data.py`: 2 Food.
pub const FX_FOOD2: i32 = effect("food-2");
/// Effect id `FX_MIL1` of `data.py`: 1 Military.
pub const FX_MIL1: i32 = effect("military-1");
/// Effect id `FX_MIL2` of `data.py`: 2 Military.
pub const FX_MIL2: i32 = effect("military-2");
/// Effect id `FX_DRAW1` of `data.py`: Draw 1.
pub const FX_DRAW1: i32 = effect("draw-1");
/// Effect id `FX_DRAW2` of `data.py`: Draw 2.
pub const FX_DRAW2: i32 = effect("draw-2");
/// Effect id `FX_UPGRADE` of `data.py`: Upgrade 1 tile.
pub const FX_UPGRADE: i32 = effect("upgrade");
/// Effect id `FX_SPY` of `data.py`: Spy.
pub const FX_SPY: i32 = effect("spy");
/// Effect id `FX_SPECIAL` of `data.py`: Special activation.
pub const FX_SPECIAL: i32 = effect("special");
/// Effect id `FX_SPECIAL_FOOD` of `data.py`: Special activation + 1 Food.
pub const FX_SPECIAL_FOOD: i32 = effect("special-food");
/// Effect id `FX_FLIP` of `data.py`: Flip one of your Deserts.
pub const FX_FLIP: i32 = effect("flip");
/// Effect id `FX_STEAL` of `data.py`: Steal 1 Food.
pub const FX_STEAL: i32 = effect("steal");
/// Effect id `FX_NOTHING` of `data.py`: nothing.
pub const FX_NOTHING: i32 = effect("nothing");
/// Effect id `FX_AWAKEN` of `data.py`: 1 Awakening.
pub const FX_AWAKEN: i32 = effect("awaken");
/// Effect id `FX_RING` of `data.py`: You may rotate one of your Cat cards.
pub const FX_RING: i32 = effect("ring-rotate");

// ---------------------------------------------------------------------------- tiles
/// Tile kind `food`.
pub const T_FOOD: usize = named(&TILE_KIND_NAMES, "food");
/// Tile kind `military`.
pub const T_MIL: usize = named(&TILE_KIND_NAMES, "military");
/// Tile kind `draw`.
pub const T_DRAW: usize = named(&TILE_KIND_NAMES, "draw");
/// Tile kind `special`.
pub const T_SPECIAL: usize = named(&TILE_KIND_NAMES, "special");
/// Tile kind `temp-food`.
pub const T_TEMP_FOOD: usize = named(&TILE_KIND_NAMES, "temp-food");
/// Tile kind `temp-military`.
pub const T_TEMP_MIL: usize = named(&TILE_KIND_NAMES, "temp-military");
/// Tile kind `temp-draw`.
pub const T_TEMP_DRAW: usize = named(&TILE_KIND_NAMES, "temp-draw");
/// Tile kind `temp-upgrade`.
pub const T_TEMP_UPGRADE: usize = named(&TILE_KIND_NAMES, "temp-upgrade");
/// Tile kind `temp-special`.
pub const T_TEMP_SPECIAL: usize = named(&TILE_KIND_NAMES, "temp-special");

/// Whether each tile is permanent (else temporary: its back is a Desert).
pub const TILE_PERMANENT: [bool; SQUARES] = {
    let mut permanent = [false; SQUARES];
    let mut tile = 0;
    while tile < SQUARES {
        permanent[tile] = TILE_KIND_PERMANENT[TILE_KIND[tile]];
        tile += 1;
    }
    permanent
};
/// Tile face names: 0 front, 1 back.
pub const TILE_FACE_NAMES: [&str; 2] = ["front", "back"];

// ---------------------------------------------------------------------------- clan cards
/// Panda levels by name, as the data file writes them; a level's number is its index.
pub const LEVEL_NAMES: [&str; 4] = ["none", "bronze", "silver", "gold"];

/// The number of the Panda level named `name` (a name the engine does not know fails the build).
pub const fn level_named(name: &str) -> u8 {
    named(&LEVEL_NAMES, name) as u8
}

/// Panda level: none.
pub const NO_LEVEL: u8 = level_named("none");
/// Panda level: Bronze.
pub const BRONZE: u8 = level_named("bronze");
/// Panda level: Silver.
pub const SILVER: u8 = level_named("silver");
/// Panda level: Gold.
pub const GOLD: u8 = level_named("gold");

/// Card id `CAT_COPY` (the card with the Copy effect).
pub const CAT_COPY: usize = card_with_effect(effect("copy"));
/// Card id `CAT_SEARCH` (the card searching a Ring).
pub const CAT_SEARCH: usize = card_with_effect(effect("search-ring"));
/// Card id `RING_RED`.
pub const RING_RED: usize = ring("red");
/// Card id `RING_BLUE`.
pub const RING_BLUE: usize = ring("blue");
/// Card id `RING_PURPLE`.
pub const RING_PURPLE: usize = ring("purple");
/// Card id `RING_ORANGE`.
pub const RING_ORANGE: usize = ring("orange");
/// Card id `PANDA_KING`.
pub const PANDA_KING: usize = royal("king");
/// Card id `PANDA_QUEEN`.
pub const PANDA_QUEEN: usize = royal("queen");
/// Card id `PORTAL_1`.
pub const PORTAL_1: usize = portal(1);
/// Card id `PORTAL_2`.
pub const PORTAL_2: usize = portal(2);
/// Card id `PORTAL_3`.
pub const PORTAL_3: usize = portal(3);
/// Card id `PORTAL_4`.
pub const PORTAL_4: usize = portal(4);
/// The four Rings (red, blue, purple, orange: the order of the Ring masks).
pub const RINGS: [usize; 4] = [RING_RED, RING_BLUE, RING_PURPLE, RING_ORANGE];
/// The four Portals.
pub const PORTALS: [usize; 4] = [PORTAL_1, PORTAL_2, PORTAL_3, PORTAL_4];

/// The first card id and one past the last of each clan.
const CLAN_CARD_BOUNDS: [(usize, usize); CLAN_COUNT] = {
    let mut bounds = [(CARD_COUNT, 0); CLAN_COUNT];
    let mut card = 0;
    while card < CARD_COUNT {
        let clan = CARDS[card].clan;
        if card < bounds[clan].0 {
            bounds[clan].0 = card;
        }
        bounds[clan].1 = card + 1;
        card += 1;
    }
    bounds
};

/// The card ids of a clan (`CLAN_CARDS` in Python), ascending.
pub const fn clan_cards(clan: usize) -> Range<usize> {
    CLAN_CARD_BOUNDS[clan].0..CLAN_CARD_BOUNDS[clan].1
}

/// Rotating Cat cards (every Cat card but the Rings): ids 0.. of the clan cards.
pub const CAT_ROTATING_COUNT: usize = {
    let mut count = 0;
    let mut card = 0;
    while card < CARD_COUNT {
        if CARDS[card].clan == CATS && CARDS[card].ring.is_none() {
            count += 1;
        }
        card += 1;
    }
    count
};

/// The id of the first Panda card.
pub const PANDA_BASE: usize = clan_cards(PANDAS).start;
/// Panda cards.
const PANDA_COUNT: usize = clan_cards(PANDAS).end - PANDA_BASE;
/// The level of each Panda card (the first Panda first).
pub const PANDA_LEVEL: [u8; PANDA_COUNT] = {
    let mut levels = [NO_LEVEL; PANDA_COUNT];
    let mut i = 0;
    while i < PANDA_COUNT {
        levels[i] = match CARDS[PANDA_BASE + i].level {
            Some(level) => level,
            None => panic!("every LEDA Panda card needs a level"),
        };
        i += 1;
    }
    levels
};

// ---------------------------------------------------------------------------- layout
/// The layout the native state and these tables rely on, checked when compiling: the four
/// clans, each clan's cards in one run of ids, the rotating Cat cards first (a player's turned
/// cards are a 16-bit mask), sets of squares as 16-bit masks and sets of items as 128-bit ones.
const _: () = {
    assert!(CLAN_COUNT == 4, "LEDA has four clans");
    assert!(SQUARES <= 16, "sets of squares are 16-bit masks");
    assert!(ITEM_COUNT <= 128, "sets of items are 128-bit masks");
    assert!(
        CAT_ROTATING_COUNT <= 16,
        "turned Cat cards are a 16-bit mask"
    );
    let mut card = 0;
    while card < CARD_COUNT {
        let (start, end) = CLAN_CARD_BOUNDS[CARDS[card].clan];
        let mut other = start;
        while other < end {
            assert!(
                CARDS[other].clan == CARDS[card].clan,
                "a clan's cards must follow one another in the data file"
            );
            other += 1;
        }
        let rotating = CARDS[card].clan == CATS && CARDS[card].ring.is_none();
        assert!(
            rotating == (card < CAT_ROTATING_COUNT),
            "the rotating Cat cards must be the first cards of the data file"
        );
        card += 1;
    }
};

// ---------------------------------------------------------------------------- helpers
/// True for a Cat card that can be turned to its second face (not a Ring).
pub const fn is_cat_rotating(card: usize) -> bool {
    card < CAT_ROTATING_COUNT
}

/// True for an Action tile id.
pub const fn is_action_tile(item: usize) -> bool {
    item >= ACTION_TILE_BASE && item < ACTION_TILE_BASE + ACTION_TILE_COUNT
}

/// True for an MV token id.
pub const fn is_mv_token(item: usize) -> bool {
    item >= MV_BASE && item < MV_BASE + MV_TOKEN_COUNT
}

/// The item id of a name, if any.
pub fn item_by_name(name: &str) -> Option<usize> {
    ITEM_NAMES.iter().position(|n| *n == name)
}

/// The level of a card when it is a Panda (`PANDA_LEVEL.get(card)` in Python).
pub fn panda_level(card: usize) -> Option<u8> {
    card.checked_sub(PANDA_BASE)
        .and_then(|i| PANDA_LEVEL.get(i))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn tables_agree_with_each_other() {
        for clan in 0..CLAN_COUNT {
            for card in clan_cards(clan) {
                assert_eq!(CARDS[card].clan, clan);
                assert_eq!(ITEM_NAMES[card], CARDS[card].name);
            }
        }
        assert_eq!(MV_SYMBOLS.iter().sum::<u32>(), 20);
        assert_eq!(item_by_name("mv-1"), Some(MV_BASE));
        assert_eq!(item_by_name("action-5"), Some(ACTION_TILE_BASE + 4));
        assert_eq!(panda_level(PANDA_KING), Some(GOLD));
        assert_eq!(panda_level(RING_ORANGE), None);
        assert!(is_cat_rotating(8) && !is_cat_rotating(RING_RED));
        for (z, squares) in ZONE_SQUARES.iter().enumerate() {
            let mask = squares.iter().fold(0u16, |m, sq| m | 1 << sq);
            assert_eq!(ZONE_MASKS[z], mask);
        }
    }

    #[test]
    fn the_tables_are_the_data_files() {
        let data: Value = serde_json::from_str(DATA).unwrap();
        let records = |key: &str| data[key].as_array().unwrap().clone();
        let (cards, effects) = (records("cards"), records("effects"));
        assert_eq!((CARD_COUNT, ACTION_TILE_COUNT, MV_TOKEN_COUNT), (46, 5, 18));
        assert_eq!((cards.len(), effects.len(), EFFECT_COUNT), (46, 55, 55));
        assert_eq!(ITEM_COUNT, 69);
        assert_eq!([CATS, PANDAS, SHARKS, SCORPIONS], [0, 1, 2, 3]);
        assert_eq!(MV_THRESHOLD, [8, 7, 9, 6]);
        for (card, record) in CARDS.iter().zip(&cards) {
            assert_eq!(card.name, record["id"]);
            assert_eq!(CLAN_NAMES[card.clan], record["clan"]);
            assert_eq!(card.text, record["text"]);
            assert_eq!(
                i64::from(card.food_cost),
                record["food_cost"].as_i64().unwrap_or(-1)
            );
            let faces: Vec<Value> = card
                .faces
                .iter()
                .map(|&fx| match fx {
                    NONE => Value::Null,
                    fx => Value::from(EFFECTS[fx as usize].id),
                })
                .collect();
            assert_eq!(Value::from(faces), record["faces"]);
        }
        for (fx, record) in EFFECTS.iter().zip(&effects) {
            assert_eq!(
                (fx.id, fx.text),
                (
                    record["id"].as_str().unwrap(),
                    record["text"].as_str().unwrap()
                )
            );
            assert_eq!(fx.ops.len(), record["ops"].as_array().unwrap().len());
        }
        assert_eq!(
            [
                CAT_COPY,
                CAT_SEARCH,
                RING_RED,
                PANDA_KING,
                PANDA_QUEEN,
                PORTAL_1,
                PORTAL_4
            ],
            [0, 1, 9, 22, 23, 42, 45]
        );
        assert_eq!(
            (CAT_ROTATING_COUNT, PANDA_BASE, PANDA_LEVEL),
            (9, 13, [0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3])
        );
        assert_eq!(
            EFFECTS[FX_MIL1 as usize].ops,
            &[Op {
                kind: OP_MIL,
                args: &[1]
            }]
        );
        assert_eq!(
            EFFECTS[25].ops,
            &[Op {
                kind: OP_OR,
                args: &[FX_FOOD1, FX_MIL1]
            }]
        );
        assert_eq!(NEIGHBOURS[5], &[1, 9, 4, 6]);
        assert_eq!(CORNERS, [0, 3, 12, 15]);
    }
}
