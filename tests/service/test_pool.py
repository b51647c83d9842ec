"""Worker pool behaviour over gRPC: crashes, admission limit, cancellation, concurrency."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import orjson
import pytest

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from tests.service.positions import decision_state, load
from tests.service.servers import Served, searches_of, start_server, wait_until

GAME = "legend_raiders"
OPTIONS = {"players": 2}


@pytest.fixture(scope="module", params=[Engine.AUTO, Engine.PYTHON], ids=["auto", "python"])
def single(request: pytest.FixtureRequest) -> Iterator[Served]:
    """A server with one worker and no waiting room: the second concurrent search is refused
    (searches native in the server process, or Python in the worker)."""
    s = start_server(workers=1, queue_limit=0, engine=request.param)
    yield s
    s.close()


@pytest.fixture(scope="module")
def single_python() -> Iterator[Served]:
    """A server whose one worker process runs every search (the Python engine)."""
    s = start_server(workers=1, queue_limit=0, engine=Engine.PYTHON)
    yield s
    s.close()


def _long_stream(served: Served, seed: int = 0) -> Any:
    """An AnalyzeStream call whose search would run for a minute unless stopped."""
    game = load(GAME)
    state = decision_state(game, OPTIONS, seed=41 + seed)
    return served.stub.AnalyzeStream(
        pb.AnalyzeStreamRequest(
            analysis=pb.AnalyzeRequest(
                game=GAME,
                state_json=game_ops.encode_state(game, state),
                seat=game.current_player(state),
                settings=pb.SearchSettings(iterations=1_000_000, time_ms=60_000),
            ),
            every_iterations=50,
        ),
        timeout=120,
    )


def _quick_request(seed: int = 0) -> tuple[pb.ChooseMoveRequest, set[str]]:
    game = load(GAME)
    state = decision_state(game, OPTIONS, seed=seed)
    request = pb.ChooseMoveRequest(
        game=GAME,
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(iterations=30),
        seed=seed,
    )
    return request, {game.action_to_str(state, a) for a in game.legal_actions(state)}


def test_full_queue_is_refused_at_once_and_cancel_frees_the_worker(single: Served) -> None:
    call = _long_stream(single)
    first = next(call)  # the search is running on the only worker
    assert not first.final
    request, legal = _quick_request()
    with pytest.raises(grpc.RpcError) as info:
        single.stub.ChooseMove(request, timeout=30)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "busy" in info.value.details()
    call.cancel()  # the client goes away: the search must stop and free the worker
    # The search was given a minute; a freed worker within seconds shows it stopped early.
    assert wait_until(lambda: searches_of(single).busy == 0, timeout=10)
    reply = single.stub.ChooseMove(request, timeout=30)
    assert reply.move.notation in legal
    assert '"status":"CANCELLED"' in single.log.getvalue()


def test_killed_worker_is_replaced(single_python: Served) -> None:
    single = single_python
    call = _long_stream(single, seed=1)
    next(call)
    (pid,) = single.server.pool.busy_pids()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(grpc.RpcError) as info:
        for _ in call:
            pass
    assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "replaced" in info.value.details()
    request, legal = _quick_request(seed=2)
    reply = single.stub.ChooseMove(request, timeout=60)
    assert reply.move.notation in legal
    assert pid not in single.server.pool.worker_pids()
    assert single.server.pool.restarts >= 1


def test_many_concurrent_clients(served: Served) -> None:
    cases = [_quick_request(seed) for seed in range(24)]

    def ask(index: int) -> tuple[int, str]:
        request, _ = cases[index]
        reply = served.stub.ChooseMove(request, wait_for_ready=True, timeout=120)
        return index, reply.move.notation

    answered: dict[int, str] = {}
    busy = 0
    with ThreadPoolExecutor(max_workers=8) as executor:
        for future in [executor.submit(ask, i) for i in range(len(cases))]:
            try:
                index, notation = future.result()
                answered[index] = notation
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                busy += 1
    assert len(answered) + busy == len(cases)
    assert len(answered) >= len(cases) // 2
    for index, notation in answered.items():
        request, legal = cases[index]
        assert notation in legal
        # Concurrency does not change answers: the same request alone gives the same move.
        assert served.stub.ChooseMove(request, timeout=60).move.notation == notation


def test_cancelled_choose_move_stops_its_search(single: Served) -> None:
    request, legal = _quick_request(seed=3)
    long_request = pb.ChooseMoveRequest()
    long_request.CopyFrom(request)
    long_request.settings.CopyFrom(pb.SearchSettings(iterations=1_000_000, time_ms=60_000))
    future = single.stub.ChooseMove.future(long_request, timeout=120)
    assert wait_until(lambda: searches_of(single).busy == 1, timeout=30)
    future.cancel()
    # The search was given a minute; a freed worker within seconds shows it stopped early.
    assert wait_until(lambda: searches_of(single).busy == 0, timeout=10)
    assert single.stub.ChooseMove(request, timeout=30).move.notation in legal
    records = [orjson.loads(line) for line in single.log.getvalue().splitlines()]
    cancelled = [r for r in records if r["method"] == "ChooseMove" and r["status"] == "CANCELLED"]
    assert cancelled and cancelled[-1]["stopped_by"] == "cancelled"
