//! LEDA for two players: the native twin of `engine/leda/` — the component data, the
//! copy-on-write state, the JSON codec (full states and seat views), the actions with their
//! notation, the setup, the rules (legal actions, transitions, shuffles) and the [`Leda`] game,
//! with the same ids, names and order, exactly the Python engine's JSON, legal actions, states,
//! move texts, and its decoder's and parsers' errors.
//!
//! | module | job |
//! |---|---|
//! | `data` | clans, squares, zones, items, effects and ops, tiles, MV tokens, the 46 clan cards |
//! | `bounds` | the bound of every number and list of a state |
//! | `frames` | pending-work frame kinds, names and argument shapes |
//! | `state` | the immutable copy-on-write state |
//! | `board` | victory conditions and the board questions the checks need |
//! | `codec` | the JSON state format: [`state_to_json`], [`state_from_json`] |
//! | `knowledge` | what a seat knows: [`knowledge::observe`] (its view), [`knowledge::determinize`] (a world consistent with it) |
//! | `validation` | rule consistency of a decoded state (every check of Python's, in its order) |
//! | `actions` | action kinds, names and argument shapes; the `Copy` [`actions::Action`] value (lossless to and from Python's tuples) |
//! | `notation` | short texts and JSON objects of actions, and their parsers up to the legality check (Python's strings and errors) |
//! | `heuristics` | the search's leaf evaluation and rollout weights ([`heuristics::evaluate`], [`heuristics::policy_weights`]) |
//! | `setup` | the options of `new_state` and the seeded first state (Python's messages, the native random stream) |
//! | `moves` | primitive state changes, keeping what each seat knows in step |
//! | `ops` | effect ops: resolve now or push the decision they need |
//! | `flow` | the automatic frames of a round: reveal, steps, conflict, end of round |
//! | `decisions` | the decision frames: legal actions (Python's order) and their resolution |
//! | `rules` | the driver: advance to the next decision, apply, chance (shuffles), the end |
//! | `game` | [`Leda`], the [`crate::Game`] implementation |

pub mod actions;
pub mod board;
pub mod bounds;
pub mod codec;
pub mod data;
pub mod decisions;
pub mod features;
pub mod flow;
pub mod frames;
pub mod game;
pub mod heuristics;
pub mod knowledge;
pub mod moves;
pub mod notation;
pub mod ops;
pub mod rules;
pub mod setup;
pub mod state;
pub mod validation;

pub use codec::{state_from_json, state_to_json};
pub use game::Leda;
pub use state::{Frame, LedaState, Player, Square};
