"""The training run's figures: the learning curve and the held-out value calibration.

matplotlib is optional (the `ladder` extra); without it the figures are skipped and the caller
says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

EXTRA = "ladder"
"""The package extra that installs matplotlib."""

SKIPPED = (
    f"the figures were skipped: they need matplotlib, which is not installed (install boardbot "
    f"with its `{EXTRA}` extra; in a checkout: pip install -e '.[{EXTRA}]')"
)


def matplotlib_or_none() -> ModuleType | None:
    """matplotlib, or None when it is not installed."""
    try:
        return importlib.import_module("matplotlib")
    except ImportError:
        return None


def draw_learning_curve(epochs: Sequence[Mapping[str, Any]], path: Path, title: str) -> Path:
    """Train and held-out value and policy loss per epoch, side by side, into `path`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10.0, 4.0), layout="constrained")
    FigureCanvasAgg(figure)
    value, policy = figure.subplots(1, 2)
    x = [e["epoch"] for e in epochs]
    for axis, key, label in ((value, "value", "value loss"), (policy, "policy", "policy loss")):
        axis.plot(x, [e[f"train_{key}"] for e in epochs], "o-", label="train")
        held = [e[f"held_out_{key}"] for e in epochs]
        if any(h is not None for h in held):
            axis.plot(x, [float("nan") if h is None else h for h in held], "s-",
                      label="held out")
        axis.set_xlabel("epoch")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        axis.legend()
    value.set_title("Value head")
    policy.set_title("Policy head (cross-entropy)")
    figure.suptitle(title)
    figure.savefig(path, dpi=100)
    return path


def draw_calibration(bins: Sequence[Mapping[str, Any]], path: Path, title: str) -> Path:
    """Mean observed reward against mean predicted value per bin (held out), into `path`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.5, 5.0), layout="constrained")
    FigureCanvasAgg(figure)
    axis = figure.subplots()
    axis.plot([0.0, 1.0], [0.0, 1.0], "--", color="grey", linewidth=0.8, label="perfect")
    predicted = [b["predicted"] for b in bins]
    observed = [b["observed"] for b in bins]
    axis.plot(predicted, observed, "o-", label="held out")
    for b in bins:
        axis.annotate(str(b["count"]), (b["predicted"], b["observed"]), fontsize=7,
                      textcoords="offset points", xytext=(4, -10))
    axis.set_xlim(0.0, 1.0)
    axis.set_ylim(0.0, 1.0)
    axis.set_xlabel("predicted reward (bin mean)")
    axis.set_ylabel("observed reward (bin mean)")
    axis.grid(alpha=0.3)
    axis.legend(loc="upper left")
    axis.set_title(title)
    figure.savefig(path, dpi=100)
    return path
