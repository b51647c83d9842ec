//! Tree reuse on both real games: the walk finds the node after an own move and a rival's,
//! the search grows on it, and without a match the search is exactly the one without reuse.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use boardbot_rules::rng::below;
use boardbot_rules::{
    seeded_rng, Featurize, Game, Leda, LegendRaiders, SeededRng, CHANCE, TERMINAL,
};
use boardbot_search::reuse::{legal_visits, seat_visits, tree_from_edges};
use boardbot_search::tree::{NodeId, ROOT};
use boardbot_search::{
    find_match, search_view_reusing, search_view_with, KeptTree, RolloutPolicy, SearchConfig,
    SearchHooks, SearchResult, StopReason,
};
use serde_json::{json, Value};

fn config() -> SearchConfig {
    SearchConfig {
        iterations: Some(600),
        rollout: RolloutPolicy::Heuristic,
        cutoff_depth: Some(8),
        early_stop: false,
        ..SearchConfig::default()
    }
}

fn without_time<A: Clone>(result: &SearchResult<A>) -> SearchResult<A> {
    SearchResult {
        elapsed: std::time::Duration::ZERO,
        ..result.clone()
    }
}

/// Decision states (two or more moves) of one seeded random game.
fn decisions<G: Featurize>(game: &G, options: &Value, seed: u64) -> Vec<G::State> {
    let mut rng = seeded_rng(seed);
    let mut state = game.new_state(options, seed).unwrap();
    let mut legal = Vec::new();
    let mut found = Vec::new();
    for _ in 0..400 {
        let action = match game.current_player(&state) {
            TERMINAL => break,
            CHANCE => game.sample_chance(&state, &mut rng).unwrap(),
            _ => {
                game.legal_actions(&state, &mut legal);
                if legal.len() > 1 {
                    found.push(state.clone());
                }
                legal[below(&mut rng, legal.len() as u32) as usize]
            }
        };
        state = game.apply(&state, action);
    }
    found
}

/// From `state`, the tree's most visited legal move at every decision until `seat` is to move
/// again after a rival's move (chance drawn with `rng`): the state and the moves, or None
/// where the tree ends first.
fn play_along<G: Featurize>(
    game: &G,
    kept: &KeptTree<G>,
    rng: &mut SeededRng,
) -> Option<(G::State, Vec<G::Action>, NodeId)> {
    let (mut state, seat) = (kept.state.clone(), kept.seat);
    let (mut node, mut played, mut rival) = (ROOT, Vec::new(), false);
    let mut legal = Vec::new();
    loop {
        let player = game.current_player(&state);
        if player == CHANCE {
            let outcome = game.sample_chance(&state, rng)?;
            state = game.apply(&state, outcome);
            continue;
        }
        let mover = u32::try_from(player).ok()?;
        if mover as usize == seat && rival {
            return Some((state, played, node));
        }
        rival |= mover as usize != seat;
        game.legal_actions(&state, &mut legal);
        let edge = kept
            .tree
            .edges(node)
            .iter()
            .filter(|e| e.seat == mover && legal.contains(&e.action))
            .fold(
                None,
                |best: Option<&boardbot_search::tree::Edge<G::Action>>, e| match best {
                    Some(b) if e.visits <= b.visits => Some(b),
                    _ => Some(e),
                },
            )?;
        played.push(edge.action);
        node = edge.child;
        state = game.apply(&state, edge.action);
    }
}

