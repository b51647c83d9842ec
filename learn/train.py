"""Training the value and policy network on self-play data, in numpy (float32, seeded).

The network (`search/network.py`) is a ReLU MLP with two heads. The value head learns the
rotated final rewards through a sigmoid (binary cross-entropy, or squared error); the policy
head learns the root visit shares of each decision with a softmax cross-entropy over its legal
actions, where an action's logit is the sum of the head's outputs `z` at its action-feature
indices. The gradient of that loss with respect to `z[j]` is the sum of `(p_a - pi_a)` over the
legal actions `a` that contain `j`, gathered with `np.bincount` over the ragged arrays.

Training uses Adam with L2 on the weights, minibatches in a seeded order, inputs standardised
with the training split's mean and deviation (folded into the first layer at export), whole
games held out, and early stopping on the held-out loss (the best epoch's weights are kept).
The same data, settings and seed give the same model bytes.

Memory: the dataset is held once. The split is row numbers into it, each minibatch (and each
chunk measured) is gathered and standardised on its own, and the mean and deviation are summed
chunk by chunk in the order numpy's own reduction takes, so they are the very numbers of
`features.mean(axis=0)` and `.std(axis=0)` in float64.

Value targets (`value_targets`): with `q_weight` W above 0 the deciding seat's target blends
the game's outcome z with the search's own value q of the position (`root_value`, self-play
format 2), (1 - W)·z + W·q, a target of lower variance than one outcome shared by every
position of a game (as Leela Chess Zero and KataGo do). Only column 0 is blended, for any
number of seats: q is the search's value for the deciding seat alone, and the other seats'
values are not 1 - q in general. With two seats the terminal rewards of
`search/rewards.terminal_reward` sum to 1 only when the game's returns do (the margin shares
do; LEDA's rules return 0 to both seats at an end without a winner), and a search guided by a
network (`boardbot iterate` from its second generation) backs up the value head's per-seat
sigmoids, which are independent: 1 - q would be a target no search computed. The held-out
figures, early stopping and the calibration measure against z whatever W is, so runs of
different W compare; `Losses.value_mse_target` adds the held-out MSE against the blended
target.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardbot.engine.errors import BoardbotError
from boardbot.learn import plots
from boardbot.learn.dataset import Dataset, Split, load_dataset, split_by_game
from boardbot.search.network import Network, file_sha256, layer_shapes, sigmoid

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
Floats = npt.NDArray[np.floating[Any]]
"""float32 in training; float64 too (the gradient checks)."""

VALUE_LOSSES = ("bce", "mse")
CALIBRATION_BINS = 10
EVAL_CHUNK = 4096
"""Decisions per forward pass when measuring a whole split."""
SUM_CHUNK = 1024
"""Decisions per step of the standardisation's sums (float64, so 8 bytes a feature)."""


RUN_RECORD_KEYS = frozenset({"games_done", "unfinished", "shards"})
"""Keys of `selfplay.json` that record a run's progress (one entry per game or shard), left
out of a model's card: the settings and the counts describe the data."""


class TrainError(BoardbotError, ValueError):
    """Training settings or data that cannot train a network."""


@dataclass(frozen=True)
class TrainConfig:
    """Hyperparameters of one training run."""

    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    l2: float = 1e-4
    seed: int = 0
    patience: int = 3
    value_weight: float = 1.0
    value_loss: str = "bce"
    held_out: float = 0.1
    q_weight: float = 0.0
    """W: the deciding seat's value target is (1 - W)·outcome + W·root_value (0: the outcome)."""

    def check(self) -> None:
        """TrainError naming the first setting out of range."""
        if not self.hidden or any(w < 1 for w in self.hidden):
            raise TrainError(f"hidden widths must be one or more integers >= 1, got {self.hidden}")
        for name, value in (("epochs", self.epochs), ("batch", self.batch)):
            if value < 1:
                raise TrainError(f"{name} must be at least 1, got {value}")
        if self.patience < 0:
            raise TrainError(f"patience must be at least 0, got {self.patience}")
        for name, number in (("lr", self.lr), ("l2", self.l2), ("value_weight", self.value_weight)):
            if not np.isfinite(number) or number < 0 or (name == "lr" and number == 0):
                raise TrainError(f"{name} must be a finite number >= 0 (lr > 0), got {number}")
        if self.value_loss not in VALUE_LOSSES:
            raise TrainError(
                f"value_loss must be one of {', '.join(VALUE_LOSSES)}, got {self.value_loss!r}"
            )
        if not 0.0 <= self.held_out < 1.0:
            raise TrainError(f"held_out must lie in [0, 1), got {self.held_out}")
        if not (np.isfinite(self.q_weight) and 0.0 <= self.q_weight <= 1.0):
            raise TrainError(f"q_weight must lie in [0, 1], got {self.q_weight}")


