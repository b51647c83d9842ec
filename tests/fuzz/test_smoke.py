"""Smoke run of both fuzz phases with fixed seeds: no failure may be found.

The full run is `make fuzz` (minutes); this is its small, fixed-seed slice for `make test`.
A failure here names its repro file; replay it with `python -m fuzz replay FILE`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz import report
from fuzz.grpc_phase import run_grpc
from fuzz.grpc_server import ServerSettings
from fuzz.inprocess import run_inprocess, write_repros
from fuzz.pipeline import Limits
from fuzz.seeds import Seed, all_seeds

SEED = 1
CASES = 2000
REQUESTS = 200


@pytest.fixture(scope="module")
def seeds() -> list[Seed]:
    """The corpus and one playout per setup, with views."""
    return all_seeds(SEED, games_per_setup=1)


def test_inprocess_smoke_finds_no_failure(seeds: list[Seed], tmp_path: Path) -> None:
    limits = Limits()
    result = run_inprocess(seeds, SEED, jobs=2, seconds=300, max_cases=CASES, limits=limits,
                           hang_seconds=2.0, say=lambda _: None)
    assert result.report.cases == CASES
    assert result.report.counts["ok"] > 0 and result.report.counts["rejected"] > 0
    if result.report.failures:
        write_repros(result, SEED, tmp_path, limits, 2.0, shrink_seconds=5, shrink_total=20)
    assert not result.report.failures, "\n".join(report.inprocess_lines(result, SEED))


def test_grpc_smoke_finds_no_failure(seeds: list[Seed], tmp_path: Path) -> None:
    result = run_grpc(seeds, SEED, seconds=300, max_requests=REQUESTS, threads=4,
                      settings=ServerSettings(), repro_dir=tmp_path, shrink_seconds=5,
                      shrink_total=20, say=lambda _: None, probes=False)
    assert result.requests == REQUESTS
    assert result.counts["OK"] > 0 and result.counts["INVALID_ARGUMENT"] > 0
    assert result.counts["UNAUTHENTICATED"] > 0  # the requests sent without the token
    assert not result.failures, "\n".join(report.grpc_lines(result))


def test_grpc_probes_find_no_failure(seeds: list[Seed], tmp_path: Path) -> None:
    from fuzz.grpc_probes import run_probes

    found = run_probes(ServerSettings(), tmp_path, seeds, long_streams=1, say=lambda _: None)
    assert not found.failures, "\n".join([*found.lines, *(str(f) for f, *_ in found.failures)])
    assert [line.split(":")[0] for line in found.lines] == [
        "long stream 0", "open streams", f"idle worker {found.lines[2].split()[2]} killed",
        "shutdown"]
