//! Why a search cannot run (`SearchError` in `search/ismcts.py`).

use std::fmt;

use crate::config::RolloutPolicy;

/// A search that cannot run: a bad configuration, a state with nothing to decide, or a failure.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchError {
    /// Neither an iteration budget, a time budget nor a deadline.
    NoBudget,
    /// An iteration budget of 0.
    IterationsBelowOne,
    /// Fewer than one worker.
    WorkersBelowOne,
    /// A node cap of 0.
    NodeCapBelowOne,
    /// A margin weight outside [0, 1] (or not a number).
    MarginWeightOutOfRange {
        /// The weight given.
        margin_weight: f64,
    },
    /// A prior weight below 0 or not finite.
    PriorWeightOutOfRange {
        /// The weight given.
        prior_weight: f64,
    },
    /// A widening coefficient below 0 or not finite.
    WideningOutOfRange {
        /// The coefficient given.
        widening: f64,
    },
    /// A widening exponent outside [0, 1] (or not a number).
    WideningExponentOutOfRange {
        /// The exponent given.
        widening_exponent: f64,
    },
    /// A leaf mix `lambda` outside [0, 1] (or not a number).
    LeafLambdaOutOfRange {
        /// The share given.
        leaf_lambda: f64,
    },
    /// A PUCT constant below 0 or not finite.
    PuctOutOfRange {
        /// The constant given.
        puct: f64,
    },
    /// A first-play urgency reduction not finite.
    FpuOutOfRange {
        /// The reduction given.
        fpu: f64,
    },
    /// A model made for another game, seat count or feature definition.
    ModelMismatch {
        /// What does not match.
        reason: String,
    },
    /// A rollout policy name no policy has.
    UnknownRolloutPolicy {
        /// The name given.
        name: String,
    },
    /// The game is over: there is no move to search.
    TerminalState,
    /// The seat asked about is not the one to move.
    SeatNotToMove {
        /// The seat asked about.
        seat: usize,
        /// The game's current player (a seat, or the chance marker).
        current_player: i32,
    },
    /// The seat to move has no legal action (a bug in the game's rules).
    NoLegalMove,
    /// A root-parallel worker thread could not start or panicked.
    WorkerFailed {
        /// The worker's index.
        worker: usize,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::NoBudget => write!(
                f,
                "the search needs a budget: iterations, time_ms or deadline"
            ),
            SearchError::IterationsBelowOne => write!(f, "iterations must be at least 1, got 0"),
            SearchError::WorkersBelowOne => write!(f, "workers must be at least 1, got 0"),
            SearchError::NodeCapBelowOne => write!(f, "node_cap must be at least 1, got 0"),
            SearchError::MarginWeightOutOfRange { margin_weight } => {
                write!(f, "margin_weight must lie in [0, 1], got {margin_weight}")
            }
            SearchError::PriorWeightOutOfRange { prior_weight } => write!(
                f,
                "prior_weight must be a finite number >= 0, got {prior_weight}"
            ),
            SearchError::WideningOutOfRange { widening } => {
                write!(f, "widening must be a finite number >= 0, got {widening}")
            }
            SearchError::WideningExponentOutOfRange { widening_exponent } => write!(
                f,
                "widening_exponent must lie in [0, 1], got {widening_exponent}"
            ),
            SearchError::LeafLambdaOutOfRange { leaf_lambda } => {
                write!(f, "leaf_lambda must lie in [0, 1], got {leaf_lambda}")
            }
            SearchError::PuctOutOfRange { puct } => {
                write!(f, "puct must be a finite number >= 0, got {puct}")
            }
            SearchError::FpuOutOfRange { fpu } => {
                write!(f, "fpu must be a finite number, got {fpu}")
            }
            SearchError::ModelMismatch { reason } => write!(f, "the model does not fit: {reason}"),
            SearchError::UnknownRolloutPolicy { name } => {
                let known: Vec<&str> = RolloutPolicy::ALL.iter().map(|p| p.name()).collect();
                write!(
                    f,
                    "unknown rollout policy '{name}'; known: {}",
                    known.join(", ")
                )
            }
            SearchError::TerminalState => write!(f, "the game is over: there is no move to search"),
            SearchError::SeatNotToMove {
                seat,
                current_player,
            } => write!(
                f,
                "seat {seat} is not to move (current player: {current_player})"
            ),
            SearchError::NoLegalMove => write!(f, "the seat to move has no legal action"),
            SearchError::WorkerFailed { worker } => {
                write!(f, "search worker {worker} failed")
            }
        }
    }
}

impl std::error::Error for SearchError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_use_the_python_wording() {
        assert_eq!(
            SearchError::UnknownRolloutPolicy {
                name: "clever".into()
            }
            .to_string(),
            "unknown rollout policy 'clever'; known: random, heuristic"
        );
        assert_eq!(
            SearchError::SeatNotToMove {
                seat: 1,
                current_player: 0
            }
            .to_string(),
            "seat 1 is not to move (current player: 0)"
        );
        assert!(SearchError::NoBudget.to_string().contains("budget"));
        assert!(SearchError::TerminalState.to_string().contains("over"));
    }
}
