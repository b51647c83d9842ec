"""Proto messages to and from the plain values the workers take and return."""

from __future__ import annotations

from typing import Any

from boardbot.jobs.game_ops import MoveForms, MoveList, Summary
from boardbot.jobs.review import PositionReview, ReviewSummary
from boardbot.jobs.review_job import PositionSearch
from boardbot.jobs.rules_job import (
    ApplyMoveCall,
    GameStep,
    LegalMovesCall,
    NewGameCall,
    SeatView,
    ViewStateCall,
)
from boardbot.jobs.search_job import RankedMove, SearchOutcome
from boardbot.jobs.settings import MODEL_SETTINGS, OVERRIDABLE
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.api import SearchConfig
from boardbot.search.models import AUTO_MODEL, is_model_name
from boardbot.search.strength.table import Calibration


def summary_message(summary: Summary) -> pb.StateSummary:
    """StateSummary from a Summary."""
    return pb.StateSummary(
        current_player=summary.current_player,
        terminal=summary.terminal,
        num_players=summary.num_players,
        scores=summary.scores,
        returns=summary.returns,
    )


def move_message(move: MoveForms | RankedMove) -> pb.Move:
    """Move from either of the service's move values (a chance outcome's with its
    probability)."""
    if isinstance(move, RankedMove):
        return pb.Move(notation=move.notation, move_json=move.move_json)
    message = pb.Move(notation=move.notation, move_json=move.json)
    if move.probability is not None:
        message.probability = move.probability
    return message


def settings_message(config: SearchConfig) -> pb.SearchSettings:
    """SearchSettings holding the config's overridable fields (unset when None); the model's
    settings only with a model, and the model only by a shipped name or `auto` (never a file
    path)."""
    values = {key: getattr(config, key) for key in OVERRIDABLE}
    if config.model is None or not (is_model_name(config.model) or config.model == AUTO_MODEL):
        values["model"] = None
    if config.model is None:
        for key in MODEL_SETTINGS:
            values[key] = None
    return pb.SearchSettings(**{k: v for k, v in values.items() if v is not None})


def settings_overrides(settings: pb.SearchSettings) -> dict[str, Any]:
    """The fields a request set explicitly in its SearchSettings (`model` when not empty)."""
    return {
        key: getattr(settings, key)
        for key in OVERRIDABLE
        if (bool(settings.model) if key == "model" else settings.HasField(key))
    }


def analysis_message(move: RankedMove, rank: int) -> pb.MoveAnalysis:
    """MoveAnalysis of one ranked move: its value, lower bound and seat values only when the
    search tried it (unset: not searched, e.g. a forced move ChooseMove answers at once), the
    network's prior and value only with a model."""
    message = pb.MoveAnalysis(
        rank=rank,
        move=move_message(move),
        visits=move.visits,
        principal_variation=move.principal_variation,
        principal_variation_seats=move.principal_variation_seats,
    )
    if move.visits > 0:
        message.value = move.value
        message.lower_bound = move.lower_bound
        message.seat_values.extend(move.seat_values)
    if move.prior is not None:
        message.prior = move.prior
    if move.net_value is not None:
        message.net_value = move.net_value
    return message


def stats_message(outcome: SearchOutcome) -> pb.SearchStats:
    """SearchStats of an outcome."""
    return pb.SearchStats(
        iterations=outcome.iterations,
        elapsed_ms=outcome.elapsed_ms,
        stopped_by=outcome.stopped_by,
        nodes=outcome.nodes,
        seat=outcome.seat,
        settings=settings_message(outcome.config),
        random_move_share=outcome.random_move_share,
        random_move=outcome.random_move,
        tree_reused=outcome.tree_reused,
        reused_visits=outcome.reused_visits,
    )


def strength_range_message(calibration: Calibration) -> pb.StrengthRange:
    """StrengthRange of one calibration: its player count, Elo range and engine."""
    return pb.StrengthRange(
        players=calibration.players,
        min_elo=calibration.low,
        max_elo=calibration.high,
        engine=calibration.engine,
    )


def choose_move_response(outcome: SearchOutcome) -> pb.ChooseMoveResponse:
    """ChooseMoveResponse of a final outcome."""
    return pb.ChooseMoveResponse(
        move=move_message(outcome.chosen),
        stats=stats_message(outcome),
        analysis=analysis_message(outcome.chosen, outcome.chosen_rank),
        candidates=[analysis_message(move, i + 1) for i, move in enumerate(outcome.moves)],
    )


