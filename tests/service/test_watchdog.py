"""Hard time bounds: a worker stuck in an engine call is killed and replaced, the request is
answered DEADLINE_EXCEEDED (CANCELLED when cancelled), and SIGTERM's grace is a hard bound."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import orjson
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from boardbot.engine import registry
from boardbot.jobs.settings import Limits
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from tests.service.servers import Served, start_server, wait_until

HANG = "test-hang=tests.service.games:HangingGame"
MARGIN_MS = 300.0
"""The test servers' watchdog margin."""
SLACK_S = 3.0
"""Allowance for a busy machine on top of every bound checked here."""


@pytest.fixture(scope="module")
def hanging() -> Iterator[Served]:
    """One search worker, one rules worker, a game whose rules never return, short bounds."""
    s = start_server(
        workers=1,
        extra_games=HANG,
        limits=Limits(
            max_workers=1,
            max_time_ms=800.0,
            max_call_ms=500.0,
            deadline_margin_ms=50.0,
            watchdog_margin_ms=MARGIN_MS,
        ),
    )
    yield s
    s.close()
    if "test-hang" in registry.list_games():
        registry.unregister_game("test-hang")


def _choose(seat: int = 0) -> pb.ChooseMoveRequest:
    return pb.ChooseMoveRequest(game="test-hang", state_json=b"{}", seat=seat, preset="easy")


def _reason(error: grpc.RpcError) -> str:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return str(info.reason)
    raise AssertionError("no ErrorInfo in the status details")


def _last_log(served: Served, method: str) -> dict[str, object]:
    lines = [orjson.loads(line) for line in served.log.getvalue().splitlines() if line]
    records = [r for r in lines if r.get("method") == method]
    assert records, f"no {method} line in the log"
    last: dict[str, object] = records[-1]
    return last


def _replaced(served: Served, kills_before: int, pids_before: list[int]) -> bool:
    pool = served.server.pool
    return pool.kills > kills_before and pool.worker_pids() != pids_before and pool.busy == 0


def test_search_without_deadline_is_bounded_by_the_server(hanging: Served) -> None:
    pool = hanging.server.pool
    kills, pids = pool.kills, pool.worker_pids()
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        hanging.stub.ChooseMove(_choose(), timeout=60)  # far beyond the server's own bound
    took = time.monotonic() - start
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert _reason(info.value) == "DEADLINE_EXCEEDED"
    assert "replaced" in (info.value.details() or "")
    assert took < 0.8 + MARGIN_MS / 1000 + SLACK_S
    assert wait_until(lambda: _replaced(hanging, kills, pids), timeout=30)


def test_client_deadline_is_a_hard_bound(hanging: Served) -> None:
    pool = hanging.server.pool
    kills, pids = pool.kills, pool.worker_pids()
    with pytest.raises(grpc.RpcError) as info:
        hanging.stub.ChooseMove(_choose(), timeout=0.5)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert wait_until(lambda: _replaced(hanging, kills, pids), timeout=30)
    record = _last_log(hanging, "ChooseMove")
    assert record["status"] == "DEADLINE_EXCEEDED"
    latency_s = float(str(record["latency_ms"])) / 1000
    assert latency_s < 0.5 + MARGIN_MS / 1000 + SLACK_S


def test_cancel_kills_a_worker_that_does_not_stop(hanging: Served) -> None:
    pool = hanging.server.pool
    kills, pids = pool.kills, pool.worker_pids()
    call = hanging.stub.ChooseMove.future(_choose(), timeout=60)
    assert wait_until(lambda: pool.busy == 1, timeout=10)
    call.cancel()
    assert wait_until(lambda: _replaced(hanging, kills, pids), timeout=30)
    assert wait_until(lambda: _last_log(hanging, "ChooseMove")["status"] == "CANCELLED", 10)


@pytest.mark.parametrize("rpc", ["LegalMoves", "ViewState"])
def test_rules_call_is_bounded_too(hanging: Served, rpc: str) -> None:
    rules_pool = hanging.server.rules_pool
    kills = rules_pool.kills
    request_type = pb.LegalMovesRequest if rpc == "LegalMoves" else pb.ViewStateRequest
    request = request_type(game="test-hang", state_json=b"{}", seat=0)
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as info:
        getattr(hanging.stub, rpc)(request, timeout=60)
    assert info.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert _reason(info.value) == "DEADLINE_EXCEEDED"
    assert time.monotonic() - start < 0.5 + MARGIN_MS / 1000 + SLACK_S
    assert wait_until(lambda: rules_pool.kills > kills and rules_pool.busy == 0, timeout=30)
    games = hanging.stub.ListGames(pb.ListGamesRequest(), timeout=10)
    assert "legend_raiders" in {g.name for g in games.games}
    reply = hanging.stub.NewGame(pb.NewGameRequest(game="legend_raiders", seed=3), timeout=30)
    assert reply.summary.num_players >= 2  # the replacement worker answers


def test_workers_live_on_after_kills(hanging: Served) -> None:
    reply = hanging.stub.NewGame(pb.NewGameRequest(game="legend_raiders", seed=4), timeout=30)
    state = reply.state_json
    seat = reply.summary.current_player
    request = pb.ChooseMoveRequest(
        game="legend_raiders", state_json=state, seat=seat, preset="beginner", seed=1
    )
    assert hanging.stub.ChooseMove(request, timeout=30).move.notation


def test_sigterm_grace_is_a_hard_bound() -> None:
    """A worker stuck in an engine call does not keep the server alive past its grace."""
    env = {
        **os.environ,
        "BOARDBOT_WORKERS": "1",
        "BOARDBOT_EXTRA_GAMES": HANG,
        "PYTHONUNBUFFERED": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "boardbot.cli.main", "serve", "--port", "0", "--grace", "1",
         "--max-time-ms", "60000", "--watchdog-margin-ms", "60000", "--metrics-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "listening on 127.0.0.1:" in first, first
        port = int(first.split("127.0.0.1:")[1].split()[0])
        metrics_url = process.stdout.readline().split("metrics on ")[1].strip()
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = pb_grpc.BoardBotStub(channel)
        call = stub.ChooseMove.future(_choose(), timeout=120)
        assert wait_until(lambda: "boardbot_workers_busy 1" in _read(metrics_url), timeout=20)
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert time.monotonic() - sent < 1.0 + SLACK_S
        with pytest.raises(grpc.RpcError):
            call.result()
        channel.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _read(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        text: str = response.read().decode()
    return text
