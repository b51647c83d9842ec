//! `State`: an immutable handle on a state of any served game; `apply`, `observe` and
//! `determinize` give new handles. Every method is written once, generic over [`PyGame`].

use std::collections::BTreeSet;

use boardbot_rules::jsonread::text_depth_error;
use boardbot_rules::{seeded_rng, Featurize, Game, CHANCE};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::errors::{
    action_error, engine_error, guard, to_json_text, IllegalActionError, InvalidActionError,
    InvalidSeatError,
};
use crate::games::{with_game, AnyState, PyGame};
use crate::pyrandom::PyPythonRandom;

/// An immutable state of one game (Legend Raiders or LEDA).
#[pyclass(frozen, module = "boardbot_native", name = "State")]
pub struct PyState {
    pub(crate) state: AnyState,
}

impl From<AnyState> for PyState {
    fn from(state: AnyState) -> Self {
        Self { state }
    }
}

/// The legal decisions of `state`.
pub fn legal<G: Game>(game: G, state: &G::State) -> Vec<G::Action> {
    let mut out = Vec::new();
    game.legal_actions(state, &mut out);
    out
}

/// `seat` as a seat of `state`, or the message naming `what`.
fn seat_of<G: Game>(game: G, state: &G::State, seat: i64, what: &str) -> Result<usize, String> {
    let players = game.num_players(state);
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < players)
        .ok_or_else(|| {
            format!(
                "{what} must be a seat from 0 to {}, got {seat}",
                players - 1
            )
        })
}

/// `seat` as a seat of `state`, or ValueError naming `what`.
pub fn check_seat<G: Game>(game: G, state: &G::State, seat: i64, what: &str) -> PyResult<usize> {
    seat_of(game, state, seat, what).map_err(PyValueError::new_err)
}

/// The seat a search is for, or `InvalidSeatError` (same message as `check_seat`).
pub fn search_seat<G: Game>(game: G, state: &G::State, seat: i64) -> PyResult<usize> {
    seat_of(game, state, seat, "seat").map_err(InvalidSeatError::new_err)
}

/// The action, checked against the legal decisions or the pending chance step.
fn checked_action<G: PyGame>(
    game: G,
    state: &G::State,
    value: &Bound<'_, PyAny>,
) -> PyResult<G::Action> {
    let action = G::action_from_py(value)?;
    let player = game.current_player(state);
    let allowed = if player == CHANCE {
        match game.chance_outcomes(state) {
            Some(outcomes) => outcomes.iter().any(|&(outcome, _)| outcome == action),
            // Too many outcomes to list: the notation checks the outcome fits the chance step.
            None => {
                let text = game.action_to_str(state, action);
                game.action_from_str(state, &text).is_ok()
            }
        }
    } else {
        legal(game, state).contains(&action)
    };
    let shown = value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    if allowed {
        Ok(action)
    } else if game.is_terminal(state) {
        // The Python engine's reason (LEDA's `apply_action`).
        Err(engine_error::<IllegalActionError>("$", "the game is over"))
    } else if player == CHANCE {
        Err(engine_error::<IllegalActionError>(
            "$",
            &format!("action {shown} is not a chance outcome of this state"),
        ))
    } else {
        Err(engine_error::<IllegalActionError>(
            "$",
            &format!("action {shown} is not legal in this state"),
        ))
    }
}

/// Python objects of `actions`.
fn actions_to_py<G: PyGame>(_game: G, py: Python<'_>, actions: &[G::Action]) -> PyResult<PyObject> {
    let items = actions
        .iter()
        .map(|&a| G::action_to_py(py, a))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any().unbind())
}

fn apply<G: PyGame>(game: G, state: &G::State, value: &Bound<'_, PyAny>) -> PyResult<PyState> {
    let action = checked_action(game, state, value)?;
    let next = game.apply(state, action);
    G::check_applied(&next)?;
    Ok(PyState::from(G::wrap(next)))
}

fn chance_outcomes<G: PyGame>(
    game: G,
    py: Python<'_>,
    state: &G::State,
) -> PyResult<Option<Vec<(PyObject, f64)>>> {
    if game.current_player(state) != CHANCE {
        return Ok(None);
    }
    game.chance_outcomes(state)
        .map(|outcomes| {
            outcomes
                .into_iter()
                .map(|(a, p)| Ok((G::action_to_py(py, a)?, p)))
                .collect()
        })
        .transpose()
}

fn sample_chance<G: PyGame>(
    game: G,
    py: Python<'_>,
    state: &G::State,
    seed: u64,
) -> PyResult<Option<PyObject>> {
    let mut rng = seeded_rng(seed);
    game.sample_chance(state, &mut rng)
        .map(|a| G::action_to_py(py, a))
        .transpose()
}

