//! All LEDA component data: clans, squares and zones, the one id space of hidden items (the 46
//! clan cards, the 5 Action tiles, the 18 MV tokens), effects and their ops, tiles and their
//! faces, MV tokens, the clan cards with both faces and their costs.
//!
//! A faithful port of the Python literals of `engine/leda/data.py`: the same ids, names and
//! order everywhere (effect ids are numbered in the order Python defines them). The vector test
//! `tests/leda_codec_vectors.rs` compares every table here with the Python engine's, as recorded
//! in `tests/vectors/leda_states.jsonl.gz`.

// ---------------------------------------------------------------------------- clans

/// The Cats' clan index.
pub const CATS: usize = 0;
/// The Pandas' clan index.
pub const PANDAS: usize = 1;
/// The Sharks' clan index.
pub const SHARKS: usize = 2;
/// The Scorpions' clan index.
pub const SCORPIONS: usize = 3;
/// Clan names, by clan index.
pub const CLAN_NAMES: [&str; 4] = ["cats", "pandas", "sharks", "scorpions"];
/// MV symbols a clan needs to win, by clan index.
pub const MV_THRESHOLD: [u32; 4] = [8, 7, 9, 6];
/// Cards dealt to each player's starting hand.
pub const STARTING_HAND: usize = 3;
/// Food each player starts with.
pub const STARTING_FOOD: u32 = 1;
/// Shark tokens in the Sharks' supply (placing all of them wins).
pub const SHARK_TOKENS: usize = 9;

// ---------------------------------------------------------------------------- squares
/// Squares of a grid (4 x 4, row-major).
pub const SQUARES: usize = 16;
/// Square names (`r1c1` .. `r4c4`), row-major.
pub const SQUARE_NAMES: [&str; SQUARES] = [
    "r1c1", "r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c3", "r2c4", "r3c1", "r3c2", "r3c3", "r3c4",
    "r4c1", "r4c2", "r4c3", "r4c4",
];
/// The four corner squares.
pub const CORNERS: [usize; 4] = [0, 3, 12, 15];
/// The orthogonal neighbours of each square (up, down, left, right when on the grid).
pub const NEIGHBOURS: [&[usize]; SQUARES] = [
    &[4, 1],
    &[5, 0, 2],
    &[6, 1, 3],
    &[7, 2],
    &[0, 8, 5],
    &[1, 9, 4, 6],
    &[2, 10, 5, 7],
    &[3, 11, 6],
    &[4, 12, 9],
    &[5, 13, 8, 10],
    &[6, 14, 9, 11],
    &[7, 15, 10],
    &[8, 13],
    &[9, 12, 14],
    &[10, 13, 15],
    &[11, 14],
];

// ---------------------------------------------------------------------------- zones
/// Zone names, by zone index.
pub const ZONE_NAMES: [&str; 14] = [
    "row1",
    "row2",
    "row3",
    "row4",
    "col1",
    "col2",
    "col3",
    "col4",
    "square-tl",
    "square-tr",
    "square-bl",
    "square-br",
    "corners",
    "centre",
];
/// The squares of each zone.
pub const ZONE_SQUARES: [[usize; 4]; 14] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 1, 4, 5],
    [2, 3, 6, 7],
    [8, 9, 12, 13],
    [10, 11, 14, 15],
    [0, 3, 12, 15],
    [5, 6, 9, 10],
];
/// The squares of each zone as a bit mask.
pub const ZONE_MASKS: [u16; 14] = [
    15, 240, 3840, 61440, 4369, 8738, 17476, 34952, 51, 204, 13056, 52224, 36873, 1632,
];

// ---------------------------------------------------------------------------- items
/// Clan cards (ids 0..46 of the item id space).
pub const CARD_COUNT: usize = 46;
/// The id of `action-1`; the Action tiles are ids 46..51.
pub const ACTION_TILE_BASE: usize = 46;
/// Action tiles.
pub const ACTION_TILE_COUNT: usize = 5;
/// The id of `mv-1`; the MV tokens are ids 51..69.
pub const MV_BASE: usize = 51;
/// MV tokens.
pub const MV_TOKEN_COUNT: usize = 18;
/// Items in the one id space of hidden things (cards, Action tiles, MV tokens).
pub const ITEM_COUNT: usize = 69;
/// The zones each Action tile offers, by tile index (`action-1` first).
pub const ACTION_TILE_ZONES: [&[usize]; ACTION_TILE_COUNT] =
    [&[0, 4, 8], &[1, 5, 9], &[2, 6, 10], &[3, 7, 11], &[12, 13]];

