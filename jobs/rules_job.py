"""The rules calls (NewGame, LegalMoves, ApplyMove), runnable in a worker process.

They run in workers, not in the gRPC threads, so an engine call on hostile input is bounded in
time like a search: the pool's watchdog kills a worker that overruns.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardbot.engine import EngineError
from boardbot.jobs import game_ops
from boardbot.jobs.request_bounds import MAX_OPTIONS_BYTES
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service import convert
from boardbot.service.errors import Reason, bounded, from_engine_error, invalid_argument


@dataclass(frozen=True)
class RulesJob:
    """One rules call: the RPC's name and its serialized request (picklable)."""

    method: str
    request: bytes
    deadline: float | None
    """Absolute `time.time()` the client stops waiting, if it set a deadline."""
    budget_s: float
    """Longest the call may take (the server's bound for rules calls)."""

    def time_limit(self) -> tuple[float | None, float | None]:
        """(deadline, seconds it may run), for the pool's watchdog."""
        return self.deadline, self.budget_s


def new_game(request: pb.NewGameRequest) -> pb.NewGameResponse:
    """A fresh game from options and seed, opening chance steps resolved."""
    game = game_ops.load_game(request.game)
    raw = request.options_json
    options = game_ops.parse_json(raw, "options_json", MAX_OPTIONS_BYTES) if raw else {}
    if not isinstance(options, dict):
        raise invalid_argument(
            "options_json: expected a JSON object of options",
            Reason.INVALID_OPTIONS,
            "options_json",
        )
    options = game_ops.with_player_count(game, request.game, options, request.players)
    try:
        state = game.new_state(options, request.seed)
    except EngineError as error:
        raise from_engine_error("options_json", error) from None
    except (ValueError, TypeError, KeyError) as error:
        raise invalid_argument(
            f"options_json: {bounded(str(error), 200)}", Reason.INVALID_OPTIONS, "options_json"
        ) from None
    state, events = game_ops.resolve_chance(game, state, random.Random(request.seed))
    return pb.NewGameResponse(
        state_json=game_ops.encode_state(game, state),
        summary=convert.summary_message(game_ops.summarise(game, state)),
        chance_events=events,
    )


def legal_moves(request: pb.LegalMovesRequest) -> pb.LegalMovesResponse:
    """The legal moves of the seat to move."""
    game = game_ops.load_game(request.game)
    state = game_ops.decode_state(game, request.state_json)
    game_ops.check_seat(game, state, request.seat)
    moves = game_ops.legal_moves(game, state)
    return pb.LegalMovesResponse(moves=[convert.move_message(m) for m in moves])


def apply_move(request: pb.ApplyMoveRequest) -> pb.ApplyMoveResponse:
    """The state after a move, chance steps that follow resolved with the seed."""
    game = game_ops.load_game(request.game)
    state = game_ops.decode_state(game, request.state_json)
    game_ops.check_decision_state(game, state)
    which = request.WhichOneof("move")
    action = game_ops.parse_move(
        game,
        state,
        request.move_json if which == "move_json" else None,
        request.notation if which == "notation" else None,
    )
    applied = game_ops.move_forms(game, state, action)
    state = game.apply(state, action)
    state, events = game_ops.resolve_chance(game, state, random.Random(request.seed))
    return pb.ApplyMoveResponse(
        state_json=game_ops.encode_state(game, state),
        summary=convert.summary_message(game_ops.summarise(game, state)),
        move=convert.move_message(applied),
        chance_events=events,
    )


CALLS: dict[str, tuple[type[Any], Callable[[Any], Any]]] = {
    "NewGame": (pb.NewGameRequest, new_game),
    "LegalMoves": (pb.LegalMovesRequest, legal_moves),
    "ApplyMove": (pb.ApplyMoveRequest, apply_move),
}
"""Each rules RPC: its request type and its handler."""


def run_rules_job(job: RulesJob) -> bytes:
    """Run `job` and return the serialized response; raises ServiceError for a bad request."""
    request_type, handler = CALLS[job.method]
    request = request_type.FromString(job.request)
    response: bytes = handler(request).SerializeToString()
    return response
