"""Local commands run without gRPC: only client commands (and serve) load it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from boardbot.cli.main import main

code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m == "grpc" or m.startswith(("grpc.", "grpc_")))
print("GRPC:" + ",".join(loaded), file=sys.stderr)
sys.exit(code)
"""
"""Runs one command in a fresh interpreter, then reports every gRPC module it loaded."""


def _run(args: list[str], stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        check=False,
    )


def _grpc_modules(result: subprocess.CompletedProcess[str]) -> str:
    line = next(x for x in result.stderr.splitlines() if x.startswith("GRPC:"))
    return line.removeprefix("GRPC:")


@pytest.fixture(scope="module")
def leda_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("state") / "leda.json"
    result = _run(["new", "--game", "leda", "--seed", "3", "--out", str(path)])
    assert result.returncode == 0, result.stderr
    assert _grpc_modules(result) == ""
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["moves", "--game", "leda", "--state", "{state}"],
        ["apply", "--game", "leda", "--state", "{state}", "--number", "1"],
        ["apply", "--game", "leda", "--state", "{state}", "--number", "1", "--manual-chance"],
        ["view", "--game", "leda", "--state", "{state}", "--seat", "1"],
        ["bench", "engine", "--game", "leda", "--seconds", "0.2"],
        ["bench", "search", "--game", "leda", "--preset", "beginner", "--iterations", "5"],
        ["match", "--game", "leda", "--bots", "random,greedy", "--games", "2"],
        ["bench", "net", "--features", "8", "--action-features", "4", "--hidden", "4",
         "--repeats", "1"],
        ["train", "--data", "{state}.missing", "--out", "{state}.bbnet"],
        ["selfplay", "--game", "leda", "--games", "1", "--bot", "random", "--out", "{state}.sp"],
        ["iterate", "--game", "leda", "--dir", "{state}.it", "--games", "0"],
    ],
)
def test_a_local_command_does_not_load_grpc(leda_state: Path, command: list[str]) -> None:
    result = _run([part.replace("{state}", str(leda_state)) for part in command])
    # `train` on a folder that is not there, `selfplay` with a bot that does not search and
    # `iterate` with no games stop with their message, after loading their modules.
    refused = command[0] in ("train", "selfplay", "iterate")
    assert result.returncode == (1 if refused else 0), result.stderr
    assert _grpc_modules(result) == ""


def test_playing_against_the_local_bot_does_not_load_grpc() -> None:
    result = _run(["play", "leda", "--preset", "beginner", "--iterations", "5"], stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert "bye" in result.stdout
    assert _grpc_modules(result) == ""


def test_a_client_command_does_load_grpc() -> None:
    """The probe sees gRPC when a command does use it (so the checks above can fail)."""
    result = _run(["health", "--server", "127.0.0.1:1", "--timeout", "0.5"])
    assert result.returncode == 1
    assert "grpc" in _grpc_modules(result).split(",")
