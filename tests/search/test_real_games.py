"""The search on the real games: no peeking at hidden parts, and small strength smoke tests."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine, native_module, uses_native
from boardbot.search.ismcts import search
from boardbot.tools.match import clan_option_sets, run_match
from tests.search.figures import figures
from tests.search.positions import mid_game_decision, twin_world

ENGINES = [
    Engine.PYTHON,
    pytest.param(
        Engine.NATIVE,
        marks=pytest.mark.skipif(native_module() is None, reason="the native core is not built"),
    ),
]
"""The Python search, and the native core's where it is built (games without a twin skip)."""


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [
        ("leda", {}, 0),
        ("leda", {"clans": ["sharks", "cats"]}, 1),
        ("legend_raiders", {"players": 2}, 0),
        ("legend_raiders", {"players": 4}, 2),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_no_peeking_in_real_games(
    name: str, options: dict[str, Any], seed: int, engine: Engine
) -> None:
    """Another world of the same information set (other hidden hands, deck and pile orders)."""
    if engine is Engine.NATIVE and not uses_native(Engine.AUTO, name):
        pytest.skip(f"{name} has no native twin")
    game = get_game(name)
    state = mid_game_decision(name, options, seed, 50)
    seat = game.current_player(state)
    twin = twin_world(game, state, seat)
    assert game.state_to_json(twin, seat) == game.state_to_json(state, seat)
    config = SearchConfig(iterations=50, cutoff_depth=8, early_stop=False)
    here = figures(search(game, state, seat, config, 3, engine=engine))
    assert figures(search(game, twin, seat, config, 3, engine=engine)) == here


def test_leda_search_beats_random() -> None:
    """Medium's settings at a CI-sized budget win at least 18 of 20 LEDA games, clans rotated."""
    game = get_game("leda")
    report, _ = run_match(
        game, ["medium@80", "random"], 20, 11, clan_option_sets(game, {}, "rotate")
    )
    assert report.reports[0].wins >= 18


@pytest.mark.parametrize("engine", ENGINES)
def test_legend_raiders_search_beats_random(engine: Engine) -> None:
    game = get_game("legend_raiders")
    report, _ = run_match(
        game, ["medium@80", "random"], 8, 11, [{"players": 2}], engine=engine
    )
    assert report.reports[0].wins >= 7
