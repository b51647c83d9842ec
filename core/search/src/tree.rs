//! The single-observer ISMCTS tree (open loop: decision edges only), as an arena of nodes.
//!
//! A node is a sequence of decisions from the root; its outgoing edges are the decisions
//! taken from it, each tagged with the seat that took it (children are kept per seat to move)
//! and carrying that edge's statistics. The statistics live on the edge, next to its action,
//! so a selection step scans one small contiguous vector. For the handful of children a node
//! has, a linear scan beats hashing.
//!
//! The root's edges alone also sum the whole reward vector of the iterations through them
//! ([`SeatSums`], every seat's value from one search), kept beside the edges so the edges of
//! deeper nodes stay as small and fast as they were.

/// Index of a node in the arena.
pub type NodeId = u32;

/// The root's index.
pub const ROOT: NodeId = 0;

/// One decision edge: the action, the seat that took it, and its statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge<A> {
    /// The action taken.
    pub action: A,
    /// The seat that took it; `total` sums that seat's rewards.
    pub seat: u32,
    /// Iterations that followed this edge.
    pub visits: u64,
    /// How many times this action was available when its parent was visited.
    pub avail: u64,
    /// Sum of the rewards of `seat` over those iterations.
    pub total: f64,
    /// The node this edge leads to.
    pub child: NodeId,
}

impl<A> Edge<A> {
    /// Mean reward of the seat that took the action (0 before any visit).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// Every seat's rewards summed over the iterations that followed one root edge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatSums {
    /// Iterations summed here (fewer than the edge's visits when the edge came from an earlier
    /// tree's deeper node: tree reuse).
    pub visits: u64,
    /// Sum of each seat's reward, by seat.
    pub totals: Vec<f64>,
}

impl SeatSums {
    /// Add one iteration's reward vector.
    pub fn add(&mut self, reward: &[f64]) {
        if self.totals.len() < reward.len() {
            self.totals.resize(reward.len(), 0.0);
        }
        for (total, r) in self.totals.iter_mut().zip(reward) {
            *total += r;
        }
        self.visits += 1;
    }
}

/// A learned prior of one decision at a node: the policy network's probability of `action`
/// for `seat`, over the legal actions of the world in which it was computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior<A> {
    /// The seat to move.
    pub seat: u32,
    /// The decision.
    pub action: A,
    /// Its probability under the policy.
    pub prior: f32,
}

/// One node: its outgoing edges in the order they were created, and the learned priors of the
/// decisions met at it (a search with a model only).
#[derive(Clone, Debug, PartialEq)]
pub struct Node<A> {
    /// Edges of every seat that has moved from here, in creation order.
    pub edges: Vec<Edge<A>>,
    /// Priors per seat and action, in the order they were computed.
    pub priors: Vec<Prior<A>>,
}

impl<A> Node<A> {
    /// A node without edges or priors.
    pub fn empty() -> Self {
        Self {
            edges: Vec::new(),
            priors: Vec::new(),
        }
    }
}

/// The arena: node 0 is the root; every other node is the target of exactly one edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree<A> {
    nodes: Vec<Node<A>>,
    /// The seat sums of the root's edges, one per edge in the same order.
    root_sums: Vec<SeatSums>,
}

impl<A: Copy + Eq> Default for Tree<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Copy + Eq> Tree<A> {
    /// A tree holding only the root.
    pub fn new() -> Self {
        Self {
            nodes: vec![Node::empty()],
            root_sums: Vec::new(),
        }
    }

    /// Number of nodes, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The edges leaving `node`.
    pub fn edges(&self, node: NodeId) -> &[Edge<A>] {
        self.nodes
            .get(node as usize)
            .map_or(&[], |n| n.edges.as_slice())
    }

    /// The edges leaving `node`, to update their statistics.
    pub fn edges_mut(&mut self, node: NodeId) -> &mut [Edge<A>] {
        self.nodes
            .get_mut(node as usize)
            .map_or(&mut [], |n| n.edges.as_mut_slice())
    }

    /// The seat sums of the root's edge `i` (in `edges(ROOT)`), if it exists.
    pub fn root_sums(&self, i: usize) -> Option<&SeatSums> {
        self.root_sums.get(i)
    }

    /// Add one iteration's reward vector to the seat sums of the root's edge `i`.
    pub fn add_root_reward(&mut self, i: usize, reward: &[f64]) {
        if let Some(sums) = self.root_sums.get_mut(i) {
            sums.add(reward);
        }
    }

    /// The learned priors stored at `node`.
    pub fn priors(&self, node: NodeId) -> &[Prior<A>] {
        self.nodes
            .get(node as usize)
            .map_or(&[], |n| n.priors.as_slice())
    }

