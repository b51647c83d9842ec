"""LEDA runs the shared conformance suite for every clan pairing."""

from __future__ import annotations

from typing import Any, ClassVar

from tests.engine.conformance import ConformanceSuite
from tests.engine.leda.builders import CLAN_PAIRS


class TestLedaConformance(ConformanceSuite):
    """Every clan pairing, with the first player varied."""

    game_name = "leda"
    option_sets: ClassVar[list[dict[str, Any]]] = [
        {"clans": [a, b], "first_player": i % 2} for i, (a, b) in enumerate(CLAN_PAIRS)
    ]
    games_per_option_set = 100
    validate_every = 7
    detailed_games = 3
