"""The watchdog child and replay: a slow call is caught, a repro replays to its verdict."""

from __future__ import annotations

from pathlib import Path

from fuzz import repro
from fuzz.cases import Case, MoveSpec
from fuzz.pipeline import Limits
from fuzz.replay import replay
from fuzz.sandbox import Child
from fuzz.seeds import corpus_seeds


def _case() -> Case:
    seed = corpus_seeds()[0]
    return Case(seed.game, seed.label, seed.doc, [], MoveSpec("text", pick=3, seed=5), 9)


def test_a_clean_seed_passes_and_the_alarm_stops_a_long_case() -> None:
    child = Child(Limits(), hang_seconds=5.0)
    try:
        assert child.run(_case()).outcome == "ok"
    finally:
        child.close()
    hurried = Child(Limits(), hang_seconds=0.001)
    try:
        result = hurried.run(_case())
    finally:
        hurried.close()
    assert result.failure is not None and result.failure.kind == "hang"


def _write(tmp_path: Path, slow_seconds: float) -> Path:
    case = _case()
    return repro.write_case(
        tmp_path, case, case.document(), {"kind": "slow"}, "slow|decode||", 1, 1,
        {"slow_seconds": slow_seconds, "hang_seconds": 5.0},
    )


def test_replay_says_whether_a_repro_still_fails(tmp_path: Path) -> None:
    # With a zero threshold every engine call is "too slow": the repro reproduces.
    assert replay(_write(tmp_path / "a", 0.0), say=lambda _: None) == 1
    assert replay(_write(tmp_path / "b", 1.0), say=lambda _: None) == 0
