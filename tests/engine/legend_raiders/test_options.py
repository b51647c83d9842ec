"""Game options and setup."""

from __future__ import annotations

import pytest

from boardbot.engine import InvalidStateError
from boardbot.engine.legend_raiders.chance import bits
from boardbot.engine.legend_raiders.state import ACTION, ROLL
from tests.engine.legend_raiders.builders import Engine


def test_describe_options_lists_every_option(engine: Engine) -> None:
    options = engine.game.describe_options()
    assert set(options) == {"players", "variant", "characters", "first_player"}
    assert options["variant"]["choices"] == ["dice", "diceless"]


def test_setup_follows_the_rules(engine: Engine) -> None:
    state = engine.py(engine.game.new_state({"players": 4}, 11))
    assert len(state.players) == 4 and state.phase == ROLL
    assert sorted(p.board for p in state.players) == [0, 1, 2, 3]
    assert all(p.torch and p.points == 0 and sum(p.tools) == 0 for p in state.players)
    assert all(t >= 0 for t in state.hq_tiles)
    assert [sum(t) for t in state.hq_tools] == [2] * 4
    assert sum(state.bag) == 36 - 8
    assert len(bits(state.stack)) == 24 and len(bits(state.deck)) == 24
    assert all(c >= 0 for c in state.row)
    assert state.seat == state.first


def test_characters_by_number_or_name_and_the_first_player(engine: Engine) -> None:
    options = {"players": 3, "characters": [4, "Lana Soft", "montana john"], "first_player": 2,
               "variant": "diceless"}
    state = engine.py(engine.game.new_state(options, 1))
    assert [p.board for p in state.players] == [3, 2, 0]
    assert state.first == 2 and state.seat == 2 and state.phase == ACTION


def test_seeded_random_setup_is_reproducible(engine: Engine) -> None:
    assert engine.game.new_state({"players": 3}, 9) == engine.game.new_state({"players": 3}, 9)
    firsts = {engine.py(engine.game.new_state({"players": 4}, seed)).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"players": 5}, "$.options.players"),
        ({"variant": "cards"}, "$.options.variant"),
        ({"players": 2, "characters": [1, 1]}, "$.options.characters[1]"),
        ({"players": 2, "characters": [1]}, "$.options.characters"),
        ({"players": 2, "characters": [1, "Indiana"]}, "$.options.characters[1]"),
        ({"players": 2, "first_player": 2}, "$.options.first_player"),
        ({"colour": "red"}, "$.options.colour"),
    ],
)
def test_bad_options_name_the_path(engine: Engine, options: dict[str, object], path: str) -> None:
    with pytest.raises(InvalidStateError) as err:
        engine.game.new_state(options, 0)
    assert err.value.path == path
