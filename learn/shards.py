"""Self-play shards: whole games of recorded decisions in one `.npz` file (docs/learning.md).

A shard holds N decisions, M legal actions in all and K action-feature indices:

- `features` float32 [N, F]: the deciding seat's view features;
- `seat` int8 [N] and `game` int32 [N] (the game's index in the run);
- `rewards` float32 [N, P]: every seat's final reward, rotated so column 0 is the deciding seat;
- `legal_offsets` int32 [N + 1]: decision i's legal actions are `legal_offsets[i]:[i+1]` of
  `visits` and of the action-feature lists;
- `visits` float32 [M]: each legal action's share of the root visits (summing to 1 per decision);
- `action_offsets` int32 [M + 1], `action_index` int32 [K]: legal action m's active
  action-feature indices are `action_index[action_offsets[m]:action_offsets[m + 1]]`;
- `root_value` float32 [N] (format 2 on): the search's value of the position for the deciding
  seat, the mean value of its most visited root move, in [0, 1].

Format 1 shards (folders written before `root_value` was recorded) hold the other arrays only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardbot.engine.errors import BoardbotError

ARRAYS: dict[str, tuple[type[np.generic], int]] = {
    "features": (np.float32, 2),
    "seat": (np.int8, 1),
    "game": (np.int32, 1),
    "rewards": (np.float32, 2),
    "legal_offsets": (np.int32, 1),
    "visits": (np.float32, 1),
    "action_offsets": (np.int32, 1),
    "action_index": (np.int32, 1),
}
"""Every array of a shard: its dtype and its number of dimensions."""

FORMAT = 2
"""The shard format written: 2 adds `root_value` to format 1's arrays."""

ROOT_VALUE = "root_value"
"""The array format 2 adds: float32 [N], the search's value for the deciding seat."""

VISIT_SUM_TOLERANCE = 1e-4
"""How far a decision's visit shares may sum from 1 (float32 rounding)."""


class ShardError(BoardbotError, ValueError):
    """A shard (or the games to write into one) breaks the format: the message says where."""


@dataclass(frozen=True)
class GameData:
    """The recorded decisions of one self-play game, n decisions with m legal actions in all."""

    index: int
    """The game's index in the run."""
    features: npt.NDArray[np.float32]
    """[n, F] the deciding seat's view features."""
    seat: npt.NDArray[np.int8]
    """[n] the deciding seat."""
    rewards: npt.NDArray[np.float32]
    """[n, P] the final rewards, rotated to each decision's seat."""
    legal_counts: npt.NDArray[np.int32]
    """[n] the legal actions of each decision."""
    visits: npt.NDArray[np.float32]
    """[m] each legal action's visit share."""
    action_counts: npt.NDArray[np.int32]
    """[m] the number of active action-feature indices of each legal action."""
    action_index: npt.NDArray[np.int32]
    """[k] those indices, one legal action after the other."""
    root_value: npt.NDArray[np.float32] | None = None
    """[n] the search's value of each position for the deciding seat (None: not recorded, as
    in format 1)."""

    @property
    def decisions(self) -> int:
        """The number of recorded decisions."""
        return int(self.seat.shape[0])


