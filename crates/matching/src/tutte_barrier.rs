//! A perfect matching grown from a near-perfect one, or Tutte's barrier proving there is none.
//!
//! The Dutch engine's fast path (`arbiter-swiss`, ADR swiss-011) asks, at each decision of a
//! large bracket, whether the players left can still all be paired on the edges its optimal
//! duals allow. Its known optimum, less the pair the question forbids, leaves two or a few
//! players unpaired. From that matching each unpaired vertex (a root) searches for an
//! augmenting path (`edmonds_blossom`): one breadth-first search per root, O(m) plus O(n) per
//! blossom shrunk, instead of a matching from scratch. If every root gets paired, the matching
//! is perfect. Otherwise it is maximum (Berge; a root whose search fails stays unpaired for
//! good, Edmonds' lemma), and one last search grown from all the unpaired vertices at once
//! labels the Gallai–Edmonds forest. That forest is tried first: when no two of its trees
//! meet, there is no augmenting path at all, and the per-root searches are skipped. Its even vertices, grouped by the blossom holding them,
//! are the odd components left once its odd vertices are removed, and they outnumber the odd
//! vertices by the number of unpaired vertices: Tutte's barrier, the certificate that no
//! perfect matching exists.

use std::collections::VecDeque;

use crate::edmonds_blossom::{NONE, augment, find_augmenting_path, lowest_common_ancestor};
use crate::graph::Graph;

/// What [`perfect_or_barrier`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// A perfect matching: `mate[v]` for every vertex (present: see
    /// [`perfect_or_barrier_in`]; `usize::MAX` for the others).
    Perfect(Vec<usize>),
    /// No perfect matching exists. `outer[v]`: for an even vertex of the final search
    /// forest, the blossom holding it (named by its base vertex); `None` for the odd and the
    /// unlabeled vertices. Every edge at an even vertex leads to an odd vertex or stays in its
    /// blossom, each blossom has an odd number of vertices, and the blossoms outnumber the odd
    /// vertices by `free` (> 0), the vertices a maximum matching leaves unpaired.
    Barrier {
        outer: Vec<Option<usize>>,
        free: usize,
    },
    /// Not reached for any graph (the forest of a maximum matching never joins two trees);
    /// answered instead of a claim that could be false, should it ever be.
    Undecided,
}

/// A perfect matching of `g` grown from `start` (its pairs that are symmetric and edges of
/// `g`; the others are dropped), or Tutte's barrier proving that `g` has none. Deterministic;
/// never panics (a `start` of the wrong length is read as far as it goes).
#[must_use]
pub fn perfect_or_barrier(g: &Graph, start: &[Option<usize>]) -> Completion {
    let everybody = vec![true; g.vertex_count()];
    perfect_or_barrier_in(g, &everybody, start, |_, _| true)
}

/// [`perfect_or_barrier`] on a subgraph of `g`: the vertices marked `present` and the edges
/// between them that `edge_ok` accepts (asked either way round; it must answer the same).
/// The vertices not present are ignored: unpaired in [`Completion::Perfect`] and unlabeled in
/// the barrier. One graph then serves a run of questions on shrinking sets of vertices.
#[must_use]
pub fn perfect_or_barrier_in(
    g: &Graph,
    present: &[bool],
    start: &[Option<usize>],
    edge_ok: impl Fn(usize, usize) -> bool,
) -> Completion {
    match first_forest(g, present, start, &edge_ok) {
        FirstForest::Answer(found) => found,
        FirstForest::TreesMet { mate, .. } => augment_and_finish(g, present, mate, &edge_ok),
    }
}

/// Tutte's barrier of the subgraph of [`perfect_or_barrier_in`] when it has no perfect
/// matching, as `(outer, free)` of [`Completion::Barrier`]; `None` when it has one (or, never
/// for any graph, when that is [`Completion::Undecided`]). The same answer without the
/// matching: when `start` leaves exactly two vertices unpaired and their trees meet, the
/// path joining them makes it perfect, and no path is looked for.
#[must_use]
pub fn barrier_in(
    g: &Graph,
    present: &[bool],
    start: &[Option<usize>],
    edge_ok: impl Fn(usize, usize) -> bool,
) -> Option<(Vec<Option<usize>>, usize)> {
    let found = match first_forest(g, present, start, &edge_ok) {
        FirstForest::Answer(found) => found,
        FirstForest::TreesMet { roots: 2, .. } => return None,
        FirstForest::TreesMet { mate, .. } => augment_and_finish(g, present, mate, &edge_ok),
    };
    match found {
        Completion::Barrier { outer, free } => Some((outer, free)),
        Completion::Perfect(_) | Completion::Undecided => None,
    }
}

