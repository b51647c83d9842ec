"""The self-play folder read into arrays (once, whatever its size), and the split by game."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from boardbot.learn.dataset import DatasetError, load_dataset, split_by_game
from tests.learn.synthetic import write_folder


def test_shards_concatenate_with_rebased_offsets(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "data", games=6, decisions_per_game=3, shards=3)
    data = load_dataset(folder)
    assert data.decisions == 18 and data.feature_size == 24 and data.players == 2
    assert data.action_feature_size == 16
    assert data.legal_offsets[0] == 0 and data.legal_offsets[-1] == len(data.visits)
    assert data.action_offsets[-1] == len(data.action_index)
    # Each decision's visit shares still sum to one after rebasing.
    sums = np.add.reduceat(data.visits, data.legal_offsets[:-1])
    np.testing.assert_allclose(sums, 1.0, atol=1e-5)
    # A subset keeps each decision's own actions and indices.
    rows = np.array([17, 0, 5])
    part = data.subset(rows)
    for new, old in enumerate(rows):
        lo, hi = data.legal_offsets[old], data.legal_offsets[old + 1]
        nlo, nhi = part.legal_offsets[new], part.legal_offsets[new + 1]
        assert np.array_equal(part.visits[nlo:nhi], data.visits[lo:hi])
        for m, nm in zip(range(lo, hi), range(nlo, nhi), strict=True):
            old_idx = data.action_index[data.action_offsets[m] : data.action_offsets[m + 1]]
            new_idx = part.action_index[part.action_offsets[nm] : part.action_offsets[nm + 1]]
            assert np.array_equal(old_idx, new_idx)


def test_the_split_holds_out_whole_games_by_seed(tmp_path: Path) -> None:
    data = load_dataset(write_folder(tmp_path / "data", games=20, decisions_per_game=4))
    split = split_by_game(data, 0.25, seed=3)
    assert split.held_out_games == 5 and split.train_games == 15
    # The split is row numbers into the very dataset; its parts are copies of those rows.
    assert split.data is data
    assert np.array_equal(split.train.features, data.features[split.train_rows])
    assert np.array_equal(np.sort(np.concatenate([split.train_rows, split.held_out_rows])),
                          np.arange(data.decisions))
    assert not set(split.train.game.tolist()) & set(split.held_out.game.tolist())
    assert split.train.decisions + split.held_out.decisions == data.decisions
    again = split_by_game(data, 0.25, seed=3)
    assert np.array_equal(again.held_out.game, split.held_out.game)
    other = split_by_game(data, 0.25, seed=4)
    assert set(other.held_out.game.tolist()) != set(split.held_out.game.tolist())
    assert split_by_game(data, 0.01, seed=0).held_out_games == 1


def test_bad_folders_and_shards_are_named(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"no selfplay\.json"):
        load_dataset(tmp_path)
    folder = write_folder(tmp_path / "data", games=2, decisions_per_game=2, shards=1)
    shard = folder / "shard-00000.npz"
    with np.load(shard) as npz:
        arrays = dict(npz)
    arrays["action_index"] = arrays["action_index"] + 100
    np.savez(shard, **arrays)
    beyond = r"shard-00000.npz: action_index holds \d+, beyond the action-feature size 16"
    with pytest.raises(DatasetError, match=beyond):
        load_dataset(folder)
    del arrays["visits"]
    np.savez(shard, **arrays)
    with pytest.raises(DatasetError, match="missing arrays visits"):
        load_dataset(folder)


def test_format_2_folders_carry_root_values_and_format_1_folders_still_read(
    tmp_path: Path,
) -> None:
    old = load_dataset(write_folder(tmp_path / "old", games=6, decisions_per_game=3))
    assert old.root_value is None and old.subset(np.array([2, 0])).root_value is None
    new = load_dataset(write_folder(tmp_path / "new", games=6, decisions_per_game=3,
                                    root_value=True))
    assert new.root_value is not None and new.root_value.shape == (18,)
    assert new.root_value.dtype == np.float32
    assert np.all((new.root_value >= 0) & (new.root_value <= 1))
    # The other arrays are those of the same folder without root values.
    assert np.array_equal(new.rewards, old.rewards) and np.array_equal(new.visits, old.visits)
    part = new.subset(np.array([17, 0, 5]))
    assert part.root_value is not None
    assert part.root_value.tolist() == new.root_value[[17, 0, 5]].tolist()
    split = split_by_game(new, 0.25, seed=3)
    assert split.held_out.root_value is not None
    assert split.held_out.root_value.shape == (split.held_out.decisions,)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: None, "missing arrays root_value"),
        (lambda a: a[1:], r"root_value has 3 rows, seat has 4"),
        (lambda a: a + 1.5, r"a root_value lies outside \[0, 1\]"),
        (lambda a: a * np.nan, r"root_value holds a value that is not finite"),
    ],
)
def test_bad_root_values_are_named(tmp_path: Path, change: object, message: str) -> None:
    folder = write_folder(tmp_path / "data", games=2, decisions_per_game=2, shards=1,
                          root_value=True)
    shard = folder / "shard-00000.npz"
    with np.load(shard) as npz:
        arrays = dict(npz)
    changed = change(arrays.pop("root_value"))  # type: ignore[operator]
    if changed is not None:
        arrays["root_value"] = changed
    np.savez(shard, **arrays)
    with pytest.raises(DatasetError, match=message):
        load_dataset(folder)


def test_a_folder_loads_into_its_own_size_not_twice_it(tmp_path: Path) -> None:
    # Features dominate a real folder (LEDA: 563 floats a decision against ~40 legal moves),
    # so this folder has wide features: reading it must not hold every shard and their
    # concatenation at once (twice the features), only the result and one shard.
    folder = write_folder(tmp_path / "data", games=40, decisions_per_game=50,
                          feature_size=400, shards=8)
    tracemalloc.start()
    try:
        data = load_dataset(folder)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    features = data.features.nbytes
    assert data.features.shape == (2000, 400) and data.features.flags.c_contiguous
    assert peak < 1.5 * features, (peak, features)
    # The same arrays as the shards hold, in shard order.
    with np.load(folder / "shard-00003.npz") as shard:
        first = int(np.flatnonzero(data.game == shard["game"][0])[0])
        assert np.array_equal(data.features[first : first + len(shard["seat"])],
                              shard["features"])
    assert data.action_index.dtype == np.int32
