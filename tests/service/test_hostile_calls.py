"""Calls an attacker makes: held open streams without the token, bytes that are no message,
calls still running when the grace ends, a worker that dies while idle."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from boardbot.service.client import BotClient
from tests.service.positions import decision_state, load
from tests.service.servers import Served, error_details, searches_of, start_server, wait_until

SERVING = health_pb2.HealthCheckResponse.SERVING
TOKEN = "s3cret"
HELD_STREAMS = 200


def _choose_request(iterations: int = 30, time_ms: int = 0) -> pb.ChooseMoveRequest:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=3)
    return pb.ChooseMoveRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(
            iterations=iterations, **({"time_ms": time_ms} if time_ms else {})
        ),
        seed=1,
    )


def _silent(until: threading.Event) -> Iterator[reflection_pb2.ServerReflectionRequest]:
    """A request stream that sends nothing until `until` is set, then ends."""
    until.wait(60)
    return
    yield


def test_tokenless_streams_held_open_cannot_starve_a_caller_with_the_token() -> None:
    s = start_server(workers=1, token=TOKEN, open_streams=8)
    release = threading.Event()
    calls: list[grpc.Call] = []
    try:
        reflection = reflection_pb2_grpc.ServerReflectionStub(s.channel)
        health = health_pb2_grpc.HealthStub(s.channel)
        for i in range(HELD_STREAMS):
            if i % 10 == 0:  # health Watch streams are open methods too
                calls.append(health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=60))
            else:
                calls.append(reflection.ServerReflectionInfo(_silent(release), timeout=60))
        gate = s.server.open_stream_gate
        assert wait_until(lambda: gate.open_streams == 8, timeout=10)
        assert wait_until(lambda: sum(c.done() for c in calls) >= HELD_STREAMS - 8, timeout=20)
        refused = [c for c in calls if c.done()]
        assert {c.code() for c in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
        info, _ = error_details(refused[0])  # type: ignore[arg-type]
        assert info.reason == "OPEN_STREAMS_BUSY"

        client = BotClient(s.channel, token=TOKEN)
        reply = client.stub.ChooseMove(_choose_request(), timeout=10, metadata=client.metadata)
        assert reply.move.notation
        check = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert check.status == SERVING
        # The caller with the token still gets reflection, outside the bound.
        answer = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
            timeout=10,
            metadata=client.metadata,
        )
        assert next(answer).list_services_response.service
        assert s.server.metrics.request_count("ServerReflectionInfo", "RESOURCE_EXHAUSTED") >= 150
    finally:
        release.set()
        for call in calls:
            call.cancel()
        s.close()


def test_open_streams_give_their_place_back_when_they_end(served: Served) -> None:
    reflection = reflection_pb2_grpc.ServerReflectionStub(served.channel)
    for _ in range(3 * 8):  # more streams than the bound, one after another
        answer = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10
        )
        assert next(answer).list_services_response.service
        answer.cancel()
    gate = served.server.open_stream_gate
    assert wait_until(lambda: gate.open_streams == 0, timeout=5)


def _raw_unary(channel: grpc.Channel, method: str) -> grpc.UnaryUnaryMultiCallable:
    return channel.unary_unary(f"/boardbot.v1.BoardBot/{method}")


MALFORMED = {
    "invalid UTF-8 in game": b"\x0a\x02\xff\xfe",
    "truncated field": b"\x12\x10abc",
    "bad wire type": b"\x0f\x01",
}


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_bytes_that_are_no_message_get_invalid_argument(served: Served, raw: bytes) -> None:
    before = served.server.metrics.request_count("ChooseMove", "INVALID_ARGUMENT")
    with pytest.raises(grpc.RpcError) as caught:
        _raw_unary(served.channel, "ChooseMove")(raw, timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    info, _ = error_details(caught.value)  # type: ignore[arg-type]
    assert info.reason == "MALFORMED_REQUEST"
    assert "not a valid ChooseMove message" in caught.value.details()
    assert served.server.metrics.request_count("ChooseMove", "INVALID_ARGUMENT") == before + 1
    assert wait_until(lambda: '"reason":"MALFORMED_REQUEST"' in served.log.getvalue(), 5)


def test_malformed_stream_and_open_method_requests(served: Served) -> None:
    stream = served.channel.unary_stream("/boardbot.v1.BoardBot/AnalyzeStream")
    with pytest.raises(grpc.RpcError) as caught:
        list(stream(b"\x0a\x05\x0a\x02\xff\xfe", timeout=5))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_details(caught.value)[0].reason == "MALFORMED_REQUEST"  # type: ignore[arg-type]

    check = served.channel.unary_unary("/grpc.health.v1.Health/Check")
    with pytest.raises(grpc.RpcError) as caught:
        check(b"\x0a\x02\xff\xfe", timeout=5)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    info = served.channel.stream_stream(
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
    )
    with pytest.raises(grpc.RpcError) as caught:
        list(info(iter([b"\x1a\x02\xff\xfe"]), timeout=5))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_the_token_is_checked_before_the_bytes() -> None:
    s = start_server(workers=1, token=TOKEN)
    try:
        with pytest.raises(grpc.RpcError) as caught:
            _raw_unary(s.channel, "ChooseMove")(MALFORMED["truncated field"], timeout=5)
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert (
            s.server.metrics.auth_refused_count("/boardbot.v1.BoardBot/ChooseMove", "MISSING_TOKEN")
            == 1
        )
        with pytest.raises(grpc.RpcError) as caught:
            _raw_unary(s.channel, "ChooseMove")(
                MALFORMED["truncated field"],
                timeout=5,
                metadata=[("authorization", f"Bearer {TOKEN}")],
            )
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        s.close()


@pytest.mark.parametrize("engine", [Engine.AUTO, Engine.PYTHON], ids=["auto", "python"])
def test_a_call_still_running_when_the_grace_ends_gets_shutting_down(engine: Engine) -> None:
    s = start_server(workers=1, engine=engine)
    outcome: dict[str, grpc.RpcError] = {}
    request = _choose_request(iterations=1_000_000, time_ms=30_000)

    def ask() -> None:
        try:
            s.stub.ChooseMove(request, timeout=60)
        except grpc.RpcError as error:
            outcome["error"] = error

    caller = threading.Thread(target=ask)
    caller.start()
    try:
        assert wait_until(lambda: searches_of(s).busy == 1, timeout=10)
        s.server.stop(grace=1.5)
        caller.join(20)
        error = outcome["error"]
        assert error.code() == grpc.StatusCode.UNAVAILABLE, error
        info, _ = error_details(error)
        assert info.reason == "SHUTTING_DOWN"
    finally:
        s.channel.close()


def test_a_worker_that_dies_while_idle_is_replaced_at_once() -> None:
    s = start_server(workers=1)
    try:
        pool = s.server.pool
        victim = pool.worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        assert wait_until(lambda: pool.restarts == 1, timeout=3)
        assert wait_until(lambda: pool.worker_pids()[0] not in (0, victim), timeout=30)
        reply = s.stub.ChooseMove(_choose_request(), timeout=10)
        assert reply.move.notation
        assert s.server.metrics.request_count("ChooseMove", "OK") == 1
    finally:
        s.close()
