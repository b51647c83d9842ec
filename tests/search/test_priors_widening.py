"""Priors in selection (progressive bias) and progressive widening, in the Python search."""

from __future__ import annotations

import math

import pytest

from boardbot.engine import get_game
from boardbot.search.api import SearchConfig
from boardbot.search.bots import MctsBot, UnknownBotError, make_bot
from boardbot.search.checks import check_config
from boardbot.search.errors import InvalidConfigError
from boardbot.search.ismcts import search
from boardbot.search.presets import resolve_preset
from boardbot.search.tree_search import widening_limit
from tests.search.figures import figures
from tests.search.positions import mid_game_decision
from tests.search.toy_games import NeedleGame, NimGame

NEEDLE = "m13"


def expanded_after(iterations: int, k: float, alpha: float, moves: int) -> int:
    """Root children after `iterations` under widening: one expansion per visit while fewer
    than `ceil(k · visits^alpha)` (visits counting the current one) and moves remain."""
    children = 0
    for visits in range(1, iterations + 1):
        if children < moves and (children == 0 or children < math.ceil(k * visits**alpha)):
            children += 1
    return children


def visited(result_moves: tuple[object, ...]) -> int:
    """How many root moves got at least one visit."""
    return sum(1 for m in result_moves if m.visits > 0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "options"), [("leda", {}), ("legend_raiders", {"players": 2})]
)
def test_defaults_are_todays_search(name: str, options: dict[str, object]) -> None:
    game = get_game(name)
    state = mid_game_decision(name, options, 4, 40)
    seat = game.current_player(state)
    config = resolve_preset("medium", game).replace(iterations=150, early_stop=False)
    explicit = config.replace(prior_weight=0.0, widening=0.0, widening_exponent=0.5)
    assert SearchConfig().prior_weight == 0.0 and SearchConfig().widening == 0.0
    assert figures(search(game, state, seat, config, 9)) == figures(
        search(game, state, seat, explicit, 9)
    )


def test_priors_find_the_needle_in_fewer_iterations() -> None:
    game = NeedleGame()
    state = game.new_state({})
    plain = SearchConfig(iterations=10, early_stop=False)
    guided = plain.replace(prior_weight=1.0)
    found_plain = sum(search(game, state, 0, plain, seed).notation == NEEDLE for seed in range(10))
    found_guided = sum(
        search(game, state, 0, guided, seed).notation == NEEDLE for seed in range(10)
    )
    assert found_guided == 10
    assert found_plain < 10
    # With priors the needle is expanded first: one iteration is enough.
    assert search(game, state, 0, guided.replace(iterations=1), 3).notation == NEEDLE


def test_priors_bias_selection_towards_likely_moves() -> None:
    game = NimGame()  # uniform weights: the bias is the same for every move
    state = game.new_state({"stones": 11})
    config = SearchConfig(iterations=3000, early_stop=False, prior_weight=2.0)
    assert search(game, state, 0, config, 1).notation == "3"
    needle = NeedleGame()
    config = SearchConfig(iterations=60, prior_weight=1.0)
    result = search(needle, needle.new_state({}), 0, config, 0)
    assert result.moves[0].notation == NEEDLE


@pytest.mark.parametrize(
    ("k", "alpha", "iterations"), [(1.0, 0.5, 50), (2.0, 0.3, 120), (0.5, 1.0, 9)]
)
def test_widening_caps_the_root_children(k: float, alpha: float, iterations: int) -> None:
    game = NeedleGame()
    state = game.new_state({"moves": 40})
    config = SearchConfig(
        iterations=iterations, early_stop=False, widening=k, widening_exponent=alpha
    )
    for prior_weight in (0.0, 1.0):
        result = search(game, state, 0, config.replace(prior_weight=prior_weight), 5)
        assert visited(result.moves) == expanded_after(iterations, k, alpha, 40)
        assert result.nodes == 1 + expanded_after(iterations, k, alpha, 40)


def test_widening_limit_formula() -> None:
    assert widening_limit(1.0, 0.5, {}) == 1
    assert expanded_after(50, 1.0, 0.5, 40) == math.ceil(math.sqrt(50)) == 8
    assert expanded_after(9, 0.5, 1.0, 40) == 5


