"""Server lifecycle and plumbing: health, reflection, token, TLS, metrics, logs, SIGTERM."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import grpc
import orjson
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.service.client import BotClient, open_channel
from boardbot.service.server import listen_failure
from tests.service.positions import decision_state, load
from tests.service.servers import Served, start_server, wait_until

SERVING = health_pb2.HealthCheckResponse.SERVING


def _choose_request(seed: int = 0) -> pb.ChooseMoveRequest:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=seed)
    return pb.ChooseMoveRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(iterations=30),
    )


def test_health_and_reflection(served: Served) -> None:
    health = health_pb2_grpc.HealthStub(served.channel)
    for service in ("", "boardbot.v1.BoardBot"):
        reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert reply.status == SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(served.channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    (reply,) = list(reflection.ServerReflectionInfo(iter([request]), timeout=5))
    names = {s.name for s in reply.list_services_response.service}
    assert {"boardbot.v1.BoardBot", "grpc.health.v1.Health"} <= names


def test_structured_log_line_per_request(served: Served) -> None:
    served.stub.ChooseMove(_choose_request(seed=51), timeout=30)
    records = [orjson.loads(line) for line in served.log.getvalue().splitlines()]
    choose = [r for r in records if r["method"] == "ChooseMove" and r["status"] == "OK"]
    assert choose
    record = choose[-1]
    assert record["game"] == "legend_raiders"
    assert record["preset"] == "medium"
    assert record["iterations"] > 0
    assert record["latency_ms"] > 0


def test_token_metrics_and_graceful_stop() -> None:
    s = start_server(workers=1, token="s3cret", metrics_port=0)
    try:
        request = _choose_request(seed=52)
        with pytest.raises(grpc.RpcError) as info:
            s.stub.ChooseMove(request, timeout=30)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as info:
            s.stub.ChooseMove(request, timeout=30, metadata=[("authorization", "Bearer wrong")])
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.RpcError) as info:
            list(s.stub.AnalyzeStream(pb.AnalyzeStreamRequest(), timeout=30))
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        client = BotClient(s.channel, token="s3cret")
        assert client.choose_move(request).move.notation
        view = pb.ViewStateRequest(game="legend_raiders", state_json=request.state_json, seat=1)
        with pytest.raises(grpc.RpcError) as info:
            s.stub.ViewState(view, timeout=30)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert orjson.loads(client.view_state(view).state_json)["observer"] == 1
        assert client.health() == "SERVING"
        assert BotClient(s.channel).health() == "SERVING"  # health is open to probes

        url = f"http://127.0.0.1:{s.server.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        assert 'boardbot_requests_total{method="ChooseMove",status="OK"} 1' in text
        assert 'boardbot_request_latency_seconds_count{method="ChooseMove"} 1' in text
        assert 'boardbot_requests_total{method="ViewState",status="OK"} 1' in text
        assert s.server.metrics.auth_refused_count("/boardbot.v1.BoardBot/ViewState",
                                                   "MISSING_TOKEN") == 1
        assert "boardbot_search_iterations_total" in text
        assert "boardbot_queue_depth 0" in text
        assert "boardbot_search_iterations_per_second" in text
    finally:
        s.server.stop(grace=2)
    health = health_pb2_grpc.HealthStub(s.channel)
    with pytest.raises(grpc.RpcError):
        health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
    s.channel.close()


def test_tls(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )
    s = start_server(workers=1, tls_cert=cert, tls_key=key)
    try:
        channel = open_channel(f"localhost:{s.server.port}", tls_ca=cert)
        stub = pb_grpc.BoardBotStub(channel)
        reply = stub.ListGames(pb.ListGamesRequest(), timeout=10)
        assert {g.name for g in reply.games} >= {"legend_raiders"}
        channel.close()
        with pytest.raises(grpc.RpcError):  # plaintext is refused
            s.stub.ListGames(pb.ListGamesRequest(), timeout=3)
    finally:
        s.close()


def test_sigterm_finishes_in_flight_work_then_exits(tmp_path: Path) -> None:
    """`boardbot serve` in a subprocess: SIGTERM lets the running search answer, then exits."""
    env = {**os.environ, "BOARDBOT_WORKERS": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "boardbot.cli.main", "serve", "--port", "0", "--grace", "20",
         "--drain", "0.5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "listening on 127.0.0.1:" in first, first
        port = int(first.split("127.0.0.1:")[1].split()[0])
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = pb_grpc.BoardBotStub(channel)
        request = _choose_request(seed=53)
        request.settings.CopyFrom(pb.SearchSettings(iterations=1_000_000, time_ms=1500))
        stream = stub.AnalyzeStream(
            pb.AnalyzeStreamRequest(
                analysis=pb.AnalyzeRequest(
                    game=request.game,
                    state_json=request.state_json,
                    seat=request.seat,
                    settings=request.settings,
                ),
                every_iterations=50,
            ),
            timeout=60,
        )
        assert not next(stream).final  # the search is in flight
        process.send_signal(signal.SIGTERM)
        health = health_pb2_grpc.HealthStub(channel)
        assert wait_until(
            lambda: health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status
            == health_pb2.HealthCheckResponse.NOT_SERVING,
            timeout=5,
        )
        messages = list(stream)
        last = messages[-1] if messages else None
        assert last is not None and last.final
        assert last.stats.stopped_by in ("time", "early_stop")
        channel.close()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_on_a_busy_port_says_so_in_one_line() -> None:
    """`boardbot serve` on a port another socket holds: one line on stderr, exit status 1."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert listen_failure("127.0.0.1", port) == os.strerror(errno.EADDRINUSE)
        result = subprocess.run(
            [sys.executable, "-m", "boardbot.cli.main", "serve", "--port", str(port),
             "--workers", "1"],
            capture_output=True, text=True, timeout=60,
            cwd=Path(__file__).resolve().parents[2],
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"boardbot serve: cannot listen on 127.0.0.1:{port}: {os.strerror(errno.EADDRINUSE)}"
    ]


def test_a_free_port_or_port_0_can_be_listened_on() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert listen_failure("127.0.0.1", port) is None
    assert listen_failure("127.0.0.1", 0) is None
