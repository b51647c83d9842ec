"""`boardbot web` as a newcomer runs it: it starts, says where the board is, serves it, stops."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import orjson

BOARD_LINE = re.compile(r"the board is at (http://\S+) \(server (\S+)\)")


@contextmanager
def web_command(*flags: str) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """`boardbot web --port 0 FLAGS` running; (process, board URL, lines printed so far)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "boardbot.cli.main", "web", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "BOARDBOT_SERVER": ""},
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        for line in process.stdout:
            lines.append(line)
            if BOARD_LINE.search(line):
                break
        found = BOARD_LINE.search(lines[-1]) if lines else None
        assert found, f"no board line in {lines}"
        yield process, found.group(1), lines
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


def _post(url: str, method: str) -> tuple[int, dict]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request(
            "POST", f"/api/{method}", b"{}", {"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        return response.status, orjson.loads(response.read())
    finally:
        connection.close()


def test_it_starts_a_server_of_its_own_and_stops_on_sigterm() -> None:
    with web_command("--workers", "1") as (process, url, lines):
        assert any("started a local server on 127.0.0.1:" in line for line in lines)
        status, answer = _post(url, "ListGames")
        assert status == 200
        assert {"leda", "legend_raiders"} <= {game["name"] for game in answer["games"]}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0


def test_with_a_server_that_is_not_there_the_page_says_so() -> None:
    with web_command("--server", "127.0.0.1:1") as (_, url, lines):
        assert "server 127.0.0.1:1" in lines[-1]
        status, answer = _post(url, "ListGames")
        assert status == 503 and answer["error"]["code"] == "UNAVAILABLE"
