"""How many cores this process may use: CPU affinity and a cgroup v2 quota (containers)."""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def available_cores(cpu_max: Path = CGROUP_CPU_MAX) -> int:
    """Cores usable here: the affinity mask, lowered by a cgroup CPU quota when one is set."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = cgroup_quota(cpu_max)
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def cgroup_quota(cpu_max: Path = CGROUP_CPU_MAX) -> float | None:
    """The cgroup v2 CPU quota in cores (`docker run --cpus`), or None when unlimited/unknown."""
    try:
        fields = cpu_max.read_text().split()
    except OSError:
        return None
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None