/// What the forest grown from `start`'s unpaired vertices at once found.
enum FirstForest {
    /// Nobody unpaired (perfect), or no two trees met (the start is maximum and the forest
    /// is the barrier).
    Answer(Completion),
    /// Two trees met: an augmenting path exists. `roots`: how many were unpaired.
    TreesMet { mate: Vec<usize>, roots: usize },
}

/// The start matching of [`perfect_or_barrier_in`] and the forest from all its unpaired
/// vertices at once: if no two of its trees meet, no augmenting path exists, the start is
/// already maximum and the forest is the barrier (one search instead of one per unpaired
/// vertex and then the forest).
fn first_forest(
    g: &Graph,
    present: &[bool],
    start: &[Option<usize>],
    edge_ok: &impl Fn(usize, usize) -> bool,
) -> FirstForest {
    let is = |v: usize| present.get(v).copied().unwrap_or(false);
    let mate = start_matching(g, start, &|u, v| is(u) && is(v) && edge_ok(u, v));
    let roots = unpaired(present, &mate);
    if roots.is_empty() {
        return FirstForest::Answer(Completion::Perfect(mate));
    }
    match gallai_edmonds_forest(g, &mate, &roots, present, edge_ok) {
        Some(base) => FirstForest::Answer(barrier(&base, roots.len())),
        None => FirstForest::TreesMet {
            mate,
            roots: roots.len(),
        },
    }
}

/// After [`first_forest`]'s trees met: each unpaired vertex searches for an augmenting path,
/// then the forest of those still unpaired is the barrier (the matching is maximum).
fn augment_and_finish(
    g: &Graph,
    present: &[bool],
    mut mate: Vec<usize>,
    edge_ok: &impl Fn(usize, usize) -> bool,
) -> Completion {
    let is = |v: usize| present.get(v).copied().unwrap_or(false);
    let ok = |u: usize, v: usize| is(u) && is(v) && edge_ok(u, v);
    for root in 0..g.vertex_count() {
        if is(root)
            && mate[root] == NONE
            && let Some((end, parent)) = find_augmenting_path(root, g, &mate, &ok)
        {
            augment(end, &parent, &mut mate);
        }
    }
    let roots = unpaired(present, &mate);
    if roots.is_empty() {
        return Completion::Perfect(mate);
    }
    // The matching is maximum, so the forest grown from all unpaired vertices at once never
    // joins two trees.
    match gallai_edmonds_forest(g, &mate, &roots, present, edge_ok) {
        Some(base) => barrier(&base, roots.len()),
        None => Completion::Undecided,
    }
}

/// The present vertices `mate` leaves unpaired.
fn unpaired(present: &[bool], mate: &[usize]) -> Vec<usize> {
    (0..mate.len())
        .filter(|&v| present.get(v).copied().unwrap_or(false) && mate[v] == NONE)
        .collect()
}

/// The pairs of `start` that are symmetric, edges of `g` and accepted by `ok`, as a mate
/// array (`NONE`: unpaired).
fn start_matching(
    g: &Graph,
    start: &[Option<usize>],
    ok: &impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    let n = g.vertex_count();
    let mut mate = vec![NONE; n];
    for (v, m) in start.iter().enumerate().take(n) {
        if let Some(u) = *m
            && u < n
            && u != v
            && start.get(u) == Some(&Some(v))
            && mate[v] == NONE
            && mate[u] == NONE
            && g.has_edge(v, u)
            && ok(v, u)
        {
            mate[v] = u;
            mate[u] = v;
        }
    }
    mate
}

/// The barrier of a complete forest ([`gallai_edmonds_forest`]) grown from `free` roots.
fn barrier(base: &[Option<usize>], free: usize) -> Completion {
    Completion::Barrier {
        outer: base.iter().map(|b| b.filter(|&b| b != NONE)).collect(),
        free,
    }
}