@dataclass(frozen=True)
class Losses:
    """Losses of a split: value (the training loss), value MSE, policy cross-entropy, and the
    share of decisions whose highest logit is the most visited move."""

    value: float
    value_mse: float
    policy: float
    top1: float
    decisions: int
    value_mse_target: float | None = None
    """Value MSE against the blended training target (measured only when q_weight > 0)."""

    def total(self, value_weight: float) -> float:
        """The loss early stopping watches."""
        return value_weight * self.value + self.policy


@dataclass
class EpochRecord:
    """One epoch's figures."""

    epoch: int
    train_value: float
    train_policy: float
    held_out_value: float | None
    held_out_policy: float | None
    seconds: float


@dataclass
class TrainResult:
    """A trained network with its history and held-out figures."""

    network: Network
    epochs: list[EpochRecord]
    best_epoch: int
    stopped_early: bool
    initial_held_out: Losses | None
    held_out: Losses | None
    calibration: list[dict[str, float]]
    seconds: float
    decisions_per_second: float
    extra: dict[str, Any] = field(default_factory=dict)


class Batch:
    """The ragged policy targets of some decisions, laid out for vectorised gathers."""

    def __init__(
        self,
        data: Dataset,
        rows: I64 | None = None,
        scale: tuple[F32, F32] | None = None,
        targets: F32 | None = None,
    ) -> None:
        """The decisions `rows` of `data` (all when None); `scale` (mean, deviation)
        standardises their features, `targets` [N, P] (rows of the whole `data`) replace their
        outcomes as value targets."""
        part = data if rows is None else data.subset(rows)
        self.size = part.decisions
        self.features = _standardised(part.features, scale)
        self.rewards = part.rewards
        """The outcomes (the rotated final rewards)."""
        if targets is None:
            self.targets = part.rewards
        else:
            self.targets = targets if rows is None else targets[rows]
        """What the value head learns: the outcomes, or the blended targets."""
        self.visits = part.visits.astype(np.float64)
        legal = np.diff(part.legal_offsets)
        self.starts = part.legal_offsets[:-1]
        self.decision_of_action = np.repeat(np.arange(self.size), legal)
        per_action = np.diff(part.action_offsets)
        self.action_of_entry = np.repeat(np.arange(len(part.visits)), per_action)
        rows_of_entry = self.decision_of_action[self.action_of_entry]
        self.actions = data.action_feature_size
        self.flat = rows_of_entry * self.actions + part.action_index
        self.best_move = _segment_argmax(self.visits, self.starts, self.decision_of_action)

    def policy(self, z: Floats) -> tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(mean cross-entropy, each decision's log-probabilities of its legal actions, the
        gradient of the mean with respect to the logits) for head outputs `z` [B, A]."""
        gathered = z.ravel()[self.flat]
        logits = np.bincount(
            self.action_of_entry, weights=gathered, minlength=len(self.visits)
        ).astype(np.float64)
        top = np.maximum.reduceat(logits, self.starts)
        shifted = logits - top[self.decision_of_action]
        sums = np.add.reduceat(np.exp(shifted), self.starts)
        logp = shifted - np.log(sums)[self.decision_of_action]
        loss = -float(np.sum(self.visits * logp)) / self.size
        grad = (np.exp(logp) - self.visits) / self.size
        return loss, logits, grad

    def policy_grad_z(self, grad_logits: npt.NDArray[np.float64]) -> F32:
        """The gradient with respect to `z` [B, A]: each logit's gradient added at its
        indices."""
        dz = np.bincount(
            self.flat, weights=grad_logits[self.action_of_entry], minlength=self.size * self.actions
        )
        return dz.reshape(self.size, self.actions).astype(np.float32)

    def top1(self, logits: npt.NDArray[np.float64]) -> float:
        """Share of decisions whose highest logit is the most visited move."""
        picked = _segment_argmax(logits, self.starts, self.decision_of_action)
        return float(np.mean(picked == self.best_move)) if self.size else 0.0


def _segment_argmax(
    values: npt.NDArray[np.float64], starts: I64, segment_of: I64
) -> I64:
    """The position of each segment's first maximum."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int64)
    top = np.maximum.reduceat(values, starts)
    hits = np.flatnonzero(values == top[segment_of])
    _, first = np.unique(segment_of[hits], return_index=True)
    return hits[first]


