"""A review's positions run behind interactive searches, in the native searches and in the
worker pool: an interactive search waits for a position already running, never for one
waiting, and waiting positions do not count against its admission."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.jobs.failures import RequestError
from boardbot.jobs.native_searches import NativeSearches
from boardbot.jobs.review_job import PositionJob, PositionSearch
from boardbot.jobs.search_job import SearchJob, SearchOutcome
from boardbot.jobs.worker_pool import PoolBusy, WorkerPool
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.service.positions import decision_state
from tests.service.servers import wait_until

LONG = SearchConfig(iterations=10_000_000, time_ms=30_000)


def _position(engine: Engine, seed: int) -> tuple[bytes, int, bytes]:
    game = get_game("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=seed)
    played = game.action_to_json(state, game.legal_actions(state)[0])
    return orjson.dumps(game.state_to_json(state)), game.current_player(state), orjson.dumps(played)


def _review_job(engine: Engine, seed: int) -> PositionJob:
    """A review's position that searches for 30 s unless cancelled."""
    state, seat, played = _position(engine, seed)
    return PositionJob("legend_raiders", state, seat, played, LONG, seed, engine=engine)


def _interactive(engine: Engine) -> SearchJob:
    state, seat, _ = _position(engine, 5)
    return SearchJob("legend_raiders", state, seat, SearchConfig(iterations=50), 1, engine=engine)


class Running:
    """A submitted job's result (or its failure), collected in a thread of its own."""

    def __init__(self, result: Callable[[], Any]) -> None:
        self.answer: list[Any] = []

        def collect() -> None:
            try:
                self.answer.append(result())
            except RequestError as error:  # cancelled before it ran
                self.answer.append(error)

        self.thread = threading.Thread(target=collect, daemon=True)
        self.thread.start()

    @property
    def done(self) -> bool:
        return bool(self.answer)


def _interactive_goes_first(
    submit: Callable[[Any], Any], busy: Callable[[], int], queued: Callable[[], int],
    engine: Engine,
) -> None:
    first = submit(_review_job(engine, 11))
    running = Running(first.result)
    assert wait_until(lambda: busy() == 1, timeout=60)
    second = submit(_review_job(engine, 12))
    behind = Running(second.result)
    assert wait_until(lambda: queued() == 1, timeout=30)
    interactive = submit(_interactive(engine))
    answered = Running(interactive.result)
    assert wait_until(lambda: queued() == 2, timeout=30)
    first.cancel()  # the slot frees: the interactive search takes it, not the waiting position
    assert wait_until(lambda: answered.done, timeout=60), "the interactive search waited"
    assert isinstance(answered.answer[0], SearchOutcome)
    assert not behind.done  # the second position started only after it, and runs 30 s
    second.cancel()
    assert wait_until(lambda: behind.done and running.done, timeout=60)
    assert isinstance(running.answer[0], PositionSearch)


@pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
def test_native_searches_run_an_interactive_search_before_a_waiting_review_position() -> None:
    searches = NativeSearches(size=1, queue_limit=2)
    _interactive_goes_first(
        searches.submit, lambda: searches.busy, lambda: searches.queue_depth, Engine.AUTO
    )


@pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
def test_waiting_review_positions_do_not_fill_the_native_queue_for_interactive_searches() -> None:
    searches = NativeSearches(size=1, queue_limit=1)
    first = searches.submit(_review_job(Engine.AUTO, 11))
    running = Running(first.result)
    assert wait_until(lambda: searches.busy == 1, timeout=60)
    second = searches.submit(_review_job(Engine.AUTO, 12))
    with pytest.raises(PoolBusy):
        searches.submit(_review_job(Engine.AUTO, 13))  # reviews do wait within the bound
    interactive = searches.submit(_interactive(Engine.AUTO))  # not refused: positions yield
    behind = Running(second.result)
    first.cancel()
    assert isinstance(interactive.result(), SearchOutcome)
    second.cancel()
    assert wait_until(lambda: behind.done and running.done, timeout=60)


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """One Python worker, two waiting places."""
    p = WorkerPool(workers=1, queue_limit=2)
    p.start()
    yield p
    p.close()


def test_the_worker_pool_runs_an_interactive_search_before_a_waiting_review_position(
    pool: WorkerPool,
) -> None:
    _interactive_goes_first(
        pool.submit, lambda: pool.busy, lambda: pool.queue_depth, Engine.PYTHON
    )
    assert wait_until(lambda: pool.busy == 0 and pool.queue_depth == 0, timeout=30)
