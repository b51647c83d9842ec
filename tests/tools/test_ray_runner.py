"""Ray as a runner: the same match and the same ladder as the local runners, game for game."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.tools.ladder import run_ladder
from boardbot.tools.match import run_match
from boardbot.tools.runners import RayRunner, SerialRunner
from tests.tools.ladder_helpers import small_settings, without_times

ray = pytest.importorskip("ray", reason="ray is not installed (boardbot's `ray` extra)")
pytestmark = pytest.mark.xdist_group("browser_and_ray")

GAME = get_game("legend_raiders")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance for the module (RayRunner uses a Ray already started).

    Ray's head process sometimes fails to come up while the other test worker loads both cores
    (its port file never appears, or its raylet misses Ray's fixed 30 s start-up wait). A
    second start is given before the test errs, and the module shares its test worker with
    the browser tests (xdist group `browser_and_ray`): Chromium never loads the cores then."""
    monkey = pytest.MonkeyPatch()
    monkey.setenv("RAY_gcs_server_port_wait_time_s", "60")
    try:
        ray.init(num_cpus=2, include_dashboard=False)
    except Exception:  # Ray raises a bare Exception for a raylet that timed out
        ray.shutdown()
        ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()
    monkey.undo()


def games_of(records: list[object]) -> list[dict[str, object]]:
    return [without_times(orjson.loads(orjson.dumps(r))) for r in records]


def test_the_same_match_and_ladder_on_ray_as_locally(local_ray: None, tmp_path: Path) -> None:
    options = [{"players": 2}]
    bots = ["beginner@5", "random"]
    _, local = run_match(GAME, bots, 4, 6, options, runner=SerialRunner())
    _, on_ray = run_match(GAME, bots, 4, 6, options, runner=RayRunner())
    assert games_of(on_ray) == games_of(local)
    assert ray.is_initialized()  # the runner left the fixture's Ray running

    settings = small_settings(("random", "greedy", "beginner@5"), games=2, seed=5)
    run_ladder(GAME, settings, tmp_path / "local", stream=io.StringIO())
    stream = io.StringIO()
    run_ladder(GAME, settings, tmp_path / "ray", RayRunner(), stream=stream)
    assert "ladder: 6/6 games" in stream.getvalue()

    def entries(folder: Path) -> list[dict[str, object]]:
        lines = (folder / "games.jsonl").read_bytes().splitlines()
        found = [without_times(orjson.loads(line)) for line in lines]
        return sorted(found, key=lambda e: (e["table"], e["game"]))  # Ray: finishing order

    assert entries(tmp_path / "ray") == entries(tmp_path / "local")
