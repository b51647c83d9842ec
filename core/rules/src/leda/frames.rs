//! Kinds of pending-work frames, their JSON names and the shapes of their arguments: the twin
//! of the frame half of `engine/leda/frames.py` (the action kinds come with the rules layer).
//!
//! A frame is `(kind, seat, args)`, small ints. Automatic frames (kinds below
//! [`F_MULLIGAN`]) run by themselves; decision frames wait for an action of their seat; the
//! chance frame [`F_SHUFFLE`] waits for a shuffle outcome.

use super::bounds::{CARD_COST_MAX, DISCOUNT_MAX, LARGEST_CLAN, OP_INDEX_MAX};
use super::data::{ACTION_TILE_BASE, ACTION_TILE_COUNT, CARD_COUNT, EFFECTS, SQUARES};

/// Frame kind `round`.
pub const F_ROUND: u8 = 0;
/// Frame kind `step`.
pub const F_STEP: u8 = 1;
/// Frame kind `step-end`.
pub const F_STEP_END: u8 = 2;
/// Frame kind `conflict`.
pub const F_CONFLICT: u8 = 3;
/// Frame kind `round-end`.
pub const F_ROUND_END: u8 = 4;
/// Frame kind `effect`.
pub const F_EFFECT: u8 = 5;
/// Frame kind `rotate-card`.
pub const F_ROTATE_CARD: u8 = 6;
/// Frame kind `upgrade-square`.
pub const F_UPGRADE_SQ: u8 = 7;
/// Frame kind `mulligan`.
pub const F_MULLIGAN: u8 = 8;
/// Frame kind `zone`.
pub const F_ZONE: u8 = 9;
/// Frame kind `activate`.
pub const F_ACTIVATE: u8 = 10;
/// Frame kind `or`.
pub const F_OR: u8 = 11;
/// Frame kind `upgrade`.
pub const F_UPGRADE: u8 = 12;
/// Frame kind `flip`.
pub const F_FLIP: u8 = 13;
/// Frame kind `spy-pile`.
pub const F_SPY_PILE: u8 = 14;
/// Frame kind `spy-put`.
pub const F_SPY_PUT: u8 = 15;
/// Frame kind `place-token`.
pub const F_PLACE_TOKEN: u8 = 16;
/// Frame kind `activate-tile`.
pub const F_ACT_TILE: u8 = 17;
/// Frame kind `desert-effect`.
pub const F_DESERT_FX: u8 = 18;
/// Frame kind `retrigger`.
pub const F_RETRIGGER: u8 = 19;
/// Frame kind `mv-under`.
pub const F_MV_UNDER: u8 = 20;
/// Frame kind `copy`.
pub const F_COPY: u8 = 21;
/// Frame kind `ring-reveal`.
pub const F_RING_REVEAL: u8 = 22;
/// Frame kind `search-ring`.
pub const F_SEARCH_RING: u8 = 23;
/// Frame kind `ring-rotate`.
pub const F_RING_ROTATE: u8 = 24;
/// Frame kind `discount-play`.
pub const F_DISCOUNT: u8 = 25;
/// Frame kind `pay-cards`.
pub const F_PAY: u8 = 26;
/// Frame kind `awaken`.
pub const F_AWAKEN: u8 = 27;
/// Frame kind `queen`.
pub const F_QUEEN: u8 = 28;
/// Frame kind `downgrade`.
pub const F_DOWNGRADE: u8 = 29;
/// Frame kind `swap`.
pub const F_SWAP: u8 = 30;
/// Frame kind `rings`.
pub const F_RINGS: u8 = 31;
/// Frame kind `organization`.
pub const F_ORG: u8 = 32;
/// Frame kind `shuffle`.
pub const F_SHUFFLE: u8 = 33;
/// Frame kinds.
pub const FRAME_KINDS: usize = 34;
/// The JSON name of each frame kind.
pub const FRAME_NAMES: [&str; FRAME_KINDS] = [
    "round",
    "step",
    "step-end",
    "conflict",
    "round-end",
    "effect",
    "rotate-card",
    "upgrade-square",
    "mulligan",
    "zone",
    "activate",
    "or",
    "upgrade",
    "flip",
    "spy-pile",
    "spy-put",
    "place-token",
    "activate-tile",
    "desert-effect",
    "retrigger",
    "mv-under",
    "copy",
    "ring-reveal",
    "search-ring",
    "ring-rotate",
    "discount-play",
    "pay-cards",
    "awaken",
    "queen",
    "downgrade",
    "swap",
    "rings",
    "organization",
    "shuffle",
];

