//! LEDA's actions: the twin of the action half of `engine/leda/frames.py`.
//!
//! Python writes an action as a tuple `(kind, *args)` of small ints, and a shuffle outcome as
//! `(A_SHUFFLE, order)` with `order` a tuple of up to [`SHUFFLE_MAX`] ints. [`Action`] holds the
//! same values in a small `Copy` value and converts losslessly to and from those tuples
//! ([`Action::to_tuple`], [`Action::from_tuple`], in the JSON form `[kind, *args]` /
//! `[27, [order]]`). Its derived order is Python's tuple order.

use serde_json::Value;

use super::bounds::LARGEST_CLAN;
use super::data::{ITEM_COUNT, SQUARES, ZONE_NAMES};

/// Action kind `mulligan` (bool: redraw).
pub const A_MULLIGAN: u8 = 0;
/// Action kind `zone` (zone).
pub const A_ZONE: u8 = 1;
/// Action kind `activate` (square).
pub const A_ACTIVATE: u8 = 2;
/// Action kind `choose` (option).
pub const A_CHOOSE: u8 = 3;
/// Action kind `upgrade` (square).
pub const A_UPGRADE: u8 = 4;
/// Action kind `flip` (square).
pub const A_FLIP: u8 = 5;
/// Action kind `token` (square).
pub const A_TOKEN: u8 = 6;
/// Action kind `activate-tile` (square).
pub const A_ACT_TILE: u8 = 7;
/// Action kind `desert` (square).
pub const A_DESERT: u8 = 8;
/// Action kind `copy` (square).
pub const A_COPY: u8 = 9;
/// Action kind `rotate` (square).
pub const A_ROTATE: u8 = 10;
/// Action kind `downgrade` (square).
pub const A_DOWNGRADE: u8 = 11;
/// Action kind `queen` (square).
pub const A_QUEEN: u8 = 12;
/// Action kind `spy` (pile).
pub const A_SPY: u8 = 13;
/// Action kind `put` (put: top or bottom).
pub const A_PUT: u8 = 14;
/// Action kind `take` (card).
pub const A_TAKE: u8 = 15;
/// Action kind `reveal` (card).
pub const A_REVEAL: u8 = 16;
/// Action kind `pay` (card).
pub const A_PAY: u8 = 17;
/// Action kind `retrigger` (token).
pub const A_RETRIGGER: u8 = 18;
/// Action kind `under` (token).
pub const A_UNDER: u8 = 19;
/// Action kind `awaken` (card, square).
pub const A_AWAKEN: u8 = 20;
/// Action kind `ring` (card, square).
pub const A_RING: u8 = 21;
/// Action kind `play` (card, square).
pub const A_PLAY: u8 = 22;
/// Action kind `food`.
pub const A_FOOD: u8 = 23;
/// Action kind `swap` (square, square).
pub const A_SWAP: u8 = 24;
/// Action kind `skip`.
pub const A_SKIP: u8 = 25;
/// Action kind `done`.
pub const A_DONE: u8 = 26;
/// Action kind `shuffle` (a chance outcome: an order).
pub const A_SHUFFLE: u8 = 27;
/// Action kinds.
pub const ACTION_KINDS: usize = 28;

/// The name of each action kind (the `type` of its JSON, the verb of its text).
pub const ACTION_NAMES: [&str; ACTION_KINDS] = [
    "mulligan",
    "zone",
    "activate",
    "choose",
    "upgrade",
    "flip",
    "token",
    "activate-tile",
    "desert",
    "copy",
    "rotate",
    "downgrade",
    "queen",
    "spy",
    "put",
    "take",
    "reveal",
    "pay",
    "retrigger",
    "under",
    "awaken",
    "ring",
    "play",
    "food",
    "swap",
    "skip",
    "done",
    "shuffle",
];

/// Items a shuffle orders at most: the largest deck (the Action pile has 5).
pub const SHUFFLE_MAX: usize = LARGEST_CLAN;

/// The meaning, and so the allowed values, of one action argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionArg {
    /// `square`: one of the 16 squares.
    Square,
    /// `card`: an item (clan card, Action tile or MV token) by name.
    Card,
    /// `token`: an item by name.
    Token,
    /// `zone`: one of the 14 zones.
    Zone,
    /// `pile`: deck, actions or mv.
    Pile,
    /// `put`: top or bottom.
    Put,
    /// `bool`: 0 or 1 (the JSON field `redraw`).
    Bool,
    /// `option`: 0 or 1, written 1-based.
    Option,
}

impl ActionArg {
    /// How many values the argument takes (`0..size`).
    pub const fn size(self) -> usize {
        match self {
            Self::Square => SQUARES,
            Self::Card | Self::Token => ITEM_COUNT,
            Self::Zone => ZONE_NAMES.len(),
            Self::Pile => 3,
            Self::Put | Self::Bool | Self::Option => 2,
        }
    }
}

/// The argument shapes of each action kind (none for `shuffle`, whose argument is an order).
pub const ACTION_ARGS: [&[ActionArg]; ACTION_KINDS] = {
    use ActionArg::{Bool, Card, Option, Pile, Put, Square, Token, Zone};
    [
        &[Bool],
        &[Zone],
        &[Square],
        &[Option],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Square],
        &[Pile],
        &[Put],
        &[Card],
        &[Card],
        &[Card],
        &[Token],
        &[Token],
        &[Card, Square],
        &[Card, Square],
        &[Card, Square],
        &[],
        &[Square, Square],
        &[],
        &[],
        &[],
    ]
};

