"""The gRPC phase: hostile requests from several threads against a `boardbot serve` child."""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz import repro
from fuzz.deadlines import TINY_DEADLINE_S, lateness, request_key
from fuzz.grpc_cases import GrpcCase, GrpcCaseFactory, StateSpec, Target
from fuzz.grpc_client import LATE_MARGIN_S, Answer, GrpcFailure, send
from fuzz.grpc_probes import PROBE_SECONDS, run_probes
from fuzz.grpc_server import FuzzServer, ServerSettings
from fuzz.grpc_shrink import shrink_request, shrinkable
from fuzz.seeds import Seed
from fuzz.shrink import Budget

PROGRESS_EVERY_S = 15.0
IDLE_CPU_PERCENT = 50.0
"""Above this, a server with no request in flight is still computing something."""
MAX_SUSPECTS = 4
"""Unfinished requests replayed one by one to find the one that keeps the server busy."""


@dataclass
class GrpcResult:
    """Everything the gRPC phase found and measured."""

    settings: ServerSettings
    threads: int
    requests: int = 0
    elapsed: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, tuple[GrpcFailure, GrpcCase]] = field(default_factory=dict)
    rss_before: dict[str, float] = field(default_factory=dict)
    rss_after: dict[str, float] = field(default_factory=dict)
    longest_past_deadline: float = 0.0
    longest_request: int = -1
    restarts: float = 0.0
    pids_before: list[int] = field(default_factory=list)
    pids_after: list[int] = field(default_factory=list)
    server_starts: int = 0
    notes: list[str] = field(default_factory=list)
    repros: dict[str, Path] = field(default_factory=dict)
    shrink_tests: int = 0
    threads_before: dict[str, int] = field(default_factory=dict)
    threads_after: dict[str, int] = field(default_factory=dict)
    found_at: dict[str, float] = field(default_factory=dict)
    """Seconds into the phase each failure class was first seen."""
    started: float = field(default_factory=time.monotonic)
    probe_lines: list[str] = field(default_factory=list)
    longest_past_limit: float = 0.0
    """Longest time (s) a long stream of the probes ran past its time limit."""

    @property
    def throughput(self) -> float:
        """Requests per second over the sending part of the phase."""
        return self.requests / self.elapsed if self.elapsed > 0 else 0.0

    def add_failure(self, failure: GrpcFailure, case: GrpcCase) -> None:
        """Count a failure; keep the first example of its class."""
        signature = failure.signature()
        self.failures[signature] += 1
        self.examples.setdefault(signature, (failure, case))
        self.found_at.setdefault(signature, round(time.monotonic() - self.started, 1))


