//! The games the binding serves: how each one's actions look in Python, the one state type
//! holding either game's state, and the game classes (`LegendRaiders`, `Leda`).
//!
//! Actions take the Python engine's form: a Legend Raiders action is an integer, a LEDA action
//! a tuple `(kind, *args)` (a shuffle outcome `(27, (order...))`), so results compare equal to
//! the Python engine's values.

use std::time::Duration;

use boardbot_rules::leda::actions::Action as LedaAction;
use boardbot_rules::leda::bounds::PENDING_MAX;
use boardbot_rules::leda::LedaState;
use boardbot_rules::legend_raiders::actions::layout;
use boardbot_rules::legend_raiders::state::RaidersState;
use boardbot_rules::playout::{random_playouts, PlayoutBudget, PlayoutError};
use boardbot_rules::{Featurize, Game, GameDraws, Leda, LegendRaiders, PythonRandom};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::{
    engine_error, guard, invalid_options, invalid_state, json_text, parse_json, to_json_text,
    InvalidActionError, InvalidStateError,
};
use crate::state::PyState;

/// A game the binding serves: its rules (with either random stream), and its actions' Python
/// form.
pub trait PyGame: GameDraws + Featurize + Copy + Default + 'static {
    /// The state as the binding holds it.
    fn wrap(state: Self::State) -> AnyState;

    /// The action as the Python engine writes it.
    fn action_to_py(py: Python<'_>, action: Self::Action) -> PyResult<PyObject>;

    /// Any action of the game (legal now or not) from its Python form.
    fn action_from_py(value: &Bound<'_, PyAny>) -> PyResult<Self::Action>;

    /// Refuse a state `apply` produced that the Python engine refuses to produce.
    fn check_applied(_state: &Self::State) -> PyResult<()> {
        Ok(())
    }
}

/// `InvalidActionError` for a Python value that names no action of the game.
fn not_an_action(value: &Bound<'_, PyAny>) -> PyErr {
    let shown = value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    engine_error::<InvalidActionError>(
        "$",
        &format!("action {shown} is not an action of this game"),
    )
}

impl PyGame for LegendRaiders {
    fn wrap(state: RaidersState) -> AnyState {
        AnyState::Raiders(state)
    }

    fn action_to_py(py: Python<'_>, action: Self::Action) -> PyResult<PyObject> {
        Ok(action.into_pyobject(py)?.into_any().unbind())
    }

    fn action_from_py(value: &Bound<'_, PyAny>) -> PyResult<Self::Action> {
        let number: i64 = value.extract().map_err(|_| not_an_action(value))?;
        let action = Self::Action::try_from(number).map_err(|_| {
            engine_error::<InvalidActionError>(
                "$",
                &format!("action {number} is out of range (0-65535)"),
            )
        })?;
        if layout().is_action(action) {
            Ok(action)
        } else {
            Err(not_an_action(value))
        }
    }
}

impl PyGame for Leda {
    fn wrap(state: LedaState) -> AnyState {
        AnyState::Leda(state)
    }

    fn action_to_py(py: Python<'_>, action: LedaAction) -> PyResult<PyObject> {
        let args = action.args().iter().map(|&v| usize::from(v));
        let kind = usize::from(action.kind());
        let tuple = if action.is_shuffle() {
            let order = PyTuple::new(py, args)?;
            PyTuple::new(py, [kind.into_pyobject(py)?.into_any(), order.into_any()])?
        } else {
            PyTuple::new(py, std::iter::once(kind).chain(args).collect::<Vec<_>>())?
        };
        Ok(tuple.into_any().unbind())
    }

    fn action_from_py(value: &Bound<'_, PyAny>) -> PyResult<LedaAction> {
        let json = py_to_json(value).ok_or_else(|| not_an_action(value))?;
        LedaAction::from_tuple(&json).ok_or_else(|| not_an_action(value))
    }

    fn check_applied(state: &LedaState) -> PyResult<()> {
        if state.stack.len() > PENDING_MAX {
            return Err(engine_error::<InvalidStateError>(
                "$.pending",
                &format!("this work grows past {PENDING_MAX} frames, which no game reaches"),
            ));
        }
        Ok(())
    }
}

/// A Python tuple or list of non-negative integers (nested once) as JSON, as
/// `Action::from_tuple` reads it; None for anything else.
fn py_to_json(value: &Bound<'_, PyAny>) -> Option<serde_json::Value> {
    if let Ok(number) = value.extract::<u64>() {
        if value.is_instance_of::<pyo3::types::PyBool>() {
            return None;
        }
        return Some(serde_json::Value::from(number));
    }
    let items: Vec<Bound<'_, PyAny>> = if let Ok(tuple) = value.downcast::<PyTuple>() {
        tuple.iter().collect()
    } else if let Ok(list) = value.downcast::<PyList>() {
        list.iter().collect()
    } else {
        return None;
    };
    if items.len() > 32 {
        return None;
    }
    items
        .iter()
        .map(py_to_json)
        .collect::<Option<Vec<_>>>()
        .map(serde_json::Value::Array)
}

/// A state of any served game.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyState {
    /// A Legend Raiders state.
    Raiders(RaidersState),
    /// A LEDA state.
    Leda(LedaState),
}

