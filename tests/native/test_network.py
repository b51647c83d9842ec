"""The native network (`boardbot_native.Network`) against the Python reference
(`boardbot.search.network`): the same file gives the same values and policy outputs, and bad
files and inputs are refused with the same reasons."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardbot.search.network import Network, random_network
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)

native: Any = boardbot_native

SIZES = [
    # (features, action features, hidden, players)
    (1, 1, (1,), 1),
    (7, 5, (4,), 2),
    (40, 90, (16, 8), 3),
    (300, 600, (128, 64), 2),
    (57, 33, (64, 32, 16), 4),
    (12, 0, (6,), 2),
]


def inputs(size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Feature vectors: features-like in [0, 1] (dense, sparse, zero), then signed and large
    values (the last three)."""
    sparse = rng.random(size).astype(np.float32)
    sparse[rng.random(size) < 0.6] = 0.0
    return [
        rng.random(size).astype(np.float32),
        sparse,
        np.zeros(size, dtype=np.float32),
        rng.normal(0.0, 3.0, size).astype(np.float32),
        rng.uniform(-100.0, 100.0, size).astype(np.float32),
        np.full(size, 1000.0, dtype=np.float32),
    ]


FEATURE_SCALE = 3
"""How many of `inputs` are at the features' scale, [0, 1]."""


def magnitude(net: Network, x: np.ndarray) -> np.ndarray:
    """Each policy output's sum of absolute terms through the network (|x| through |W|, |b|):
    what float32 rounding error is proportional to, whatever the order of the sums."""
    h = np.abs(x.astype(np.float64))
    for weight, bias in net.layers:
        h = h @ np.abs(weight) + np.abs(bias)
    return np.asarray(h @ np.abs(net.policy_weight) + np.abs(net.policy_bias))


@pytest.mark.parametrize(("features", "actions", "hidden", "players"), SIZES)
def test_python_and_native_agree(
    features: int, actions: int, hidden: tuple[int, ...], players: int
) -> None:
    rng = np.random.default_rng(features * 31 + actions)
    for seed in range(3):
        net = random_network(features, actions, hidden, players, seed=seed)
        twin = native.Network(net.to_bytes())
        assert (twin.feature_size, twin.action_feature_size, twin.players) == (
            features, actions, players,
        )
        assert twin.hidden == list(hidden) and twin.game == net.game
        batch = inputs(features, rng)
        values, policy = net.forward(np.stack(batch))
        for i, x in enumerate(batch):
            native_values, native_policy = twin.forward(x.tolist())
            assert twin.evaluate(x.tolist()) == native_values
            # Values are sigmoids: within 1e-5 absolute for every input. Policy outputs are raw
            # sums: within 1e-5 absolute at the features' scale; for large inputs float32
            # rounding (in either order of summation) grows with the terms summed, so there
            # the bound is 1e-5 of that magnitude.
            np.testing.assert_allclose(native_values, values[i], rtol=0, atol=1e-5)
            scale = 1.0 if i < FEATURE_SCALE else np.maximum(1.0, magnitude(net, x))
            gap = np.abs(np.array(native_policy) - policy[i])
            assert np.all(gap <= 1e-5 * scale), (i, gap.max())
            if actions and i < FEATURE_SCALE:
                lists = rng.integers(0, actions, (20, 2)).tolist()
                logits = twin.policy_logits(x.tolist(), lists)
                expected = net.policy_logits(policy[i], lists)
                np.testing.assert_allclose(logits, expected, rtol=0, atol=1e-5)


def test_a_trained_style_network_agrees_at_feature_scale() -> None:
    net = random_network(300, 600, (128, 64), 2, seed=9)
    twin = native.Network(net.to_bytes())
    x = np.random.default_rng(1).random((50, 300)).astype(np.float32)
    values, policy = net.forward(x)
    for i in range(50):
        v, p = twin.forward(x[i].tolist())
        assert np.max(np.abs(np.array(v) - values[i])) <= 1e-5
        assert np.max(np.abs(np.array(p) - policy[i])) <= 1e-5


def test_bad_files_are_refused_with_the_reason() -> None:
    data = random_network(5, 4, (3,), 2).to_bytes()
    cases = {
        b"XXXXXXX" + data[7:]: "does not start with the magic",
        data[:9]: "the header length needs 4 bytes",
        data[:-2]: "network weights do not match the header",
        data + b"\0" * 4: "network weights do not match the header",
    }
    for bad, reason in cases.items():
        with pytest.raises(native.InvalidNetworkError, match=reason):
            native.Network(bad)
        with pytest.raises(ValueError, match=reason):
            Network.from_bytes(bad)
    assert issubclass(native.InvalidNetworkError, native.NetworkError)
    assert issubclass(native.NetworkError, native.NativeError)


def test_bad_inputs_are_refused() -> None:
    twin = native.Network(random_network(5, 4, (3,), 2).to_bytes())
    with pytest.raises(native.NetworkError, match="takes 5 features, got 4"):
        twin.forward([0.0] * 4)
    with pytest.raises(native.NetworkError, match="index 4 is outside the policy head"):
        twin.policy_logits([0.0] * 5, [[1, 4]])
    with pytest.raises(native.NetworkError, match="takes 5 features"):
        twin.bench([0.0], [[1]], 10)
    assert twin.bench([0.5] * 5, [[0, 1], [3]], 100) >= 0.0
