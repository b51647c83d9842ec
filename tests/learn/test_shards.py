"""Self-play shards: written whole, read back equal, and every broken invariant named; format 2
carries root_value, format 1 shards still read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardbot.learn.shards import (
    GameData,
    ShardError,
    read_shard,
    shard_arrays,
    validate_shard,
    write_shard,
)


def game_data(index: int, decisions: int = 2, width: int = 3, players: int = 2) -> GameData:
    """A small game: decision i has i + 2 legal actions, action m has m % 3 active indices."""
    legal = np.arange(decisions, dtype=np.int32) + 2
    m = int(legal.sum())
    visits = np.concatenate(
        [np.zeros(0, np.float32)] + [np.full(n, 1 / n, np.float32) for n in legal]
    )
    counts = np.arange(m, dtype=np.int32) % 3
    seats = (np.arange(decisions) % players).astype(np.int8)
    final = np.linspace(0.0, 1.0, players)
    rotation = (seats[:, None].astype(np.int64) + np.arange(players)) % players
    return GameData(
        index=index,
        features=np.arange(decisions * width, dtype=np.float32).reshape(decisions, width) / 10,
        seat=seats,
        rewards=final[rotation].astype(np.float32),
        legal_counts=legal,
        visits=visits,
        action_counts=counts,
        action_index=np.arange(int(counts.sum()), dtype=np.int32) % 7,
        root_value=np.linspace(0.25, 0.75, decisions).astype(np.float32),
    )


def test_round_trip(tmp_path: Path) -> None:
    games = [game_data(4), game_data(5, decisions=3)]
    path = tmp_path / "shard-00000.npz"
    assert write_shard(path, games) == 5
    arrays = read_shard(path, feature_size=3, action_feature_size=7)
    assert arrays["game"].tolist() == [4, 4, 5, 5, 5]
    assert arrays["legal_offsets"].tolist() == [0, 2, 5, 7, 10, 14]
    assert arrays["action_offsets"][-1] == arrays["action_index"].shape[0]
    assert np.array_equal(arrays["features"], np.concatenate([g.features for g in games]))
    assert arrays["root_value"].dtype == np.float32
    assert np.array_equal(arrays["root_value"], np.concatenate([g.root_value for g in games]))
    assert [p.name for p in tmp_path.iterdir()] == ["shard-00000.npz"]  # no temporary left


def test_no_features_and_no_action_features(tmp_path: Path) -> None:
    data = game_data(0, width=0)
    empty = GameData(**{**data.__dict__, "action_counts": np.zeros_like(data.action_counts),
                        "action_index": np.zeros(0, dtype=np.int32)})
    path = tmp_path / "shard.npz"
    write_shard(path, [empty])
    arrays = read_shard(path, feature_size=0, action_feature_size=0)
    assert arrays["features"].shape == (2, 0)
    assert arrays["action_index"].shape == (0,)
    assert arrays["action_offsets"].tolist() == [0] * 6


def test_game_without_decisions(tmp_path: Path) -> None:
    path = tmp_path / "shard.npz"
    assert write_shard(path, [game_data(0, decisions=0)]) == 0
    assert read_shard(path)["legal_offsets"].tolist() == [0]


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("visits", lambda a: a * 2, "sum to 2.000000, not 1"),
        ("legal_offsets", lambda a: a[:-1], "legal_offsets has 2 entries, expected 3"),
        ("action_offsets", lambda a: a + 1, "action_offsets runs from 1"),
        ("rewards", lambda a: a + 1, "reward lies outside [0, 1]"),
        ("seat", lambda a: a.astype(np.int32), "seat is int32 with 1 dimensions, expected int8"),
        ("game", lambda a: a[:1], "game has 1 rows, seat has 2"),
        ("features", lambda a: a * np.nan, "not finite"),
        ("action_index", lambda a: a - 10, "negative index"),
        ("root_value", lambda a: a + 1, "root_value lies outside [0, 1]"),
        ("root_value", lambda a: a - 1, "root_value lies outside [0, 1]"),
        ("root_value", lambda a: a * np.nan, "root_value holds a value that is not finite"),
        ("root_value", lambda a: a[:1], "root_value has 1 rows, seat has 2"),
        ("root_value", lambda a: a.astype(np.float64), "root_value is float64"),
        ("root_value", lambda a: a[:, None], "root_value is float32 with 2 dimensions"),
    ],
)
def test_broken_shards_are_named(name: str, change: object, message: str) -> None:
    arrays = shard_arrays([game_data(0)])
    arrays[name] = change(arrays[name])  # type: ignore[operator]
    with pytest.raises(ShardError, match=message.replace("[", r"\[").replace("]", r"\]")):
        validate_shard(arrays, "test")


def test_sizes_are_checked_on_read(tmp_path: Path) -> None:
    path = tmp_path / "shard.npz"
    write_shard(path, [game_data(0)])
    with pytest.raises(ShardError, match="3 columns, expected 4"):
        read_shard(path, feature_size=4)
    with pytest.raises(ShardError, match="beyond the action-feature size 2"):
        read_shard(path, action_feature_size=2)


def test_missing_array_and_unreadable_file(tmp_path: Path) -> None:
    arrays = shard_arrays([game_data(0)])
    del arrays["visits"]
    path = tmp_path / "shard.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ShardError, match="missing arrays visits"):
        read_shard(path)
    path.write_bytes(b"not a zip")
    with pytest.raises(ShardError, match="not a readable shard"):
        read_shard(path)


def test_single_action_decisions_are_refused() -> None:
    data = game_data(0, decisions=1)
    one = GameData(**{**data.__dict__, "legal_counts": np.array([1], dtype=np.int32),
                      "visits": np.array([1.0], dtype=np.float32),
                      "action_counts": np.zeros(1, dtype=np.int32),
                      "action_index": np.zeros(0, dtype=np.int32)})
    with pytest.raises(ShardError, match="fewer than two legal actions"):
        shard_arrays([one])


def test_format_2_needs_root_value_and_format_1_leaves_it_out(tmp_path: Path) -> None:
    data = game_data(3)
    bare = GameData(**{**data.__dict__, "root_value": None})
    with pytest.raises(ShardError, match=r"needs root_value, which games \[3\] lack"):
        shard_arrays([data, bare])
    old = tmp_path / "old.npz"
    write_shard(old, [bare], format=1)
    arrays = read_shard(old, format=1)
    assert "root_value" not in arrays and arrays["seat"].shape == (2,)
    assert "root_value" not in shard_arrays([data], format=1)  # format 1 has no such array
    assert "root_value" not in read_shard(old)  # no format given: either reads
    with pytest.raises(ShardError, match="missing arrays root_value"):
        read_shard(old, format=2)
    new = tmp_path / "new.npz"
    write_shard(new, [data])
    assert read_shard(new, format=2)["root_value"].tolist() == [0.25, 0.75]
    arrays = shard_arrays([data])
    arrays["root_value"] = arrays["root_value"] + 2
    with pytest.raises(ShardError, match="outside"):  # checked whatever the format
        validate_shard(arrays, "test", format=1)
