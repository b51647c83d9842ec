//! Root parallelism on threads: independent trees, root statistics merged (the twin of
//! `search/parallel.py`, with threads where Python uses processes).
//!
//! Worker `i` grows its own tree seeded with [`worker_seed`]`(seed, i)` and takes its share of
//! the iteration budget ([`split_iterations`]); all share the seat's view and the game by
//! reference. The calling thread coordinates: it waits for the workers' final reports and runs
//! the progress callback itself.
//!
//! Progress is coalesced, never queued. When the coordinator wants a progress report it raises
//! a request number; each worker answers it once, at its next progress point, by leaving its
//! report in its own slot (a newer report replaces an older one). A worker builds no report
//! nobody asked for, the coordinator asks again only after its callback has returned and the
//! progress period has passed, and nothing is left to drain when the workers stop: however slow
//! the callback, the search ends when its stop comes, and the number of reports depends on the
//! callback's pace and the progress period, not on the threads or the iterations.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use boardbot_rules::{Featurize, Game, View};

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

/// The longest the coordinator sleeps without looking at the board (a safety net: every
/// change of the board wakes it at once).
const COORDINATOR_NAP: Duration = Duration::from_millis(50);

/// What the workers leave for the coordinating thread.
struct Board<A> {
    /// Per worker, its newest progress report and the request it answers.
    progress: Vec<Option<(u64, TreeReport<A>)>>,
    /// Per worker, its final report.
    done: Vec<Option<TreeReport<A>>>,
    /// Workers whose thread has ended (with a final report or a panic).
    finished: usize,
    /// Progress reports the workers built.
    progress_reports: u64,
}

/// The board, the signal that it changed, and the coordinator's latest request for progress.
struct Shared<A> {
    board: Mutex<Board<A>>,
    changed: Condvar,
    /// The number of the latest progress request (0: none yet).
    wanted: AtomicU64,
}

impl<A> Shared<A> {
    fn new(workers: usize) -> Self {
        Self {
            board: Mutex::new(Board {
                progress: (0..workers).map(|_| None).collect(),
                done: (0..workers).map(|_| None).collect(),
                finished: 0,
                progress_reports: 0,
            }),
            changed: Condvar::new(),
            wanted: AtomicU64::new(0),
        }
    }

    /// The board; a worker that panicked while holding it left nothing half-written (every
    /// change is a single assignment), so a poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, Board<A>> {
        self.board.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Change the board and wake the coordinator.
    fn post(&self, change: impl FnOnce(&mut Board<A>)) {
        change(&mut self.lock());
        self.changed.notify_all();
    }
}

/// Marks its worker finished when its thread ends, normally or by a panic; a panic also sets
/// the abort flag, so the other threads stop early.
struct WorkerExit<'a, A> {
    shared: &'a Shared<A>,
    abort: &'a AtomicBool,
}

impl<A> Drop for WorkerExit<'_, A> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.abort.store(true, Ordering::Relaxed);
        }
        self.shared.post(|board| board.finished += 1);
    }
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

/// A progress callback over the latest report of each worker.
pub type ReportsCallback<'a, A> = dyn FnMut(&[TreeReport<A>]) + 'a;

/// When the coordinator runs the progress callback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressPace {
    /// Iterations (all threads together) between two callbacks (0: no iteration condition).
    pub every: u64,
    /// The least time from the end of a callback (or the start) to the next (zero: none).
    pub period: Duration,
}

impl ProgressPace {
    /// True when either condition is set (otherwise no progress at all).
    pub fn is_set(&self) -> bool {
        self.every > 0 || !self.period.is_zero()
    }
}

/// What a root-parallel run produced.
#[derive(Debug)]
pub struct ParallelRun<A> {
    /// The final reports, in worker order.
    pub reports: Vec<TreeReport<A>>,
    /// Progress reports the workers built.
    pub progress_reports: u64,
    /// Progress callbacks run.
    pub callbacks: u64,
}

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

