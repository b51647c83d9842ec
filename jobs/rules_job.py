"""The rules calls (NewGame, LegalMoves, ApplyMove, ViewState) in plain values, runnable in a
worker or in the server's own thread.

A call runs on the engine its job names (`served_game`): the native twin, where the native core
decodes the state once and answers with the Python engine's bytes, or the Python engine. On the
Python engine they run in workers, so an engine call on hostile input is bounded in time like a
search (the pool's watchdog kills a worker that overruns); on the native core every call is
bounded by the request's bounds and runs in the server's thread (docs/native.md, "The request
path"). The edge turns requests into these calls and their results into responses.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from boardbot.engine import CHANCE, EngineError, Game, State
from boardbot.jobs import game_ops
from boardbot.jobs.failures import (
    Reason,
    bounded,
    deadline_exceeded,
    from_engine_error,
    invalid_argument,
)
from boardbot.jobs.game_ops import MoveForms, MoveList, Summary
from boardbot.jobs.request_bounds import MAX_OPTIONS_BYTES
from boardbot.search.engines import Engine


@dataclass(frozen=True)
class NewGameCall:
    """Set up a game from options (`players` 0: the options' count) and a seed; with
    `manual_chance`, stop at the first chance step."""

    game: str
    options_json: bytes
    players: int
    seed: int
    manual_chance: bool = False

    method = "NewGame"


@dataclass(frozen=True)
class LegalMovesCall:
    """List the legal moves of `seat`, which must be the seat to move (or the outcomes of a
    chance step, for seat -1)."""

    game: str
    state_json: bytes
    seat: int

    method = "LegalMoves"


@dataclass(frozen=True)
class ApplyMoveCall:
    """Apply a move or chance outcome given as JSON or as notation (at most one is set; none at
    a chance step draws the outcome from the seed), then resolve chance unless
    `manual_chance`."""

    game: str
    state_json: bytes
    move_json: bytes | None
    notation: str | None
    seed: int
    manual_chance: bool = False

    method = "ApplyMove"


@dataclass(frozen=True)
class ViewStateCall:
    """The state as `seat` sees it."""

    game: str
    state_json: bytes
    seat: int

    method = "ViewState"


RulesCall = NewGameCall | LegalMovesCall | ApplyMoveCall | ViewStateCall


@dataclass(frozen=True)
class GameStep:
    """A state reached by a rules call: its JSON, summary, chance events and the move played."""

    state_json: bytes
    summary: Summary
    chance_events: tuple[str, ...]
    move: MoveForms | None = None
    """The move applied (ApplyMove only; None when the server drew a chance outcome)."""


@dataclass(frozen=True)
class SeatView:
    """A state as one seat sees it: its view's JSON and the summary of that view."""

    state_json: bytes
    summary: Summary


RulesResult = GameStep | MoveList | SeatView


@dataclass(frozen=True)
class RulesJob:
    """One rules call with its time bounds (picklable)."""

    call: RulesCall
    deadline: float | None
    """Absolute `time.time()` the client stops waiting, if it set a deadline."""
    budget_s: float
    """Longest the call may take (the server's bound for rules calls)."""
    engine: Engine = Engine.PYTHON
    """The engine the call runs on (`auto`: the native twin where the game has one)."""

    @property
    def method(self) -> str:
        """The RPC this call answers."""
        return self.call.method

    def time_limit(self) -> tuple[float | None, float | None]:
        """(deadline, seconds it may run), for the pool's watchdog."""
        return self.deadline, self.budget_s


def new_game(call: NewGameCall, engine: Engine = Engine.PYTHON) -> GameStep:
    """A fresh game from options and seed, opening chance steps resolved."""
    game = game_ops.served_game(call.game, engine)
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
    rng = random.Random(call.seed)
    state, events = game_ops.resolve_chance(game, state, rng, manual=call.manual_chance)
    return GameStep(
        game_ops.encode_state(game, state), game_ops.summarise(game, state), tuple(events)
    )


def legal_moves(call: LegalMovesCall, engine: Engine = Engine.PYTHON) -> MoveList:
    """The legal moves of the seat to move, or the outcomes of a chance step (seat -1)."""
    game = game_ops.served_game(call.game, engine)
    state = game_ops.decode_state(game, call.state_json)
    game_ops.check_listing_seat(game, state, call.seat)
    return game_ops.move_list(game, state)


def apply_move(call: ApplyMoveCall, engine: Engine = Engine.PYTHON) -> GameStep:
    """The state after a move or chance outcome, chance steps that follow resolved with the
    seed unless `manual_chance`."""
    game = game_ops.served_game(call.game, engine)
    state = game_ops.decode_state(game, call.state_json)
    rng = random.Random(call.seed)
    state, events, applied = _first_step(game, state, call, rng)
    state, more = game_ops.resolve_chance(game, state, rng, manual=call.manual_chance)
    return GameStep(
        game_ops.encode_state(game, state),
        game_ops.summarise(game, state),
        (*events, *more),
        move=applied,
    )


def _first_step(
    game: Game, state: State, call: ApplyMoveCall, rng: random.Random
) -> tuple[State, list[str], MoveForms | None]:
    """The request's own step: its move (or chance outcome), or at a chance step without one
    an outcome drawn with `rng`; returns the state, the drawn events and the move applied."""
    game_ops.check_not_over(game, state)
    given = call.move_json is not None or call.notation is not None
    if game.current_player(state) == CHANCE and not given:
        state, event = game_ops.sample_chance_step(game, state, rng)
        return state, [event], None
    action = game_ops.parse_move(game, state, call.move_json, call.notation)
    return game.apply(state, action), [], game_ops.move_forms(game, state, action)


def view_state(call: ViewStateCall, engine: Engine = Engine.PYTHON) -> SeatView:
    """The state as `call.seat` sees it, hidden parts as counts, with that view's summary."""
    game = game_ops.served_game(call.game, engine)
    state = game_ops.decode_state(game, call.state_json)
    game_ops.check_seat_exists(game, state, call.seat)
    seen = game.observe(state, call.seat).state
    return SeatView(
        game_ops.encode_state(game, state, observer=call.seat), game_ops.summarise(game, seen)
    )


def run_native_rules_job(job: RulesJob) -> RulesResult:
    """Run `job` (on the engine it names: the native twin, as the server runs it) in the
    calling thread, refused when its deadline has passed already."""
    deadline = job.deadline
    if deadline is not None and time.time() >= deadline:
        raise deadline_exceeded("the deadline passed before the call began")
    return run_rules_job(job)


def run_rules_job(job: RulesJob) -> RulesResult:
    """Run `job` and return its result; raises RequestError for a bad request."""
    call, engine = job.call, job.engine
    if isinstance(call, NewGameCall):
        return new_game(call, engine)
    if isinstance(call, LegalMovesCall):
        return legal_moves(call, engine)
    if isinstance(call, ViewStateCall):
        return view_state(call, engine)
    return apply_move(call, engine)
