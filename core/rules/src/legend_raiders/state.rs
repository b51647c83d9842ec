//! The immutable Legend Raiders state, copy-on-write.
//!
//! A [`RaidersState`] is a small flat value (turn, Headquarters, bag, face-up row, masks)
//! plus one [`PlayerState`] per seat behind an [`Arc`]. Cloning a state copies the flat part
//! and bumps the players' reference counts; a transition replaces only the players it changes
//! (usually the one to move), so every untouched player is shared with the previous state and
//! nothing another state can see is ever mutated.
//!
//! Sets whose order is not part of the state are 64-bit masks over tile / card indices: the
//! Discovery stack, the Expedition deck, removed items, a player's prepared tiles and cards
//! (the Python engine keeps these as sorted tuples; a mask iterates in the same order).

use std::sync::Arc;

use super::components::{Tools, MAX_COMPLETED, MAX_SLOTS};

/// Most seats in a game.
pub const MAX_PLAYERS: usize = 4;

/// The steps of a turn. Chance steps: `Roll`, `Draw`, `RefillTile`, `RefillTool`,
/// `RevealCard`, `BlindCard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Chance: roll the die.
    Roll,
    /// Decision (standard game): keep the roll or use a Die card to set the face.
    DieCard,
    /// Chance: draw a tool from the bag into the current player's backpack.
    Draw,
    /// Decision: put one tool back (backpack over its limit).
    DiscardTool,
    /// Decision: prepare (a column) or go on an expedition (a card).
    Action,
    /// Decision: discard one prepared tile (over the limit).
    DiscardTile,
    /// Chance: reveal the stack's top tile onto the emptied HQ column.
    RefillTile,
    /// Chance: draw a tool from the bag onto the emptied HQ column.
    RefillTool,
    /// Chance: reveal the deck's top card into the emptied face-up slot.
    RevealCard,
    /// Chance: the deck's top card, taken blind by the current player.
    BlindCard,
    /// Decision: complete a prepared tile, or stop.
    Complete,
    /// Decision (diceless, after preparing): use a Die card, or end the turn.
    Finish,
    /// The game is over.
    Over,
}

/// All phases in their numbering order (the JSON names are [`Phase::name`]).
pub const PHASES: [Phase; 13] = [
    Phase::Roll,
    Phase::DieCard,
    Phase::Draw,
    Phase::DiscardTool,
    Phase::Action,
    Phase::DiscardTile,
    Phase::RefillTile,
    Phase::RefillTool,
    Phase::RevealCard,
    Phase::BlindCard,
    Phase::Complete,
    Phase::Finish,
    Phase::Over,
];

/// The JSON names of the phases, in [`PHASES`] order.
pub const PHASE_NAMES: [&str; 13] = [
    "roll",
    "die-card",
    "draw-tool",
    "discard-tool",
    "action",
    "discard-tile",
    "refill-tile",
    "refill-tools",
    "reveal-card",
    "blind-card",
    "complete",
    "finish",
    "over",
];

/// `resume` value meaning "refill the HQ column next" (after a Prepare action's discards).
pub const REFILL: Phase = Phase::RefillTile;

impl Phase {
    /// The phase's JSON name.
    pub fn name(self) -> &'static str {
        PHASE_NAMES[self as usize]
    }

    /// True at a chance step.
    pub fn is_chance(self) -> bool {
        matches!(
            self,
            Phase::Roll
                | Phase::Draw
                | Phase::RefillTile
                | Phase::RefillTool
                | Phase::RevealCard
                | Phase::BlindCard
        )
    }
}

/// Completed tiles in the order they were completed (a small inline list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileList {
    len: u8,
    items: [u8; MAX_COMPLETED],
}

impl TileList {
    /// The empty list.
    pub const EMPTY: TileList = TileList {
        len: 0,
        items: [0; MAX_COMPLETED],
    };

    /// The tiles as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }

    /// Number of tiles.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The list with `tile` appended (a full list stays as it is: the decoder bounds it).
    #[inline]
    pub fn pushed(mut self, tile: u8) -> TileList {
        if usize::from(self.len) < MAX_COMPLETED {
            self.items[usize::from(self.len)] = tile;
            self.len += 1;
        }
        self
    }

    /// A list of `tiles` (at most [`MAX_COMPLETED`] are kept).
    pub fn from_slice(tiles: &[u8]) -> TileList {
        tiles
            .iter()
            .fold(TileList::EMPTY, |list, &t| list.pushed(t))
    }
}

impl Default for TileList {
    fn default() -> Self {
        TileList::EMPTY
    }
}

/// One player's board and hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerState {
    /// Character board index 0..3.
    pub board: u8,
    /// The backpack: count per tool type.
    pub tools: Tools,
    /// Tiles on the discovery spaces (tile mask).
    pub prepared: u64,
    /// Completed tiles in the order they were completed.
    pub completed: TileList,
    /// The torch is lit.
    pub torch: bool,
    /// Points scored during play (end-game points are added at the end).
    pub points: i32,
    /// Expedition cards taken from the face-up row: public (card mask).
    pub known: u64,
    /// Expedition cards taken blind from the deck: the owner's secret (card mask).
    pub blind: u64,
}

