//! Edmonds' blossom algorithm (1965) for maximum cardinality matching, O(n³).
//!
//! Berge's theorem: a matching is maximum exactly when no augmenting path (an alternating path
//! between two unpaired vertices) exists. Starting from a greedy matching, the algorithm looks
//! for an augmenting path from each unpaired vertex ("root") in turn by growing an alternating
//! tree breadth-first. When the search closes an odd cycle (a "blossom"), the cycle is shrunk to
//! its base — every vertex of it becomes reachable at even distance — and the search goes on.
//! An unpaired vertex from which no augmenting path exists stays unpaired for good (Edmonds'
//! lemma), so each root is tried once.
//!
//! Internally "no vertex" is the sentinel [`NONE`]; the public [`crate::Matching`] uses `Option`.

use std::collections::VecDeque;

use crate::graph::Graph;

/// "No vertex" in the internal arrays.
pub(crate) const NONE: usize = usize::MAX;

/// The graph on `0..n` whose edges are the pairs `{a, b}`, `a != b`, with
/// `adj(a, b) && adj(b, a)` (neighbours ascending). `adj` is called at most once per ordered
/// pair.
pub(crate) fn adjacency_lists(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Graph {
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if adj(a, b) && adj(b, a) {
                pairs.push((a, b));
            }
        }
    }
    Graph::from_edges(n, pairs)
}

/// A maximum matching of the graph `edges` (`mate[v]`, `None` when `v` is unpaired).
///
/// With `stop_at_first_unmatchable`, returns as soon as some vertex is known to be unpaired in
/// every maximum matching (the result then has that vertex unpaired and is not necessarily
/// maximum): enough to answer "is there a perfect matching?" early.
pub(crate) fn grow_matching(edges: &Graph, stop_at_first_unmatchable: bool) -> Vec<Option<usize>> {
    let n = edges.vertex_count();
    let mut mate = vec![NONE; n];
    // Greedy start: pair each vertex with its first unpaired neighbour.
    for v in 0..n {
        if mate[v] == NONE
            && let Some(u) = edges.neighbours(v).find(|&u| mate[u] == NONE)
        {
            mate[v] = u;
            mate[u] = v;
        }
    }
    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        match find_augmenting_path(root, edges, &mate, &|_, _| true) {
            Some((end, parent)) => augment(end, &parent, &mut mate),
            None if stop_at_first_unmatchable => break,
            None => {}
        }
    }
    mate.into_iter().map(|m| (m != NONE).then_some(m)).collect()
}

/// Flips the augmenting path that ends at the unpaired vertex `end` and leads back to the root
/// through `parent` (from an odd vertex) and `mate` (from an even one): one more pair.
pub(crate) fn augment(end: usize, parent: &[usize], mate: &mut [usize]) {
    let mut v = end;
    while v != NONE {
        let pv = parent[v];
        let next = mate[pv];
        mate[v] = pv;
        mate[pv] = v;
        v = next;
    }
}

/// Breadth-first search for an augmenting path from the unpaired vertex `root`, on the edges
/// of `edges` that `edge_ok` accepts; returns its other end and the parent array to walk it
/// back ([`augment`]).
///
/// Even vertices are the root and the mates of odd vertices; `parent[v]` is the tree edge into
/// an odd vertex `v` (and, once a blossom is shrunk, into its even vertices across the closing
/// edge). `base[v]` is the base of the shrunk blossom containing `v` (`v` itself if none).
pub(crate) fn find_augmenting_path(
    root: usize,
    edges: &Graph,
    mate: &[usize],
    edge_ok: &impl Fn(usize, usize) -> bool,
) -> Option<(usize, Vec<usize>)> {
    let n = edges.vertex_count();
    let mut in_tree = vec![false; n];
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    in_tree[root] = true;
    let mut queue = VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        for to in edges.neighbours(v) {
            if base[v] == base[to] || mate[v] == to || !edge_ok(v, to) {
                continue;
            }
            let to_is_even = to == root || (mate[to] != NONE && parent[mate[to]] != NONE);
            if to_is_even {
                // Two even vertices joined: an odd cycle. Shrink it to its base.
                let blossom_base = lowest_common_ancestor(v, to, &base, mate, &parent);
                let mut in_blossom = vec![false; n];
                mark_blossom_path(
                    v,
                    blossom_base,
                    to,
                    &mut in_blossom,
                    &base,
                    mate,
                    &mut parent,
                );
                mark_blossom_path(
                    to,
                    blossom_base,
                    v,
                    &mut in_blossom,
                    &base,
                    mate,
                    &mut parent,
                );
                for i in 0..n {
                    if in_blossom[base[i]] {
                        base[i] = blossom_base;
                        if !in_tree[i] {
                            in_tree[i] = true;
                            queue.push_back(i);
                        }
                    }
                }
            } else if parent[to] == NONE {
                parent[to] = v;
                if mate[to] == NONE {
                    return Some((to, parent));
                }
                let next = mate[to];
                in_tree[next] = true;
                queue.push_back(next);
            }
        }
    }
    None
}

/// The base of the blossom closed by the edge `a`–`b` between two even vertices: the first
/// blossom base on `b`'s path back to the root that also lies on `a`'s.
pub(crate) fn lowest_common_ancestor(
    mut a: usize,
    mut b: usize,
    base: &[usize],
    mate: &[usize],
    parent: &[usize],
) -> usize {
    let mut on_path_of_a = vec![false; base.len()];
    loop {
        a = base[a];
        on_path_of_a[a] = true;
        if mate[a] == NONE {
            break; // the root
        }
        a = parent[mate[a]];
    }
    loop {
        b = base[b];
        if on_path_of_a[b] {
            return b;
        }
        b = parent[mate[b]];
    }
}

/// Walks from `v` up to the blossom base `blossom_base`, marking the blossoms passed and
/// pointing the parents of the (formerly even) vertices across the closing edge, so that an
/// augmenting path can later be walked back through the blossom either way round.
fn mark_blossom_path(
    mut v: usize,
    blossom_base: usize,
    mut child: usize,
    in_blossom: &mut [bool],
    base: &[usize],
    mate: &[usize],
    parent: &mut [usize],
) {
    while base[v] != blossom_base {
        in_blossom[base[v]] = true;
        in_blossom[base[mate[v]]] = true;
        parent[v] = child;
        child = mate[v];
        v = parent[mate[v]];
    }
}
