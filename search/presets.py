"""Difficulty presets: named configurations of the one ISMCTS search."""

from __future__ import annotations

from boardbot.search.api import SearchConfig


class UnknownPresetError(KeyError):
    """No difficulty preset has that name."""


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
"""Weakest first; each preset is meant to beat the one before it. Games without a tuned
entry in GAME_PRESETS use these."""

GAME_PRESETS: dict[str, dict[str, SearchConfig]] = {
    # On LEDA a cut-off of 40 costs time without adding strength; four times `hard`'s
    # iterations at its cut-off of 24 is the step that pays.
    "leda": {
        "expert": SearchConfig(
            iterations=6400, exploration=0.7, rollout="heuristic", cutoff_depth=24, temperature=0.0
        ),
    },
}
"""Per-game replacements for some presets, tuned by matches on that game."""


def preset_names() -> list[str]:
    """Preset names, weakest first (the same for every game)."""
    return list(PRESETS)


def presets_for(game: str | None = None) -> dict[str, SearchConfig]:
    """Every preset as it applies to `game` (the game-independent table for None)."""
    table = dict(PRESETS)
    if game is not None:
        table.update(GAME_PRESETS.get(game, {}))
    return table


def get_preset(name: str, game: str | None = None) -> SearchConfig:
    """The configuration named `name` for `game`; UnknownPresetError for an unknown name."""
    try:
        return presets_for(game)[name]
    except KeyError:
        raise UnknownPresetError(
            f"unknown preset {name!r}; known: {', '.join(PRESETS)}"
        ) from None