fn reuse_after_a_move_and_a_reply<G: Featurize>(game: &G, options: &Value) {
    let mut tried = 0;
    for seed in 0..40 {
        for state in decisions(game, options, seed)
            .into_iter()
            .step_by(7)
            .take(3)
        {
            let seat = game.current_player(&state) as usize;
            let view = game.observe(&state, seat);
            let config = config();
            let first = search_view_reusing(
                game,
                &view,
                &state,
                &config,
                1,
                SearchHooks::default(),
                None,
            )
            .unwrap();
            assert!(first.matched.is_none());
            let kept = first.kept.unwrap();
            assert_eq!(kept.tree.len() as u64, first.result.nodes);
            let Some((reached, played, node)) = play_along(game, &kept, &mut seeded_rng(seed))
            else {
                continue;
            };
            tried += 1;
            let Some(found) = find_match(game, &kept.tree, &kept.state, &reached, seat) else {
                continue;
            };
            // The moves played, or moves the seat cannot tell from them (in another order, or
            // a rival's hidden choice, such as a mulligan whose redraw the walk cannot follow
            // through its shuffle).
            assert_eq!(found.path.len(), played.len());
            if found.path == played {
                assert_eq!(found.node, node);
            }
            // The node's visits for the seat in moves legal here (the root moves of the new
            // search); it may hold others, grown in worlds of the old position.
            let mut legal = Vec::new();
            game.legal_actions(&reached, &mut legal);
            assert_eq!(
                found.reused_visits,
                legal_visits(&kept.tree, found.node, seat, &legal)
            );
            assert!(found.reused_visits <= seat_visits(&kept.tree, found.node, seat));
            assert!(found.reused_visits > 0);
            let next_view = game.observe(&reached, seat);
            let again = search_view_reusing(
                game,
                &next_view,
                &reached,
                &config,
                2,
                SearchHooks::default(),
                Some(kept),
            )
            .unwrap();
            assert_eq!(again.matched.as_ref(), Some(&found));
            let visits: u64 = again.result.moves.iter().map(|m| m.visits).sum();
            assert_eq!(visits, found.reused_visits + 600);
            assert_eq!(again.result.iterations, 600);
            assert_eq!(again.result.stopped_by, StopReason::Iterations);
            // The matched node's moves bring their visits, not every seat's sums: the root's
            // seat sums count this search's 600 iterations only.
            let grown = &again.kept.as_ref().unwrap().tree;
            let summed: u64 = (0..grown.edges(ROOT).len())
                .map(|i| grown.root_sums(i).unwrap().visits)
                .sum();
            assert_eq!(summed, 600);
            let best = &again.result.moves[0];
            assert_eq!(again.result.seat_values[seat], best.mean_value);
            return;
        }
    }
    panic!("no position where the walk found the node ({tried} tried)");
}

#[test]
fn legend_raiders_reuse_finds_the_node_after_a_move_and_a_reply() {
    reuse_after_a_move_and_a_reply(&LegendRaiders, &json!({"players": 2}));
}

#[test]
fn leda_reuse_finds_the_node_after_a_move_and_a_reply() {
    reuse_after_a_move_and_a_reply(&Leda, &json!({"clans": ["sharks", "pandas"]}));
}

#[test]
fn the_same_position_again_keeps_every_seats_sums() {
    let game = LegendRaiders;
    let state = decisions(&game, &json!({"players": 3}), 5)[3].clone();
    let seat = game.current_player(&state) as usize;
    let view = game.observe(&state, seat);
    let config = config();
    let search_on = |seed, previous| {
        search_view_reusing(
            &game,
            &view,
            &state,
            &config,
            seed,
            SearchHooks::default(),
            previous,
        )
        .unwrap()
    };
    let first = search_on(1, None);
    let again = search_on(2, first.kept);
    assert_eq!(again.matched.as_ref().map(|m| m.path.len()), Some(0));
    let tree = &again.kept.as_ref().unwrap().tree;
    for (i, edge) in tree.edges(ROOT).iter().enumerate() {
        let sums = tree.root_sums(i).unwrap();
        assert_eq!(sums.visits, edge.visits);
        assert_eq!(sums.totals.len(), 3);
        assert_eq!(sums.totals[seat], edge.total);
    }
    assert_eq!(again.result.seat_values.len(), 3);
}

fn no_match_is_the_search_without_reuse<G: Featurize>(game: &G, options: &Value) {
    let early = decisions(game, options, 3)[2].clone();
    let late = decisions(game, options, 4)[20].clone();
    let config = config();
    let seat_early = game.current_player(&early) as usize;
    let view_early = game.observe(&early, seat_early);
    let previous = search_view_reusing(
        game,
        &view_early,
        &early,
        &config,
        1,
        SearchHooks::default(),
        None,
    )
    .unwrap()
    .kept;
    let seat = game.current_player(&late) as usize;
    let view = game.observe(&late, seat);
    let reused = search_view_reusing(
        game,
        &view,
        &late,
        &config,
        9,
        SearchHooks::default(),
        previous,
    )
    .unwrap();
    let plain = search_view_with(game, &view, &config, 9, SearchHooks::default()).unwrap();
    assert!(reused.matched.is_none());
    assert_eq!(without_time(&reused.result), without_time(&plain));
}