// ---------------------------------------------------------------------------- effect ops
/// Op kind `OP_FOOD` of `data.py`.
pub const OP_FOOD: u8 = 0;
/// Op kind `OP_MIL` of `data.py`.
pub const OP_MIL: u8 = 1;
/// Op kind `OP_DRAW` of `data.py`.
pub const OP_DRAW: u8 = 2;
/// Op kind `OP_UPGRADE` of `data.py`.
pub const OP_UPGRADE: u8 = 3;
/// Op kind `OP_SPY` of `data.py`.
pub const OP_SPY: u8 = 4;
/// Op kind `OP_SPECIAL` of `data.py`.
pub const OP_SPECIAL: u8 = 5;
/// Op kind `OP_FLIP` of `data.py`.
pub const OP_FLIP: u8 = 6;
/// Op kind `OP_STEAL` of `data.py`.
pub const OP_STEAL: u8 = 7;
/// Op kind `OP_OR` of `data.py`.
pub const OP_OR: u8 = 8;
/// Op kind `OP_PLAY_DISCOUNT` of `data.py`.
pub const OP_PLAY_DISCOUNT: u8 = 9;
/// Op kind `OP_DRAW_MV` of `data.py`.
pub const OP_DRAW_MV: u8 = 10;
/// Op kind `OP_QUEEN` of `data.py`.
pub const OP_QUEEN: u8 = 11;
/// Op kind `OP_ACT_TILE_UPGRADE` of `data.py`.
pub const OP_ACT_TILE_UPGRADE: u8 = 12;
/// Op kind `OP_RETRIGGER_MV` of `data.py`.
pub const OP_RETRIGGER_MV: u8 = 13;
/// Op kind `OP_MV_UNDER_DRAW` of `data.py`.
pub const OP_MV_UNDER_DRAW: u8 = 14;
/// Op kind `OP_MIL_PER_ADJ_TOKEN` of `data.py`.
pub const OP_MIL_PER_ADJ_TOKEN: u8 = 15;
/// Op kind `OP_FOOD_PER_MV_PAIR` of `data.py`.
pub const OP_FOOD_PER_MV_PAIR: u8 = 16;
/// Op kind `OP_FOOD_PER_MV` of `data.py`.
pub const OP_FOOD_PER_MV: u8 = 17;
/// Op kind `OP_PLACE_TOKEN` of `data.py`.
pub const OP_PLACE_TOKEN: u8 = 18;
/// Op kind `OP_COPY` of `data.py`.
pub const OP_COPY: u8 = 19;
/// Op kind `OP_SEARCH_RING` of `data.py`.
pub const OP_SEARCH_RING: u8 = 20;
/// Op kind `OP_ACT_TILE` of `data.py`.
pub const OP_ACT_TILE: u8 = 21;
/// Op kind `OP_MIL_PER_HAND` of `data.py`.
pub const OP_MIL_PER_HAND: u8 = 22;
/// Op kind `OP_FOOD_PER_HAND` of `data.py`.
pub const OP_FOOD_PER_HAND: u8 = 23;
/// Op kind `OP_RING_FOR_MV` of `data.py`.
pub const OP_RING_FOR_MV: u8 = 24;
/// Op kind `OP_FOOD_PER_DESERT_PAIR` of `data.py`.
pub const OP_FOOD_PER_DESERT_PAIR: u8 = 25;
/// Op kind `OP_MIL_PER_DESERT_PAIR` of `data.py`.
pub const OP_MIL_PER_DESERT_PAIR: u8 = 26;
/// Op kind `OP_DISCOUNT_DESERT_PAIRS` of `data.py`.
pub const OP_DISCOUNT_DESERT_PAIRS: u8 = 27;
/// Op kind `OP_DESERT_FX` of `data.py`.
pub const OP_DESERT_FX: u8 = 28;
/// Op kind `OP_UPGRADE_ACTIVATE` of `data.py`.
pub const OP_UPGRADE_ACTIVATE: u8 = 29;
/// Op kind `OP_PORTAL_BONUS` of `data.py`.
pub const OP_PORTAL_BONUS: u8 = 30;
/// Op kind `OP_SPY2` of `data.py`.
pub const OP_SPY2: u8 = 31;
/// Op kind `OP_DOWNGRADE_OPP` of `data.py`.
pub const OP_DOWNGRADE_OPP: u8 = 32;
/// Op kind `OP_SWAP` of `data.py`.
pub const OP_SWAP: u8 = 33;
/// Op kind `OP_BLOCK_MV` of `data.py`.
pub const OP_BLOCK_MV: u8 = 34;
/// Op kind `OP_AWAKEN` of `data.py`.
pub const OP_AWAKEN: u8 = 35;
/// Op kind `OP_RING_ROTATE` of `data.py`.
pub const OP_RING_ROTATE: u8 = 36;

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
    /// The ops, in resolution order (empty: nothing happens).
    pub ops: &'static [Op],
    /// The text the Python engine gives it.
    pub text: &'static str,
}