def test_widening_with_priors_expands_the_likeliest_first() -> None:
    game = NeedleGame()
    state = game.new_state({"moves": 40, "needle": 31})
    config = SearchConfig(iterations=30, early_stop=False, widening=1.0, prior_weight=1.0)
    result = search(game, state, 0, config, 2)
    seen = {m.notation for m in result.moves if m.visits > 0}
    # The needle first, then the rest in legal order (equal priors): m0, m1, ...
    assert seen == {"m31", "m0", "m1", "m2", "m3", "m4"}
    assert result.notation == "m31"


def test_widening_with_priors_on_a_real_game_is_deterministic() -> None:
    game = get_game("leda")
    state = mid_game_decision("leda", {}, 0, 60)
    seat = game.current_player(state)
    config = resolve_preset("medium", game).replace(
        iterations=120, early_stop=False, prior_weight=1.0, widening=1.0
    )
    first = search(game, state, seat, config, 4)
    assert figures(first) == figures(search(game, state, seat, config, 4))
    legal = len(game.legal_actions(state))
    assert legal > 100
    assert visited(first.moves) == expanded_after(120, 1.0, 0.5, legal) == 11


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"prior_weight": -0.5}, "prior_weight must be a finite number >= 0"),
        ({"prior_weight": math.inf}, "prior_weight must be a finite number >= 0"),
        ({"prior_weight": math.nan}, "prior_weight must be a finite number >= 0"),
        ({"widening": -1.0}, "widening must be a finite number >= 0"),
        ({"widening": math.inf}, "widening must be a finite number >= 0"),
        ({"widening_exponent": 1.5}, r"widening_exponent must lie in \[0, 1\]"),
        ({"widening_exponent": -0.1}, r"widening_exponent must lie in \[0, 1\]"),
        ({"widening_exponent": math.nan}, r"widening_exponent must lie in \[0, 1\]"),
    ],
)
def test_out_of_range_values_are_refused(change: dict[str, float], message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        check_config(SearchConfig().replace(**change))
    game = NimGame()
    with pytest.raises(InvalidConfigError, match=message):
        search(game, game.new_state({}), 0, SearchConfig().replace(**change), 0)


def test_bot_names_take_setting_overrides() -> None:
    bot = make_bot("hard@4000+prior_weight=1+widening=2/native", "leda")
    assert isinstance(bot, MctsBot)
    expected = resolve_preset("hard", "leda", "native").replace(
        iterations=4000, prior_weight=1.0, widening=2.0
    )
    assert bot.config == expected
    assert bot.name == "hard@4000+prior_weight=1+widening=2/native"
    plain = make_bot("medium+widening_exponent=0.25+cutoff_depth=6", "legend_raiders", "python")
    assert plain.config == resolve_preset("medium", "legend_raiders", "python").replace(  # type: ignore[attr-defined]
        widening_exponent=0.25, cutoff_depth=6
    )


@pytest.mark.parametrize(
    "name",
    [
        "hard+prior=1",
        "hard+prior_weight",
        "hard+prior_weight=abc",
        "hard+prior_weight=-1",
        "hard+widening=inf",
        "hard+cutoff_depth=1.5",
        "hard+widening_exponent=2",
        "hard@0+widening=1",
    ],
)
def test_bad_overrides_are_unknown_bots(name: str) -> None:
    with pytest.raises(UnknownBotError):
        make_bot(name, "leda")


def test_root_parallel_workers_use_priors_and_widening() -> None:
    game = NeedleGame()
    state = game.new_state({"moves": 40, "needle": 31})
    config = SearchConfig(
        iterations=60, early_stop=False, workers=2, widening=1.0, prior_weight=1.0
    )
    result = search(game, state, 0, config, 8)
    # Each worker grows 30 iterations' worth of children, in the same (prior) order.
    seen = {m.notation for m in result.moves if m.visits > 0}
    assert seen == {"m31", "m0", "m1", "m2", "m3", "m4"}
    assert result.notation == "m31"
