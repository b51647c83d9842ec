"""One search request, runnable in any process: decode, check, search, summarise."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from boardbot.engine import Game, State
from boardbot.jobs import game_ops, tree_cache
from boardbot.jobs.failures import deadline_exceeded, from_search_error
from boardbot.jobs.strength import EloTarget, draws_random_move, resolve_target
from boardbot.jobs.threads import dispatched
from boardbot.search.api import (
    MoveStats,
    SearchConfig,
    SearchControls,
    SearchResult,
    StopReason,
)
from boardbot.search.checks import checked_config
from boardbot.search.engines import Engine
from boardbot.search.errors import SearchError
from boardbot.search.ismcts import search_view
from boardbot.search.reuse import search_reusing
from boardbot.search.strength.mapping import random_move


@dataclass(frozen=True)
class SearchJob:
    """Everything a worker needs to run one ChooseMove/Analyze search (picklable)."""

    game: str
    state_json: bytes
    seat: int
    config: SearchConfig
    seed: int
    top_k: int = 0
    """Moves to report, best first (0: all)."""
    progress_every_iterations: int = 0
    progress_every_ms: float = 0.0
    """Partial results at most this often (0 with 0 iterations: no partial results)."""
    ranked: bool = True
    """Report the ranked root moves (Analyze); False reports the chosen move, with `top_k`
    candidates beside it (ChooseMove)."""
    engine: Engine = Engine.AUTO
    """The native core or the Python search (the server's `--engine`)."""
    thread_cap: int = 0
    """Most threads the search may take from idle cores when it starts (0: `config.workers`)."""
    elo: EloTarget | None = None
    """A target Elo: the budget (and random-move share) are set from the state's player count."""
    session_key: str = ""
    """Opt-in tree reuse: the worker keeps the tree under (key, game, seat) and grows the next
    search with that key on it (`jobs/tree_cache.py`); empty: no reuse."""

    def affinity(self) -> str | None:
        """The key the pool routes by (the worker that keeps its tree), if any."""
        return self.session_key or None

    def shown(self) -> int | None:
        """How many top moves the answer shows (None: all); the chosen one is always shown.
        A ChooseMove (not `ranked`) shows its `top_k` candidates, none by default."""
        if not self.ranked:
            return self.top_k
        return self.top_k if self.top_k > 0 else None

    def on_dispatch(self, idle_cores: int) -> SearchJob:
        """This job as it runs when a worker picks it up with `idle_cores` cores idle."""
        return dispatched(self, idle_cores)

    def cores(self) -> int:
        """Cores the search keeps busy: its root-parallel trees (threads or processes)."""
        return self.config.workers

    def time_limit(self) -> tuple[float | None, float | None]:
        """(deadline, seconds the search may run), for the pool's watchdog."""
        budget = None if self.config.time_ms is None else self.config.time_ms / 1000.0
        return self.config.deadline, budget


@dataclass(frozen=True)
class RankedMove:
    """One root move with its statistics, ready for the wire."""

    notation: str
    move_json: bytes
    visits: int
    value: float
    lower_bound: float
    principal_variation: tuple[str, ...]
    prior: float | None = None
    """With a model: the network's prior of the move at the root."""
    net_value: float | None = None
    """With a model: the network's value of the position after the move for the seat."""
    seat_values: tuple[float, ...] = ()
    """Every seat's mean outcome after the move, by seat (empty when it was not searched)."""
    principal_variation_seats: tuple[int, ...] = ()
    """The seat that plays each move of `principal_variation`."""


@dataclass(frozen=True)
class SearchOutcome:
    """A search's result in plain values: chosen move, ranked moves, statistics."""

    chosen: RankedMove
    chosen_rank: int
    moves: tuple[RankedMove, ...]
    iterations: int
    elapsed_ms: float
    stopped_by: StopReason | str
    """Why the search ended, or `random_move` (RANDOM_MOVE) when none ran."""
    nodes: int
    seat: int
    config: SearchConfig
    final: bool = True
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds spent per phase in the worker (decode, search), for the overhead figure."""
    random_move_share: float = 0.0
    """The target Elo's share of uniformly random moves, when it applied."""
    random_move: bool = False
    """True when the move was that random draw (no search ran)."""
    tree_reused: bool = False
    """True when the search grew on the tree of an earlier request with the same session key."""
    reused_visits: int = 0
    """The root visits that tree brought."""
    seat_values: tuple[float, ...] = ()
    """Every seat's value at the position from this one search, by seat: the best (most
    visited) move's `seat_values`; empty when nothing was searched."""


RANDOM_MOVE = "random_move"
"""`stopped_by` of a move drawn at random for a target Elo, instead of searched."""


ProgressSink = Callable[[SearchOutcome], None]
StopCheck = Callable[[], bool]

PROGRESS_POLL_ITERATIONS = 16
"""With only a time-based progress period, how often (iterations) the clock is read."""


def run_search_job(
    job: SearchJob, should_stop: StopCheck | None = None, on_progress: ProgressSink | None = None
) -> SearchOutcome:
    """Run `job` and return its outcome; raises RequestError for a bad request.

    The state is parsed and decoded once, by the engine that serves the game (natively into a
    native state handle, with no JSON between Python and the native core); the seat's view is
    observed once; the answer reuses the search's notation of the moves shown, adding only
    their JSON."""
    started = time.perf_counter()
    game = game_ops.served_game(job.game, job.engine)
    state = game_ops.decode_state(game, job.state_json)
    strength = None
    if job.elo is not None:
        config, strength = resolve_target(job.elo, job.game, game.num_players(state), job.config)
        job = replace(job, config=config)
    try:
        job = replace(job, config=checked_config(game, state, job.seat, job.config))
    except SearchError as error:
        raise from_search_error(error) from None
    if job.config.deadline is not None and time.time() >= job.config.deadline:
        raise deadline_exceeded("the deadline passed before the search began")
    decoded = time.perf_counter()
    share = 0.0
    if strength is not None and job.elo is not None and job.elo.random_moves:
        share = strength.random_share
    if strength is not None and share > 0.0:
        draw, rng = draws_random_move(strength, job.seed)
        if draw:
            return _random_outcome(game, state, job, rng, share, started)

    progress_cb, every = _progress_adapter(game, state, job, on_progress)
    # The native search also gets the period: its threads build a partial result only when one
    # is due (coalesced, never queued), so partials cannot outlast the search.
    period_ms = job.progress_every_ms if progress_cb is not None else 0.0
    # An analysis (ranked) searches a forced move too, for the position's value; a ChooseMove
    # answers it at once.
    controls = SearchControls(
        should_stop, progress_cb, every, job.shown(), period_ms, search_forced=job.ranked
    )
    trees = tree_cache.cache()
    if job.session_key and trees.enabled:
        key = (job.session_key, job.game, job.seat)
        result, kept = search_reusing(
            game, state, job.seat, job.config, job.seed, trees.take(key), controls, job.engine
        )
        if kept is not None:
            trees.put(key, kept)
    else:
        view = game.observe(state, job.seat)
        result = search_view(game, view, job.config, job.seed, controls, job.engine)
    searched = time.perf_counter()
    outcome = outcome_from_result(game, state, job, result, final=True)
    timings = {
        "decode_ms": (decoded - started) * 1000.0,
        "search_ms": (searched - decoded) * 1000.0,
    }
    return replace(outcome, timings=timings, random_move_share=share)


def _random_outcome(
    game: Game, state: State, job: SearchJob, rng: random.Random, share: float, started: float
) -> SearchOutcome:
    """The outcome of a uniformly random move drawn for a target Elo: no search ran."""
    forms = game_ops.move_forms(game, state, random_move(game, state, job.seat, rng))
    chosen = RankedMove(forms.notation, forms.json, 0, 0.0, 0.0, ())
    elapsed = (time.perf_counter() - started) * 1000.0
    return SearchOutcome(
        chosen=chosen,
        chosen_rank=0,
        moves=(chosen,) if job.shown() != 0 else (),
        iterations=0,
        elapsed_ms=elapsed,
        stopped_by=RANDOM_MOVE,
        nodes=0,
        seat=job.seat,
        config=job.config,
        timings={"decode_ms": elapsed, "search_ms": 0.0},
        random_move_share=share,
        random_move=True,
    )


def _progress_adapter(
    game: Game, state: State, job: SearchJob, sink: ProgressSink | None
) -> tuple[Callable[[SearchResult], None] | None, int]:
    if sink is None or (job.progress_every_iterations <= 0 and job.progress_every_ms <= 0):
        return None, 0
    every = job.progress_every_iterations or PROGRESS_POLL_ITERATIONS
    period = job.progress_every_ms / 1000.0
    last = [time.perf_counter()]

    def on_progress(partial: SearchResult) -> None:
        now = time.perf_counter()
        if period > 0 and now - last[0] < period:
            return
        last[0] = now
        sink(outcome_from_result(game, state, job, partial, final=False))

    return on_progress, every


def outcome_from_result(
    game: Game, state: State, job: SearchJob, result: SearchResult, *, final: bool
) -> SearchOutcome:
    """Convert the search's result into wire-ready values: the search's notation and line of
    each move shown (the chosen one, and the top `shown()`), plus its JSON."""
    count = job.shown()
    listed = list(result.moves if count is None else result.moves[:count])
    shown = [_ranked_move(game, state, stats) for stats in listed]
    chosen_rank = next(
        (i for i, stats in enumerate(result.moves) if stats.action == result.action), -1
    )
    if 0 <= chosen_rank < len(shown):
        chosen = shown[chosen_rank]
    elif chosen_rank >= 0:
        chosen = _ranked_move(game, state, result.moves[chosen_rank])
    else:
        forms = game_ops.move_forms(game, state, result.action)
        chosen = RankedMove(forms.notation, forms.json, 0, 0.0, 0.0, ())
    return SearchOutcome(
        chosen=chosen,
        chosen_rank=chosen_rank + 1,
        moves=tuple(shown),
        iterations=result.iterations,
        elapsed_ms=result.elapsed_ms,
        stopped_by=result.stopped_by,
        nodes=result.nodes,
        seat=result.seat,
        config=job.config,
        final=final,
        tree_reused=result.reused,
        reused_visits=result.reused_visits,
        seat_values=result.seat_values,
    )


def _ranked_move(game: Game, state: State, stats: MoveStats) -> RankedMove:
    assert stats.notation is not None, "the search describes every move shown"
    return RankedMove(
        notation=stats.notation,
        move_json=game_ops.move_json(game, state, stats.action),
        visits=stats.visits,
        value=stats.mean_value,
        lower_bound=stats.lower_bound,
        principal_variation=tuple(stats.principal_variation),
        prior=stats.prior,
        net_value=stats.net_value,
        seat_values=stats.seat_values,
        principal_variation_seats=tuple(stats.principal_variation_seats),
    )
