"""A game review: replay a record, search every decision from its mover's view, judge the
moves of the reviewed seats, and sum each seat up (docs/review.md).

The review runs position by position through a caller's `run` function (a worker pool at low
priority in the server, this process on the command line), so it streams: each decision's
review is ready once the next decision's values are known (its `values_after`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from boardbot.engine import CHANCE, Game, State
from boardbot.engine.errors import echo
from boardbot.engine.record import MAX_RECORD_BYTES, Record, RecordError, record_from_json, replay
from boardbot.jobs import game_ops, settings
from boardbot.jobs.failures import Reason, RequestError, invalid_argument
from boardbot.jobs.request_bounds import (
    MAX_REVIEW_DECISIONS,
    MAX_REVIEW_POSITION_MS,
    MAX_REVIEW_SEATS,
)
from boardbot.jobs.review_job import PositionJob, PositionSearch
from boardbot.jobs.review_judgement import (
    JudgedMove,
    SeatReview,
    Thresholds,
    judge,
    summarise,
    thresholds_for,
)
from boardbot.jobs.search_job import RankedMove
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from boardbot.search.seeds import derive_seed

RECORD_FIELD = "record_json"


@dataclass(frozen=True)
class Decision:
    """One decision of the record: where it was taken and what was played."""

    index: int
    """Its index in the record's moves."""
    seat: int
    state: State
    """The full state before it (Python engine)."""
    played_json: bytes


@dataclass(frozen=True)
class ReviewPlan:
    """A checked record, ready to review."""

    game: str
    record: Record
    decisions: tuple[Decision, ...]
    players: int
    seats: tuple[int, ...]
    """Seats whose moves are judged (every seat when the request named none)."""
    final_state: State
    final_values: tuple[float, ...]
    """The returns when the game is over, else empty (the final position is searched)."""


@dataclass(frozen=True)
class ReviewSettings:
    """How each position is searched."""

    config: SearchConfig
    seed: int = 0
    top_k: int = 5
    engine: Engine = Engine.AUTO
    thread_cap: int = 0


@dataclass(frozen=True)
class PositionReview:
    """The review of one decision (the wire's PositionReview)."""

    index: int
    seat: int
    played: RankedMove
    best: RankedMove
    values_before: tuple[float, ...]
    values_after: tuple[float, ...]
    best_value: float
    played_value: float
    loss: float
    judgement: str
    """A class of review_judgement.JUDGEMENTS, or empty for a seat not reviewed."""
    search: PositionSearch

    @property
    def candidates(self) -> tuple[RankedMove, ...]:
        """The top moves of the position, best first."""
        return self.search.candidates


@dataclass(frozen=True)
class ReviewSummary:
    """Every reviewed seat's figures (the wire's ReviewSummary)."""

    seats: tuple[SeatReview, ...]


@dataclass
class _Pending:
    """A decision searched, waiting for the values of the position after it."""

    decision: Decision
    search: PositionSearch
    values_before: tuple[float, ...] = field(default_factory=tuple)


RunPosition = Callable[[PositionJob], PositionSearch]


def plan_review(raw: bytes, seats: Sequence[int]) -> ReviewPlan:
    """Parse, bound and replay a record; INVALID_ARGUMENT naming the JSON path at fault."""
    document = game_ops.parse_json(raw, RECORD_FIELD, MAX_RECORD_BYTES)
    try:
        record = record_from_json(document)
    except RecordError as error:
        raise _record_error(error) from None
    game = game_ops.load_game(record.game)  # a known game: the record's own check
    try:
        positions = replay(game, record)
    except RecordError as error:
        raise _record_error(error) from None
    final = positions[-1].state
    players = game.num_players(final)
    _check_seats(seats, players)
    decisions = tuple(
        Decision(p.index, p.move.seat, p.state, orjson.dumps(p.move.move))
        for p in positions
        if p.move is not None and p.move.seat != CHANCE
    )
    if len(decisions) > MAX_REVIEW_DECISIONS:
        raise invalid_argument(
            f"{RECORD_FIELD} $.moves: {len(decisions)} decisions, at most "
            f"{MAX_REVIEW_DECISIONS} can be reviewed",
            Reason.FIELD_TOO_LARGE,
            RECORD_FIELD,
            "$.moves",
        )
    over = game.is_terminal(final)
    return ReviewPlan(
        game=record.game,
        record=record,
        decisions=decisions,
        players=players,
        seats=tuple(sorted(set(seats))) if seats else tuple(range(players)),
        final_state=final,
        final_values=tuple(float(r) for r in game.returns(final)) if over else (),
    )


def _check_seats(seats: Sequence[int], players: int) -> None:
    if len(seats) > MAX_REVIEW_SEATS:
        raise invalid_argument(
            f"seats: {len(seats)} given, at most {MAX_REVIEW_SEATS}", Reason.INVALID_FIELD, "seats"
        )
    for i, seat in enumerate(seats):
        if not 0 <= seat < players:
            raise invalid_argument(
                f"seats[{i}]: must be in 0..{players - 1} for this game, got {echo(seat)}",
                Reason.INVALID_SEAT,
                "seats",
            )


