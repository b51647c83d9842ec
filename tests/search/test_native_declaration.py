"""Where each game's native twin and native budgets are declared, and that every resolved
search setting stayed what it was when the native budgets moved out of engine/ into search/."""

from __future__ import annotations

from dataclasses import replace

import pytest

from boardbot.engine.registry import get_game
from boardbot.jobs.settings import Limits, resolve
from boardbot.search import engines
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from boardbot.search.native_presets import NATIVE_ANALYSIS_OVERRIDES, NATIVE_PRESET_OVERRIDES
from boardbot.search.presets import preset_names, searches_natively

Row = list[tuple[int, float, str, int, float]]

RESOLVED: dict[tuple[str | None, str, bool], Row] = {
    (None, 'python', False): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    (None, 'python', True): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    (None, 'native', False): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    (None, 'native', True): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    ('leda', 'python', False): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (6400, 0.7, 'heuristic', 24, 0.0),
    ],
    ('leda', 'python', True): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (6400, 0.7, 'heuristic', 24, 0.0),
    ],
    ('leda', 'native', False): [
        (600, 1.0, 'random', 8, 1.0),
        (1500, 0.9, 'random', 12, 0.3),
        (200, 0.7, 'heuristic', 12, 0.0),
        (1000, 0.7, 'heuristic', 24, 0.0),
        (12000, 0.7, 'heuristic', 24, 0.0),
    ],
    ('leda', 'native', True): [
        (600, 1.0, 'random', 8, 1.0),
        (1500, 0.9, 'random', 12, 0.3),
        (4000, 0.7, 'heuristic', 12, 0.0),
        (12000, 0.7, 'heuristic', 24, 0.0),
        (48000, 0.7, 'heuristic', 24, 0.0),
    ],
    ('legend_raiders', 'python', False): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    ('legend_raiders', 'python', True): [
        (30, 1.0, 'random', 8, 1.0),
        (80, 0.9, 'random', 12, 0.3),
        (400, 0.7, 'heuristic', 12, 0.0),
        (1600, 0.7, 'heuristic', 24, 0.0),
        (4000, 0.7, 'heuristic', 40, 0.0),
    ],
    ('legend_raiders', 'native', False): [
        (2500, 1.0, 'random', 8, 1.0),
        (25, 0.7, 'heuristic', 12, 0.0),
        (60, 0.7, 'heuristic', 12, 0.0),
        (400, 0.7, 'heuristic', 24, 0.0),
        (130000, 0.7, 'heuristic', 40, 0.0),
    ],
    ('legend_raiders', 'native', True): [
        (600, 1.0, 'random', 8, 1.0),
        (2000, 0.7, 'heuristic', 12, 0.0),
        (7000, 0.7, 'heuristic', 12, 0.0),
        (33000, 0.7, 'heuristic', 24, 0.0),
        (130000, 0.7, 'heuristic', 40, 0.0),
    ],
}  # fmt: skip
"""(game, engine, analysis) -> each preset's (iterations, exploration, rollout, cutoff_depth,
temperature) as `settings.resolve` gave them, weakest first, generated from the code before the
native budgets moved (native core built; `auto` then searches as `native` does); Legend
Raiders' native analyses and `expert` since they take the shipped model (docs/learning.md)."""

RESOLVED_MODEL = {
    ("legend_raiders", "native", True): dict.fromkeys(preset_names(), "auto"),
    ("legend_raiders", "native", False): {"expert": "auto"},
}
"""(game, engine, analysis) -> preset -> the model it resolves with (absent: none)."""

RESOLVED_NETWORK = {"leda": {"puct": 2.0, "fpu": -1.0, "leaf_lambda": 0.0}}
"""game -> the settings every preset gives a search with a model (absent: the search's)."""


GAMES = ["leda", "legend_raiders"]
"""The registered games of the project (tests may register toy games beside them)."""


@pytest.mark.parametrize("game", [None, *GAMES])
@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("analysis", [False, True])
def test_every_resolved_setting_is_what_it_was(
    game: str | None, engine: Engine, analysis: bool
) -> None:
    native = engine is Engine.NATIVE or (
        engine is Engine.AUTO and engines.native_module() is not None
    )
    key = (game, "native" if native else "python", analysis)
    row = RESOLVED[key]
    for name, (iterations, exploration, rollout, cutoff, temperature) in zip(
        preset_names(), row, strict=True
    ):
        expected = SearchConfig(
            iterations=iterations,
            exploration=exploration,
            rollout=rollout,
            cutoff_depth=cutoff,
            temperature=temperature,
            time_ms=30000.0,
            model=RESOLVED_MODEL.get(key, {}).get(name),
        ).replace(**RESOLVED_NETWORK.get(game or "", {}))
        assert resolve(name, {}, Limits(), game, engine, analysis=analysis) == expected


def test_a_twin_is_declared_once_in_the_games_type() -> None:
    twins = {name: engines.declared_twins().get(name) for name in GAMES}
    assert twins == {"leda": "Leda", "legend_raiders": "LegendRaiders"}
    for name, twin in twins.items():
        assert get_game(name).game_type.native_twin == twin == engines.twin_name(name)
        module = engines.native_module()
        if module is not None:
            assert type(engines.native_twin(name)).__name__ == twin
    assert engines.twin_name("no-such-game") is None


def test_the_native_budgets_are_for_declared_twins_and_known_presets() -> None:
    fields = set(SearchConfig.__dataclass_fields__)
    for table in (NATIVE_PRESET_OVERRIDES, NATIVE_ANALYSIS_OVERRIDES):
        assert set(table) <= set(engines.declared_twins())
        for budgets in table.values():
            assert set(budgets) <= set(preset_names())
            assert all(set(changes) <= fields for changes in budgets.values())


def test_a_game_without_a_declared_twin_keeps_its_python_presets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("leda")
    python = {name: resolve(name, {}, Limits(), "leda", Engine.PYTHON) for name in preset_names()}
    monkeypatch.setattr(type(game), "game_type", replace(game.game_type, native_twin=None))
    assert "leda" not in engines.declared_twins()
    for engine in (Engine.AUTO, Engine.PYTHON):
        assert not searches_natively("leda", engine)
        for name in preset_names():
            assert resolve(name, {}, Limits(), "leda", engine) == python[name]
    with pytest.raises(engines.NativeUnavailableError):
        engines.uses_native(Engine.NATIVE, "leda")
