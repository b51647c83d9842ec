"""The value and policy network and its file, `.bbnet` (the twin of Rust's `boardbot_search::net`).

The network is a multilayer perceptron: a seat's view features (length F) go through the
hidden layers (ReLU), then two heads read the last hidden layer (width H):

- value head: P outputs through a sigmoid, each seat's expected reward, rotated as the
  features (output 0 is the deciding seat);
- policy head: A outputs `z`; the logit of an action is the sum of `z` at its action-feature
  indices, the prior the softmax of the logits over the legal actions.

File format (every number little-endian)::

    magic            7 bytes   b"BBNET1\\n"
    header length    u32       length in bytes of the header that follows
    header           UTF-8 JSON object: game (str), players, feature_size,
                     action_feature_size, features_version (ints), hidden (list of widths,
                     each >= 1), card (free object); other keys are ignored by readers
    arrays           float32, nothing after them, in this order:
                       each hidden layer l: weight [in_l, out_l] row-major, then bias [out_l]
                         (in_0 = feature_size, in_l = hidden[l - 1], out_l = hidden[l])
                       value head:  weight [H, players] row-major, then bias [players]
                       policy head: weight [H, action_feature_size] row-major, then bias
                     (H = the last hidden width, or feature_size without hidden layers)

Input normalisation is folded into the first layer at export, so a file holds plain weights;
every weight is finite. Inference is float32 throughout, as in Rust.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardbot.engine.errors import BoardbotError

MAGIC = b"BBNET1\n"
"""The first bytes of every `.bbnet` file."""

FloatArray = npt.NDArray[np.float32]

HEADER_KEYS = ("game", "players", "feature_size", "action_feature_size", "features_version")


class NetworkError(BoardbotError, ValueError):
    """A network file that cannot be read, or an input a network cannot evaluate."""


def _frozen(array: npt.ArrayLike, shape: tuple[int, ...], name: str) -> FloatArray:
    """`array` as a read-only float32 array of `shape` with finite values."""
    out = np.array(array, dtype=np.float32)
    if out.shape != shape:
        raise NetworkError(f"{name} has shape {out.shape}, the header implies {shape}")
    if not np.all(np.isfinite(out)):
        index = int(np.flatnonzero(~np.isfinite(out.ravel()))[0])
        raise NetworkError(f"network weight {name}[{index}] is not finite")
    out.setflags(write=False)
    return out


def _count(header: Mapping[str, Any], name: str, minimum: int) -> int:
    """The integer header field `name` (at least `minimum`)."""
    if name not in header:
        raise NetworkError(f"bad network header field '{name}': missing")
    value = header[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise NetworkError(
            f"bad network header field '{name}': must be an integer >= {minimum}, got {value!r}"
        )
    return value


def layer_shapes(
    feature_size: int, hidden: Sequence[int], players: int, action_feature_size: int
) -> list[tuple[int, int]]:
    """(inputs, outputs) of every weight matrix in file order: the hidden layers, the value
    head, the policy head."""
    shapes = []
    inputs = feature_size
    for width in hidden:
        shapes.append((inputs, width))
        inputs = width
    shapes.append((inputs, players))
    shapes.append((inputs, action_feature_size))
    return shapes


def sigmoid(x: FloatArray) -> FloatArray:
    """The logistic function in float32, in the form that never overflows (Rust's)."""
    e = np.exp(-np.abs(x))
    one = np.float32(1.0)
    return np.where(x >= 0, one / (one + e), e / (one + e)).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Network:
    """A value and policy network (frozen: read-only float32 arrays; see the module doc).

    Two networks are the same when their bytes are: compare `to_bytes()` (or `sha256()`).
    """

    game: str
    players: int
    feature_size: int
    action_feature_size: int
    features_version: int
    layers: tuple[tuple[FloatArray, FloatArray], ...]
    """Each hidden layer's (weight [in, out], bias [out])."""
    value_weight: FloatArray
    value_bias: FloatArray
    policy_weight: FloatArray
    policy_bias: FloatArray
    card: Mapping[str, Any] = field(default_factory=dict)
    """The model card kept in the header (free JSON object)."""

    def __repr__(self) -> str:
        return (
            f"Network(game={self.game!r}, players={self.players}, "
            f"feature_size={self.feature_size}, hidden={list(self.hidden)}, "
            f"action_feature_size={self.action_feature_size}, "
            f"features_version={self.features_version})"
        )

    @property
    def hidden(self) -> tuple[int, ...]:
        """Widths of the hidden layers."""
        return tuple(int(bias.shape[0]) for _, bias in self.layers)

    @staticmethod
    def create(
        game: str,
        players: int,
        feature_size: int,
        action_feature_size: int,
        features_version: int,
        arrays: Sequence[npt.ArrayLike],
        card: Mapping[str, Any] | None = None,
        hidden: Sequence[int] | None = None,
    ) -> Network:
        """A network from its arrays in file order (weight, bias of each hidden layer, then of
        the value head and the policy head), checked against the sizes; `hidden` defaults to
        the widths the arrays have."""
        header = {
            "game": game,
            "players": players,
            "feature_size": feature_size,
            "action_feature_size": action_feature_size,
            "features_version": features_version,
        }
        if not isinstance(game, str):
            raise NetworkError(f"bad network header field 'game': must be a string, got {game!r}")
        for name, minimum in zip(HEADER_KEYS[1:], (1, 1, 0, 0), strict=True):
            _count(header, name, minimum)
        if hidden is None:
            count = max(0, len(arrays) // 2 - 2)
            hidden = [int(np.shape(arrays[2 * i + 1])[0]) for i in range(count)]
        widths = _widths(list(hidden))
        shapes = layer_shapes(feature_size, widths, players, action_feature_size)
        if len(arrays) != 2 * len(shapes):
            raise NetworkError(
                f"a network with {len(widths)} hidden layers has {2 * len(shapes)} arrays, "
                f"got {len(arrays)}"
            )
        frozen = []
        for i, (inputs, outputs) in enumerate(shapes):
            name = _array_name(i, len(widths))
            frozen.append(_frozen(arrays[2 * i], (inputs, outputs), f"{name} weight"))
            frozen.append(_frozen(arrays[2 * i + 1], (outputs,), f"{name} bias"))
        layers = tuple((frozen[2 * i], frozen[2 * i + 1]) for i in range(len(widths)))
        return Network(
            game=game,
            players=players,
            feature_size=feature_size,
            action_feature_size=action_feature_size,
            features_version=features_version,
            layers=layers,
            value_weight=frozen[-4],
            value_bias=frozen[-3],
            policy_weight=frozen[-2],
            policy_bias=frozen[-1],
            card=dict(card or {}),
        )

    def arrays(self) -> list[FloatArray]:
        """Every array in file order."""
        out: list[FloatArray] = []
        for weight, bias in self.layers:
            out += [weight, bias]
        return [*out, self.value_weight, self.value_bias, self.policy_weight, self.policy_bias]

    def header(self) -> dict[str, Any]:
        """The JSON header of the file."""
        return {
            "game": self.game,
            "players": self.players,
            "feature_size": self.feature_size,
            "action_feature_size": self.action_feature_size,
            "features_version": self.features_version,
            "hidden": list(self.hidden),
            "card": dict(self.card),
        }

    def to_bytes(self) -> bytes:
        """The `.bbnet` file's bytes (the same network always gives the same bytes)."""
        header = json.dumps(
            self.header(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8")
        parts = [MAGIC, struct.pack("<I", len(header)), header]
        parts += [np.ascontiguousarray(a, dtype="<f4").tobytes() for a in self.arrays()]
        return b"".join(parts)

    def save(self, path: Path | str) -> str:
        """Write the file; its sha256 (hex)."""
        data = self.to_bytes()
        Path(path).write_bytes(data)
        return hashlib.sha256(data).hexdigest()

    def sha256(self) -> str:
        """The sha256 (hex) of the network's file bytes."""
        return hashlib.sha256(self.to_bytes()).hexdigest()

    @staticmethod
    def from_bytes(data: bytes) -> Network:
        """The network in the bytes of a `.bbnet` file; NetworkError says what is wrong."""
        if not data.startswith(MAGIC):
            raise NetworkError(
                "not a boardbot network file: it does not start with the magic BBNET1"
            )
        at = len(MAGIC)
        if len(data) < at + 4:
            raise NetworkError(
                f"truncated network file: the header length needs 4 bytes, {len(data) - at} left"
            )
        (length,) = struct.unpack_from("<I", data, at)
        at += 4
        if len(data) < at + length:
            raise NetworkError(
                f"truncated network file: the header needs {length} bytes, {len(data) - at} left"
            )
        try:
            header = json.loads(data[at : at + length].decode("utf-8"))
        except UnicodeDecodeError as error:
            raise NetworkError(f"bad network header: not UTF-8: {error}") from None
        except json.JSONDecodeError as error:
            raise NetworkError(f"bad network header: not JSON: {error}") from None
        at += length
        if not isinstance(header, dict):
            raise NetworkError(f"bad network header: not a JSON object: {header!r:.80}")
        if "game" not in header:
            raise NetworkError("bad network header field 'game': missing")
        if not isinstance(header["game"], str):
            raise NetworkError(
                f"bad network header field 'game': must be a string, got {header['game']!r}"
            )
        players = _count(header, "players", 1)
        feature_size = _count(header, "feature_size", 1)
        action_feature_size = _count(header, "action_feature_size", 0)
        features_version = _count(header, "features_version", 0)
        if "hidden" not in header:
            raise NetworkError("bad network header field 'hidden': missing")
        widths = _widths(header["hidden"])
        card = header.get("card", {})
        if card is None:
            card = {}
        if not isinstance(card, dict):
            raise NetworkError("bad network header field 'card': must be an object")
        shapes = layer_shapes(feature_size, widths, players, action_feature_size)
        total = sum(i * o + o for i, o in shapes)
        found = len(data) - at
        if found != 4 * total:
            raise NetworkError(
                "network weights do not match the header: it implies "
                f"{4 * total} bytes of weights, the file has {found}"
            )
        flat = np.frombuffer(data, dtype="<f4", count=total, offset=at).astype(np.float32)
        arrays: list[FloatArray] = []
        offset = 0
        for inputs, outputs in shapes:
            arrays.append(flat[offset : offset + inputs * outputs].reshape(inputs, outputs))
            offset += inputs * outputs
            arrays.append(flat[offset : offset + outputs])
            offset += outputs
        return Network.create(
            header["game"],
            players,
            feature_size,
            action_feature_size,
            features_version,
            arrays,
            card,
            widths,
        )

    @staticmethod
    def load(path: Path | str) -> Network:
        """The network in a `.bbnet` file."""
        return Network.from_bytes(Path(path).read_bytes())

    def hidden_layer(self, x: npt.ArrayLike) -> FloatArray:
        """The last hidden layer for inputs [F] or [N, F] (as [N, H]), float32."""
        batch = np.asarray(x, dtype=np.float32)
        if batch.ndim == 1:
            batch = batch[None, :]
        if batch.ndim != 2 or batch.shape[1] != self.feature_size:
            raise NetworkError(
                f"the network takes {self.feature_size} features, got shape {np.shape(x)}"
            )
        h = batch
        for weight, bias in self.layers:
            h = np.maximum(h @ weight + bias, np.float32(0.0))
        return h

    def forward(self, x: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """(values [N, P] after the sigmoid, policy head outputs [N, A]) for inputs [F] or
        [N, F]."""
        h = self.hidden_layer(x)
        values = sigmoid(h @ self.value_weight + self.value_bias)
        policy = (h @ self.policy_weight + self.policy_bias).astype(np.float32)
        return values, policy

    def policy_logits(
        self, policy_row: npt.ArrayLike, action_lists: Sequence[Sequence[int]]
    ) -> FloatArray:
        """Each action's logit: the sum of the policy outputs `policy_row` [A] at its indices."""
        row = np.asarray(policy_row, dtype=np.float32)
        if row.shape != (self.action_feature_size,):
            raise NetworkError(
                f"a policy row has {self.action_feature_size} outputs, got shape {row.shape}"
            )
        count = len(action_lists)
        lengths = np.fromiter((len(a) for a in action_lists), dtype=np.int64, count=count)
        flat = np.fromiter(
            (j for a in action_lists for j in a), dtype=np.int64, count=int(lengths.sum())
        )
        if flat.size and (flat.min() < 0 or flat.max() >= self.action_feature_size):
            bad = int(flat[(flat < 0) | (flat >= self.action_feature_size)][0])
            raise NetworkError(
                f"action-feature index {bad} is outside the policy head "
                f"(size {self.action_feature_size})"
            )
        owner = np.repeat(np.arange(len(action_lists)), lengths)
        sums = np.bincount(owner, weights=row[flat], minlength=len(action_lists))
        return sums.astype(np.float32)

    def priors(
        self, policy_row: npt.ArrayLike, action_lists: Sequence[Sequence[int]]
    ) -> FloatArray:
        """The prior of each legal action: the softmax of its logit over `action_lists`."""
        logits = self.policy_logits(policy_row, action_lists)
        if logits.size == 0:
            return logits
        e = np.exp(logits - logits.max())
        return (e / e.sum()).astype(np.float32)


def _widths(hidden: Any) -> list[int]:
    """The hidden widths of a header, checked."""
    if not isinstance(hidden, list):
        raise NetworkError(
            f"bad network header field 'hidden': must be a list of widths, got {hidden!r}"
        )
    for i, width in enumerate(hidden):
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise NetworkError(
                f"bad network header field 'hidden': width {i} must be an integer >= 1, "
                f"got {width!r}"
            )
    return list(hidden)


def _array_name(index: int, hidden_layers: int) -> str:
    """The name of matrix `index` in file order: `layer L`, `value` or `policy`."""
    if index < hidden_layers:
        return f"layer {index}"
    return "value" if index == hidden_layers else "policy"


def file_sha256(path: Path | str) -> str:
    """The sha256 (hex) of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def random_network(
    feature_size: int,
    action_feature_size: int,
    hidden: Sequence[int] = (128, 64),
    players: int = 2,
    seed: int = 0,
    game: str = "synthetic",
    features_version: int = 0,
) -> Network:
    """A network of random weights (He-scaled, seeded), for tests and benchmarks."""
    rng = np.random.default_rng(seed)
    arrays: list[npt.NDArray[Any]] = []
    for inputs, outputs in layer_shapes(feature_size, hidden, players, action_feature_size):
        arrays.append(rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, outputs)))
        arrays.append(rng.normal(0.0, 0.1, outputs))
    return Network.create(
        game, players, feature_size, action_feature_size, features_version, arrays, hidden=hidden
    )
