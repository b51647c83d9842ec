//! The immutable LEDA state, copy-on-write: the twin of `engine/leda/state.py`.
//!
//! A [`LedaState`] is a small flat value (the active seat, the Action and MV piles, the revealed
//! Action tiles, the zone, the P4 block, the winner, what each seat knows) plus the pending work
//! and one [`Player`] per seat behind an [`Arc`]. Cloning a state copies the flat part and bumps
//! the players' reference counts; a change to one player replaces only that player's `Arc`
//! ([`LedaState::player_mut`] uses [`Arc::make_mut`]), so every untouched player stays shared
//! with the previous state and nothing another state can see is ever mutated.
//!
//! Every hidden thing (clan card, Action tile, MV token) is an item id of the one id space of
//! [`super::data::ITEM_NAMES`]; ordered sequences (a hand, a deck top first, a square's cards
//! bottom to top, the piles top first, MV tokens in the order won) are inline [`ItemList`]s, and
//! sets whose order is not part of the state are bit masks (Python's frozensets; a mask iterates
//! in ascending order, as Python sorts them for the JSON).

use std::fmt;
use std::sync::Arc;

use super::bounds::{LARGEST_CLAN, MV_TOKEN_COUNT};
use super::data::{ACTION_TILE_COUNT, ITEM_COUNT, SQUARES};
use super::frames::MAX_FRAME_ARGS;

/// An ordered list of at most `N` item ids, stored inline (no allocation).
#[derive(Clone, Copy)]
pub struct ItemList<const N: usize> {
    len: u8,
    items: [u8; N],
}

impl<const N: usize> ItemList<N> {
    /// The empty list.
    pub const fn new() -> Self {
        Self {
            len: 0,
            items: [0; N],
        }
    }

    /// The list of `items`, or None when there are more than `N` or an id is not an item.
    pub fn from_slice(items: &[usize]) -> Option<Self> {
        let mut out = Self::new();
        for &item in items {
            if !out.push(item) {
                return None;
            }
        }
        Some(out)
    }

    /// Append `item`; false (and no change) when the list is full or `item` is not an item id.
    pub fn push(&mut self, item: usize) -> bool {
        let len = usize::from(self.len);
        if len >= N || item >= ITEM_COUNT {
            return false;
        }
        self.items[len] = item as u8;
        self.len += 1;
        true
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The items as stored (`u8` ids).
    pub fn as_bytes(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }

    /// The items in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.as_bytes().iter().map(|&x| usize::from(x))
    }

    /// The item at `index`.
    pub fn get(&self, index: usize) -> Option<usize> {
        self.as_bytes().get(index).map(|&x| usize::from(x))
    }

    /// The last item.
    pub fn last(&self) -> Option<usize> {
        self.as_bytes().last().map(|&x| usize::from(x))
    }

    /// True when `item` is listed.
    pub fn contains(&self, item: usize) -> bool {
        self.iter().any(|x| x == item)
    }

    /// The index of the first `item`, if listed.
    pub fn position(&self, item: usize) -> Option<usize> {
        self.iter().position(|x| x == item)
    }

    /// Remove and return the item at `index` (None past the end).
    pub fn remove(&mut self, index: usize) -> Option<usize> {
        let len = self.len();
        if index >= len {
            return None;
        }
        let item = usize::from(self.items[index]);
        self.items.copy_within(index + 1..len, index);
        self.len -= 1;
        Some(item)
    }

    /// Remove the first `item`; false when it is not listed.
    pub fn remove_item(&mut self, item: usize) -> bool {
        self.position(item)
            .is_some_and(|index| self.remove(index).is_some())
    }

    /// Remove and return the last item.
    pub fn pop(&mut self) -> Option<usize> {
        let item = self.last()?;
        self.len -= 1;
        Some(item)
    }

    /// Move the first item to the end (a Spy's "put at the bottom").
    pub fn first_to_end(&mut self) {
        let len = self.len();
        if len > 1 {
            self.items[..len].rotate_left(1);
        }
    }

    /// Item `i` of the result is item `order[i]` of the list (a shuffle outcome); entries of
    /// `order` past the end are skipped.
    pub fn permuted(&self, order: &[u8]) -> Self {
        let mut out = Self::new();
        for &i in order {
            if let Some(item) = self.get(usize::from(i)) {
                out.push(item);
            }
        }
        out
    }

    /// The set of the listed items.
    pub fn to_set(&self) -> ItemSet {
        let mut set = ItemSet::EMPTY;
        for item in self.iter() {
            set.insert(item);
        }
        set
    }
}

impl<const N: usize> Default for ItemList<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> PartialEq for ItemList<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<const N: usize> Eq for ItemList<N> {}

impl<const N: usize> std::hash::Hash for ItemList<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl<const N: usize> fmt::Debug for ItemList<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_bytes()).finish()
    }
}

/// Cards of one clan in one place: a hand, a deck, a square's stack (13: the Cats).
pub type Cards = ItemList<LARGEST_CLAN>;
/// MV tokens in one place: the pile or a player's (18).
pub type MvTokens = ItemList<MV_TOKEN_COUNT>;
/// Action tiles in one place: the pile or the revealed ones (5).
pub type ActionTiles = ItemList<ACTION_TILE_COUNT>;

/// A set of item ids (the 69 items fit one 128-bit mask).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ItemSet(pub u128);

impl ItemSet {
    /// The empty set.
    pub const EMPTY: Self = Self(0);

    /// True when `item` is in the set.
    pub fn contains(self, item: usize) -> bool {
        item < 128 && self.0 >> item & 1 == 1
    }

