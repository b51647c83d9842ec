//! Root parallelism on threads: independent trees, root statistics merged (the twin of
//! `search/parallel.py`, with threads where Python uses processes).
//!
//! Worker `i` grows its own tree seeded with [`worker_seed`]`(seed, i)` and takes its share of
//! the iteration budget ([`split_iterations`]); all share the seat's view and the game by
//! reference. The calling thread coordinates: it receives the workers' progress reports and
//! final reports over a channel and runs the progress callback itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use boardbot_rules::{Game, View};

use crate::config::SearchConfig;
use crate::control::{StopFlags, StopReason};
use crate::error::SearchError;
use crate::results::TreeReport;
use crate::seeds::worker_seed;
use crate::tree_search::{RunLimits, StopAt, TreeSearch};

/// Share an iteration budget among workers (earlier workers take the remainder).
pub fn split_iterations(total: Option<u64>, workers: usize) -> Vec<Option<u64>> {
    let Some(total) = total else {
        return vec![None; workers];
    };
    let count = workers.max(1) as u64;
    let (base, extra) = (total / count, total % count);
    (0..count)
        .map(|i| Some(base + u64::from(i < extra)))
        .collect()
}

/// One reason for the whole search: the most external cause any worker reported.
pub fn merged_stop_reason<A>(reports: &[TreeReport<A>]) -> StopReason {
    const PRECEDENCE: [StopReason; 5] = [
        StopReason::Cancelled,
        StopReason::Deadline,
        StopReason::Time,
        StopReason::Iterations,
        StopReason::EarlyStop,
    ];
    PRECEDENCE
        .into_iter()
        .find(|reason| reports.iter().any(|r| r.stopped_by == *reason))
        .or_else(|| reports.first().map(|r| r.stopped_by))
        .unwrap_or(StopReason::Iterations)
}

/// What a worker sends to the coordinating thread.
enum WorkerMessage<A> {
    /// A report of a tree still running.
    Progress(usize, TreeReport<A>),
    /// The final report of a tree.
    Done(usize, TreeReport<A>),
}

/// Sets the abort flag when dropped during a panic, so the other threads stop early.
struct AbortOnPanic<'a>(&'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// A progress callback over the latest report of each worker that has reported.
pub type ReportsCallback<'a, A> = dyn FnMut(&[TreeReport<A>]) + 'a;

/// The shared inputs of every worker.
pub struct ParallelSearch<'a, G: Game> {
    /// The game.
    pub game: &'a G,
    /// The deciding seat's view (every tree determinizes it).
    pub view: &'a View<G::State>,
    /// The configuration (`workers` trees, the iteration budget shared among them).
    pub config: &'a SearchConfig,
    /// The search's base seed.
    pub seed: u64,
    /// The wall-clock stop, if any.
    pub stop_at: Option<StopAt>,
    /// The caller's cancellation flag.
    pub cancel: Option<&'a AtomicBool>,
}