    /// Store priors at `node` (appended after those it has).
    pub fn add_priors(&mut self, node: NodeId, priors: impl IntoIterator<Item = Prior<A>>) {
        if let Some(n) = self.nodes.get_mut(node as usize) {
            n.priors.extend(priors);
        }
    }

    /// Index (in `edges(node)`) of the edge of `seat` taking `action`, if it exists.
    pub fn find_edge(&self, node: NodeId, seat: u32, action: A) -> Option<usize> {
        self.edges(node)
            .iter()
            .position(|e| e.action == action && e.seat == seat)
    }

    /// Add the edge of `seat` taking `action` from `node` to a new node; its index in
    /// `edges(node)`. None when the arena is full (more than `u32::MAX` nodes).
    pub fn add_edge(&mut self, node: NodeId, seat: u32, action: A) -> Option<usize> {
        let child = NodeId::try_from(self.nodes.len()).ok()?;
        let parent = self.nodes.get_mut(node as usize)?;
        parent.edges.push(Edge {
            action,
            seat,
            visits: 0,
            avail: 1,
            total: 0.0,
            child,
        });
        let index = parent.edges.len() - 1;
        self.nodes.push(Node::empty());
        if node == ROOT {
            self.root_sums.push(SeatSums::default());
        }
        Some(index)
    }

    /// A tree of `node` and everything under it, `node` as its root; every node keeps its
    /// edges in their order (tree reuse). An unknown `node` gives a tree of the root alone.
    /// The root's seat sums are kept when `node` is the root; a deeper node's edges start
    /// with none (their visits stay, but only the root's edges summed every seat's rewards).
    pub fn subtree(&self, node: NodeId) -> Self {
        self.copied(node, |_| true)
    }

    /// [`Tree::subtree`] keeping, of `node`'s own edges, only those of `seat` whose action is
    /// in `legal` (with their subtrees, in their order): the root of a search growing on a
    /// matched node, whose moves must be legal in the new position (the open-loop node was
    /// grown in many worlds of the old one). Python's `restrict_root`.
    pub fn subtree_keeping(&self, node: NodeId, seat: u32, legal: &[A]) -> Self {
        self.copied(node, |edge| {
            edge.seat == seat && legal.contains(&edge.action)
        })
    }

    /// `node` and everything under it as a tree, of `node`'s own edges only those `keep`
    /// accepts.
    fn copied(&self, node: NodeId, keep: impl Fn(&Edge<A>) -> bool) -> Self {
        let mut out = Self::new();
        out.add_priors(ROOT, self.priors(node).iter().copied());
        let mut queue = std::collections::VecDeque::from([(node, ROOT)]);
        while let Some((old, new)) = queue.pop_front() {
            for (i, edge) in self.edges(old).iter().enumerate() {
                if new == ROOT && !keep(edge) {
                    continue;
                }
                let Ok(child) = NodeId::try_from(out.nodes.len()) else {
                    return out;
                };
                if let Some(parent) = out.nodes.get_mut(new as usize) {
                    parent.edges.push(Edge {
                        child,
                        ..edge.clone()
                    });
                }
                if new == ROOT {
                    let sums = match old {
                        ROOT => self.root_sums.get(i).cloned().unwrap_or_default(),
                        _ => SeatSums::default(),
                    };
                    out.root_sums.push(sums);
                }
                let priors = self.priors(edge.child).to_vec();
                out.nodes.push(Node {
                    edges: Vec::new(),
                    priors,
                });
                queue.push_back((edge.child, child));
            }
        }
        out
    }

    /// The most visited edge of `seat` from `node` (the first created on ties), if any.
    pub fn most_visited(&self, node: NodeId, seat: u32) -> Option<&Edge<A>> {
        first_max_visits(self.edges(node).iter().filter(|e| e.seat == seat))
    }

    /// The most visited edge from `node` over every seat (the first created on ties).
    pub fn most_visited_any(&self, node: NodeId) -> Option<&Edge<A>> {
        first_max_visits(self.edges(node).iter())
    }
}

