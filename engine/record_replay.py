"""Replaying a game record under the rules, and building one while a game is played."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL, Action, Game, JsonDict, State
from boardbot.engine.errors import EngineError, echo
from boardbot.engine.record_codec import checked_move, checked_players
from boardbot.engine.record_model import (
    MAX_RECORD_MOVES,
    Record,
    RecordedMove,
    RecordError,
)


@dataclass(frozen=True)
class ReplayedPosition:
    """The position before move `index` of a record, with that move and its decoded action;
    the last position (index = number of moves) has neither."""

    index: int
    state: State
    move: RecordedMove | None
    action: Action | None


def replay(game: Game, record: Record) -> list[ReplayedPosition]:
    """Every position of `record` played out with `game` (Python or native engine), from the
    initial state to the last; RecordError names the path of the first move that does not fit
    (a seat not to move, an illegal move or impossible outcome, a wrong notation) or of a
    result that is not the game's."""
    if record.game != game.name:
        raise RecordError(
            "$.game", f"the record is of {echo(record.game)}, not of {echo(game.name)}"
        )
    state = _initial_state(game, record.initial_state)
    players = game.num_players(state)
    if record.players and len(record.players) != players:
        raise RecordError(
            "$.players", f"expected {players} players (one per seat), got {len(record.players)}"
        )
    positions = []
    for index, move in enumerate(record.moves):
        action = recorded_action(game, state, index, move)
        positions.append(ReplayedPosition(index, state, move, action))
        state = game.apply(state, action)
    positions.append(ReplayedPosition(len(record.moves), state, None, None))
    if record.result is not None:
        _check_result(game, state, record.result, len(record.moves))
    return positions


def recorded_action(game: Game, state: State, index: int, move: RecordedMove) -> Action:
    """The action move `index` of a record makes in `state`, checked: its seat is the one to
    move (-1 at a chance step), it is legal (a possible outcome) and its notation is its own."""
    path = f"$.moves[{index}]"
    to_move = game.current_player(state)
    if to_move == TERMINAL:
        raise RecordError(path, f"the game is over after {index} moves, yet the record goes on")
    if move.seat != to_move:
        raise RecordError(
            f"{path}.seat",
            f"seat {move.seat} is not to move here: {_mover(to_move)} is",
        )
    try:  # the codec checks the move is legal (at a chance step: a possible outcome)
        action = game.action_from_json(state, move.move)
    except EngineError as error:
        raise RecordError(f"{path}.move{error.path.removeprefix('$')}", error.reason) from None
    if move.notation is not None:
        written = game.action_to_str(state, action)
        if move.notation != written:
            raise RecordError(
                f"{path}.notation",
                f"{echo(move.notation)} does not name this move, which is {echo(written)}",
            )
    return action


def result_of(game: Game, state: State) -> JsonDict:
    """The `result` of a finished game: every seat's return and score."""
    scores = [_plain(s) for s in game.scores(state)]
    return {"returns": [float(r) for r in game.returns(state)], "scores": scores}


class RecordBuilder:
    """Collects the moves of a game as it is played, then gives its Record."""

    def __init__(
        self,
        game: Game,
        state: State,
        options: Mapping[str, Any],
        seed: int | None = None,
        players: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        self.game = game
        self.options = dict(options)
        self.seed = seed
        listed = [dict(p) for p in players]
        self.players = checked_players(listed) if listed else ()
        seats = game.num_players(state)
        if self.players and len(self.players) != seats:
            raise RecordError(
                "$.players", f"expected {seats} players (one per seat), got {len(self.players)}"
            )
        self.initial_state = game.state_to_json(state)
        self.moves: list[RecordedMove] = []

    def add(
        self,
        state_before: State,
        action: Action,
        clock_ms: float | None = None,
        comment: str | None = None,
    ) -> RecordedMove:
        """Record `action` played in `state_before` (by its seat to move, or chance); a clock
        or comment past the format's bounds is a RecordError."""
        if len(self.moves) >= MAX_RECORD_MOVES:
            raise RecordError("$.moves", f"a record holds at most {MAX_RECORD_MOVES} moves")
        move = RecordedMove(
            seat=self.game.current_player(state_before),
            move=self.game.action_to_json(state_before, action),
            notation=self.game.action_to_str(state_before, action),
            clock_ms=clock_ms,
            comment=comment,
        )
        self.moves.append(checked_move(move, len(self.moves)))
        return move

    def finish(
        self,
        final_state: State,
        date: str | None = None,
        event: str | None = None,
        comment: str | None = None,
    ) -> Record:
        """The record of the moves so far, with the result when `final_state` is over."""
        result = result_of(self.game, final_state) if self.game.is_terminal(final_state) else None
        return Record(
            game=self.game.name,
            options=self.options,
            initial_state=self.initial_state,
            moves=tuple(self.moves),
            seed=self.seed,
            players=self.players,
            result=result,
            date=date,
            event=event,
            comment=comment,
        )


def _initial_state(game: Game, data: JsonDict) -> State:
    try:
        return game.state_from_json(data)
    except EngineError as error:
        raise RecordError(f"$.initial_state{error.path.removeprefix('$')}", error.reason) from None


def _check_result(game: Game, state: State, result: JsonDict, moves: int) -> None:
    if not game.is_terminal(state):
        raise RecordError(
            "$.result", f"the game is not over after its {moves} moves, yet a result is given"
        )
    played = result_of(game, state)
    for field in ("returns", "scores"):
        if not _same(played[field], result[field]):
            raise RecordError(
                f"$.result.{field}",
                f"the moves end with {field} {played[field]}, the record says {result[field]}",
            )


def _same(played: Sequence[float], said: Sequence[float]) -> bool:
    return len(played) == len(said) and all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(played, said, strict=True)
    )


def _plain(value: float) -> float:
    """A whole number as an int (scores are counted in points), any other as it is."""
    return int(value) if float(value).is_integer() else float(value)


def _mover(seat: int) -> str:
    return "chance (seat -1)" if seat == CHANCE else f"seat {seat}"
