"""The in-process phase: numbered cases spread over child processes, under a watchdog."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

from fuzz import repro
from fuzz.case_shrink import shrink_case
from fuzz.cases import CaseFactory
from fuzz.pipeline import CaseResult, Failure, Limits
from fuzz.sandbox import KILL_GRACE_SECONDS, BatchReport, Child
from fuzz.seeds import Seed
from fuzz.shrink import Budget

BATCH = 100
"""Cases a child runs between two reports."""
PROGRESS_EVERY_S = 15.0


@dataclass
class InprocessResult:
    """Everything the in-process phase found."""

    report: BatchReport
    elapsed: float
    jobs: int
    notes: list[str] = field(default_factory=list)
    repros: dict[str, Path] = field(default_factory=dict)
    shrink_tests: int = 0
    found_at: dict[str, float] = field(default_factory=dict)
    """Seconds into the phase each failure class was first seen (to within a batch)."""

    @property
    def throughput(self) -> float:
        """Cases per second over the phase."""
        return self.report.cases / self.elapsed if self.elapsed > 0 else 0.0


def run_inprocess(
    seeds: list[Seed],
    run_seed: int,
    *,
    jobs: int,
    seconds: float,
    max_cases: int | None,
    limits: Limits,
    hang_seconds: float,
    say: Callable[[str], None] = print,
) -> InprocessResult:
    """Run cases 0, 1, 2, ... until `seconds` pass or `max_cases` are done."""
    start = time.monotonic()
    stop_at = start + seconds
    factory = CaseFactory(run_seed, seeds)
    children = [Child(limits, hang_seconds) for _ in range(jobs)]
    for child in children:
        child.load_seeds(run_seed, seeds)
    total = BatchReport()
    pending: list[tuple[int, int]] = []
    next_index = 0
    last_progress = start
    found_at: dict[str, float] = {}
    try:
        while True:
            now = time.monotonic()
            for child in children:
                if child.busy is not None:
                    continue
                work = _next_range(pending, next_index, max_cases, now < stop_at)
                if work is None:
                    continue
                if work[0] == next_index:
                    next_index = work[1]
                assert child.conn is not None
                child.conn.send(("batch", *work))
                child.start_work()
                child.busy = work
            busy = [c for c in children if c.busy is not None]
            if not busy:
                break
            ready = wait([c.conn for c in busy if c.conn is not None], timeout=0.5)
            for child in busy:
                if child.conn in ready:
                    _collect(child, total, pending, factory)
                elif child.overdue() or not child.process.is_alive():
                    _kill(child, total, pending, factory, hang_seconds)
            for signature in total.failures:
                found_at.setdefault(signature, round(time.monotonic() - start, 1))
            if time.monotonic() - last_progress > PROGRESS_EVERY_S:
                last_progress = time.monotonic()
                rate = total.cases / (last_progress - start)
                say(f"  in-process: {total.cases:,} cases, {rate:,.0f}/s, "
                    f"{sum(total.failures.values())} failures")
    finally:
        for child in children:
            child.close()
    return InprocessResult(total, time.monotonic() - start, jobs, found_at=found_at)


def _next_range(
    pending: list[tuple[int, int]], next_index: int, max_cases: int | None, more: bool
) -> tuple[int, int] | None:
    if pending:
        return pending.pop(0)
    if not more or (max_cases is not None and next_index >= max_cases):
        return None
    stop = next_index + BATCH
    if max_cases is not None:
        stop = min(stop, max_cases)
    return (next_index, stop)


def _collect(
    child: Child, total: BatchReport, pending: list[tuple[int, int]], factory: CaseFactory
) -> None:
    assert child.conn is not None
    try:
        kind, report = child.conn.recv()
    except (EOFError, OSError):
        _kill(child, total, pending, factory, 0.0)
        return
    assert kind == "batch"
    total.add(report)
    child.busy = None


def _kill(
    child: Child,
    total: BatchReport,
    pending: list[tuple[int, int]],
    factory: CaseFactory,
    hang_seconds: float,
) -> None:
    """Kill a stuck or dead child; record its case as a failure, redo the rest of its batch."""
    assert child.busy is not None
    start, stop = child.busy
    alive = child.process.is_alive()
    stuck = child.kill_and_respawn()
    if not start <= stuck < stop:
        stuck = start
    case = factory.case(stuck)
    if alive:
        failure = Failure(
            "hang", "killed", "",
            f"no answer {hang_seconds + KILL_GRACE_SECONDS:.0f} s after the case began "
            "(the alarm could not stop it); the child was killed",
        )
    else:
        failure = Failure("child-died", "killed", "", "the child process running it exited")
    total.record(case, CaseResult("failure", failure))
    if start < stuck:
        pending.append((start, stuck))
    if stuck + 1 < stop:
        pending.append((stuck + 1, stop))



def write_repros(
    result: InprocessResult,
    run_seed: int,
    directory: Path,
    limits: Limits,
    hang_seconds: float,
    shrink_seconds: float,
    shrink_total: float,
) -> None:
    """Shrink the first case of each failure class (in a watchdog child, at most
    `shrink_seconds` each and `shrink_total` in all) and write its repro."""
    report = result.report
    if not report.examples:
        return
    child = Child(limits, hang_seconds)
    settings = {"slow_seconds": limits.slow_seconds, "legal_checks": limits.legal_checks,
                "playout_steps": limits.playout_steps, "hang_seconds": hang_seconds}
    stop_at = time.monotonic() + shrink_total
    try:
        for signature, (case, found) in sorted(report.examples.items()):
            assert found.failure is not None
            failure = found.failure
            doc = case.document()
            seconds = min(shrink_seconds, stop_at - time.monotonic())
            if seconds > 0:
                budget = Budget(400, seconds)
                shrunk = shrink_case(case, signature, child, budget)
                result.shrink_tests += budget.used
                if shrunk.result.failure is not None and (
                    shrunk.result.failure.signature() == signature
                ):
                    case, doc, failure = shrunk.case, shrunk.doc, shrunk.result.failure
            result.repros[signature] = repro.write_case(
                directory, case, doc, failure.to_json(), signature,
                report.failures[signature], run_seed, settings,
            )
    finally:
        child.close()
