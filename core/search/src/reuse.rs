//! Tree reuse between consecutive searches of one seat in one game (the twin of
//! `search/reuse.py`; docs/search.md, "Tree reuse between requests").
//!
//! A kept tree holds the full state `S0` of the search that grew it. The node that stands for a
//! new state is found by a bounded beam walk from `S0` ([`find_match`]), in exactly the order
//! and with exactly the bounds of the Python reference, so both match the same node of the
//! same tree with the same reused visits.

use boardbot_rules::{Featurize, Game, CHANCE};
use serde_json::Value;

use crate::tree::{NodeId, Tree, ROOT};

/// Decisions (plies) the walk follows from the old root at most.
pub const REUSE_MAX_DEPTH: usize = 12;

/// States each level of the walk keeps: those closest to the new state.
pub const REUSE_BEAM: usize = 32;

/// States the walk reaches at most (each decision's and chance outcome's successor counts).
pub const REUSE_MAX_STATES: usize = 2048;

/// A chance step with at most this many outcomes (a die roll) is followed into every one.
pub const REUSE_CHANCE_ALL: usize = 6;

/// A larger chance step is followed into the outcomes whose successor differs from the new
/// state in at most this many more JSON leaves than the closest one's.
pub const REUSE_CHANCE_SLACK: u64 = 1;

/// A tree a search grew, with the full state it searched and the seat it searched for.
#[derive(Clone, Debug)]
pub struct KeptTree<G: Featurize> {
    /// The tree.
    pub tree: Tree<G::Action>,
    /// The full state of the search that grew it (`S0`), where the walk starts.
    pub state: G::State,
    /// The seat it searched for.
    pub seat: usize,
}

/// The node of an old tree that stands for a new state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReuseMatch<A> {
    /// The node, in the old tree.
    pub node: NodeId,
    /// The decisions from the old root to the node.
    pub path: Vec<A>,
    /// Visits of the node's moves for the seat that are legal in the new state (the root moves
    /// of the new search, [`Tree::subtree_keeping`]).
    pub reused_visits: u64,
}

/// The visits of `node`'s edges of `seat`.
pub fn seat_visits<A: Copy + Eq>(tree: &Tree<A>, node: NodeId, seat: usize) -> u64 {
    tree.edges(node)
        .iter()
        .filter(|e| e.seat as usize == seat)
        .map(|e| e.visits)
        .sum()
}

/// The visits of `node`'s edges of `seat` whose action is in `legal` (Python's `seat_visits`
/// with `legal`): what a search growing on `node` in a position with those moves reuses.
pub fn legal_visits<A: Copy + Eq>(tree: &Tree<A>, node: NodeId, seat: usize, legal: &[A]) -> u64 {
    tree.edges(node)
        .iter()
        .filter(|e| e.seat as usize == seat && legal.contains(&e.action))
        .map(|e| e.visits)
        .sum()
}

/// How many leaves of two JSON values differ: 0 when equal; objects compare key by key (a key
/// on one side only counts 1), arrays item by item (each extra item counts 1), anything else
/// counts 1 when unequal (Python's `json_mismatch`).
pub fn json_mismatch(a: &Value, b: &Value) -> u64 {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let shared: u64 = x
                .iter()
                .map(|(key, value)| y.get(key).map_or(1, |other| json_mismatch(value, other)))
                .sum();
            shared + y.keys().filter(|key| !x.contains_key(*key)).count() as u64
        }
        (Value::Array(x), Value::Array(y)) => {
            let extra = x.len().abs_diff(y.len()) as u64;
            extra
                + x.iter()
                    .zip(y)
                    .map(|(v, w)| json_mismatch(v, w))
                    .sum::<u64>()
        }
        _ => u64::from(a != b),
    }
}

/// One state of a level of the walk: its node, the state, the decisions that led there.
type Reached<G> = (NodeId, <G as Game>::State, Vec<<G as Game>::Action>);

