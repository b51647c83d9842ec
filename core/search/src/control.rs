//! Controlling a running search from outside: cancellation, progress reports, stop reasons.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::results::SearchResult;

/// Iterations between two polls of the cancellation flag (per tree).
pub const STOP_POLL_EVERY: u64 = 16;

/// A shared cancellation flag: clone it, hand a clone to the search, call `cancel` anywhere.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not cancelled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ask every search holding this token to stop (it still returns its best move).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once `cancel` has been called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the polling loop.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// What ended a search (`stopped_by` in Python, with the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The iteration budget was spent.
    Iterations,
    /// The time budget ran out.
    Time,
    /// The absolute deadline passed.
    Deadline,
    /// The runner-up root move could no longer catch the leader within the budget.
    EarlyStop,
    /// The cancellation flag was set.
    Cancelled,
    /// Only one legal move: no search at all.
    SingleMove,
    /// A progress report of a search still running.
    Running,
}

impl StopReason {
    /// The Python name (`iterations`, `time`, `deadline`, `early_stop`, `cancelled`,
    /// `single_move`, `running`).
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Iterations => "iterations",
            StopReason::Time => "time",
            StopReason::Deadline => "deadline",
            StopReason::EarlyStop => "early_stop",
            StopReason::Cancelled => "cancelled",
            StopReason::SingleMove => "single_move",
            StopReason::Running => "running",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A progress callback: receives a partial result (`stopped_by` is `Running`).
///
/// `Send` only so that a whole search call can be moved into a GIL-free section (PyO3's
/// `allow_threads` asks for it); the callback itself always runs on the calling thread.
pub type ProgressCallback<'a, A> = dyn FnMut(&SearchResult<A>) + Send + 'a;

/// Optional hooks of one search: a cancellation token, a progress callback, and whether a
/// position with one legal move is searched anyway.
///
/// The callback always runs on the thread that called the search (worker threads only leave it
/// their reports, coalesced: see [`crate::parallel`]), so a Python binding can release the GIL for the whole search and take it
/// back only inside the callback:
///
/// ```text
/// py.allow_threads(|| {
///     let mut report = |partial: &SearchResult<_>| {
///         Python::with_gil(|py| { let _ = on_progress.call1(py, (to_python(partial),)); });
///     };
///     let hooks = SearchHooks::with_cancel(token).progress(every, &mut report);
///     search_with(&game, &state, seat, &config, seed, hooks)
/// })
/// ```
pub struct SearchHooks<'a, A> {
    /// Polled every [`STOP_POLL_EVERY`] iterations by every tree; a set flag ends the search
    /// with [`StopReason::Cancelled`].
    pub cancel: Option<CancelToken>,
    /// Called with a partial result about every `progress_every` iterations (all threads
    /// together).
    pub on_progress: Option<&'a mut ProgressCallback<'a, A>>,
    /// Iterations between two progress reports (0: no iteration condition).
    pub progress_every: u64,
    /// The least time between the end of one progress report and the next (zero: no time
    /// condition). With neither condition there is no progress at all.
    pub progress_period: Duration,
    /// Search a position with a single legal move too (an analysis wants the position's
    /// value); false answers it at once without a search ([`StopReason::SingleMove`]).
    pub search_forced: bool,
}

impl<A> Default for SearchHooks<'_, A> {
    fn default() -> Self {
        Self {
            cancel: None,
            on_progress: None,
            progress_every: 0,
            progress_period: Duration::ZERO,
            search_forced: false,
        }
    }
}

impl<'a, A> SearchHooks<'a, A> {
    /// Hooks with only a cancellation token.
    pub fn with_cancel(cancel: CancelToken) -> Self {
        Self {
            cancel: Some(cancel),
            ..Self::default()
        }
    }

    /// These hooks plus a progress callback called every `every` iterations.
    pub fn progress(mut self, every: u64, callback: &'a mut ProgressCallback<'a, A>) -> Self {
        self.on_progress = Some(callback);
        self.progress_every = every;
        self
    }

    /// These hooks with progress reports at most once per `period` (counted from the search's
    /// start, then from the end of each report); with `every` 0, once per `period`.
    pub fn at_most_every(mut self, period: Duration) -> Self {
        self.progress_period = period;
        self
    }

    /// These hooks searching a position with one legal move too (when `forced`).
    pub fn searching_forced(mut self, forced: bool) -> Self {
        self.search_forced = forced;
        self
    }
}

/// The flags a tree polls: the caller's cancellation and the search's own abort (a failed
/// worker stops its siblings).
#[derive(Clone, Copy, Debug, Default)]
pub struct StopFlags<'a> {
    /// The caller's cancellation flag.
    pub cancel: Option<&'a AtomicBool>,
    /// Set by a worker that panicked.
    pub abort: Option<&'a AtomicBool>,
}

impl StopFlags<'_> {
    /// True when either flag is set.
    pub fn is_set(&self) -> bool {
        let set = |flag: Option<&AtomicBool>| flag.is_some_and(|f| f.load(Ordering::Relaxed));
        set(self.cancel) || set(self.abort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_shared_by_its_clones() {
        let token = CancelToken::new();
        let copy = token.clone();
        assert!(!copy.is_cancelled());
        token.cancel();
        assert!(copy.is_cancelled());
        let flags = StopFlags {
            cancel: Some(copy.flag()),
            abort: None,
        };
        assert!(flags.is_set());
        assert!(!StopFlags::default().is_set());
    }

    #[test]
    fn reasons_have_the_python_names() {
        let names: Vec<&str> = [
            StopReason::Iterations,
            StopReason::Time,
            StopReason::Deadline,
            StopReason::EarlyStop,
            StopReason::Cancelled,
            StopReason::SingleMove,
            StopReason::Running,
        ]
        .iter()
        .map(|r| r.name())
        .collect();
        assert_eq!(
            names,
            [
                "iterations",
                "time",
                "deadline",
                "early_stop",
                "cancelled",
                "single_move",
                "running"
            ]
        );
    }
}
