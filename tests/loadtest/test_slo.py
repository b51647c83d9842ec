"""The objective checks of the load-test driver, on hand-made statistics."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from loadtest.scenarios import LocustResult, Scenario
from loadtest.slo import (
    SLO_FILE,
    Check,
    check_fault,
    check_load,
    check_overload,
    check_soak,
    load_slo,
)
from loadtest.stats import (
    Failure,
    Row,
    judged_percentiles,
    percentile,
    pooled,
    row_from_samples,
)

SLO = load_slo(SLO_FILE)


def row(name: str, p99: float, requests: int = 20, failures: int = 0) -> Row:
    return Row(name, requests, failures, 1.0, p99 / 2, p99 * 0.9, p99, p99)


def result(rows: list[Row], failures: list[Failure] | None = None, exceptions: int = 0,
           overload_preset: str = "medium") -> LocustResult:
    total = Row("Aggregated", sum(r.requests for r in rows), sum(r.failures for r in rows),
                1.0, 1.0, 1.0, 1.0, 1.0)
    scenario = Scenario("test", ("PlayerUser",), 2, 1.0, 5, overload_preset=overload_preset)
    return LocustResult(scenario, rows, total, failures or [], exceptions, Path("x.html"), 0)


def failed(checks: list[Check]) -> list[str]:
    return [c.objective for c in checks if not c.passed]


def test_percentile_is_nearest_rank() -> None:
    samples = [float(v) for v in range(1, 101)]
    assert percentile(samples, 0.5) == 50.0
    assert percentile(samples, 0.99) == 99.0
    assert percentile([7.0], 0.99) == 7.0
    assert math.isnan(percentile([], 0.5))


def test_load_p99_is_bounded_relative_to_the_baseline() -> None:
    baseline = {"ChooseMove hard": row("ChooseMove hard", 1000.0)}
    bound = SLO["load"]["p99_factor"] * 1000.0 + SLO["load"]["p99_slack_ms"]
    assert failed(check_load(result([row("ChooseMove hard", bound)]), baseline, SLO)) == []
    slow = check_load(result([row("ChooseMove hard", bound + 1)]), baseline, SLO)
    assert failed(slow) == ["ChooseMove hard p99"]


def test_load_fails_on_any_failure_or_task_exception() -> None:
    baseline = {"NewGame": row("NewGame", 2.0)}
    assert failed(check_load(result([row("NewGame", 2.0, failures=1)]), baseline, SLO)) == [
        "failures"
    ]
    broken = check_load(result([row("NewGame", 2.0)], exceptions=3), baseline, SLO)
    assert failed(broken) == ["locustfile ran without errors"]


def test_overload_needs_quick_shedding_and_bounded_accepted_latency() -> None:
    baseline = {"ChooseMove medium": row("ChooseMove medium", 300.0)}
    shed = Failure("ChooseMove medium (shed)", "RESOURCE_EXHAUSTED: busy", 50)
    good = result(
        [row("ChooseMove medium", 900.0), row("ChooseMove medium (shed)", 10.0, 50, 50)], [shed]
    )
    assert failed(check_overload(good, baseline, SLO, workers=2, queue=2)) == []
    slow_shed = result(
        [row("ChooseMove medium", 900.0), row("ChooseMove medium (shed)", 500.0, 50, 50)], [shed]
    )
    assert failed(check_overload(slow_shed, baseline, SLO, 2, 2)) == ["shed answered quickly"]
    not_shed = result([row("ChooseMove medium", 900.0)])
    assert failed(check_overload(not_shed, baseline, SLO, 2, 2)) == ["load was shed"]
    timeout = Failure("ChooseMove medium", "DEADLINE_EXCEEDED: late", 1)
    silent = result(
        [
            row("ChooseMove medium", 900.0, failures=1),
            row("ChooseMove medium (shed)", 10.0, 50, 50),
        ],
        [shed, timeout],
    )
    assert failed(check_overload(silent, baseline, SLO, 2, 2)) == [
        "no other failures (no silent timeouts)"
    ]


def test_overload_accepted_bound_allows_one_queued_search_per_worker() -> None:
    baseline = {"ChooseMove medium": row("ChooseMove medium", 300.0)}
    goals = SLO["overload"]
    bound = goals["accepted_noise_factor"] * 2 * 300.0 + goals["accepted_p99_slack_ms"]
    shed = row("ChooseMove medium (shed)", 10.0, 50, 50)
    at_bound = result([row("ChooseMove medium", bound), shed])
    assert failed(check_overload(at_bound, baseline, SLO, 2, 2)) == []
    over = result([row("ChooseMove medium", bound + 1), shed])
    assert failed(check_overload(over, baseline, SLO, 2, 2)) == ["accepted keep their latency"]


TOO_MUCH_MIB = SLO["soak"]["max_rss_growth_mib"] + 1


@pytest.mark.parametrize(("growth", "ok"), [(0.0, True), (TOO_MUCH_MIB, False)])
def test_soak_bounds_memory_growth(growth: float, ok: bool) -> None:
    checks = check_soak(result([row("NewGame", 2.0)]), 100.0, 100.0 + growth, SLO)
    assert failed(checks) == ([] if ok else ["memory growth"])


def test_fault_allows_one_unavailable_per_killed_worker() -> None:
    unavailable = Failure("ChooseMove hard", "UNAVAILABLE: the search worker stopped", 1)
    one = result([row("ChooseMove hard", 900.0, failures=1)], [unavailable])
    assert failed(check_fault(one, 1, 2.0, True, SLO)) == []
    two = result([row("ChooseMove hard", 900.0, failures=2)],
                 [Failure("ChooseMove hard", "UNAVAILABLE: x", 2)])
    assert failed(check_fault(two, 1, 2.0, True, SLO)) == ["errors limited to requests in flight"]
    internal = result([row("ChooseMove hard", 900.0, failures=1)],
                      [Failure("ChooseMove hard", "INTERNAL: boom", 1)])
    assert failed(check_fault(internal, 1, 2.0, True, SLO)) == ["only allowed error codes"]
    assert failed(check_fault(one, 1, None, True, SLO)) == ["recovered"]
    assert failed(check_fault(one, 1, 2.0, False, SLO)) == ["recovered"]
    assert "a worker was killed mid-load" in failed(check_fault(one, 0, 2.0, True, SLO))


def test_small_samples_are_judged_at_a_percentile_both_resolve() -> None:
    base = row_from_samples("x", [100.0] * 9 + [1000.0], 0, 1.0)
    load = row_from_samples("x", [100.0] * 19 + [5000.0], 0, 1.0)
    assert judged_percentiles(load, base) == (0.9, 100.0, 100.0)
    big_base = row_from_samples("x", [10.0] * 200, 0, 1.0)
    big_load = row_from_samples("x", [10.0] * 198 + [50.0, 60.0], 0, 1.0)
    assert judged_percentiles(big_load, big_base) == (0.99, 10.0, 10.0)


def test_pooled_baseline_keeps_every_sample() -> None:
    first = row_from_samples("x", [1.0, 2.0], 1, 1.0)
    second = row_from_samples("x", [3.0], 0, 1.0)
    both = pooled(first, second)
    assert sorted(both.samples) == [1.0, 2.0, 3.0]
    assert (both.requests, both.failures, both.max_ms) == (3, 1, 3.0)