/// The node of `tree` (grown from `old_state`) that stands for `state` for `seat`, if the
/// bounded walk finds one.
///
/// A beam search by decisions: level k holds the states reached from `old_state` by k
/// decisions along the tree's edges (each legal there, the edges of the seat to move in
/// creation order), their chance steps resolved by the outcomes the game lists. A level of more
/// than [`REUSE_BEAM`] states keeps the [`REUSE_BEAM`] closest to `state` (fewest differing
/// leaves of their full JSON; the earliest reached on ties), in that order; a chance step of more than [`REUSE_CHANCE_ALL`] outcomes is
/// followed only into those within [`REUSE_CHANCE_SLACK`] of its closest one. The first level
/// holding a state where `seat` is to move with `seat`'s view of `state` gives the match: of
/// those states, the one whose node has the most visits for `seat` in moves legal in `state`
/// (the earliest on ties).
pub fn find_match<G: Featurize>(
    game: &G,
    tree: &Tree<G::Action>,
    old_state: &G::State,
    state: &G::State,
    seat: usize,
) -> Option<ReuseMatch<G::Action>> {
    let target = game.state_to_json(state, Some(seat));
    let guide = game.state_to_json(state, None);
    let mut allowed = Vec::new();
    game.legal_actions(state, &mut allowed);
    let mut level: Vec<Reached<G>> = vec![(ROOT, old_state.clone(), Vec::new())];
    let mut legal = Vec::new();
    let mut examined = 0;
    for depth in 0..=REUSE_MAX_DEPTH {
        let mut found: Option<ReuseMatch<G::Action>> = None;
        let mut reached: Vec<Reached<G>> = Vec::new();
        for (node, current, path) in &level {
            let Ok(mover) = u32::try_from(game.current_player(current)) else {
                continue;
            };
            if mover as usize == seat && game.state_to_json(current, Some(seat)) == target {
                let visits = legal_visits(tree, *node, seat, &allowed);
                let better = match &found {
                    Some(best) => visits > best.reused_visits,
                    None => true,
                };
                if better {
                    found = Some(ReuseMatch {
                        node: *node,
                        path: path.clone(),
                        reused_visits: visits,
                    });
                }
                continue;
            }
            if found.is_some() || depth == REUSE_MAX_DEPTH {
                continue;
            }
            let mut edges = tree
                .edges(*node)
                .iter()
                .filter(|e| e.seat == mover)
                .peekable();
            if edges.peek().is_none() {
                continue;
            }
            game.legal_actions(current, &mut legal);
            for edge in edges {
                if !legal.contains(&edge.action) {
                    continue;
                }
                let mut pending = vec![game.apply(current, edge.action)];
                while examined < REUSE_MAX_STATES {
                    let Some(successor) = pending.pop() else {
                        break;
                    };
                    examined += 1;
                    if game.current_player(&successor) == CHANCE {
                        let mut outcomes = followed_outcomes(game, &successor, &guide);
                        outcomes.reverse();
                        pending.extend(outcomes);
                        continue;
                    }
                    let mut next = path.clone();
                    next.push(edge.action);
                    reached.push((edge.child, successor, next));
                }
            }
        }
        if found.is_some() {
            return found;
        }
        if reached.len() > REUSE_BEAM {
            let mut ranked: Vec<(u64, usize)> = reached
                .iter()
                .enumerate()
                .map(|(i, (_, s, _))| (json_mismatch(&game.state_to_json(s, None), &guide), i))
                .collect();
            ranked.sort_unstable();
            ranked.truncate(REUSE_BEAM);
            let mut slots: Vec<Option<Reached<G>>> = reached.into_iter().map(Some).collect();
            reached = ranked
                .into_iter()
                .filter_map(|(_, i)| slots.get_mut(i).and_then(Option::take))
                .collect();
        }
        level = reached;
        if level.is_empty() {
            break;
        }
    }
    None
}

/// The successors of chance step `state` the walk follows (see [`find_match`]), in the game's
/// order of outcomes: none when the outcomes are not listed.
fn followed_outcomes<G: Featurize>(game: &G, state: &G::State, guide: &Value) -> Vec<G::State> {
    let successors: Vec<G::State> = game
        .chance_outcomes(state)
        .unwrap_or_default()
        .into_iter()
        .filter(|&(_, probability)| probability > 0.0)
        .map(|(outcome, _)| game.apply(state, outcome))
        .collect();
    if successors.len() <= REUSE_CHANCE_ALL {
        return successors;
    }
    let scored: Vec<(G::State, u64)> = successors
        .into_iter()
        .map(|successor| {
            let gap = json_mismatch(&game.state_to_json(&successor, None), guide);
            (successor, gap)
        })
        .collect();
    let bound = scored.iter().map(|&(_, gap)| gap).min().unwrap_or(0) + REUSE_CHANCE_SLACK;
    scored
        .into_iter()
        .filter(|&(_, gap)| gap <= bound)
        .map(|(successor, _)| successor)
        .collect()
}

/// A tree from edges `(parent, seat, action, visits, avail, total)`, each edge's child
/// numbered by its position plus one (the root is 0); None when a parent is not yet known.
pub fn tree_from_edges<A: Copy + Eq>(edges: &[(usize, u32, A, u64, u64, f64)]) -> Option<Tree<A>> {
    let mut tree = Tree::new();
    for (k, &(parent, seat, action, visits, avail, total)) in edges.iter().enumerate() {
        if parent > k {
            return None;
        }
        let parent = NodeId::try_from(parent).ok()?;
        let i = tree.add_edge(parent, seat, action)?;
        let edge = tree.edges_mut(parent).get_mut(i)?;
        edge.visits = visits;
        edge.avail = avail;
        edge.total = total;
    }
    Some(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_mismatch_counts_differing_leaves() {
        let a = serde_json::json!({"x": [1, 2, 3], "y": {"z": true}, "w": "s"});
        let b = serde_json::json!({"x": [1, 5], "y": {"z": false}, "v": null});
        assert_eq!(json_mismatch(&a, &a), 0);
        // x: one extra item and one differing; y.z differs; w only in a; v only in b.
        assert_eq!(json_mismatch(&a, &b), 5);
        assert_eq!(
            json_mismatch(&serde_json::json!(1), &serde_json::json!([1])),
            1
        );
    }

    #[test]
    fn edges_rebuild_the_tree() {
        let edges = [
            (0, 0, 3u8, 5, 5, 2.5),
            (1, 1, 4, 2, 3, 1.0),
            (0, 0, 7, 1, 4, 0.5),
        ];
        let tree = tree_from_edges(&edges).unwrap();
        assert_eq!(tree.len(), 4);
        assert_eq!(seat_visits(&tree, ROOT, 0), 6);
        assert_eq!(seat_visits(&tree, 1, 1), 2);
        assert!(tree_from_edges(&[(2, 0, 1u8, 1, 1, 0.0)]).is_none());
    }
}
