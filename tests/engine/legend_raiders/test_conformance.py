"""The shared conformance suite for Legend Raiders: 2, 3 and 4 players, dice and diceless."""

from __future__ import annotations

from typing import Any, ClassVar

from tests.engine.conformance import ConformanceSuite


class TestLegendRaidersConformance(ConformanceSuite):
    game_name = "legend_raiders"
    option_sets: ClassVar[list[dict[str, Any]]] = [
        {"players": n, "variant": v} for n in (2, 3, 4) for v in ("dice", "diceless")
    ]
    games_per_option_set = 60
    detailed_games = 3
