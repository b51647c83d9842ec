"""The web phase: hostile HTTP to `boardbot web` over raw sockets, one request at a time.

Cases come from fuzz.web_cases (case *i* from the seed and *i*), are sent by fuzz.web_http,
judged by fuzz.web_judge, and between them the probes of fuzz.web_probes run on schedule.
Requests go one at a time, so whatever the gateway prints (a traceback) belongs to the case
just sent.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fuzz import web_repro
from fuzz.web_cases import WebCase, WebCaseFactory
from fuzz.web_judge import WebFailure
from fuzz.web_run import run_case
from fuzz.web_target import WebSettings, WebTarget

PROGRESS_EVERY_S = 15.0
SAMPLE_EVERY = 50
"""Cases between samples of the gateway's thread count."""


@dataclass
class WebResult:
    """Everything the web phase found and measured."""

    settings: WebSettings
    cases: int = 0
    elapsed: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    """Cases by outcome: the answer's status, `no-answer`, `timeout`, `probe-ok`, ..."""
    categories: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, tuple[WebFailure, WebCase]] = field(default_factory=dict)
    first_found: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Failure class -> (case index, seconds into the phase) of its first occurrence."""
    rss_before: float = 0.0
    rss_after: float = 0.0
    threads_before: int = 0
    threads_after: int = 0
    threads_peak: int = 0
    bytes_sent: int = 0
    gateway_starts: int = 0
    probes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    repros: dict[str, Path] = field(default_factory=dict)

    @property
    def throughput(self) -> float:
        """Cases per second."""
        return self.cases / self.elapsed if self.elapsed > 0 else 0.0

    def add(self, case: WebCase, failure: WebFailure, seconds: float) -> None:
        """Count a failure; keep the first example of its class and when it came."""
        signature = failure.signature()
        self.failures[signature] += 1
        self.examples.setdefault(signature, (failure, case))
        self.first_found.setdefault(signature, (case.index, seconds))


def run_web(
    run_seed: int,
    seconds: float,
    max_cases: int | None,
    settings: WebSettings,
    repro_dir: Path,
    say: Callable[[str], None],
) -> WebResult:
    """Run the web phase for `seconds` (or `max_cases` cases); write one repro per class."""
    result = WebResult(settings)
    factory = WebCaseFactory(run_seed, stream_ms=max(1.0, settings.max_time_ms - 1000.0))
    target = WebTarget(settings, repro_dir)
    say(f"== web phase: starting a server ({settings.workers} workers, --max-time-ms "
        f"{settings.max_time_ms:g}) and `boardbot web` in front of it")
    target.start()
    say(f"  web: the gateway is {target.source}, on 127.0.0.1:{target.port}")
    try:
        time.sleep(0.5)
        result.threads_before, result.rss_before = target.threads(), target.rss_mib()
        started = time.monotonic()
        deadline = started + seconds
        next_progress = started + PROGRESS_EVERY_S
        index = 0
        while (max_cases is None or index < max_cases) and time.monotonic() < deadline:
            case = factory.case(index)
            outcome = run_case(target, case)
            result.cases += 1
            result.bytes_sent += len(case.data)
            result.counts[outcome.outcome] += 1
            result.categories[case.category] += 1
            if case.category in ("idle", "stream"):
                result.probes.append(f"#{index}: {outcome.measured}")
            now = time.monotonic() - started
            for failure in outcome.failures:
                if failure.signature() not in result.failures:
                    say(f"  web: {failure.signature()} at case {index} after {now:.1f} s: "
                        f"{failure.message[:200]}")
                result.add(case, failure, now)
            if not target.alive():
                target.start_gateway()
            if index % SAMPLE_EVERY == 0:
                result.threads_peak = max(result.threads_peak, target.threads())
            if time.monotonic() >= next_progress:
                next_progress += PROGRESS_EVERY_S
                say(f"  web: {result.cases:,} cases in {now:.0f} s, "
                    f"{sum(result.failures.values()):,} failures in {len(result.failures)} "
                    f"classes")
            index += 1
        result.elapsed = time.monotonic() - started
        time.sleep(1.0)
        result.threads_after, result.rss_after = target.threads(), target.rss_mib()
        result.gateway_starts = target.gateway_starts
    finally:
        target.stop()
    for signature, (failure, case) in result.examples.items():
        result.repros[signature] = web_repro.write(
            repro_dir, case, failure, signature, result.failures[signature], run_seed,
            settings, result.first_found[signature][1])
    return result
