"""Request failures: gRPC-free in the workers, mapped to status codes only at the edge."""

from __future__ import annotations

import pickle
from typing import Any

import grpc
import pytest

from boardbot.jobs import game_ops
from boardbot.jobs.failures import FailureKind, Reason, RequestError, from_search_error
from boardbot.jobs.search_job import SearchJob, run_search_job
from boardbot.jobs.settings import Limits, resolve
from boardbot.search import checks
from boardbot.search.errors import (
    ChanceStepError,
    GameOverError,
    InvalidConfigError,
    InvalidSeatError,
    NotSeatToMoveError,
    SearchError,
)
from boardbot.search.rollout import UnknownRolloutPolicyError
from boardbot.service.errors import status_code, status_proto
from tests.service.positions import decision_state, load


@pytest.mark.parametrize("kind", list(FailureKind))
def test_each_kind_is_the_status_code_of_its_name(kind: FailureKind) -> None:
    assert status_code(kind) is grpc.StatusCode[kind.name]
    error = RequestError(kind, "why", Reason.INTERNAL)
    assert status_proto(error).code == grpc.StatusCode[kind.name].value[0]


def test_a_failure_crosses_processes_unchanged() -> None:
    kind, reason = FailureKind.INVALID_ARGUMENT, Reason.INVALID_STATE
    error = RequestError(kind, "state_json $.x: bad", reason, "state_json", "$.x")
    again = RequestError.from_wire(pickle.loads(pickle.dumps(error.to_wire())))
    assert (again.kind, again.message, again.reason, again.field, again.json_path) == (
        FailureKind.INVALID_ARGUMENT,
        "state_json $.x: bad",
        "INVALID_STATE",
        "state_json",
        "$.x",
    )
    assert again.violation_field() == "state_json.x"


@pytest.mark.parametrize(
    ("error", "kind", "reason", "field", "message"),
    [
        (InvalidSeatError("seat: must be in 0..1 for this state, got 5"),
         FailureKind.INVALID_ARGUMENT, Reason.INVALID_SEAT, "seat",
         "seat: must be in 0..1 for this state, got 5"),
        (GameOverError("the game is over: no seat is to move"),
         FailureKind.FAILED_PRECONDITION, Reason.GAME_OVER, "state_json",
         "the game is over: no seat is to move"),
        (ChanceStepError("the state is at a chance step: no seat is to move"),
         FailureKind.FAILED_PRECONDITION, Reason.CHANCE_STEP, "state_json",
         "the state is at a chance step: no seat is to move"),
        (NotSeatToMoveError("seat 1 is not to move; seat 0 is"),
         FailureKind.FAILED_PRECONDITION, Reason.NOT_SEAT_TO_MOVE, "seat",
         "seat 1 is not to move; seat 0 is"),
        (InvalidConfigError("iterations must be at least 1, got 0"),
         FailureKind.INVALID_ARGUMENT, Reason.INVALID_SETTINGS, "settings",
         "settings: iterations must be at least 1, got 0"),
        (UnknownRolloutPolicyError("unknown rollout policy 'x'"),
         FailureKind.INVALID_ARGUMENT, Reason.INVALID_SETTINGS, "settings",
         "settings: unknown rollout policy 'x'"),
    ],
)
def test_each_search_refusal_has_its_own_failure(
    error: SearchError, kind: FailureKind, reason: Reason, field: str, message: str
) -> None:
    failure = from_search_error(error)
    assert (failure.kind, failure.reason, failure.field, failure.message) == (
        kind,
        reason,
        field,
        message,
    )


def test_a_search_request_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = checks.check_seat

    def counted(*args: Any) -> None:
        calls.append(args)
        real(*args)

    monkeypatch.setattr(checks, "check_seat", counted)
    game = load("leda")
    state = decision_state(game, {}, seed=12)
    config = resolve("easy", {"iterations": 20}, Limits())
    raw, seat = game_ops.encode_state(game, state), game.current_player(state)
    job = SearchJob("leda", raw, seat, config, 1)
    run_search_job(job)
    assert len(calls) == 1
