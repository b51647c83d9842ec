//! Seeded uniformly random playouts of any [`Game`], counted: the engine speed benchmark.
//!
//! The twin of the Python benchmark (`tools/engine_bench.py`, `boardbot bench engine`), with the
//! same definition of a step, so the figures compare: a step is one decision (`legal_actions`, a
//! uniform choice, `apply`) or one chance step (`sample_chance`, the game's own sampling,
//! `apply`). As in Python, game `i` is set up with `seed + i`, every choice is drawn from one
//! generator seeded with `seed`, whole games are played, and the budget is checked after each
//! game (so at least one game is played, and the last one runs to its end).
//!
//! ```
//! use boardbot_rules::playout::{random_playouts, PlayoutBudget};
//! use boardbot_rules::LegendRaiders;
//!
//! let options = serde_json::json!({"players": 2});
//! let counts = random_playouts(&LegendRaiders, &options, 7, PlayoutBudget::Steps(1000)).unwrap();
//! assert!(counts.steps >= 1000);
//! assert_eq!(counts.steps, counts.decisions + counts.chance);
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::InvalidState;
use crate::game::{Game, CHANCE, TERMINAL};
use crate::rng::{below, seeded_rng};

/// When [`random_playouts`] stops: checked after each whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutBudget {
    /// Play games until this much wall-clock time has passed (the machine decides how many).
    Time(Duration),
    /// Play games until at least this many steps were played (deterministic for a seed).
    Steps(u64),
}

impl PlayoutBudget {
    fn reached(self, counts: &PlayoutCounts) -> bool {
        match self {
            Self::Time(limit) => counts.elapsed >= limit,
            Self::Steps(limit) => counts.steps >= limit,
        }
    }
}

/// What a run of [`random_playouts`] played (every game counted is a finished game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutCounts {
    /// Games played to their end.
    pub games: u64,
    /// Steps: `decisions + chance`.
    pub steps: u64,
    /// Decision steps (a seat chose one of its legal actions).
    pub decisions: u64,
    /// Chance steps (an outcome sampled by the game).
    pub chance: u64,
    /// Wall-clock time of the whole run, setups included.
    pub elapsed: Duration,
}

impl PlayoutCounts {
    /// Steps per second of wall-clock time (0 when no time was measured).
    pub fn steps_per_second(&self) -> f64 {
        per_second(self.steps, self.elapsed)
    }

    /// Games per second of wall-clock time (0 when no time was measured).
    pub fn games_per_second(&self) -> f64 {
        per_second(self.games, self.elapsed)
    }

    /// Mean steps per game (0 before any game).
    pub fn steps_per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.steps as f64 / self.games as f64
        }
    }
}

fn per_second(count: u64, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    }
}

/// Why [`random_playouts`] could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayoutError {
    /// The options do not set up a game (the game's own error, with its JSON path).
    Options(InvalidState),
    /// A state that is not over offered nothing to play: no legal decision, or no chance
    /// outcome at a chance step (a bug in the game, reported rather than looped on).
    Stuck {
        /// The seed the stuck game was set up with.
        game_seed: u64,
        /// Steps already played in that game.
        step: u64,
        /// The state's `current_player`.
        player: i32,
    },
}

impl fmt::Display for PlayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Options(err) => err.fmt(f),
            Self::Stuck {
                game_seed,
                step,
                player,
            } => write!(
                f,
                "the game set up with seed {game_seed} offers nothing to play at step {step} \
                 (current player {player}) although it is not over"
            ),
        }
    }
}

impl std::error::Error for PlayoutError {}

impl From<InvalidState> for PlayoutError {
    fn from(err: InvalidState) -> Self {
        Self::Options(err)
    }
}