class Model:
    """The trainable parameters (float32) with Adam's moments."""

    def __init__(self, sizes: list[tuple[int, int]], rng: np.random.Generator) -> None:
        self.params: list[F32] = []
        last = len(sizes) - 2
        for i, (inputs, outputs) in enumerate(sizes):
            scale = np.sqrt(2.0 / inputs) if i < last else np.sqrt(1.0 / inputs)
            self.params.append(rng.normal(0.0, scale, (inputs, outputs)).astype(np.float32))
            self.params.append(np.zeros(outputs, dtype=np.float32))
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.steps = 0

    @property
    def hidden_layers(self) -> int:
        """Number of hidden layers."""
        return len(self.params) // 2 - 2

    def trunk(self, x: F32) -> list[F32]:
        """Activations of the input and every hidden layer."""
        out = [x]
        for i in range(self.hidden_layers):
            w, b = self.params[2 * i], self.params[2 * i + 1]
            out.append(np.maximum(out[-1] @ w + b, np.float32(0.0)))
        return out

    def heads(self, h: F32) -> tuple[F32, F32]:
        """Value head pre-activation [B, P] and policy head outputs [B, A]."""
        wv, bv, wp, bp = self.params[-4:]
        return h @ wv + bv, h @ wp + bp

    def snapshot(self) -> list[F32]:
        """A copy of the parameters."""
        return [p.copy() for p in self.params]

    def adam(self, grads: list[F32], lr: float, l2: float) -> None:
        """One Adam step, L2 on the weight matrices."""
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        self.steps += 1
        c1 = 1.0 - beta1**self.steps
        c2 = 1.0 - beta2**self.steps
        step = np.float32(lr * np.sqrt(c2) / c1)
        for i, (p, g) in enumerate(zip(self.params, grads, strict=True)):
            if l2 and p.ndim == 2:
                g = g + np.float32(l2) * p
            m, v = self.m[i], self.v[i]
            m *= np.float32(beta1)
            m += np.float32(1.0 - beta1) * g
            v *= np.float32(beta2)
            v += np.float32(1.0 - beta2) * (g * g)
            p -= step * m / (np.sqrt(v) + np.float32(eps))


def value_loss(u: Floats, y: Floats, kind: str) -> tuple[float, Floats, Floats]:
    """(mean loss, sigmoid outputs, gradient of the mean with respect to `u`)."""
    v = sigmoid(u)
    count = u.size
    if kind == "bce":
        loss = np.maximum(u, 0) - u * y + np.log1p(np.exp(-np.abs(u)))
        return float(np.mean(loss, dtype=np.float64)), v, (v - y) / np.float32(count)
    diff = v - y
    grad = np.float32(2.0 / count) * diff * v * (np.float32(1.0) - v)
    return float(np.mean(diff * diff, dtype=np.float64)), v, grad


