//! The search configuration (the twin of `SearchConfig` in `search/api.py`) and the rollout
//! policies by name.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use crate::error::SearchError;
use crate::guided::Model;

/// How a rollout picks a decision among two or more legal actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RolloutPolicy {
    /// Uniform over the legal actions (`random`).
    #[default]
    Random,
    /// Proportional to the game's `policy_weights` (`heuristic`).
    Heuristic,
}

impl RolloutPolicy {
    /// Every policy, in the order their names are listed.
    pub const ALL: [RolloutPolicy; 2] = [RolloutPolicy::Random, RolloutPolicy::Heuristic];

    /// The policy's name in a configuration (`random`, `heuristic`).
    pub fn name(self) -> &'static str {
        match self {
            RolloutPolicy::Random => "random",
            RolloutPolicy::Heuristic => "heuristic",
        }
    }

    /// The policy called `name`; [`SearchError::UnknownRolloutPolicy`] otherwise.
    pub fn from_name(name: &str) -> Result<Self, SearchError> {
        Self::ALL
            .into_iter()
            .find(|policy| policy.name() == name)
            .ok_or_else(|| SearchError::UnknownRolloutPolicy {
                name: name.to_owned(),
            })
    }
}

impl FromStr for RolloutPolicy {
    type Err = SearchError;

    fn from_str(name: &str) -> Result<Self, SearchError> {
        Self::from_name(name)
    }
}

impl fmt::Display for RolloutPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One configuration of the ISMCTS search; difficulty presets are named instances.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iteration budget (None: unbounded, another budget must be set).
    pub iterations: Option<u64>,
    /// Wall-clock budget from the start of the search (`time_ms` in Python).
    pub time_budget: Option<Duration>,
    /// Absolute wall-clock instant after which the search stops (from an RPC deadline).
    pub deadline: Option<SystemTime>,
    /// Root-parallel worker threads, each with its own tree and derived seed.
    pub workers: usize,
    /// UCB exploration constant.
    pub exploration: f64,
    /// 0 picks the most visited move; > 0 samples from visits ^ (1 / temperature).
    pub temperature: f64,
    /// How rollouts choose their decisions.
    pub rollout: RolloutPolicy,
    /// Stop rollouts after this many steps and use the game's evaluate (None: play out).
    pub cutoff_depth: Option<u32>,
    /// Safety bound on a rollout's length; the game's evaluate scores a truncated rollout.
    pub max_rollout_steps: u32,
    /// Maximum tree nodes (the root included); beyond it the tree stops growing.
    pub node_cap: usize,
    /// Stop once the most visited root move can no longer be overtaken within the budget.
    pub early_stop: bool,
    /// Share of a terminal reward given by the squashed score margin (the rest: win or loss).
    pub margin_weight: f64,
    /// Progressive bias: `prior_weight · P(a) / (visits + 1)` joins a child's UCB score, P the
    /// game's `policy_weights` normalised over the node's legal actions; > 0 also expands the
    /// untried action with the highest prior first (0: no priors, uniform expansion).
    pub prior_weight: f64,
    /// Progressive widening coefficient k: a node expands at most `ceil(k · n^alpha)` children
    /// for a seat, n its visits with that seat to move, this one included (0: off).
    pub widening: f64,
    /// Progressive widening exponent alpha, in [0, 1] (used only when `widening` > 0).
    pub widening_exponent: f64,
    /// The learned evaluator guiding the search: PUCT with its priors and its value at the
    /// leaves (None: the search without a model, bit for bit as before).
    pub model: Option<Model>,
    /// With a model, a leaf's value is `leaf_lambda · net + (1 - leaf_lambda) · rollout`
    /// (1: the network replaces the rollout; 0: rollouts only, priors still learned).
    pub leaf_lambda: f64,
    /// With a model, the PUCT constant: a child scores
    /// `Q + puct · P · sqrt(N) / (1 + n)`.
    pub puct: f64,
    /// With a model, first-play urgency: an unvisited decision's Q is its node's mean value
    /// for the seat to move less `fpu`.
    pub fpu: f64,
}

impl Default for SearchConfig {
    /// The Python defaults: 1000 iterations, exploration 0.7, uniform rollouts played out.
    fn default() -> Self {
        Self {
            iterations: Some(1000),
            time_budget: None,
            deadline: None,
            workers: 1,
            exploration: 0.7,
            temperature: 0.0,
            rollout: RolloutPolicy::Random,
            cutoff_depth: None,
            max_rollout_steps: 2000,
            node_cap: 200_000,
            early_stop: true,
            margin_weight: 0.1,
            prior_weight: 0.0,
            widening: 0.0,
            widening_exponent: 0.5,
            model: None,
            leaf_lambda: 0.5,
            puct: 0.5,
            fpu: 0.2,
        }
    }
}