impl PlayerState {
    /// A player at the start: no tools, no tiles, no cards, the torch lit.
    pub fn new(board: u8) -> Self {
        Self {
            board,
            tools: [0; super::components::MAX_TOOL_TYPES],
            prepared: 0,
            completed: TileList::EMPTY,
            torch: true,
            points: 0,
            known: 0,
            blind: 0,
        }
    }

    /// Number of prepared tiles.
    #[inline]
    pub fn n_prepared(&self) -> usize {
        self.prepared.count_ones() as usize
    }

    /// Number of tools in the backpack.
    #[inline]
    pub fn n_tools(&self) -> usize {
        tool_sum(&self.tools)
    }
}

/// The players of a game, each shared between states until it changes.
#[derive(Clone, Debug)]
pub struct Seats {
    len: u8,
    items: [Arc<PlayerState>; MAX_PLAYERS],
}

impl Seats {
    /// The seats of `players` (2 to [`MAX_PLAYERS`]; extra ones are ignored).
    pub fn new(players: Vec<PlayerState>) -> Self {
        let arcs: Vec<Arc<PlayerState>> = players
            .into_iter()
            .take(MAX_PLAYERS)
            .map(Arc::new)
            .collect();
        let filler = arcs
            .first()
            .cloned()
            .unwrap_or_else(|| Arc::new(PlayerState::new(0)));
        let items = std::array::from_fn(|i| arcs.get(i).cloned().unwrap_or_else(|| filler.clone()));
        Self {
            len: arcs.len() as u8,
            items,
        }
    }

    /// Number of seats.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True when there is no seat (never, for a real game).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The players in seat order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &PlayerState> {
        self.items[..self.len()].iter().map(|p| &**p)
    }

    /// The shared handle of a seat's player (to check what two states share).
    pub fn shared(&self, seat: usize) -> &Arc<PlayerState> {
        &self.items[seat]
    }

    /// Replace one seat's player (the other seats stay shared).
    #[inline]
    pub fn set(&mut self, seat: usize, player: PlayerState) {
        self.items[seat] = Arc::new(player);
    }
}

impl std::ops::Index<usize> for Seats {
    type Output = PlayerState;

    #[inline]
    fn index(&self, seat: usize) -> &PlayerState {
        &self.items[..self.len()][seat]
    }
}

impl PartialEq for Seats {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self.items[..self.len()]
                .iter()
                .zip(&other.items[..other.len()])
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
    }
}

impl Eq for Seats {}

impl std::hash::Hash for Seats {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        for p in self.iter() {
            p.hash(state);
        }
    }
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RaidersState {
    /// One player per seat.
    pub players: Seats,
    /// True: the standard game with the die; false: the diceless variant.
    pub dice: bool,
    /// The first player's seat.
    pub first: u8,
    /// Whose turn it is (once over: the last player to have played).
    pub seat: u8,
    /// The current step.
    pub phase: Phase,
    /// The face the die shows this turn (none before the roll and in the diceless variant).
    pub die: Option<u8>,
    /// Extra points per discovery completed this turn.
    pub coin_bonus: u8,
    /// Discoveries completed this turn.
    pub done: u8,
    /// The HQ column being refilled, or the face-up slot being refilled (`RevealCard`).
    pub column: Option<u8>,
    /// Tool draws still to come in this `Draw` / `RefillTool` sequence.
    pub draws: u8,
    /// Where the turn continues after pending draws and discards.
    pub resume: Option<Phase>,
    /// The tile of each HQ column.
    pub hq_tiles: [Option<u8>; MAX_SLOTS],
    /// The tools under each HQ column.
    pub hq_tools: [Tools; MAX_SLOTS],
    /// Tools in the bag.
    pub bag: Tools,
    /// Tiles in the face-down Discovery stack (mask; their order is never part of the state).
    pub stack: u64,
    /// The face-up Expedition cards.
    pub row: [Option<u8>; MAX_SLOTS],
    /// Cards in the Expedition deck (mask).
    pub deck: u64,
    /// Die cards used out of the game (standard game; mask).
    pub removed_cards: u64,
    /// Tiles discarded out of the game (mask).
    pub removed_tiles: u64,
    /// The end is triggered: the round is being finished.
    pub ending: bool,
}

impl RaidersState {
    /// The player to move.
    #[inline]
    pub fn current(&self) -> &PlayerState {
        &self.players[usize::from(self.seat)]
    }

    /// Number of seats.
    #[inline]
    pub fn n_players(&self) -> usize {
        self.players.len()
    }
}

/// Total of a tool-count array.
#[inline]
pub fn tool_sum(tools: &Tools) -> usize {
    tools.iter().map(|&n| usize::from(n)).sum()
}

/// Add `more` into `tools`, type by type.
#[inline]
pub fn add_tools(tools: &mut Tools, more: &Tools) {
    for (have, add) in tools.iter_mut().zip(more) {
        *have += add;
    }
}

/// Take `less` out of `tools`, type by type (`less` must be covered).
#[inline]
pub fn remove_tools(tools: &mut Tools, less: &Tools) {
    for (have, sub) in tools.iter_mut().zip(less) {
        *have -= sub;
    }
}

/// Indices of the set bits of `mask`, ascending.
#[inline]
pub fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            None
        } else {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(i)
        }
    })
}