/// A blank face (no effect).
pub const NONE: i32 = -1;

/// Effect id `FX_FOOD1` of `data.py`: 1 Food.
pub const FX_FOOD1: i32 = 0;
/// Effect id `FX_FOOD2` of `data.py`: 2 Food.
pub const FX_FOOD2: i32 = 1;
/// Effect id `FX_MIL1` of `data.py`: 1 Military.
pub const FX_MIL1: i32 = 2;
/// Effect id `FX_MIL2` of `data.py`: 2 Military.
pub const FX_MIL2: i32 = 3;
/// Effect id `FX_DRAW1` of `data.py`: Draw 1.
pub const FX_DRAW1: i32 = 4;
/// Effect id `FX_DRAW2` of `data.py`: Draw 2.
pub const FX_DRAW2: i32 = 5;
/// Effect id `FX_UPGRADE` of `data.py`: Upgrade 1 tile.
pub const FX_UPGRADE: i32 = 6;
/// Effect id `FX_SPY` of `data.py`: Spy.
pub const FX_SPY: i32 = 7;
/// Effect id `FX_SPECIAL` of `data.py`: Special activation.
pub const FX_SPECIAL: i32 = 8;
/// Effect id `FX_SPECIAL_FOOD` of `data.py`: Special activation + 1 Food.
pub const FX_SPECIAL_FOOD: i32 = 9;
/// Effect id `FX_FLIP` of `data.py`: Flip one of your Deserts.
pub const FX_FLIP: i32 = 10;
/// Effect id `FX_STEAL` of `data.py`: Steal 1 Food.
pub const FX_STEAL: i32 = 11;
/// Effect id `FX_NOTHING` of `data.py`: nothing.
pub const FX_NOTHING: i32 = 12;
/// Effect id `FX_AWAKEN` of `data.py`: 1 Awakening.
pub const FX_AWAKEN: i32 = 13;
/// Effect id `FX_RING` of `data.py`: You may rotate one of your Cat cards.
pub const FX_RING: i32 = 23;
/// Every effect by id, in the order `data.py` defines them.
pub const EFFECTS: [Effect; 55] = [
    Effect {
        ops: &[Op {
            kind: 0,
            args: &[1],
        }],
        text: "1 Food",
    },
    Effect {
        ops: &[Op {
            kind: 0,
            args: &[2],
        }],
        text: "2 Food",
    },
    Effect {
        ops: &[Op {
            kind: 1,
            args: &[1],
        }],
        text: "1 Military",
    },
    Effect {
        ops: &[Op {
            kind: 1,
            args: &[2],
        }],
        text: "2 Military",
    },
    Effect {
        ops: &[Op {
            kind: 2,
            args: &[1],
        }],
        text: "Draw 1",
    },
    Effect {
        ops: &[Op {
            kind: 2,
            args: &[2],
        }],
        text: "Draw 2",
    },
    Effect {
        ops: &[Op { kind: 3, args: &[] }],
        text: "Upgrade 1 tile",
    },
    Effect {
        ops: &[Op { kind: 4, args: &[] }],
        text: "Spy",
    },
    Effect {
        ops: &[Op { kind: 5, args: &[] }],
        text: "Special activation",
    },
    Effect {
        ops: &[
            Op { kind: 5, args: &[] },
            Op {
                kind: 0,
                args: &[1],
            },
        ],
        text: "Special activation + 1 Food",
    },
    Effect {
        ops: &[Op { kind: 6, args: &[] }],
        text: "Flip one of your Deserts",
    },
    Effect {
        ops: &[Op { kind: 7, args: &[] }],
        text: "Steal 1 Food",
    },
    Effect {
        ops: &[],
        text: "nothing",
    },
    Effect {
        ops: &[Op {
            kind: 35,
            args: &[],
        }],
        text: "1 Awakening",
    },
    Effect {
        ops: &[Op {
            kind: 19,
            args: &[],
        }],
        text: "Copy",
    },
    Effect {
        ops: &[Op {
            kind: 20,
            args: &[],
        }],
        text: "Search a Ring",
    },
    Effect {
        ops: &[Op {
            kind: 21,
            args: &[],
        }],
        text: "Activate a tile",
    },
    Effect {
        ops: &[Op {
            kind: 22,
            args: &[],
        }],
        text: "1 Military per card in hand",
    },
    Effect {
        ops: &[Op {
            kind: 23,
            args: &[],
        }],
        text: "1 Food per card in hand",
    },
    Effect {
        ops: &[
            Op { kind: 4, args: &[] },
            Op {
                kind: 2,
                args: &[1],
            },
        ],
        text: "Spy; Draw 1",
    },
    Effect {
        ops: &[Op {
            kind: 24,
            args: &[],
        }],
        text: "Ring for an MV token",
    },
    Effect {
        ops: &[
            Op {
                kind: 0,
                args: &[1],
            },
            Op {
                kind: 1,
                args: &[1],
            },
        ],
        text: "1 Food; 1 Military",
    },
    Effect {
        ops: &[
            Op {
                kind: 2,
                args: &[1],
            },
            Op {
                kind: 0,
                args: &[1],
            },
        ],
        text: "Draw 1; 1 Food",
    },
    Effect {
        ops: &[Op {
            kind: 36,
            args: &[],
        }],
        text: "You may rotate one of your Cat cards",
    },
    Effect {
        ops: &[
            Op {
                kind: 2,
                args: &[1],
            },
            Op { kind: 5, args: &[] },
        ],
        text: "Draw 1; Special activation",
    },
    Effect {
        ops: &[Op {
            kind: 8,
            args: &[0, 2],
        }],
        text: "1 Food or 1 Military",
    },
    Effect {
        ops: &[
            Op {
                kind: 0,
                args: &[1],
            },
            Op {
                kind: 9,
                args: &[1, 1],
            },
        ],
        text: "1 Food; may play a Panda at 1 less",
    },
    Effect {
        ops: &[Op {
            kind: 8,
            args: &[4, 2],
        }],
        text: "Draw 1 or 1 Military",
    },
    Effect {
        ops: &[
            Op {
                kind: 0,
                args: &[1],
            },
            Op { kind: 4, args: &[] },
        ],
        text: "1 Food; Spy",
    },
    Effect {
        ops: &[
            Op {
                kind: 1,
                args: &[1],
            },
            Op { kind: 3, args: &[] },
        ],
        text: "1 Military; Upgrade",
    },
    Effect {
        ops: &[
            Op { kind: 4, args: &[] },
            Op {
                kind: 9,
                args: &[2, 1],
            },
        ],
        text: "Spy; may play a Panda at 2 less",
    },
    Effect {
        ops: &[
            Op {
                kind: 1,
                args: &[2],
            },
            Op {
                kind: 10,
                args: &[],
            },
        ],
        text: "2 Military; draw an MV token",
    },
    Effect {
        ops: &[Op {
            kind: 11,
            args: &[],
        }],
        text: "Activate another Panda card",
    },
    Effect {
        ops: &[Op {
            kind: 12,
            args: &[],
        }],
        text: "Activate a tile, then upgrade it",
    },
    Effect {
        ops: &[
            Op {
                kind: 1,
                args: &[1],
            },
            Op {
                kind: 13,
                args: &[],
            },
        ],
        text: "1 Military; retrigger an MV token",
    },
    Effect {
        ops: &[Op {
            kind: 14,
            args: &[],
        }],
        text: "MV token under the pile, draw one",
    },
    Effect {
        ops: &[
            Op {
                kind: 1,
                args: &[1],
            },
            Op {
                kind: 2,
                args: &[1],
            },
        ],
        text: "1 Military; Draw 1",
    },
    Effect {
        ops: &[Op {
            kind: 15,
            args: &[],
        }],
        text: "1 Military per adjacent Shark token",
    },
    Effect {
        ops: &[Op {
            kind: 10,
            args: &[],
        }],
        text: "Draw an MV token",
    },
    Effect {
        ops: &[Op {
            kind: 9,
            args: &[2, 0],
        }],
        text: "May play a card at 2 less",
    },
    Effect {
        ops: &[Op {
            kind: 16,
            args: &[],
        }],
        text: "1 Food per pair of MV tokens",
    },
    Effect {
        ops: &[Op {
            kind: 17,
            args: &[],
        }],
        text: "1 Food per MV token",
    },
    Effect {
        ops: &[Op {
            kind: 18,
            args: &[],
        }],
        text: "Place a Shark token",
    },
    Effect {
        ops: &[Op {
            kind: 25,
            args: &[],
        }],
        text: "1 Food per pair of Deserts",
    },
    Effect {
        ops: &[Op {
            kind: 26,
            args: &[],
        }],
        text: "1 Military per pair of Deserts",
    },
    Effect {
        ops: &[
            Op {
                kind: 2,
                args: &[1],
            },
            Op {
                kind: 0,
                args: &[1],
            },
        ],
        text: "Draw 1; 1 Food",
    },
    Effect {
        ops: &[Op {
            kind: 27,
            args: &[],
        }],
        text: "May play a card at 1 less per Desert pair",
    },
    Effect {
        ops: &[Op {
            kind: 28,
            args: &[],
        }],
        text: "Activate a Desert's reminded effect",
    },
    Effect {
        ops: &[Op {
            kind: 29,
            args: &[],
        }],
        text: "Upgrade a tile, then activate it",
    },
    Effect {
        ops: &[
            Op {
                kind: 0,
                args: &[1],
            },
            Op {
                kind: 30,
                args: &[],
            },
        ],
        text: "1 Food; Portal bonuses",
    },
    Effect {
        ops: &[Op {
            kind: 31,
            args: &[],
        }],
        text: "Spy twice",
    },
    Effect {
        ops: &[Op {
            kind: 32,
            args: &[],
        }],
        text: "The opponent downgrades a tile",
    },
    Effect {
        ops: &[Op {
            kind: 33,
            args: &[],
        }],
        text: "Swap 2 of your squares",
    },
    Effect {
        ops: &[Op {
            kind: 34,
            args: &[],
        }],
        text: "No MV token this round",
    },
    Effect {
        ops: &[Op {
            kind: 8,
            args: &[0, 13],
        }],
        text: "1 Food or 1 Awakening",
    },
];

