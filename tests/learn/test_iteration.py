"""Expert iteration: generations in one resumable folder, each model matched against the
incumbent, the run stopping at the first generation without a gain."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from boardbot.cli.main import main
from boardbot.learn.iteration import (
    GenerationResult,
    IterationError,
    IterationSettings,
    latest_kept_model,
    retrain_command,
    run_iteration,
    with_model,
)
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native

needs_native = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)

TINY = IterationSettings(
    game="legend_raiders",
    options={"players": 2},
    first_bot="beginner@5",
    bot="beginner@5",
    games=3,
    match_bot="beginner@5",
    match_games=2,
    seed=4,
    temperature_moves=2,
    train={"hidden": [8], "epochs": 1, "batch": 16, "held_out": 0.34},
)


def result(generation: int, kept: bool) -> GenerationResult:
    """A generation's result with the figures that do not matter here."""
    return GenerationResult(
        generation, f"gen-{generation}/model.bbnet", "0" * 64, 10, {}, "a", "b", 2, 0.5, 0.1,
        0.9, 0.5, kept,
    )


def test_helpers_name_bots_models_and_commands() -> None:
    assert with_model("hard@5ms", None) == "hard@5ms"
    assert with_model("hard@5ms", Path("m.bbnet")) == "hard@5ms+model=m.bbnet"
    assert latest_kept_model([]) is None
    assert latest_kept_model([result(1, True), result(2, False)]) == Path("gen-1/model.bbnet")
    assert retrain_command(Path("d"), Path("m.bbnet"), {"hidden": [8, 4], "l2": 0.001}) == (
        "boardbot train --data d --out m.bbnet --hidden 8,4 --l2 0.001"
    )


@needs_native
def test_a_run_plays_trains_and_matches_then_resumes(tmp_path: Path) -> None:
    lines: list[str] = []
    results = run_iteration(tmp_path, TINY, 2, say=lines.append)
    assert [r.generation for r in results] == list(range(1, len(results) + 1))
    first = results[0]
    assert (tmp_path / "gen-1" / "data" / "selfplay.json").is_file()
    assert Path(first.model).is_file()
    assert first.candidate == f"beginner@5+model={first.model}"
    assert first.incumbent == "beginner@5"
    assert first.games == 2 and first.equal_share == 0.5
    assert first.kept == (first.win_rate_low > 0.5)
    match = orjson.loads((tmp_path / "gen-1" / "match.json").read_bytes())
    assert len(match["games"]) == 2
    stored = orjson.loads((tmp_path / "iteration.json").read_bytes())
    assert stored["settings"] == TINY.to_json()
    assert len(stored["generations"]) == len(results)
    if not first.kept:
        assert len(results) == 1
        assert any("no gain" in line for line in lines)
    # A rerun continues from the folder: nothing is played again.
    again: list[str] = []
    assert run_iteration(tmp_path, TINY, 2, say=again.append)[: len(results)] == results


def test_a_folder_of_other_settings_is_refused(tmp_path: Path) -> None:
    (tmp_path / "iteration.json").write_bytes(
        orjson.dumps({"settings": {**TINY.to_json(), "seed": 5}, "generations": []})
    )
    with pytest.raises(IterationError, match="seed: folder has 5, asked 4"):
        run_iteration(tmp_path, TINY, 1, say=lambda _: None)


def test_the_command_refuses_bad_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["iterate", "--game", "legend_raiders", "--dir", str(tmp_path), "--games", "0"])
    assert code != 0
    assert "at least 1" in capsys.readouterr().err