impl SearchConfig {
    /// An error for a configuration the search cannot run with, in Python's order of checks.
    pub fn validate(&self) -> Result<(), SearchError> {
        if self.iterations.is_none() && self.time_budget.is_none() && self.deadline.is_none() {
            return Err(SearchError::NoBudget);
        }
        if self.iterations == Some(0) {
            return Err(SearchError::IterationsBelowOne);
        }
        if self.workers < 1 {
            return Err(SearchError::WorkersBelowOne);
        }
        if self.node_cap < 1 {
            return Err(SearchError::NodeCapBelowOne);
        }
        if !(0.0..=1.0).contains(&self.margin_weight) {
            return Err(SearchError::MarginWeightOutOfRange {
                margin_weight: self.margin_weight,
            });
        }
        if !(self.prior_weight >= 0.0 && self.prior_weight.is_finite()) {
            return Err(SearchError::PriorWeightOutOfRange {
                prior_weight: self.prior_weight,
            });
        }
        if !(self.widening >= 0.0 && self.widening.is_finite()) {
            return Err(SearchError::WideningOutOfRange {
                widening: self.widening,
            });
        }
        if !(0.0..=1.0).contains(&self.widening_exponent) {
            return Err(SearchError::WideningExponentOutOfRange {
                widening_exponent: self.widening_exponent,
            });
        }
        if !(0.0..=1.0).contains(&self.leaf_lambda) {
            return Err(SearchError::LeafLambdaOutOfRange {
                leaf_lambda: self.leaf_lambda,
            });
        }
        if !(self.puct >= 0.0 && self.puct.is_finite()) {
            return Err(SearchError::PuctOutOfRange { puct: self.puct });
        }
        if !self.fpu.is_finite() {
            return Err(SearchError::FpuOutOfRange { fpu: self.fpu });
        }
        Ok(())
    }

    /// The most steps one rollout plays: the cut-off depth within the safety bound.
    pub fn rollout_steps(&self) -> u32 {
        match self.cutoff_depth {
            Some(cutoff) => cutoff.min(self.max_rollout_steps),
            None => self.max_rollout_steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_round_trip_through_their_names() {
        for policy in RolloutPolicy::ALL {
            assert_eq!(policy.name().parse::<RolloutPolicy>(), Ok(policy));
        }
        assert_eq!(
            "clever".parse::<RolloutPolicy>(),
            Err(SearchError::UnknownRolloutPolicy {
                name: "clever".into()
            })
        );
    }

    #[test]
    fn validation_names_the_first_problem() {
        let ok = SearchConfig::default();
        assert_eq!(ok.validate(), Ok(()));
        let none = SearchConfig {
            iterations: None,
            ..ok.clone()
        };
        assert_eq!(none.validate(), Err(SearchError::NoBudget));
        let timed = SearchConfig {
            time_budget: Some(Duration::from_millis(5)),
            ..none.clone()
        };
        assert_eq!(timed.validate(), Ok(()));
        let zero = SearchConfig {
            iterations: Some(0),
            workers: 0,
            ..ok.clone()
        };
        assert_eq!(zero.validate(), Err(SearchError::IterationsBelowOne));
        let workers = SearchConfig {
            workers: 0,
            node_cap: 0,
            ..ok.clone()
        };
        assert_eq!(workers.validate(), Err(SearchError::WorkersBelowOne));
        let cap = SearchConfig {
            node_cap: 0,
            ..ok.clone()
        };
        assert_eq!(cap.validate(), Err(SearchError::NodeCapBelowOne));
        for weight in [-0.1, 1.5, f64::NAN] {
            let bad = SearchConfig {
                margin_weight: weight,
                ..ok.clone()
            };
            assert!(matches!(
                bad.validate(),
                Err(SearchError::MarginWeightOutOfRange { .. })
            ));
        }
    }

    #[test]
    fn priors_and_widening_must_be_in_range() {
        let ok = SearchConfig {
            prior_weight: 2.0,
            widening: 1.5,
            widening_exponent: 1.0,
            ..SearchConfig::default()
        };
        assert_eq!(ok.validate(), Ok(()));
        for weight in [-0.5, f64::INFINITY, f64::NAN] {
            let bad = SearchConfig {
                prior_weight: weight,
                ..ok.clone()
            };
            assert!(matches!(
                bad.validate(),
                Err(SearchError::PriorWeightOutOfRange { .. })
            ));
            let bad = SearchConfig {
                widening: weight,
                ..ok.clone()
            };
            assert!(matches!(
                bad.validate(),
                Err(SearchError::WideningOutOfRange { .. })
            ));
        }
        for exponent in [-0.1, 1.5, f64::NAN] {
            let bad = SearchConfig {
                widening_exponent: exponent,
                ..ok.clone()
            };
            assert!(matches!(
                bad.validate(),
                Err(SearchError::WideningExponentOutOfRange { .. })
            ));
        }
    }

    #[test]
    fn rollout_steps_take_the_cutoff_within_the_bound() {
        let mut config = SearchConfig::default();
        assert_eq!(config.rollout_steps(), 2000);
        config.cutoff_depth = Some(12);
        assert_eq!(config.rollout_steps(), 12);
        config.max_rollout_steps = 5;
        assert_eq!(config.rollout_steps(), 5);
    }
}
