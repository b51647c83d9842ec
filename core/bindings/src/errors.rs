//! The binding's Python exceptions and the conversions every call shares: panics, state and
//! action errors, JSON text.
//!
//! Every refusal has its own exception type, all under `NativeError` (a `ValueError`), so
//! Python tells them apart by type, never by message. The engine errors mirror
//! `boardbot.engine.errors` and carry the JSON path and the reason as the attributes `path` and
//! `reason` (their message is `"<path>: <reason>"`); the search errors mirror
//! `boardbot.search.errors`:
//!
//! ```text
//! NativeError(ValueError)
//! ├── EngineError                 .path, .reason
//! │   ├── InvalidStateError       a malformed or impossible state
//! │   │   ├── MalformedJsonError  state text that is not JSON at all
//! │   │   └── InvalidOptionsError bad options of a new game
//! │   └── InvalidActionError      a malformed move
//! │       └── IllegalActionError  a well-formed move not legal now
//! ├── SearchError                 a search that cannot run
//! │   ├── InvalidConfigError, InvalidSeatError, GameOverError, ChanceStepError,
//! │   └── NotSeatToMoveError
//! └── NetworkError                an input a network cannot evaluate
//!     └── InvalidNetworkError     bytes that are not a valid `.bbnet` file
//! ```
//!
//! `IllegalActionError` derives from `InvalidActionError` (unlike Python's sibling classes) so
//! that code catching the binding's `InvalidActionError` still catches every refused move.

use std::panic::{catch_unwind, AssertUnwindSafe};

use boardbot_rules::jsonread::text_depth_error;
use boardbot_rules::{ActionError, InvalidState, CHANCE};
use boardbot_search::SearchError as CoreSearchError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;

pyo3::create_exception!(
    boardbot_native,
    NativeError,
    PyValueError,
    "The base of every refusal of the native core (a ValueError)."
);
pyo3::create_exception!(
    boardbot_native,
    EngineError,
    NativeError,
    "A bad state or move; `path` is the JSON path at fault, `reason` what is wrong there."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidStateError,
    EngineError,
    "A state JSON that is malformed or impossible; the message starts with the JSON path."
);
pyo3::create_exception!(
    boardbot_native,
    MalformedJsonError,
    InvalidStateError,
    "State text that is not JSON at all (not UTF-8, or a syntax error) at `$`."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidOptionsError,
    InvalidStateError,
    "Options of a new game that are malformed or out of range (path under `$.options`)."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidActionError,
    EngineError,
    "A move that does not parse or is out of range."
);
pyo3::create_exception!(
    boardbot_native,
    IllegalActionError,
    InvalidActionError,
    "A well-formed move that is not legal in the state."
);
pyo3::create_exception!(
    boardbot_native,
    SearchError,
    NativeError,
    "A search that cannot run (bad configuration, terminal state, wrong seat)."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidConfigError,
    SearchError,
    "A search configuration that cannot drive a search (no budget, a value out of range)."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidSeatError,
    SearchError,
    "A seat that does not exist in the state."
);
pyo3::create_exception!(
    boardbot_native,
    GameOverError,
    SearchError,
    "A search of a terminal state: no seat is to move."
);
pyo3::create_exception!(
    boardbot_native,
    ChanceStepError,
    SearchError,
    "A search of a state waiting for a chance outcome: no seat is to move."
);
pyo3::create_exception!(
    boardbot_native,
    NotSeatToMoveError,
    SearchError,
    "A search for a seat while another seat is to move."
);

pyo3::create_exception!(
    boardbot_native,
    NetworkError,
    NativeError,
    "An input a network cannot evaluate (a feature vector of the wrong length, an action-feature \
     index outside the policy head)."
);
pyo3::create_exception!(
    boardbot_native,
    InvalidNetworkError,
    NetworkError,
    "Bytes that are not a valid `.bbnet` network file; the message says what is wrong."
);

/// Every exception type with its name, for the module (bases first).
pub fn exception_types(py: Python<'_>) -> Vec<(&'static str, Bound<'_, PyType>)> {
    vec![
        ("NativeError", py.get_type::<NativeError>()),
        ("EngineError", py.get_type::<EngineError>()),
        ("InvalidStateError", py.get_type::<InvalidStateError>()),
        ("MalformedJsonError", py.get_type::<MalformedJsonError>()),
        ("InvalidOptionsError", py.get_type::<InvalidOptionsError>()),
        ("InvalidActionError", py.get_type::<InvalidActionError>()),
        ("IllegalActionError", py.get_type::<IllegalActionError>()),
        ("SearchError", py.get_type::<SearchError>()),
        ("InvalidConfigError", py.get_type::<InvalidConfigError>()),
        ("InvalidSeatError", py.get_type::<InvalidSeatError>()),
        ("GameOverError", py.get_type::<GameOverError>()),
        ("ChanceStepError", py.get_type::<ChanceStepError>()),
        ("NotSeatToMoveError", py.get_type::<NotSeatToMoveError>()),
        ("NetworkError", py.get_type::<NetworkError>()),
        ("InvalidNetworkError", py.get_type::<InvalidNetworkError>()),
    ]
}

