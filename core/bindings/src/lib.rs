//! `boardbot_native`: the Python binding (PyO3) of the native rules (`boardbot-rules`) and the
//! native ISMCTS search (`boardbot-search`).
//!
//! Python sees immutable state handles (`apply` returns a new handle), the same action integers,
//! JSON and notation as the Python engine, and a `search` function that releases the GIL while
//! it runs. No panic crosses into Python: every refusal is a Python exception naming what is
//! wrong, and every call is wrapped in `catch_unwind` as a last line of defence (a panic becomes
//! `RuntimeError`). The crate has no `unsafe` code of its own (`forbid`, as the whole workspace).
#![forbid(unsafe_code)]

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, SystemTime};

use boardbot_rules::legend_raiders::actions::layout;
use boardbot_rules::legend_raiders::state::RaidersState;
use boardbot_rules::playout::{random_playouts, PlayoutBudget, PlayoutError};
use boardbot_rules::pyrepr::str_repr;
use boardbot_rules::{seeded_rng, ActionError, Game, InvalidState, LegendRaiders, CHANCE};
use boardbot_search::{
    search_with, CancelToken, RolloutPolicy, SearchConfig, SearchError as CoreSearchError,
    SearchHooks, SearchResult,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

type Action = <LegendRaiders as Game>::Action;

pyo3::create_exception!(
    boardbot_native,
    InvalidStateError,
    PyValueError,
    "A state JSON that is malformed or impossible; the message starts with the JSON path."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidActionError,
    PyValueError,
    "A move that does not parse, is out of range, or is not legal in the state."
);
pyo3::create_exception!(
    boardbot_native,
    SearchError,
    PyValueError,
    "A search that cannot run (bad configuration, terminal state, wrong seat)."
);

/// Runs `body`, turning a panic into `RuntimeError` (the last line of defence).
fn guard<T>(what: &str, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(panic) => {
            let detail = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(PyRuntimeError::new_err(format!(
                "boardbot_native: internal error in {what}: {detail}"
            )))
        }
    }
}

fn invalid_state(err: &InvalidState) -> PyErr {
    InvalidStateError::new_err(format!("{}: {}", err.path, err.reason))
}

fn action_error(err: &ActionError) -> PyErr {
    InvalidActionError::new_err(format!("{}: {}", err.path(), err.reason()))
}

fn search_error(err: &CoreSearchError) -> PyErr {
    SearchError::new_err(err.to_string())
}

fn parse_json(text: &str, what: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(text)
        .map_err(|err| InvalidStateError::new_err(format!("$: {what} is not valid JSON: {err}")))
}

fn to_json_text(value: &serde_json::Value) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|err| PyRuntimeError::new_err(format!("cannot encode JSON: {err}")))
}

/// An action number from Python: in range for the game's action type.
fn action_number(action: i64) -> PyResult<Action> {
    Action::try_from(action).map_err(|_| {
        InvalidActionError::new_err(format!("$: action {action} is out of range (0-65535)"))
    })
}

/// Legend Raiders (2-4 players, with the die or diceless): builds and decodes states.
#[pyclass(frozen, module = "boardbot_native", name = "LegendRaiders")]
struct PyLegendRaiders;

#[pymethods]
impl PyLegendRaiders {
    #[new]
    fn new() -> Self {
        Self
    }

