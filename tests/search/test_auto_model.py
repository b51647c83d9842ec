"""The `auto` model: a search takes the shipped model of its game and seat count."""

from __future__ import annotations

import pytest

from boardbot.engine.registry import get_game
from boardbot.search.api import SearchConfig
from boardbot.search.bots import MctsBot, make_bot
from boardbot.search.checks import check_config, checked_config
from boardbot.search.engines import Engine
from boardbot.search.models import AUTO_MODEL, model_name, shipped_models, with_model_for
from tests.service.positions import decision_state


@pytest.mark.parametrize(("game", "players"), [("leda", 2), ("legend_raiders", 2),
                                               ("legend_raiders", 3), ("legend_raiders", 4)])
def test_auto_is_the_shipped_model_of_the_game_and_seat_count(game: str, players: int) -> None:
    resolved = with_model_for(SearchConfig(model=AUTO_MODEL), game, players)
    assert resolved.model == model_name(game, players)
    assert resolved.model in shipped_models()


def test_auto_without_a_shipped_model_searches_without_one() -> None:
    assert with_model_for(SearchConfig(model=AUTO_MODEL), "legend_raiders", 7).model is None
    assert with_model_for(SearchConfig(model=AUTO_MODEL), "toy-nim", 2).model is None


def test_other_settings_pass_unchanged() -> None:
    for config in (SearchConfig(), SearchConfig(model="leda-2p"), SearchConfig(model="x.bbnet")):
        assert with_model_for(config, "leda", 2) is config


def test_auto_is_a_usable_setting_and_resolves_at_the_search() -> None:
    check_config(SearchConfig(model=AUTO_MODEL))
    game = get_game("legend_raiders")
    state = decision_state(game, {"players": 3}, seed=4)
    seat = game.current_player(state)
    config = checked_config(game, state, seat, SearchConfig(iterations=20, model=AUTO_MODEL))
    assert config.model == "legend_raiders-3p"


@pytest.mark.parametrize("engine", [Engine.PYTHON, Engine.AUTO])
def test_bot_names_take_auto_and_none(engine: Engine) -> None:
    game = get_game("legend_raiders")
    state = decision_state(game, {"players": 3}, seed=4)
    seat = game.current_player(state)
    guided = make_bot("medium@20+model=auto", game, engine)
    assert isinstance(guided, MctsBot) and guided.config.model == AUTO_MODEL
    result = guided.search(game, state, seat, seed=1)
    assert result.moves[0].prior is not None
    plain = make_bot("medium@20+model=auto+model=none", game, engine)
    assert isinstance(plain, MctsBot) and plain.config.model is None
    assert plain.search(game, state, seat, seed=1).moves[0].prior is None