// ---------------------------------------------------------------------------- tiles
/// Tile kinds.
pub const TILE_KIND_COUNT: usize = 9;
/// Tile kind `food`.
pub const T_FOOD: usize = 0;
/// Tile kind `military`.
pub const T_MIL: usize = 1;
/// Tile kind `draw`.
pub const T_DRAW: usize = 2;
/// Tile kind `special`.
pub const T_SPECIAL: usize = 3;
/// Tile kind `temp-food`.
pub const T_TEMP_FOOD: usize = 4;
/// Tile kind `temp-military`.
pub const T_TEMP_MIL: usize = 5;
/// Tile kind `temp-draw`.
pub const T_TEMP_DRAW: usize = 6;
/// Tile kind `temp-upgrade`.
pub const T_TEMP_UPGRADE: usize = 7;
/// Tile kind `temp-special`.
pub const T_TEMP_SPECIAL: usize = 8;
/// Tile kind names.
pub const TILE_KIND_NAMES: [&str; TILE_KIND_COUNT] = [
    "food",
    "military",
    "draw",
    "special",
    "temp-food",
    "temp-military",
    "temp-draw",
    "temp-upgrade",
    "temp-special",
];
/// (front, back) effect of each tile kind; the back of a temporary tile is the Desert (`NONE`).
pub const TILE_KIND_FX: [[i32; 2]; TILE_KIND_COUNT] = [
    [0, 1],
    [2, 3],
    [4, 5],
    [8, 9],
    [0, -1],
    [2, -1],
    [4, -1],
    [6, -1],
    [8, -1],
];
/// The kind of each of the 16 tiles of a grid (tile ids 0..16).
pub const TILE_KIND: [usize; SQUARES] = [0, 0, 0, 0, 1, 1, 2, 3, 4, 4, 4, 4, 5, 6, 7, 8];
/// Whether each tile is permanent (else temporary: its back is a Desert).
pub const TILE_PERMANENT: [bool; SQUARES] = [
    true, true, true, true, true, true, true, true, false, false, false, false, false, false,
    false, false,
];
/// Tile names, by tile id.
pub const TILE_NAMES: [&str; SQUARES] = [
    "food-1",
    "food-2",
    "food-3",
    "food-4",
    "military-1",
    "military-2",
    "draw",
    "special",
    "temp-food-1",
    "temp-food-2",
    "temp-food-3",
    "temp-food-4",
    "temp-military",
    "temp-draw",
    "temp-upgrade",
    "temp-special",
];
/// Tile face names: 0 front, 1 back.
pub const TILE_FACE_NAMES: [&str; 2] = ["front", "back"];