    /// The game's registry name (`legend_raiders`).
    #[getter]
    fn name(&self) -> &'static str {
        LegendRaiders.name()
    }

    /// The fewest seats.
    #[getter]
    fn min_players(&self) -> usize {
        LegendRaiders.min_players()
    }

    /// The most seats.
    #[getter]
    fn max_players(&self) -> usize {
        LegendRaiders.max_players()
    }

    /// The options with their allowed values and defaults, as JSON text.
    fn describe_options(&self) -> PyResult<String> {
        guard("describe_options", || {
            to_json_text(&LegendRaiders.describe_options())
        })
    }

    /// A fresh game set up from the options (JSON text of an object) with a native seed.
    #[pyo3(signature = (options_json = "{}", seed = 0))]
    fn new_state(&self, options_json: &str, seed: u64) -> PyResult<PyState> {
        guard("new_state", || {
            let options = parse_json(options_json, "the options")?;
            let state = LegendRaiders
                .new_state(&options, seed)
                .map_err(|err| invalid_state(&err))?;
            Ok(PyState::from(state))
        })
    }

    /// Decode and fully validate a state (full or a seat's view) from its JSON text.
    fn state_from_json(&self, json: &str) -> PyResult<PyState> {
        guard("state_from_json", || {
            let data = parse_json(json, "the state")?;
            let state = LegendRaiders
                .state_from_json(&data)
                .map_err(|err| invalid_state(&err))?;
            Ok(PyState::from(state))
        })
    }

    /// Seeded uniformly random games from the options for about `seconds` (whole games, the
    /// clock checked after each), played natively without the GIL: the engine benchmark.
    ///
    /// A dict: `games`, `steps` (= `decisions` + `chance`), `decisions`, `chance`, `seconds`
    /// (the wall-clock time taken). A step is one decision or one chance step, as in the Python
    /// benchmark (`boardbot.tools.engine_bench`).
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        options_json: &str,
        seed: u64,
        seconds: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        guard("random_playouts", || {
            if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_PLAYOUT_SECONDS) {
                return Err(PyValueError::new_err(format!(
                    "seconds must be more than 0 and at most {MAX_PLAYOUT_SECONDS}, got {seconds}"
                )));
            }
            let options = parse_json(options_json, "the options")?;
            let budget = PlayoutBudget::Time(Duration::from_secs_f64(seconds));
            let counts = py
                .allow_threads(|| {
                    guard("random_playouts", || {
                        Ok(random_playouts(&LegendRaiders, &options, seed, budget))
                    })
                })?
                .map_err(|err| match err {
                    PlayoutError::Options(err) => invalid_state(&err),
                    stuck @ PlayoutError::Stuck { .. } => PyRuntimeError::new_err(format!(
                        "boardbot_native: internal error in random_playouts: {stuck}"
                    )),
                })?;
            let out = PyDict::new(py);
            out.set_item("games", counts.games)?;
            out.set_item("steps", counts.steps)?;
            out.set_item("decisions", counts.decisions)?;
            out.set_item("chance", counts.chance)?;
            out.set_item("seconds", counts.elapsed.as_secs_f64())?;
            Ok(out)
        })
    }
}

/// The longest `random_playouts` run (seconds): a benchmark, not a way to hang a process.
const MAX_PLAYOUT_SECONDS: f64 = 600.0;

/// An immutable Legend Raiders state; `apply`, `observe`, `determinize` give new handles.
#[pyclass(frozen, module = "boardbot_native", name = "State")]
struct PyState {
    state: RaidersState,
}

impl From<RaidersState> for PyState {
    fn from(state: RaidersState) -> Self {
        Self { state }
    }
}

impl PyState {
    fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        LegendRaiders.legal_actions(&self.state, &mut out);
        out
    }

    fn check_seat(&self, seat: i64, what: &str) -> PyResult<usize> {
        let players = LegendRaiders.num_players(&self.state);
        usize::try_from(seat)
            .ok()
            .filter(|&s| s < players)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{what} must be a seat from 0 to {}, got {seat}",
                    players - 1
                ))
            })
    }

    /// The action, checked against the legal decisions or the chance outcomes.
    /// `action` when it names an action of the game at all (legal now or not), as the Python
    /// engine's notation accepts any.
    fn named_action(action: i64) -> PyResult<Action> {
        let number = action_number(action)?;
        if layout().is_action(number) {
            Ok(number)
        } else {
            Err(InvalidActionError::new_err(format!(
                "$: action {action} is not an action of this game"
            )))
        }
    }

    fn checked_action(&self, action: i64) -> PyResult<Action> {
        let number = action_number(action)?;
        let player = LegendRaiders.current_player(&self.state);
        let allowed = if player == CHANCE {
            LegendRaiders
                .chance_outcomes(&self.state)
                .unwrap_or_default()
                .iter()
                .any(|&(outcome, _)| outcome == number)
        } else {
            self.legal().contains(&number)
        };
        if allowed {
            Ok(number)
        } else if LegendRaiders.is_terminal(&self.state) {
            Err(InvalidActionError::new_err(format!(
                "$: action {action} cannot be applied: the game is over"
            )))
        } else if player == CHANCE {
            Err(InvalidActionError::new_err(format!(
                "$: action {action} is not a chance outcome of this state"
            )))
        } else {
            Err(InvalidActionError::new_err(format!(
                "$: action {action} is not legal in this state"
            )))
        }
    }
}

