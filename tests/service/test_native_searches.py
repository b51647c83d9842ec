"""The native searches run in the server process: admission, waiting, cancellation, shutdown."""

from __future__ import annotations

import threading
import time

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.jobs.native_searches import NativeSearch, NativeSearches
from boardbot.jobs.search_job import SearchJob
from boardbot.jobs.worker_pool import PoolBusy, PoolClosed
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.service.positions import decision_state
from tests.service.servers import wait_until

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)


def _job(iterations: int, time_ms: float | None = None, deadline: float | None = None) -> SearchJob:
    game = get_game("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=5)
    config = SearchConfig(iterations=iterations, time_ms=time_ms, deadline=deadline)
    return SearchJob(
        "legend_raiders",
        orjson.dumps(game.state_to_json(state)),
        game.current_player(state),
        config,
        seed=1,
        engine=Engine.AUTO,
    )


def _hold_the_slot(searches: NativeSearches) -> tuple[NativeSearch, threading.Thread]:
    """A search of 30 s running in a thread of its own, once it holds the one slot."""
    long = searches.submit(_job(1_000_000, time_ms=30_000))
    holder = threading.Thread(target=long.result, daemon=True)
    holder.start()
    assert wait_until(lambda: searches.busy == 1, timeout=30)
    return long, holder


def test_a_search_waits_for_the_slot_even_with_a_far_deadline() -> None:
    searches = NativeSearches(size=1, queue_limit=1)
    long, holder = _hold_the_slot(searches)
    waiting = searches.submit(_job(20, deadline=time.time() + 1e12))
    answer: list[object] = []
    waiter = threading.Thread(target=lambda: answer.append(waiting.result()), daemon=True)
    waiter.start()
    time.sleep(0.2)
    assert searches.queue_depth == 1 and not answer
    long.cancel()
    waiter.join(30)
    holder.join(30)
    assert answer and searches.busy == 0 and searches.queue_depth == 0


def test_admission_is_bounded_and_a_past_deadline_is_refused() -> None:
    searches = NativeSearches(size=1, queue_limit=1)
    running, holder = _hold_the_slot(searches)
    late = searches.submit(_job(20, deadline=time.time() + 0.05))
    with pytest.raises(PoolBusy):
        searches.submit(_job(20))
    with pytest.raises(RequestError) as refused:
        late.result()
    assert refused.value.kind is FailureKind.DEADLINE_EXCEEDED
    running.cancel()
    holder.join(30)


def test_closing_stops_what_still_runs_after_the_grace() -> None:
    searches = NativeSearches(size=1, queue_limit=0)
    running = searches.submit(_job(1_000_000, time_ms=30_000))
    failure: list[RequestError] = []

    def ask() -> None:
        try:
            running.result()
        except RequestError as error:
            failure.append(error)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    assert wait_until(lambda: searches.busy == 1, timeout=30)
    started = time.monotonic()
    searches.close(timeout=0.3)
    thread.join(30)
    assert time.monotonic() - started < 10
    assert failure and failure[0].reason == Reason.SHUTTING_DOWN
    with pytest.raises(PoolClosed):
        searches.submit(_job(20))
