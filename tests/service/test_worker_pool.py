"""The worker pool on its own: admission limit, cancelling queued and running jobs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardbot.jobs import game_ops
from boardbot.jobs.failures import FailureKind, RequestError
from boardbot.jobs.search_job import SearchJob
from boardbot.jobs.settings import Limits, resolve
from boardbot.jobs.worker_pool import PoolBusy, WorkerPool
from tests.service.positions import decision_state, load


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """One worker, one waiting place."""
    p = WorkerPool(workers=1, queue_limit=1)
    p.start()
    yield p
    p.close()


def _job(iterations: int, time_ms: float | None = None, seed: int = 0) -> SearchJob:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=61 + seed)
    overrides: dict[str, float] = {"iterations": iterations}
    if time_ms is not None:
        overrides["time_ms"] = time_ms
    return SearchJob(
        "legend_raiders",
        game_ops.encode_state(game, state),
        game.current_player(state),
        resolve("easy", overrides, Limits()),
        seed,
        progress_every_iterations=20,
    )


def test_queue_limit_and_cancellation(pool: WorkerPool) -> None:
    running = pool.submit(_job(1_000_000, time_ms=30_000))
    first = next(running.stream())  # a partial result: it is running
    assert not first.final
    waiting = pool.submit(_job(10, seed=1))
    assert pool.queue_depth == 1
    with pytest.raises(PoolBusy):
        pool.submit(_job(10, seed=2))
    waiting.cancel()  # dropped from the queue at once, freeing its place
    with pytest.raises(RequestError) as info:
        waiting.result()
    assert info.value.kind is FailureKind.CANCELLED
    assert pool.queue_depth == 0
    third = pool.submit(_job(10, seed=3))
    running.cancel()  # the running search stops early and still returns what it found
    outcome = running.result()
    assert outcome.stopped_by == "cancelled"
    assert third.result().final
    assert pool.busy == 0 and pool.queue_depth == 0


def test_bad_job_fails_cleanly(pool: WorkerPool) -> None:
    job = _job(10)
    bad = SearchJob(job.game, b"{", job.seat, job.config, job.seed)
    pids = pool.worker_pids()
    with pytest.raises(RequestError) as info:
        pool.submit(bad).result()
    assert info.value.kind is FailureKind.INVALID_ARGUMENT
    assert pool.worker_pids() == pids
    assert pool.submit(job).result().chosen.notation