#[pymethods]
impl PyState {
    /// The number of seats.
    fn num_players(&self) -> usize {
        LegendRaiders.num_players(&self.state)
    }

    /// The documented JSON text; with `observer`, that seat's view (hidden parts as counts).
    #[pyo3(signature = (observer = None))]
    fn to_json(&self, observer: Option<i64>) -> PyResult<String> {
        guard("to_json", || {
            let seat = observer
                .map(|seat| self.check_seat(seat, "observer"))
                .transpose()?;
            to_json_text(&LegendRaiders.state_to_json(&self.state, seat))
        })
    }

    /// The seat to decide, -1 at a chance step, -2 once the game is over.
    fn current_player(&self) -> i32 {
        LegendRaiders.current_player(&self.state)
    }

    /// True once the game is over.
    fn is_terminal(&self) -> bool {
        LegendRaiders.is_terminal(&self.state)
    }

    /// The legal decisions (the Python engine's integers, in its order); empty at chance steps.
    fn legal_actions(&self) -> PyResult<Vec<Action>> {
        guard("legal_actions", || Ok(self.legal()))
    }

    /// The state after a legal decision or a chance outcome (checked: ValueError otherwise).
    fn apply(&self, action: i64) -> PyResult<PyState> {
        guard("apply", || {
            let action = self.checked_action(action)?;
            Ok(PyState::from(LegendRaiders.apply(&self.state, action)))
        })
    }

    /// The outcomes and their probabilities at a chance step; None elsewhere.
    fn chance_outcomes(&self) -> PyResult<Option<Vec<(Action, f64)>>> {
        guard("chance_outcomes", || {
            if LegendRaiders.current_player(&self.state) != CHANCE {
                return Ok(None);
            }
            Ok(LegendRaiders.chance_outcomes(&self.state))
        })
    }

    /// The short text of any action of the game (e.g. `prepare:3`), legal now or not.
    fn action_to_str(&self, action: i64) -> PyResult<String> {
        guard("action_to_str", || {
            let action = Self::named_action(action)?;
            Ok(LegendRaiders.action_to_str(&self.state, action))
        })
    }

    /// Parse the short text of a move and check it is legal now.
    fn action_from_str(&self, text: &str) -> PyResult<Action> {
        guard("action_from_str", || {
            LegendRaiders
                .action_from_str(&self.state, text)
                .map_err(|err| action_error(&err))
        })
    }

    /// The JSON text of any action of the game, legal now or not.
    fn action_to_json(&self, action: i64) -> PyResult<String> {
        guard("action_to_json", || {
            let action = Self::named_action(action)?;
            to_json_text(&LegendRaiders.action_to_json(&self.state, action))
        })
    }

    /// Parse the JSON text of a move and check it is legal now.
    fn action_from_json(&self, json: &str) -> PyResult<Action> {
        guard("action_from_json", || {
            let data: serde_json::Value = serde_json::from_str(json).map_err(|err| {
                InvalidActionError::new_err(format!("$: the move is not valid JSON: {err}"))
            })?;
            LegendRaiders
                .action_from_json(&self.state, &data)
                .map_err(|err| action_error(&err))
        })
    }