/// One outcome of the pending chance step drawn from `rng` as the Python engine draws it.
fn sample_chance_from<G: PyGame>(
    game: G,
    py: Python<'_>,
    state: &G::State,
    rng: &PyPythonRandom,
) -> PyResult<Option<PyObject>> {
    if game.current_player(state) != CHANCE {
        return Ok(None);
    }
    let outcome = game.sample_chance_with(state, &mut *rng.lock()?);
    outcome.map(|a| G::action_to_py(py, a)).transpose()
}

fn policy_weights<G: PyGame>(
    game: G,
    state: &G::State,
    actions: &Bound<'_, PyAny>,
) -> PyResult<Vec<f64>> {
    let allowed: BTreeSet<G::Action> = legal(game, state).into_iter().collect();
    let mut checked = Vec::new();
    for (index, value) in actions.try_iter()?.enumerate() {
        let value = value?;
        let action = G::action_from_py(&value)?;
        if !allowed.contains(&action) {
            return Err(engine_error::<IllegalActionError>(
                &format!("$[{index}]"),
                &format!("action {} is not legal in this state", value.repr()?),
            ));
        }
        checked.push(action);
    }
    let mut out = Vec::new();
    game.policy_weights(state, &checked, &mut out);
    Ok(out)
}

#[pymethods]
impl PyState {
    /// The game's registry name.
    #[getter]
    fn game(&self) -> &'static str {
        with_game!(&self.state, g, _s => g.name())
    }

    /// The number of seats.
    fn num_players(&self) -> usize {
        with_game!(&self.state, g, s => g.num_players(s))
    }

    /// The documented JSON text; with `observer`, that seat's view (hidden parts as counts).
    #[pyo3(signature = (observer = None))]
    fn to_json(&self, observer: Option<i64>) -> PyResult<String> {
        guard("to_json", || {
            with_game!(&self.state, g, s => {
                let seat = observer
                    .map(|seat| check_seat(g, s, seat, "observer"))
                    .transpose()?;
                to_json_text(&g.state_to_json(s, seat))
            })
        })
    }

    /// The seat to decide, -1 at a chance step, -2 once the game is over.
    fn current_player(&self) -> i32 {
        with_game!(&self.state, g, s => g.current_player(s))
    }

    /// How to write an outcome of the pending chance step when its outcomes are not listed
    /// (LEDA's shuffles); None otherwise.
    fn chance_form(&self) -> Option<String> {
        with_game!(&self.state, g, s => g.chance_form(s))
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        with_game!(&self.state, g, s => g.is_terminal(s))
    }

    /// The legal decisions (the Python engine's values, in its order); empty at chance steps.
    fn legal_actions(&self, py: Python<'_>) -> PyResult<PyObject> {
        guard(
            "legal_actions",
            || with_game!(&self.state, g, s => actions_to_py(g, py, &legal(g, s))),
        )
    }

    /// The state after a legal decision or a chance outcome (checked: ValueError otherwise).
    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<PyState> {
        guard(
            "apply",
            || with_game!(&self.state, g, s => apply(g, s, action)),
        )
    }

    /// The outcomes and their probabilities at a chance step (None elsewhere, and when there
    /// are too many to list).
    fn chance_outcomes(&self, py: Python<'_>) -> PyResult<Option<Vec<(PyObject, f64)>>> {
        guard(
            "chance_outcomes",
            || with_game!(&self.state, g, s => chance_outcomes(g, py, s)),
        )
    }

    /// One outcome of the pending chance step from the native stream of `seed` (None when no
    /// chance step is pending).
    #[pyo3(signature = (seed = 0))]
    fn sample_chance(&self, py: Python<'_>, seed: u64) -> PyResult<Option<PyObject>> {
        guard(
            "sample_chance",
            || with_game!(&self.state, g, s => sample_chance(g, py, s, seed)),
        )
    }

    /// One outcome of the pending chance step drawn from `rng` (a `PythonRandom`) exactly as
    /// the Python engine's `sample_chance(state, rng)` draws it from a `random.Random` in the
    /// same state, advancing `rng`; None, with no draw, when no chance step is pending.
    fn sample_chance_from(
        &self,
        py: Python<'_>,
        rng: &Bound<'_, PyPythonRandom>,
    ) -> PyResult<Option<PyObject>> {
        guard("sample_chance_from", || {
            let rng = rng.get();
            with_game!(&self.state, g, s => sample_chance_from(g, py, s, rng))
        })
    }

    /// The short text of any action of the game, legal now or not.
    fn action_to_str(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        guard("action_to_str", || {
            with_game!(&self.state, g, s => {
                let action = action_from_py_of(g, action)?;
                Ok(g.action_to_str(s, action))
            })
        })
    }

    /// Parse the short text of a move and check it is legal now.
    fn action_from_str(&self, py: Python<'_>, text: &str) -> PyResult<PyObject> {
        guard("action_from_str", || {
            with_game!(&self.state, g, s => {
                let action = g.action_from_str(s, text).map_err(|err| action_error(&err))?;
                action_to_py_of(g, py, action)
            })
        })
    }

    /// The JSON text of any action of the game, legal now or not.
    fn action_to_json(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        guard("action_to_json", || {
            with_game!(&self.state, g, s => {
                let action = action_from_py_of(g, action)?;
                to_json_text(&g.action_to_json(s, action))
            })
        })
    }

    /// Parse the JSON text of a move and check it is legal now.
    fn action_from_json(&self, py: Python<'_>, json: &str) -> PyResult<PyObject> {
        guard("action_from_json", || {
            let data: serde_json::Value = serde_json::from_str(json).map_err(|err| {
                // Past serde_json's recursion limit: the engines' error for a deep document.
                match text_depth_error(json, "$") {
                    Some(deep) => engine_error::<InvalidActionError>(&deep.path, &deep.reason),
                    None => engine_error::<InvalidActionError>(
                        "$",
                        &format!("the move is not valid JSON: {err}"),
                    ),
                }
            })?;
            with_game!(&self.state, g, s => {
                let action = g.action_from_json(s, &data).map_err(|err| action_error(&err))?;
                action_to_py_of(g, py, action)
            })
        })
    }

    /// Per-seat outcome at the end: 1.0 for the winner(s), 0.0 for the others.
    fn returns(&self) -> PyResult<Vec<f64>> {
        guard(
            "returns",
            || with_game!(&self.state, g, s => Ok(g.returns(s))),
        )
    }

    /// Per-seat points as the game counts them.
    fn scores(&self) -> PyResult<Vec<f64>> {
        guard(
            "scores",
            || with_game!(&self.state, g, s => Ok(g.scores(s))),
        )
    }

    /// Heuristic per-seat value in [0, 1] (leaf evaluation).
    fn evaluate(&self) -> PyResult<Vec<f64>> {
        guard("evaluate", || {
            with_game!(&self.state, g, s => {
                let mut out = Vec::new();
                g.evaluate(s, &mut out);
                Ok(out)
            })
        })
    }

    /// The rollout policy's positive weights for legal `actions`.
    fn policy_weights(&self, actions: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        guard(
            "policy_weights",
            || with_game!(&self.state, g, s => policy_weights(g, s, actions)),
        )
    }

    /// `seat`'s view: the state with everything hidden from `seat` made canonical (the state
    /// `to_json(seat)` decodes to, computed without JSON). A new handle.
    fn observe(&self, seat: i64) -> PyResult<PyState> {
        guard("observe", || {
            with_game!(&self.state, g, s => {
                let seat = check_seat(g, s, seat, "seat")?;
                Ok(PyState::from(wrap_of(g, g.observe(s, seat).into_state())))
            })
        })
    }

    /// A full world consistent with all `observer` knows (native random stream from `seed`):
    /// a determinization of `observer`'s view.
    fn determinize(&self, observer: i64, seed: u64) -> PyResult<PyState> {
        guard("determinize", || {
            with_game!(&self.state, g, s => {
                let seat = check_seat(g, s, observer, "observer")?;
                let view = g.observe(s, seat);
                let mut rng = seeded_rng(seed);
                Ok(PyState::from(wrap_of(g, g.determinize(&view, &mut rng))))
            })
        })
    }

    /// `seat`'s view as the learned evaluator reads it (`feature_size(players)` values).
    fn features(&self, seat: i64) -> PyResult<Vec<f32>> {
        guard("features", || {
            with_game!(&self.state, g, s => {
                let seat = check_seat(g, s, seat, "seat")?;
                let mut out = Vec::new();
                g.features(s, seat, &mut out);
                Ok(out)
            })
        })
    }

    /// The active action-feature indices of `action` (a decision of this state).
    fn action_features(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        guard("action_features", || {
            with_game!(&self.state, g, s => {
                let action = action_from_py_of(g, action)?;
                let mut out = Vec::new();
                g.action_features(s, action, &mut out);
                Ok(out)
            })
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyState>()
            .is_ok_and(|other| other.get().state == self.state)
    }

    fn __repr__(&self) -> String {
        with_game!(&self.state, g, s => format!(
            "<boardbot_native.State {}, {} players, current player {}>",
            g.name(),
            g.num_players(s),
            g.current_player(s)
        ))
    }
}

/// `G::action_from_py`, with `G` taken from a value.
fn action_from_py_of<G: PyGame>(_game: G, value: &Bound<'_, PyAny>) -> PyResult<G::Action> {
    G::action_from_py(value)
}

/// `G::action_to_py`, with `G` taken from a value.
fn action_to_py_of<G: PyGame>(_game: G, py: Python<'_>, action: G::Action) -> PyResult<PyObject> {
    G::action_to_py(py, action)
}

/// `G::wrap`, with `G` taken from a value.
fn wrap_of<G: PyGame>(_game: G, state: G::State) -> AnyState {
    G::wrap(state)
}