/// Run `$body` with `$game` the rules object and `$state` the typed state of `$any`.
macro_rules! with_game {
    ($any:expr, $game:ident, $state:ident => $body:expr) => {
        match $any {
            $crate::games::AnyState::Raiders($state) => {
                let $game = ::boardbot_rules::LegendRaiders;
                $body
            }
            $crate::games::AnyState::Leda($state) => {
                let $game = ::boardbot_rules::Leda;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// The longest `random_playouts` run (seconds): a benchmark, not a way to hang a process.
const MAX_PLAYOUT_SECONDS: f64 = 600.0;

/// A fresh state from options JSON text and a seed: of the native stream, or with
/// `python_stream` of CPython's `random.Random(seed)` (the Python engine's state).
fn new_state<G: PyGame>(
    game: G,
    options_json: &str,
    seed: u64,
    python_stream: bool,
) -> PyResult<PyState> {
    let options = parse_json(options_json, "the options")?;
    let state = if python_stream {
        game.new_state_with(&options, &mut PythonRandom::new(seed))
    } else {
        game.new_state(&options, seed)
    }
    .map_err(|err| invalid_options(&err))?;
    Ok(PyState::from(G::wrap(state)))
}

/// A decoded and fully validated state from JSON text.
fn state_from_json<G: PyGame>(game: G, json: &str) -> PyResult<PyState> {
    let data = parse_json(json, "the state")?;
    let state = game
        .state_from_json(&data)
        .map_err(|err| invalid_state(&err))?;
    Ok(PyState::from(G::wrap(state)))
}

/// Seeded uniformly random games for about `seconds`, without the GIL; the counts as a dict.
fn playouts<'py, G: PyGame>(
    game: G,
    py: Python<'py>,
    options_json: &str,
    seed: u64,
    seconds: f64,
) -> PyResult<Bound<'py, PyDict>> {
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
                Ok(random_playouts(&game, &options, seed, budget))
            })
        })?
        .map_err(|err| match err {
            PlayoutError::Options(err) => invalid_options(&err),
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
}

/// A game class: identity, setup, decoding and the engine benchmark of one game.
macro_rules! game_class {
    ($class:ident, $game:ty, $name:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, module = "boardbot_native", name = $name)]
        pub struct $class;

        #[pymethods]
        impl $class {
            #[new]
            fn new() -> Self {
                Self
            }

            /// The game's registry name.
            #[getter]
            fn name(&self) -> &'static str {
                <$game>::default().name()
            }

            /// The fewest seats.
            #[getter]
            fn min_players(&self) -> usize {
                <$game>::default().min_players()
            }

            /// The most seats.
            #[getter]
            fn max_players(&self) -> usize {
                <$game>::default().max_players()
            }

            /// The options with their allowed values and defaults, as JSON text.
            fn describe_options(&self) -> PyResult<String> {
                guard("describe_options", || {
                    to_json_text(&<$game>::default().describe_options())
                })
            }

            /// A fresh game set up from the options (JSON text of an object) and the seed: the
            /// native stream, or with `python_stream` the Python engine's state for that seed
            /// (its draws from `random.Random(seed)`).
            #[pyo3(signature = (options_json = "{}", seed = 0, *, python_stream = false))]
            fn new_state(
                &self,
                options_json: &str,
                seed: u64,
                python_stream: bool,
            ) -> PyResult<PyState> {
                guard("new_state", || {
                    new_state(<$game>::default(), options_json, seed, python_stream)
                })
            }

            /// Decode and fully validate a state (full or a seat's view) from its JSON, as
            /// text or as UTF-8 bytes (`MalformedJsonError` when it is not JSON at all).
            fn state_from_json(&self, json: &Bound<'_, PyAny>) -> PyResult<PyState> {
                guard("state_from_json", || {
                    state_from_json(<$game>::default(), &json_text(json)?)
                })
            }

            /// Length of the view feature vector for `players` seats (`State.features`).
            fn feature_size(&self, players: usize) -> usize {
                <$game>::default().feature_size(players)
            }

            /// Size of the action-feature space (`State.action_features`).
            fn action_feature_size(&self) -> usize {
                <$game>::default().action_feature_size()
            }

            /// Version of the game's feature definition.
            fn features_version(&self) -> u32 {
                <$game as Featurize>::FEATURES_VERSION
            }

            /// Seeded uniformly random games from the options for about `seconds` (whole
            /// games, the clock checked after each), played natively without the GIL: the
            /// engine benchmark. A dict: `games`, `steps` (= `decisions` + `chance`),
            /// `decisions`, `chance`, `seconds` (the wall-clock time taken).
            fn random_playouts<'py>(
                &self,
                py: Python<'py>,
                options_json: &str,
                seed: u64,
                seconds: f64,
            ) -> PyResult<Bound<'py, PyDict>> {
                guard("random_playouts", || {
                    playouts(<$game>::default(), py, options_json, seed, seconds)
                })
            }
        }
    };
}

game_class!(
    PyLegendRaiders,
    LegendRaiders,
    "LegendRaiders",
    "Legend Raiders (2-4 players, with the die or diceless): builds and decodes states."
);
game_class!(
    PyLeda,
    Leda,
    "Leda",
    "LEDA (2 players, four clans): builds and decodes states."
);
