//! The search entry point: single-observer ISMCTS over any [`Game`], one tree or root-parallel
//! (the twin of `search/ismcts.py`).

use std::cell::OnceCell;
use std::time::{Instant, SystemTime};

use boardbot_rules::{Featurize, View};

use crate::config::SearchConfig;
use crate::control::{CancelToken, SearchHooks, StopFlags, StopReason};
use crate::error::SearchError;
use crate::guided::{root_figures, NetFigures};
use crate::parallel::{merged_stop_reason, ParallelSearch, ProgressPace, ReportsCallback};
use crate::results::{
    build_result, merge_tallies, with_figures, MoveStats, SearchResult, SearchTotals, TreeReport,
};
use crate::reuse::{find_match, KeptTree, ReuseMatch};
use crate::seeds::choice_rng;
use crate::tree::Tree;
use crate::tree_search::{RunLimits, StopAt, TreeSearch};

/// An error unless `config` is usable and `seat` is to move in `state` (Python's order).
pub fn check_request<G: Featurize>(
    game: &G,
    state: &G::State,
    seat: usize,
    config: &SearchConfig,
) -> Result<(), SearchError> {
    config.validate()?;
    if let Some(model) = &config.model {
        model.check(game, game.num_players(state))?;
    }
    if game.is_terminal(state) {
        return Err(SearchError::TerminalState);
    }
    let mover = game.current_player(state);
    if usize::try_from(mover).ok() != Some(seat) {
        return Err(SearchError::SeatNotToMove {
            seat,
            current_player: mover,
        });
    }
    Ok(())
}

/// The earlier of the time budget (from `start`) and the deadline, with the reason it stands
/// for; the deadline on a tie. A stop too far away to represent is no stop.
pub fn stop_instant(
    config: &SearchConfig,
    start: Instant,
    now: Instant,
    now_wall: SystemTime,
) -> Option<StopAt> {
    let deadline = config.deadline.and_then(|deadline| {
        let instant = match deadline.duration_since(now_wall) {
            Ok(left) => now.checked_add(left),
            Err(_) => Some(now),
        };
        instant.map(|instant| StopAt {
            instant,
            reason: StopReason::Deadline,
        })
    });
    let time = config.time_budget.and_then(|budget| {
        start.checked_add(budget).map(|instant| StopAt {
            instant,
            reason: StopReason::Time,
        })
    });
    [deadline, time]
        .into_iter()
        .flatten()
        .min_by_key(|stop| stop.instant)
}

/// Search for `seat`'s move in `state`, using only what `seat` knows.
pub fn search<G: Featurize>(
    game: &G,
    state: &G::State,
    seat: usize,
    config: &SearchConfig,
    seed: u64,
) -> Result<SearchResult<G::Action>, SearchError> {
    search_with(game, state, seat, config, seed, SearchHooks::default())
}

/// [`search`] with a cancellation token and a progress callback.
///
/// The search sees `seat`'s view alone ([`Game::observe`]): every world it samples is a
/// determinization of that view, so two states that differ only in what `seat` cannot see give
/// the same result. The same state, seed, configuration and iteration budget give the same
/// result (the same move and statistics) in any process and any number of runs; `workers > 1`
/// runs that many trees on threads (deterministic for a given seed and worker count).
pub fn search_with<G: Featurize>(
    game: &G,
    state: &G::State,
    seat: usize,
    config: &SearchConfig,
    seed: u64,
    hooks: SearchHooks<'_, G::Action>,
) -> Result<SearchResult<G::Action>, SearchError> {
    let start = Instant::now();
    check_request(game, state, seat, config)?;
    let view = game.observe(state, seat);
    run_view(game, &view, config, seed, hooks, start)
}

/// Search for the move of the view's seat from its view (`game.observe(state, seat)`).
pub fn search_view<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    config: &SearchConfig,
    seed: u64,
) -> Result<SearchResult<G::Action>, SearchError> {
    search_view_with(game, view, config, seed, SearchHooks::default())
}

