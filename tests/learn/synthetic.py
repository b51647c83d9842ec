"""A synthetic self-play folder in the shard format, with learnable targets.

Each decision's features are random; its rewards are a fixed logistic function of them (seat
0's, the others' its complement) and its visit shares a softmax of a fixed linear score of the
features at each legal action's indices: a network can learn both. With `root_value` the
folder is of format 2: each decision also holds a search value, its seat-0 reward moved a seeded
random step towards 0.5.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def write_folder(
    folder: Path,
    games: int = 40,
    decisions_per_game: int = 12,
    feature_size: int = 24,
    action_feature_size: int = 16,
    players: int = 2,
    legal: tuple[int, int] = (2, 6),
    indices: tuple[int, int] = (1, 3),
    shards: int = 2,
    seed: int = 0,
    root_value: bool = False,
) -> Path:
    """Write `selfplay.json` and `shards` shard files into `folder`; returns `folder`."""
    rng = np.random.default_rng(seed)
    search = np.random.default_rng(seed + 99)  # its own stream: the other arrays stay the same
    truth = np.random.default_rng(1234)
    value_w = truth.normal(0.0, 3.0 / np.sqrt(feature_size), feature_size)
    policy_w = truth.normal(0.0, 2.0, (feature_size, action_feature_size)) / np.sqrt(feature_size)
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "game": "synthetic",
        "players": players,
        "options": {},
        "bot": "synthetic",
        "seed": seed,
        "feature_size": feature_size,
        "action_feature_size": action_feature_size,
        "features_version": 1,
        "games_done": games,
    }
    if root_value:
        settings["format"] = 2
    (folder / "selfplay.json").write_text(json.dumps(settings), encoding="utf-8")
    per_shard = np.array_split(np.arange(games), shards)
    for number, shard_games in enumerate(per_shard):
        n = len(shard_games) * decisions_per_game
        x = rng.random((n, feature_size)).astype(np.float32)
        x[rng.random((n, feature_size)) < 0.3] = 0.0
        seat = rng.integers(0, players, n).astype(np.int8)
        game = np.repeat(shard_games, decisions_per_game).astype(np.int32)
        own = 1.0 / (1.0 + np.exp(-(x - 0.35) @ value_w))
        rewards = np.empty((n, players), dtype=np.float32)
        rewards[:, 0] = own
        rewards[:, 1:] = (1.0 - own)[:, None]
        scores = x @ policy_w
        counts = rng.integers(legal[0], legal[1] + 1, n)
        legal_offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
        per_action = rng.integers(indices[0], indices[1] + 1, int(counts.sum()))
        action_offsets = np.concatenate([[0], np.cumsum(per_action)]).astype(np.int32)
        action_index = rng.integers(0, action_feature_size, int(per_action.sum())).astype(np.int32)
        visits = np.empty(int(counts.sum()), dtype=np.float32)
        for i in range(n):
            lo, hi = legal_offsets[i], legal_offsets[i + 1]
            logits = np.array(
                [scores[i, action_index[action_offsets[m] : action_offsets[m + 1]]].sum()
                 for m in range(lo, hi)]
            )
            e = np.exp(3.0 * (logits - logits.max()))
            visits[lo:hi] = e / e.sum()
        extra = {}
        if root_value:
            pull = search.random(n)
            extra["root_value"] = (own + pull * (0.5 - own)).astype(np.float32)
        np.savez(
            folder / f"shard-{number:05d}.npz",
            features=x,
            seat=seat,
            game=game,
            rewards=rewards,
            legal_offsets=legal_offsets,
            visits=visits,
            action_offsets=action_offsets,
            action_index=action_index,
            **extra,
        )
    return folder
