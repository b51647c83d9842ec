//! The binding's Python exceptions and the conversions every call shares: panics, state and
//! action errors, JSON text.

use std::panic::{catch_unwind, AssertUnwindSafe};

use boardbot_rules::jsonread::text_depth_error;
use boardbot_rules::{ActionError, InvalidState};
use boardbot_search::SearchError as CoreSearchError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

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
    InvalidStateError::new_err(format!("{}: {}", err.path, err.reason))
}

/// `InvalidActionError("<path>: <reason>")`.
pub fn action_error(err: &ActionError) -> PyErr {
    InvalidActionError::new_err(format!("{}: {}", err.path(), err.reason()))
}

/// `SearchError` with the core's message.
pub fn search_error(err: &CoreSearchError) -> PyErr {
    SearchError::new_err(err.to_string())
}

/// Parse JSON text handed in for `what` (`InvalidStateError` at `$` when it is not JSON).
///
/// Text nested deeper than serde_json's own recursion limit gets the engines' error for a
/// document nested too deep instead (what they say of any document past `MAX_JSON_DEPTH`),
/// at its path under `$.options` for the options, else under `$`.
pub fn parse_json(text: &str, what: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|err| {
        let root = if what == "the options" {
            "$.options"
        } else {
            "$"
        };
        match text_depth_error(text, root) {
            Some(deep) => InvalidStateError::new_err(format!("{}: {}", deep.path, deep.reason)),
            None => InvalidStateError::new_err(format!("$: {what} is not valid JSON: {err}")),
        }
    })
}

/// JSON text of a value.
pub fn to_json_text(value: &serde_json::Value) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|err| PyRuntimeError::new_err(format!("cannot encode JSON: {err}")))
}
