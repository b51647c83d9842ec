"""A self-play data folder read into arrays, and its seeded split into training and held-out
games (the shard format of `boardbot selfplay`, docs: the learned-evaluation contract).

A folder holds `selfplay.json` (the run's settings: game, players, feature_size,
action_feature_size, features_version, ...) and shards `shard-NNNNN.npz`, each with N decisions,
M legal actions and K action-feature indices:

| array | dtype, shape | what |
|---|---|---|
| `features` | float32 [N, F] | the deciding seat's view features |
| `seat` | int8 [N] | the deciding seat |
| `game` | int32 [N] | the game's index in the run |
| `rewards` | float32 [N, P] | final rewards, rotated: column 0 is the deciding seat |
| `legal_offsets` | int32 [N + 1] | decision i's legal actions: entries `[o[i], o[i+1])` |
| `visits` | float32 [M] | root visit share of each legal action (sums to 1 per decision) |
| `action_offsets` | int32 [M + 1] | legal action m's indices: `action_index[a[m]:a[m+1]]` |
| `action_index` | int32 [K] | active action-feature indices |
| `root_value` | float32 [N] | format 2 on: the search's value for the deciding seat, in [0, 1] |

A folder's `format` (in `selfplay.json`; 1 when absent) says which: format 1 folders, written
before `root_value` was recorded, still read, with `Dataset.root_value` None.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardbot.engine.errors import BoardbotError
from boardbot.learn import shards

SETTINGS_FILE = "selfplay.json"
SHARD_GLOB = "shard-*.npz"
ARRAYS = (
    "features",
    "seat",
    "game",
    "rewards",
    "legal_offsets",
    "visits",
    "action_offsets",
    "action_index",
)
ROOT_VALUE = "root_value"
"""The array of format 2 on."""


class DatasetError(BoardbotError, ValueError):
    """A data folder or shard that does not follow the self-play format."""


@dataclass(frozen=True)
class Dataset:
    """Decisions of self-play games, concatenated (offsets rebased to the whole set)."""

    features: npt.NDArray[np.float32]
    seat: npt.NDArray[np.int8]
    game: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    legal_offsets: npt.NDArray[np.int64]
    visits: npt.NDArray[np.float32]
    action_offsets: npt.NDArray[np.int64]
    action_index: npt.NDArray[np.int32]
    settings: Mapping[str, Any]
    root_value: npt.NDArray[np.float32] | None = None
    """The search's value for the deciding seat [N]; None for a folder of format 1."""

    @property
    def decisions(self) -> int:
        """Decisions recorded (N)."""
        return int(self.features.shape[0])

    @property
    def feature_size(self) -> int:
        """Length of a view vector (F)."""
        return int(self.features.shape[1])

    @property
    def players(self) -> int:
        """Seats (the reward width P)."""
        return int(self.rewards.shape[1])

    @property
    def action_feature_size(self) -> int:
        """Size of the action-feature space (A), from the settings."""
        return int(self.settings["action_feature_size"])

    def games(self) -> npt.NDArray[np.int64]:
        """The distinct game indices, sorted."""
        return np.unique(self.game)

    def subset(self, rows: npt.NDArray[np.int64]) -> Dataset:
        """The decisions at `rows` (in that order), offsets rebased."""
        legal, visits_at = _ranges(self.legal_offsets, rows)
        actions, index_at = _ranges(self.action_offsets, visits_at)
        return Dataset(
            features=self.features[rows],
            seat=self.seat[rows],
            game=self.game[rows],
            rewards=self.rewards[rows],
            legal_offsets=legal,
            visits=self.visits[visits_at],
            action_offsets=actions,
            action_index=self.action_index[index_at],
            settings=self.settings,
            root_value=None if self.root_value is None else self.root_value[rows],
        )


