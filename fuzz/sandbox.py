"""Child processes that run in-process cases under a watchdog, so a hang cannot stop the run.

Inside the child an interval timer raises `Hang` in a call that runs too long; if even that
cannot stop it (a loop in C code), the parent kills the child after a grace period and starts
a fresh one.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from fuzz.cases import Case, CaseFactory
from fuzz.pipeline import CaseResult, Failure, Hang, Limits, run_case
from fuzz.seeds import Seed

KILL_GRACE_SECONDS = 10.0
"""How long past the alarm the parent waits before it kills a child that does not answer."""

_CONTEXT = multiprocessing.get_context("spawn")


@dataclass
class BatchReport:
    """What a child found in a range of cases: counts, and the first example of each class."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, tuple[Case, CaseResult]] = field(default_factory=dict)
    cases: int = 0

    def add(self, other: BatchReport) -> None:
        """Fold another report into this one (first examples win)."""
        self.counts.update(other.counts)
        self.failures.update(other.failures)
        self.cases += other.cases
        for signature, example in other.examples.items():
            self.examples.setdefault(signature, example)

    def record(self, case: Case, result: CaseResult) -> None:
        """Count one case's outcome."""
        self.cases += 1
        self.counts[result.outcome] += 1
        if "unconfirmed" in result.extra:
            self.counts[f"{result.extra['unconfirmed']} once, not when run again"] += 1
        if result.move != "none":
            self.counts[f"move {result.move}"] += 1
        if result.failure is not None:
            self.counts[f"failure: {result.failure.kind}"] += 1
            signature = result.failure.signature()
            self.failures[signature] += 1
            if signature not in self.examples:
                self.examples[signature] = (case, result)


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang()


def _child_main(
    conn: Connection, index: Any, ticks: Any, limits: Limits, hang_seconds: float
) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    factory: CaseFactory | None = None
    sent: set[str] = set()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "seeds":
            factory = CaseFactory(message[1], message[2])
            continue
        if message[0] == "batch":
            assert factory is not None
            report = BatchReport()
            for i in range(message[1], message[2]):
                case = factory.case(i)
                index.value = i
                result = _confirmed(case, None, limits, hang_seconds, ticks)
                report.record(case, result)
            # Each class travels once per child: the parent only needs one example.
            report.examples = {k: v for k, v in report.examples.items() if k not in sent}
            sent.update(report.examples)
            conn.send(("batch", report))
        elif message[0] == "case":
            conn.send(("case", _confirmed(message[1], message[2], limits, hang_seconds, ticks)))


TIMING_KINDS = ("slow", "hang")
"""Failures a busy machine can cause by itself: a case is run twice before they count."""


def _confirmed(
    case: Case, doc: Any, limits: Limits, hang_seconds: float, ticks: Any
) -> CaseResult:
    """Run a case; a timing failure counts only if running it again gives it again."""
    result = _timed(case, doc, limits, hang_seconds, ticks)
    if result.failure is None or result.failure.kind not in TIMING_KINDS:
        return result
    again = _timed(case, doc, limits, hang_seconds, ticks)
    if again.failure is not None and again.failure.signature() == result.failure.signature():
        return result
    again.extra["unconfirmed"] = result.failure.kind
    return again


def _timed(case: Case, doc: Any, limits: Limits, hang_seconds: float, ticks: Any) -> CaseResult:
    ticks.value += 1
    signal.setitimer(signal.ITIMER_REAL, hang_seconds)
    try:
        return run_case(case, limits, doc)
    except Hang:  # the alarm fired just outside the engine calls
        return CaseResult("failure", Failure("hang", "harness", "", "the case did not finish"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class Child:
    """One child process running cases, with the parent-side watchdog."""

    def __init__(self, limits: Limits, hang_seconds: float) -> None:
        self.limits = limits
        self.hang_seconds = hang_seconds
        self.index: Any = _CONTEXT.RawValue("q", -1)
        self.ticks: Any = _CONTEXT.RawValue("q", 0)
        """Cases the child has begun; the parent sees it stall when this stops moving."""
        self._seen = (0, time.monotonic())
        self.seeds_message: tuple[Any, ...] | None = None
        self.process: Any = None
        self.conn: Connection | None = None
        self.busy: tuple[int, int] | None = None
        """The batch (start, stop) the child is running."""
        self.spawn()

    def spawn(self) -> None:
        """Start (or restart) the child process."""
        parent_end, child_end = _CONTEXT.Pipe(duplex=True)
        self.process = _CONTEXT.Process(
            target=_child_main,
            args=(child_end, self.index, self.ticks, self.limits, self.hang_seconds),
            name="fuzz-case-runner",
            daemon=True,
        )
        self.process.start()
        child_end.close()
        self.conn = parent_end
        self.busy = None
        if self.seeds_message is not None:
            self.conn.send(self.seeds_message)

    def load_seeds(self, run_seed: int, seeds: list[Seed]) -> None:
        """Give the child what it needs to make cases by number (kept across restarts)."""
        self.seeds_message = ("seeds", run_seed, seeds)
        assert self.conn is not None
        self.conn.send(self.seeds_message)

    def start_work(self) -> None:
        """Note that work was just sent (the stall clock starts now)."""
        self._seen = (self.ticks.value, time.monotonic())

    def overdue(self) -> bool:
        """True when the child has begun no new case for longer than the alarm plus the kill
        grace: stuck in a case the alarm cannot stop, or stuck between cases."""
        ticks, since = self._seen
        now = time.monotonic()
        if self.ticks.value != ticks:
            self._seen = (self.ticks.value, now)
            return False
        return now - since > self.hang_seconds + KILL_GRACE_SECONDS

    def kill_and_respawn(self) -> int:
        """Kill a stuck child, start a fresh one; the index of the case it was running."""
        stuck = int(self.index.value)
        self.process.kill()
        self.process.join(5)
        assert self.conn is not None
        self.conn.close()
        self.spawn()
        return stuck

    def run(self, case: Case, doc: Any = None) -> CaseResult:
        """Run one case (on `doc` if given) and wait for its result, killing a stuck child."""
        assert self.conn is not None
        self.conn.send(("case", case, doc))
        self.start_work()
        while not self.conn.poll(0.2):
            if self.overdue() or not self.process.is_alive():
                self.kill_and_respawn()
                return CaseResult(
                    "failure",
                    Failure("hang", "killed", "", f"no answer {KILL_GRACE_SECONDS:.0f} s past "
                                                  "the alarm; the child was killed"),
                )
        kind, result = self.conn.recv()
        assert kind == "case"
        assert isinstance(result, CaseResult)
        return result

    def close(self) -> None:
        """Stop the child."""
        if self.conn is not None:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
            self.conn.close()
            self.conn = None
        if self.process is not None:
            self.process.join(5)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(5)