#[test]
fn legend_raiders_without_a_match_searches_as_without_reuse() {
    no_match_is_the_search_without_reuse(&LegendRaiders, &json!({"players": 2}));
}

#[test]
fn leda_without_a_match_searches_as_without_reuse() {
    no_match_is_the_search_without_reuse(&Leda, &json!({"clans": ["sharks", "pandas"]}));
}

/// A kept tree grown from `state` whose root holds, beside a legal move of `seat` (3 visits),
/// a move of `seat` the position does not allow (the most visited and best, with a subtree)
/// and a move of the rival: what an open-loop node matched by the walk can hold (Python's
/// `tree_with_an_illegal_move`). The tree and the illegal move.
fn tree_with_an_illegal_move<G: Featurize>(
    game: &G,
    options: &Value,
    state: &G::State,
    seat: usize,
) -> (KeptTree<G>, G::Action) {
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    let mut other = Vec::new();
    let illegal = (0..40)
        .flat_map(|seed| decisions(game, options, seed))
        .find_map(|s| {
            game.legal_actions(&s, &mut other);
            other.iter().copied().find(|a| !legal.contains(a))
        })
        .expect("a move of another position not legal here");
    let (me, rival) = (seat as u32, 1 - seat as u32);
    let edges = [
        (0, me, illegal, 10_000, 10_000, 9_900.0),
        (1, me, legal[legal.len() - 1], 50, 60, 40.0),
        (0, me, legal[0], 3, 3, 1.5),
        (0, rival, legal[1], 7, 7, 3.0),
    ];
    let tree = tree_from_edges(&edges).unwrap();
    assert_eq!(tree.len(), 5);
    let kept = KeptTree {
        tree,
        state: state.clone(),
        seat,
    };
    (kept, illegal)
}

fn a_reused_root_keeps_only_legal_moves<G: Featurize>(game: &G, options: &Value) {
    let state = decisions(game, options, 9)[12].clone();
    let seat = game.current_player(&state) as usize;
    let view = game.observe(&state, seat);
    let mut legal = Vec::new();
    game.legal_actions(&state, &mut legal);
    let (kept, illegal) = tree_with_an_illegal_move(game, options, &state, seat);
    let found = find_match(game, &kept.tree, &kept.state, &state, seat).unwrap();
    assert!(found.path.is_empty());
    assert_eq!(found.node, ROOT);
    // Only the legal move's visits count, not the illegal one's.
    assert_eq!(found.reused_visits, 3);
    assert_eq!(legal_visits(&kept.tree, ROOT, seat, &legal), 3);
    assert_eq!(seat_visits(&kept.tree, ROOT, seat), 10_003);
    for iterations in [1, 60] {
        let config = SearchConfig {
            iterations: Some(iterations),
            ..config()
        };
        let (previous, _) = tree_with_an_illegal_move(game, options, &state, seat);
        let reused = search_view_reusing(
            game,
            &view,
            &state,
            &config,
            5,
            SearchHooks::default(),
            Some(previous),
        )
        .unwrap();
        assert_eq!(reused.matched.as_ref().map(|m| m.reused_visits), Some(3));
        let result = &reused.result;
        assert!(legal.contains(&result.action) && result.action != illegal);
        assert_eq!(result.moves.len(), legal.len());
        assert!(result.moves.iter().all(|m| legal.contains(&m.action)));
        let visits: u64 = result.moves.iter().map(|m| m.visits).sum();
        assert_eq!(visits, 3 + iterations);
        for stats in &result.moves {
            assert_eq!(stats.principal_variation.first(), Some(&stats.notation));
        }
        let tree = reused.kept.unwrap().tree;
        assert_eq!(tree.len() as u64, result.nodes);
        assert!(tree
            .edges(ROOT)
            .iter()
            .all(|e| e.seat as usize == seat && legal.contains(&e.action)));
        if iterations == 1 {
            // The root and its legal move, and the node the one iteration grew (Python's too).
            assert_eq!(result.nodes, 3);
        }
    }
}

#[test]
fn legend_raiders_a_reused_root_keeps_only_legal_moves() {
    a_reused_root_keeps_only_legal_moves(&LegendRaiders, &json!({"players": 2}));
}

#[test]
fn leda_a_reused_root_keeps_only_legal_moves() {
    a_reused_root_keeps_only_legal_moves(&Leda, &json!({"clans": ["sharks", "pandas"]}));
}
