"""The network's own figures of the root moves beside the search's: each described move's prior
at the root and value after the move (`MoveStats.prior`, `MoveStats.net_value`), on the Python
search and the native core alike."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardbot.engine.registry import get_game
from boardbot.search.api import SearchConfig, SearchControls, SearchResult
from boardbot.search.guided import NET_VALUE_WORLDS
from boardbot.search.ismcts import search, search_view
from boardbot.search.network import Network, random_network
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.search.decisions import decision

native_only = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
ENGINES = [pytest.param("python", id="python"), pytest.param("native", marks=native_only)]


def random_model(game: Any, players: int, path: Path, seed: int = 1) -> Path:
    """A model file of random weights that fits `game` with `players` seats."""
    network = random_network(
        game.feature_size(players),
        game.action_feature_size(),
        hidden=(16,),
        players=players,
        seed=seed,
        game=game.name,
        features_version=game.features_version,
    )
    network.save(path)
    return path


def run(
    name: str, players: int, engine: str, model: Path | None, shown: int | None = None, **kw: Any
) -> SearchResult:
    game, state = decision(name, {"players": players} if name != "leda" else {}, seed=3)
    seat = game.current_player(state)
    config = SearchConfig(
        iterations=60, early_stop=False, model=None if model is None else str(model), **kw
    )
    controls = SearchControls(shown=shown)
    return search_view(game, game.observe(state, seat), config, 7, controls, engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_described_moves_carry_the_networks_prior_and_value(engine: str, tmp_path: Path) -> None:
    game, _ = decision("legend_raiders", {"players": 2}, seed=3)
    model = random_model(game, 2, tmp_path / "m.bbnet")
    result = run("legend_raiders", 2, engine, model, shown=2)
    described = [m for m in result.moves if m.notation is not None]
    assert len(described) >= 2
    for move in result.moves:
        if move.notation is None:
            assert move.prior is None and move.net_value is None
            continue
        assert move.prior is not None and move.net_value is not None
        assert 0.0 <= move.prior <= 1.0
        assert 0.0 <= move.net_value <= 1.0
    chosen = next(m for m in result.moves if m.action == result.action)
    assert chosen.prior is not None
    # The same search, the same figures.
    again = run("legend_raiders", 2, engine, model, shown=2)
    assert [(m.prior, m.net_value) for m in again.moves] == [
        (m.prior, m.net_value) for m in result.moves
    ]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("players", [2, 3])
def test_the_priors_of_every_move_sum_to_one(engine: str, players: int, tmp_path: Path) -> None:
    game, _ = decision("legend_raiders", {"players": players}, seed=3)
    model = random_model(game, players, tmp_path / "m.bbnet")
    result = run("legend_raiders", players, engine, model)
    priors = [m.prior for m in result.moves]
    assert all(p is not None for p in priors)
    assert math.fsum(p for p in priors if p is not None) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_model_there_are_no_figures(engine: str) -> None:
    result = run("legend_raiders", 2, engine, None)
    assert result.moves
    assert all(m.prior is None and m.net_value is None for m in result.moves)


def test_leda_has_the_figures_on_the_python_search(tmp_path: Path) -> None:
    game, _ = decision("leda", {}, seed=3)
    model = random_model(game, 2, tmp_path / "m.bbnet")
    result = run("leda", 2, "python", model, shown=3)
    for move in result.moves[:3]:
        assert move.prior is not None and 0.0 <= move.prior <= 1.0
        assert move.net_value is not None and 0.0 <= move.net_value <= 1.0


@native_only
@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_and_python_priors_agree(players: int, tmp_path: Path) -> None:
    game, _ = decision("legend_raiders", {"players": players}, seed=3)
    model = random_model(game, players, tmp_path / "m.bbnet", seed=players)
    python = run("legend_raiders", players, "python", model)
    native = run("legend_raiders", players, "native", model)
    ours = {m.action: m.prior for m in python.moves}
    theirs = {m.action: m.prior for m in native.moves}
    assert ours.keys() == theirs.keys()
    for action, prior in ours.items():
        assert prior is not None and theirs[action] is not None
        assert abs(prior - theirs[action]) < 1e-5, action  # type: ignore[operator]


def seat_valued(game: Any, players: int, path: Path, own: float, others: float) -> Path:
    """A model whose value head says `own` for the seat whose view it reads and `others` for
    every other seat, whatever the position (a constant uniform policy)."""
    features, actions = game.feature_size(players), game.action_feature_size()
    width = 2
    logit = np.log([own / (1 - own)] + [others / (1 - others)] * (players - 1))
    arrays = [
        np.zeros((features, width)), np.zeros(width),
        np.zeros((width, players)), logit,
        np.zeros((width, actions)), np.zeros(actions),
    ]
    network = Network.create(
        game.name, players, features, actions, game.features_version, arrays, hidden=(width,)
    )
    network.save(path)
    return path


@pytest.mark.parametrize("engine", ENGINES)
def test_the_value_is_the_networks_from_the_next_movers_view_for_the_deciding_seat(
    engine: str, tmp_path: Path
) -> None:
    """After the move, each world is valued from the view of the seat to move there, turned
    back to the deciding seat: `own` when it moves again, `others` when a rival does (or the
    final reward). With a uniform policy, every prior is 1 / moves."""
    game, _ = decision("legend_raiders", {"players": 2}, seed=3)
    model = seat_valued(game, 2, tmp_path / "m.bbnet", own=0.9, others=0.2)
    result = run("legend_raiders", 2, engine, model)
    count = len(result.moves)
    for move in result.moves:
        assert move.prior == pytest.approx(1.0 / count, abs=1e-6)
        assert move.net_value is not None
        # A mean of NET_VALUE_WORLDS values, each 0.9 or 0.2 (no move here ends the game).
        options = [
            (k * 0.9 + (NET_VALUE_WORLDS - k) * 0.2) / NET_VALUE_WORLDS
            for k in range(NET_VALUE_WORLDS + 1)
        ]
        assert min(abs(move.net_value - v) for v in options) < 1e-5, move.net_value


@pytest.mark.parametrize("engine", ENGINES)
def test_the_figures_do_not_change_the_search(engine: str, tmp_path: Path) -> None:
    """The figures depend on the view, the model and the seed alone: the search's statistics
    are those of the same search with fewer moves described."""
    game, _ = decision("legend_raiders", {"players": 2}, seed=3)
    model = random_model(game, 2, tmp_path / "m.bbnet")
    every = run("legend_raiders", 2, engine, model)
    one = run("legend_raiders", 2, engine, model, shown=1)
    assert [(m.action, m.visits, m.mean_value) for m in every.moves] == [
        (m.action, m.visits, m.mean_value) for m in one.moves
    ]
    assert (one.moves[0].prior, one.moves[0].net_value) == (
        every.moves[0].prior,
        every.moves[0].net_value,
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_single_legal_move_gets_its_figures_too(engine: str, tmp_path: Path) -> None:
    game = get_game("legend_raiders")
    state = game.new_state({"players": 2}, 1)
    rng = random.Random(1)
    for _ in range(400):
        player = game.current_player(state)
        if player == -1:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if player < 0:
            break
        actions = game.legal_actions(state)
        if len(actions) == 1:
            break
        state = game.apply(state, rng.choice(actions))
    else:
        pytest.skip("no single-move decision met")
    if game.current_player(state) < 0:
        pytest.skip("no single-move decision met")
    model = random_model(game, 2, tmp_path / "m.bbnet")
    seat = game.current_player(state)
    config = SearchConfig(iterations=10, model=str(model))
    result = search(game, state, seat, config, 1, engine=engine)
    assert len(result.moves) == 1
    assert result.moves[0].prior == pytest.approx(1.0)
    assert result.moves[0].net_value is not None
