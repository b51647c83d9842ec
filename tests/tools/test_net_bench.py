"""`boardbot bench net`: one network evaluation timed in Python and (when built) natively."""

from __future__ import annotations

import json

import pytest

from boardbot.cli.main import main
from boardbot.search.engines import native_module
from boardbot.tools.net_bench import bench_net


def test_the_bench_times_python_and_the_native_core_when_built() -> None:
    result = bench_net(10, 6, (8, 4), players=3, repeats=2, python_iterations=20,
                       native_iterations=50)
    assert result.python_us is not None and result.python_us > 0
    assert len(result.python_runs) == 2
    if native_module() is None:
        assert result.native_us is None
    else:
        assert result.native_us is not None and result.native_us > 0


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([
        "bench", "net", "--features", "9", "--action-features", "5", "--hidden", "4",
        "--repeats", "1", "--engine", "python", "--json",
    ])
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["feature_size"] == 9 and figures["hidden"] == [4]
    assert figures["native_us"] is None and figures["python_us"] > 0


def test_the_game_gives_the_sizes_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "net", "--game", "leda", "--players", "3", "--repeats", "1"]) == 1
    assert "--players must be in 2..2" in capsys.readouterr().err