    /// Per-seat outcome at the end: 1.0 for the winner(s), 0.0 for the others.
    fn returns(&self) -> PyResult<Vec<f64>> {
        guard("returns", || Ok(LegendRaiders.returns(&self.state)))
    }

    /// Per-seat points as the game counts them.
    fn scores(&self) -> PyResult<Vec<f64>> {
        guard("scores", || Ok(LegendRaiders.scores(&self.state)))
    }

    /// Heuristic per-seat value in [0, 1] (leaf evaluation).
    fn evaluate(&self) -> PyResult<Vec<f64>> {
        guard("evaluate", || {
            let mut out = Vec::new();
            LegendRaiders.evaluate(&self.state, &mut out);
            Ok(out)
        })
    }

    /// The rollout policy's positive weights for legal `actions`.
    fn policy_weights(&self, actions: Vec<i64>) -> PyResult<Vec<f64>> {
        guard("policy_weights", || {
            let legal: BTreeSet<Action> = self.legal().into_iter().collect();
            let mut checked = Vec::with_capacity(actions.len());
            for (index, &action) in actions.iter().enumerate() {
                let number = action_number(action)?;
                if !legal.contains(&number) {
                    return Err(InvalidActionError::new_err(format!(
                        "$[{index}]: action {action} is not legal in this state"
                    )));
                }
                checked.push(number);
            }
            let mut out = Vec::new();
            LegendRaiders.policy_weights(&self.state, &checked, &mut out);
            Ok(out)
        })
    }

    /// `seat`'s view: the state with everything hidden from `seat` made canonical (the state
    /// `to_json(seat)` decodes to, computed without JSON). A new handle.
    fn observe(&self, seat: i64) -> PyResult<PyState> {
        guard("observe", || {
            let seat = self.check_seat(seat, "seat")?;
            Ok(PyState::from(
                LegendRaiders.observe(&self.state, seat).into_state(),
            ))
        })
    }

    /// A full world consistent with all `observer` knows (native random stream from `seed`):
    /// a determinization of `observer`'s view.
    fn determinize(&self, observer: i64, seed: u64) -> PyResult<PyState> {
        guard("determinize", || {
            let seat = self.check_seat(observer, "observer")?;
            let view = LegendRaiders.observe(&self.state, seat);
            let mut rng = seeded_rng(seed);
            Ok(PyState::from(LegendRaiders.determinize(&view, &mut rng)))
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyState>()
            .is_ok_and(|other| other.get().state == self.state)
    }

    fn __repr__(&self) -> String {
        format!(
            "<boardbot_native.State legend_raiders, {} players, current player {}>",
            LegendRaiders.num_players(&self.state),
            LegendRaiders.current_player(&self.state)
        )
    }
}

/// A cancellation flag for `search`: call `cancel()` from any thread.
#[pyclass(frozen, module = "boardbot_native")]
struct CancelFlag {
    token: CancelToken,
}

#[pymethods]
impl CancelFlag {
    #[new]
    fn new() -> Self {
        Self {
            token: CancelToken::new(),
        }
    }

    /// Ask every search holding this flag to stop (it still returns its best move).
    fn cancel(&self) {
        self.token.cancel();
    }

    /// True once `cancel` has been called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }
}

const CONFIG_KEYS: [&str; 12] = [
    "iterations",
    "time_ms",
    "deadline",
    "workers",
    "exploration",
    "temperature",
    "rollout",
    "cutoff_depth",
    "max_rollout_steps",
    "node_cap",
    "early_stop",
    "margin_weight",
];

fn config_value<'py, T: FromPyObject<'py>>(value: &Bound<'py, PyAny>, key: &str) -> PyResult<T> {
    value.extract::<T>().map_err(|err| {
        PyTypeError::new_err(format!(
            "config[{}]: {} (got {})",
            str_repr(key),
            err.value(value.py()),
            value
                .repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })
}

fn optional<'py, T: FromPyObject<'py>>(
    value: &Bound<'py, PyAny>,
    key: &str,
) -> PyResult<Option<T>> {
    if value.is_none() {
        Ok(None)
    } else {
        config_value(value, key).map(Some)
    }
}

fn finite(value: f64, key: &str) -> PyResult<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "config[{}] must be a finite number, got {value}",
            str_repr(key)
        )))
    }
}

