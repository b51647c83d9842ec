//! Tree reuse behind Python: `Tree` (a search tree kept between searches of one seat, with the
//! full state it searched), `search_reusing`, and `reuse_match` / `tree_from_edges`, which let
//! the tests compare the walk with the Python reference on the same tree.

use std::sync::Mutex;

use boardbot_rules::{Leda, LegendRaiders};
use boardbot_search::reuse::tree_from_edges as build_tree;
use boardbot_search::{find_match, search_view_reusing, KeptTree};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::guard;
use crate::games::{with_game, AnyState, PyGame};
use crate::search::{result_dict, run_hooked, CancelFlag, Progress, Request};
use crate::state::{search_seat, PyState};

/// A kept tree of either game.
enum AnyKept {
    Raiders(KeptTree<LegendRaiders>),
    Leda(KeptTree<Leda>),
}

/// A served game whose trees can be kept.
trait Keeps: PyGame {
    fn keep(kept: KeptTree<Self>) -> AnyKept;
    fn kept(any: AnyKept) -> Option<KeptTree<Self>>;
    fn kept_ref(any: &AnyKept) -> Option<&KeptTree<Self>>;
    fn state_of(any: &AnyState) -> Option<&Self::State>;
}

impl Keeps for LegendRaiders {
    fn keep(kept: KeptTree<Self>) -> AnyKept {
        AnyKept::Raiders(kept)
    }
    fn kept(any: AnyKept) -> Option<KeptTree<Self>> {
        match any {
            AnyKept::Raiders(kept) => Some(kept),
            AnyKept::Leda(_) => None,
        }
    }
    fn kept_ref(any: &AnyKept) -> Option<&KeptTree<Self>> {
        match any {
            AnyKept::Raiders(kept) => Some(kept),
            AnyKept::Leda(_) => None,
        }
    }
    fn state_of(any: &AnyState) -> Option<&Self::State> {
        match any {
            AnyState::Raiders(state) => Some(state),
            AnyState::Leda(_) => None,
        }
    }
}

impl Keeps for Leda {
    fn keep(kept: KeptTree<Self>) -> AnyKept {
        AnyKept::Leda(kept)
    }
    fn kept(any: AnyKept) -> Option<KeptTree<Self>> {
        match any {
            AnyKept::Leda(kept) => Some(kept),
            AnyKept::Raiders(_) => None,
        }
    }
    fn kept_ref(any: &AnyKept) -> Option<&KeptTree<Self>> {
        match any {
            AnyKept::Leda(kept) => Some(kept),
            AnyKept::Raiders(_) => None,
        }
    }
    fn state_of(any: &AnyState) -> Option<&Self::State> {
        match any {
            AnyState::Leda(state) => Some(state),
            AnyState::Raiders(_) => None,
        }
    }
}

/// A search tree kept for the next search of the same seat in the same game. A search it is
/// handed to consumes it (`consumed` turns true) and returns the tree it grew.
#[pyclass(frozen, module = "boardbot_native", name = "Tree")]
pub struct PyTree {
    kept: Mutex<Option<AnyKept>>,
    nodes: usize,
    seat: usize,
}

impl PyTree {
    fn new<G: Keeps>(kept: KeptTree<G>) -> Self {
        Self {
            nodes: kept.tree.len(),
            seat: kept.seat,
            kept: Mutex::new(Some(G::keep(kept))),
        }
    }

    fn take<G: Keeps>(&self) -> Option<KeptTree<G>> {
        self.kept.lock().ok()?.take().and_then(G::kept)
    }
}

#[pymethods]
impl PyTree {
    /// Nodes in the tree, its root included.
    #[getter]
    fn nodes(&self) -> usize {
        self.nodes
    }

    /// The seat it was searched for.
    #[getter]
    fn seat(&self) -> usize {
        self.seat
    }

    /// True once a search has taken the tree.
    #[getter]
    fn consumed(&self) -> bool {
        match self.kept.lock() {
            Ok(kept) => kept.is_none(),
            Err(_) => true,
        }
    }
}

fn wrong_game() -> PyErr {
    PyValueError::new_err("the view and the full state are of different games")
}

