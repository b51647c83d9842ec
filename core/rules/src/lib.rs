//! Rules engines of boardbot's games: the native twin of the Python engine (`engine/`).
//!
//! Every game implements [`Game`], the rules role the search needs: set up, legal actions,
//! transitions, chance, views and determinization, heuristics, scores and the JSON codec. States are
//! immutable and copy-on-write: [`Game::apply`] returns a new state sharing every untouched part
//! with its input. Randomness is always an explicit, seeded argument.
//!
//! Games: [`legend_raiders`] ([`LegendRaiders`]) and [`leda`] ([`Leda`]). [`playout`] plays
//! seeded random games of any of them, counted (the engine speed benchmark). Setups and chance
//! steps draw from the native stream ([`SeededRng`]) or, to reproduce the Python engine's,
//! from [`PythonRandom`] (CPython's `random.Random`), through [`Draws`].
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod error;
pub mod features;
pub mod game;
pub mod jsonread;
pub mod leda;
pub mod legend_raiders;
pub mod playout;
mod printable;
pub mod pyrandom;
pub mod pyrepr;
pub mod rng;
pub mod view;

pub use error::{ActionError, InvalidState};
pub use features::Featurize;
pub use game::{Game, GameDraws, CHANCE, TERMINAL};
pub use leda::Leda;
pub use legend_raiders::LegendRaiders;
pub use pyrandom::PythonRandom;
pub use rng::{seeded_rng, Draws, SeededRng};
pub use view::View;
