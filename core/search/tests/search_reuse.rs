//! Tree reuse on both real games: the walk finds the node after an own move and a rival's,
//! the search grows on it, and without a match the search is exactly the one without reuse.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use boardbot_rules::rng::below;
use boardbot_rules::{seeded_rng, Game, Leda, LegendRaiders, SeededRng, CHANCE, TERMINAL};
use boardbot_search::reuse::seat_visits;
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
fn decisions<G: Game>(game: &G, options: &Value, seed: u64) -> Vec<G::State> {
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
fn play_along<G: Game>(
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

fn reuse_after_a_move_and_a_reply<G: Game>(game: &G, options: &Value) {
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
            assert_eq!(
                found.reused_visits,
                seat_visits(&kept.tree, found.node, seat)
            );
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

fn no_match_is_the_search_without_reuse<G: Game>(game: &G, options: &Value) {
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
