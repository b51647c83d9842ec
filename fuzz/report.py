"""The run's report: outcome counts per phase and category, measurements, failure classes."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fuzz.grpc_phase import GrpcResult
from fuzz.inprocess import InprocessResult
from fuzz.repro import replay_command


def _table(counts: Counter[str], indent: str = "  ") -> list[str]:
    width = max((len(k) for k in counts), default=0)
    return [f"{indent}{name:<{width}}  {n:>9,}" for name, n in counts.most_common()]


def _failures(failures: Counter[str], repros: Mapping[str, Path]) -> list[str]:
    lines = []
    for signature, n in failures.most_common():
        lines.append(f"  {n:>7,}  {signature}")
        if signature in repros:
            lines.append(f"           {replay_command(repros[signature])}")
    return lines


def inprocess_lines(result: InprocessResult, run_seed: int) -> list[str]:
    """The in-process phase's part of the report."""
    report = result.report
    lines = [
        f"== in-process phase: {report.cases:,} cases in {result.elapsed:.1f} s "
        f"({result.throughput:,.0f} cases/s on {result.jobs} processes), seed {run_seed}",
        *_table(report.counts),
    ]
    if report.failures:
        lines.append(f"  failure classes: {len(report.failures)} (shrinking ran "
                     f"{result.shrink_tests} tests)")
        lines += _failures(report.failures, result.repros)
    lines += [f"  note: {n}" for n in result.notes]
    return lines


def _rss(sizes: Mapping[str, float]) -> str:
    if not sizes:
        return "-"
    total = sum(sizes.values())
    parts = ", ".join(f"{k} {v:.0f}" for k, v in sizes.items())
    return f"{total:.0f} MiB ({parts})"


def _threads(counts: Mapping[str, int]) -> str:
    if not counts:
        return "-"
    return ", ".join(f"{k} {v}" for k, v in counts.items())


def grpc_lines(result: GrpcResult) -> list[str]:
    """The gRPC phase's part of the report."""
    s = result.settings
    lines = [
        f"== gRPC phase: {result.requests:,} requests in {result.elapsed:.1f} s "
        f"({result.throughput:,.0f} requests/s from {result.threads} threads); server: "
        f"{s.workers} workers, queue {s.queue}, --max-time-ms {s.max_time_ms:g}, "
        f"--max-message-bytes {s.max_message_bytes}",
        "  by method: " + ", ".join(f"{m} {n:,}" for m, n in sorted(result.methods.items())),
        *_table(result.counts),
        f"  memory (RSS) before: {_rss(result.rss_before)}",
        f"  memory (RSS) after:  {_rss(result.rss_after)}",
        f"  threads before: {_threads(result.threads_before)}; after: "
        f"{_threads(result.threads_after)}",
        f"  worker restarts: {result.restarts:g}; worker pids before {result.pids_before}, "
        f"after {result.pids_after}; servers started: {result.server_starts}",
        f"  longest time a request took past its deadline: {result.longest_past_deadline:.3f} s"
        + (f" (request {result.longest_request})" if result.longest_request >= 0 else ""),
        f"  longest time a long stream ran past its time limit: "
        f"{result.longest_past_limit:.3f} s",
        *(f"  probe: {line}" for line in result.probe_lines),
    ]
    if result.failures:
        lines.append(f"  failure classes: {len(result.failures)} (shrinking ran "
                     f"{result.shrink_tests} requests)")
        lines += _failures(result.failures, result.repros)
    lines += [f"  note: {n}" for n in result.notes]
    return lines


def summary(
    inprocess: InprocessResult | None, grpc: GrpcResult | None, run_seed: int
) -> dict[str, Any]:
    """The run as a JSON object (written next to the repros)."""
    body: dict[str, Any] = {"seed": run_seed}
    if inprocess is not None:
        body["inprocess"] = {
            "cases": inprocess.report.cases, "seconds": round(inprocess.elapsed, 1),
            "cases_per_second": round(inprocess.throughput, 1),
            "counts": dict(inprocess.report.counts), "failures": dict(inprocess.report.failures),
            "repros": {k: str(v) for k, v in inprocess.repros.items()},
            "first_found_s": inprocess.found_at,
        }
    if grpc is not None:
        body["grpc"] = {
            "requests": grpc.requests, "seconds": round(grpc.elapsed, 1),
            "requests_per_second": round(grpc.throughput, 1), "counts": dict(grpc.counts),
            "failures": dict(grpc.failures), "rss_mib_before": grpc.rss_before,
            "rss_mib_after": grpc.rss_after, "worker_restarts": grpc.restarts,
            "longest_past_deadline_s": round(grpc.longest_past_deadline, 3),
            "repros": {k: str(v) for k, v in grpc.repros.items()},
            "first_found_s": grpc.found_at, "threads_before": grpc.threads_before,
            "threads_after": grpc.threads_after, "probes": grpc.probe_lines,
            "longest_past_limit_s": round(grpc.longest_past_limit, 3),
        }
    return body


def write_summary(directory: Path, body: dict[str, Any]) -> Path:
    """Write `summary.json` into the repro directory."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "summary.json"
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return path