class Phase:
    """One run of the gRPC phase."""

    def __init__(
        self,
        seeds: list[Seed],
        run_seed: int,
        settings: ServerSettings,
        threads: int,
        log_dir: Path,
        say: Callable[[str], None],
    ) -> None:
        self.run_seed = run_seed
        self.settings = settings
        self.threads = threads
        self.say = say
        self.factory = GrpcCaseFactory(
            run_seed, seeds, Target(settings.max_message_bytes, settings.max_time_ms)
        )
        self.probe_seed = next(s for s in seeds if s.to_move >= 0 and s.moves)
        self.server = FuzzServer(settings, log_dir / "grpc-server.log")
        self.result = GrpcResult(settings, threads)
        self.answers: list[Answer] = []
        self.lock = threading.Lock()
        self.key_locks: dict[tuple[str, str], threading.Lock] = defaultdict(threading.Lock)
        ahead = math.ceil(max(threads - 1, 0) / settings.workers)
        self.allowance = (1 + ahead) * settings.max_time_ms / 1000.0 + LATE_MARGIN_S
        """How long a request without a deadline may take: its own longest search, plus the
        searches that may be ahead of it on its worker, plus the margin."""

    # -- sending ----------------------------------------------------------------------------

    def run(self, seconds: float, max_requests: int | None) -> GrpcResult:
        """Send requests until `seconds` pass or `max_requests` are sent, then check the
        server: idle, healthy, no worker restarts, no request late by its own log."""
        r = self.result
        self.server.start()
        r.rss_before = self.server.rss_mib()
        r.threads_before = self.server.threads()
        r.pids_before = self.server.worker_pids()
        restarts_before = self.server.metrics().get("boardbot_worker_restarts_total", 0.0)
        counter = itertools.count()
        start = time.monotonic()
        stop_at = start + seconds
        stop = threading.Event()

        def worker() -> None:
            while not stop.is_set():
                index = next(counter)
                if (max_requests is not None and index >= max_requests) or (
                    time.monotonic() > stop_at
                ):
                    return
                self._one(index)

        pool = [
            threading.Thread(target=worker, name=f"fuzz-grpc-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for thread in pool:
            thread.start()
        last = start
        try:
            while any(t.is_alive() for t in pool):
                pool[0].join(timeout=1.0)
                for thread in pool:
                    thread.join(timeout=0.0)
                if time.monotonic() - last > PROGRESS_EVERY_S:
                    last = time.monotonic()
                    self.say(f"  gRPC: {r.requests:,} requests, "
                             f"{r.requests / (last - start):,.0f}/s, "
                             f"{sum(r.failures.values())} failures")
        finally:
            stop.set()
        r.elapsed = time.monotonic() - start
        self._after(restarts_before)
        return r

    def _one(self, index: int) -> None:
        try:
            case = self.factory.case(index)
        except Exception as error:  # a bug in the harness's own request making
            self._harness_error(GrpcCase(index, "-", {}, None, None), error)
            return
        key = request_key_of(case)
        guard: AbstractContextManager[Any] = nullcontext()
        if key is not None:
            with self.lock:
                guard = self.key_locks[key]
        starts = self.server.starts
        try:
            with guard:
                answer = send(self.server.conn, case, self.allowance)
        except Exception as error:  # a harness bug, or a channel closed by a restart
            if starts == self.server.starts:
                self._harness_error(case, error)
            return
        with self.lock:
            r = self.result
            r.requests += 1
            r.methods[case.method] += 1
            r.counts[category(answer)] += 1
            self.answers.append(answer)
            if answer.failure is not None:
                r.add_failure(answer.failure, case)
            if answer.status == "UNAVAILABLE" and starts == self.server.starts and (
                not self.server.alive()
            ):
                failure = GrpcFailure("server-exited", case.method, answer.status,
                                      "the server process exited")
                r.add_failure(failure, case)
                self.say("  gRPC: the server exited; starting a new one")
                self.server.start()

    def _harness_error(self, case: GrpcCase, error: Exception) -> None:
        failure = GrpcFailure("harness-error", case.method, "-",
                              f"{type(error).__name__}: {str(error)[:300]}")
        with self.lock:
            self.result.counts["failure: harness-error"] += 1
            self.result.add_failure(failure, case)

    # -- after the requests -----------------------------------------------------------------

    def _after(self, restarts_before: float) -> None:
        r = self.result
        busy, cpu = self._wait_idle()
        if busy:
            r.add_failure(GrpcFailure("workers-busy", "-", "-", f"{busy:g} workers still busy "
                                      "after every deadline passed"), self._suspect_case())
        if cpu > IDLE_CPU_PERCENT:
            r.add_failure(GrpcFailure("server-busy", "-", "-", f"the server uses {cpu:.0f}% CPU "
                                      "with no request in flight"), self._suspect_case())
        probe = self.probe()
        if probe.status != "OK":
            r.add_failure(GrpcFailure("server-unhealthy", "ChooseMove", probe.status,
                                      f"a valid beginner ChooseMove failed: {probe.message}"),
                          probe.case)
        metrics = self.server.metrics()
        before = restarts_before if self.server.starts == 1 else 0.0  # a new server counts anew
        r.restarts = metrics.get("boardbot_worker_restarts_total", 0.0) - before
        crashes = sum(n for s, n in r.failures.items() if s.startswith("worker-crash"))
        if r.restarts > crashes:
            r.add_failure(GrpcFailure("worker-restarts", "-", "-",
                                      f"{r.restarts:g} worker restarts, {crashes} reported to "
                                      "a client"), self._suspect_case())
        r.rss_after = self.server.rss_mib()
        r.threads_after = self.server.threads()
        r.pids_after = self.server.worker_pids()
        late = lateness(self.answers, self.server.all_request_logs(), self.settings.max_time_ms)
        r.longest_past_deadline, r.longest_request = late.longest, late.longest_index
        for failure, answer in late.failures:
            r.add_failure(failure, answer.case)
        if late.unfinished and (busy or cpu > IDLE_CPU_PERCENT):
            # The server is still at work on something it never logged: the requests it
            # never answered are (at least) this far past their deadlines.
            now = time.time()
            for answer in late.unfinished:
                deadline = answer.sent + (answer.case.timeout or self.allowance)
                if now - deadline > r.longest_past_deadline:
                    r.longest_past_deadline = now - deadline
                    r.longest_request = answer.case.index
        if late.unfinished:
            r.notes.append(f"{len(late.unfinished)} requests timed out without a line in the "
                           "server's log (never started, or still running)")
        r.notes.append(f"{late.matched:,} of {r.requests:,} requests matched to the server's log")
        if busy or cpu > IDLE_CPU_PERCENT:
            self._confirm(late.unfinished)
        r.server_starts = self.server.starts

    def _wait_idle(self) -> tuple[float, float]:
        """Busy workers left after waiting for the longest deadline plus the margin, and the
        server's CPU use over one second."""
        busy = self.server.wait_idle(max(self.allowance, 3.0) + LATE_MARGIN_S)
        return busy, self.server.cpu_percent()

    def _suspect_case(self) -> GrpcCase:
        unfinished = [
            a for a in self.answers
            if a.status in ("DEADLINE_EXCEEDED", "NO_ANSWER")
            and (a.case.timeout is None or a.case.timeout >= TINY_DEADLINE_S)
        ]
        if unfinished:
            return min(unfinished, key=lambda a: a.sent).case
        return self.probe_case()

    def _confirm(self, unfinished: list[Answer]) -> None:
        """Replay the first unfinished requests one by one on a fresh server; the ones that
        leave it busy past their deadline become failures with their own repro."""
        r = self.result
        for answer in sorted(unfinished, key=lambda a: a.sent)[:MAX_SUSPECTS]:
            self.server.start()
            case = answer.case
            send(self.server.conn, case, self.allowance)
            time.sleep(LATE_MARGIN_S)
            busy, cpu = self._wait_idle()
            if busy or cpu > IDLE_CPU_PERCENT:
                r.add_failure(
                    GrpcFailure("still-running", case.method, answer.status,
                                f"replayed alone, it leaves the server busy ({busy:g} workers, "
                                f"{cpu:.0f}% CPU) past its deadline"),
                    case,
                )
        self.server.start()

    def probe_case(self) -> GrpcCase:
        """A valid beginner ChooseMove with a 5 s deadline."""
        s = self.probe_seed
        fields = {"game": s.game, "seat": s.to_move, "preset": "beginner", "seed": 1}
        return GrpcCase(-1, "ChooseMove", fields, StateSpec(s.doc), 5.0, s.game, s.label)

    def probe(self) -> Answer:
        """Send the probe: the server must still answer a valid request."""
        return send(self.server.conn, self.probe_case(), 10.0)

    # -- repros -----------------------------------------------------------------------------

    def write_repros(self, directory: Path, shrink_seconds: float, shrink_total: float) -> None:
        """Shrink each failure class a single request shows (at most `shrink_seconds` each,
        `shrink_total` in all), and write every repro."""
        r = self.result
        stop_at = time.monotonic() + shrink_total
        for signature, (failure, case) in sorted(r.examples.items()):
            final = case
            seconds = min(shrink_seconds, stop_at - time.monotonic())
            if seconds > 0 and shrinkable(signature) and self.server.alive():
                budget = Budget(200, seconds)
                final = shrink_request(
                    case, signature, lambda c: send(self.server.conn, c, self.allowance), budget
                )
                r.shrink_tests += budget.used
            r.repros[signature] = repro.write_request(
                directory, final, failure.to_json(), signature, r.failures[signature],
                self.run_seed, self.settings.to_json(),
            )

    def close(self) -> None:
        """Stop the server."""
        self.server.stop()


def request_key_of(case: GrpcCase) -> tuple[str, str] | None:
    """(method, game) for requests matched against the server's log."""
    return request_key(Answer(case, 0.0, 0.0, "", "", 0))


def category(answer: Answer) -> str:
    """The outcome category of an answer: a failure kind, or its status."""
    if answer.failure is not None:
        return f"failure: {answer.failure.kind}"
    if answer.status == "RESOURCE_EXHAUSTED":
        return "RESOURCE_EXHAUSTED (busy)" if "busy" in answer.message else \
            "RESOURCE_EXHAUSTED (too large)"
    return answer.status


def run_grpc(
    seeds: list[Seed],
    run_seed: int,
    *,
    seconds: float,
    max_requests: int | None,
    threads: int,
    settings: ServerSettings,
    repro_dir: Path,
    shrink_seconds: float,
    shrink_total: float,
    say: Callable[[str], None] = print,
    long_streams: int = 3,
    probes: bool = True,
) -> GrpcResult:
    """The whole gRPC phase: send, check the server, run the probes on a server of their own
    (`fuzz/grpc_probes.py`), write the repros, stop the servers."""
    repro_dir.mkdir(parents=True, exist_ok=True)
    phase = Phase(seeds, run_seed, settings, threads, repro_dir, say)
    sending = max(seconds - PROBE_SECONDS, 10.0) if probes else seconds
    try:
        result = phase.run(sending, max_requests)
        if probes:
            phase.close()
            say("  gRPC: probes (long streams, open streams without the token, an idle worker "
                "killed, SIGTERM during a search)")
            found = run_probes(settings, repro_dir, seeds, long_streams, say)
            result.probe_lines = found.lines
            result.longest_past_limit = found.longest_past_limit
            for failure, case, when in found.failures:
                result.found_at.setdefault(failure.signature(), round(when - result.started, 1))
                result.add_failure(failure, case)
            if any(shrinkable(signature) for signature in result.examples):
                phase.server.start()  # for shrinking the requests' failures
        phase.write_repros(repro_dir, shrink_seconds, shrink_total)
    finally:
        phase.close()
    return result
