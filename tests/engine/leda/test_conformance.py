"""LEDA runs the shared conformance suite for every clan pairing, on the Python engine and on the
native one (through `tests.native.native_game`)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from boardbot.engine import Game
from tests.engine.conformance import ConformanceSuite
from tests.engine.leda.builders import CLAN_PAIRS
from tests.native.native_game import NOT_BUILT, native_game
from tests.native.parity import boardbot_native

OPTION_SETS = [{"clans": [a, b], "first_player": i % 2} for i, (a, b) in enumerate(CLAN_PAIRS)]
"""Every clan pairing, with the first player varied."""


class TestLedaConformance(ConformanceSuite):
    game_name = "leda"
    option_sets: ClassVar[list[dict[str, Any]]] = OPTION_SETS
    games_per_option_set = 100
    validate_every = 7
    detailed_games = 3


@pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
class TestNativeLedaConformance(ConformanceSuite):
    """Fewer games than on the Python engine: the parity harness steps the two engines side by
    side over many more, and every LEDA scenario test runs on both."""

    game_name = "leda"
    option_sets: ClassVar[list[dict[str, Any]]] = OPTION_SETS
    games_per_option_set = 20
    validate_every = 7
    detailed_games = 1

    @property
    def game(self) -> Game:
        return native_game("leda")
