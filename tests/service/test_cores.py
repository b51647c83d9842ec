"""The default worker count follows the usable cores, container CPU quota included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardbot.jobs.cores import available_cores, cgroup_quota


@pytest.mark.parametrize(
    ("text", "quota"),
    [("max 100000", None), ("150000 100000", 1.5), ("50000 100000", 0.5), ("junk", None)],
)
def test_cgroup_quota(tmp_path: Path, text: str, quota: float | None) -> None:
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text(text + "\n")
    assert cgroup_quota(cpu_max) == quota
    assert cgroup_quota(tmp_path / "absent") is None


def test_available_cores_respects_affinity_and_quota(tmp_path: Path) -> None:
    affinity = len(os.sched_getaffinity(0))
    unlimited = tmp_path / "unlimited"
    unlimited.write_text("max 100000\n")
    assert available_cores(unlimited) == affinity
    half = tmp_path / "half"
    half.write_text("50000 100000\n")
    assert available_cores(half) == 1  # a fraction of a core still gets one worker
    many = tmp_path / "many"
    many.write_text(f"{(affinity + 8) * 100000} 100000\n")
    assert available_cores(many) == affinity
