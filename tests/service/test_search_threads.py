"""A native search takes the server's idle cores as threads, within `--search-threads`."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from boardbot.cli.commands.serve import config_from_args
from boardbot.cli.main import build_parser
from boardbot.jobs import game_ops
from boardbot.jobs.search_job import SearchJob
from boardbot.jobs.settings import Limits, resolve
from boardbot.jobs.threads import auto_thread_cap, search_threads
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search import engines
from tests.service.positions import decision_state, load
from tests.service.servers import Served, searches_of, start_server, wait_until

needs_native = pytest.mark.skipif(
    engines.native_module() is None, reason="boardbot_native is not built (`make native`)"
)


def test_auto_cap_is_every_core_for_native_searches_without_explicit_workers() -> None:
    assert auto_thread_cap(None, 2, native=True, explicit=False) == 2
    assert auto_thread_cap(None, 8, native=True, explicit=False) == 8
    assert auto_thread_cap(3, 8, native=True, explicit=False) == 3
    assert auto_thread_cap(1, 8, native=True, explicit=False) == 0  # --search-threads 1: off
    assert auto_thread_cap(None, 1, native=True, explicit=False) == 0  # one core: nothing to add
    assert auto_thread_cap(None, 8, native=False, explicit=False) == 0  # Python: one process
    assert auto_thread_cap(None, 8, native=True, explicit=True) == 0  # settings.workers kept


def test_threads_are_the_idle_cores_within_the_cap_and_at_least_one() -> None:
    assert search_threads(idle_cores=2, cap=2) == 2
    assert search_threads(idle_cores=5, cap=2) == 2
    assert search_threads(idle_cores=1, cap=4) == 1
    assert search_threads(idle_cores=0, cap=4) == 1  # every core busy: still one thread
    assert search_threads(idle_cores=0, cap=4, asked=2) == 2  # never fewer than resolved
    assert search_threads(idle_cores=8, cap=0, asked=3) == 3  # no cap: exactly as resolved
    assert search_threads(idle_cores=8, cap=1, asked=1) == 1


def _job(thread_cap: int, overrides: dict[str, int] | None = None) -> SearchJob:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=71)
    return SearchJob(
        "legend_raiders",
        game_ops.encode_state(game, state),
        game.current_player(state),
        resolve("easy", overrides or {}, Limits(max_workers=2)),
        seed=1,
        thread_cap=thread_cap,
    )


def test_a_job_takes_its_threads_when_a_worker_picks_it_up() -> None:
    job = _job(thread_cap=2)
    assert job.cores() == 1
    dispatched = job.on_dispatch(idle_cores=2)
    assert dispatched.config.workers == 2 and dispatched.cores() == 2
    assert dispatched.on_dispatch(idle_cores=2) is dispatched  # decided once
    assert job.on_dispatch(idle_cores=0).config.workers == 1
    fixed = _job(thread_cap=0, overrides={"workers": 2})
    assert fixed.on_dispatch(idle_cores=0) is fixed and fixed.cores() == 2


def _serve_threads(*flags: str) -> int | None:
    return config_from_args(build_parser().parse_args(["serve", *flags])).search_threads


def test_serve_flag_auto_by_default_and_one_turns_it_off() -> None:
    assert _serve_threads() is None
    assert _serve_threads("--search-threads", "auto") is None
    assert _serve_threads("--search-threads", "1") == 1
    assert _serve_threads("--search-threads", "3") == 3
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--search-threads", "0"])


@pytest.fixture(scope="module")
def auto_served() -> Iterator[Served]:
    """A two-worker server with automatic search threads (the default of `boardbot serve`)."""
    s = start_server(workers=2, search_threads=None)
    yield s
    s.close()


def _analyze(settings: pb.SearchSettings, seed: int = 3) -> pb.AnalyzeRequest:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=73)
    return pb.AnalyzeRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        preset="easy",
        settings=settings,
        seed=seed,
        top_k=3,
    )


def _idle(served: Served) -> None:
    assert wait_until(lambda: searches_of(served).cores_busy == 0, timeout=30)


def _logged_workers(served: Served) -> list[int]:
    records = [orjson.loads(line) for line in served.log.getvalue().splitlines()]
    return [r["workers"] for r in records if r["method"] == "Analyze" and r["status"] == "OK"]


@needs_native
def test_an_idle_server_analyzes_with_every_core_and_one_with_search_threads_1(
    auto_served: Served, served: Served
) -> None:
    _idle(auto_served)
    reply = auto_served.stub.Analyze(_analyze(pb.SearchSettings(iterations=400)), timeout=60)
    assert reply.final and reply.stats.settings.workers == 2
    assert _logged_workers(auto_served)[-1] == 2
    assert served.server.config.search_threads == 1 and served.server.config.workers == 2
    pinned = served.stub.Analyze(_analyze(pb.SearchSettings(iterations=400)), timeout=60)
    assert pinned.final and pinned.stats.settings.workers == 1
    assert _logged_workers(served)[-1] == 1


@needs_native
def test_explicit_workers_are_kept(auto_served: Served) -> None:
    _idle(auto_served)
    settings = pb.SearchSettings(iterations=400, workers=1)
    reply = auto_served.stub.Analyze(_analyze(settings), timeout=60)
    assert reply.stats.settings.workers == 1


@needs_native
def test_a_search_started_while_another_holds_every_core_gets_one_thread(
    auto_served: Served,
) -> None:
    _idle(auto_served)
    endless = pb.SearchSettings(iterations=1_000_000, time_ms=30_000)
    stream = auto_served.stub.AnalyzeStream(
        pb.AnalyzeStreamRequest(analysis=_analyze(endless), every_iterations=200), timeout=60
    )
    try:
        first = next(stream)  # a partial: the long search is running, on both cores
        assert not first.final and first.stats.settings.workers == 2
        assert searches_of(auto_served).cores_busy == 2
        reply = auto_served.stub.Analyze(_analyze(pb.SearchSettings(iterations=200)), timeout=60)
        assert reply.final and reply.stats.settings.workers == 1
    finally:
        stream.cancel()
    _idle(auto_served)
