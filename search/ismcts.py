"""The search entry point: single-observer ISMCTS over any Game, one tree or root-parallel."""

from __future__ import annotations

import time
from collections.abc import Callable

from boardbot.engine.api import Game, State, View
from boardbot.search.api import (
    MoveStats,
    SearchConfig,
    SearchControls,
    SearchResult,
    StopReason,
)
from boardbot.search.checks import check_request, checked_config
from boardbot.search.engines import Engine, native_twin, uses_native
from boardbot.search.errors import SearchError
from boardbot.search.guided import RootFigures
from boardbot.search.models import load_network
from boardbot.search.native import search_native
from boardbot.search.parallel import all_tallies, merged_stop_reason, run_root_parallel
from boardbot.search.results import LineSource, build_result, merge_tallies, with_figures
from boardbot.search.seeds import derive_seed
from boardbot.search.tree import Node, SeatSums
from boardbot.search.tree_search import TreeReport, TreeSearch

__all__ = ["SearchError", "check_request", "search", "search_view"]

NO_CONTROLS = SearchControls()
"""A search nobody steers: no cancellation, no progress, every move described."""


def _stop_instants(config: SearchConfig, start_wall: float) -> tuple[float | None, StopReason]:
    """The absolute wall-clock stop instant and the reason it stands for."""
    candidates: list[tuple[float, StopReason]] = []
    if config.time_ms is not None:
        candidates.append((start_wall + config.time_ms / 1000.0, StopReason.TIME))
    if config.deadline is not None:
        candidates.append((config.deadline, StopReason.DEADLINE))
    if not candidates:
        return None, StopReason.TIME
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
    shown: int | None = None,
    engine: Engine | str = Engine.AUTO,
) -> SearchResult:
    """Search for `seat`'s move in `state`, using only what `seat` knows.

    Raises a SearchError (see `boardbot.search.checks.check_request`) for a request that cannot
    be searched. Only the `shown` most visited moves (None: all) and the chosen one are
    described with notation and a principal variation; the others carry statistics only.
    `engine` picks the native core or the Python search (`boardbot.search.engines`).
    """
    config = checked_config(game, state, seat, config)
    controls = SearchControls(should_stop, on_progress, progress_every, shown)
    return search_view(game, game.observe(state, seat), config, seed, controls, engine)


def search_view(
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    controls: SearchControls = NO_CONTROLS,
    engine: Engine | str = Engine.AUTO,
) -> SearchResult:
    """The search of a request already checked (`check_request`), from the seat's view.

    The search sees `view` alone (`game.observe(state, seat)`): every world it samples comes
    from it, so it cannot peek at what the seat does not know.
    """
    if uses_native(engine, game.name):
        return search_native(native_twin(game.name), game, view, config, seed, controls)
    return _python_search(game, view, config, seed, controls)


def _python_search(
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    controls: SearchControls,
    root: Node | None = None,
    on_tree: Callable[[TreeSearch], None] | None = None,
    root_sums: dict[Node, SeatSums] | None = None,
) -> SearchResult:
    """The Python ISMCTS (the reference): one tree, or root-parallel worker processes.

    A one-tree search grows on `root` when given (tree reuse, with its edges' `root_sums`
    when it was the earlier tree's root) and hands its tree to `on_tree` once it has run."""
    should_stop, on_progress = controls.should_stop, controls.on_progress
    progress_every, shown = controls.progress_every, controls.shown
    start = time.perf_counter()
    state, seat = view.state, view.seat
    start_wall = time.time()
    stop_wall, time_reason = _stop_instants(config, start_wall)
    choice_seed = derive_seed(seed, "choice")
    # With a model, the network's figures of the described root moves (computed once each).
    figures = (
        None
        if config.model is None
        else RootFigures(game, view, load_network(config.model), config.margin_weight, seed)
    )

    def finish(
        reports: list[TreeReport], stopped_by: StopReason, lines: LineSource | None = None
    ) -> SearchResult:
        reason = time_reason if stopped_by == StopReason.TIME else stopped_by
        return build_result(
            game,
            state,
            seat,
            merge_tallies(all_tallies(reports)),
            config.temperature,
            choice_seed,
            iterations=sum(r.iterations for r in reports),
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            stopped_by=reason,
            nodes=sum(r.nodes for r in reports),
            shown=shown,
            lines=lines,
            figures=figures,
        )

    actions = game.legal_actions(state)
    if len(actions) == 1 and not controls.search_forced:
        only = actions[0]
        notation = game.action_to_str(state, only)
        stats = MoveStats(
            only, notation, 0, 0.0, 0.0, (notation,), principal_variation_seats=(seat,)
        )
        return SearchResult(
            action=only,
            notation=notation,
            seat=seat,
            iterations=0,
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            moves=(stats if figures is None else with_figures(stats, figures),),
            stopped_by=StopReason.SINGLE_MOVE,
        )
    if config.workers > 1:

        def forward(reports: list[TreeReport]) -> None:
            if on_progress is not None:
                on_progress(finish(reports, StopReason.RUNNING))

        # Each worker lines its own top moves (at least the one it would choose); the merge
        # keeps, per move, the line of the busiest tree that reported one (docs/search.md).
        reports = run_root_parallel(
            game,
            view,
            config,
            seed,
            stop_wall,
            should_stop,
            forward if on_progress else None,
            progress_every,
            lines=None if shown is None else max(shown, 1),
        )
        return finish(reports, merged_stop_reason(reports))
    tree = TreeSearch(game, view, config, seed, root, root_sums)
    stop_at = None if stop_wall is None else start + (stop_wall - start_wall)

    def progress(t: TreeSearch) -> None:
        if on_progress is not None:
            on_progress(finish([t.report(StopReason.RUNNING)], StopReason.RUNNING, t.line))

    stopped_by = tree.run(
        config.iterations, stop_at, should_stop, progress if on_progress else None, progress_every
    )
    result = finish([tree.report(stopped_by)], stopped_by, tree.line)
    if on_tree is not None:
        on_tree(tree)
    return result
