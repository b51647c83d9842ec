//! Action encoding: every decision and chance outcome is one small integer, numbered exactly as
//! the Python engine numbers it (`engine/legend_raiders/actions.py`).
//!
//! In order: prepare a column; take a face-up card, the deck's top card, no card; discard a
//! tile, a tool; complete a tile (torch option 0 = no torch, 1 + t = the torch replaces one
//! tool of type t); stop; keep the roll; a Die card (standard game: the face set; diceless: the
//! effect); then the chance outcomes: a die face, a tool drawn, a tile revealed, a card
//! revealed.

use std::sync::OnceLock;

use super::components::{components, FACE_KINDS};

/// One decision or chance outcome.
pub type Action = u16;

/// What an action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// Take an HQ column (arg: column).
    Prepare,
    /// Take a face-up Expedition card (arg: slot).
    TakeRow,
    /// Take the deck's top card blind.
    TakeDeck,
    /// Go on an expedition with no card left.
    NoCard,
    /// Discard a prepared tile (arg: tile).
    DiscardTile,
    /// Put a tool back into the bag (arg: tool).
    DiscardTool,
    /// Complete a tile (arg: tile, arg2: torch option).
    Complete,
    /// Stop completing / end the turn.
    Stop,
    /// Keep the rolled face.
    KeepRoll,
    /// Use a Die card (arg: face or diceless effect).
    DieCard,
    /// Chance: the die shows a face (arg: face).
    RollFace,
    /// Chance: a tool drawn from the bag (arg: tool).
    DrawTool,
    /// Chance: a tile revealed from the stack (arg: tile).
    RevealTile,
    /// Chance: an Expedition card revealed or taken blind (arg: card).
    RevealCard,
}

/// Diceless Die-card effect names, sharing the face indices (tools, torch, coin).
pub const EFFECT_NAMES: [&str; 3] = ["tools", "torch", "coin"];

/// The numbering of every action, derived from the component data.
#[derive(Clone, Debug)]
pub struct ActionLayout {
    /// HQ columns.
    pub n_columns: usize,
    /// Face-up slots.
    pub n_row: usize,
    /// Torch options per tile: none, or which tool type the torch replaces.
    pub torch_options: usize,
    /// First `prepare` action.
    pub prepare_base: Action,
    /// First face-up-card action.
    pub row_base: Action,
    /// Take the deck's top card.
    pub take_deck: Action,
    /// No card left.
    pub no_card: Action,
    /// First tile discard.
    pub discard_tile_base: Action,
    /// First tool discard.
    pub discard_tool_base: Action,
    /// First completion.
    pub complete_base: Action,
    /// `stop`.
    pub stop: Action,
    /// `keep-roll`.
    pub keep_roll: Action,
    /// First Die-card action.
    pub die_base: Action,
    /// First die face outcome.
    pub roll_base: Action,
    /// First tool-draw outcome.
    pub tool_base: Action,
    /// First tile-reveal outcome.
    pub tile_base: Action,
    /// First card-reveal outcome.
    pub card_base: Action,
    /// Number of actions.
    pub n_actions: usize,
    kind: Vec<ActionKind>,
    arg: Vec<u8>,
    arg2: Vec<u8>,
}