def value_targets(data: Dataset, q_weight: float) -> F32:
    """The value targets of `data` [N, P]: the rotated final rewards z (the very array) when
    `q_weight` W is 0; else a copy whose column 0 is (1 - W)·z0 + W·root_value (the other
    columns stay z: see the module's docstring). TrainError when the data has no root values."""
    if q_weight == 0.0:
        return data.rewards
    if data.root_value is None:
        raise TrainError(
            f"q_weight {q_weight} blends in the search's root values, which this data folder "
            f"does not record (self-play format {data.settings.get('format', 1)}; root_value "
            "came with format 2): train it with q_weight 0, or generate a new folder"
        )
    w = np.float32(q_weight)
    targets = data.rewards.copy()
    blended = (np.float32(1.0) - w) * data.rewards[:, 0] + w * data.root_value
    targets[:, 0] = np.clip(blended, 0.0, 1.0)
    return targets


def step_losses_and_grads(
    model: Model, batch: Batch, config: TrainConfig
) -> tuple[float, float, list[F32]]:
    """Forward and backward on one batch: (value loss, policy loss, gradients)."""
    acts = model.trunk(batch.features)
    h = acts[-1]
    u, z = model.heads(h)
    vloss, _, du = value_loss(u, batch.targets, config.value_loss)
    ploss, _, dlogits = batch.policy(z)
    dz = batch.policy_grad_z(dlogits)
    du32 = (du * np.float32(config.value_weight)).astype(np.float32, copy=False)
    wv, wp = model.params[-4], model.params[-2]
    grads: list[F32] = [np.empty(0, dtype=np.float32)] * len(model.params)
    grads[-4] = h.T @ du32
    grads[-3] = du32.sum(axis=0)
    grads[-2] = h.T @ dz
    grads[-1] = dz.sum(axis=0)
    dh = du32 @ wv.T + dz @ wp.T
    for i in range(model.hidden_layers - 1, -1, -1):
        dh = dh * (acts[i + 1] > 0)
        grads[2 * i] = acts[i].T @ dh
        grads[2 * i + 1] = dh.sum(axis=0)
        if i:
            dh = dh @ model.params[2 * i].T
    return vloss, ploss, grads


def measure(
    model: Model,
    data: Dataset,
    config: TrainConfig,
    targets: F32 | None = None,
    rows: I64 | None = None,
    scale: tuple[F32, F32] | None = None,
) -> Losses:
    """The losses of the decisions `rows` of `data` (all when None) against their outcomes
    (in chunks, no gradients, features standardised by `scale` when given), and with `targets`
    [N, P] (rows of the whole `data`) the value MSE against them too."""
    if rows is None:
        rows = np.arange(data.decisions, dtype=np.int64)
    count = len(rows)
    if count == 0:
        return Losses(float("nan"), float("nan"), float("nan"), float("nan"), 0)
    totals = np.zeros(4)
    target_sum = 0.0
    for start in range(0, count, EVAL_CHUNK):
        batch = Batch(data, rows[start : start + EVAL_CHUNK], scale, targets)
        u, z = model.heads(model.trunk(batch.features)[-1])
        vloss, v, _ = value_loss(u, batch.rewards, config.value_loss)
        mse = float(np.mean((v - batch.rewards) ** 2, dtype=np.float64))
        ploss, logits, _ = batch.policy(z)
        totals += np.array([vloss, mse, ploss, batch.top1(logits)]) * batch.size
        if targets is not None:
            target_sum += float(np.sum((v - batch.targets) ** 2, dtype=np.float64))
    totals /= count
    value, mse, policy, top1 = (float(t) for t in totals)
    target_mse = None if targets is None else target_sum / (count * data.players)
    return Losses(value, mse, policy, top1, count, target_mse)


