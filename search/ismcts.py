"""The search entry point: single-observer ISMCTS over any Game, one tree or root-parallel."""

from __future__ import annotations

import time
from collections.abc import Callable

from boardbot.engine.api import Game, State
from boardbot.search.api import MoveStats, SearchConfig, SearchResult
from boardbot.search.parallel import all_tallies, merged_stop_reason, run_root_parallel
from boardbot.search.results import build_result, merge_tallies
from boardbot.search.rollout import get_policy
from boardbot.search.seeds import derive_seed
from boardbot.search.tree_search import TreeReport, TreeSearch


class SearchError(ValueError):
    """The search cannot run: bad configuration, or the seat is not the one to move."""


def check_request(game: Game, state: State, seat: int, config: SearchConfig) -> None:
    """Raise SearchError unless `config` is usable and `seat` is to move in `state`."""
    if config.iterations is None and config.time_ms is None and config.deadline is None:
        raise SearchError("the search needs a budget: iterations, time_ms or deadline")
    if config.iterations is not None and config.iterations < 1:
        raise SearchError(f"iterations must be at least 1, got {config.iterations}")
    if config.workers < 1:
        raise SearchError(f"workers must be at least 1, got {config.workers}")
    if config.node_cap < 1:
        raise SearchError(f"node_cap must be at least 1, got {config.node_cap}")
    if not 0.0 <= config.margin_weight <= 1.0:
        raise SearchError(f"margin_weight must lie in [0, 1], got {config.margin_weight}")
    get_policy(config.rollout)
    if game.is_terminal(state):
        raise SearchError("the game is over: there is no move to search")
    mover = game.current_player(state)
    if mover != seat:
        raise SearchError(f"seat {seat} is not to move (current player: {mover})")


def seat_view_state(game: Game, state: State, seat: int) -> State:
    """The state rebuilt from `seat`'s JSON view: hidden parts dropped, so never peeked at.

    Every world the search samples comes from this state, so the search depends on what
    `seat` knows alone, even if the game's `determinize` were sensitive to hidden orders.
    """
    return game.state_from_json(game.state_to_json(state, seat))


def _stop_instants(config: SearchConfig, start_wall: float) -> tuple[float | None, str]:
    """The absolute wall-clock stop instant and the reason it stands for."""
    candidates: list[tuple[float, str]] = []
    if config.time_ms is not None:
        candidates.append((start_wall + config.time_ms / 1000.0, "time"))
    if config.deadline is not None:
        candidates.append((config.deadline, "deadline"))
    if not candidates:
        return None, "time"
    return min(candidates)


def search(
    game: Game,
    state: State,
    seat: int,
    config: SearchConfig,
    seed: int,
    *,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[SearchResult], None] | None = None,
    progress_every: int = 0,
) -> SearchResult:
    """Search for `seat`'s move in `state`, using only what `seat` knows."""
    check_request(game, state, seat, config)
    start = time.perf_counter()
    state = seat_view_state(game, state, seat)
    start_wall = time.time()
    stop_wall, time_reason = _stop_instants(config, start_wall)
    choice_seed = derive_seed(seed, "choice")

    def finish(reports: list[TreeReport], stopped_by: str) -> SearchResult:
        reason = time_reason if stopped_by == "time" else stopped_by
        return build_result(
            game, state, seat, merge_tallies(all_tallies(reports)), config.temperature,
            choice_seed,
            iterations=sum(r.iterations for r in reports),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            stopped_by=reason,
            nodes=sum(r.nodes for r in reports),
        )

    actions = game.legal_actions(state)
    if len(actions) == 1:
        only = actions[0]
        notation = game.action_to_str(state, only)
        return SearchResult(
            action=only, notation=notation, seat=seat, iterations=0,
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            moves=(MoveStats(only, notation, 0, 0.0, 0.0, (notation,)),),
            stopped_by="single_move",
        )
    if config.workers > 1:
        def forward(reports: list[TreeReport]) -> None:
            if on_progress is not None:
                on_progress(finish(reports, "running"))

        reports = run_root_parallel(
            game, state, seat, config, seed, stop_wall, should_stop,
            forward if on_progress else None, progress_every,
        )
        return finish(reports, merged_stop_reason(reports))
    tree = TreeSearch(game, state, seat, config, seed)
    stop_at = None if stop_wall is None else start + (stop_wall - start_wall)

    def progress(t: TreeSearch) -> None:
        if on_progress is not None:
            on_progress(finish([t.report("running")], "running"))

    stopped_by = tree.run(
        config.iterations, stop_at, should_stop, progress if on_progress else None, progress_every
    )
    return finish([tree.report(stopped_by)], stopped_by)