def _ranges(
    offsets: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For ragged rows `rows` of `offsets`: the new offsets and the entries they take."""
    starts = offsets[rows]
    lengths = offsets[rows + 1] - starts
    new = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=new[1:])
    entries = np.repeat(starts - new[:-1], lengths) + np.arange(new[-1], dtype=np.int64)
    return new, entries


def read_settings(folder: Path) -> dict[str, Any]:
    """The run's `selfplay.json`."""
    path = folder / SETTINGS_FILE
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{folder} is not a self-play folder: no {SETTINGS_FILE}") from None
    except (OSError, ValueError) as error:
        raise DatasetError(f"{path}: cannot read it: {error}") from None
    if not isinstance(settings, dict):
        raise DatasetError(f"{path}: must hold a JSON object")
    for key in ("game", "players", "feature_size", "action_feature_size", "features_version"):
        if key not in settings:
            raise DatasetError(f"{path}: missing {key!r}")
    return settings


def folder_format(settings: Mapping[str, Any]) -> int:
    """The folder's format from its settings (1 when `selfplay.json` names none)."""
    value = settings.get("format", 1)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise DatasetError(f"{SETTINGS_FILE}: format must be an integer >= 1, got {value!r}")
    return value


def read_shard(path: Path, settings: Mapping[str, Any]) -> dict[str, npt.NDArray[Any]]:
    """One shard's arrays, checked by `learn.shards` against the format and the run's sizes
    (`root_value` from format 2 on) and against the run's seat count."""
    try:
        arrays = shards.read_shard(
            path,
            int(settings["feature_size"]),
            int(settings["action_feature_size"]),
            folder_format(settings),
        )
    except shards.ShardError as error:
        raise DatasetError(str(error)) from None
    players = int(settings["players"])
    if arrays["rewards"].shape[1] != players:
        raise DatasetError(
            f"{path}: rewards have {arrays['rewards'].shape[1]} columns, the run has {players} "
            "players"
        )
    return arrays


def shard_paths(folder: Path) -> list[Path]:
    """The folder's shards in name order."""
    return sorted(folder.glob(SHARD_GLOB))


def load_dataset(folder: Path | str) -> Dataset:
    """Every shard of a self-play folder, concatenated (offsets rebased).

    The features, by far the largest array, are copied shard by shard into one array sized
    from the shards' decision counts, so a folder takes its own size in memory and one shard
    more, not twice its size."""
    folder = Path(folder)
    settings = read_settings(folder)
    paths = shard_paths(folder)
    if not paths:
        raise DatasetError(f"{folder}: no shards ({SHARD_GLOB})")
    counts = [_decision_count(path) for path in paths]
    features = np.empty((sum(counts), int(settings["feature_size"])), dtype=np.float32)
    rest: list[dict[str, npt.NDArray[Any]]] = []
    row = 0
    for path, count in zip(paths, counts, strict=True):
        arrays = read_shard(path, settings)
        if arrays["features"].shape[0] != count:
            raise DatasetError(f"{path}: changed while it was read")
        features[row : row + count] = arrays.pop("features")
        row += count
        rest.append(arrays)

    def joined(name: str, dtype: Any) -> npt.NDArray[Any]:
        return np.concatenate([s[name] for s in rest]).astype(dtype, copy=False)

    def offsets(name: str, total_of: str) -> npt.NDArray[np.int64]:
        parts = [np.zeros(1, dtype=np.int64)]
        base = 0
        for s in rest:
            parts.append(s[name][1:].astype(np.int64) + base)
            base += int(s[total_of].shape[0])
        return np.concatenate(parts)

    return Dataset(
        features=features,
        seat=joined("seat", np.int8),
        game=joined("game", np.int64),
        rewards=joined("rewards", np.float32),
        legal_offsets=offsets("legal_offsets", "visits"),
        visits=joined("visits", np.float32),
        action_offsets=offsets("action_offsets", "action_index"),
        action_index=joined("action_index", np.int32),
        settings=settings,
        root_value=joined(ROOT_VALUE, np.float32) if folder_format(settings) >= 2 else None,
    )


def _decision_count(path: Path) -> int:
    """The decisions a shard holds, from its small `seat` array alone (the features stay
    compressed)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(data["seat"].shape[0])
    except (OSError, ValueError, KeyError) as error:
        raise DatasetError(f"{path} is not a readable shard: {error}") from None


@dataclass(frozen=True)
class Split:
    """Training and held-out decisions of one dataset, no game in both: row numbers into
    `data`, so a split costs no copy of the features."""

    data: Dataset
    train_rows: npt.NDArray[np.int64]
    held_out_rows: npt.NDArray[np.int64]
    train_games: int
    held_out_games: int

    @property
    def train(self) -> Dataset:
        """The training decisions, copied out."""
        return self.data.subset(self.train_rows)

    @property
    def held_out(self) -> Dataset:
        """The held-out decisions, copied out."""
        return self.data.subset(self.held_out_rows)


def split_by_game(data: Dataset, held_out_fraction: float, seed: int) -> Split:
    """A seeded split of whole games: about `held_out_fraction` of the games held out (at least
    one when there are two or more games and the fraction is above 0)."""
    if not 0.0 <= held_out_fraction < 1.0:
        raise DatasetError(f"the held-out fraction must lie in [0, 1), got {held_out_fraction}")
    games = data.games()
    rng = np.random.default_rng(seed)
    order = rng.permutation(games)
    count = round(held_out_fraction * len(games))
    if held_out_fraction > 0 and len(games) >= 2:
        count = min(max(count, 1), len(games) - 1)
    held = np.isin(data.game, order[:count])
    return Split(
        data=data,
        train_rows=np.flatnonzero(~held),
        held_out_rows=np.flatnonzero(held),
        train_games=len(games) - count,
        held_out_games=count,
    )
