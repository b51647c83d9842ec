//! `boardbot_native`: the Python binding (PyO3) of the native rules (`boardbot-rules`) and the
//! native ISMCTS search (`boardbot-search`), for Legend Raiders and LEDA.
//!
//! Python sees immutable state handles (`apply` returns a new handle), the same action values
//! (Legend Raiders' integers, LEDA's tuples), JSON and notation as the Python engine, and a
//! `search` function that releases the GIL while it runs. No panic crosses into Python: every
//! refusal is a Python exception naming what is wrong, and every call is wrapped in
//! `catch_unwind` as a last line of defence (a panic becomes `RuntimeError`). The crate has no
//! `unsafe` code of its own (`forbid`, as the whole workspace).
//!
//! | module | job |
//! |---|---|
//! | `errors` | the typed Python exceptions, the panic guard, error and JSON conversions |
//! | `games` | the served games: their actions' Python form, `AnyState`, the game classes |
//! | `state` | `State`, one handle type for either game's state |
//! | `pyrandom` | `PythonRandom`, CPython's `random.Random(seed)` for the Python engine's chance draws |
//! | `search` | `search`, its configuration, `CancelFlag`, the result dict |
//! | `net` | `Network`, the learned evaluator read from a `.bbnet` file |
//! | `reuse` | `Tree` (a kept search tree), `search_reusing`, `reuse_match`, `tree_from_edges` |
#![forbid(unsafe_code)]

mod errors;
mod games;
mod models;
mod net;
mod pyrandom;
mod reuse;
mod search;
mod state;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use games::{PyLeda, PyLegendRaiders};
use search::{CancelFlag, CONFIG_KEYS};
use state::PyState;

/// The native twins of boardbot's engines and search.
#[pymodule]
fn boardbot_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyLegendRaiders>()?;
    m.add_class::<PyLeda>()?;
    m.add_class::<PyState>()?;
    m.add_class::<pyrandom::PyPythonRandom>()?;
    m.add_class::<CancelFlag>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_class::<reuse::PyTree>()?;
    m.add_class::<net::PyNetwork>()?;
    m.add_function(wrap_pyfunction!(reuse::search_reusing, m)?)?;
    m.add_function(wrap_pyfunction!(reuse::reuse_match, m)?)?;
    m.add_function(wrap_pyfunction!(reuse::tree_from_edges, m)?)?;
    for (name, kind) in errors::exception_types(py) {
        m.add(name, kind)?;
    }
    m.add("CONFIG_KEYS", PyTuple::new(py, CONFIG_KEYS)?)?;
    // A debug build searches about ten times slower: every time budget and latency figure
    // assumes an optimised one, so Python can tell which it has.
    m.add("OPTIMIZED", !cfg!(debug_assertions))?;
    Ok(())
}
