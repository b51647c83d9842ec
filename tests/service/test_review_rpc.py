"""ReviewGame over gRPC: the stream, its errors, cancellation, deadline, and interactive calls
answered while a review runs."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import grpc
import orjson
import pytest

from boardbot.engine import get_game
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from tests.service.positions import decision_state
from tests.service.records import random_record, record_bytes
from tests.service.servers import Served, error_details, searches_of, start_server, wait_until


@pytest.fixture(scope="module")
def single() -> Iterator[Served]:
    """A server with one search slot: a review and an interactive call compete for it."""
    server = start_server(workers=1, queue_limit=4)
    yield server
    server.close()


def _request(record: dict, **fields: object) -> pb.ReviewGameRequest:
    settings = fields.pop("settings", pb.SearchSettings(iterations=80))
    return pb.ReviewGameRequest(record_json=record_bytes(record), settings=settings, **fields)


def _log_lines(served: Served, method: str) -> list[dict]:
    lines = [orjson.loads(line) for line in served.log.getvalue().splitlines() if line]
    return [line for line in lines if line.get("method") == method]


def test_a_review_streams_each_decision_then_the_summary(single: Served) -> None:
    record = random_record("legend_raiders", seed=4, decisions=10)
    before = single.server.metrics.request_count("ReviewGame", "OK")
    responses = list(single.stub.ReviewGame(_request(record, seats=[0]), timeout=120))
    *positions, last = responses
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    assert [r.position.index for r in positions] == decisions
    assert all(not r.HasField("summary") for r in positions)
    assert last.HasField("summary") and not last.HasField("position")
    assert [s.seat for s in last.summary.seats] == [0]
    for response in positions:
        p = response.position
        assert orjson.loads(p.played.move_json) == record["moves"][p.index]["move"]
        assert len(p.values_before) == 2 and p.stats.seat == p.seat
        assert (p.judgement != "") == (p.seat == 0)
        assert p.candidates and p.candidates[0].move.notation == p.best.notation
    assert single.server.metrics.request_count("ReviewGame", "OK") == before + 1
    logged = _log_lines(single, "ReviewGame")[-1]
    assert logged["status"] == "OK" and logged["game"] == "legend_raiders"
    assert logged["decisions"] == len(decisions)
    assert logged["positions"] == len(decisions) + 1  # and the last position, unfinished


def test_a_record_that_does_not_replay_is_refused_at_its_path(single: Served) -> None:
    record = random_record("legend_raiders", seed=4, decisions=6)
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    record["moves"][decisions[3]]["move"] = {"type": "no-such-move"}
    with pytest.raises(grpc.RpcError) as caught:
        list(single.stub.ReviewGame(_request(record), timeout=60))
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    info, violations = error_details(caught.value)
    assert info.reason == "INVALID_RECORD"
    assert violations[0][0].startswith(f"record_json.moves[{decisions[3]}]")
    with pytest.raises(grpc.RpcError) as caught:
        list(single.stub.ReviewGame(pb.ReviewGameRequest(record_json=b"[1, 2"), timeout=60))
    info, _ = error_details(caught.value)
    assert info.reason == "MALFORMED_JSON"


def test_a_position_budget_past_the_cap_is_refused(single: Served) -> None:
    record = random_record("legend_raiders", seed=4, decisions=2)
    request = _request(record, settings=pb.SearchSettings(time_ms=60_000))
    with pytest.raises(grpc.RpcError) as caught:
        list(single.stub.ReviewGame(request, timeout=60))
    info, violations = error_details(caught.value)
    assert info.reason == "INVALID_SETTINGS" and violations[0][0] == "settings.time_ms"


def _long_review(served: Served, timeout: float = 300) -> Iterator[pb.ReviewGameResponse]:
    """A review of a whole random game at 30,000 iterations (or 400 ms) a position."""
    record = random_record("legend_raiders", seed=3)
    settings = pb.SearchSettings(iterations=30_000, time_ms=400)
    return served.stub.ReviewGame(_request(record, settings=settings), timeout=timeout)


def test_cancelling_a_review_stops_its_searches(single: Served) -> None:
    call = _long_review(single)
    next(call)  # the review runs
    call.cancel()  # type: ignore[attr-defined]
    with pytest.raises(grpc.RpcError) as caught:
        list(call)
    assert caught.value.code() is grpc.StatusCode.CANCELLED
    searches = searches_of(single)
    assert wait_until(lambda: searches.busy == 0 and searches.queue_depth == 0, timeout=30)
    assert wait_until(
        lambda: _log_lines(single, "ReviewGame")[-1]["status"] == "CANCELLED", timeout=30
    )


def test_a_review_ends_by_its_deadline(single: Served) -> None:
    call = _long_review(single, timeout=2.0)
    with pytest.raises(grpc.RpcError) as caught:
        list(call)
    assert caught.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
    searches = searches_of(single)
    assert wait_until(lambda: searches.busy == 0 and searches.queue_depth == 0, timeout=30)


def test_choose_move_is_answered_while_a_review_runs(single: Served) -> None:
    call = _long_review(single)
    received: list[pb.ReviewGameResponse] = []
    ended = threading.Event()

    def read() -> None:
        try:
            for response in call:
                received.append(response)
        except grpc.RpcError:
            pass
        ended.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert wait_until(lambda: len(received) >= 1, timeout=60)
    game = get_game("legend_raiders")
    for seed in range(3):
        state = decision_state(game, {"players": 2}, seed=20 + seed)
        reply = single.stub.ChooseMove(
            pb.ChooseMoveRequest(
                game="legend_raiders",
                state_json=orjson.dumps(game.state_to_json(state)),
                seat=game.current_player(state),
                settings=pb.SearchSettings(iterations=200),
                seed=seed,
            ),
            timeout=120,
        )
        assert reply.move.notation
        assert not ended.is_set()  # answered while the review still runs
    call.cancel()  # type: ignore[attr-defined]
    reader.join(30)


def test_a_server_on_the_python_engine_reviews_too() -> None:
    served = start_server(workers=1, engine=Engine.PYTHON)
    try:
        record = random_record("legend_raiders", seed=4, decisions=4)
        responses = list(served.stub.ReviewGame(_request(record), timeout=120))
    finally:
        served.close()
    *positions, last = responses
    assert len(positions) == 4 and len(last.summary.seats) == 2
    assert all(r.position.judgement for r in positions)
