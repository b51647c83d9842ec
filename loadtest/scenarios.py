"""The load scenarios and how one is run: locust headless in a child process, CSV and HTML out."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from loadtest.stats import (
    Failure,
    Row,
    read_exception_count,
    read_failures_csv,
    read_samples_file,
    read_stats_csv,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"
STOP_TIMEOUT_S = 15
"""Seconds users get to finish the request in flight when the run time is up."""


PLAYER = ("PlayerUser",)
OVERLOAD = ("OverloadUser",)


@dataclass(frozen=True)
class Scenario:
    """One bounded locust run: which users, how many, how fast they arrive, for how long."""

    name: str
    user_classes: tuple[str, ...]
    users: int
    spawn_rate: float
    duration_s: int
    presets: tuple[str, ...] = ("beginner", "easy", "medium", "hard")
    analyze_preset: str = "easy"
    overload_preset: str = "hard"


@dataclass(frozen=True)
class LocustResult:
    """What a locust run reported: exact rows per request name, the aggregate, failure kinds."""

    scenario: Scenario
    rows: list[Row]
    total: Row
    failures: list[Failure]
    exceptions: int
    html: Path
    returncode: int

    def row(self, name: str) -> Row | None:
        """The row of requests called `name`, if any were made."""
        return next((r for r in self.rows if r.name == name), None)


def standard_scenarios(workers: int, scale: float = 1.0) -> dict[str, Scenario]:
    """Load, overload, soak and fault scenarios for a server with `workers` search workers."""

    def seconds(base: float) -> int:
        return max(5, round(base * scale))

    return {
        "load": Scenario("load", PLAYER, workers, 1.0, seconds(30)),
        "overload": Scenario("overload", OVERLOAD, 8 * workers, 4.0 * workers, seconds(25)),
        "soak": Scenario(
            "soak", PLAYER, workers, 2.0, seconds(45), presets=("beginner", "easy", "medium")
        ),
        "fault": Scenario("fault", PLAYER, workers, 2.0, seconds(25), presets=("hard", "expert")),
    }


def locust_command(scenario: Scenario, address: str, prefix: Path, corpus: Path) -> list[str]:
    """The headless locust command line of `scenario` against `address`."""
    return [
        sys.executable, "-m", "locust",
        "-f", str(LOCUSTFILE),
        "--headless", "--only-summary", "--loglevel", "WARNING",
        "-u", str(scenario.users), "-r", str(scenario.spawn_rate),
        "-t", f"{scenario.duration_s}s", "--stop-timeout", str(STOP_TIMEOUT_S),
        "--host", address,
        "--csv", str(prefix), "--html", f"{prefix}.html",
        "--samples-file", f"{prefix}_samples.jsonl",
        "--corpus", str(corpus),
        "--presets", ",".join(scenario.presets),
        "--analyze-preset", scenario.analyze_preset,
        "--overload-preset", scenario.overload_preset,
        *scenario.user_classes,
    ]


def run_locust(scenario: Scenario, address: str, out_dir: Path, corpus: Path) -> LocustResult:
    """Run `scenario` to its end (bounded by its duration) and read back its statistics."""
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = out_dir / scenario.name
    command = locust_command(scenario, address, prefix, corpus)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    limit_s = scenario.duration_s + STOP_TIMEOUT_S + 90
    with (out_dir / f"{scenario.name}_locust.log").open("wb") as log:
        completed = subprocess.run(
            command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            timeout=limit_s, check=False,
        )
    stats_csv = Path(f"{prefix}_stats.csv")
    if not stats_csv.is_file():
        raise RuntimeError(f"locust wrote no statistics (exit {completed.returncode}); "
                           f"see {out_dir / (scenario.name + '_locust.log')}")
    _, locust_total = read_stats_csv(stats_csv)
    rows, total = read_samples_file(Path(f"{prefix}_samples.jsonl"), scenario.duration_s)
    # locust's CSV is a snapshot written every second, so it may miss the last requests
    # (the samples file is written at exit); it can never hold more than the samples.
    if total.requests < locust_total.requests or total.failures < locust_total.failures:
        raise RuntimeError(
            f"{prefix}_samples.jsonl holds {total.requests} requests ({total.failures} failed) "
            f"but locust's CSV already counted {locust_total.requests} "
            f"({locust_total.failures} failed)"
        )
    failures = read_failures_csv(Path(f"{prefix}_failures.csv"))
    exceptions = read_exception_count(Path(f"{prefix}_exceptions.csv"))
    return LocustResult(scenario, rows, total, failures, exceptions, Path(f"{prefix}.html"),
                        completed.returncode)