/// Python's `SearchConfig` fields from a dict (defaults for the missing ones).
fn search_config(config: Option<&Bound<'_, PyDict>>) -> PyResult<SearchConfig> {
    let mut out = SearchConfig::default();
    let Some(config) = config else {
        return Ok(out);
    };
    for (key, value) in config.iter() {
        let key: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("config keys must be strings"))?;
        match key.as_str() {
            "iterations" => {
                out.iterations = optional::<i64>(&value, &key)?
                    .map(|n| {
                        u64::try_from(n).map_err(|_| {
                            SearchError::new_err(format!("iterations must be at least 1, got {n}"))
                        })
                    })
                    .transpose()?;
            }
            "time_ms" => {
                out.time_budget = optional::<f64>(&value, &key)?
                    .map(|ms| finite(ms, &key).map(|ms| far_future_clamped(ms / 1e3)))
                    .transpose()?;
            }
            "deadline" => {
                out.deadline = optional::<f64>(&value, &key)?
                    .map(|secs| {
                        finite(secs, &key)
                            .map(|secs| SystemTime::UNIX_EPOCH + far_future_clamped(secs))
                    })
                    .transpose()?;
            }
            "workers" => {
                let n: i64 = config_value(&value, &key)?;
                out.workers = usize::try_from(n).map_err(|_| {
                    SearchError::new_err(format!("workers must be at least 1, got {n}"))
                })?;
            }
            "exploration" => out.exploration = finite(config_value(&value, &key)?, &key)?,
            "temperature" => out.temperature = finite(config_value(&value, &key)?, &key)?,
            "rollout" => {
                let name: String = config_value(&value, &key)?;
                out.rollout = RolloutPolicy::from_name(&name).map_err(|err| search_error(&err))?;
            }
            "cutoff_depth" => {
                out.cutoff_depth = optional::<i64>(&value, &key)?
                    .map(|n| {
                        u32::try_from(n).map_err(|_| {
                            PyValueError::new_err(format!(
                                "config['cutoff_depth'] must be None or at least 0, got {n}"
                            ))
                        })
                    })
                    .transpose()?;
            }
            "max_rollout_steps" => {
                let n: i64 = config_value(&value, &key)?;
                out.max_rollout_steps = u32::try_from(n).map_err(|_| {
                    PyValueError::new_err(format!(
                        "config['max_rollout_steps'] must be at least 0, got {n}"
                    ))
                })?;
            }
            "node_cap" => {
                let n: i64 = config_value(&value, &key)?;
                out.node_cap = usize::try_from(n).map_err(|_| {
                    SearchError::new_err(format!("node_cap must be at least 1, got {n}"))
                })?;
            }
            "early_stop" => out.early_stop = config_value(&value, &key)?,
            "margin_weight" => out.margin_weight = config_value(&value, &key)?,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown search configuration key {} (known: {})",
                    str_repr(other),
                    CONFIG_KEYS.join(", ")
                )))
            }
        }
    }
    out.validate().map_err(|err| search_error(&err))?;
    Ok(out)
}

/// Seconds as a Duration, clamped to [0, FAR_FUTURE_SECS]: a budget or deadline further away
/// than any search runs means the same as that bound, and never overflows a clock.
fn far_future_clamped(secs: f64) -> Duration {
    Duration::from_secs_f64(secs.clamp(0.0, FAR_FUTURE_SECS))
}

/// About 31,000 years: later than any deadline, and within what `SystemTime` can hold.
const FAR_FUTURE_SECS: f64 = 1e12;