/// [`search_view`] with a cancellation token and a progress callback; the same result as
/// [`search_with`] on any state the view was observed from.
pub fn search_view_with<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    config: &SearchConfig,
    seed: u64,
    hooks: SearchHooks<'_, G::Action>,
) -> Result<SearchResult<G::Action>, SearchError> {
    let start = Instant::now();
    check_request(game, view.state(), view.seat(), config)?;
    run_view(game, view, config, seed, hooks, start)
}

/// What a search with tree reuse produced beside its result.
#[derive(Debug)]
pub struct Reused<G: Featurize> {
    /// The result, exactly [`search_view_with`]'s when nothing matched.
    pub result: SearchResult<G::Action>,
    /// The tree to keep for the next search: `previous` unchanged after a single legal move
    /// answered without a search, None from a root-parallel search.
    pub kept: Option<KeptTree<G>>,
    /// The node of `previous` the search grew on, if one matched.
    pub matched: Option<ReuseMatch<G::Action>>,
}

/// [`search_view_with`] growing on the node of `previous` that stands for `state` (the full
/// state the view was observed from) when the walk of [`find_match`] finds one; the tree it
/// grew comes back to be kept (`search/reuse.py` is the reference).
pub fn search_view_reusing<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    state: &G::State,
    config: &SearchConfig,
    seed: u64,
    hooks: SearchHooks<'_, G::Action>,
    previous: Option<KeptTree<G>>,
) -> Result<Reused<G>, SearchError> {
    let start = Instant::now();
    check_request(game, view.state(), view.seat(), config)?;
    let seat = view.seat();
    let mut legal = Vec::new();
    game.legal_actions(view.state(), &mut legal);
    if (legal.len() == 1 && !hooks.search_forced) || config.workers > 1 {
        let result = run_view(game, view, config, seed, hooks, start)?;
        let kept = if result.stopped_by == StopReason::SingleMove {
            previous
        } else {
            None
        };
        return Ok(Reused {
            result,
            kept,
            matched: None,
        });
    }
    let previous = previous.filter(|kept| kept.seat == seat);
    let matched = previous
        .as_ref()
        .and_then(|kept| find_match(game, &kept.tree, &kept.state, state, seat));
    // The matched node's moves for the seat that are legal here, nothing else: the open-loop
    // node was grown in many worlds of the old position (search/reuse.py, `restrict_root`).
    let tree = match (&previous, &matched) {
        (Some(kept), Some(found)) => {
            let mut allowed = Vec::new();
            game.legal_actions(state, &mut allowed);
            let mover = u32::try_from(seat).unwrap_or(u32::MAX);
            kept.tree.subtree_keeping(found.node, mover, &allowed)
        }
        _ => Tree::new(),
    };
    drop(previous);
    let (result, tree) = run_view_tree(game, view, config, seed, hooks, start, tree)?;
    Ok(Reused {
        result,
        kept: tree.map(|tree| KeptTree {
            tree,
            state: state.clone(),
            seat,
        }),
        matched,
    })
}

/// The search of a checked request from the seat's view.
fn run_view<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    config: &SearchConfig,
    seed: u64,
    hooks: SearchHooks<'_, G::Action>,
    start: Instant,
) -> Result<SearchResult<G::Action>, SearchError> {
    run_view_tree(game, view, config, seed, hooks, start, Tree::new()).map(|(result, _)| result)
}