/// The meaning, and so the allowed values, of one frame argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgShape {
    /// `sq`: a square, -1 for none.
    Sq,
    /// `card`: a clan card.
    Card,
    /// `tile`: an Action tile.
    Tile,
    /// `mask16`: a bit mask over the 16 squares.
    Mask16,
    /// `flag`: 0 or 1.
    Flag,
    /// `pile?`: a pile (0 deck, 1 actions, 2 mv) or -1.
    PileOrNone,
    /// `pile`: a pile (0 deck, 1 actions, 2 mv).
    Pile,
    /// `discount`: Food off a play.
    Discount,
    /// `cost`: cards still to pay.
    Cost,
    /// `draw`: cards drawn after a shuffle.
    Draw,
    /// `ringmask`: a bit mask over the 4 Rings.
    RingMask,
    /// `what`: the shuffle kind (0 mulligan, 1 deck, 2 Action tiles).
    What,
    /// `fx`: an effect id.
    Fx,
    /// `op`: an op index within the effect.
    Op,
}

impl ArgShape {
    /// The inclusive range of values the argument allows.
    pub const fn range(self) -> (i64, i64) {
        match self {
            Self::Sq => (-1, SQUARES as i64 - 1),
            Self::Card => (0, CARD_COUNT as i64 - 1),
            Self::Tile => (
                ACTION_TILE_BASE as i64,
                (ACTION_TILE_BASE + ACTION_TILE_COUNT) as i64 - 1,
            ),
            Self::Mask16 => (0, (1 << SQUARES) - 1),
            Self::Flag => (0, 1),
            Self::PileOrNone => (-1, 2),
            Self::Pile => (0, 2),
            Self::Discount => (0, DISCOUNT_MAX as i64),
            Self::Cost => (1, CARD_COST_MAX as i64),
            Self::Draw => (0, LARGEST_CLAN as i64),
            Self::RingMask => (1, 15),
            Self::What => (0, 2),
            Self::Fx => (0, EFFECTS.len() as i64 - 1),
            Self::Op => (0, OP_INDEX_MAX as i64),
        }
    }
}

/// The argument shapes of each frame kind.
pub const FRAME_ARGS: [&[ArgShape]; FRAME_KINDS] = [
    &[],
    &[],
    &[],
    &[],
    &[],
    &[ArgShape::Fx, ArgShape::Op, ArgShape::Sq],
    &[ArgShape::Card],
    &[ArgShape::Sq],
    &[],
    &[ArgShape::Tile],
    &[ArgShape::Mask16],
    &[ArgShape::Fx, ArgShape::Fx, ArgShape::Sq],
    &[ArgShape::Flag],
    &[],
    &[ArgShape::PileOrNone, ArgShape::Flag],
    &[ArgShape::Pile, ArgShape::Flag],
    &[],
    &[ArgShape::Flag],
    &[],
    &[],
    &[],
    &[ArgShape::Sq],
    &[],
    &[],
    &[],
    &[ArgShape::Discount, ArgShape::Flag],
    &[ArgShape::Cost],
    &[],
    &[ArgShape::Sq],
    &[],
    &[],
    &[ArgShape::Flag, ArgShape::RingMask],
    &[],
    &[ArgShape::What, ArgShape::Draw],
];
/// Most arguments a frame has.
pub const MAX_FRAME_ARGS: usize = 3;
/// `SHUFFLE_MULLIGAN` of `frames.py`.
pub const SHUFFLE_MULLIGAN: i32 = 0;
/// `SHUFFLE_DECK` of `frames.py`.
pub const SHUFFLE_DECK: i32 = 1;
/// `SHUFFLE_ACTIONS` of `frames.py`.
pub const SHUFFLE_ACTIONS: i32 = 2;
/// `PILE_DECK` of `frames.py`.
pub const PILE_DECK: i32 = 0;
/// `PILE_ACTIONS` of `frames.py`.
pub const PILE_ACTIONS: i32 = 1;
/// `PILE_MV` of `frames.py`.
pub const PILE_MV: i32 = 2;
/// Pile names (`deck`, `actions`, `mv`).
pub const PILE_NAMES: [&str; 3] = ["deck", "actions", "mv"];

/// True for a frame kind that runs by itself (no decision, no chance).
pub const fn is_automatic(kind: u8) -> bool {
    kind < F_MULLIGAN
}
