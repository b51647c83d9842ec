"""Search settings of a request: presets, overrides, server caps, deadline clipping."""

from __future__ import annotations

import pytest

from boardbot.jobs.failures import FailureKind, RequestError
from boardbot.jobs.settings import Limits, clip_to_deadline, default_preset_name, resolve
from boardbot.search import engines
from boardbot.search.engines import Engine
from boardbot.search.presets import PRESETS, resolve_preset


def test_preset_with_overrides() -> None:
    config = resolve("easy", {"iterations": 77, "temperature": 0.0}, Limits())
    assert config.iterations == 77
    assert config.temperature == 0.0
    assert config.exploration == PRESETS["easy"].exploration
    assert resolve("", {}, Limits()) == PRESETS[default_preset_name()].replace(
        workers=min(PRESETS[default_preset_name()].workers, 1), time_ms=Limits().max_time_ms
    )


def test_caps_apply_to_presets() -> None:
    assert resolve("expert", {}, Limits(max_workers=1)).workers == 1
    assert resolve("easy", {"time_ms": 500.0}, Limits(max_time_ms=500.0)).time_ms == 500.0


def test_every_search_is_bounded_in_time_by_the_server() -> None:
    limits = Limits(max_time_ms=1234.0)
    for name in PRESETS:
        assert resolve(name, {}, limits).time_ms == 1234.0
    assert resolve("easy", {"iterations": 1_000_000}, limits).time_ms == 1234.0
    assert resolve("easy", {"time_ms": 100.0}, limits).time_ms == 100.0


def test_presets_resolve_per_game() -> None:
    bound = Limits().max_time_ms
    tuned = resolve_preset("expert", "leda").replace(time_ms=bound)
    assert resolve("expert", {}, Limits(), "leda", "python") == tuned
    assert resolve("expert", {"iterations": 9}, Limits(), "leda", "python") == tuned.replace(
        iterations=9
    )
    auto = resolve_preset("expert", "leda", "auto").replace(time_ms=bound)
    assert resolve("expert", {}, Limits(), "leda") == auto
    assert resolve("expert", {}, Limits(), "legend_raiders", "python") == PRESETS[
        "expert"
    ].replace(time_ms=bound)
    assert resolve("expert", {}, Limits()) == PRESETS["expert"].replace(time_ms=bound)


@pytest.mark.parametrize("engine", list(Engine))
def test_presets_resolve_for_the_engine_that_searches(engine: Engine) -> None:
    """The server resolves a preset with the budgets of the engine its search runs on."""
    bound = Limits().max_time_ms
    for name in PRESETS:
        for game in ("leda", "legend_raiders"):
            config = resolve(name, {}, Limits(), game, engine)
            assert config == resolve_preset(name, game, engine).replace(time_ms=bound)
        assert resolve(name, {"iterations": 9}, Limits(), "legend_raiders", engine).iterations == 9
    native = resolve("medium", {}, Limits(), "legend_raiders", "native")
    python = resolve("medium", {}, Limits(), "legend_raiders", "python")
    assert native == resolve_preset("medium", "legend_raiders", "native").replace(time_ms=bound)
    assert python.iterations == PRESETS["medium"].iterations


@pytest.mark.parametrize("engine", list(Engine))
def test_an_analysis_takes_the_presets_analysis_budget(engine: Engine) -> None:
    """Analyze resolves a preset with its analysis budget; an explicit budget still wins."""
    bound = Limits().max_time_ms
    for name in PRESETS:
        for game in ("leda", "legend_raiders"):
            config = resolve(name, {}, Limits(), game, engine, analysis=True)
            expected = resolve_preset(name, game, engine, analysis=True)
            assert config == expected.replace(time_ms=bound)
            explicit = resolve(name, {"iterations": 9}, Limits(), game, engine, analysis=True)
            assert explicit.iterations == 9


def test_the_server_default_engine_is_auto() -> None:
    """Without an engine the server's default applies: native where a twin is built."""
    for game in ("leda", "legend_raiders"):
        assert resolve("hard", {}, Limits(), game) == resolve("hard", {}, Limits(), game, "auto")
    served_natively = engines.uses_native(Engine.AUTO, "legend_raiders")
    expected = resolve_preset("hard", "legend_raiders", "native" if served_natively else "python")
    assert resolve("hard", {}, Limits(), "legend_raiders").iterations == expected.iterations
    # A `--engine python` server searches every game in Python, so with Python budgets.
    python_server = engines.per_game(Engine.PYTHON)
    assert resolve("hard", {}, Limits(), "legend_raiders", python_server) == resolve(
        "hard", {}, Limits(), "legend_raiders", "python"
    )


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"iterations": 0}, "settings.iterations"),
        ({"iterations": 10**9}, "settings.iterations"),
        ({"time_ms": 0.0}, "settings.time_ms"),
        ({"time_ms": float("inf")}, "settings.time_ms"),
        ({"workers": 2}, "settings.workers"),
        ({"exploration": -1.0}, "settings.exploration"),
        ({"temperature": float("nan")}, "settings.temperature"),
    ],
)
def test_bad_overrides(overrides: dict[str, float], fragment: str) -> None:
    with pytest.raises(RequestError) as info:
        resolve("easy", overrides, Limits(max_workers=1))
    assert info.value.kind is FailureKind.INVALID_ARGUMENT
    assert fragment in info.value.message


def test_unknown_preset() -> None:
    with pytest.raises(RequestError) as info:
        resolve("godlike", {}, Limits())
    assert info.value.kind is FailureKind.NOT_FOUND
    assert "easy" in info.value.message


def test_deadline_clipping() -> None:
    limits = Limits(deadline_margin_ms=30.0, min_search_ms=5.0)
    base = PRESETS["easy"]
    assert clip_to_deadline(base, None, limits, now=1000.0) == base
    clipped = clip_to_deadline(base, 1.0, limits, now=1000.0)
    assert clipped.deadline == pytest.approx(1000.97)
    earlier = clip_to_deadline(base.replace(deadline=1000.5), 1.0, limits, now=1000.0)
    assert earlier.deadline == 1000.5
    with pytest.raises(RequestError) as info:
        clip_to_deadline(base, 0.03, limits, now=1000.0)
    assert info.value.kind is FailureKind.DEADLINE_EXCEEDED