def calibration(
    model: Model,
    data: Dataset,
    bins: int = CALIBRATION_BINS,
    rows: I64 | None = None,
    scale: tuple[F32, F32] | None = None,
) -> list[dict[str, float]]:
    """Predicted against observed reward in equal-width bins of the prediction (every seat's
    column) over the decisions `rows` of `data` (all when None; features standardised by
    `scale` when given): each bin's count, mean prediction and mean reward."""
    features = _standardised(data.features if rows is None else data.features[rows], scale)
    rewards = data.rewards if rows is None else data.rewards[rows]
    if len(features) == 0:
        return []
    u, _ = model.heads(model.trunk(features)[-1])
    predicted = sigmoid(u).ravel().astype(np.float64)
    observed = rewards.ravel().astype(np.float64)
    which = np.minimum((predicted * bins).astype(np.int64), bins - 1)
    counts = np.bincount(which, minlength=bins)
    sums_p = np.bincount(which, weights=predicted, minlength=bins)
    sums_o = np.bincount(which, weights=observed, minlength=bins)
    out = []
    for b in range(bins):
        if counts[b]:
            out.append(
                {
                    "low": b / bins,
                    "high": (b + 1) / bins,
                    "count": int(counts[b]),
                    "predicted": float(sums_p[b] / counts[b]),
                    "observed": float(sums_o[b] / counts[b]),
                }
            )
    return out


def standardisation(features: F32, rows: I64 | None = None) -> tuple[F32, F32]:
    """Mean and deviation of each feature over `rows` (all when None; deviation 1 where a
    feature is constant): the numbers of numpy's `mean` and `std` in float64, summed a chunk
    of rows at a time."""
    size = features.shape[1]
    if rows is None:
        rows = np.arange(features.shape[0], dtype=np.int64)
    if len(rows) == 0:
        return np.zeros(size, dtype=np.float32), np.ones(size, dtype=np.float32)
    mean = _row_sum(features, rows, None) / len(rows)
    std = np.sqrt(_row_sum(features, rows, mean) / len(rows))
    std[std < 1e-6] = 1.0
    return mean.astype(np.float32), std.astype(np.float32)


def _row_sum(features: F32, rows: I64, centre: npt.NDArray[np.float64] | None) -> Floats:
    """The float64 sum over `rows` of each feature (its squared distance from `centre` when
    given). Each chunk's reduction starts from the running total, so the additions happen
    row after row in one order, as in numpy's own reduction over the first axis."""
    total = np.zeros((1, features.shape[1]), dtype=np.float64)
    for start in range(0, len(rows), SUM_CHUNK):
        block = features[rows[start : start + SUM_CHUNK]].astype(np.float64)
        if centre is not None:
            block -= centre
            block *= block
        total = np.add.reduce(np.concatenate([total, block]), axis=0, keepdims=True)
    return total[0]


def export(
    model: Model,
    params: Sequence[F32],
    mean: F32,
    std: F32,
    settings: dict[str, Any],
    card: dict[str, Any],
) -> Network:
    """The network of `params` with the standardisation folded into the first layer:
    W' = W / std (per input row), b' = b - (mean / std) · W."""
    arrays = [p.astype(np.float64) for p in params]
    firsts = [0] if model.hidden_layers else [len(arrays) - 4, len(arrays) - 2]
    for i in firsts:
        w = arrays[i]
        arrays[i + 1] = arrays[i + 1] - (mean / std).astype(np.float64) @ w
        arrays[i] = w / std.astype(np.float64)[:, None]
    return Network.create(
        str(settings["game"]),
        int(settings["players"]),
        int(settings["feature_size"]),
        int(settings["action_feature_size"]),
        int(settings["features_version"]),
        [a.astype(np.float32) for a in arrays],
        card,
        hidden=[int(p.shape[0]) for p in params[1:-4:2]],
    )


def _standardised(features: F32, scale: tuple[F32, F32] | None) -> F32:
    """`features` standardised by `scale` (mean, deviation); unchanged when it is None."""
    if scale is None:
        return features
    mean, std = scale
    return ((features - mean) / std).astype(np.float32)


def _rounded(x: float | None) -> float | None:
    """A loss rounded for the card (None stays None)."""
    return None if x is None or not np.isfinite(x) else round(float(x), 6)


