//! Legend Raiders for 2-4 players, with the die or diceless: the native twin of
//! `engine/legend_raiders/` (same actions, same JSON, same heuristics).
//!
//! | module | job |
//! |---|---|
//! | `components` | the component data file, loaded and validated |
//! | `bounds` | the bound of every number and list of a state |
//! | `state` | the copy-on-write state and the turn phases |
//! | `actions` | the integer encoding of every decision and chance outcome |
//! | `setup` | options and the seeded setup |
//! | `rules` | legal actions and transitions (the hot path) |
//! | `chance` | chance steps: outcomes and sampling |
//! | `knowledge` | what a seat knows; determinization |
//! | `scoring` | Missions, Die cards, winner and tie-break |
//! | `heuristics` | leaf evaluation and rollout policy |
//! | `notation` | move notation (JSON and text) |
//! | `codec` | the JSON state format |
//! | `validation` | consistency checks of a decoded state |
//! | `game` | [`LegendRaiders`], the [`crate::Game`] over the modules |

pub mod actions;
pub mod bounds;
pub mod chance;
pub mod codec;
pub mod components;
pub mod features;
pub mod game;
pub mod heuristics;
pub mod knowledge;
pub mod notation;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod state;
pub mod validation;

pub use actions::Action;
pub use game::LegendRaiders;
pub use state::{Phase, PlayerState, RaidersState};