impl<G: Featurize> ParallelSearch<'_, G> {
    /// Run `config.workers` trees on threads; their final reports in worker order.
    ///
    /// `on_progress` gets the latest report of every worker, on the calling thread, each time
    /// the iterations of those reports pass another multiple of `progress_every` (each worker
    /// reports at most every `progress_every / workers` of its iterations, and only when asked).
    pub fn run(
        &self,
        on_progress: Option<&mut ReportsCallback<'_, G::Action>>,
        progress_every: u64,
    ) -> Result<Vec<TreeReport<G::Action>>, SearchError> {
        let pace = ProgressPace {
            every: progress_every,
            period: Duration::ZERO,
        };
        self.run_paced(on_progress, pace).map(|run| run.reports)
    }

    /// [`run`](Self::run) with progress at `pace`: a callback once the iterations pass another
    /// multiple of `pace.every` (when set) and `pace.period` has passed since the previous
    /// callback returned (when set), never after the wall-clock stop. Also counts the progress
    /// reports built and the callbacks run.
    pub fn run_paced(
        &self,
        mut on_progress: Option<&mut ReportsCallback<'_, G::Action>>,
        pace: ProgressPace,
    ) -> Result<ParallelRun<G::Action>, SearchError> {
        let workers = self.config.workers.max(1);
        let shares = split_iterations(self.config.iterations, workers);
        let wants_progress = on_progress.is_some() && pace.is_set();
        // A worker looks for a request every `worker_progress` of its iterations (a load of an
        // atomic); it builds a report only for a request it has not answered yet.
        let worker_progress = match (wants_progress, pace.every) {
            (false, _) => 0,
            (true, 0) => 1,
            (true, every) => (every / workers as u64).max(1),
        };
        let abort = AtomicBool::new(false);
        let shared = Shared::<G::Action>::new(workers);
        thread::scope(|scope| {
            let _stop_workers_if_this_thread_panics = AbortOnPanic(&abort);
            let mut failed: Option<usize> = None;
            let mut handles = Vec::with_capacity(workers);
            for (index, share) in shares.into_iter().enumerate() {
                let (abort, shared) = (&abort, &shared);
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
                        let _exit = WorkerExit { shared, abort };
                        let seed = worker_seed(self.seed, index);
                        let mut tree = TreeSearch::new(self.game, self.view, self.config, seed);
                        let mut answered = 0;
                        let stopped = tree.run(&limits, flags, |t| {
                            let wanted = shared.wanted.load(Ordering::Acquire);
                            if wanted == answered {
                                return;
                            }
                            answered = wanted;
                            let report = t.report(StopReason::Running);
                            shared.post(|board| {
                                board.progress[index] = Some((wanted, report));
                                board.progress_reports += 1;
                            });
                        });
                        let report = tree.report(stopped);
                        shared.post(|board| board.done[index] = Some(report));
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
            let running = handles.len();
            let callbacks = if wants_progress {
                self.coordinate(&shared, running, pace, &mut on_progress)
            } else {
                let mut board = shared.lock();
                while board.finished < running {
                    board = wait(&shared, board, COORDINATOR_NAP);
                }
                0
            };
            for (index, handle) in handles.into_iter().enumerate() {
                if handle.join().is_err() {
                    failed.get_or_insert(index);
                }
            }
            if let Some(worker) = failed {
                return Err(SearchError::WorkerFailed { worker });
            }
            let mut board = shared.lock();
            let progress_reports = board.progress_reports;
            let reports = std::mem::take(&mut board.done)
                .into_iter()
                .enumerate()
                .map(|(worker, report)| report.ok_or(SearchError::WorkerFailed { worker }))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ParallelRun {
                reports,
                progress_reports,
                callbacks,
            })
        })
    }

    /// The coordinator's loop until the `running` workers have left their final reports (a
    /// worker that panicked leaves none, but sets the abort flag and ends the wait with
    /// `finished`): ask for progress at `pace`, wait for every worker's answer, run the
    /// callback; the callbacks run.
    fn coordinate(
        &self,
        shared: &Shared<G::Action>,
        running: usize,
        pace: ProgressPace,
        on_progress: &mut Option<&mut ReportsCallback<'_, G::Action>>,
    ) -> u64 {
        let mut callbacks = 0;
        let mut last_call = Instant::now();
        let mut next_progress = pace.every;
        let mut asked = 0u64;
        let mut latest: Vec<Option<TreeReport<G::Action>>> = vec![None; running];
        let mut board = shared.lock();
        // Until every worker has left its final report (joining the threads waits for the rest).
        while board.finished < running && board.done.iter().take(running).any(Option::is_none) {
            let now = Instant::now();
            if self.stop_at.is_some_and(|stop| now >= stop.instant) {
                // The workers are stopping: no more progress, only their final reports.
                board = wait(shared, board, COORDINATOR_NAP);
                continue;
            }
            let due = last_call + pace.period;
            if asked == 0 {
                if now < due {
                    board = wait(shared, board, (due - now).min(COORDINATOR_NAP));
                    continue;
                }
                asked = shared.wanted.load(Ordering::Relaxed) + 1;
                shared.wanted.store(asked, Ordering::Release);
            }
            let answered = (0..running).all(|i| {
                board.done[i].is_some() || matches!(&board.progress[i], Some((n, _)) if *n == asked)
            });
            if !answered {
                board = wait(shared, board, COORDINATOR_NAP);
                continue;
            }
            for (i, slot) in latest.iter_mut().enumerate() {
                if let Some(done) = &board.done[i] {
                    *slot = Some(done.clone());
                } else if let Some((_, report)) = board.progress[i].take() {
                    *slot = Some(report);
                }
            }
            asked = 0;
            let total: u64 = latest.iter().flatten().map(|r| r.iterations).sum();
            if pace.every > 0 && total < next_progress {
                continue; // not far enough yet: ask again
            }
            if let Some(passed) = total.checked_div(pace.every) {
                next_progress = (passed + 1) * pace.every;
            }
            drop(board);
            let reports: Vec<TreeReport<G::Action>> = latest.iter().flatten().cloned().collect();
            if let Some(callback) = on_progress.as_mut() {
                callback(&reports);
                callbacks += 1;
            }
            last_call = Instant::now();
            board = shared.lock();
        }
        callbacks
    }
}

/// Wait until the board changes, at most `timeout`.
fn wait<'a, A>(
    shared: &'a Shared<A>,
    board: MutexGuard<'a, Board<A>>,
    timeout: Duration,
) -> MutexGuard<'a, Board<A>> {
    shared
        .changed
        .wait_timeout(board, timeout)
        .map_or_else(|poisoned| poisoned.into_inner().0, |(board, _)| board)
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
