"""The shared conformance suite for Legend Raiders: 2, 3 and 4 players, dice and diceless, on the
Python engine and on the native one (through `tests.native.native_game`)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from boardbot.engine import Game
from tests.engine.conformance import ConformanceSuite
from tests.native.native_game import NOT_BUILT, native_game
from tests.native.parity import boardbot_native

OPTION_SETS = [{"players": n, "variant": v} for n in (2, 3, 4) for v in ("dice", "diceless")]


class TestLegendRaidersConformance(ConformanceSuite):
    game_name = "legend_raiders"
    option_sets: ClassVar[list[dict[str, Any]]] = OPTION_SETS
    games_per_option_set = 60
    detailed_games = 3


@pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
class TestNativeLegendRaidersConformance(ConformanceSuite):
    """Fewer games than on the Python engine, as on LEDA: the parity harness steps the two
    engines side by side over many more, and every Legend Raiders scenario runs on both."""

    game_name = "legend_raiders"
    option_sets: ClassVar[list[dict[str, Any]]] = OPTION_SETS
    games_per_option_set = 20
    detailed_games = 3

    @property
    def game(self) -> Game:
        return native_game("legend_raiders")
