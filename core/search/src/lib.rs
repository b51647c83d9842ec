//! Single-observer ISMCTS over any [`boardbot_rules::Game`]: the native twin of the Python
//! search (`search/`), implementing the algorithm of `docs/search.md`.
//!
//! ```
//! use boardbot_rules::{Game, LegendRaiders};
//! use boardbot_search::{search, RolloutPolicy, SearchConfig};
//!
//! let game = LegendRaiders;
//! let state = game.new_state(&serde_json::json!({"players": 2}), 7).unwrap();
//! # let mut state = state;
//! # let mut rng = boardbot_rules::seeded_rng(1);
//! # while game.current_player(&state) < 0 {
//! #     let outcome = game.sample_chance(&state, &mut rng).unwrap();
//! #     state = game.apply(&state, outcome);
//! # }
//! let seat = game.current_player(&state) as usize;
//! let config = SearchConfig {
//!     iterations: Some(200),
//!     rollout: RolloutPolicy::Heuristic,
//!     cutoff_depth: Some(12),
//!     ..SearchConfig::default()
//! };
//! let result = search(&game, &state, seat, &config, 42).unwrap();
//! assert_eq!(result.moves[0].visits, result.moves.iter().map(|m| m.visits).max().unwrap());
//! println!("{} ({:?})", result.notation, result.stopped_by);
//! ```
//!
//! | module | job |
//! |---|---|
//! | [`config`] | the search configuration and the rollout policies by name |
//! | [`error`] | why a search cannot run |
//! | [`seeds`] | stable per-purpose and per-thread seeds derived from the base seed |
//! | [`tree`] | the arena of nodes and their edges |
//! | [`rewards`] | reward vectors at terminal states |
//! | [`rollout`] | playing on from a leaf up to the cut-off |
//! | [`net`] | the learned evaluator: a value and policy network read from a `.bbnet` file |
//! | [`guided`] | the network in the search: leaf values and stored priors |
//! | [`reuse`] | tree reuse: the kept tree and the walk that finds the node of a new state |
//! | [`tree_search`] | one tree: the iteration loop, early stop, root tallies, principal variations |
//! | [`results`] | tallies to a result: merging, confidence bounds, ordering, move choice |
//! | [`parallel`] | root parallelism on threads |
//! | [`control`] | cancellation, progress reports and stop reasons |
//! | [`search`](mod@search) | the entry point: checks, the seat's view, single move, one tree or many |
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod config;
pub mod control;
pub mod error;
pub mod guided;
pub mod net;
pub mod parallel;
pub mod results;
pub mod reuse;
pub mod rewards;
pub mod rollout;
pub mod search;
pub mod seeds;
pub mod tree;
pub mod tree_search;

pub use config::{RolloutPolicy, SearchConfig};
pub use control::{CancelToken, SearchHooks, StopReason};
pub use error::SearchError;
pub use net::{NetError, NetScratch, Network};
pub use results::{MoveStats, SearchResult};
pub use reuse::{find_match, KeptTree, ReuseMatch};
pub use search::{search, search_view, search_view_reusing, search_view_with, search_with, Reused};
pub use seeds::derive_seed;
