"""Building proto messages from the service's plain values."""

from __future__ import annotations

from typing import Any

from boardbot.jobs.game_ops import MoveForms, Summary
from boardbot.jobs.search_job import RankedMove, SearchOutcome
from boardbot.jobs.settings import OVERRIDABLE
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.api import SearchConfig


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
    """Move from either of the service's move values."""
    raw = move.json if isinstance(move, MoveForms) else move.move_json
    return pb.Move(notation=move.notation, move_json=raw)


def settings_message(config: SearchConfig) -> pb.SearchSettings:
    """SearchSettings holding the config's overridable fields (unset when None)."""
    values = {key: getattr(config, key) for key in OVERRIDABLE}
    return pb.SearchSettings(**{k: v for k, v in values.items() if v is not None})


def settings_overrides(settings: pb.SearchSettings) -> dict[str, Any]:
    """The fields a request set explicitly in its SearchSettings."""
    return {key: getattr(settings, key) for key in OVERRIDABLE if settings.HasField(key)}


def analysis_message(move: RankedMove, rank: int) -> pb.MoveAnalysis:
    """MoveAnalysis of one ranked move."""
    return pb.MoveAnalysis(
        rank=rank,
        move=move_message(move),
        visits=move.visits,
        value=move.value,
        lower_bound=move.lower_bound,
        principal_variation=move.principal_variation,
    )


def stats_message(outcome: SearchOutcome) -> pb.SearchStats:
    """SearchStats of an outcome."""
    return pb.SearchStats(
        iterations=outcome.iterations,
        elapsed_ms=outcome.elapsed_ms,
        stopped_by=outcome.stopped_by,
        nodes=outcome.nodes,
        seat=outcome.seat,
        settings=settings_message(outcome.config),
    )


def choose_move_response(outcome: SearchOutcome) -> pb.ChooseMoveResponse:
    """ChooseMoveResponse of a final outcome."""
    return pb.ChooseMoveResponse(
        move=move_message(outcome.chosen),
        stats=stats_message(outcome),
        analysis=analysis_message(outcome.chosen, outcome.chosen_rank),
    )


def analyze_response(outcome: SearchOutcome) -> pb.AnalyzeResponse:
    """AnalyzeResponse of a (partial or final) outcome."""
    return pb.AnalyzeResponse(
        moves=[analysis_message(move, i + 1) for i, move in enumerate(outcome.moves)],
        stats=stats_message(outcome),
        final=outcome.final,
    )