def analyze_response(outcome: SearchOutcome) -> pb.AnalyzeResponse:
    """AnalyzeResponse of a (partial or final) outcome."""
    return pb.AnalyzeResponse(
        moves=[analysis_message(move, i + 1) for i, move in enumerate(outcome.moves)],
        stats=stats_message(outcome),
        final=outcome.final,
        seat_values=outcome.seat_values,
    )


def new_game_call(request: pb.NewGameRequest) -> NewGameCall:
    """The NewGame call of a request."""
    return NewGameCall(
        request.game, request.options_json, request.players, request.seed, request.manual_chance
    )


def legal_moves_call(request: pb.LegalMovesRequest) -> LegalMovesCall:
    """The LegalMoves call of a request."""
    return LegalMovesCall(request.game, request.state_json, request.seat)


def apply_move_call(request: pb.ApplyMoveRequest) -> ApplyMoveCall:
    """The ApplyMove call of a request (the move as JSON or notation, whichever was set)."""
    which = request.WhichOneof("move")
    return ApplyMoveCall(
        request.game,
        request.state_json,
        request.move_json if which == "move_json" else None,
        request.notation if which == "notation" else None,
        request.seed,
        request.manual_chance,
    )


def view_state_call(request: pb.ViewStateRequest) -> ViewStateCall:
    """The ViewState call of a request."""
    return ViewStateCall(request.game, request.state_json, request.seat)


def new_game_response(step: GameStep) -> pb.NewGameResponse:
    """NewGameResponse of the state a game starts in."""
    return pb.NewGameResponse(
        state_json=step.state_json,
        summary=summary_message(step.summary),
        chance_events=step.chance_events,
    )


def legal_moves_response(listed: MoveList) -> pb.LegalMovesResponse:
    """LegalMovesResponse of a move list (at a chance step, its outcomes or their form)."""
    return pb.LegalMovesResponse(
        moves=[move_message(m) for m in listed.moves],
        chance=listed.chance,
        chance_form=listed.chance_form,
    )


def apply_move_response(step: GameStep) -> pb.ApplyMoveResponse:
    """ApplyMoveResponse of the state after a move (`move` unset when the server drew it)."""
    response = pb.ApplyMoveResponse(
        state_json=step.state_json,
        summary=summary_message(step.summary),
        chance_events=step.chance_events,
    )
    if step.move is not None:
        response.move.CopyFrom(move_message(step.move))
    return response


def view_state_response(view: SeatView) -> pb.ViewStateResponse:
    """ViewStateResponse of a seat's view."""
    return pb.ViewStateResponse(state_json=view.state_json, summary=summary_message(view.summary))


def position_stats_message(search: PositionSearch) -> pb.SearchStats:
    """SearchStats of a reviewed position (both searches' figures when it took two)."""
    return pb.SearchStats(
        iterations=search.iterations,
        elapsed_ms=search.elapsed_ms,
        stopped_by=search.stopped_by,
        nodes=search.nodes,
        seat=search.seat,
        settings=settings_message(search.config),
    )


def position_review_message(review: PositionReview) -> pb.PositionReview:
    """PositionReview of one reviewed decision."""
    return pb.PositionReview(
        index=review.index,
        seat=review.seat,
        played=move_message(review.played),
        best=move_message(review.best),
        values_before=review.values_before,
        values_after=review.values_after,
        best_value=review.best_value,
        played_value=review.played_value,
        loss=review.loss,
        judgement=review.judgement,
        stats=position_stats_message(review.search),
        candidates=[analysis_message(move, i + 1) for i, move in enumerate(review.candidates)],
    )


def review_summary_message(summary: ReviewSummary) -> pb.ReviewSummary:
    """ReviewSummary of every reviewed seat."""
    return pb.ReviewSummary(
        seats=[
            pb.SeatReview(
                seat=s.seat,
                moves=s.moves,
                average_loss=s.average_loss,
                accuracy=s.accuracy,
                inaccuracies=s.inaccuracies,
                mistakes=s.mistakes,
                blunders=s.blunders,
            )
            for s in summary.seats
        ]
    )


def review_response(item: PositionReview | ReviewSummary) -> pb.ReviewGameResponse:
    """The ReviewGameResponse of one decision's review, or of the summary."""
    if isinstance(item, ReviewSummary):
        return pb.ReviewGameResponse(summary=review_summary_message(item))
    return pb.ReviewGameResponse(position=position_review_message(item))
