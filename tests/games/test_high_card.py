"""High Card, added the way docs/adding-a-game.md describes: registered by name, then run
through the engine's conformance suite and the search like any other game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from boardbot.engine import CHANCE, InvalidStateError, get_game
from boardbot.engine.registry import register_game, unregister_game
from boardbot.search.api import SearchConfig
from boardbot.search.ismcts import search
from tests.engine.conformance import ConformanceSuite, random_trajectory
from tests.games.high_card.game import HighCardGame
from tests.games.high_card.state import HighCardState

NAME = "high_card"


@pytest.fixture(autouse=True, scope="module")
def registered() -> Iterator[None]:
    """The one line a new game adds to the registry, here for this module's tests only."""
    register_game(NAME, "tests.games.high_card.game:HighCardGame")
    yield
    unregister_game(NAME)


class TestHighCardConformance(ConformanceSuite):
    """The shared engine checks, for a small and a larger deck."""

    game_name = NAME
    option_sets: ClassVar[list[dict[str, Any]]] = [{}, {"cards": 4}, {"cards": 12}]
    games_per_option_set = 50


def _decision(hands: tuple[int, int], turn: int = 1) -> HighCardState:
    """Seat `turn` to decide, holding `hands[turn]`, in a 6-card game without discards."""
    deck = tuple(c for c in range(1, 7) if c not in hands)
    return HighCardState(6, hands, deck, (), turn, False)


def test_the_registry_loads_and_checks_it() -> None:
    game = get_game(NAME)
    assert isinstance(game, HighCardGame) and game.name == NAME
    assert game.describe_options()["cards"]["default"] == 6
    with pytest.raises(InvalidStateError) as err:
        game.new_state({"cards": 3})
    assert err.value.path == "$.options.cards"


def test_a_view_hides_the_other_card_and_determinize_redeals_it() -> None:
    game = get_game(NAME)
    state = _decision((6, 1))
    view = game.observe(state, 1)
    assert view.state.hands == (2, 1), "the lowest card seat 1 cannot place"
    assert game.state_to_json(state, 1)["hands"] == ["hidden", 1]
    others = {game.determinize(view, random.Random(k)).hands[0] for k in range(60)}
    assert others == {2, 3, 4, 5, 6}


def test_the_search_redraws_a_low_card_and_keeps_a_high_one() -> None:
    game = get_game(NAME)
    config = SearchConfig(iterations=400)
    low = search(game, _decision((4, 1)), 1, config, seed=3)
    assert low.notation == "redraw", "a 1 can only lose"
    high = search(game, _decision((1, 6)), 1, config, seed=3)
    assert high.notation == "keep", "a 6 always wins"


def test_the_search_cannot_peek_at_the_other_card() -> None:
    """Seat 1 holds 3: against a hidden 2 it should keep, against a hidden 5 redraw; unable to
    see which, it gets the same answer for both worlds."""
    game = get_game(NAME)
    config = SearchConfig(iterations=300)
    one = search(game, _decision((2, 3)), 1, config, seed=8)
    other = search(game, _decision((5, 3)), 1, config, seed=8)
    assert one.notation == other.notation
    assert [m.visits for m in one.moves] == [m.visits for m in other.moves]


def test_random_games_reach_a_redraw_and_the_end() -> None:
    game = get_game(NAME)
    states = [s for g in range(20) for s in random_trajectory(game, {}, g, 20)]
    assert any(game.current_player(s) == CHANCE for s in states)
    assert sum(game.is_terminal(s) for s in states) == 20
