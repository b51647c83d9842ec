"""One position of a game review, runnable in any process: search it from the mover's view,
and measure the move played (docs/review.md, "Values").

The position is searched as an analysis searches it (the seat to move's view only). The best
move is the most visited; its mean is `best_value`. The move played is measured so that its
value rests on enough visits and never counts the chance that follows it:

1. the played move is the best one: its value is `best_value`;
2. the first search visited it at least MIN_PLAYED_VISITS times: its mean there;
3. else, when the mover is to move again right after it, with a choice (a turn of several
   decisions, no chance step between): a second search, of that position from the mover's
   view, whose best move's value is the played move's value (the mover's best continuation);
4. else: a second search of the same position (another seed), the played move's visits and
   rewards pooled over both; a move neither search tried is valued at the lowest mean of the
   moves they tried (it was never worth a visit).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from boardbot.engine import Game, State
from boardbot.jobs import game_ops
from boardbot.jobs.failures import deadline_exceeded, from_search_error
from boardbot.jobs.search_job import RankedMove, SearchJob, StopCheck, outcome_from_result
from boardbot.jobs.threads import dispatched
from boardbot.search.api import MoveStats, SearchConfig, SearchControls, SearchResult, StopReason
from boardbot.search.checks import check_request
from boardbot.search.engines import Engine
from boardbot.search.errors import SearchError
from boardbot.search.ismcts import search_view
from boardbot.search.models import with_model_for
from boardbot.search.seeds import derive_seed

MIN_PLAYED_VISITS = 32
"""Visits of the played move in the first search below which its mean is not trusted alone
(a mean of [0, 1] rewards over 32 visits is within about ±0.09 at 95%)."""

PLAYED_BEST = "best"
PLAYED_VISITS = "visits"
PLAYED_NEXT_DECISION = "next_decision"
PLAYED_POOLED = "pooled"
PLAYED_FORCED = "forced"


@dataclass(frozen=True)
class PositionJob:
    """One decision of a record to review (picklable, run by a worker or natively)."""

    game: str
    state_json: bytes
    """The full state before the move (the search sees only `seat`'s view of it)."""
    seat: int
    played_json: bytes
    """The move played, as the record gives it (empty: the final position of an unfinished
    game, searched for its values only)."""
    config: SearchConfig
    seed: int
    top_k: int = 5
    """Candidates reported, best first."""
    engine: Engine = Engine.AUTO
    thread_cap: int = 0
    """Most threads the search may take from idle cores when it starts (0: as resolved)."""
    measure_played: bool = True
    """Measure the played move (a second search when needed); False for a seat not reviewed,
    whose position is searched once, for its values."""
    low_priority: bool = True
    """Reviews run behind interactive searches (jobs/worker_pool.py, jobs/native_searches.py)."""

    def on_dispatch(self, idle_cores: int) -> PositionJob:
        """This job as it runs when a worker picks it up with `idle_cores` cores idle."""
        return dispatched(self, idle_cores)

    def cores(self) -> int:
        """Cores the search keeps busy."""
        return self.config.workers

    def time_limit(self) -> tuple[float | None, float | None]:
        """(deadline, seconds the job may run): two searches at most."""
        budget = None if self.config.time_ms is None else 2 * self.config.time_ms / 1000.0
        return self.config.deadline, budget


@dataclass(frozen=True)
class PositionSearch:
    """What the review learns at one decision."""

    seat: int
    forced: bool
    """One legal move: nothing was searched."""
    played: RankedMove
    """The move played (its statistics in the first search, when it had any)."""
    best: RankedMove
    """The most visited move (the played one when forced)."""
    best_value: float
    played_value: float
    played_source: str
    """How `played_value` was measured (PLAYED_*, see the module's docstring)."""
    seat_values: tuple[float, ...]
    """Every seat's value at the position (the first search's; empty when forced)."""
    candidates: tuple[RankedMove, ...]
    iterations: int
    elapsed_ms: float
    nodes: int
    stopped_by: str
    config: SearchConfig


def run_position_job(job: PositionJob, should_stop: StopCheck | None = None) -> PositionSearch:
    """Search the position of `job` and measure its played move; RequestError for a bad job."""
    game = game_ops.served_game(job.game, job.engine)
    state = game_ops.decode_state(game, job.state_json)
    job = replace(job, config=with_model_for(job.config, game.name, game.num_players(state)))
    played = None
    if job.played_json:
        played = game.action_from_json(state, game_ops.parse_json(job.played_json, "move_json"))
    if played is not None and len(game.legal_actions(state)) == 1:
        forms = game_ops.move_forms(game, state, played)
        move = RankedMove(forms.notation, forms.json, 0, 0.0, 0.0, (forms.notation,))
        return PositionSearch(
            job.seat, True, move, move, 0.0, 0.0, PLAYED_FORCED, (), (move,), 0, 0.0, 0,
            str(StopReason.SINGLE_MOVE), job.config,
        )
    first = _search(game, state, job, job.seed, should_stop)
    best = first.moves[0]
    best_value = best.mean_value
    played = best.action if played is None else played
    stats = _stats_of(first, played)
    second: SearchResult | None = None
    if best.action == played:
        played_value, source = best_value, PLAYED_BEST
    elif stats is not None and (stats.visits >= MIN_PLAYED_VISITS or not job.measure_played):
        played_value, source = stats.mean_value, PLAYED_VISITS
    elif not job.measure_played:
        played_value, source = 0.0, PLAYED_VISITS
    else:
        after = game.apply(state, played)
        if game.current_player(after) == job.seat and len(game.legal_actions(after)) > 1:
            second = _search(game, after, job, derive_seed(job.seed, "after"), should_stop)
            played_value, source = second.moves[0].mean_value, PLAYED_NEXT_DECISION
        else:
            second = _search(game, state, job, derive_seed(job.seed, "again"), should_stop)
            played_value, source = _pooled_value(first, second, played), PLAYED_POOLED
    described = outcome_from_result(game, state, _search_job(job), first, final=True)
    played_move = _played_move(game, state, played, stats, described.moves)
    searches = [first] if second is None else [first, second]
    return PositionSearch(
        seat=job.seat,
        forced=False,
        played=played_move,
        best=described.moves[0],
        best_value=best_value,
        played_value=played_value,
        played_source=source,
        seat_values=tuple(first.seat_values),
        candidates=described.moves[: max(job.top_k, 1)],
        iterations=sum(s.iterations for s in searches),
        elapsed_ms=sum(s.elapsed_ms for s in searches),
        nodes=sum(s.nodes for s in searches),
        stopped_by=str(first.stopped_by),
        config=job.config,
    )


def _search_job(job: PositionJob) -> SearchJob:
    """The analysis job the first search stands for (what describes its moves)."""
    shown = max(job.top_k, 1)
    return SearchJob(job.game, job.state_json, job.seat, job.config, job.seed, top_k=shown)


def _search(
    game: Game, state: State, job: PositionJob, seed: int, should_stop: StopCheck | None
) -> SearchResult:
    """The analysis search of `state` from the view of `job.seat` (its top moves described)."""
    try:
        check_request(game, state, job.seat, job.config)
    except SearchError as error:
        raise from_search_error(error) from None
    if job.config.deadline is not None and time.time() >= job.config.deadline:
        raise deadline_exceeded("the deadline passed before the position was searched")
    # The last position of an unfinished game is searched for its values even when forced.
    controls = SearchControls(
        should_stop=should_stop, shown=max(job.top_k, 1), search_forced=not job.played_json
    )
    return search_view(game, game.observe(state, job.seat), job.config, seed, controls, job.engine)


def _stats_of(result: SearchResult, action: Any) -> MoveStats | None:
    """The root statistics of `action` in a search, if it has any."""
    return next((m for m in result.moves if m.action == action), None)


def _pooled_value(first: SearchResult, second: SearchResult, action: Any) -> float:
    """The played move's mean over both searches' visits; untried in both: the lowest mean of
    the moves they tried."""
    visits = total = 0.0
    for result in (first, second):
        stats = _stats_of(result, action)
        if stats is not None:
            visits += stats.visits
            total += stats.visits * stats.mean_value
    if visits > 0:
        return total / visits
    tried = [m.mean_value for r in (first, second) for m in r.moves if m.visits > 0]
    return min(tried) if tried else 0.0


def _played_move(
    game: Game,
    state: State,
    action: Any,
    stats: MoveStats | None,
    described: tuple[RankedMove, ...],
) -> RankedMove:
    """The played move with its first-search statistics (as described when it is shown)."""
    forms = game_ops.move_forms(game, state, action)
    for move in described:
        if move.move_json == forms.json:
            return move
    if stats is None:
        return RankedMove(forms.notation, forms.json, 0, 0.0, 0.0, ())
    return RankedMove(
        forms.notation, forms.json, stats.visits, stats.mean_value, stats.lower_bound, ()
    )