/// An engine error of type `E`: message `"<path>: <reason>"`, attributes `path` and `reason`.
pub fn engine_error<E: pyo3::PyTypeInfo>(path: &str, reason: &str) -> PyErr {
    let err = PyErr::new::<E, _>(format!("{path}: {reason}"));
    Python::with_gil(|py| {
        let value = err.value(py);
        // Setting an attribute of a fresh exception instance cannot fail.
        let _ = value.setattr("path", path);
        let _ = value.setattr("reason", reason);
    });
    err
}

/// Runs `body`, turning a panic into `RuntimeError` (the last line of defence).
pub fn guard<T>(what: &str, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
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

/// `InvalidStateError("<path>: <reason>")`.
pub fn invalid_state(err: &InvalidState) -> PyErr {
    engine_error::<InvalidStateError>(&err.path, &err.reason)
}

/// `InvalidOptionsError("<path>: <reason>")`: options a new game cannot start from.
pub fn invalid_options(err: &InvalidState) -> PyErr {
    engine_error::<InvalidOptionsError>(&err.path, &err.reason)
}

/// `InvalidActionError` for a malformed move, `IllegalActionError` for one not legal now.
pub fn action_error(err: &ActionError) -> PyErr {
    match err {
        ActionError::Invalid { path, reason } => engine_error::<InvalidActionError>(path, reason),
        ActionError::Illegal { path, reason } => engine_error::<IllegalActionError>(path, reason),
    }
}

/// The core's search error as its exception type, with the core's message.
pub fn search_error(err: &CoreSearchError) -> PyErr {
    let message = err.to_string();
    match err {
        CoreSearchError::NoBudget
        | CoreSearchError::IterationsBelowOne
        | CoreSearchError::WorkersBelowOne
        | CoreSearchError::NodeCapBelowOne
        | CoreSearchError::MarginWeightOutOfRange { .. }
        | CoreSearchError::PriorWeightOutOfRange { .. }
        | CoreSearchError::WideningOutOfRange { .. }
        | CoreSearchError::WideningExponentOutOfRange { .. }
        | CoreSearchError::LeafLambdaOutOfRange { .. }
        | CoreSearchError::PuctOutOfRange { .. }
        | CoreSearchError::FpuOutOfRange { .. }
        | CoreSearchError::ModelMismatch { .. }
        | CoreSearchError::UnknownRolloutPolicy { .. } => InvalidConfigError::new_err(message),
        CoreSearchError::TerminalState => GameOverError::new_err(message),
        CoreSearchError::SeatNotToMove { current_player, .. } if *current_player == CHANCE => {
            ChanceStepError::new_err(message)
        }
        CoreSearchError::SeatNotToMove { .. } => NotSeatToMoveError::new_err(message),
        CoreSearchError::NoLegalMove | CoreSearchError::WorkerFailed { .. } => {
            SearchError::new_err(message)
        }
    }
}

/// Parse JSON text handed in for `what` (`MalformedJsonError` at `$` when it is not JSON;
/// `InvalidOptionsError` for the options).
///
/// Text nested deeper than serde_json's own recursion limit gets the engines' error for a
/// document nested too deep instead (what they say of any document past `MAX_JSON_DEPTH`),
/// at its path under `$.options` for the options, else under `$`.
pub fn parse_json(text: &str, what: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|err| {
        let options = what == "the options";
        let root = if options { "$.options" } else { "$" };
        match text_depth_error(text, root) {
            Some(deep) if options => invalid_options(&InvalidState::new(deep.path, deep.reason)),
            Some(deep) => invalid_state(&InvalidState::new(deep.path, deep.reason)),
            None if options => invalid_options(&InvalidState::new(
                "$",
                format!("{what} is not valid JSON: {err}"),
            )),
            None => malformed_json(&format!("{what} is not valid JSON: {err}")),
        }
    })
}

/// `MalformedJsonError` at `$`: text that is not JSON at all.
pub fn malformed_json(reason: &str) -> PyErr {
    engine_error::<MalformedJsonError>("$", reason)
}

/// The JSON text handed in as `str` or as UTF-8 `bytes` (`MalformedJsonError` when the bytes
/// are not UTF-8; a `TypeError` for anything else).
pub fn json_text<'a>(value: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, str>> {
    if let Ok(bytes) = value.downcast::<pyo3::types::PyBytes>() {
        return std::str::from_utf8(bytes.as_bytes())
            .map(std::borrow::Cow::Borrowed)
            .map_err(|err| malformed_json(&format!("the state is not UTF-8: {err}")));
    }
    value.downcast::<pyo3::types::PyString>()?.to_cow()
}

/// JSON text of a value.
pub fn to_json_text(value: &serde_json::Value) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|err| PyRuntimeError::new_err(format!("cannot encode JSON: {err}")))
}