/// The edge with the most visits, the first one on ties.
fn first_max_visits<'t, A: 't>(edges: impl Iterator<Item = &'t Edge<A>>) -> Option<&'t Edge<A>> {
    let mut best: Option<&Edge<A>> = None;
    for edge in edges {
        match best {
            Some(b) if edge.visits <= b.visits => {}
            _ => best = Some(edge),
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_grow_the_arena_and_are_found_per_seat() {
        let mut tree: Tree<u8> = Tree::new();
        assert_eq!(tree.len(), 1);
        let a = tree.add_edge(ROOT, 0, 7).unwrap();
        let b = tree.add_edge(ROOT, 1, 7).unwrap();
        assert_eq!((a, b), (0, 1));
        assert_eq!(tree.len(), 3);
        assert_eq!(tree.find_edge(ROOT, 1, 7), Some(1));
        assert_eq!(tree.find_edge(ROOT, 0, 7), Some(0));
        assert_eq!(tree.find_edge(ROOT, 2, 7), None);
        let child = tree.edges(ROOT)[1].child;
        assert_eq!(child, 2);
        assert_eq!(tree.add_edge(child, 0, 3), Some(0));
        assert_eq!(tree.edges(child)[0].avail, 1);
        assert!(tree.edges(99).is_empty());
        assert_eq!(tree.add_edge(99, 0, 1), None);
    }

    #[test]
    fn a_subtree_keeps_its_edges_in_order() {
        let mut tree: Tree<u8> = Tree::new();
        let a = tree.add_edge(ROOT, 0, 1).unwrap();
        tree.add_edge(ROOT, 0, 2).unwrap();
        let child = tree.edges(ROOT)[a].child;
        tree.add_edge(child, 1, 5).unwrap();
        tree.add_edge(child, 0, 6).unwrap();
        tree.edges_mut(child)[1].visits = 4;
        let grand = tree.edges(child)[0].child;
        tree.add_edge(grand, 0, 9).unwrap();
        let sub = tree.subtree(child);
        assert_eq!(sub.len(), 4);
        let actions: Vec<u8> = sub.edges(ROOT).iter().map(|e| e.action).collect();
        assert_eq!(actions, vec![5, 6]);
        assert_eq!(sub.edges(ROOT)[1].visits, 4);
        let grand = sub.edges(ROOT)[0].child;
        assert_eq!(sub.edges(grand)[0].action, 9);
        assert_eq!(tree.subtree(99).len(), 1);
    }

    #[test]
    fn a_kept_subtree_drops_the_root_edges_not_legal_with_their_subtrees() {
        let mut tree: Tree<u8> = Tree::new();
        let a = tree.add_edge(ROOT, 0, 1).unwrap();
        let child = tree.edges(ROOT)[a].child;
        for (seat, action) in [(0, 3), (1, 4), (0, 5), (0, 6)] {
            let i = tree.add_edge(child, seat, action).unwrap();
            let grand = tree.edges(child)[i].child;
            tree.add_edge(grand, 1, 9).unwrap();
        }
        // Action 4 is legal but of the other seat, 5 is the seat's but not legal.
        let kept = tree.subtree_keeping(child, 0, &[6, 3, 4]);
        let actions: Vec<u8> = kept.edges(ROOT).iter().map(|e| e.action).collect();
        assert_eq!(actions, vec![3, 6]);
        assert_eq!(kept.len(), 5);
        let grand = kept.edges(ROOT)[1].child;
        assert_eq!(kept.edges(grand)[0].action, 9);
        assert_eq!(tree.subtree(child).len(), 9);
    }

    #[test]
    fn only_the_root_edges_sum_every_seat_and_a_subtree_keeps_them_at_the_root_only() {
        let mut tree: Tree<u8> = Tree::new();
        let a = tree.add_edge(ROOT, 0, 1).unwrap();
        let b = tree.add_edge(ROOT, 0, 2).unwrap();
        let child = tree.edges(ROOT)[a].child;
        tree.add_edge(child, 1, 5).unwrap();
        tree.add_root_reward(a, &[1.0, 0.0]);
        tree.add_root_reward(a, &[0.5, 0.25]);
        tree.add_root_reward(b, &[0.0, 1.0]);
        tree.add_root_reward(7, &[1.0, 1.0]);
        let sums = tree.root_sums(a).unwrap();
        assert_eq!((sums.visits, sums.totals.as_slice()), (2, &[1.5, 0.25][..]));
        assert_eq!(tree.root_sums(2), None);
        let kept = tree.subtree_keeping(ROOT, 0, &[2]);
        assert_eq!(kept.root_sums(0), tree.root_sums(b));
        assert_eq!(kept.root_sums(1), None);
        let deeper = tree.subtree(child);
        assert_eq!(deeper.root_sums(0), Some(&SeatSums::default()));
    }

    #[test]
    fn most_visited_takes_the_first_on_ties() {
        let mut tree: Tree<u8> = Tree::new();
        for (seat, action, visits) in [(0, 1, 3), (0, 2, 5), (1, 3, 5), (0, 4, 5)] {
            let i = tree.add_edge(ROOT, seat, action).unwrap();
            tree.edges_mut(ROOT)[i].visits = visits;
        }
        assert_eq!(tree.most_visited(ROOT, 0).map(|e| e.action), Some(2));
        assert_eq!(tree.most_visited(ROOT, 1).map(|e| e.action), Some(3));
        assert_eq!(tree.most_visited(ROOT, 2).map(|e| e.action), None);
        assert_eq!(tree.most_visited_any(ROOT).map(|e| e.action), Some(2));
    }
}
