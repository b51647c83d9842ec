//! LEDA for two players, first layer: the component data, the copy-on-write state and the JSON
//! codec (full states and seat views) of the native twin of `engine/leda/` — the same ids,
//! names and order, exactly the Python engine's JSON, and its decoder's errors.
//!
//! | module | job |
//! |---|---|
//! | `data` | clans, squares, zones, items, effects and ops, tiles, MV tokens, the 46 clan cards |
//! | `bounds` | the bound of every number and list of a state |
//! | `frames` | pending-work frame kinds, names and argument shapes |
//! | `state` | the immutable copy-on-write state |
//! | `board` | victory conditions and the board questions the checks need |
//! | `codec` | the JSON state format: [`state_to_json`], [`state_from_json`] |
//! | `validation` | rule consistency of a decoded state (all of Python's checks but the last) |
//!
//! Not here yet (the next layer): actions and notation, setup, legal actions and transitions,
//! chance, `observe` / `determinize`, heuristics and the [`crate::Game`] implementation.

pub mod board;
pub mod bounds;
pub mod codec;
pub mod data;
pub mod frames;
pub mod state;
pub mod validation;

pub use codec::{state_from_json, state_to_json};
pub use state::{Frame, LedaState, Player, Square};