/// A Python dict mirroring `search.api.SearchResult` (`principal_variation` as a tuple).
fn result_dict<'py>(
    py: Python<'py>,
    result: &SearchResult<Action>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("action", result.action)?;
    out.set_item("notation", &result.notation)?;
    out.set_item("seat", result.seat)?;
    out.set_item("iterations", result.iterations)?;
    out.set_item("elapsed_ms", result.elapsed.as_secs_f64() * 1e3)?;
    let moves = PyList::empty(py);
    for stats in &result.moves {
        let entry = PyDict::new(py);
        entry.set_item("action", stats.action)?;
        entry.set_item("notation", &stats.notation)?;
        entry.set_item("visits", stats.visits)?;
        entry.set_item("mean_value", stats.mean_value)?;
        entry.set_item("lower_bound", stats.lower_bound)?;
        entry.set_item(
            "principal_variation",
            PyTuple::new(py, &stats.principal_variation)?,
        )?;
        moves.append(entry)?;
    }
    out.set_item("moves", moves)?;
    out.set_item("stopped_by", result.stopped_by.name())?;
    out.set_item("nodes", result.nodes)?;
    Ok(out)
}

/// ISMCTS for `seat` in `state` (only `seat`'s view is used), without the GIL.
///
/// `config` has Python's `SearchConfig` keys (unknown keys are an error); `cancel` a
/// `CancelFlag`; `on_progress` is called with a partial result dict (`stopped_by` `running`)
/// about every `progress_every` iterations, with the GIL held. An exception raised by
/// `on_progress` stops the search and is raised again by `search`.
#[pyfunction]
#[pyo3(signature = (state, seat, config = None, seed = 0, cancel = None, on_progress = None, progress_every = 0))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &PyState,
    seat: i64,
    config: Option<&Bound<'_, PyDict>>,
    seed: u64,
    cancel: Option<&CancelFlag>,
    on_progress: Option<PyObject>,
    progress_every: u64,
) -> PyResult<PyObject> {
    let config = guard("search", || search_config(config))?;
    let seat = state.check_seat(seat, "seat")?;
    let token = cancel.map_or_else(CancelToken::new, |flag| flag.token.clone());
    let game_state = state.state.clone();
    let mut callback_error: Option<PyErr> = None;
    let outcome = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let stop = token.clone();
            let mut report = |partial: &SearchResult<Action>| {
                let Some(callback) = on_progress.as_ref() else {
                    return;
                };
                if callback_error.is_some() {
                    return;
                }
                Python::with_gil(|py| {
                    let called =
                        result_dict(py, partial).and_then(|dict| callback.call1(py, (dict,)));
                    if let Err(err) = called {
                        callback_error = Some(err);
                        stop.cancel();
                    }
                });
            };
            let mut hooks = SearchHooks::with_cancel(token.clone());
            if on_progress.is_some() && progress_every > 0 {
                hooks = hooks.progress(progress_every, &mut report);
            }
            search_with(&LegendRaiders, &game_state, seat, &config, seed, hooks)
        }))
    });
    if let Some(err) = callback_error {
        return Err(err);
    }
    match outcome {
        Ok(Ok(result)) => Ok(result_dict(py, &result)?.into_any().unbind()),
        Ok(Err(err)) => Err(search_error(&err)),
        Err(_) => Err(PyRuntimeError::new_err(
            "boardbot_native: internal error in search (a panic)",
        )),
    }
}

/// The native twins of boardbot's engines and search.
#[pymodule]
fn boardbot_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyLegendRaiders>()?;
    m.add_class::<PyState>()?;
    m.add_class::<CancelFlag>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add("InvalidStateError", py.get_type::<InvalidStateError>())?;
    m.add("InvalidActionError", py.get_type::<InvalidActionError>())?;
    m.add("SearchError", py.get_type::<SearchError>())?;
    m.add("CONFIG_KEYS", PyTuple::new(py, CONFIG_KEYS)?)?;
    Ok(())
}
