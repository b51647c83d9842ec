"""A few seconds of the web phase against the real gateway and server, and each probe once.

The full run is `python -m fuzz --phases web` (or part of `make fuzz`); this is its small,
fixed-seed slice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fuzz.web_cases import STREAM_PROBE_AT, WebCase, WebCaseFactory
from fuzz.web_phase import run_web
from fuzz.web_report import web_lines
from fuzz.web_run import run_case
from fuzz.web_target import WebSettings, WebTarget

SEED = 1
CASES = 120


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebTarget]:
    running = WebTarget(WebSettings(workers=1), tmp_path_factory.mktemp("web"))
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_web_smoke_finds_no_failure(tmp_path: Path) -> None:
    result = run_web(SEED, seconds=120, max_cases=CASES, settings=WebSettings(workers=1),
                     repro_dir=tmp_path, say=lambda _: None)
    assert result.cases == CASES
    assert result.counts["200"] > 0 and result.counts["400"] > 0
    assert result.threads_before > 0 and result.rss_before > 0
    assert not result.failures, "\n".join(web_lines(result))
    assert not list(tmp_path.glob("web-*.json"))


def test_an_abandoned_stream_frees_its_worker(target: WebTarget) -> None:
    factory = WebCaseFactory(SEED, stream_ms=target.settings.max_time_ms - 1000)
    stream = factory.case(STREAM_PROBE_AT)
    assert stream.category == "stream"
    result = run_case(target, stream)
    assert result.outcome == "probe-ok", (result.measured, result.failures)


def test_idle_sockets_are_closed_and_cost_few_threads(target: WebTarget) -> None:
    idle = WebCase(0, "idle", "idle-sockets", params={
        "sockets": 80, "mode": "partial-headers", "wait_s": 7.0, "max_threads": 100})
    result = run_case(target, idle)
    assert result.outcome == "probe-ok", (result.measured, result.failures)
