"""The engine benchmark on both engines: native playouts through the binding, and the CLI.

`LegendRaiders.random_playouts` plays seeded random games natively (one call, without the GIL);
`boardbot bench engine` prints the Python and the native figures side by side.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import orjson
import pytest

from boardbot.cli.main import build_parser
from boardbot.engine import get_game
from boardbot.search import engines
from tests.native import parity

needs_native = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

BUDGET = 0.2  # seconds per engine


def native_game() -> Any:
    assert parity.boardbot_native is not None
    return parity.boardbot_native.LegendRaiders()


def bench(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str, str]:
    """Run `boardbot bench engine FLAGS` in-process: (exit status, stdout, stderr)."""
    args = build_parser().parse_args(["bench", "engine", "--seconds", str(BUDGET), *flags])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@needs_native
@pytest.mark.parametrize(
    "options", [{"players": 2}, {"players": 4, "variant": "diceless"}, {"players": 3}]
)
def test_native_playouts_count_whole_games_of_steps(options: dict[str, Any]) -> None:
    figures = native_game().random_playouts(json.dumps(options), 7, BUDGET)
    assert set(figures) == {"games", "steps", "decisions", "chance", "seconds"}
    assert figures["steps"] == figures["decisions"] + figures["chance"]
    assert figures["games"] >= 1
    assert figures["decisions"] > 0
    assert figures["seconds"] >= BUDGET  # whole games: the clock is checked after each
    assert figures["seconds"] < BUDGET + 5
    per_game = figures["steps"] / figures["games"]
    assert 50 < per_game < 5000, per_game
    if options.get("variant") != "diceless":
        assert figures["chance"] > 0  # the die


@needs_native
@pytest.mark.parametrize("seconds", [0.0, -1.0, math.nan, math.inf, 600.5])
def test_native_playouts_refuse_a_bad_duration(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds must be more than 0 and at most 600"):
        native_game().random_playouts("{}", 0, seconds)


@needs_native
@pytest.mark.parametrize(
    ("options_json", "message"),
    [
        ('{"players": 9}', r"^\$\.options\.players: "),
        ("[1]", r"^\$\.options: "),
        ("not json", r"^\$: the options is not valid JSON"),
    ],
)
def test_native_playouts_refuse_bad_options(options_json: str, message: str) -> None:
    native = parity.boardbot_native
    assert native is not None
    with pytest.raises(native.InvalidStateError, match=message):
        native_game().random_playouts(options_json, 0, BUDGET)


@needs_native
def test_native_playouts_refuse_a_negative_seed() -> None:
    with pytest.raises(OverflowError):
        native_game().random_playouts("{}", -1, BUDGET)


@needs_native
def test_bench_engine_prints_both_engines_and_the_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = bench(capsys, "--game", "legend_raiders", "--players", "2")
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["game", "legend_raiders", "{'players':", "2}"]
    assert [line.split()[1] for line in lines if line.startswith("engine")] == [
        "python",
        "native",
    ]
    assert sum(line.startswith("steps  ") for line in lines) == 2
    ratio = [line for line in lines if line.startswith("native/python")]
    assert len(ratio) == 1
    assert float(ratio[0].split()[1].rstrip("x").replace(",", "")) > 1


@needs_native
def test_bench_engine_json_has_one_object_per_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = bench(capsys, "--game", "legend_raiders", "--players", "4", "--json")
    assert code == 0
    figures = orjson.loads(out)
    assert set(figures) == {"python", "native"}
    for result in figures.values():
        assert result["game"] == "legend_raiders"
        assert result["options"] == {"players": 4}
        assert result["steps"] == result["decision_steps"] + result["chance_steps"]
        assert result["games"] >= 1


@needs_native
@pytest.mark.parametrize("engine", ["python", "native"])
def test_bench_engine_runs_one_engine_when_asked(
    capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    code, out, _ = bench(capsys, "--game", "legend_raiders", "--engine", engine, "--json")
    assert code == 0
    figures = orjson.loads(out)
    if engine == "python":
        assert figures["game"] == "legend_raiders"  # the flat shape from before
        assert "steps_per_second" in figures
    else:
        assert list(figures) == ["native"]


@needs_native
def test_bench_engine_native_for_a_game_without_a_twin_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    leda = type(get_game("leda"))
    # as for a game whose GameType declares no twin
    monkeypatch.setattr(leda, "game_type", replace(leda.game_type, native_twin=None))
    code, out, err = bench(capsys, "--game", "leda", "--engine", "native")
    assert code == 1
    assert out == ""
    assert "--engine native: leda has no native twin" in err


def test_bench_engine_without_the_native_core_says_so_once_and_runs_python(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engines, "native_module", lambda: None)
    code, out, err = bench(capsys, "--game", "legend_raiders", "--players", "2", "--json")
    assert code == 0
    notice = engines.engine_notice(engines.Engine.AUTO)
    assert notice is not None
    assert err.splitlines() == [notice]
    assert orjson.loads(out)["game"] == "legend_raiders"  # Python alone, the flat shape

    code, out, err = bench(capsys, "--game", "legend_raiders", "--engine", "native")
    assert code == 1
    assert "the native core is not built" in err
