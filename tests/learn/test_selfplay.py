"""`boardbot selfplay`: seeded games of the native search recorded into shards that keep every
invariant of the format, the same data for the same seed, resumed runs equal to one run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

from boardbot.cli.main import main
from boardbot.learn import selfplay as selfplay_module
from boardbot.learn.selfplay import (
    FORMAT,
    SETTINGS_FILE,
    SelfPlayError,
    root_value,
    run_selfplay,
    selfplay_bot,
    selfplay_settings,
)
from boardbot.learn.shards import read_shard
from boardbot.search.api import MoveStats, SearchResult
from boardbot.search.engines import Engine
from boardbot.search.native_game import NativeGame
from boardbot.search.rewards import margin_share
from boardbot.tools.match import game_seed, play_game
from boardbot.tools.runners import ProcessRunner
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

needs_native = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)

BOT = "beginner@30"
SETUPS = [
    pytest.param("leda", {}, id="leda"),
    pytest.param("legend_raiders", {"players": 3}, id="legend_raiders-3p"),
]


def run(
    directory: Path, game: str, options: dict[str, Any], games: int, per_shard: int = 2,
    bot: str = BOT, seed: int = 5, temperature: float = 0.0,
) -> None:
    settings = selfplay_settings(game, options, bot, seed, temperature, 8)
    run_selfplay(settings, directory, games, games_per_shard=per_shard)


def shards(directory: Path) -> list[dict[str, np.ndarray]]:
    document = orjson.loads((directory / SETTINGS_FILE).read_bytes())
    return [read_shard(directory / s["file"]) for s in document["shards"]]


def merged(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The shards' arrays joined, offsets as counts (which do not depend on the cut)."""
    return {
        name: np.concatenate(
            [np.diff(p[name]) if name.endswith("offsets") else p[name] for p in parts]
        )
        for name in parts[0]
    }


def check_invariants(directory: Path, game: str, options: dict[str, Any], bot: str) -> None:
    """Every invariant of contract section 2, and each game's rewards against the match runner's
    game of the same seed (the same game, as no move explored)."""
    document = orjson.loads((directory / SETTINGS_FILE).read_bytes())
    players = document["players"]
    width, actions = document["feature_size"], document["action_feature_size"]
    rules = NativeGame.of(game)
    assert rules is not None
    finals: dict[int, np.ndarray] = {}
    for entry in document["shards"]:
        arrays = read_shard(directory / entry["file"], width, actions, document["format"])
        n = arrays["seat"].shape[0]
        assert n == entry["decisions"]
        assert sorted(set(arrays["game"].tolist())) == sorted(
            set(entry["games"]) - set(entry["unfinished"])
        )
        assert arrays["features"].shape == (n, width)
        assert arrays["rewards"].shape == (n, players)
        offsets = arrays["legal_offsets"]
        assert offsets[0] == 0 and offsets[-1] == arrays["visits"].shape[0]
        assert np.all(np.diff(offsets) >= 2)
        for i in range(n):
            assert abs(float(arrays["visits"][offsets[i] : offsets[i + 1]].sum()) - 1.0) < 1e-5
        action_offsets = arrays["action_offsets"]
        assert action_offsets.shape == (arrays["visits"].shape[0] + 1,)
        assert action_offsets[-1] == arrays["action_index"].shape[0]
        rewards = arrays["rewards"]
        assert np.all((rewards >= 0) & (rewards <= 1))
        roots = arrays["root_value"]
        assert roots.shape == (n,) and np.all((roots >= 0) & (roots <= 1))
        assert len(np.unique(roots)) > 1  # a value per position, not one per game
        for i in range(n):
            seat = int(arrays["seat"][i])
            final = np.empty(players, dtype=np.float32)
            for k in range(players):
                final[(seat + k) % players] = rewards[i, k]
            known = finals.setdefault(int(arrays["game"][i]), final)
            assert np.array_equal(known, final)  # the same final rewards, rotated back
    for index, final in finals.items():
        seed = game_seed(document["seed"], index, players, duplicate=False)
        record = play_game(
            rules, document["options"], [bot] * players, tuple(range(players)), seed, index,
            Engine.NATIVE,
        )
        expected = [
            0.9 * r + 0.1 * margin_share(record.scores, s) for s, r in enumerate(record.returns)
        ]
        assert np.array_equal(final, np.asarray(expected, dtype=np.float32))


@needs_native
@pytest.mark.parametrize(("game", "options"), SETUPS)
def test_shards_keep_the_format(tmp_path: Path, game: str, options: dict[str, Any]) -> None:
    run(tmp_path, game, options, games=3)
    document = orjson.loads((tmp_path / SETTINGS_FILE).read_bytes())
    assert document["games_done"] == [0, 1, 2]
    assert [s["games"] for s in document["shards"]] == [[0, 1], [2]]
    assert document["bot"] == BOT and document["seed"] == 5 and document["format"] == FORMAT == 2
    assert {"feature_size", "action_feature_size", "features_version", "created"} <= {*document}
    check_invariants(tmp_path, game, options, BOT)


