"""The loop of one worker process: receive a job (a search, a review's position or a rules
call), run it, answer."""

from __future__ import annotations

import os
import signal
from multiprocessing.connection import Connection
from typing import Any

from boardbot.engine import list_games
from boardbot.jobs import tree_cache
from boardbot.jobs.extra_games import register_env_games
from boardbot.jobs.failures import RequestError, unexpected
from boardbot.jobs.review_job import PositionJob, run_position_job
from boardbot.jobs.rules_job import RulesJob, run_rules_job
from boardbot.jobs.search_job import SearchJob, SearchOutcome, run_search_job


def worker_main(
    conn: Connection,
    cancel_flag: Any,
    extra_games: str | None = None,
    tree_cache_bounds: tuple[int, int] | None = None,
) -> None:
    """Serve jobs from `conn` until it closes; `cancel_flag.value != 0` stops the running job.

    `extra_games` registers more games (see `register_env_games`; None reads the environment).
    `tree_cache_bounds` (entries, nodes) bounds the trees kept for requests with a session key
    (`jobs/tree_cache.py`; None: its defaults).
    """
    # The server handles SIGINT/SIGTERM and shuts workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    register_env_games(extra_games)
    if tree_cache_bounds is not None:
        tree_cache.configure(*tree_cache_bounds)
    _warm_up()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        conn.send(_run(conn, job, cancel_flag))


def _run(
    conn: Connection, job: SearchJob | PositionJob | RulesJob, cancel_flag: Any
) -> tuple[Any, ...]:
    def send_progress(outcome: SearchOutcome) -> None:
        conn.send(("progress", outcome))

    try:
        if isinstance(job, RulesJob):
            return ("done", run_rules_job(job))
        if isinstance(job, PositionJob):
            return ("done", run_position_job(job, lambda: cancel_flag.value != 0))
        return ("done", run_search_job(job, lambda: cancel_flag.value != 0, send_progress))
    except RequestError as error:
        return ("error", error.to_wire())
    except Exception as error:  # a bad request must never kill the worker
        what = "search" if isinstance(job, SearchJob | PositionJob) else job.method
        return ("error", unexpected(what, error).to_wire())


def _warm_up() -> None:
    """Load every game now, so the first request pays no import cost."""
    from boardbot.engine import get_game

    for name in list_games():
        try:
            get_game(name)
        except ImportError:
            continue
