//! The native search behind Python: `search` (ISMCTS without the GIL, generic over the served
//! games), its configuration from Python's `SearchConfig` keys, `CancelFlag`, and the result as
//! a dict mirroring `search.api.SearchResult`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, SystemTime};

use boardbot_rules::pyrepr::str_repr;
use boardbot_search::{
    search_with, CancelToken, RolloutPolicy, SearchConfig, SearchHooks, SearchResult,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::{guard, search_error, InvalidConfigError};
use crate::games::{with_game, PyGame};
use crate::models::load_model;
use crate::state::{search_seat, PyState};

/// A cancellation flag for `search`: call `cancel()` from any thread.
#[pyclass(frozen, module = "boardbot_native")]
pub struct CancelFlag {
    pub(crate) token: CancelToken,
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

    /// The flag as a stop check: True once `cancel` has been called (a search given the flag
    /// itself as its stop check polls nothing).
    fn __call__(&self) -> bool {
        self.token.is_cancelled()
    }
}

/// The configuration keys `search` accepts (every field of Python's `SearchConfig`).
pub const CONFIG_KEYS: [&str; 19] = [
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
    "prior_weight",
    "widening",
    "widening_exponent",
    "model",
    "leaf_lambda",
    "puct",
    "fpu",
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
        Err(InvalidConfigError::new_err(format!(
            "config[{}] must be a finite number, got {value}",
            str_repr(key)
        )))
    }
}

/// Python's `SearchConfig` fields from a dict (defaults for the missing ones).
pub(crate) fn search_config(config: Option<&Bound<'_, PyDict>>) -> PyResult<SearchConfig> {
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
                            InvalidConfigError::new_err(format!(
                                "iterations must be at least 1, got {n}"
                            ))
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
                    InvalidConfigError::new_err(format!("workers must be at least 1, got {n}"))
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
                            InvalidConfigError::new_err(format!(
                                "config['cutoff_depth'] must be None or at least 0, got {n}"
                            ))
                        })
                    })
                    .transpose()?;
            }
            "max_rollout_steps" => {
                let n: i64 = config_value(&value, &key)?;
                out.max_rollout_steps = u32::try_from(n).map_err(|_| {
                    InvalidConfigError::new_err(format!(
                        "config['max_rollout_steps'] must be at least 0, got {n}"
                    ))
                })?;
            }
            "node_cap" => {
                let n: i64 = config_value(&value, &key)?;
                out.node_cap = usize::try_from(n).map_err(|_| {
                    InvalidConfigError::new_err(format!("node_cap must be at least 1, got {n}"))
                })?;
            }
            "early_stop" => out.early_stop = config_value(&value, &key)?,
            "margin_weight" => out.margin_weight = config_value(&value, &key)?,
            "prior_weight" => out.prior_weight = config_value(&value, &key)?,
            "widening" => out.widening = config_value(&value, &key)?,
            "widening_exponent" => out.widening_exponent = config_value(&value, &key)?,
            "model" => {
                out.model = optional::<String>(&value, &key)?
                    .map(|path| load_model(&path))
                    .transpose()?;
            }
            "leaf_lambda" => out.leaf_lambda = config_value(&value, &key)?,
            "puct" => out.puct = config_value(&value, &key)?,
            "fpu" => out.fpu = config_value(&value, &key)?,
            other => {
                return Err(InvalidConfigError::new_err(format!(
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

/// A Python dict mirroring `search.api.SearchResult` (`principal_variation` as a tuple;
/// `prior` and `net_value` None without a model; `seat_values` as lists).
pub(crate) fn result_dict<'py, G: PyGame>(
    py: Python<'py>,
    result: &SearchResult<G::Action>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("action", G::action_to_py(py, result.action)?)?;
    out.set_item("notation", &result.notation)?;
    out.set_item("seat", result.seat)?;
    out.set_item("iterations", result.iterations)?;
    out.set_item("elapsed_ms", result.elapsed.as_secs_f64() * 1e3)?;
    let moves = PyList::empty(py);
    for stats in &result.moves {
        let entry = PyDict::new(py);
        entry.set_item("action", G::action_to_py(py, stats.action)?)?;
        entry.set_item("notation", &stats.notation)?;
        entry.set_item("visits", stats.visits)?;
        entry.set_item("mean_value", stats.mean_value)?;
        entry.set_item("lower_bound", stats.lower_bound)?;
        entry.set_item(
            "principal_variation",
            PyTuple::new(py, &stats.principal_variation)?,
        )?;
        entry.set_item(
            "principal_variation_seats",
            PyTuple::new(py, &stats.principal_variation_seats)?,
        )?;
        entry.set_item("prior", stats.prior)?;
        entry.set_item("net_value", stats.net_value)?;
        entry.set_item("seat_values", PyList::new(py, &stats.seat_values)?)?;
        moves.append(entry)?;
    }
    out.set_item("moves", moves)?;
    out.set_item("stopped_by", result.stopped_by.name())?;
    out.set_item("nodes", result.nodes)?;
    out.set_item("seat_values", PyList::new(py, &result.seat_values)?)?;
    Ok(out)
}

/// ISMCTS for `seat` in `state` (only `seat`'s view is used), without the GIL.
///
/// `config` has Python's `SearchConfig` keys (unknown keys are an error); `cancel` a
/// `CancelFlag`; `on_progress` is called with a partial result dict (`stopped_by` `running`)
/// about every `progress_every` iterations (all threads together) and at most once per
/// `progress_ms` milliseconds (either may be 0, not both), with the GIL held. Reports are
/// coalesced: a slow callback gets fewer of them and never delays the end of the search. An
/// exception raised by `on_progress` stops the search and is raised again by `search`.
/// `search_forced` searches a position with one legal move too (else answered at once,
/// `stopped_by` `single_move`).
#[pyfunction]
#[pyo3(signature = (state, seat, config = None, seed = 0, cancel = None, on_progress = None, progress_every = 0, progress_ms = 0.0, search_forced = false))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    state: &PyState,
    seat: i64,
    config: Option<&Bound<'_, PyDict>>,
    seed: u64,
    cancel: Option<&CancelFlag>,
    on_progress: Option<PyObject>,
    progress_every: u64,
    progress_ms: f64,
    search_forced: bool,
) -> PyResult<PyObject> {
    let progress = Progress::new(on_progress, progress_every, progress_ms)?;
    let request = Request::new(config, seed, cancel, progress, search_forced)?;
    with_game!(&state.state, g, s => {
        let seat = search_seat(g, s, seat)?;
        run(g, py, s, seat, request)
    })
}

/// The progress a `search` call asks for: the callback and its pace.
pub(crate) struct Progress {
    pub(crate) on_progress: Option<PyObject>,
    pub(crate) every: u64,
    pub(crate) period: Duration,
}

impl Progress {
    /// The callback with its pace: every `every` iterations, at most once per `ms`
    /// milliseconds (a finite number, at least 0).
    pub(crate) fn new(on_progress: Option<PyObject>, every: u64, ms: f64) -> PyResult<Self> {
        if !(ms.is_finite() && ms >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "progress_ms must be a finite number of at least 0, got {ms}"
            )));
        }
        Ok(Self {
            on_progress,
            every,
            period: far_future_clamped(ms / 1e3),
        })
    }

    /// True when a callback is given with an iteration or a time condition.
    fn is_set(&self) -> bool {
        self.on_progress.is_some() && (self.every > 0 || !self.period.is_zero())
    }
}