/// [`run_view`] growing one tree on `tree` (empty: a fresh search); the result, and the tree
/// when one tree was searched.
#[allow(clippy::type_complexity)]
fn run_view_tree<G: Featurize>(
    game: &G,
    view: &View<G::State>,
    config: &SearchConfig,
    seed: u64,
    hooks: SearchHooks<'_, G::Action>,
    start: Instant,
    tree: Tree<G::Action>,
) -> Result<(SearchResult<G::Action>, Option<Tree<G::Action>>), SearchError> {
    let (seat, root) = (view.seat(), view.state());
    let stop_at = stop_instant(config, start, Instant::now(), SystemTime::now());
    let mut legal = Vec::new();
    game.legal_actions(root, &mut legal);
    match legal.as_slice() {
        [] => return Err(SearchError::NoLegalMove),
        [only] if !hooks.search_forced => {
            let mut result = single_move_result(game, root, seat, *only, start);
            if let Some(model) = &config.model {
                let figures = root_figures(game, view, &model.0, config.margin_weight, seed);
                with_figures(&mut result.moves, &figures);
            }
            return Ok((result, None));
        }
        _ => {}
    }
    // The network's figures of the root moves depend on the view, the model and the seed
    // alone: computed once, when the first result (partial or final) is built.
    let figures: OnceCell<Vec<NetFigures<G::Action>>> = OnceCell::new();
    let finish = |reports: &[TreeReport<G::Action>], stopped_by: StopReason| {
        let totals = SearchTotals {
            iterations: reports.iter().map(|r| r.iterations).sum(),
            nodes: reports.iter().map(|r| r.nodes).sum(),
            elapsed: start.elapsed(),
            stopped_by,
        };
        let tallies = merge_tallies(reports);
        let mut rng = choice_rng(seed);
        let figures = config.model.as_ref().map(|model| {
            figures
                .get_or_init(|| root_figures(game, view, &model.0, config.margin_weight, seed))
                .as_slice()
        });
        build_result(
            game,
            root,
            seat,
            &tallies,
            config.temperature,
            &mut rng,
            totals,
            figures,
        )
    };
    let SearchHooks {
        cancel,
        mut on_progress,
        progress_every,
        progress_period,
        search_forced: _,
    } = hooks;
    let pace = ProgressPace {
        every: progress_every,
        period: progress_period,
    };
    let wants_progress = on_progress.is_some() && pace.is_set();
    let cancel = cancel.as_ref().map(CancelToken::flag);
    if config.workers > 1 {
        let parallel = ParallelSearch {
            game,
            view,
            config,
            seed,
            stop_at,
            cancel,
        };
        let mut forward = |reports: &[TreeReport<G::Action>]| {
            if let (Some(callback), Ok(partial)) =
                (on_progress.as_mut(), finish(reports, StopReason::Running))
            {
                callback(&partial);
            }
        };
        let forward: Option<&mut ReportsCallback<'_, G::Action>> = if wants_progress {
            Some(&mut forward)
        } else {
            None
        };
        let reports = parallel.run_paced(forward, pace)?.reports;
        return finish(&reports, merged_stop_reason(&reports)).map(|result| (result, None));
    }
    let mut tree = TreeSearch::with_tree(game, view, config, seed, tree);
    let limits = RunLimits {
        iterations: config.iterations,
        stop_at,
        progress_every: match (wants_progress, progress_every) {
            (false, _) => 0,
            (true, 0) => 1,
            (true, every) => every,
        },
    };
    let flags = StopFlags {
        cancel,
        abort: None,
    };
    let mut last_call = start;
    let stopped = tree.run(&limits, flags, |t| {
        let now = Instant::now();
        if now < last_call + progress_period || stop_at.is_some_and(|stop| now >= stop.instant) {
            return;
        }
        let report = t.report(StopReason::Running);
        if let (Some(callback), Ok(partial)) =
            (on_progress.as_mut(), finish(&[report], StopReason::Running))
        {
            callback(&partial);
        }
        last_call = Instant::now();
    });
    let result = finish(&[tree.report(stopped)], stopped)?;
    Ok((result, Some(tree.into_tree())))
}

/// The answer when only one move is legal and the search was not asked to search it: no
/// search at all (no visits, no value, no seat values).
fn single_move_result<G: Featurize>(
    game: &G,
    view: &G::State,
    seat: usize,
    only: G::Action,
    start: Instant,
) -> SearchResult<G::Action> {
    let notation = game.action_to_str(view, only);
    SearchResult {
        action: only,
        notation: notation.clone(),
        seat,
        iterations: 0,
        elapsed: start.elapsed(),
        moves: vec![MoveStats {
            action: only,
            notation: notation.clone(),
            visits: 0,
            mean_value: 0.0,
            lower_bound: 0.0,
            principal_variation: vec![notation],
            principal_variation_seats: vec![seat],
            prior: None,
            net_value: None,
            seat_values: Vec::new(),
        }],
        stopped_by: StopReason::SingleMove,
        nodes: 0,
        seat_values: Vec::new(),
    }
}
