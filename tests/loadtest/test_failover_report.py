"""The failover run's accounting and goals, on hand-made traces and proxy figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loadtest.failover_report import (
    Attempt,
    Call,
    Phase,
    check_kill,
    check_retrying,
    check_rolls,
    check_steady,
    failed_attempts,
    phase_rows,
    read_trace,
    unanswered_calls,
)
from loadtest.proxy import ProxyLogLine, ServerState, read_proxy_log

KILL_AT = 100.0
PHASES = [
    Phase("before", 90.0, KILL_AT, "steady"),
    Phase("kill r2", KILL_AT, 110.0, "kill"),
    Phase("roll r1", 110.0, 120.0, "roll"),
]


def attempt(request_id: str, start: float, end: float, code: str = "OK",
            details: str = "") -> Attempt:
    return Attempt(request_id, start, end, code, details)


def call(client: str, *attempts: Attempt, name: str = "ChooseMove easy") -> Call:
    return Call(client, name, attempts)


def logged(request_id: str, server: str) -> ProxyLogLine:
    return ProxyLogLine(request_id, server, 200, "----", "0", 5)


CUT = "Stream removed (RST_STREAM (Received RST_STREAM with error code 7))"


def test_calls_count_in_the_phase_they_ended_in_with_retries_in_their_latency() -> None:
    calls = [
        call("plain", attempt("a", 95.0, 96.0)),
        call("plain", attempt("b", 99.9, 100.1, "UNAVAILABLE", CUT)),
        call("retrying", attempt("c1", 99.5, 100.1, "UNAVAILABLE", CUT),
             attempt("c2", 100.3, 100.5)),
    ]
    rows = {(r.phase, r.client): r for r in phase_rows(calls, PHASES)}
    assert rows["before", "plain"].calls == 1
    assert rows["kill r2", "plain"].failures_by_code == {"UNAVAILABLE": 1}
    retrying = rows["kill r2", "retrying"]
    assert (retrying.calls, retrying.failed, retrying.retried, retrying.failed_attempts) == (
        1, 0, 1, 1)
    assert retrying.p50_ms == pytest.approx(1000.0)
    assert rows["roll r1", "plain"].calls == 0


def test_a_failed_attempt_fails_the_steady_and_roll_goals() -> None:
    calls = [
        call("retrying", attempt("a1", 91.0, 91.1, "UNAVAILABLE", "x"), attempt("a2", 91.3, 92)),
        call("plain", attempt("b", 111.0, 112.0, "UNAVAILABLE", "shutting down")),
    ]
    rows = phase_rows(calls, PHASES)
    assert [c.passed for c in check_steady(rows, PHASES)] == [False]
    assert [c.passed for c in check_rolls(rows, PHASES)] == [False]
    clean = phase_rows([call("plain", attempt("c", 111.0, 112.0))], PHASES)
    assert [c.passed for c in check_steady(clean, PHASES) + check_rolls(clean, PHASES)] == [
        True, True]


def kill_checks(calls: list[Call], log: dict[str, ProxyLogLine],
                unanswered: dict[str, int]) -> list[bool]:
    failures = failed_attempts(calls, PHASES[1], KILL_AT, log)
    return [c.passed for c in check_kill(failures, "r2", 1000.0, "kill r2", unanswered)]


def test_calls_cut_off_on_the_killed_replica_meet_the_kill_goals() -> None:
    calls = [call("plain", attempt("a", 99.0, 100.01, "UNAVAILABLE", CUT)),
             call("plain", attempt("b", 100.2, 100.4))]
    log = {"b": logged("b", "r3")}
    assert kill_checks(calls, log, {"r1": 0, "r2": 1, "r3": 0}) == [True, True, True]


def test_the_kill_goals_fail_on_a_wrong_code_a_late_start_or_another_replica() -> None:
    wrong_code = [call("plain", attempt("a", 99.0, 100.01, "INTERNAL", "boom"))]
    assert kill_checks(wrong_code, {}, {"r2": 1}) == [False, True, True]
    no_details = [call("plain", attempt("a", 99.0, 100.01, "UNAVAILABLE", ""))]
    assert kill_checks(no_details, {}, {"r2": 1}) == [False, True, True]
    late = [call("plain", attempt("a", 102.0, 102.1, "UNAVAILABLE", "503"))]
    assert kill_checks(late, {}, {"r2": 1}) == [True, False, True]
    elsewhere = [call("plain", attempt("a", 99.0, 100.01, "UNAVAILABLE", CUT))]
    assert kill_checks(elsewhere, {"a": logged("a", "r3")}, {"r2": 0}) == [True, True, False]
    # Unlogged failures must match the calls the killed replica left unanswered, and the
    # other replicas must have left none.
    assert kill_checks(elsewhere, {}, {"r2": 0}) == [True, True, False]
    assert kill_checks(elsewhere, {}, {"r2": 1, "r3": 1}) == [True, True, False]


def test_unanswered_calls_are_sessions_less_logged_and_redispatched_calls() -> None:
    states = {
        "r1": ServerState("r1", "UP", 0, sessions=5, retries=0, redispatches=0),
        "r2": ServerState("r2", "UP", 0, sessions=9, retries=2, redispatches=3),
    }
    log = {f"{server}-{n}": logged(f"{server}-{n}", server)
           for server, count in (("r1", 5), ("r2", 4)) for n in range(count)}
    assert unanswered_calls(states, log) == {"r1": 0, "r2": 2}


def test_retrying_clients_goal_counts_only_their_final_status() -> None:
    retried = call("retrying", attempt("a1", 1, 2, "UNAVAILABLE", CUT), attempt("a2", 2.2, 3))
    plain_failed = call("plain", attempt("b", 1, 2, "UNAVAILABLE", CUT))
    assert check_retrying([retried, plain_failed]).passed
    gave_up = call("retrying", *(attempt(f"c{n}", n, n + 0.1, "UNAVAILABLE", CUT)
                                 for n in range(4)))
    assert not check_retrying([retried, gave_up]).passed


def test_read_trace_names_a_bad_line(tmp_path: Path) -> None:
    good = {"client": "plain", "name": "NewGame", "rpc": "NewGame", "start": 1.0, "end": 2.0,
            "code": "OK", "details": "",
            "attempts": [{"id": "1-1", "start": 1.0, "end": 2.0, "code": "OK", "details": ""}]}
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "client": "other"}) + "\n")
    with pytest.raises(ValueError, match=r"trace.jsonl:2"):
        read_trace(path)
    path.write_text(json.dumps(good) + "\n")
    [only] = read_trace(path)
    assert (only.client, only.latency_ms, only.failed) == ("plain", 1000.0, False)


def test_read_proxy_log_keeps_the_lines_of_calls_with_a_request_id(tmp_path: Path) -> None:
    path = tmp_path / "haproxy.log"
    path.write_text(
        "[WARNING]  (1) : Server boardbot/r1 is DOWN, reason: Layer7 invalid response\n"
        "rid=12-3 server=r2 status=200 flags=---- retries=+1 total_ms=4\n"
        "rid= server=<NOSRV> status=503 flags=SC-- retries=0 total_ms=0\n"
    )
    assert read_proxy_log(path) == {"12-3": ProxyLogLine("12-3", "r2", 200, "----", "+1", 4)}
