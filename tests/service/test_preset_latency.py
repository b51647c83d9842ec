"""`boardbot bench presets`: ChooseMove per preset through a local server, on each engine.

Runs in-process on a tiny budget; the figures are checked for shape and sanity, not speed (no
timing assertions in tests).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
import pytest

from boardbot.cli.main import build_parser
from boardbot.engine import get_game
from boardbot.search import engines
from boardbot.search.api import StopReason
from boardbot.search.presets import resolve_preset
from boardbot.tools.preset_latency import latency_positions

NATIVE_BUILT = engines.native_module() is not None
PRESETS = ("beginner", "easy")
TINY = ["--presets", ",".join(PRESETS), "--requests", "2", "--positions", "1"]


def bench(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str, str]:
    """Run `boardbot bench presets FLAGS` in-process: (exit status, stdout, stderr)."""
    args = build_parser().parse_args(["bench", "presets", *flags])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def check_figures(figures: dict[str, Any], game: str, engine: str) -> None:
    assert figures["game"] == game and figures["engine"] == engine
    assert figures["requests"] == 2 and figures["positions"] == 1
    assert [p["preset"] for p in figures["presets"]] == list(PRESETS)
    for p in figures["presets"]:
        budget = resolve_preset(p["preset"], game, engine).iterations
        assert budget is not None
        assert p["iterations"] == budget, "each engine runs the preset with its own budget"
        assert p["requests"] == 2
        assert 0 < p["p50_ms"] <= p["p99_ms"] < 60_000
        assert 0 < p["search_p50_ms"] < 60_000 and 0 < p["search_mean_ms"] < 60_000
        assert 1 <= p["mean_iterations"] <= budget
        assert sum(p["stopped_by_counts"].values()) == 2
        assert p["stopped_by"] in p["stopped_by_counts"]
        assert set(p["stopped_by_counts"]) <= {
            StopReason.ITERATIONS, StopReason.EARLY_STOP, StopReason.SINGLE_MOVE
        }  # fmt: skip


def test_leda_on_python(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = bench(capsys, "--game", "leda", "--engine", "python", "--json", *TINY)
    assert code == 0, err
    figures = orjson.loads(out)
    assert list(figures) == ["python"]
    check_figures(figures["python"], "leda", "python")


def test_legend_raiders_on_every_engine_here(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = bench(capsys, "--game", "legend_raiders", "--players", "2", "--json", *TINY)
    assert code == 0, err
    figures = orjson.loads(out)
    assert list(figures) == (["python", "native"] if NATIVE_BUILT else ["python"])
    for engine, result in figures.items():
        check_figures(result, "legend_raiders", engine)
        assert result["options"] == {"players": 2}
    notice = engines.engine_notice(engines.Engine.AUTO)
    assert err.splitlines() == ([] if notice is None else [notice])


@pytest.mark.skipif(not NATIVE_BUILT, reason="boardbot_native is not built (`make native`)")
def test_legend_raiders_side_by_side_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = bench(capsys, "--game", "legend_raiders", *TINY)
    assert code == 0, err
    lines = out.splitlines()
    assert "python budget" in lines[1] and "native budget" in lines[1] and "ratio" in lines[1]
    for preset, line in zip(PRESETS, lines[2:4], strict=True):
        assert line.split()[0] == preset and line.endswith("x")
        budgets = [int(line.split()[1]), int(line.split()[7])]
        assert budgets == [
            resolve_preset(preset, "legend_raiders", engine).iterations
            for engine in ("python", "native")
        ]


@pytest.mark.skipif(not NATIVE_BUILT, reason="boardbot_native is not built (`make native`)")
def test_legend_raiders_on_native_alone(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--game", "legend_raiders", "--engine", "native", "--json", *TINY]
    code, out, err = bench(capsys, *flags)
    assert code == 0, err
    figures = orjson.loads(out)
    assert list(figures) == ["native"]
    check_figures(figures["native"], "legend_raiders", "native")


def test_native_for_a_game_without_a_twin_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    leda = type(get_game("leda"))
    # as for a game whose GameType declares no twin
    monkeypatch.setattr(leda, "game_type", replace(leda.game_type, native_twin=None))
    with pytest.raises(engines.NativeUnavailableError) as raised:
        engines.uses_native(engines.Engine.NATIVE, "leda")
    code, out, err = bench(capsys, "--game", "leda", "--engine", "native", *TINY)
    assert code == 1
    assert out == ""
    assert err == f"error: {raised.value}\n"


def test_without_the_native_core_auto_says_so_once_and_runs_python(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "native_module", lambda: None)
    flags = ["--game", "legend_raiders", "--presets", "beginner", "--requests", "1"]
    code, out, err = bench(capsys, *flags, "--positions", "1")
    assert code == 0, err
    assert err.splitlines() == [engines.engine_notice(engines.Engine.AUTO)]
    assert "python budget" in out and "native" not in out


@pytest.mark.parametrize(
    "flags",
    [["--presets", "beginner,grandmaster"], ["--presets", ","], ["--requests", "0"]],
    ids=["unknown-preset", "no-preset", "no-request"],
)
def test_bad_flags_are_errors(capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    code, out, err = bench(capsys, "--game", "leda", "--engine", "python", *flags)
    assert code == 1
    assert out == "" and err.startswith("error: ")


@pytest.mark.parametrize("game", ["leda", "legend_raiders"])
def test_positions_are_decisions_with_a_choice(game: str) -> None:
    rules = get_game(game)
    states = latency_positions(rules, {}, seed=0, count=4)
    assert len(states) == 4
    for state in states:
        assert not rules.is_terminal(state)
        assert rules.current_player(state) >= 0
        assert len(rules.legal_actions(state)) >= 2