def offsets(counts: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Offsets [len + 1] from counts: 0, then their running sums."""
    out = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    if out[-1] > np.iinfo(np.int32).max:
        raise ShardError(f"a shard of {out[-1]} entries overflows int32 offsets: fewer games")
    return out.astype(np.int32)


def shard_arrays(
    games: Sequence[GameData], format: int = FORMAT
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of a shard of `format` holding `games` (in that order), checked: format 2
    needs every game's `root_value`, format 1 leaves it out."""
    if not games:
        raise ShardError("a shard needs at least one game")
    if format not in (1, 2):
        raise ShardError(f"no shard format {format}: this boardbot writes formats 1 and 2")
    widths = {g.features.shape[1] for g in games}
    seats = {g.rewards.shape[1] for g in games}
    if len(widths) != 1 or len(seats) != 1:
        raise ShardError(
            f"the games of a shard differ in feature size {sorted(widths)} "
            f"or players {sorted(seats)}"
        )
    arrays: dict[str, npt.NDArray[Any]] = {
        "features": np.concatenate([g.features for g in games]).astype(np.float32, copy=False),
        "seat": np.concatenate([g.seat for g in games]).astype(np.int8, copy=False),
        "game": np.concatenate(
            [np.full(g.decisions, g.index, dtype=np.int32) for g in games]
        ),
        "rewards": np.concatenate([g.rewards for g in games]).astype(np.float32, copy=False),
        "legal_offsets": offsets(np.concatenate([g.legal_counts for g in games])),
        "visits": np.concatenate([g.visits for g in games]).astype(np.float32, copy=False),
        "action_offsets": offsets(np.concatenate([g.action_counts for g in games])),
        "action_index": np.concatenate([g.action_index for g in games]).astype(
            np.int32, copy=False
        ),
    }
    if format >= 2:
        lacking = [g.index for g in games if g.root_value is None]
        if lacking:
            raise ShardError(f"a format-{format} shard needs {ROOT_VALUE}, which games "
                             f"{lacking} lack")
        arrays[ROOT_VALUE] = np.concatenate(
            [np.asarray(g.root_value) for g in games]
        ).astype(np.float32, copy=False)
    validate_shard(arrays, "the shard to write", format=format)
    return arrays


def write_shard(path: Path, games: Sequence[GameData], format: int = FORMAT) -> int:
    """Write the shard of `games` to `path` at once (a temporary file renamed into place, so
    no reader ever sees half a shard); the number of decisions written."""
    arrays = shard_arrays(games, format)
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as stream:
            np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return int(arrays["seat"].shape[0])


def read_shard(
    path: Path,
    feature_size: int | None = None,
    action_feature_size: int | None = None,
    format: int | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the shard at `path`, checked against the format (and, when given, the
    feature size F, the action-feature size A and the folder's format: 2 or later needs
    `root_value`); ShardError names what is wrong. A `root_value` present is checked whatever
    the format."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError) as error:
        raise ShardError(f"{path} is not a readable shard: {error}") from None
    validate_shard(arrays, str(path), feature_size, action_feature_size, format)
    return arrays


def validate_shard(
    arrays: dict[str, npt.NDArray[Any]],
    where: str,
    feature_size: int | None = None,
    action_feature_size: int | None = None,
    format: int | None = None,
) -> None:
    """ShardError unless `arrays` are a shard: names, dtypes, shapes, offsets and values
    (`root_value` wherever present, and required from format 2 on)."""
    required = set(ARRAYS) | ({ROOT_VALUE} if format is not None and format >= 2 else set())
    missing = sorted(required - set(arrays))
    if missing:
        raise ShardError(f"{where}: missing arrays {', '.join(missing)}")
    for name, (dtype, ndim) in ARRAYS.items():
        array = arrays[name]
        if array.dtype != dtype or array.ndim != ndim:
            raise ShardError(
                f"{where}: {name} is {array.dtype} with {array.ndim} dimensions, "
                f"expected {np.dtype(dtype)} with {ndim}"
            )
    n = arrays["seat"].shape[0]
    features, rewards = arrays["features"], arrays["rewards"]
    for name in ("features", "game", "rewards"):
        if arrays[name].shape[0] != n:
            raise ShardError(f"{where}: {name} has {arrays[name].shape[0]} rows, seat has {n}")
    if feature_size is not None and features.shape[1] != feature_size:
        raise ShardError(f"{where}: features have {features.shape[1]} columns, expected "
                         f"{feature_size}")
    players = rewards.shape[1]
    if players < 1:
        raise ShardError(f"{where}: rewards have no column")
    if not np.all(np.isfinite(features)):
        raise ShardError(f"{where}: features hold a value that is not finite")
    seats = arrays["seat"]
    if n and (seats.min() < 0 or seats.max() >= players):
        raise ShardError(f"{where}: a seat lies outside 0..{players - 1}")
    if n and not (np.all(rewards >= 0.0) and np.all(rewards <= 1.0)):
        raise ShardError(f"{where}: a reward lies outside [0, 1]")
    if ROOT_VALUE in arrays:
        _check_root_value(arrays[ROOT_VALUE], n, where)
    visits = arrays["visits"]
    legal = _check_offsets(arrays["legal_offsets"], n, visits.shape[0], "legal_offsets", where)
    if n and legal.min() < 2:
        raise ShardError(f"{where}: a decision has fewer than two legal actions")
    if visits.shape[0] and not (np.all(visits >= 0.0) and np.all(visits <= 1.0)):
        raise ShardError(f"{where}: a visit share lies outside [0, 1]")
    if n:
        sums = np.add.reduceat(visits.astype(np.float64), arrays["legal_offsets"][:-1])
        worst = int(np.argmax(np.abs(sums - 1.0)))
        if abs(sums[worst] - 1.0) > VISIT_SUM_TOLERANCE:
            raise ShardError(f"{where}: the visit shares of decision {worst} sum to "
                             f"{sums[worst]:.6f}, not 1")
    index = arrays["action_index"]
    _check_offsets(arrays["action_offsets"], visits.shape[0], index.shape[0], "action_offsets",
                   where)
    if index.shape[0]:
        low, high = int(index.min()), int(index.max())
        if low < 0:
            raise ShardError(f"{where}: action_index holds the negative index {low}")
        if action_feature_size is not None and high >= action_feature_size:
            raise ShardError(f"{where}: action_index holds {high}, beyond the action-feature "
                             f"size {action_feature_size}")


def _check_root_value(root: npt.NDArray[Any], n: int, where: str) -> None:
    """ShardError unless `root` is float32 [n] of finite values in [0, 1]."""
    if root.dtype != np.float32 or root.ndim != 1:
        raise ShardError(f"{where}: {ROOT_VALUE} is {root.dtype} with {root.ndim} dimensions, "
                         "expected float32 with 1")
    if root.shape[0] != n:
        raise ShardError(f"{where}: {ROOT_VALUE} has {root.shape[0]} rows, seat has {n}")
    if not np.all(np.isfinite(root)):
        raise ShardError(f"{where}: {ROOT_VALUE} holds a value that is not finite")
    if n and not (np.all(root >= 0.0) and np.all(root <= 1.0)):
        raise ShardError(f"{where}: a {ROOT_VALUE} lies outside [0, 1]")


def _check_offsets(
    table: npt.NDArray[Any], rows: int, entries: int, name: str, where: str
) -> npt.NDArray[Any]:
    """The counts of an offsets table, after checking it spans `entries` over `rows` rows."""
    if table.shape[0] != rows + 1:
        raise ShardError(f"{where}: {name} has {table.shape[0]} entries, expected {rows + 1}")
    if table[0] != 0 or table[-1] != entries:
        raise ShardError(f"{where}: {name} runs from {table[0]} to {table[-1]}, expected "
                         f"0 to {entries}")
    counts = np.diff(table.astype(np.int64))
    if counts.shape[0] and counts.min() < 0:
        raise ShardError(f"{where}: {name} decreases")
    return counts