/// The forest grown from `roots` (all the vertices `mate` leaves unpaired): for each even
/// vertex, `Some(base of its blossom)`; `Some(NONE)` for odd vertices, `None` for unlabeled
/// ones. `None` if two trees meet: an augmenting path, so `mate` is not maximum. A forest
/// that completes without that proves `mate` maximum (Edmonds).
/// Only the vertices marked `present` take part, and the edges between them `edge_ok` accepts.
fn gallai_edmonds_forest(
    g: &Graph,
    mate: &[usize],
    roots: &[usize],
    present: &[bool],
    edge_ok: &impl Fn(usize, usize) -> bool,
) -> Option<Vec<Option<usize>>> {
    let n = g.vertex_count();
    let mut even = vec![false; n];
    let mut odd = vec![false; n];
    // A neighbour to pass over at once: absent, or odd (read first, in one place: in a
    // forest that ends as a barrier every edge at an even vertex is read, and most lead to
    // odd or absent vertices).
    let mut passed: Vec<bool> = (0..n)
        .map(|v| !present.get(v).copied().unwrap_or(false))
        .collect();
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut mark = vec![false; n];
    let mut root = vec![NONE; n];
    let mut queue: VecDeque<usize> = roots.iter().copied().collect();
    for &r in roots {
        even[r] = true;
        root[r] = r;
    }
    // The labelled vertices: only they can lie in a blossom, so a blossom's shrinking reads
    // them rather than every vertex of the graph (the engine's graphs hold every player,
    // its questions a few thousand of them).
    let mut labelled: Vec<usize> = roots.to_vec();
    let mut marked: Vec<usize> = Vec::new();
    let mut relabelled: Vec<usize> = Vec::new();
    while let Some(v) = queue.pop_front() {
        for to in g.neighbours(v) {
            if passed[to] || base[v] == base[to] || mate[v] == to || !edge_ok(v, to) {
                continue;
            }
            if !even[to] {
                // Unlabeled, so paired (the unpaired vertices are the roots).
                odd[to] = true;
                passed[to] = true;
                parent[to] = v;
                root[to] = root[v];
                let next = mate[to];
                even[next] = true;
                root[next] = root[v];
                queue.push_back(next);
                labelled.push(to);
                labelled.push(next);
                continue;
            }
            // Two even vertices of one tree (the matching is maximum): an odd cycle to shrink.
            if root[v] != root[to] {
                return None;
            }
            let b = lowest_common_ancestor(v, to, &base, mate, &parent);
            for from in [v, to] {
                // Up the tree from blossom base to blossom base (a base's mate is the odd
                // vertex through which its blossom was reached).
                let mut x = base[from];
                while x != b {
                    mark[x] = true;
                    mark[base[mate[x]]] = true;
                    marked.push(x);
                    marked.push(base[mate[x]]);
                    x = base[parent[mate[x]]];
                }
            }
            // The odd vertices of the blossom turn even, queued in the order of their
            // indices (as a scan of every vertex would queue them).
            relabelled.clear();
            relabelled.extend(
                labelled
                    .iter()
                    .copied()
                    .filter(|&i| mark[base[i]] && !even[i]),
            );
            relabelled.sort_unstable();
            for &i in &relabelled {
                even[i] = true;
                odd[i] = false;
                passed[i] = false;
                root[i] = root[v];
                queue.push_back(i);
            }
            for &i in &labelled {
                if mark[base[i]] {
                    base[i] = b;
                }
            }
            for &x in &marked {
                mark[x] = false;
            }
            marked.clear();
        }
    }
    let labels = (0..n)
        .map(|v| {
            if even[v] {
                Some(base[v])
            } else if odd[v] {
                Some(NONE)
            } else {
                None
            }
        })
        .collect();
    Some(labels)
}

/// Whether `outer` and `free` (from [`Completion::Barrier`]) satisfy Tutte's condition on the
/// subgraph of [`perfect_or_barrier_in`]: every edge at an even vertex stays in its blossom or
/// leads to a vertex that is not even, each blossom is odd, and the blossoms outnumber the
/// vertices reached that way by at least `free` > 0. For checks in debug builds and tests.
#[must_use]
pub fn is_barrier_in(
    g: &Graph,
    present: &[bool],
    edge_ok: impl Fn(usize, usize) -> bool,
    outer: &[Option<usize>],
    free: usize,
) -> bool {
    let n = g.vertex_count();
    if outer.len() != n || free == 0 {
        return false;
    }
    let is = |v: usize| present.get(v).copied().unwrap_or(false);
    let mut removed = vec![false; n];
    let mut size = vec![0usize; n];
    for u in 0..n {
        let Some(b) = outer[u] else {
            continue;
        };
        if !is(u) || b >= n {
            return false;
        }
        size[b] += 1;
        for v in g.neighbours(u) {
            if is(v) && edge_ok(u, v) && outer[v] != Some(b) {
                if outer[v].is_some() {
                    return false;
                }
                removed[v] = true;
            }
        }
    }
    let blossoms = size.iter().filter(|&&k| k > 0).count();
    size.iter().all(|&k| k % 2 == 1 || k == 0)
        && blossoms >= removed.iter().filter(|&&r| r).count() + free
}
