"""The ladder's figure, `ratings.png`: Elo with intervals beside the pairwise win-rate matrix."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from boardbot.tools.extras import import_extra
from boardbot.tools.ratings import LadderRatings

PNG_FILE = "ratings.png"


def win_rates(ratings: LadderRatings) -> np.ndarray:
    """The row bot's win rate against the column bot (NaN where they never met)."""
    wins = np.array(ratings.wins, dtype=float)
    meetings = np.array(ratings.meetings, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(meetings > 0, wins / np.maximum(meetings, 1.0), np.nan)
    np.fill_diagonal(rates, np.nan)
    return rates


def draw_ratings_png(ratings: LadderRatings, directory: Path, title: str) -> Path:
    """Draw `ratings.png` into `directory` with matplotlib's Agg canvas (no display needed)."""
    matplotlib = import_extra("matplotlib", "ladder", "drawing ratings.png")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = list(ratings.bots)
    n = len(bots)
    side = max(4.0, 0.9 * n + 2.0)
    figure = Figure(figsize=(2.0 * side + 1.0, side), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, width_ratios=[1.0, 1.15])

    elo = np.array([r.elo for r in ratings.ratings])
    low = np.array([r.low for r in ratings.ratings])
    high = np.array([r.high for r in ratings.ratings])
    rows = np.arange(n)[::-1]
    # Lines from low to high, not error bars: a percentile interval need not contain the estimate.
    left.hlines(rows, low, high, color="tab:blue", linewidth=2)
    left.plot(low, rows, "|", high, rows, "|", color="tab:blue", markersize=12)
    left.plot(elo, rows, "o", color="tab:blue")
    left.set_yticks(rows, [f"{r.bot}\n{r.games} games" for r in ratings.ratings])
    left.axvline(0.0, color="grey", linewidth=0.8, linestyle="--")
    left.set_xlabel(f"Elo ({ratings.anchor} = 0), 95% bootstrap interval")
    left.set_title("Ratings")
    left.grid(axis="x", alpha=0.3)

    rates = win_rates(ratings)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="0.88")
    image = right.imshow(np.ma.masked_invalid(rates), vmin=0.0, vmax=1.0, cmap=cmap)
    right.set_xticks(range(n), bots, rotation=45, ha="right")
    right.set_yticks(range(n), bots)
    right.set_xlabel("column: opponent")
    right.set_ylabel("row: bot")
    right.set_title("Win rate of row against column (games)")
    size = 9 if n <= 6 else 7
    for i in range(n):
        for j in range(n):
            if np.isnan(rates[i, j]):
                continue
            colour = "white" if abs(rates[i, j] - 0.5) > 0.3 else "black"
            right.text(j, i, f"{rates[i, j]:.2f}\n({ratings.meetings[i][j]})",
                       ha="center", va="center", fontsize=size, color=colour)
    figure.colorbar(image, ax=right, shrink=0.8)
    figure.suptitle(title)
    path = directory / PNG_FILE
    figure.savefig(path, dpi=110)
    return path