def train(
    split: Split,
    config: TrainConfig,
    card: dict[str, Any] | None = None,
    on_epoch: Callable[[EpochRecord], None] | None = None,
) -> TrainResult:
    """Train on `split.train`, stop early on `split.held_out` (or on the training loss when
    nothing is held out), and export the best epoch's network with the card."""
    config.check()
    data = split.data
    train_rows, held_rows = split.train_rows, split.held_out_rows
    settings = dict(data.settings)
    if len(train_rows) == 0:
        raise TrainError("no training decisions: the data folder holds no decisions to learn")
    if data.feature_size != int(settings["feature_size"]):
        raise TrainError("the features' width does not match selfplay.json's feature_size")
    rng = np.random.default_rng(config.seed)
    sizes = layer_shapes(
        data.feature_size, config.hidden, data.players, data.action_feature_size
    )
    model = Model(sizes, rng)
    mean, std = standardisation(data.features, train_rows)
    scale = (mean, std)
    targets = value_targets(data, config.q_weight)

    def measure_held() -> Losses | None:
        # Against the outcomes (the targets of q_weight 0), and against the blended targets
        # too when q_weight blends.
        if len(held_rows) == 0:
            return None
        blended = targets if config.q_weight else None
        return measure(model, data, config, blended, held_rows, scale)

    initial = measure_held()
    best_loss = float("inf")
    best_params = model.snapshot()
    best_epoch = 0
    stale = 0
    records: list[EpochRecord] = []
    stopped_early = False
    started = time.perf_counter()
    for epoch in range(1, config.epochs + 1):
        epoch_start = time.perf_counter()
        order = rng.permutation(len(train_rows))
        sums = np.zeros(2)
        for start in range(0, len(order), config.batch):
            rows = train_rows[np.sort(order[start : start + config.batch])]
            batch = Batch(data, rows, scale, targets)
            vloss, ploss, grads = step_losses_and_grads(model, batch, config)
            model.adam(grads, config.lr, config.l2)
            sums += np.array([vloss, ploss]) * batch.size
        sums /= len(train_rows)
        seconds = time.perf_counter() - epoch_start
        held_losses = measure_held()
        record = EpochRecord(
            epoch=epoch,
            train_value=float(sums[0]),
            train_policy=float(sums[1]),
            held_out_value=held_losses.value if held_losses else None,
            held_out_policy=held_losses.policy if held_losses else None,
            seconds=seconds,
        )
        records.append(record)
        if on_epoch is not None:
            on_epoch(record)
        watched = (
            held_losses.total(config.value_weight)
            if held_losses
            else config.value_weight * record.train_value + record.train_policy
        )
        if watched < best_loss:
            best_loss, best_params, best_epoch, stale = watched, model.snapshot(), epoch, 0
        else:
            stale += 1
            if stale > config.patience:
                stopped_early = epoch < config.epochs
                break
    total_seconds = time.perf_counter() - started
    train_seconds = sum(r.seconds for r in records)
    model.params = best_params
    final = measure_held()
    bins = calibration(model, data, rows=held_rows, scale=scale) if len(held_rows) else []
    full_card = dict(card or {})
    full_card.update(
        {
            "hyperparameters": _hyperparameters(config),
            "seed": config.seed,
            "split": {
                "train_games": split.train_games,
                "held_out_games": split.held_out_games,
                "train_decisions": len(train_rows),
                "held_out_decisions": len(held_rows),
            },
            "epochs": [
                {
                    "epoch": r.epoch,
                    "train_value": _rounded(r.train_value),
                    "train_policy": _rounded(r.train_policy),
                    "held_out_value": _rounded(r.held_out_value),
                    "held_out_policy": _rounded(r.held_out_policy),
                }
                for r in records
            ],
            "best_epoch": best_epoch,
            "stopped_early": stopped_early,
            "held_out": _losses_card(final),
            "held_out_untrained": _losses_card(initial),
            "calibration": [{k: _rounded(v) for k, v in b.items()} for b in bins],
        }
    )
    network = export(model, best_params, mean, std, settings, full_card)
    return TrainResult(
        network=network,
        epochs=records,
        best_epoch=best_epoch,
        stopped_early=stopped_early,
        initial_held_out=initial,
        held_out=final,
        calibration=bins,
        seconds=total_seconds,
        decisions_per_second=len(train_rows) * len(records) / max(train_seconds, 1e-9),
    )


