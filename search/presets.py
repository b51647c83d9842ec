"""Difficulty presets: named configurations of the one ISMCTS search."""

from __future__ import annotations

from boardbot.engine.api import Game
from boardbot.engine.errors import BoardbotError
from boardbot.engine.registry import get_game
from boardbot.search import engines
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from boardbot.search.native_presets import native_layers


class UnknownPresetError(BoardbotError, KeyError):
    """No difficulty preset has that name."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown preset {name!r}; known: {', '.join(known)}")
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[type[UnknownPresetError], tuple[str, list[str]]]:
        return type(self), (self.name, self.known)


PRESETS: dict[str, SearchConfig] = {
    "beginner": SearchConfig(
        iterations=30, exploration=1.0, rollout="random", cutoff_depth=8, temperature=1.0
    ),
    "easy": SearchConfig(
        iterations=80, exploration=0.9, rollout="random", cutoff_depth=12, temperature=0.3
    ),
    "medium": SearchConfig(
        iterations=400, exploration=0.7, rollout="heuristic", cutoff_depth=12, temperature=0.0
    ),
    "hard": SearchConfig(
        iterations=1600, exploration=0.7, rollout="heuristic", cutoff_depth=24, temperature=0.0
    ),
    "expert": SearchConfig(
        iterations=4000, exploration=0.7, rollout="heuristic", cutoff_depth=40, temperature=0.0
    ),
}
"""Weakest first; each preset is meant to beat the one before it. A game tunes some of them
for itself with `preset_overrides` (preset name -> SearchConfig fields it changes); a game with
a native twin has the native core's rated presets and, for an analysis, the budgets of the
latency targets in search/native_presets.py (see `presets_for`)."""

LATENCY_TARGETS_MS: dict[str, float] = {
    "beginner": 10.0,
    "easy": 30.0,
    "medium": 100.0,
    "hard": 500.0,
    "expert": 2000.0,
}
"""Mean time per search (one core) each preset's native analysis budget is sized to stay under;
a move to play takes the preset's rated budget, at most this long, and the Python path keeps
its own budgets, which take longer (docs/search.md, "Difficulty presets")."""

GameRef = Game | str | None
"""A game object, a registered game's name, or None for the game-independent table."""


def preset_names() -> list[str]:
    """Preset names, weakest first (the same for every game)."""
    return list(PRESETS)


def searches_natively(game: Game | str, engine: Engine | str) -> bool:
    """True when a search of `game` (a game or a registered game's name) on `engine` runs on
    the native core.

    `python` never does; `native` does for a game with a native twin (the search itself refuses
    when the core is not built); `auto` does for a game with a twin when the core is built. A
    game without a twin searches in Python whatever the engine, so it keeps its Python presets.
    """
    choice = Engine(engine)
    if choice is Engine.PYTHON or engines.twin_name(game) is None:
        return False
    return choice is Engine.NATIVE or engines.native_module() is not None


def presets_for(
    game: GameRef = None, engine: Engine | str = Engine.PYTHON, *, analysis: bool = False
) -> dict[str, SearchConfig]:
    """Every preset as it applies to `game` searched on `engine`: PRESETS with the game's
    `preset_overrides` applied, then its native budgets (search/native_presets.py) when the
    search runs natively, and for an `analysis` its native analysis budgets on top.

    A move to play takes the preset as the ladder rated it; an analysis of the same preset
    searches with the budget of its latency target, for a deeper view at the same settings.
    A registered game's name is looked up (UnknownGameError if there is none)."""
    choice = Engine(engine)
    if game is None:
        return dict(PRESETS)
    rules = get_game(game) if isinstance(game, str) else game
    table = dict(PRESETS)
    for name, fields in rules.preset_overrides.items():
        table[name] = table[name].replace(**fields)
    if searches_natively(rules, choice):
        for layer in native_layers(rules.name, analysis=analysis):
            for name, fields in layer.items():
                table[name] = table[name].replace(**fields)
    return table


def resolve_preset(
    name: str, game: GameRef = None, engine: Engine | str = Engine.PYTHON, *, analysis: bool = False
) -> SearchConfig:
    """The configuration named `name` for `game` searched on `engine` (for an `analysis`: with
    its analysis budget); UnknownPresetError for an unknown name."""
    table = presets_for(game, engine, analysis=analysis)
    config = table.get(name)
    if config is None:
        raise UnknownPresetError(name, list(table))
    return config
