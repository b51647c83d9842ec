"""The network file (.bbnet): round trip, the layout it documents, refusals naming what is
wrong, and the forward pass, logits and priors."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from boardbot.search.network import (
    MAGIC,
    Network,
    NetworkError,
    file_sha256,
    random_network,
    sigmoid,
)


def hand_file(header: dict[str, object], arrays: list[list[float]]) -> bytes:
    """A file written by hand from the documented layout."""
    text = json.dumps(header).encode()
    floats = [v for array in arrays for v in array]
    return MAGIC + struct.pack("<I", len(text)) + text + struct.pack(f"<{len(floats)}f", *floats)


TINY_HEADER: dict[str, object] = {
    "game": "toy", "players": 2, "feature_size": 3, "action_feature_size": 4,
    "features_version": 7, "hidden": [2], "card": {"note": "hand-made"},
}
TINY_ARRAYS = [
    [1.0, -1.0, 0.5, 2.0, 0.0, 1.0], [0.0, 0.5],  # layer 0: [3, 2], [2]
    [1.0, 0.0, 0.0, -1.0], [0.0, 0.25],  # value: [2, 2], [2]
    [1.0, 2.0, 3.0, 4.0, -1.0, 0.0, 1.0, 0.5], [0.1, 0.2, 0.3, 0.4],  # policy: [2, 4], [4]
]


def test_a_hand_written_file_reads_as_documented() -> None:
    net = Network.from_bytes(hand_file(TINY_HEADER, TINY_ARRAYS))
    assert (net.game, net.players, net.feature_size, net.action_feature_size) == ("toy", 2, 3, 4)
    assert net.features_version == 7 and net.hidden == (2,)
    assert net.card == {"note": "hand-made"}
    values, policy = net.forward(np.array([1.0, 2.0, -1.0], dtype=np.float32))
    h = np.array([2.0, 2.5])  # relu([1 + 1 + 0, -1 + 4 - 1 + 0.5])
    assert values.shape == (1, 2) and policy.shape == (1, 4)
    assert values.dtype == np.float32 and policy.dtype == np.float32
    expected_v = 1.0 / (1.0 + np.exp(-np.array([h[0], -h[1] + 0.25])))
    np.testing.assert_allclose(values[0], expected_v, atol=1e-6)
    np.testing.assert_allclose(policy[0], [-0.4, 4.2, 8.8, 9.65], atol=1e-5)
    logits = net.policy_logits(policy[0], [[1, 3], [0], []])
    np.testing.assert_allclose(logits, [4.2 + 9.65, -0.4, 0.0], atol=1e-5)
    priors = net.priors(policy[0], [[1, 3], [0], []])
    e = np.exp(np.array([13.85, -0.4, 0.0]) - 13.85)
    np.testing.assert_allclose(priors, e / e.sum(), atol=1e-6)


def test_round_trip_keeps_every_byte(tmp_path: Path) -> None:
    net = random_network(11, 7, (5, 3), players=3, seed=4)
    data = net.to_bytes()
    again = Network.from_bytes(data)
    assert again.to_bytes() == data
    for a, b in zip(net.arrays(), again.arrays(), strict=True):
        assert np.array_equal(a, b)
    digest = net.save(tmp_path / "m.bbnet")
    assert digest == file_sha256(tmp_path / "m.bbnet") == net.sha256()
    assert Network.load(tmp_path / "m.bbnet").to_bytes() == data
    assert not net.layers[0][0].flags.writeable


def test_batches_and_single_rows_agree() -> None:
    net = random_network(9, 6, (8,), players=2, seed=1)
    x = np.random.default_rng(0).random((5, 9)).astype(np.float32)
    values, policy = net.forward(x)
    assert values.shape == (5, 2) and policy.shape == (5, 6)
    for i in range(5):
        v, p = net.forward(x[i])
        np.testing.assert_allclose(v[0], values[i], atol=1e-6)
        np.testing.assert_allclose(p[0], policy[i], atol=1e-5)
    assert np.all((values >= 0) & (values <= 1))
    with pytest.raises(NetworkError, match="takes 9 features"):
        net.forward(np.zeros(8, dtype=np.float32))
    with pytest.raises(NetworkError, match="index 6 is outside the policy head"):
        net.policy_logits(policy[0], [[0, 6]])


def test_the_sigmoid_saturates_without_overflow() -> None:
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        out = sigmoid(np.array([-1000.0, 0.0, 1000.0], dtype=np.float32))
    np.testing.assert_array_equal(out, [0.0, 0.5, 1.0])


def _broken(data: bytes, at: int, value: bytes) -> bytes:
    return data[:at] + value + data[at + len(value):]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: b"BBNET2\n" + d[7:], "does not start with the magic"),
        (lambda d: d[:9], "the header length needs 4 bytes"),
        (lambda d: d[:30], "the header needs"),
        (lambda d: d[:-3], "implies 104 bytes of weights, the file has 101"),
        (lambda d: d + b"\0\0\0\0", "implies 104 bytes of weights, the file has 108"),
        (lambda d: d[:-4] + struct.pack("<f", float("nan")), r"policy bias\[3\] is not finite"),
    ],
)
def test_bad_files_say_what_is_wrong(mutate: object, message: str) -> None:
    data = hand_file(TINY_HEADER, TINY_ARRAYS)
    assert callable(mutate)
    with pytest.raises(NetworkError, match=message):
        Network.from_bytes(mutate(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 0}, "'players': must be an integer >= 1"),
        ({"hidden": [2, 0]}, "'hidden': width 1 must be an integer >= 1"),
        ({"hidden": 2}, "'hidden': must be a list"),
        ({"feature_size": True}, "'feature_size': must be an integer"),
        ({"game": 3}, "'game': must be a string"),
        ({"card": [1]}, "'card': must be an object"),
    ],
)
def test_bad_header_fields_are_named(change: dict[str, object], message: str) -> None:
    with pytest.raises(NetworkError, match=message):
        Network.from_bytes(hand_file({**TINY_HEADER, **change}, TINY_ARRAYS))


def test_missing_fields_and_non_json_headers_are_refused() -> None:
    header = {k: v for k, v in TINY_HEADER.items() if k != "features_version"}
    with pytest.raises(NetworkError, match="'features_version': missing"):
        Network.from_bytes(hand_file(header, TINY_ARRAYS))
    text = b"{not json"
    with pytest.raises(NetworkError, match="not JSON"):
        Network.from_bytes(MAGIC + struct.pack("<I", len(text)) + text)
    text = b"[1, 2]"
    with pytest.raises(NetworkError, match="not a JSON object"):
        Network.from_bytes(MAGIC + struct.pack("<I", len(text)) + text)


def test_create_checks_the_shapes() -> None:
    with pytest.raises(NetworkError, match=r"layer 0 weight has shape \(3, 3\)"):
        Network.create("toy", 1, 2, 1, 0, [np.zeros((3, 3)), np.zeros(3)] + [np.zeros(1)] * 4)
