"""The search on the real games: no peeking at hidden parts, and small strength smoke tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine import CHANCE, get_game
from boardbot.search.api import SearchConfig
from boardbot.search.ismcts import search
from boardbot.tools.match import clan_option_sets, run_match
from tests.search.figures import figures


def mid_game_decision(name: str, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A state after `steps` seeded random steps, advanced to a decision with 2+ moves."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    for _ in range(steps):
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    while game.current_player(state) == CHANCE or len(game.legal_actions(state)) < 2:
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, game.legal_actions(state)[0])
    assert not game.is_terminal(state)
    return state


@pytest.mark.parametrize(
    ("name", "options", "seed"),
    [
        ("leda", {}, 0),
        ("leda", {"clans": ["sharks", "cats"]}, 1),
        ("legend_raiders", {"players": 2}, 0),
        ("legend_raiders", {"players": 4}, 2),
    ],
)
def test_no_peeking_in_real_games(name: str, options: dict[str, Any], seed: int) -> None:
    """Another world of the same information set (other hidden hands, deck and pile orders)."""
    game = get_game(name)
    state = mid_game_decision(name, options, seed, 50)
    seat = game.current_player(state)
    view = game.observe(state, seat)
    twin = next(
        world
        for world in (game.determinize(view, random.Random(k)) for k in range(50))
        if world != state
    )
    assert game.state_to_json(twin, seat) == game.state_to_json(state, seat)
    config = SearchConfig(iterations=50, cutoff_depth=8, early_stop=False)
    here = figures(search(game, state, seat, config, 3))
    assert figures(search(game, twin, seat, config, 3)) == here


def test_leda_search_beats_random() -> None:
    """Medium's settings at a CI-sized budget win at least 18 of 20 LEDA games, clans rotated."""
    game = get_game("leda")
    report, _ = run_match(
        game, ["medium@80", "random"], 20, 11, clan_option_sets(game, {}, "rotate")
    )
    assert report.reports[0].wins >= 18


def test_legend_raiders_search_beats_random() -> None:
    game = get_game("legend_raiders")
    report, _ = run_match(game, ["medium@80", "random"], 8, 11, [{"players": 2}])
    assert report.reports[0].wins >= 7
