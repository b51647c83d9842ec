"""Latency statistics: exact percentiles of samples, and rows read from locust's CSV output."""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Row:
    """Counts, throughput and latency (ms) of the requests sharing one name."""

    name: str
    requests: int
    failures: int
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    samples: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """Every latency (ms) behind the figures, when they were computed exactly."""


@dataclass(frozen=True)
class Failure:
    """One kind of failure: the request name, the `CODE: details` text, how often it came."""

    name: str
    error: str
    occurrences: int

    @property
    def code(self) -> str:
        """The gRPC status code name the error text starts with."""
        return self.error.split(":", 1)[0].strip()


def percentile(samples: list[float], fraction: float) -> float:
    """The nearest-rank percentile of `samples` (fraction in (0, 1]); NaN when empty."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def judged_percentiles(
    measured: Row, baseline: Row, wanted: float = 0.99
) -> tuple[float, float, float]:
    """The percentile both rows' samples resolve, and each row's value at it.

    That is `wanted`, unless the smaller sample has fewer than 1 / (1 - wanted) requests: then
    (n - 1) / n of it, so a small sample is never judged by its single largest value against
    a larger sample's (the larger a sample, the larger its maximum). Rows without samples are
    judged by their stored p99.
    """
    n = min(len(measured.samples), len(baseline.samples))
    if n == 0:
        return 0.99, measured.p99_ms, baseline.p99_ms
    fraction = min(wanted, (n - 1) / n) if n > 1 else 1.0
    return fraction, percentile(list(measured.samples), fraction), percentile(
        list(baseline.samples), fraction
    )


def row_from_samples(name: str, samples_ms: list[float], failures: int, seconds: float) -> Row:
    """A row computed exactly from every sample of one name."""
    return Row(
        name=name,
        requests=len(samples_ms),
        failures=failures,
        rps=len(samples_ms) / seconds if seconds > 0 else math.nan,
        p50_ms=percentile(samples_ms, 0.50),
        p95_ms=percentile(samples_ms, 0.95),
        p99_ms=percentile(samples_ms, 0.99),
        max_ms=max(samples_ms, default=math.nan),
        samples=tuple(samples_ms),
    )


def pooled(first: Row, second: Row) -> Row:
    """One row from the samples of two rows of the same name (e.g. two baselines)."""
    return row_from_samples(
        first.name, [*first.samples, *second.samples], first.failures + second.failures, 0.0
    )


def read_samples_file(path: Path, seconds: float) -> tuple[list[Row], Row]:
    """Exact per-name rows and the aggregate from JSON lines `[name, ms, status]`."""
    times: dict[str, list[float]] = defaultdict(list)
    failures: dict[str, int] = defaultdict(int)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            name, ms, status = json.loads(line)
            times[str(name)].append(float(ms))
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a [name, ms, status] sample: {error}") from None
        failures[str(name)] += status != "OK"
    rows = [row_from_samples(n, times[n], failures[n], seconds) for n in sorted(times)]
    every = [ms for n in sorted(times) for ms in times[n]]
    return rows, row_from_samples("Aggregated", every, sum(failures.values()), seconds)


def _number(text: str) -> float:
    return math.nan if text in ("", "N/A") else float(text)


def read_stats_csv(path: Path) -> tuple[list[Row], Row]:
    """Per-name rows and the aggregated row of a locust `*_stats.csv` file."""
    rows: list[Row] = []
    total: Row | None = None
    with path.open(newline="", encoding="utf-8") as handle:
        for record in csv.DictReader(handle):
            row = Row(
                name=record["Name"],
                requests=int(record["Request Count"]),
                failures=int(record["Failure Count"]),
                rps=_number(record["Requests/s"]),
                p50_ms=_number(record["50%"]),
                p95_ms=_number(record["95%"]),
                p99_ms=_number(record["99%"]),
                max_ms=_number(record["Max Response Time"]),
            )
            if record["Name"] == "Aggregated":
                total = row
            else:
                rows.append(row)
    if total is None:
        raise ValueError(f"{path}: no Aggregated row; not a locust stats file")
    return rows, total


def read_failures_csv(path: Path) -> list[Failure]:
    """The failure kinds of a locust `*_failures.csv` file."""
    with path.open(newline="", encoding="utf-8") as handle:
        return [
            Failure(record["Name"], record["Error"], int(record["Occurrences"]))
            for record in csv.DictReader(handle)
        ]


def read_exception_count(path: Path) -> int:
    """How many exceptions the locustfile's tasks raised, from a locust `*_exceptions.csv`."""
    with path.open(newline="", encoding="utf-8") as handle:
        return sum(int(record["Count"]) for record in csv.DictReader(handle))
