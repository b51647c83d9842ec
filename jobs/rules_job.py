"""The rules calls (NewGame, LegalMoves, ApplyMove) in plain values, runnable in a worker.

They run in workers, not in the gRPC threads, so an engine call on hostile input is bounded in
time like a search: the pool's watchdog kills a worker that overruns. The edge turns requests
into these calls and their results into responses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from boardbot.engine import EngineError
from boardbot.jobs import game_ops
from boardbot.jobs.failures import Reason, bounded, from_engine_error, invalid_argument
from boardbot.jobs.game_ops import MoveForms, Summary
from boardbot.jobs.request_bounds import MAX_OPTIONS_BYTES


@dataclass(frozen=True)
class NewGameCall:
    """Set up a game from options (`players` 0: the options' count) and a seed."""

    game: str
    options_json: bytes
    players: int
    seed: int

    method = "NewGame"


@dataclass(frozen=True)
class LegalMovesCall:
    """List the legal moves of `seat`, which must be the seat to move."""

    game: str
    state_json: bytes
    seat: int

    method = "LegalMoves"


@dataclass(frozen=True)
class ApplyMoveCall:
    """Apply a move given as JSON or as notation (exactly one is set), then resolve chance."""

    game: str
    state_json: bytes
    move_json: bytes | None
    notation: str | None
    seed: int

    method = "ApplyMove"


RulesCall = NewGameCall | LegalMovesCall | ApplyMoveCall


@dataclass(frozen=True)
class GameStep:
    """A state reached by a rules call: its JSON, summary, chance events and the move played."""

    state_json: bytes
    summary: Summary
    chance_events: tuple[str, ...]
    move: MoveForms | None = None
    """The move applied (ApplyMove only)."""


RulesResult = GameStep | tuple[MoveForms, ...]


@dataclass(frozen=True)
class RulesJob:
    """One rules call with its time bounds (picklable)."""

    call: RulesCall
    deadline: float | None
    """Absolute `time.time()` the client stops waiting, if it set a deadline."""
    budget_s: float
    """Longest the call may take (the server's bound for rules calls)."""

    @property
    def method(self) -> str:
        """The RPC this call answers."""
        return self.call.method

    def time_limit(self) -> tuple[float | None, float | None]:
        """(deadline, seconds it may run), for the pool's watchdog."""
        return self.deadline, self.budget_s


def new_game(call: NewGameCall) -> GameStep:
    """A fresh game from options and seed, opening chance steps resolved."""
    game = game_ops.load_game(call.game)
    raw = call.options_json
    options = game_ops.parse_json(raw, "options_json", MAX_OPTIONS_BYTES) if raw else {}
    if not isinstance(options, dict):
        raise invalid_argument(
            "options_json: expected a JSON object of options",
            Reason.INVALID_OPTIONS,
            "options_json",
        )
    options = game_ops.with_player_count(game, call.game, options, call.players)
    try:
        state = game.new_state(options, call.seed)
    except EngineError as error:
        raise from_engine_error("options_json", error) from None
    except (ValueError, TypeError, KeyError) as error:
        raise invalid_argument(
            f"options_json: {bounded(str(error), 200)}", Reason.INVALID_OPTIONS, "options_json"
        ) from None
    state, events = game_ops.resolve_chance(game, state, random.Random(call.seed))
    return GameStep(
        game_ops.encode_state(game, state), game_ops.summarise(game, state), tuple(events)
    )


def legal_moves(call: LegalMovesCall) -> tuple[MoveForms, ...]:
    """The legal moves of the seat to move."""
    game = game_ops.load_game(call.game)
    state = game_ops.decode_state(game, call.state_json)
    game_ops.check_seat(game, state, call.seat)
    return tuple(game_ops.legal_moves(game, state))


def apply_move(call: ApplyMoveCall) -> GameStep:
    """The state after a move, chance steps that follow resolved with the seed."""
    game = game_ops.load_game(call.game)
    state = game_ops.decode_state(game, call.state_json)
    game_ops.check_decision_state(game, state)
    action = game_ops.parse_move(game, state, call.move_json, call.notation)
    applied = game_ops.move_forms(game, state, action)
    state = game.apply(state, action)
    state, events = game_ops.resolve_chance(game, state, random.Random(call.seed))
    return GameStep(
        game_ops.encode_state(game, state),
        game_ops.summarise(game, state),
        tuple(events),
        move=applied,
    )


def run_rules_job(job: RulesJob) -> RulesResult:
    """Run `job` and return its result; raises RequestError for a bad request."""
    call = job.call
    if isinstance(call, NewGameCall):
        return new_game(call)
    if isinstance(call, LegalMovesCall):
        return legal_moves(call)
    return apply_move(call)
