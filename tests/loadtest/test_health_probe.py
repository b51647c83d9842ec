"""The raw-bytes gRPC health check, against a real server, and the HAProxy config around it."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from loadtest.health_probe import NOT_SERVING_MESSAGE, SERVING_MESSAGE, health_check_request
from loadtest.proxy import ProxySettings, find_haproxy, haproxy_config
from loadtest.server_process import HOST, start_server


def health_reply(port: int, timeout_s: float = 5.0) -> bytes:
    """Send the probe's bytes and read until a health status arrives or the server closes."""
    received = b""
    with socket.create_connection((HOST, port), timeout=timeout_s) as connection:
        connection.sendall(health_check_request(HOST))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if SERVING_MESSAGE in received or NOT_SERVING_MESSAGE in received:
                break
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    return received


def test_the_probe_reads_serving_then_not_serving_while_the_server_drains(
    tmp_path: Path,
) -> None:
    server = start_server(1, 4, tmp_path / "server.log", ["--drain", "2"])
    port = int(server.address.rsplit(":", 1)[1])
    try:
        serving = health_reply(port)
        assert SERVING_MESSAGE in serving and NOT_SERVING_MESSAGE not in serving
        server.process.send_signal(signal.SIGTERM)
        draining = b""
        for _ in range(50):  # the signal handler turns health NOT_SERVING within moments
            draining = health_reply(port)
            if NOT_SERVING_MESSAGE in draining:
                break
            time.sleep(0.05)
        assert NOT_SERVING_MESSAGE in draining and SERVING_MESSAGE not in draining
    finally:
        assert server.stop() == 0


@pytest.mark.skipif(find_haproxy() is None, reason="haproxy is not installed")
def test_haproxy_accepts_the_generated_config(tmp_path: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(
        18080, [("r1", 18081), ("r2", 18082)], tmp_path / "haproxy.sock", ProxySettings()
    ))
    haproxy = find_haproxy()
    assert haproxy is not None
    checked = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = config.read_text()
    assert "server r2 127.0.0.1:18082" in text
    assert f"tcp-check send-binary {health_check_request(HOST).hex()}" in text