/// Play seeded, uniformly random games of `game` set up from `options` until `budget` is
/// reached, and count them (see the module documentation for the definition of a step).
///
/// With [`PlayoutBudget::Steps`] the counts are a pure function of (game, options, seed,
/// budget); with [`PlayoutBudget::Time`] the number of games depends on the machine. Bad
/// options are reported before anything is played.
pub fn random_playouts<G: Game>(
    game: &G,
    options: &Value,
    seed: u64,
    budget: PlayoutBudget,
) -> Result<PlayoutCounts, PlayoutError> {
    let start = Instant::now();
    let mut rng = seeded_rng(seed);
    let mut legal = Vec::with_capacity(64);
    let mut counts = PlayoutCounts::default();
    loop {
        let game_seed = seed.wrapping_add(counts.games);
        let mut state = game.new_state(options, game_seed)?;
        let mut step = 0u64;
        loop {
            let player = game.current_player(&state);
            if player == TERMINAL {
                break;
            }
            let action = if player == CHANCE {
                counts.chance += 1;
                game.sample_chance(&state, &mut rng)
            } else {
                counts.decisions += 1;
                game.legal_actions(&state, &mut legal);
                let count = u32::try_from(legal.len()).unwrap_or(u32::MAX);
                legal.get(below(&mut rng, count) as usize).copied()
            };
            let Some(action) = action else {
                return Err(PlayoutError::Stuck {
                    game_seed,
                    step,
                    player,
                });
            };
            state = game.apply(&state, action);
            step += 1;
        }
        counts.games += 1;
        counts.steps = counts.decisions + counts.chance;
        counts.elapsed = start.elapsed();
        if budget.reached(&counts) {
            return Ok(counts);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::LegendRaiders;

    fn steps(options: &Value, seed: u64, budget: u64) -> PlayoutCounts {
        random_playouts(&LegendRaiders, options, seed, PlayoutBudget::Steps(budget)).unwrap()
    }

    /// The counts without the clock.
    fn played(counts: PlayoutCounts) -> (u64, u64, u64, u64) {
        (counts.games, counts.steps, counts.decisions, counts.chance)
    }

    #[test]
    fn a_step_budget_is_deterministic_for_a_seed() {
        for options in [
            json!({"players": 2}),
            json!({"players": 4, "variant": "diceless"}),
        ] {
            let a = steps(&options, 11, 5_000);
            let b = steps(&options, 11, 5_000);
            assert_eq!(played(a), played(b), "{options}");
            let c = steps(&options, 12, 5_000);
            assert_ne!(
                played(a),
                played(c),
                "another seed plays other games: {options}"
            );
        }
    }

    #[test]
    fn the_counts_add_up() {
        for (players, variant) in [(2, "dice"), (3, "diceless"), (4, "dice")] {
            let options = json!({"players": players, "variant": variant});
            let counts = steps(&options, 3, 20_000);
            assert_eq!(counts.steps, counts.decisions + counts.chance);
            assert!(counts.steps >= 20_000);
            assert!(counts.games >= 1);
            assert!(counts.decisions > 0);
            if variant == "dice" {
                assert!(counts.chance > 0, "the die is a chance step");
            }
            // Whole games only, at least one even with no budget at all.
            assert_eq!(steps(&options, 3, 0).games, 1);
            assert!(counts.steps_per_game() > 10.0 && counts.steps_per_game() < 10_000.0);
            assert!(counts.elapsed > Duration::ZERO);
        }
    }

    #[test]
    fn games_are_the_seeded_games_played_one_after_another() {
        // Game i is set up with seed + i and the choices come from one stream: a budget that
        // ends after the first game plays exactly that first game of a longer run.
        let options = json!({"players": 3});
        let first = steps(&options, 5, 1);
        let longer = steps(&options, 5, first.steps + 1);
        assert_eq!(first.games, 1);
        assert_eq!(longer.games, 2);
        assert!(longer.steps > first.steps);
    }

    #[test]
    fn a_time_budget_plays_at_least_that_long() {
        let budget = Duration::from_millis(30);
        let counts =
            random_playouts(&LegendRaiders, &json!({}), 1, PlayoutBudget::Time(budget)).unwrap();
        assert!(counts.elapsed >= budget);
        assert!(counts.games >= 1);
        assert_eq!(counts.steps, counts.decisions + counts.chance);
        assert!(counts.steps_per_second() > 0.0);
        assert!(counts.games_per_second() > 0.0);
    }

    #[test]
    fn bad_options_are_the_games_error() {
        let err = random_playouts(
            &LegendRaiders,
            &json!({"players": 9}),
            0,
            PlayoutBudget::Steps(10),
        )
        .unwrap_err();
        let PlayoutError::Options(invalid) = &err else {
            panic!("expected an options error, got {err:?}");
        };
        assert!(invalid.path.starts_with("$"), "{invalid}");
        assert_eq!(err.to_string(), invalid.to_string());
    }
}
