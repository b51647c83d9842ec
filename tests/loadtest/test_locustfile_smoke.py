"""Smoke run of the locustfile: a few seconds, two users, against a real local server."""

from __future__ import annotations

from pathlib import Path

from loadtest.corpus import CORPUS_DIR
from loadtest.names import RULES_RPCS, SHED_SUFFIX, search_name
from loadtest.scenarios import Scenario, run_locust
from loadtest.server_process import start_server


def test_locustfile_sends_every_kind_of_request_without_failures(tmp_path: Path) -> None:
    server = start_server(workers=1, queue=8, log_path=tmp_path / "server.log")
    scenario = Scenario(
        "smoke",
        ("PlayerUser", "OverloadUser"),
        users=2,
        spawn_rate=2.0,
        duration_s=4,
        presets=("beginner", "easy"),
        analyze_preset="beginner",
        overload_preset="beginner",
    )
    try:
        result = run_locust(scenario, server.address, tmp_path, CORPUS_DIR)
    finally:
        assert server.stop() == 0
    assert result.exceptions == 0
    assert result.total.failures == 0, result.failures
    names = {row.name for row in result.rows}
    known = {*RULES_RPCS, *(search_name(rpc, p) for rpc in ("ChooseMove", "Analyze")
                            for p in ("beginner", "easy"))}
    assert search_name("ChooseMove", "beginner") in names
    assert names <= known, names - known
    assert not any(name.endswith(SHED_SUFFIX) for name in names)
    assert result.html.is_file()
