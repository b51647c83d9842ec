"""Judging answers: which statuses are failures, and lateness from the server's log."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from fuzz.deadlines import lateness, match
from fuzz.grpc_cases import GrpcCase
from fuzz.grpc_client import Answer, judge


def _answer(status: str, message: str = "", timeout: float | None = 1.0, elapsed: float = 0.01,
            method: str = "LegalMoves", index: int = 0, sent: float = 1000.0,
            reason: str | None = None) -> Answer:
    case = GrpcCase(index, method, {"game": "leda"}, None, timeout, "leda")
    if reason is None:  # the server's own errors carry an ErrorInfo reason
        reason = "" if status in ("OK", "DEADLINE_EXCEEDED", "NO_ANSWER", "CANCELLED") else "X"
    return Answer(case, sent, elapsed, status, message, 0, reason=reason)


@pytest.mark.parametrize(
    ("status", "message", "kind"),
    [
        ("INVALID_ARGUMENT", "state_json $.x: unknown field", None),
        ("NOT_FOUND", "unknown game 'chess'", None),
        ("DEADLINE_EXCEEDED", "Deadline Exceeded", None),
        ("RESOURCE_EXHAUSTED", "all 2 search workers are busy and 4 requests are already "
                               "waiting; retry later", None),
        ("RESOURCE_EXHAUSTED", "SERVER: Received message larger than max (262344 vs. 262144)",
         None),
        ("RESOURCE_EXHAUSTED", "Stream removed (received metadata size exceeds hard limit)",
         "resource-exhausted"),
        ("INTERNAL", "internal error: TypeError", "status-INTERNAL"),
        ("UNKNOWN", "Exception calling application", "status-UNKNOWN"),
        ("NOT_FOUND", "unknown game '" + "x" * 1200 + "'", "long-message"),
        ("UNAVAILABLE", "the search worker stopped unexpectedly", "worker-crash"),
        ("CANCELLED", "", "status-CANCELLED"),
        ("NO_ANSWER", "", "no-answer"),
    ],
)
def test_statuses_are_judged(status: str, message: str, kind: str | None) -> None:
    failure = judge(_answer(status, message), None)
    assert (failure.kind if failure else None) == kind


def test_an_empty_move_list_is_judged_by_what_it_says() -> None:
    empty = judge(_answer("OK"), pb.LegalMovesResponse())
    assert empty is not None and empty.kind == "bad-response"
    shuffle = pb.LegalMovesResponse(chance=True, chance_form="shuffle of 5 Action tiles: ...")
    assert judge(_answer("OK"), shuffle) is None


def test_an_answer_long_after_its_deadline_is_late() -> None:
    failure = judge(_answer("DEADLINE_EXCEEDED", timeout=0.5, elapsed=2.0), None)
    assert failure is not None and failure.kind == "answered-late"
    assert failure.seconds_late == pytest.approx(1.5)


def _line(method: str, start: float, latency_s: float, **extra: Any) -> dict[str, Any]:
    return {"ts": start + latency_s, "method": method, "game": "leda", "status": "OK",
            "latency_ms": latency_s * 1000.0, **extra}


def test_log_lines_match_the_nearest_request_of_their_method_and_game() -> None:
    answers = [_answer("OK", index=i, sent=1000.0 + i) for i in range(5)]
    lines = [_line("LegalMoves", 1003.002, 0.001), _line("LegalMoves", 1001.001, 0.001),
             _line("ApplyMove", 1002.0, 0.001)]
    pairs = {a.case.index: line["ts"] for a, line in match(answers, lines)}
    assert pairs == {3: pytest.approx(1003.003), 1: pytest.approx(1001.002)}


def test_a_handler_that_outlives_the_deadline_is_a_failure() -> None:
    on_time = _answer("OK", index=0, sent=1000.0, timeout=1.0)
    late = _answer("DEADLINE_EXCEEDED", index=1, sent=1010.0, timeout=1.0, method="ChooseMove")
    lines = [_line("LegalMoves", 1000.001, 0.2),
             _line("ChooseMove", 1010.001, 4.0, status="CANCELLED")]
    found = lateness([on_time, late], lines, max_time_ms=2000)
    assert [(f.kind, a.case.index) for f, a in found.failures] == [("answered-late", 1)]
    assert found.longest == pytest.approx(3.001, abs=0.01)
    assert found.longest_index == 1


def test_within_the_log_resolution_the_request_with_the_same_status_wins() -> None:
    # A tiny-deadline request never reached a handler; the next one ran 2 s and answered OK.
    tiny = _answer("DEADLINE_EXCEEDED", index=0, sent=1000.0000, timeout=0.001, method="Analyze")
    slow = _answer("OK", index=1, sent=1000.0004, timeout=3.0, method="Analyze")
    lines = [_line("Analyze", 1000.0001, 2.0)]
    assert [a.case.index for a, _ in match([tiny, slow], lines)] == [1]
    assert not lateness([tiny, slow], lines, max_time_ms=2000).failures


def test_a_search_without_deadline_past_the_time_bound_is_a_failure() -> None:
    answer = _answer("OK", timeout=None, method="ChooseMove")
    lines = [_line("ChooseMove", 1000.0005, 9.0, search_ms=8900.0)]
    found = lateness([answer], lines, max_time_ms=2000)
    assert [f.kind for f, _ in found.failures] == ["search-over-bound"]


def test_requests_never_logged_are_reported_unfinished() -> None:
    lost = _answer("DEADLINE_EXCEEDED", timeout=1.0, method="ChooseMove")
    tiny = _answer("DEADLINE_EXCEEDED", index=1, timeout=0.001, method="ChooseMove")
    found = lateness([lost, tiny], [], max_time_ms=2000)
    assert [a.case.index for a in found.unfinished] == [0]