@needs_native
@pytest.mark.parametrize(("game", "options"), SETUPS)
def test_same_seed_same_data_and_resume(tmp_path: Path, game: str, options: dict[str, Any]) -> None:
    run(tmp_path / "one", game, options, games=4, temperature=1.0)
    run(tmp_path / "again", game, options, games=4, temperature=1.0)
    run(tmp_path / "resumed", game, options, games=1, temperature=1.0)
    run(tmp_path / "resumed", game, options, games=4, temperature=1.0)
    one, again, resumed = (shards(tmp_path / d) for d in ("one", "again", "resumed"))
    assert len(one) == 2 and len(resumed) == 3  # game 0 alone, then games 1-2 and game 3
    for first, second in zip(one, again, strict=True):
        for name in first:
            assert np.array_equal(first[name], second[name]), name
    whole, parts = merged(one), merged(resumed)
    for name in whole:
        assert np.array_equal(whole[name], parts[name]), name
    plain = tmp_path / "plain"
    run(plain, game, options, games=2)
    explored = shards(tmp_path / "one")[0]
    assert not np.array_equal(shards(plain)[0]["visits"], explored["visits"])


@needs_native
def test_a_process_pool_writes_the_serial_data(tmp_path: Path) -> None:
    settings = selfplay_settings("legend_raiders", {}, BOT, 2)
    run_selfplay(settings, tmp_path / "serial", 3, games_per_shard=2)
    run_selfplay(settings, tmp_path / "pool", 3, ProcessRunner(2), games_per_shard=2)
    for first, second in zip(shards(tmp_path / "serial"), shards(tmp_path / "pool"), strict=True):
        for name in first:
            assert np.array_equal(first[name], second[name]), name


@needs_native
def test_an_interrupted_run_resumes_to_the_same_files(tmp_path: Path) -> None:
    run(tmp_path / "one", "leda", {}, games=2, per_shard=1)
    folder = tmp_path / "cut"
    run(folder, "leda", {}, games=2, per_shard=1)
    # Stopped after its last shard was renamed into place but before the settings listed it,
    # with another shard's temporary file left behind.
    document = orjson.loads((folder / SETTINGS_FILE).read_bytes())
    document["shards"].pop()
    document["games_done"] = [0]
    (folder / SETTINGS_FILE).write_bytes(orjson.dumps(document))
    (folder / ".shard-00002.npz.999.tmp").write_bytes(b"half")
    run(folder, "leda", {}, games=2, per_shard=1)
    assert sorted(p.name for p in folder.iterdir()) == [
        "selfplay.json", "shard-00000.npz", "shard-00001.npz"
    ]
    for first, second in zip(shards(tmp_path / "one"), shards(folder), strict=True):
        for name in first:
            assert np.array_equal(first[name], second[name]), name


@needs_native
def test_other_settings_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = ["selfplay", "--game", "leda", "--games", "1", "--out", str(tmp_path),
               "--bot", BOT, "--seed", "3"]
    assert main(command) == 0
    assert main(command) == 0  # the same settings: nothing left to play
    assert "0 games played now" in capsys.readouterr().err
    assert main([*command[:-1], "4"]) == 1
    error = capsys.readouterr().err
    assert "seed: folder has 3, asked 4" in error and "another --out" in error
    with pytest.raises(SelfPlayError, match="bot: folder has 'beginner@30', asked 'beginner@31'"):
        run(tmp_path, "leda", {}, games=1, bot="beginner@31", seed=3)


@needs_native
def test_a_folder_of_the_earlier_format_is_refused(tmp_path: Path) -> None:
    run(tmp_path, "leda", {}, games=1)
    document = orjson.loads((tmp_path / SETTINGS_FILE).read_bytes())
    (tmp_path / SETTINGS_FILE).write_bytes(orjson.dumps({**document, "format": 1}))
    with pytest.raises(SelfPlayError, match=r"holds self-play data of format 1, and this "
                       r"boardbot writes format 2 .* choose another --out"):
        run(tmp_path, "leda", {}, games=2)
    del document["format"]  # the very first folders named no format: format 1
    (tmp_path / SETTINGS_FILE).write_bytes(orjson.dumps(document))
    with pytest.raises(SelfPlayError, match="format 1"):
        run(tmp_path, "leda", {}, games=2)


def test_the_root_value_is_the_most_visited_moves_mean() -> None:
    def result(*moves: tuple[int, float]) -> SearchResult:
        stats = tuple(MoveStats(i, None, visits, mean, 0.0) for i, (visits, mean) in
                      enumerate(moves))
        return SearchResult(0, "0", 0, 10, 1.0, stats)

    assert root_value(result((7, 0.625), (3, 0.9))) == 0.625
    assert root_value(result((0, 0.0), (0, 0.0))) == 0.5  # nothing searched: no information
    assert root_value(result()) == 0.5
    assert root_value(result((5, 1.0000001))) == 1.0


def test_bots_without_a_search_are_refused() -> None:
    for setting, message in [
        ("random", "has no search"),
        ("greedy", "has no search"),
        ("medium/python", "drop /python"),
        ("medium+random=0.5", "drop \\+random"),
    ]:
        with pytest.raises(SelfPlayError, match=message):
            selfplay_bot(setting, "leda")


def test_the_native_core_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay_module, "native_module", lambda: None)
    with pytest.raises(SelfPlayError, match="native core, which is not built"):
        selfplay_settings("leda", {}, BOT, 0)
