"""The printed summary of a load-test run, and its JSON record."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from loadtest.scenarios import LocustResult
from loadtest.slo import Check
from loadtest.stats import Row

_HEADER = f"{'request':<26}{'reqs':>7}{'fails':>7}{'req/s':>8}{'p50':>8}{'p95':>8}{'p99':>8}"


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def _line(row: Row, baseline: Row | None = None) -> str:
    text = (
        f"{row.name:<26}{row.requests:>7}{row.failures:>7}"
        f"{'-' if math.isnan(row.rps) else f'{row.rps:.2f}':>8}"
        f"{_ms(row.p50_ms):>8}{_ms(row.p95_ms):>8}{_ms(row.p99_ms):>8}"
    )
    if baseline is not None:
        text += f"{_ms(baseline.p99_ms):>10}"
    return text


def baseline_table(rows: dict[str, Row]) -> str:
    """The unloaded baseline as a table (latencies in ms)."""
    lines = [_HEADER, *(_line(row) for row in rows.values())]
    return "\n".join(lines)


def result_table(result: LocustResult, baseline: dict[str, Row]) -> str:
    """A scenario's rows beside the unloaded p99 of the same request name (ms)."""
    lines = [_HEADER + f"{'unloaded':>10}"]
    lines += [_line(row, baseline.get(row.name)) for row in result.rows]
    lines.append(_line(result.total))
    if result.failures:
        lines.append("failures:")
        lines += [f"  {f.occurrences:>5} x {f.name}: {f.error[:90]}" for f in result.failures]
    return "\n".join(lines)


def scenario_heading(result: LocustResult, workers: int, queue: int) -> str:
    """One line saying what ran."""
    s = result.scenario
    return (
        f"== {s.name}: {s.users} {'+'.join(s.user_classes)} users (+{s.spawn_rate:g}/s), "
        f"{s.duration_s} s, server {workers} workers / queue {queue}; HTML report {result.html}"
    )


def markdown_table(rows: list[Row], baseline: dict[str, Row] | None = None) -> str:
    """Rows as a Markdown table (latencies in ms), with the unloaded p99 when given."""
    head = "| request | requests | failures | req/s | p50 | p95 | p99 |"
    rule = "|---|---:|---:|---:|---:|---:|---:|"
    if baseline is not None:
        head, rule = head + " unloaded p99 |", rule + "---:|"
    lines = [head, rule]
    for row in rows:
        rps = "-" if math.isnan(row.rps) else f"{row.rps:.2f}"
        line = (
            f"| {row.name} | {row.requests} | {row.failures} | {rps} | {_ms(row.p50_ms)} "
            f"| {_ms(row.p95_ms)} | {_ms(row.p99_ms)} |"
        )
        if baseline is not None:
            base = baseline.get(row.name)
            line += f" {_ms(base.p99_ms) if base else '-'} |"
        lines.append(line)
    return "\n".join(lines)


def checks_text(checks: Iterable[Check]) -> str:
    """One PASS/FAIL line per objective."""
    return "\n".join(
        f"{'PASS' if c.passed else 'FAIL'}  {c.scenario}: {c.objective} — {c.detail}"
        for c in checks
    )


def write_summary(path: Path, record: dict[str, Any]) -> None:
    """Store the run's figures and verdicts as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, default=_jsonable) + "\n", encoding="utf-8")


def _jsonable(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Row):
        return {k: v for k, v in asdict(value).items() if k != "samples"}
    if hasattr(value, "__dataclass_fields__"):
        return asdict(value)
    raise TypeError(f"cannot store {type(value).__name__} as JSON")