impl ActionLayout {
    fn build() -> Self {
        let c = components();
        let n_tools = c.n_tools;
        let n_tiles = c.n_tiles();
        let n_cards = c.n_cards();
        let torch_options = n_tools + 1;
        let mut kind = Vec::new();
        let mut arg = Vec::new();
        let mut arg2 = Vec::new();
        let mut add = |k: ActionKind, a: usize, b: usize| {
            kind.push(k);
            arg.push(a as u8);
            arg2.push(b as u8);
        };
        for col in 0..c.hq_columns {
            add(ActionKind::Prepare, col, 0);
        }
        for k in 0..c.face_up_cards {
            add(ActionKind::TakeRow, k, 0);
        }
        add(ActionKind::TakeDeck, 0, 0);
        add(ActionKind::NoCard, 0, 0);
        for i in 0..n_tiles {
            add(ActionKind::DiscardTile, i, 0);
        }
        for t in 0..n_tools {
            add(ActionKind::DiscardTool, t, 0);
        }
        for i in 0..n_tiles {
            for o in 0..torch_options {
                add(ActionKind::Complete, i, o);
            }
        }
        add(ActionKind::Stop, 0, 0);
        add(ActionKind::KeepRoll, 0, 0);
        for f in 0..FACE_KINDS.len() {
            add(ActionKind::DieCard, f, 0);
        }
        for f in 0..FACE_KINDS.len() {
            add(ActionKind::RollFace, f, 0);
        }
        for t in 0..n_tools {
            add(ActionKind::DrawTool, t, 0);
        }
        for i in 0..n_tiles {
            add(ActionKind::RevealTile, i, 0);
        }
        for j in 0..n_cards {
            add(ActionKind::RevealCard, j, 0);
        }
        let a = |n: usize| n as Action;
        let prepare_base = 0;
        let row_base = prepare_base + c.hq_columns;
        let take_deck = row_base + c.face_up_cards;
        let no_card = take_deck + 1;
        let discard_tile_base = no_card + 1;
        let discard_tool_base = discard_tile_base + n_tiles;
        let complete_base = discard_tool_base + n_tools;
        let stop = complete_base + n_tiles * torch_options;
        let keep_roll = stop + 1;
        let die_base = keep_roll + 1;
        let roll_base = die_base + FACE_KINDS.len();
        let tool_base = roll_base + FACE_KINDS.len();
        let tile_base = tool_base + n_tools;
        let card_base = tile_base + n_tiles;
        let n_actions = card_base + n_cards;
        debug_assert_eq!(kind.len(), n_actions);
        Self {
            n_columns: c.hq_columns,
            n_row: c.face_up_cards,
            torch_options,
            prepare_base: a(prepare_base),
            row_base: a(row_base),
            take_deck: a(take_deck),
            no_card: a(no_card),
            discard_tile_base: a(discard_tile_base),
            discard_tool_base: a(discard_tool_base),
            complete_base: a(complete_base),
            stop: a(stop),
            keep_roll: a(keep_roll),
            die_base: a(die_base),
            roll_base: a(roll_base),
            tool_base: a(tool_base),
            tile_base: a(tile_base),
            card_base: a(card_base),
            n_actions,
            kind,
            arg,
            arg2,
        }
    }

    /// What `action` does (`action` must be below `n_actions`).
    #[inline]
    pub fn kind(&self, action: Action) -> ActionKind {
        self.kind[usize::from(action)]
    }

    /// The first argument of `action` (column, slot, tile, tool, face or card).
    #[inline]
    pub fn arg(&self, action: Action) -> usize {
        usize::from(self.arg[usize::from(action)])
    }

    /// The torch option of a completion (0: no torch; 1 + t: the torch replaces tool t).
    #[inline]
    pub fn arg2(&self, action: Action) -> usize {
        usize::from(self.arg2[usize::from(action)])
    }

    /// True when `action` names an action at all.
    pub fn is_action(&self, action: Action) -> bool {
        usize::from(action) < self.n_actions
    }

    /// The action completing `tile` with torch option `option`.
    #[inline]
    pub fn complete(&self, tile: usize, option: usize) -> Action {
        self.complete_base + (tile * self.torch_options + option) as Action
    }
}

static LAYOUT: OnceLock<ActionLayout> = OnceLock::new();

/// The action numbering for the component set in play.
pub fn layout() -> &'static ActionLayout {
    LAYOUT.get_or_init(ActionLayout::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbering_matches_the_python_engine() {
        let a = layout();
        assert_eq!(
            (a.row_base, a.take_deck, a.no_card, a.discard_tile_base),
            (4, 8, 9, 10)
        );
        assert_eq!(
            (a.discard_tool_base, a.complete_base, a.stop),
            (38, 42, 182)
        );
        assert_eq!(
            (a.keep_roll, a.die_base, a.roll_base, a.tool_base),
            (183, 184, 187, 190)
        );
        assert_eq!((a.tile_base, a.card_base, a.n_actions), (194, 222, 250));
        assert_eq!(a.kind(a.complete(3, 2)), ActionKind::Complete);
        assert_eq!((a.arg(a.complete(3, 2)), a.arg2(a.complete(3, 2))), (3, 2));
    }
}
