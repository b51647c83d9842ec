"""The native core's preset budgets: per game with a native twin, what each preset plays with
(the rated presets) and what an analysis of it searches (the latency budgets).

They apply over the game's own `preset_overrides` when its search runs on the native core
(`presets.presets_for`); a game without an entry keeps its Python presets there too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from boardbot.engine.api import PresetOverrides
from boardbot.search.models import AUTO_MODEL

NATIVE_PRESET_OVERRIDES: Mapping[str, PresetOverrides] = MappingProxyType({
    "leda": MappingProxyType({
        # Budgets placed on the measured strength curve (docs/ratings.md) so that each preset
        # is at least 100 Elo above the one below; every other setting is the preset's own
        # (expert: cut-off 24). Four times `expert`'s 12,000 iterations bought about +45 Elo,
        # inside the noise, at four times the time, so `expert` stops there.
        "beginner": MappingProxyType({"iterations": 600}),
        "easy": MappingProxyType({"iterations": 1500}),
        "medium": MappingProxyType({"iterations": 200}),
        "hard": MappingProxyType({"iterations": 1000}),
        "expert": MappingProxyType({"iterations": 12000}),
    }),
    "legend_raiders": MappingProxyType({
        # Budgets placed on the measured strength curve of two-player games (docs/ratings.md)
        # so that each preset is at least 100 Elo above the one below. Strength grows fast up
        # to about 100 iterations and slowly after, so the middle presets sit low on the curve
        # and `expert` keeps the whole budget of its latency target. `easy` takes `medium`'s
        # settings (heuristic rollouts, no sampling): its own uniform rollouts were as strong
        # as 400 iterations of them. `expert` is guided by the shipped network of the state's
        # player count (`auto`) with the iterations that search does within its latency target:
        # at that time it beat the search without it with 2 and 4 players (+60 [-6, +129] with
        # 3), and with it `expert` is +159 and +151 Elo over `hard` with 3 and 4 players, where
        # without it it was not clearly stronger (docs/ratings.md).
        "beginner": MappingProxyType({"iterations": 2500}),
        "easy": MappingProxyType(
            {"iterations": 25, "exploration": 0.7, "rollout": "heuristic", "temperature": 0.0}
        ),
        "medium": MappingProxyType({"iterations": 60}),
        "hard": MappingProxyType({"iterations": 400}),
        "expert": MappingProxyType({"iterations": 130000, "model": AUTO_MODEL}),
    }),
})  # fmt: skip
"""Game name -> preset name -> the fields it changes when the search runs on the native core
(the rated presets: what a move to play searches with)."""

NATIVE_ANALYSIS_OVERRIDES: Mapping[str, PresetOverrides] = MappingProxyType({
    # An analysis searches with each preset's latency target per search on one core
    # (presets.LATENCY_TARGETS_MS), at about 75% of it, measured as docs/search.md "Difficulty
    # presets" says (legend_raiders: two-player games).
    "leda": MappingProxyType({
        "beginner": MappingProxyType({"iterations": 600}),
        "easy": MappingProxyType({"iterations": 1500}),
        "medium": MappingProxyType({"iterations": 4000}),
        "hard": MappingProxyType({"iterations": 12000}),
        "expert": MappingProxyType({"iterations": 48000}),
    }),
    # Legend Raiders' analyses are guided by the shipped model of the state's player count
    # (`auto`): at equal time it played about +100 Elo stronger than the search without it, at
    # 5, 50 and 500 ms a move and every player count (docs/learning.md, "Results"). A search
    # with the model takes 2.3 to 4.7 times as long per iteration (more for small budgets), so
    # the budgets were measured again for the same targets (docs/search.md).
    "legend_raiders": MappingProxyType({
        "beginner": MappingProxyType({"iterations": 600, "model": AUTO_MODEL}),
        "easy": MappingProxyType({"iterations": 2000, "model": AUTO_MODEL}),
        "medium": MappingProxyType({"iterations": 7000, "model": AUTO_MODEL}),
        "hard": MappingProxyType({"iterations": 33000, "model": AUTO_MODEL}),
        "expert": MappingProxyType({"iterations": 130000, "model": AUTO_MODEL}),
    }),
})  # fmt: skip
"""Game name -> preset name -> its budget for an analysis on the native core, over
NATIVE_PRESET_OVERRIDES."""


def native_layers(game: str, *, analysis: bool = False) -> list[PresetOverrides]:
    """The native budgets of the game called `game`, in the order they apply (none: [])."""
    layers = [NATIVE_PRESET_OVERRIDES.get(game, MappingProxyType({}))]
    if analysis:
        layers.append(NATIVE_ANALYSIS_OVERRIDES.get(game, MappingProxyType({})))
    return layers
