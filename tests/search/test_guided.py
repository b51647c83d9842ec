"""The search with a model: PUCT on the network's priors, the network's value at the leaves,
its settings and its checks, on the Python search and the native core alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardbot.search.api import SearchConfig
from boardbot.search.errors import InvalidConfigError
from boardbot.search.ismcts import search
from boardbot.search.network import Network
from boardbot.search.overrides import apply_overrides
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.search.decisions import decision

ENGINES = [
    pytest.param("python", id="python"),
    pytest.param(
        "native", id="native", marks=pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
    ),
]

SETUPS = [
    pytest.param("legend_raiders", {"players": 2}, id="legend_raiders-2p"),
    pytest.param("legend_raiders", {"players": 3}, id="legend_raiders-3p"),
    pytest.param("leda", {}, id="leda"),
]


def favouring(game: Any, state: Any, favoured: Any, path: Path) -> Path:
    """A model file whose value is 0.5 for every seat and whose policy puts nearly all its
    weight on `favoured` (through an action-feature index no other legal move has)."""
    players = game.num_players(state)
    features = game.feature_size(players)
    actions = game.action_feature_size()
    others = {j for a in game.legal_actions(state) if a != favoured
              for j in game.action_features(state, a)}
    own = [j for j in game.action_features(state, favoured) if j not in others]
    assert own, "the favoured move has no action feature of its own"
    width = 4
    policy_bias = np.zeros(actions, dtype=np.float32)
    policy_bias[own[0]] = 30.0
    arrays = [
        np.zeros((features, width)), np.zeros(width),
        np.zeros((width, players)), np.zeros(players),
        np.zeros((width, actions)), policy_bias,
    ]
    network = Network.create(
        game.name, players, features, actions, game.features_version, arrays, hidden=(width,)
    )
    network.save(path)
    return path


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "options"), SETUPS)
def test_the_learned_prior_leads_the_search(
    engine: str, name: str, options: dict[str, Any], tmp_path: Path
) -> None:
    game, state = decision(name, options, seed=3)
    seat = game.current_player(state)
    plain = search(game, state, seat, SearchConfig(iterations=40, early_stop=False), 5,
                   engine=engine)
    # The move the plain search likes least (with its first legal move on ties) gets the prior.
    favoured = min(plain.moves, key=lambda m: m.visits).action
    model = favouring(game, state, favoured, tmp_path / "model.bbnet")
    config = SearchConfig(iterations=40, early_stop=False, model=str(model))
    guided = search(game, state, seat, config, 5, engine=engine)
    assert guided.action == favoured
    assert guided.moves[0].visits >= 30
    assert sum(m.visits for m in guided.moves) == 40
    again = search(game, state, seat, config, 5, engine=engine)
    assert summary(again) == summary(guided)


def summary(result: Any) -> list[tuple[Any, int, float]]:
    """A result's moves with their statistics (what the seed decides)."""
    return [(m.action, m.visits, m.mean_value) for m in result.moves]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_leaf_value_of_one_half_is_what_the_moves_are_worth(engine: str, tmp_path: Path) -> None:
    game, state = decision("legend_raiders", {"players": 3}, seed=4)
    seat = game.current_player(state)
    favoured = game.legal_actions(state)[0]
    model = favouring(game, state, favoured, tmp_path / "model.bbnet")
    config = SearchConfig(iterations=60, early_stop=False, model=str(model), leaf_lambda=1.0)
    result = search(game, state, seat, config, 1, engine=engine)
    # Every leaf that is not the end of the game is worth 0.5 to every seat.
    for move in result.moves:
        if move.visits:
            assert move.mean_value == pytest.approx(0.5, abs=0.15)


@pytest.mark.parametrize("engine", ENGINES)
def test_lambda_zero_values_leaves_by_rollouts(engine: str, tmp_path: Path) -> None:
    game, state = decision("legend_raiders", {"players": 2}, seed=5)
    seat = game.current_player(state)
    favoured = game.legal_actions(state)[0]
    model = favouring(game, state, favoured, tmp_path / "model.bbnet")
    config = SearchConfig(iterations=200, early_stop=False, model=str(model), leaf_lambda=0.0)
    result = search(game, state, seat, config, 2, engine=engine)
    values = {round(m.mean_value, 6) for m in result.moves if m.visits > 3}
    assert values - {0.5}, "rollouts give values other than the network's 0.5"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_model_for_another_seat_count_is_refused(engine: str, tmp_path: Path) -> None:
    game, state = decision("legend_raiders", {"players": 2}, seed=6)
    _, three = decision("legend_raiders", {"players": 3}, seed=6)
    model = favouring(game, three, game.legal_actions(three)[0], tmp_path / "three.bbnet")
    config = SearchConfig(iterations=10, model=str(model))
    with pytest.raises(InvalidConfigError, match="the model does not fit: it was trained for "
                       "3 players, the game has 2"):
        search(game, state, game.current_player(state), config, 1, engine=engine)


def test_model_settings_are_checked() -> None:
    with pytest.raises(InvalidConfigError, match="leaf_lambda must lie in"):
        search_config_checked(leaf_lambda=1.5)
    with pytest.raises(InvalidConfigError, match="puct must be"):
        search_config_checked(puct=-1.0)
    with pytest.raises(InvalidConfigError, match="fpu must be"):
        search_config_checked(fpu=float("nan"))
    with pytest.raises(InvalidConfigError, match="no shipped model named 'chess-2p'"):
        search_config_checked(model="chess-2p")
    with pytest.raises(InvalidConfigError, match="no model file at"):
        search_config_checked(model="/nowhere/model.bbnet")


def search_config_checked(**changes: Any) -> None:
    """Check a configuration with `changes` (raises InvalidConfigError)."""
    from boardbot.search.checks import check_config

    check_config(SearchConfig().replace(**changes))


def test_bot_overrides_set_the_model_settings(tmp_path: Path) -> None:
    game, state = decision("legend_raiders", {"players": 2}, seed=7)
    model = favouring(game, state, game.legal_actions(state)[0], tmp_path / "m.bbnet")
    config = apply_overrides(
        SearchConfig(), [f"model={model}", "lambda=0.25", "puct=2", "fpu=0.1"]
    )
    assert (config.model, config.leaf_lambda, config.puct, config.fpu) == (
        str(model), 0.25, 2.0, 0.1
    )


def test_a_bot_names_a_model_by_path_with_or_without_an_engine(tmp_path: Path) -> None:
    from boardbot.search.bots import MctsBot, UnknownBotError, make_bot

    game, state = decision("legend_raiders", {"players": 2}, seed=8)
    model = favouring(game, state, game.legal_actions(state)[0], tmp_path / "m.bbnet")
    for suffix, engine in (("", "auto"), ("/python", "python")):
        bot = make_bot(f"hard@5ms+model={model}{suffix}", "legend_raiders")
        assert isinstance(bot, MctsBot)
        assert bot.config.model == str(model)
        assert bot.engine == engine
    with pytest.raises(UnknownBotError, match="bad engine"):
        make_bot("hard/nativ", "legend_raiders")