/// One LEDA action: a decision `(kind, *args)` or a shuffle outcome `(A_SHUFFLE, order)`.
///
/// Fields are ordered so that the derived order is Python's tuple order (the unused argument
/// slots are 0, and a shuffle order is a permutation, so a shorter order never ties a longer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action {
    kind: u8,
    args: [u8; SHUFFLE_MAX],
    len: u8,
}

impl Action {
    /// A decision of `kind` with `args`, or None when `kind` is `shuffle` or unknown, or the
    /// arguments do not fit its shapes.
    pub fn decision(kind: u8, args: &[usize]) -> Option<Self> {
        let shapes = ACTION_ARGS.get(usize::from(kind))?;
        if kind == A_SHUFFLE || shapes.len() != args.len() {
            return None;
        }
        let mut out = Self {
            kind,
            args: [0; SHUFFLE_MAX],
            len: args.len() as u8,
        };
        for (i, (shape, &v)) in shapes.iter().zip(args).enumerate() {
            if v >= shape.size() {
                return None;
            }
            out.args[i] = v as u8;
        }
        Some(out)
    }

    /// A decision the rules build, with arguments in range by construction (not checked).
    pub(crate) fn of(kind: u8, args: &[usize]) -> Self {
        let mut out = Self {
            kind,
            args: [0; SHUFFLE_MAX],
            len: args.len().min(2) as u8,
        };
        for (slot, &v) in out.args.iter_mut().zip(args.iter().take(2)) {
            *slot = v as u8;
        }
        out
    }

    /// A shuffle outcome, or None when `order` is not a permutation of `0..n`, `n <= 13`.
    pub fn shuffle(order: &[usize]) -> Option<Self> {
        if !is_permutation(order) {
            return None;
        }
        let mut args = [0; SHUFFLE_MAX];
        for (slot, &v) in args.iter_mut().zip(order) {
            *slot = v as u8;
        }
        Some(Self {
            kind: A_SHUFFLE,
            args,
            len: order.len() as u8,
        })
    }

    /// The action kind (`A_*`).
    pub fn kind(&self) -> u8 {
        self.kind
    }

    /// True for a shuffle outcome.
    pub fn is_shuffle(&self) -> bool {
        self.kind == A_SHUFFLE
    }

    /// The arguments of a decision, or the order of a shuffle.
    pub fn args(&self) -> &[u8] {
        &self.args[..usize::from(self.len)]
    }

    /// Argument `i` of a decision (or entry `i` of a shuffle order) as an index.
    pub fn arg(&self, i: usize) -> usize {
        usize::from(self.args()[i])
    }

    /// Python's tuple as JSON: `[kind, *args]`, or `[27, [order]]` for a shuffle.
    pub fn to_tuple(&self) -> Value {
        let args = self.args().iter().map(|&v| Value::from(v));
        if self.is_shuffle() {
            return Value::Array(vec![Value::from(self.kind), Value::Array(args.collect())]);
        }
        Value::Array(
            std::iter::once(Value::from(self.kind))
                .chain(args)
                .collect(),
        )
    }

    /// The action of a Python tuple in the JSON form of [`Action::to_tuple`], or None when it
    /// is not one.
    pub fn from_tuple(value: &Value) -> Option<Self> {
        let items = value.as_array()?;
        let kind = u8::try_from(items.first()?.as_u64()?).ok()?;
        let ints = |values: &[Value]| -> Option<Vec<usize>> {
            values
                .iter()
                .map(|v| v.as_u64().and_then(|u| usize::try_from(u).ok()))
                .collect()
        };
        if kind == A_SHUFFLE {
            let [_, order] = items.as_slice() else {
                return None;
            };
            return Self::shuffle(&ints(order.as_array()?)?);
        }
        Self::decision(kind, &ints(&items[1..])?)
    }
}

/// `order` is a permutation of `0..order.len()`, with at most [`SHUFFLE_MAX`] entries.
pub fn is_permutation(order: &[usize]) -> bool {
    if order.len() > SHUFFLE_MAX {
        return false;
    }
    let mut seen = [false; SHUFFLE_MAX];
    for &v in order {
        if v >= order.len() || seen[v] {
            return false;
        }
        seen[v] = true;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tuples_round_trip_and_order_like_python() {
        let play = Action::decision(A_PLAY, &[5, 9]).unwrap();
        assert_eq!(play.to_tuple(), json!([22, 5, 9]));
        assert_eq!(Action::from_tuple(&json!([22, 5, 9])), Some(play));
        let shuffle = Action::shuffle(&[2, 0, 1]).unwrap();
        assert_eq!(shuffle.to_tuple(), json!([27, [2, 0, 1]]));
        assert_eq!(Action::from_tuple(&shuffle.to_tuple()), Some(shuffle));
        assert_eq!(Action::from_tuple(&json!([22, 69, 0])), None);
        assert_eq!(Action::from_tuple(&json!([27, [0, 0]])), None);
        assert_eq!(Action::from_tuple(&json!([23, 1])), None);
        assert_eq!(Action::from_tuple(&json!([28])), None);
        let a = Action::shuffle(&[1, 0]).unwrap();
        let b = Action::shuffle(&[1, 0, 2]).unwrap();
        let c = Action::shuffle(&[]).unwrap();
        assert!(c < a && a < b && play < a);
        assert!(Action::decision(A_PLAY, &[5, 8]).unwrap() < play);
    }
}
