"""The evaluation graph of a game review: every seat's value over the game, mistakes marked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.tools.extras import import_extra

MARKED = {"inaccuracy": ("o", 5), "mistake": ("s", 7), "blunder": ("X", 10)}
"""Judgement -> (marker, size) of the moves marked on the mover's line."""


def value_series(positions: Sequence[pb.PositionReview], players: int) -> list[list[float]]:
    """Per seat, its value before each decision, then after the last (NaN where unknown)."""
    series: list[list[float]] = [[] for _ in range(players)]
    for position in positions:
        _append(series, position.values_before)
    if positions:
        _append(series, positions[-1].values_after)
    return series


def _append(series: list[list[float]], values: Sequence[float]) -> None:
    for seat, line in enumerate(series):
        line.append(values[seat] if seat < len(values) else float("nan"))


def draw_review_png(
    positions: Sequence[pb.PositionReview],
    names: Sequence[str],
    path: Path,
    title: str,
) -> Path:
    """Draw the graph into `path` with matplotlib's Agg canvas (no display needed): one line
    per seat (`names`), x the decision, inaccuracies, mistakes and blunders marked on the line
    of the seat that played them."""
    import_extra("matplotlib", "ladder", "drawing the review's evaluation graph")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10.0, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    series = value_series(positions, len(names))
    steps = list(range(len(positions) + 1))
    colours = [f"C{seat}" for seat in range(len(names))]
    for seat, line in enumerate(series):
        axes.plot(steps, line, color=colours[seat], linewidth=1.6, label=names[seat])
    for judgement, (marker, size) in MARKED.items():
        xs = [i for i, p in enumerate(positions) if p.judgement == judgement]
        ys = [series[positions[i].seat][i] for i in xs]
        edge = [colours[positions[i].seat] for i in xs]
        if xs:
            axes.scatter(xs, ys, marker=marker, s=size**2, facecolors="white",
                         edgecolors=edge, linewidths=1.5, zorder=3, label=judgement)
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlim(0, max(1, len(positions)))
    axes.set_xlabel("decision (chance outcomes not counted)")
    axes.set_ylabel("expected return (value)")
    axes.axhline(1.0 / max(1, len(names)), color="grey", linewidth=0.8, linestyle="--")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper left", fontsize=8, ncols=2)
    axes.set_title(title)
    figure.savefig(path, dpi=110)
    return path
