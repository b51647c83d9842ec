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
import pytest

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


def test_allowed_origins_are_named_and_answered() -> None:
    origin = "http://127.0.0.1:8001"
    flags = ("--server", "127.0.0.1:1", "--allow-origin", origin)
    with web_command(*flags, "--allow-origin", "https://game.example") as (_, url, lines):
        assert any(f"pages at {origin} may call the /api routes" in line for line in lines)
        assert any("pages at https://game.example may" in line for line in lines)
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        try:
            connection.request(
                "OPTIONS",
                "/api/ChooseMove",
                headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
            )
            response = connection.getresponse()
            assert response.status == 204
            assert response.getheader("Access-Control-Allow-Origin") == origin
        finally:
            connection.close()


def _refused(flags: list[str], variable: str | None = None) -> str:
    """The error `boardbot web FLAGS` stops with, before it serves anything."""
    env = {**os.environ, "BOARDBOT_SERVER": "127.0.0.1:1"}
    env.pop("BOARDBOT_ALLOW_ORIGIN", None)
    if variable is not None:
        env["BOARDBOT_ALLOW_ORIGIN"] = variable
    result = subprocess.run(
        [sys.executable, "-m", "boardbot.cli.main", "web", "--port", "0", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 2, result.stdout
    assert "the board is at" not in result.stdout
    return result.stderr


def test_a_wildcard_or_a_malformed_origin_is_refused() -> None:
    assert "'*' is refused" in _refused(["--allow-origin", "*"])
    assert "no path" in _refused(["--allow-origin", "http://127.0.0.1:8001/"])
    stderr = _refused([], variable="http://127.0.0.1:8001, HTTP://game.example")
    assert "BOARDBOT_ALLOW_ORIGIN" in stderr and "'http://game.example'" in stderr


def test_the_variable_lists_origins_when_no_flag_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardbot.cli.commands.web import ALLOW_ORIGIN_VARIABLE, _allowed_origins

    monkeypatch.setenv(ALLOW_ORIGIN_VARIABLE, "https://game.example, http://127.0.0.1:8001")
    assert _allowed_origins(None) == ("http://127.0.0.1:8001", "https://game.example")
    assert _allowed_origins(["http://localhost:3000"]) == ("http://localhost:3000",)
    monkeypatch.setenv(ALLOW_ORIGIN_VARIABLE, "")
    assert _allowed_origins(None) == ()
