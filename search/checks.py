"""The one check of a search request: a usable configuration and a seat that is to move."""

from __future__ import annotations

import math

from boardbot.engine.api import CHANCE, TERMINAL, Game, State
from boardbot.search.api import SearchConfig
from boardbot.search.errors import (
    ChanceStepError,
    GameOverError,
    InvalidConfigError,
    InvalidSeatError,
    NotSeatToMoveError,
)
from boardbot.search.models import AUTO_MODEL, check_fits, load_network, model_path, with_model_for
from boardbot.search.rollout import get_policy


def check_request(game: Game, state: State, seat: int, config: SearchConfig) -> None:
    """Raise a SearchError unless `seat` is to move in `state` and `config` is usable (its
    model, if any, made for this game and seat count)."""
    check_seat(game, state, seat)
    check_config(config)
    if config.model is not None:
        check_fits(load_network(config.model), game, game.num_players(state))


def checked_config(game: Game, state: State, seat: int, config: SearchConfig) -> SearchConfig:
    """The configuration a search of `state` for `seat` runs with (an `auto` model made the
    game's shipped model for the state's seat count), after check_request's checks."""
    resolved = with_model_for(config, game.name, game.num_players(state))
    check_request(game, state, seat, resolved)
    return resolved


def check_seat(game: Game, state: State, seat: int) -> None:
    """InvalidSeatError, GameOverError, ChanceStepError or NotSeatToMoveError unless `seat`
    exists and is the seat to move."""
    check_seat_exists(game, state, seat)
    check_decision(game, state)
    to_move = game.current_player(state)
    if to_move != seat:
        raise NotSeatToMoveError(f"seat {seat} is not to move; seat {to_move} is")


def check_seat_exists(game: Game, state: State, seat: int) -> None:
    """InvalidSeatError unless `seat` is a seat of the state (0..players-1)."""
    players = game.num_players(state)
    if not 0 <= seat < players:
        raise InvalidSeatError(f"seat: must be in 0..{players - 1} for this state, got {seat}")


def check_not_over(game: Game, state: State) -> None:
    """GameOverError once the game is over."""
    if game.current_player(state) == TERMINAL:
        raise GameOverError("the game is over: no seat is to move")


def check_decision(game: Game, state: State) -> None:
    """GameOverError or ChanceStepError unless some seat has a decision to make in `state`."""
    check_not_over(game, state)
    if game.current_player(state) == CHANCE:
        raise ChanceStepError("the state is at a chance step: no seat is to move")


def check_config(config: SearchConfig) -> None:
    """InvalidConfigError (UnknownRolloutPolicyError for the rollout) unless `config` is usable."""
    if config.iterations is None and config.time_ms is None and config.deadline is None:
        raise InvalidConfigError("the search needs a budget: iterations, time_ms or deadline")
    if config.iterations is not None and config.iterations < 1:
        raise InvalidConfigError(f"iterations must be at least 1, got {config.iterations}")
    if config.workers < 1:
        raise InvalidConfigError(f"workers must be at least 1, got {config.workers}")
    if config.node_cap < 1:
        raise InvalidConfigError(f"node_cap must be at least 1, got {config.node_cap}")
    if not 0.0 <= config.margin_weight <= 1.0:
        raise InvalidConfigError(f"margin_weight must lie in [0, 1], got {config.margin_weight}")
    if not 0.0 <= config.prior_weight < math.inf:
        raise InvalidConfigError(
            f"prior_weight must be a finite number >= 0, got {config.prior_weight}"
        )
    if not 0.0 <= config.widening < math.inf:
        raise InvalidConfigError(f"widening must be a finite number >= 0, got {config.widening}")
    if not 0.0 <= config.widening_exponent <= 1.0:
        raise InvalidConfigError(
            f"widening_exponent must lie in [0, 1], got {config.widening_exponent}"
        )
    if not 0.0 <= config.leaf_lambda <= 1.0:
        raise InvalidConfigError(f"leaf_lambda must lie in [0, 1], got {config.leaf_lambda}")
    if not 0.0 <= config.puct < math.inf:
        raise InvalidConfigError(f"puct must be a finite number >= 0, got {config.puct}")
    if not math.isfinite(config.fpu):
        raise InvalidConfigError(f"fpu must be a finite number, got {config.fpu}")
    if config.model is not None and config.model != AUTO_MODEL:
        model_path(config.model)
    get_policy(config.rollout)
