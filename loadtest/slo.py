"""The service-level objectives of loadtest/slo.toml and their checks against measured runs."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loadtest.names import SHED_SUFFIX
from loadtest.scenarios import LocustResult
from loadtest.stats import Row, judged_percentiles

SLO_FILE = Path(__file__).resolve().parent / "slo.toml"

REQUIRED: dict[str, tuple[str, ...]] = {
    "load": ("p99_factor", "p99_slack_ms", "max_failures"),
    "overload": (
        "min_shed_share", "shed_p99_ms", "accepted_noise_factor", "accepted_p99_slack_ms",
        "max_other_failures",
    ),
    "soak": ("max_rss_growth_mib", "max_failures"),
    "fault": ("max_failures_per_kill", "allowed_codes", "recovery_s"),
}
"""Every objective the checks read, by scenario."""


@dataclass(frozen=True)
class Check:
    """One objective checked: where, what, whether it held, and the figures behind it."""

    scenario: str
    objective: str
    passed: bool
    detail: str


def load_slo(path: Path = SLO_FILE) -> dict[str, dict[str, Any]]:
    """The objectives by scenario; ValueError naming the first missing one."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    for section, keys in REQUIRED.items():
        table = data.get(section)
        if not isinstance(table, dict):
            raise ValueError(f"{path}: missing table [{section}]")
        for key in keys:
            if key not in table:
                raise ValueError(f"{path}: [{section}] misses {key}")
    return data


def _label(fraction: float) -> str:
    """`p99`, `p95`, ... for a percentile given as a fraction."""
    return f"p{fraction * 100:.3g}"


def check_no_errors(result: LocustResult) -> Check:
    """The locustfile itself raised nothing (a broken task would silently send less load)."""
    name = result.scenario.name
    return Check(name, "locustfile ran without errors", result.exceptions == 0,
                 f"{result.exceptions} task exceptions")


def check_baseline(baseline: dict[str, Row]) -> list[Check]:
    """Every baseline request succeeded (a baseline of errors measures nothing)."""
    failed = {name: row.failures for name, row in baseline.items() if row.failures}
    return [Check("baseline", "no failures", not failed, f"failures {failed or 0}")]


def check_load(result: LocustResult, baseline: dict[str, Row], slo: dict[str, Any]) -> list[Check]:
    """p99 per request name within the bound relative to the baseline, and no failures."""
    goals = slo["load"]
    checks = [check_no_errors(result)]
    for row in result.rows:
        base = baseline.get(row.name)
        if base is None or math.isnan(row.p99_ms):
            continue
        fraction, loaded_ms, base_ms = judged_percentiles(row, base)
        label = _label(fraction)
        bound = goals["p99_factor"] * base_ms + goals["p99_slack_ms"]
        checks.append(Check(
            "load", f"{row.name} {label}", loaded_ms <= bound,
            f"{loaded_ms:.0f} ms <= {bound:.0f} ms ({goals['p99_factor']} x unloaded "
            f"{base_ms:.0f} + {goals['p99_slack_ms']:.0f}; n={row.requests} vs {base.requests})",
        ))
    failures = result.total.failures
    checks.append(Check("load", "failures", failures <= goals["max_failures"],
                        f"{failures} of {result.total.requests} <= {goals['max_failures']}"))
    return checks


def check_overload(
    result: LocustResult, baseline: dict[str, Row], slo: dict[str, Any], workers: int, queue: int
) -> list[Check]:
    """Excess load shed quickly, accepted requests within their bound, no other failures."""
    goals = slo["overload"]
    name = f"ChooseMove {result.scenario.overload_preset}"
    accepted, shed, base = result.row(name), result.row(name + SHED_SUFFIX), baseline.get(name)
    n_accepted = accepted.requests - accepted.failures if accepted else 0
    n_shed = shed.requests if shed else 0
    share = n_shed / max(1, n_accepted + n_shed)
    checks = [
        check_no_errors(result),
        Check("overload", "load was shed", share >= goals["min_shed_share"],
              f"{n_shed} shed of {n_accepted + n_shed} ({share:.0%}) >= "
              f"{goals['min_shed_share']:.0%}"),
    ]
    if shed is not None:
        quick = shed.p99_ms <= goals["shed_p99_ms"]
        checks.append(Check("overload", "shed answered quickly", quick,
                            f"shed p99 {shed.p99_ms:.0f} ms <= {goals['shed_p99_ms']:.0f} ms"))
    if accepted is not None and base is not None:
        waits = 1 + math.ceil(queue / workers)
        noise, slack = goals["accepted_noise_factor"], goals["accepted_p99_slack_ms"]
        fraction, loaded_ms, base_ms = judged_percentiles(accepted, base)
        bound = noise * waits * base_ms + slack
        checks.append(Check(
            "overload", "accepted keep their latency", loaded_ms <= bound,
            f"accepted {_label(fraction)} {loaded_ms:.0f} ms <= {bound:.0f} ms "
            f"({noise} x {waits} x unloaded {base_ms:.0f} + {slack:.0f}; "
            f"n={accepted.requests} vs {base.requests})",
        ))
    else:
        checks.append(Check("overload", "accepted keep their latency", False,
                            f"no accepted {name} requests or no baseline for them"))
    other = sum(f.occurrences for f in result.failures if f.code != "RESOURCE_EXHAUSTED")
    kinds = sorted({f.code for f in result.failures if f.code != "RESOURCE_EXHAUSTED"})
    checks.append(Check("overload", "no other failures (no silent timeouts)",
                        other <= goals["max_other_failures"],
                        f"{other} failures other than RESOURCE_EXHAUSTED {kinds or ''}".rstrip()))
    return checks


def check_soak(
    result: LocustResult, before_mib: float, after_mib: float, slo: dict[str, Any]
) -> list[Check]:
    """Memory growth of server plus workers within the bound, and no failures."""
    goals = slo["soak"]
    growth = after_mib - before_mib
    return [
        check_no_errors(result),
        Check("soak", "memory growth", growth <= goals["max_rss_growth_mib"],
              f"{before_mib:.1f} -> {after_mib:.1f} MiB: {growth:+.1f} <= "
              f"{goals['max_rss_growth_mib']:.0f} MiB"),
        Check("soak", "failures", result.total.failures <= goals["max_failures"],
              f"{result.total.failures} of {result.total.requests} <= {goals['max_failures']}"),
    ]


def check_fault(
    result: LocustResult, killed: int, recovery_s: float | None, probe_ok: bool,
    slo: dict[str, Any],
) -> list[Check]:
    """Failures limited to the killed workers' requests, allowed codes only, quick recovery."""
    goals = slo["fault"]
    allowed = set(goals["allowed_codes"])
    failures = result.total.failures
    codes = sorted({f.code for f in result.failures})
    limit = goals["max_failures_per_kill"] * killed
    recovered = recovery_s is not None and recovery_s <= goals["recovery_s"]
    return [
        check_no_errors(result),
        Check("fault", "a worker was killed mid-load", killed >= 1, f"{killed} killed"),
        Check("fault", "errors limited to requests in flight", failures <= limit,
              f"{failures} failures <= {limit}"),
        Check("fault", "only allowed error codes", set(codes) <= allowed,
              f"codes {codes or 'none'} within {sorted(allowed)}"),
        Check("fault", "recovered", recovered and probe_ok,
              f"every worker searching again after "
              f"{'never' if recovery_s is None else f'{recovery_s:.1f} s'} "
              f"(<= {goals['recovery_s']:.0f} s); probe request "
              f"{'answered' if probe_ok else 'FAILED'}"),
    ]