def _hyperparameters(config: TrainConfig) -> dict[str, Any]:
    """The card's hyperparameters: every TrainConfig field, but q_weight only when it blends
    (so a model trained before q_weight existed retrains to the same bytes)."""
    fields = asdict(config) | {"hidden": list(config.hidden)}
    if not config.q_weight:
        del fields["q_weight"]
    return fields


def _losses_card(losses: Losses | None) -> dict[str, Any] | None:
    """Held-out figures for the card (the MSE against the blended target when measured)."""
    if losses is None:
        return None
    card = {
        "decisions": losses.decisions,
        "value_loss": _rounded(losses.value),
        "value_mse": _rounded(losses.value_mse),
        "policy_ce": _rounded(losses.policy),
        "policy_top1": _rounded(losses.top1),
    }
    if losses.value_mse_target is not None:
        card["value_mse_target"] = _rounded(losses.value_mse_target)
    return card


@dataclass(frozen=True)
class TrainOutput:
    """What a training run wrote: the model, its card and figures (None when skipped)."""

    model: Path
    card: Path
    sha256: str
    curve: Path | None
    calibration: Path | None
    result: TrainResult
    notes: tuple[str, ...]


def output_paths(model: Path) -> tuple[Path, Path, Path]:
    """The card, learning-curve and calibration files next to `model`."""
    stem = model.with_suffix("")
    return (
        stem.with_name(stem.name + ".card.json"),
        stem.with_name(stem.name + ".curve.png"),
        stem.with_name(stem.name + ".calibration.png"),
    )


def train_folder(
    data_dir: Path,
    out: Path,
    config: TrainConfig,
    command: str,
    on_epoch: Callable[[EpochRecord], None] | None = None,
) -> TrainOutput:
    """Train on a self-play folder and write MODEL, its card JSON and its figures.

    The card in the model's header holds what makes the model (data, counts, split,
    hyperparameters, losses, held-out figures), so the same inputs give the same bytes; the
    card file adds the date, the command that retrains it, the timing and the file's sha256.
    """
    config.check()
    data = load_dataset(data_dir)
    if config.q_weight and data.root_value is None:
        raise TrainError(
            f"{data_dir} is a self-play folder of format {data.settings.get('format', 1)}, "
            f"without the search's root values that --q-weight {config.q_weight} blends in "
            "(format 2 records them): train it with --q-weight 0, or generate a new folder"
        )
    split = split_by_game(data, config.held_out, config.seed)
    settings = {k: v for k, v in data.settings.items() if k not in RUN_RECORD_KEYS}
    card: dict[str, Any] = {
        "data": str(Path(data_dir).resolve()),
        "selfplay": settings,
        "games": len(data.games()),
        "decisions": data.decisions,
        "legal_actions": len(data.visits),
    }
    result = train(split, config, card, on_epoch)
    out.parent.mkdir(parents=True, exist_ok=True)
    digest = result.network.save(out)
    if file_sha256(out) != digest:
        raise TrainError(f"{out}: the file on disk differs from what was written")
    card_path, curve_path, calibration_path = output_paths(out)
    title = f"{settings['game']}, {settings['players']} players: {out.name}"
    notes: list[str] = []
    curve: Path | None = None
    calib: Path | None = None
    header_card = dict(result.network.card)
    if plots.matplotlib_or_none() is None:
        notes.append(plots.SKIPPED)
    else:
        curve = plots.draw_learning_curve(header_card["epochs"], curve_path, title)
        if result.calibration:
            calib = plots.draw_calibration(result.calibration, calibration_path, title)
        else:
            notes.append("no calibration figure: no decisions were held out")
    file_card = {
        **header_card,
        "model_file": out.name,
        "sha256": digest,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "timing": {
            "seconds": round(result.seconds, 3),
            "epoch_seconds": [round(r.seconds, 3) for r in result.epochs],
            "decisions_per_second": round(result.decisions_per_second, 1),
        },
        "figures": {
            "learning_curve": curve.name if curve else None,
            "calibration": calib.name if calib else None,
        },
    }
    card_path.write_text(json.dumps(file_card, indent=2) + "\n", encoding="utf-8")
    return TrainOutput(out, card_path, digest, curve, calib, result, tuple(notes))
