"""Root parallelism: independent trees in worker processes, root statistics merged.

Progress is coalesced, never queued (as in the native core's `parallel.rs`): the parent asks
for progress by raising a shared request number; each worker answers each request once, at its
next progress point, and builds no report nobody asked for. The parent asks again only after
its callback has returned, so a slow callback gets fewer reports and never leaves a backlog to
work through after the workers have stopped.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
import traceback
from collections.abc import Callable
from multiprocessing.context import BaseContext
from typing import Any

from boardbot.engine.api import Game, View
from boardbot.engine.errors import BoardbotError
from boardbot.search.api import SearchConfig, StopReason
from boardbot.search.seeds import derive_seed
from boardbot.search.tree_search import RootTally, TreeReport, TreeSearch

POLL_SECONDS = 0.02
"""How often the parent polls cancellation while the workers search."""


class SearchWorkerError(BoardbotError, RuntimeError):
    """A root-parallel worker process failed; the message carries its traceback."""


def process_context() -> BaseContext:
    """The multiprocessing context for workers: forkserver where available, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["boardbot.engine", "boardbot.search.tree_search"])
        return ctx
    return multiprocessing.get_context("spawn")


def worker_seed(seed: int, index: int) -> int:
    """The seed of worker `index` of a root-parallel search seeded with `seed`."""
    return derive_seed(seed, "worker", index)


def split_iterations(total: int | None, workers: int) -> list[int | None]:
    """Share an iteration budget among workers (earlier workers take the remainder)."""
    if total is None:
        return [None] * workers
    base, extra = divmod(total, workers)
    return [base + (1 if i < extra else 0) for i in range(workers)]


def _worker_main(
    index: int,
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    iterations: int | None,
    deadline: float | None,
    stop_event: Any,
    results: Any,
    progress_every: int,
    lines: int | None,
    wanted: Any = None,
) -> None:
    """Search one tree and send its report, with the lines of its `lines` top moves (None:
    all), or the error, to the parent; every `progress_every` iterations, a progress report if
    the parent's request number (`wanted.value`) is one this worker has not answered yet."""
    try:
        stop_at = None if deadline is None else time.perf_counter() + (deadline - time.time())
        tree = TreeSearch(game, view, config, seed)
        answered = 0

        def send_progress(t: TreeSearch) -> None:
            nonlocal answered
            asked = wanted.value if wanted is not None else answered + 1
            if asked == answered:
                return
            answered = asked
            results.put(("progress", index, (asked, t.report(StopReason.RUNNING, lines))))

        stopped_by = tree.run(
            iterations,
            stop_at,
            should_stop=stop_event.is_set,
            on_progress=send_progress if progress_every > 0 else None,
            progress_every=progress_every,
        )
        results.put(("done", index, tree.report(stopped_by, lines)))
    except BaseException:  # report every failure, the parent re-raises it
        results.put(("error", index, traceback.format_exc()))


def run_root_parallel(
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    deadline: float | None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[list[TreeReport]], None] | None = None,
    progress_every: int = 0,
    lines: int | None = None,
) -> list[TreeReport]:
    """Run `config.workers` trees from `view` in processes; return their reports in worker order.

    `deadline` is an absolute `time.time()`; on_progress gets the latest report of each
    worker roughly every `progress_every` iterations in total, coalesced (see the module's
    docstring), never after `deadline`. Each worker reports the principal variations of its own
    `lines` top moves (None: of every move).
    """
    workers = config.workers
    ctx = process_context()
    stop_event = ctx.Event()
    results = ctx.Queue()
    shares = split_iterations(config.iterations, workers)
    per_worker_progress = max(1, progress_every // workers) if on_progress and progress_every else 0
    # The parent's latest progress request (the first one is raised from the start).
    wanted = ctx.Value("q", 1, lock=False)
    processes = [
        ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main,
            args=(
                i, game, view, config, worker_seed(seed, i), shares[i], deadline,
                stop_event, results, per_worker_progress, lines, wanted,
            ),
            daemon=True,
        )
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    done: dict[int, TreeReport] = {}
    latest: dict[int, TreeReport] = {}
    answers: dict[int, int] = {}
    next_progress = progress_every
    cancelled = False
    try:
        while len(done) < workers:
            if should_stop is not None and not cancelled and should_stop():
                cancelled = True
                stop_event.set()
            try:
                messages = [results.get(timeout=POLL_SECONDS)]
            except queue.Empty:
                if not any(p.is_alive() for p in processes) and results.empty():
                    raise SearchWorkerError("a search worker exited without a report") from None
                continue
            messages.extend(_drain(results))
            for kind, index, payload in messages:
                if kind == "error":
                    raise SearchWorkerError(f"search worker {index} failed:\n{payload}")
                if kind == "done":
                    done[index] = latest[index] = payload
                else:
                    answers[index], latest[index] = payload
            asked = wanted.value
            answered = all(i in done or answers.get(i) == asked for i in range(workers))
            stopping = deadline is not None and time.time() >= deadline
            if on_progress is None or progress_every <= 0 or not answered or len(done) == workers:
                continue
            total = sum(r.iterations for r in latest.values())
            if total >= next_progress and not stopping and not cancelled:
                next_progress = (total // progress_every + 1) * progress_every
                on_progress([latest[i] for i in sorted(latest)])
            wanted.value = asked + 1
    finally:
        stop_event.set()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
        results.close()
    if cancelled:
        done = {i: _as_cancelled(r) for i, r in done.items()}
    return [done[i] for i in range(workers)]


def _drain(results: Any) -> list[tuple[str, int, Any]]:
    """Every message already waiting in `results`, without blocking."""
    messages = []
    while True:
        try:
            messages.append(results.get_nowait())
        except queue.Empty:
            return messages


def _as_cancelled(report: TreeReport) -> TreeReport:
    return TreeReport(report.tallies, report.iterations, report.nodes, StopReason.CANCELLED)


MERGE_PRECEDENCE = (
    StopReason.CANCELLED,
    StopReason.DEADLINE,
    StopReason.TIME,
    StopReason.ITERATIONS,
    StopReason.EARLY_STOP,
)
"""Stop reasons from the most external cause to the least."""


def merged_stop_reason(reports: list[TreeReport]) -> StopReason:
    """One reason for the whole search: the most external cause any worker reported."""
    reasons = {r.stopped_by for r in reports}
    for reason in MERGE_PRECEDENCE:
        if reason in reasons:
            return reason
    return reports[0].stopped_by


def all_tallies(reports: list[TreeReport]) -> list[tuple[RootTally, ...]]:
    """The tallies of every report, in worker order."""
    return [r.tallies for r in reports]
