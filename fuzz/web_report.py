"""The web phase's part of the report and of `summary.json`."""

from __future__ import annotations

from typing import Any

from fuzz.repro import replay_command
from fuzz.web_phase import WebResult


def web_lines(result: WebResult) -> list[str]:
    """The web phase's part of the report."""
    s = result.settings
    width = max((len(k) for k in result.counts), default=0)
    lines = [
        f"== web phase: {result.cases:,} cases in {result.elapsed:.1f} s "
        f"({result.throughput:,.0f} cases/s, {result.bytes_sent / 1e6:,.1f} MB sent); server: "
        f"{s.workers} workers, --max-time-ms {s.max_time_ms:g}; gateway starts: "
        f"{result.gateway_starts}",
        "  by category: " + ", ".join(f"{c} {n:,}" for c, n in sorted(result.categories.items())),
        *[f"  {name:<{width}}  {n:>9,}" for name, n in result.counts.most_common()],
        f"  gateway RSS before {result.rss_before:.0f} MiB, after {result.rss_after:.0f} MiB; "
        f"threads before {result.threads_before}, after {result.threads_after}, "
        f"highest sampled {result.threads_peak}",
        *[f"  probe {line}" for line in result.probes[:12]],
    ]
    if len(result.probes) > 12:
        lines.append(f"  ({len(result.probes) - 12} more probes)")
    if result.failures:
        lines.append(f"  failure classes: {len(result.failures)}")
    for signature, n in result.failures.most_common():
        index, seconds = result.first_found[signature]
        lines.append(f"  {n:>7,}  {signature}  (first: case {index}, after {seconds:.1f} s)")
        lines.append(f"           {result.examples[signature][0].message[:160]}")
        if signature in result.repros:
            lines.append(f"           {replay_command(result.repros[signature])}")
    lines += [f"  note: {n}" for n in result.notes]
    return lines


def web_summary(result: WebResult) -> dict[str, Any]:
    """The web phase as a JSON object."""
    return {
        "cases": result.cases, "seconds": round(result.elapsed, 1),
        "cases_per_second": round(result.throughput, 1), "counts": dict(result.counts),
        "categories": dict(result.categories), "failures": dict(result.failures),
        "first_found": {k: {"case": i, "seconds": round(t, 1)}
                        for k, (i, t) in result.first_found.items()},
        "gateway_rss_mib_before": round(result.rss_before, 1),
        "gateway_rss_mib_after": round(result.rss_after, 1),
        "gateway_threads_before": result.threads_before,
        "gateway_threads_after": result.threads_after,
        "gateway_threads_peak_sampled": result.threads_peak,
        "probes": result.probes,
        "repros": {k: str(v) for k, v in result.repros.items()},
    }