/// What a `search` call asks for, beside the game, state and seat.
pub(crate) struct Request {
    pub(crate) config: SearchConfig,
    pub(crate) seed: u64,
    pub(crate) token: CancelToken,
    pub(crate) progress: Progress,
    pub(crate) search_forced: bool,
}

impl Request {
    /// The request of one `search` call: its checked settings and its controls.
    pub(crate) fn new(
        config: Option<&Bound<'_, PyDict>>,
        seed: u64,
        cancel: Option<&CancelFlag>,
        progress: Progress,
        search_forced: bool,
    ) -> PyResult<Self> {
        Ok(Self {
            config: guard("search", || search_config(config))?,
            seed,
            token: cancel.map_or_else(CancelToken::new, |flag| flag.token.clone()),
            progress,
            search_forced,
        })
    }
}

/// The search of `game` from `state` for `seat`, without the GIL; the result dict.
fn run<G: PyGame>(
    game: G,
    py: Python<'_>,
    state: &G::State,
    seat: usize,
    request: Request,
) -> PyResult<PyObject> {
    let game_state = state.clone();
    let result = run_hooked::<G, _>(py, request, |config, seed, hooks| {
        search_with(&game, &game_state, seat, config, seed, hooks)
    })?;
    Ok(result_dict::<G>(py, &result)?.into_any().unbind())
}

/// Runs `body` (a search taking the request's configuration, seed and hooks) without the GIL,
/// with the request's cancellation and progress callback; a panic becomes `RuntimeError`.
pub(crate) fn run_hooked<G: PyGame, T: Send>(
    py: Python<'_>,
    request: Request,
    body: impl FnOnce(
            &SearchConfig,
            u64,
            SearchHooks<'_, G::Action>,
        ) -> Result<T, boardbot_search::SearchError>
        + Send,
) -> PyResult<T> {
    let Request {
        config,
        seed,
        token,
        progress,
        search_forced,
    } = request;
    let wants_progress = progress.is_set();
    let Progress {
        on_progress,
        every,
        period,
    } = progress;
    let mut callback_error: Option<PyErr> = None;
    let outcome = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let stop = token.clone();
            let mut report = |partial: &SearchResult<G::Action>| {
                let Some(callback) = on_progress.as_ref() else {
                    return;
                };
                if callback_error.is_some() {
                    return;
                }
                Python::with_gil(|py| {
                    let called =
                        result_dict::<G>(py, partial).and_then(|dict| callback.call1(py, (dict,)));
                    if let Err(err) = called {
                        callback_error = Some(err);
                        stop.cancel();
                    }
                });
            };
            let mut hooks = SearchHooks::with_cancel(token.clone()).searching_forced(search_forced);
            if wants_progress {
                hooks = hooks.progress(every, &mut report).at_most_every(period);
            }
            body(&config, seed, hooks)
        }))
    });
    if let Some(err) = callback_error {
        return Err(err);
    }
    match outcome {
        Ok(Ok(result)) => Ok(result),
        Ok(Err(err)) => Err(search_error(&err)),
        Err(_) => Err(PyRuntimeError::new_err(
            "boardbot_native: internal error in search (a panic)",
        )),
    }
}
