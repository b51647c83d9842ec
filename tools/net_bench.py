"""`boardbot bench net`: the time of one network evaluation as a search asks for it, Python
(numpy) and native side by side.

One evaluation is the trunk and the value head on a feature vector, then the logits of the
legal actions (each the sum of a few policy outputs). The native figure comes from a loop of
evaluations inside Rust (`boardbot_native.Network.bench`), so Python's call overhead is not in
it; the Python figure is `Network.forward` (the whole policy head) and `Network.priors`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from boardbot.search.engines import native_module
from boardbot.search.network import Network, random_network


@dataclass(frozen=True)
class NetBenchResult:
    """Microseconds per evaluation (median of the runs) of each implementation measured."""

    feature_size: int
    action_feature_size: int
    hidden: tuple[int, ...]
    players: int
    actions: int
    indices_per_action: int
    python_us: float | None
    python_runs: list[float]
    native_us: float | None
    native_runs: list[float]

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON object."""
        out = asdict(self)
        out["hidden"] = list(self.hidden)
        return out


def bench_inputs(
    network: Network, actions: int, indices: int, seed: int
) -> tuple[list[float], list[list[int]]]:
    """A dense random feature vector in [0, 1) and `actions` lists of `indices` indices."""
    rng = np.random.default_rng(seed)
    features = rng.random(network.feature_size).astype(np.float32).tolist()
    size = max(network.action_feature_size, 1)
    lists = rng.integers(0, size, (actions, indices)).tolist()
    if network.action_feature_size == 0:
        lists = [[] for _ in range(actions)]
    return features, lists


def time_python(
    network: Network, features: Sequence[float], actions: Sequence[Sequence[int]], n: int
) -> float:
    """Seconds for `n` Python evaluations."""
    x = np.asarray(features, dtype=np.float32)
    start = time.perf_counter()
    for _ in range(n):
        _, policy = network.forward(x)
        network.priors(policy[0], actions)
    return time.perf_counter() - start


def bench_net(
    feature_size: int,
    action_feature_size: int,
    hidden: Sequence[int] = (128, 64),
    players: int = 2,
    actions: int = 20,
    indices: int = 2,
    repeats: int = 5,
    python_iterations: int = 2_000,
    native_iterations: int = 100_000,
    seed: int = 0,
    native: bool = True,
    python: bool = True,
) -> NetBenchResult:
    """Time a random network of these sizes in Python (when `python`) and on the native core
    (when `native` and it is built)."""
    network = random_network(feature_size, action_feature_size, hidden, players, seed)
    features, lists = bench_inputs(network, actions, indices, seed)
    python_runs: list[float] = []
    if python:
        time_python(network, features, lists, max(1, python_iterations // 10))
        python_runs = [
            1e6 * time_python(network, features, lists, python_iterations) / python_iterations
            for _ in range(repeats)
        ]
    module = native_module() if native else None
    native_runs: list[float] = []
    if module is not None:
        twin = module.Network(network.to_bytes())
        twin.bench(features, lists, max(1, native_iterations // 10))
        native_runs = [
            1e6 * twin.bench(features, lists, native_iterations) / native_iterations
            for _ in range(repeats)
        ]
    return NetBenchResult(
        feature_size=feature_size,
        action_feature_size=action_feature_size,
        hidden=tuple(hidden),
        players=players,
        actions=actions,
        indices_per_action=indices,
        python_us=statistics.median(python_runs) if python_runs else None,
        python_runs=python_runs,
        native_us=statistics.median(native_runs) if native_runs else None,
        native_runs=native_runs,
    )
