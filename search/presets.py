"""Difficulty presets: named configurations of the one ISMCTS search."""

from __future__ import annotations

from search.api import SearchConfig


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
"""Weakest first; each preset is meant to beat the one before it."""


def preset_names() -> list[str]:
    """Preset names, weakest first."""
    return list(PRESETS)


def get_preset(name: str) -> SearchConfig:
    """The configuration named `name`; UnknownPresetError for an unknown name."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPresetError(
            f"unknown preset {name!r}; known: {', '.join(PRESETS)}"
        ) from None
