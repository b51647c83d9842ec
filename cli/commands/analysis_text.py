"""How `boardbot move` and `boardbot analyze` show a search's figures: lines with the seat of
each move, values (unset when not searched), the legend, and the JSON form of an analysis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

LEGEND = (
    "value: the seat's mean outcome after the move, 0 (lost) to 1 (won; a small share from "
    "the score margin), '-' when not searched\n"
    "lower: a 95% lower confidence bound on the value (few visits: far below it)\n"
    "line: the expected continuation, the move first, each move after the seat that plays it "
    "(S0, S1, ...)"
)
"""What the columns of `analyze`'s table mean."""

NOT_SEARCHED = "-"
"""How a value the search did not compute (no visits) is shown."""


def seat_marker(seat: int) -> str:
    """The marker of a seat in a line: `S0`, `S1`, ..."""
    return f"S{seat}"


def line_text(notations: Sequence[str], seats: Sequence[int], limit: int | None = None) -> str:
    """A principal variation with each move after the marker of its seat (`S0 a  S1 b`), at
    most `limit` moves (then `…`); a move without a known seat has no marker."""
    shown = list(notations if limit is None else notations[:limit])
    parts = [
        f"{seat_marker(seats[i])} {notation}" if i < len(seats) else notation
        for i, notation in enumerate(shown)
    ]
    more = "  …" if len(shown) < len(notations) else ""
    return "  ".join(parts) + more


def figure(analysis: pb.MoveAnalysis, name: str) -> str:
    """An optional figure of a move (`value`, `lower_bound`, `prior`, `net_value`) to three
    places, `-` when unset."""
    return f"{getattr(analysis, name):.3f}" if analysis.HasField(name) else NOT_SEARCHED


def seat_values_text(values: Sequence[float]) -> str:
    """Every seat's value as `S0 0.512  S1 0.488`."""
    return "  ".join(f"{seat_marker(seat)} {value:.3f}" for seat, value in enumerate(values))


def optional_figure(analysis: pb.MoveAnalysis, name: str) -> float | None:
    """An optional figure of a move, None when unset."""
    return float(getattr(analysis, name)) if analysis.HasField(name) else None


def move_analysis_json(analysis: pb.MoveAnalysis) -> dict[str, Any]:
    """One move's figures as JSON: `value` and `lower_bound` null when not searched; `prior`
    and `net_value` only with a model."""
    out: dict[str, Any] = {
        "rank": analysis.rank,
        "notation": analysis.move.notation,
        "move": orjson.loads(analysis.move.move_json) if analysis.move.move_json else None,
        "visits": analysis.visits,
        "value": optional_figure(analysis, "value"),
        "lower_bound": optional_figure(analysis, "lower_bound"),
        "seat_values": list(analysis.seat_values),
        "principal_variation": list(analysis.principal_variation),
        "principal_variation_seats": list(analysis.principal_variation_seats),
    }
    for name in ("prior", "net_value"):
        if analysis.HasField(name):
            out[name] = getattr(analysis, name)
    return out


def stats_json(stats: pb.SearchStats) -> dict[str, Any]:
    """How the search went, as JSON."""
    return {
        "seat": stats.seat,
        "iterations": stats.iterations,
        "elapsed_ms": stats.elapsed_ms,
        "stopped_by": stats.stopped_by,
        "nodes": stats.nodes,
        "budget": stats.settings.iterations if stats.settings.HasField("iterations") else None,
        "tree_reused": stats.tree_reused,
        "reused_visits": stats.reused_visits,
    }


def analysis_json(reply: pb.AnalyzeResponse) -> dict[str, Any]:
    """An analysis as JSON: the ranked moves, every seat's value and the search's figures."""
    return {
        "moves": [move_analysis_json(m) for m in reply.moves],
        "seat_values": list(reply.seat_values),
        "stats": stats_json(reply.stats),
    }