    /// The set with `item` added.
    pub fn insert(&mut self, item: usize) {
        if item < 128 {
            self.0 |= 1 << item;
        }
    }

    /// The set without `item`.
    pub fn remove(&mut self, item: usize) {
        if item < 128 {
            self.0 &= !(1 << item);
        }
    }

    /// Number of items.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The items in ascending order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let item = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(item)
        })
    }
}

impl fmt::Debug for ItemSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// One grid square: its tile (id 0..16, face 0 front / 1 back), the cards on it, a token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Square {
    /// The tile id (`TILE_NAMES`).
    pub tile: u8,
    /// 0 front, 1 back.
    pub face: u8,
    /// The clan cards on the tile, bottom to top.
    pub cards: Cards,
    /// A Shark token lies here.
    pub token: bool,
}

/// Everything one seat owns.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// The clan index.
    pub clan: u8,
    /// The 16 squares, row-major.
    pub grid: [Square; SQUARES],
    /// The hand, in order.
    pub hand: Cards,
    /// The deck, top first.
    pub deck: Cards,
    /// Food held.
    pub food: u32,
    /// MV tokens won, in the order won.
    pub mv: MvTokens,
    /// Military gained this round.
    pub military: u32,
    /// Special activations waiting for the end of this activation step.
    pub specials: u32,
    /// Cat cards turned to their second effect (a mask over card ids 0..9).
    pub rotated: u16,
}

impl Player {
    /// True when Cat card `card` is turned to its second effect.
    pub fn is_rotated(&self, card: usize) -> bool {
        card < 16 && self.rotated >> card & 1 == 1
    }
}

/// A pending-work frame: `(kind, seat, args)` (`frames.rs` names the kinds and shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The frame kind (`F_*`).
    pub kind: u8,
    /// The seat it belongs to.
    pub seat: u8,
    len: u8,
    args: [i32; MAX_FRAME_ARGS],
}

impl Frame {
    /// A frame; None when there are more arguments than any frame has.
    pub fn new(kind: u8, seat: u8, args: &[i32]) -> Option<Self> {
        if args.len() > MAX_FRAME_ARGS {
            return None;
        }
        let mut stored = [0; MAX_FRAME_ARGS];
        stored[..args.len()].copy_from_slice(args);
        Some(Self {
            kind,
            seat,
            len: args.len() as u8,
            args: stored,
        })
    }

    /// A frame the rules build: `args` has at most [`MAX_FRAME_ARGS`] entries (extra ones are
    /// dropped, which no caller does).
    pub fn of(kind: u8, seat: usize, args: &[i32]) -> Self {
        let len = args.len().min(MAX_FRAME_ARGS);
        let mut stored = [0; MAX_FRAME_ARGS];
        stored[..len].copy_from_slice(&args[..len]);
        Self {
            kind,
            seat: seat as u8,
            len: len as u8,
            args: stored,
        }
    }

    /// Argument `i` (0 when absent).
    pub fn arg(&self, i: usize) -> i32 {
        self.args().get(i).copied().unwrap_or(0)
    }

    /// The frame's arguments.
    pub fn args(&self) -> &[i32] {
        &self.args[..usize::from(self.len)]
    }
}

/// A concrete LEDA world plus what each seat knows of its hidden parts.
#[derive(Clone, Debug, PartialEq)]
pub struct LedaState {
    /// The two players, each shared copy-on-write.
    pub players: [Arc<Player>; 2],
    /// The active (first) player of the round.
    pub active: u8,
    /// The Action pile, top first.
    pub action_pile: ActionTiles,
    /// Action tiles revealed since the last shuffle.
    pub revealed: ActionTiles,
    /// The MV pile, top first.
    pub mv_pile: MvTokens,
    /// The zone chosen this round, -1 before the choice.
    pub zone: i8,
    /// Portal P4 resolved this round: nobody gains an MV token.
    pub blocked: bool,
    /// Pending work, top last.
    pub stack: Vec<Frame>,
    /// The hidden items each seat can place exactly.
    pub known: [ItemSet; 2],
    /// The winner, -1 while the game goes on.
    pub winner: i8,
}

impl LedaState {
    /// Seat `seat`'s player.
    pub fn player(&self, seat: usize) -> &Player {
        &self.players[seat]
    }

    /// Seat `seat`'s player to change: a private copy when it is shared with another state.
    pub fn player_mut(&mut self, seat: usize) -> &mut Player {
        Arc::make_mut(&mut self.players[seat])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Clone + fmt::Debug + PartialEq>() {}

    #[test]
    fn lists_and_sets() {
        assert_send_sync::<LedaState>();
        let mut list = Cards::from_slice(&[3, 1, 2]).unwrap();
        assert_eq!(list.iter().collect::<Vec<_>>(), [3, 1, 2]);
        assert!(list.contains(1) && !list.contains(0));
        assert_eq!(list.last(), Some(2));
        for i in 0..10 {
            assert!(list.push(10 + i));
        }
        assert!(!list.push(40), "a clan's 13 cards at most");
        assert!(Cards::from_slice(&[ITEM_COUNT]).is_none());
        let mut set = ItemSet::EMPTY;
        set.insert(68);
        set.insert(3);
        set.insert(40);
        set.remove(40);
        assert_eq!(set.iter().collect::<Vec<_>>(), [3, 68]);
        assert_eq!(set.len(), 2);
        let frame = Frame::new(5, 1, &[4, 0, -1]).unwrap();
        assert_eq!(frame.args(), [4, 0, -1]);
        assert!(Frame::new(5, 1, &[0; 4]).is_none());
    }
}
