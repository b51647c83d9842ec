"""A short failover run: three replicas behind HAProxy under load, one killed, one rolled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loadtest import scaleout
from loadtest.proxy import find_haproxy

pytestmark = [
    pytest.mark.skipif(find_haproxy() is None,
                       reason="haproxy is not installed (Debian: apt-get install haproxy)"),
    # Heavy: one test worker runs it after the browser and Ray tests, not beside them.
    pytest.mark.xdist_group("browser_and_ray"),
]


def test_a_kill_and_a_rolling_restart_behind_haproxy_meet_the_goals(tmp_path: Path) -> None:
    code = scaleout.main([
        "--replicas", "3", "--users", "4", "--warmup", "2", "--seconds", "3",
        "--dead-seconds", "1", "--rolls", "1", "--presets", "easy,medium", "--out", str(tmp_path),
    ])
    summary = tmp_path / "summary.md"
    assert summary.is_file(), f"the run broke off (exit {code})"
    assert code == 0, summary.read_text()
    record = json.loads((tmp_path / "summary.json").read_text())
    assert [check["passed"] for check in record["checks"]] == [True] * len(record["checks"])
    phases = {row["phase"] for row in record["rows"]}
    assert {"before", "after restart", "after"} <= phases
    assert any(p.startswith("kill r") for p in phases) and "roll r1" in phases
    # Load ran through every phase, so each goal was judged on calls.
    for phase in phases - {"warm-up"}:
        calls = sum(row["calls"] for row in record["rows"] if row["phase"] == phase)
        assert calls > 0, phase
    kill, roll = record["events"]
    assert kill["event"] == "SIGKILL" and roll == {**roll, "event": "SIGTERM", "exit_code": 0}
    # Every failed attempt around the kill came back UNAVAILABLE with the text the client saw.
    assert all(text.startswith("UNAVAILABLE: ") and len(text) > len("UNAVAILABLE: ")
               for text in record["kill_details_seen"])