/// `search` growing on the node of `previous` that stands for the full `state` (found by the
/// walk of `docs/search.md`, "Tree reuse between requests"); `view` is the seat's view the
/// search reads. Returns `(result, tree)`: the result dict with `reused` and `reused_visits`,
/// and the tree to keep (`previous` itself after a single legal move answered without a
/// search, None from a root-parallel search). `previous` is consumed. `search_forced` as for
/// `search`.
#[pyfunction]
#[pyo3(signature = (view, state, seat, config = None, seed = 0, cancel = None, on_progress = None, progress_every = 0, previous = None, progress_ms = 0.0, search_forced = false))]
#[allow(clippy::too_many_arguments)]
pub fn search_reusing(
    py: Python<'_>,
    view: &PyState,
    state: &PyState,
    seat: i64,
    config: Option<&Bound<'_, PyDict>>,
    seed: u64,
    cancel: Option<&CancelFlag>,
    on_progress: Option<PyObject>,
    progress_every: u64,
    previous: Option<Py<PyTree>>,
    progress_ms: f64,
    search_forced: bool,
) -> PyResult<PyObject> {
    let progress = Progress::new(on_progress, progress_every, progress_ms)?;
    let request = Request::new(config, seed, cancel, progress, search_forced)?;
    with_game!(&view.state, g, s => {
        let seat = search_seat(g, s, seat)?;
        let full = state_of(g, &state.state)?;
        run_reusing(g, py, s, full, seat, request, previous.as_ref().map(|p| p.get()))
    })
}

fn state_of<G: Keeps>(_game: G, any: &AnyState) -> PyResult<&G::State> {
    G::state_of(any).ok_or_else(wrong_game)
}

fn run_reusing<G: Keeps>(
    game: G,
    py: Python<'_>,
    view_state: &G::State,
    full: &G::State,
    seat: usize,
    request: Request,
    previous: Option<&PyTree>,
) -> PyResult<PyObject> {
    let previous_kept = previous.and_then(PyTree::take::<G>);
    let view = game.observe(view_state, seat);
    let full = full.clone();
    let reused = run_hooked::<G, _>(py, request, |config, seed, hooks| {
        search_view_reusing(&game, &view, &full, config, seed, hooks, previous_kept)
    })?;
    let dict = result_dict::<G>(py, &reused.result)?;
    dict.set_item("reused", reused.matched.is_some())?;
    dict.set_item(
        "reused_visits",
        reused.matched.as_ref().map_or(0, |m| m.reused_visits),
    )?;
    let tree = match reused.kept {
        Some(kept) => Py::new(py, PyTree::new(kept))?.into_any(),
        None => py.None(),
    };
    Ok(PyTuple::new(py, [dict.into_any().unbind(), tree])?
        .into_any()
        .unbind())
}

/// The node of `tree` that stands for the full `state` of `tree`'s seat, as
/// `(path, reused_visits)` (`path` the decisions from the old root), or None; the tree is
/// left as it is.
#[pyfunction]
pub fn reuse_match(py: Python<'_>, tree: &PyTree, state: &PyState) -> PyResult<PyObject> {
    guard("reuse_match", || {
        let kept = tree
            .kept
            .lock()
            .map_err(|_| PyValueError::new_err("the tree is unusable"))?;
        let Some(kept) = kept.as_ref() else {
            return Err(PyValueError::new_err("the tree was consumed by a search"));
        };
        with_game!(&state.state, g, s => matched(g, py, kept, s))
    })
}

fn matched<G: Keeps>(
    game: G,
    py: Python<'_>,
    kept: &AnyKept,
    state: &G::State,
) -> PyResult<PyObject> {
    let kept = G::kept_ref(kept).ok_or_else(wrong_game)?;
    let Some(found) = find_match(&game, &kept.tree, &kept.state, state, kept.seat) else {
        return Ok(py.None());
    };
    let path = PyList::empty(py);
    for &action in &found.path {
        path.append(G::action_to_py(py, action)?)?;
    }
    let visits = found.reused_visits.into_pyobject(py)?.into_any().unbind();
    Ok(PyTuple::new(py, [path.into_any().unbind(), visits])?
        .into_any()
        .unbind())
}

/// A kept tree of `seat` grown from the full `state`, from edges
/// `(parent, seat, action, visits, avail, total)` in the order of `search/reuse.py`
/// `export_edges` (each edge's child numbered by its position plus one, the root 0).
#[pyfunction]
pub fn tree_from_edges(state: &PyState, seat: i64, edges: &Bound<'_, PyList>) -> PyResult<PyTree> {
    guard(
        "tree_from_edges",
        || with_game!(&state.state, g, s => built(g, s, seat, edges)),
    )
}

fn built<G: Keeps>(
    game: G,
    state: &G::State,
    seat: i64,
    edges: &Bound<'_, PyList>,
) -> PyResult<PyTree> {
    let seat = search_seat(game, state, seat)?;
    let mut rows = Vec::with_capacity(edges.len());
    for item in edges.iter() {
        let (parent, mover, action, visits, avail, total): (
            usize,
            u32,
            Bound<'_, PyAny>,
            u64,
            u64,
            f64,
        ) = item.extract()?;
        rows.push((
            parent,
            mover,
            G::action_from_py(&action)?,
            visits,
            avail,
            total,
        ));
    }
    let tree = build_tree(&rows)
        .ok_or_else(|| PyValueError::new_err("an edge names a parent not yet listed"))?;
    Ok(PyTree::new::<G>(KeptTree {
        tree,
        state: state.clone(),
        seat,
    }))
}