def _record_error(error: RecordError) -> RequestError:
    """INVALID_ARGUMENT INVALID_RECORD at the record's JSON path (`record_json.moves[3]...`)."""
    path = error.json_path or "$"
    return invalid_argument(
        f"{RECORD_FIELD} {path}: {error.reason}", Reason.INVALID_RECORD, RECORD_FIELD, path
    )


def review_config(
    preset: str,
    overrides: dict[str, Any],
    limits: settings.Limits,
    game: str,
    engine: Engine | str,
) -> SearchConfig:
    """Each position's search: Analyze's for the preset and explicit settings, its time at
    most MAX_REVIEW_POSITION_MS (a request asking for more is refused)."""
    asked = overrides.get("time_ms")
    if asked is not None and asked > MAX_REVIEW_POSITION_MS:
        raise invalid_argument(
            f"settings.time_ms: at most {MAX_REVIEW_POSITION_MS:g} ms per reviewed position, "
            f"got {asked:g}",
            Reason.INVALID_SETTINGS,
            "settings.time_ms",
        )
    config = settings.resolve(preset, overrides, limits, game, engine, analysis=True)
    if config.time_ms is None or config.time_ms > MAX_REVIEW_POSITION_MS:
        config = config.replace(time_ms=MAX_REVIEW_POSITION_MS)
    return config


def position_job(
    plan: ReviewPlan, decision: Decision | None, state: State, settings: ReviewSettings
) -> PositionJob:
    """The job of one decision (None: the final position of an unfinished game, values only)."""
    game = game_ops.load_game(plan.game)
    index = len(plan.record.moves) if decision is None else decision.index
    seat = game.current_player(state) if decision is None else decision.seat
    return PositionJob(
        game=plan.game,
        state_json=orjson.dumps(game.state_to_json(state)),
        seat=seat,
        played_json=b"" if decision is None else decision.played_json,
        config=settings.config,
        seed=derive_seed(settings.seed, "review", index),
        top_k=settings.top_k,
        engine=settings.engine,
        thread_cap=settings.thread_cap,
        measure_played=decision is not None and decision.seat in plan.seats,
    )


def review(
    plan: ReviewPlan, settings: ReviewSettings, run: RunPosition
) -> Iterator[PositionReview | ReviewSummary]:
    """Each decision's review in order, as soon as the values after it are known, then the
    summary of the reviewed seats. `run` searches one position (and raises RequestError when
    the review must stop: cancelled, past its deadline)."""
    game = game_ops.load_game(plan.game)
    thresholds = thresholds_for(plan.game)
    waiting: list[_Pending] = []
    judged: list[JudgedMove] = []
    for decision in plan.decisions:
        search = run(position_job(plan, decision, decision.state, settings))
        if not search.forced:
            yield from _flush(waiting, search.seat_values, thresholds, judged, plan)
        waiting.append(_Pending(decision, search, search.seat_values))
    yield from _flush(waiting, _final_values(plan, game, settings, run), thresholds, judged, plan)
    yield ReviewSummary(summarise(plan.seats, judged))


def _final_values(
    plan: ReviewPlan, game: Game, settings: ReviewSettings, run: RunPosition
) -> tuple[float, ...]:
    """Every seat's value at the end: the returns of a finished game, the search of the last
    position of an unfinished one, or nothing when it stops at a chance step."""
    if plan.final_values:
        return plan.final_values
    if game.current_player(plan.final_state) < 0:
        return ()
    return run(position_job(plan, None, plan.final_state, settings)).seat_values


def _flush(
    waiting: list[_Pending],
    values_after: tuple[float, ...],
    thresholds: Thresholds,
    judged: list[JudgedMove],
    plan: ReviewPlan,
) -> Iterator[PositionReview]:
    """Review every waiting decision now that the values after the last of them are known;
    a forced decision's values before are the values after it (it changes nothing)."""
    after = values_after
    for pending in reversed(waiting):
        if pending.search.forced:
            pending.values_before = after
        after = pending.values_before
    reviews = []
    for i, pending in enumerate(waiting):
        following = waiting[i + 1].values_before if i + 1 < len(waiting) else values_after
        reviews.append(_position_review(pending, following, thresholds, plan))
    waiting.clear()
    for item in reviews:
        if item.judgement:
            judged.append(JudgedMove(item.seat, item.loss, item.judgement))
        yield item


def _position_review(
    pending: _Pending, values_after: tuple[float, ...], thresholds: Thresholds, plan: ReviewPlan
) -> PositionReview:
    search, decision = pending.search, pending.decision
    reviewed = decision.seat in plan.seats
    loss = max(0.0, search.best_value - search.played_value) if reviewed else 0.0
    judgement = ""
    if reviewed:
        is_best = search.best.move_json == search.played.move_json
        judgement = judge(loss, is_best, search.forced, thresholds)
    return PositionReview(
        index=decision.index,
        seat=decision.seat,
        played=search.played,
        best=search.best,
        values_before=pending.values_before,
        values_after=values_after,
        best_value=search.best_value,
        played_value=search.played_value if reviewed else 0.0,
        loss=loss,
        judgement=judgement,
        search=search,
    )
