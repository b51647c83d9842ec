"""Only the moves an answer shows get notation and a principal variation, identical to a
search that describes every move."""

from __future__ import annotations

import pytest

from boardbot.search.api import SearchConfig, SearchResult
from boardbot.search.ismcts import search
from boardbot.search.tree_search import PV_LENGTH
from tests.search.counting_game import CountingLeda, busy_position

CONFIG = SearchConfig(iterations=150, rollout="heuristic", cutoff_depth=8, early_stop=False)


def _search(game: CountingLeda, shown: int | None, temperature: float = 0.0) -> SearchResult:
    state = busy_position(game, seed=5)
    config = CONFIG.replace(temperature=temperature)
    return search(game, state, game.current_player(state), config, 11, shown=shown)


def test_a_chosen_move_only_search_writes_one_move_and_its_line() -> None:
    game = CountingLeda()
    CountingLeda.reset()
    result = _search(game, shown=0)
    described = [m for m in result.moves if m.notation is not None]
    assert len(result.moves) >= 12
    assert [m.action for m in described] == [result.action]
    # Its notation once, then each move of its line; never any JSON.
    line = described[0].principal_variation
    assert CountingLeda.notation_calls == 1 + len(line) <= 1 + PV_LENGTH
    assert CountingLeda.json_calls == 0


@pytest.mark.parametrize("shown", [0, 1, 3])
@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_the_moves_shown_are_those_of_a_full_description(shown: int, temperature: float) -> None:
    game = CountingLeda()
    full = _search(game, shown=None, temperature=temperature)
    part = _search(game, shown=shown, temperature=temperature)
    assert (part.action, part.notation, part.iterations, part.nodes) == (
        full.action,
        full.notation,
        full.iterations,
        full.nodes,
    )
    for mine, every in zip(part.moves, full.moves, strict=True):
        if mine.notation is not None:
            assert mine == every
        else:
            assert (mine.action, mine.visits, mine.mean_value, mine.principal_variation) == (
                every.action,
                every.visits,
                every.mean_value,
                (),
            )
    described = {m.action for m in part.moves if m.notation is not None}
    assert described == {m.action for m in full.moves[:shown]} | {full.action}