impl<G: Game> ParallelSearch<'_, G> {
    /// Run `config.workers` trees on threads; their final reports in worker order.
    ///
    /// `on_progress` gets the latest report of each worker that has reported, on the calling
    /// thread, each time the iterations of those reports pass another multiple of
    /// `progress_every` (each worker reports every `progress_every / workers` iterations).
    pub fn run(
        &self,
        mut on_progress: Option<&mut ReportsCallback<'_, G::Action>>,
        progress_every: u64,
    ) -> Result<Vec<TreeReport<G::Action>>, SearchError> {
        let workers = self.config.workers.max(1);
        let shares = split_iterations(self.config.iterations, workers);
        let worker_progress = if on_progress.is_some() && progress_every > 0 {
            (progress_every / workers as u64).max(1)
        } else {
            0
        };
        let abort = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<WorkerMessage<G::Action>>();
        thread::scope(|scope| {
            let _stop_workers_if_this_thread_panics = AbortOnPanic(&abort);
            let mut failed: Option<usize> = None;
            let mut handles = Vec::with_capacity(workers);
            for (index, share) in shares.into_iter().enumerate() {
                let sender = sender.clone();
                let abort = &abort;
                let limits = RunLimits {
                    iterations: share,
                    stop_at: self.stop_at,
                    progress_every: worker_progress,
                };
                let flags = StopFlags {
                    cancel: self.cancel,
                    abort: Some(abort),
                };
                let spawned = thread::Builder::new()
                    .name(format!("search-worker-{index}"))
                    .spawn_scoped(scope, move || {
                        let _guard = AbortOnPanic(abort);
                        let seed = worker_seed(self.seed, index);
                        let mut tree = TreeSearch::new(self.game, self.view, self.config, seed);
                        let stopped = tree.run(&limits, flags, |t| {
                            let report = t.report(StopReason::Running);
                            // A closed channel only means the coordinator is gone: keep going.
                            let _ = sender.send(WorkerMessage::Progress(index, report));
                        });
                        let _ = sender.send(WorkerMessage::Done(index, tree.report(stopped)));
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    Err(_) => {
                        abort.store(true, Ordering::Relaxed);
                        failed = Some(index);
                        break;
                    }
                }
            }
            drop(sender);
            let mut latest: Vec<Option<TreeReport<G::Action>>> = vec![None; workers];
            let mut done: Vec<Option<TreeReport<G::Action>>> = vec![None; workers];
            let mut next_progress = progress_every;
            for message in receiver {
                match message {
                    WorkerMessage::Progress(index, report) => {
                        latest[index] = Some(report);
                        let Some(callback) = on_progress.as_mut() else {
                            continue;
                        };
                        let total: u64 = latest.iter().flatten().map(|r| r.iterations).sum();
                        if progress_every > 0 && total >= next_progress {
                            next_progress = (total / progress_every + 1) * progress_every;
                            let reports: Vec<TreeReport<G::Action>> =
                                latest.iter().flatten().cloned().collect();
                            callback(&reports);
                        }
                    }
                    WorkerMessage::Done(index, report) => {
                        latest[index] = Some(report.clone());
                        done[index] = Some(report);
                    }
                }
            }
            for (index, handle) in handles.into_iter().enumerate() {
                if handle.join().is_err() {
                    failed.get_or_insert(index);
                }
            }
            if let Some(worker) = failed {
                return Err(SearchError::WorkerFailed { worker });
            }
            done.into_iter()
                .enumerate()
                .map(|(worker, report)| report.ok_or(SearchError::WorkerFailed { worker }))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(reasons: &[StopReason]) -> Vec<TreeReport<u8>> {
        reasons
            .iter()
            .map(|&stopped_by| TreeReport {
                tallies: Vec::new(),
                iterations: 0,
                nodes: 1,
                stopped_by,
            })
            .collect()
    }

    #[test]
    fn budgets_are_split_with_the_remainder_first() {
        assert_eq!(split_iterations(Some(10), 3), [Some(4), Some(3), Some(3)]);
        assert_eq!(
            split_iterations(Some(2), 4),
            [Some(1), Some(1), Some(0), Some(0)]
        );
        assert_eq!(split_iterations(None, 2), [None, None]);
        let shares = split_iterations(Some(1001), 7);
        assert_eq!(shares.iter().flatten().sum::<u64>(), 1001);
    }

    #[test]
    fn the_most_external_reason_wins() {
        use StopReason::*;
        assert_eq!(
            merged_stop_reason(&ended(&[EarlyStop, Iterations])),
            Iterations
        );
        assert_eq!(merged_stop_reason(&ended(&[Iterations, Time])), Time);
        assert_eq!(merged_stop_reason(&ended(&[Time, Deadline])), Deadline);
        assert_eq!(
            merged_stop_reason(&ended(&[Deadline, Cancelled])),
            Cancelled
        );
        assert_eq!(
            merged_stop_reason(&ended(&[EarlyStop, EarlyStop])),
            EarlyStop
        );
        assert_eq!(merged_stop_reason(&ended(&[Running])), Running);
    }
}