// ---------------------------------------------------------------------------- MV tokens
/// MV symbols of each token (`mv-1` first).
pub const MV_SYMBOLS: [u32; MV_TOKEN_COUNT] =
    [1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
/// The effect of each token (`mv-1` first).
pub const MV_FX: [i32; MV_TOKEN_COUNT] = [
    12, 12, 12, 12, 12, 7, 7, 10, 10, 6, 6, 6, 0, 0, 11, 11, 4, 4,
];

// ---------------------------------------------------------------------------- clan cards
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
}

/// The 46 clan cards by id: Cats 0..13 (nine rotating cards then the Red, Blue, Purple and
/// Orange Rings), Pandas 13..24, Sharks 24..35, Scorpions 35..46 (Portals P1..P4 last).
pub const CARDS: [Card; CARD_COUNT] = [
    Card {
        name: "cat-1",
        clan: 0,
        faces: [14, 5],
        food_cost: -1,
        card_cost: 3,
        text: "Copy | Draw 2",
    },
    Card {
        name: "cat-2",
        clan: 0,
        faces: [15, -1],
        food_cost: 2,
        card_cost: 0,
        text: "Search | -",
    },
    Card {
        name: "cat-3",
        clan: 0,
        faces: [6, 16],
        food_cost: -1,
        card_cost: 2,
        text: "Upgrade | Activate",
    },
    Card {
        name: "cat-4",
        clan: 0,
        faces: [17, 18],
        food_cost: 7,
        card_cost: 0,
        text: "Military per card | Food per card",
    },
    Card {
        name: "cat-5",
        clan: 0,
        faces: [19, -1],
        food_cost: 4,
        card_cost: 0,
        text: "Spy; Draw 1 | -",
    },
    Card {
        name: "cat-6",
        clan: 0,
        faces: [20, -1],
        food_cost: 5,
        card_cost: 0,
        text: "Ring -> MV | -",
    },
    Card {
        name: "cat-7",
        clan: 0,
        faces: [21, -1],
        food_cost: -1,
        card_cost: 1,
        text: "F; M | -",
    },
    Card {
        name: "cat-8",
        clan: 0,
        faces: [22, -1],
        food_cost: 5,
        card_cost: 0,
        text: "Draw; Food | -",
    },
    Card {
        name: "cat-9",
        clan: 0,
        faces: [3, 6],
        food_cost: 6,
        card_cost: 0,
        text: "2 Military | Upgrade",
    },
    Card {
        name: "cat-10",
        clan: 0,
        faces: [23, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Red Ring",
    },
    Card {
        name: "cat-11",
        clan: 0,
        faces: [23, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Blue Ring",
    },
    Card {
        name: "cat-12",
        clan: 0,
        faces: [23, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Purple Ring",
    },
    Card {
        name: "cat-13",
        clan: 0,
        faces: [23, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Orange Ring",
    },
    Card {
        name: "panda-1",
        clan: 1,
        faces: [24, -1],
        food_cost: 5,
        card_cost: 0,
        text: "Draw 1; Special activation",
    },
    Card {
        name: "panda-2",
        clan: 1,
        faces: [6, -1],
        food_cost: 5,
        card_cost: 0,
        text: "Upgrade 1 tile",
    },
    Card {
        name: "panda-3",
        clan: 1,
        faces: [25, -1],
        food_cost: 5,
        card_cost: 0,
        text: "1 Food or 1 Military",
    },
    Card {
        name: "panda-4",
        clan: 1,
        faces: [26, -1],
        food_cost: 5,
        card_cost: 0,
        text: "1 Food; may play a Panda at 1 less",
    },
    Card {
        name: "panda-5",
        clan: 1,
        faces: [27, -1],
        food_cost: 5,
        card_cost: 0,
        text: "Draw 1 or 1 Military",
    },
    Card {
        name: "panda-6",
        clan: 1,
        faces: [28, -1],
        food_cost: 5,
        card_cost: 0,
        text: "1 Food; Spy",
    },
    Card {
        name: "panda-7",
        clan: 1,
        faces: [3, -1],
        food_cost: -1,
        card_cost: 0,
        text: "2 Military",
    },
    Card {
        name: "panda-8",
        clan: 1,
        faces: [29, -1],
        food_cost: -1,
        card_cost: 0,
        text: "1 Military; Upgrade",
    },
    Card {
        name: "panda-9",
        clan: 1,
        faces: [30, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Spy; may play a Panda at 2 less",
    },
    Card {
        name: "panda-10",
        clan: 1,
        faces: [31, -1],
        food_cost: -1,
        card_cost: 0,
        text: "2 Military; draw an MV token",
    },
    Card {
        name: "panda-11",
        clan: 1,
        faces: [32, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Activate another Panda card",
    },
    Card {
        name: "shark-1",
        clan: 2,
        faces: [6, 33],
        food_cost: 6,
        card_cost: 0,
        text: "Upgrade 1 tile | Pack: Activate a tile, then upgrade it",
    },
    Card {
        name: "shark-2",
        clan: 2,
        faces: [7, 34],
        food_cost: 6,
        card_cost: 0,
        text: "Spy | Pack: 1 Military; retrigger an MV token",
    },
    Card {
        name: "shark-3",
        clan: 2,
        faces: [-1, 35],
        food_cost: 3,
        card_cost: 0,
        text: "- | Pack: MV token under the pile, draw one",
    },
    Card {
        name: "shark-4",
        clan: 2,
        faces: [2, 3],
        food_cost: 5,
        card_cost: 0,
        text: "1 Military | Pack: 2 Military",
    },
    Card {
        name: "shark-5",
        clan: 2,
        faces: [2, 36],
        food_cost: 4,
        card_cost: 0,
        text: "1 Military | Pack: 1 Military; Draw 1",
    },
    Card {
        name: "shark-6",
        clan: 2,
        faces: [3, 37],
        food_cost: 7,
        card_cost: 0,
        text: "2 Military | Pack: 1 Military per adjacent Shark token",
    },
    Card {
        name: "shark-7",
        clan: 2,
        faces: [-1, 38],
        food_cost: 7,
        card_cost: 0,
        text: "- | Pack: Draw an MV token",
    },
    Card {
        name: "shark-8",
        clan: 2,
        faces: [0, 39],
        food_cost: 5,
        card_cost: 0,
        text: "1 Food | Pack: May play a card at 2 less",
    },
    Card {
        name: "shark-9",
        clan: 2,
        faces: [40, 41],
        food_cost: 7,
        card_cost: 0,
        text: "1 Food per pair of MV tokens | Pack: 1 Food per MV token",
    },
    Card {
        name: "shark-10",
        clan: 2,
        faces: [-1, 42],
        food_cost: 3,
        card_cost: 0,
        text: "- | Pack: Place a Shark token",
    },
    Card {
        name: "shark-11",
        clan: 2,
        faces: [-1, 7],
        food_cost: 3,
        card_cost: 0,
        text: "- | Pack: Spy",
    },
    Card {
        name: "scorpion-1",
        clan: 3,
        faces: [43, -1],
        food_cost: 3,
        card_cost: 0,
        text: "1 Food per pair of Deserts",
    },
    Card {
        name: "scorpion-2",
        clan: 3,
        faces: [44, -1],
        food_cost: 3,
        card_cost: 0,
        text: "1 Military per pair of Deserts",
    },
    Card {
        name: "scorpion-3",
        clan: 3,
        faces: [45, -1],
        food_cost: 3,
        card_cost: 0,
        text: "Draw 1; 1 Food",
    },
    Card {
        name: "scorpion-4",
        clan: 3,
        faces: [46, -1],
        food_cost: 3,
        card_cost: 0,
        text: "May play a card at 1 less per Desert pair",
    },
    Card {
        name: "scorpion-5",
        clan: 3,
        faces: [47, -1],
        food_cost: 3,
        card_cost: 0,
        text: "Activate a Desert's reminded effect",
    },
    Card {
        name: "scorpion-6",
        clan: 3,
        faces: [48, -1],
        food_cost: 4,
        card_cost: 0,
        text: "Upgrade a tile, then activate it",
    },
    Card {
        name: "scorpion-7",
        clan: 3,
        faces: [49, -1],
        food_cost: 2,
        card_cost: 0,
        text: "1 Food; Portal bonuses",
    },
    Card {
        name: "scorpion-8",
        clan: 3,
        faces: [50, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Spy twice",
    },
    Card {
        name: "scorpion-9",
        clan: 3,
        faces: [51, -1],
        food_cost: -1,
        card_cost: 0,
        text: "The opponent downgrades a tile",
    },
    Card {
        name: "scorpion-10",
        clan: 3,
        faces: [52, -1],
        food_cost: -1,
        card_cost: 0,
        text: "Swap 2 of your squares",
    },
    Card {
        name: "scorpion-11",
        clan: 3,
        faces: [53, -1],
        food_cost: -1,
        card_cost: 0,
        text: "No MV token this round",
    },
];
/// Card id `CAT_COPY` (cat-1).
pub const CAT_COPY: usize = 0;
/// Card id `CAT_SEARCH` (cat-2).
pub const CAT_SEARCH: usize = 1;
/// Card id `RING_RED` (cat-10).
pub const RING_RED: usize = 9;
/// Card id `RING_BLUE` (cat-11).
pub const RING_BLUE: usize = 10;
/// Card id `RING_PURPLE` (cat-12).
pub const RING_PURPLE: usize = 11;
/// Card id `RING_ORANGE` (cat-13).
pub const RING_ORANGE: usize = 12;
/// Card id `PANDA_KING` (panda-10).
pub const PANDA_KING: usize = 22;
/// Card id `PANDA_QUEEN` (panda-11).
pub const PANDA_QUEEN: usize = 23;
/// Card id `PORTAL_1` (scorpion-8).
pub const PORTAL_1: usize = 42;
/// Card id `PORTAL_2` (scorpion-9).
pub const PORTAL_2: usize = 43;
/// Card id `PORTAL_3` (scorpion-10).
pub const PORTAL_3: usize = 44;
/// Card id `PORTAL_4` (scorpion-11).
pub const PORTAL_4: usize = 45;
/// The four Rings.
pub const RINGS: [usize; 4] = [9, 10, 11, 12];
/// The four Portals.
pub const PORTALS: [usize; 4] = [42, 43, 44, 45];
/// Panda level: none.
pub const NO_LEVEL: u8 = 0;
/// Panda level: Bronze.
pub const BRONZE: u8 = 1;
/// Panda level: Silver.
pub const SILVER: u8 = 2;
/// Panda level: Gold.
pub const GOLD: u8 = 3;
/// The level of each Panda card (`panda-1` first; the Pandas are ids 13..24).
pub const PANDA_LEVEL: [u8; 11] = [0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3];
/// The id of `panda-1`.
pub const PANDA_BASE: usize = 13;
/// The clan special activation (crystal) effect, by clan.
pub const SPECIAL_FX: [i32; 4] = [4, 54, 3, 7];
/// Item names in the one id space: cards, then `action-1..5`, then `mv-1..18`.
pub const ITEM_NAMES: [&str; ITEM_COUNT] = [
    "cat-1",
    "cat-2",
    "cat-3",
    "cat-4",
    "cat-5",
    "cat-6",
    "cat-7",
    "cat-8",
    "cat-9",
    "cat-10",
    "cat-11",
    "cat-12",
    "cat-13",
    "panda-1",
    "panda-2",
    "panda-3",
    "panda-4",
    "panda-5",
    "panda-6",
    "panda-7",
    "panda-8",
    "panda-9",
    "panda-10",
    "panda-11",
    "shark-1",
    "shark-2",
    "shark-3",
    "shark-4",
    "shark-5",
    "shark-6",
    "shark-7",
    "shark-8",
    "shark-9",
    "shark-10",
    "shark-11",
    "scorpion-1",
    "scorpion-2",
    "scorpion-3",
    "scorpion-4",
    "scorpion-5",
    "scorpion-6",
    "scorpion-7",
    "scorpion-8",
    "scorpion-9",
    "scorpion-10",
    "scorpion-11",
    "action-1",
    "action-2",
    "action-3",
    "action-4",
    "action-5",
    "mv-1",
    "mv-2",
    "mv-3",
    "mv-4",
    "mv-5",
    "mv-6",
    "mv-7",
    "mv-8",
    "mv-9",
    "mv-10",
    "mv-11",
    "mv-12",
    "mv-13",
    "mv-14",
    "mv-15",
    "mv-16",
    "mv-17",
    "mv-18",
];

// ---------------------------------------------------------------------------- helpers
/// Rotating Cat cards (`cat-1` .. `cat-9`, ids 0..9): every Cat card but the Rings.
pub const CAT_ROTATING_COUNT: usize = 9;

/// The card ids of a clan (`CLAN_CARDS` in Python), ascending.
pub const fn clan_cards(clan: usize) -> std::ops::Range<usize> {
    match clan {
        CATS => 0..13,
        PANDAS => 13..24,
        SHARKS => 24..35,
        _ => 35..46,
    }
}

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

    #[test]
    fn tables_agree_with_each_other() {
        for clan in 0..4 {
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
}
