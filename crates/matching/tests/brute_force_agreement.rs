//! Properties of the blossom matcher, checked against an exhaustive matcher on small graphs.

use matching::{
    Completion, Matching, barrier_in, is_barrier_in, maximum_matching, maximum_matching_size,
    perfect_or_barrier, perfect_or_barrier_in, perfectly_matchable,
};
use proptest::prelude::*;

/// A graph on `0..n` given by an upper-triangular bit set: bit `index(a, b)` says whether
/// `{a, b}` is an edge.
#[derive(Debug, Clone)]
struct Graph {
    n: usize,
    bits: Vec<bool>,
}

impl Graph {
    fn index(a: usize, b: usize) -> usize {
        let (lo, hi) = (a.min(b), a.max(b));
        hi * (hi - 1) / 2 + lo
    }

    fn has_edge(&self, a: usize, b: usize) -> bool {
        a != b && a < self.n && b < self.n && self.bits[Self::index(a, b)]
    }

    fn add_edge(&mut self, a: usize, b: usize) {
        if a != b {
            self.bits[Self::index(a, b)] = true;
        }
    }
}

/// Random graphs of up to `max_n` vertices: half sparse (edge probability up to 30 %), half of
/// any density up to complete.
fn graphs(max_n: usize) -> impl Strategy<Value = Graph> {
    (0..=max_n, prop_oneof![0u32..=30, 0u32..=100]).prop_flat_map(|(n, percent)| {
        let pairs = n * n.saturating_sub(1) / 2;
        proptest::collection::vec((0u32..100).prop_map(move |r| r < percent), pairs..=pairs)
            .prop_map(move |bits| Graph { n, bits })
    })
}

/// Graphs where blossoms matter: an odd cycle through randomly labelled vertices, trees hanging
/// off it (each further vertex joined to a random earlier one), and a little random noise.
/// Random graphs rarely force an augmenting path through an odd cycle once the greedy start has
/// run; these often do (a matcher that ignores blossoms fails here within a few cases).
fn blossom_graphs(max_n: usize) -> impl Strategy<Value = Graph> {
    (5..=max_n).prop_flat_map(|n| {
        let pairs = n * (n - 1) / 2;
        (
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            1..=(n - 1) / 2,
            proptest::collection::vec(any::<prop::sample::Index>(), n),
            proptest::collection::vec(0u32..100, pairs),
            0u32..=8,
        )
            .prop_map(move |(order, half, attach, noise, noise_percent)| {
                let mut g = Graph {
                    n,
                    bits: noise.iter().map(|&r| r < noise_percent).collect(),
                };
                let cycle = 2 * half + 1;
                for i in 0..cycle {
                    g.add_edge(order[i], order[(i + 1) % cycle]);
                }
                for j in cycle..n {
                    g.add_edge(order[j], order[attach[j].index(j)]);
                }
                g
            })
    })
}

/// Exhaustive maximum matching size over vertex subsets (memoised on the set of vertices still
/// free): the lowest free vertex is either left unpaired or paired with a free neighbour.
fn brute_force_size(g: &Graph) -> usize {
    fn best(g: &Graph, free: u32, memo: &mut [Option<usize>]) -> usize {
        if free == 0 {
            return 0;
        }
        if let Some(known) = memo[free as usize] {
            return known;
        }
        let v = free.trailing_zeros() as usize;
        let rest = free & !(1 << v);
        let mut result = best(g, rest, memo);
        for u in (v + 1)..g.n {
            if rest & (1 << u) != 0 && g.has_edge(v, u) {
                result = result.max(1 + best(g, rest & !(1 << u), memo));
            }
        }
        memo[free as usize] = Some(result);
        result
    }
    assert!(g.n <= 16, "brute force is for small graphs");
    let mut memo = vec![None; 1 << g.n];
    best(g, (1u32 << g.n) - 1, &mut memo)
}

fn assert_is_a_matching_of(m: &Matching, g: &Graph) -> Result<(), TestCaseError> {
    prop_assert_eq!(m.vertex_count(), g.n);
    for v in 0..g.n {
        if let Some(u) = m.mate(v) {
            prop_assert!(g.has_edge(v, u), "{}-{} is not an edge", v, u);
            prop_assert_eq!(m.mate(u), Some(v));
        }
    }
    let pairs: Vec<_> = m.pairs().collect();
    prop_assert_eq!(pairs.len(), m.size());
    prop_assert_eq!(m.unmatched().count(), g.n - 2 * m.size());
    prop_assert_eq!(m.is_perfect(), 2 * m.size() == g.n);
    Ok(())
}

/// The edges of `g` as pairs (a < b).
fn edge_list(g: &Graph) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for b in 0..g.n {
        for a in 0..b {
            if g.has_edge(a, b) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// A start for [`perfect_or_barrier`] from a seed: some pairs of a maximum matching, some
/// random pairs that need not be edges, some one-sided entries (all of which it must cope with).
fn start_from(g: &Graph, seed: u64) -> Vec<Option<usize>> {
    let m = maximum_matching(g.n, &|a, b| g.has_edge(a, b));
    let mut s = seed;
    let mut next = move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 33) as usize
    };
    let mut start = vec![None; g.n];
    for (a, b) in m.pairs() {
        if next() % 4 != 0 {
            start[a] = Some(b);
            start[b] = Some(a);
        }
    }
    if g.n >= 2 && next() % 3 == 0 {
        let (a, b) = (next() % g.n, next() % g.n);
        start[a] = Some(b);
    }
    start
}

/// A subgraph of `g` drawn from `seed`: about `absent_percent` % of the vertices left out
/// (`present` marks the others) and about `cut_percent` % of the edges between those left
/// cut. Its edges are the `edge_ok` of the `_in` functions.
fn subgraph(g: &Graph, seed: u64, absent_percent: u64, cut_percent: u64) -> (Vec<bool>, Graph) {
    let hash = |a: u64, b: u64| {
        (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ seed)
            .wrapping_mul(0x2545_F491_4F6C_DD1D)
            >> 40
    };
    let present: Vec<bool> = (0..g.n)
        .map(|v| hash(v as u64, 1 << 20) % 100 >= absent_percent)
        .collect();
    let mut sub = Graph {
        n: g.n,
        bits: vec![false; g.bits.len()],
    };
    for (a, b) in edge_list(g) {
        if present[a] && present[b] && hash(a.min(b) as u64, a.max(b) as u64) % 100 >= cut_percent {
            sub.add_edge(a, b);
        }
    }
    (present, sub)
}

/// Checks Tutte's condition for the barrier `outer`: every edge at an even vertex leads inside
/// its blossom or to a vertex of S (the non-even vertices reached that way), each blossom is odd,
/// and the blossoms outnumber S by `free`, which is what a maximum matching leaves unpaired.
fn assert_is_a_barrier(
    g: &Graph,
    outer: &[Option<usize>],
    free: usize,
    expected_free: usize,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(free, expected_free);
    prop_assert!(free > 0);
    let mut s = vec![false; g.n];
    for (a, b) in edge_list(g) {
        for (x, y) in [(a, b), (b, a)] {
            if outer[x].is_some() && outer[x] != outer[y] {
                prop_assert!(outer[y].is_none(), "{}-{} joins two blossoms", x, y);
                s[y] = true;
            }
        }
    }
    let mut size = vec![0usize; g.n];
    for b in outer.iter().flatten() {
        size[*b] += 1;
    }
    prop_assert!(
        size.iter().all(|&k| k == 0 || k % 2 == 1),
        "an even blossom"
    );
    let blossoms = size.iter().filter(|&&k| k > 0).count();
    let removed = s.iter().filter(|&&x| x).count();
    prop_assert!(
        blossoms >= removed + free,
        "{} blossoms, {} removed",
        blossoms,
        removed
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `perfect_or_barrier` from any start: a valid perfect matching exactly when the brute
    /// force says there is one, otherwise a valid Tutte barrier.
    #[test]
    fn perfect_or_barrier_agrees_with_brute_force(
        g in prop_oneof![graphs(12), blossom_graphs(14)],
        seed in any::<u64>(),
    ) {
        let graph = matching::Graph::from_edges(g.n, edge_list(&g));
        let maximum = brute_force_size(&g);
        match perfect_or_barrier(&graph, &start_from(&g, seed)) {
            Completion::Perfect(mate) => {
                prop_assert_eq!(2 * maximum, g.n);
                for (v, &u) in mate.iter().enumerate() {
                    prop_assert!(g.has_edge(v, u), "{}-{} is not an edge", v, u);
                    prop_assert_eq!(mate[u], v);
                }
            }
            Completion::Barrier { outer, free } => {
                assert_is_a_barrier(&g, &outer, free, g.n - 2 * maximum)?;
                prop_assert!(is_barrier_in(&graph, &vec![true; g.n], |_, _| true, &outer, free));
            }
            Completion::Undecided => prop_assert!(false, "undecided"),
        }
    }

    /// `perfect_or_barrier_in` on some vertices and some edges of a graph answers as
    /// `perfect_or_barrier` would on that subgraph.
    #[test]
    fn perfect_or_barrier_in_answers_for_the_subgraph(
        g in prop_oneof![graphs(12), blossom_graphs(14)],
        seed in any::<u64>(),
        absent_percent in 0u64..40,
        cut_percent in 0u64..40,
    ) {
        let (present, sub) = subgraph(&g, seed, absent_percent, cut_percent);
        let kept = |a: usize, b: usize| sub.has_edge(a, b);
        let graph = matching::Graph::from_edges(g.n, edge_list(&g));
        let count = present.iter().filter(|&&p| p).count();
        let maximum = brute_force_size(&sub);
        match perfect_or_barrier_in(&graph, &present, &start_from(&g, seed), kept) {
            Completion::Perfect(mate) => {
                prop_assert_eq!(2 * maximum, count);
                for v in (0..g.n).filter(|&v| present[v]) {
                    prop_assert!(sub.has_edge(v, mate[v]), "{}-{} is not an edge", v, mate[v]);
                    prop_assert_eq!(mate[mate[v]], v);
                }
            }
            Completion::Barrier { outer, free } => {
                for v in (0..g.n).filter(|&v| !present[v]) {
                    prop_assert_eq!(outer[v], None);
                }
                assert_is_a_barrier(&sub, &outer, free, count - 2 * maximum)?;
                prop_assert!(is_barrier_in(&graph, &present, kept, &outer, free));
            }
            Completion::Undecided => prop_assert!(false, "undecided"),
        }
    }

    /// `barrier_in` (the barrier alone) answers as the brute force does on a subgraph: a
    /// valid Tutte barrier exactly when it has no perfect matching. Its starts are a maximum
    /// matching of the whole graph less one pair (often two vertices left unpaired, the case
    /// it answers without looking for the path) or `start_from`'s.
    #[test]
    fn barrier_in_agrees_with_brute_force(
        g in prop_oneof![graphs(12), blossom_graphs(14)],
        seed in any::<u64>(),
        absent_percent in 0u64..30,
        cut_percent in 0u64..30,
        less_one_pair in any::<bool>(),
    ) {
        let (present, sub) = subgraph(&g, seed, absent_percent, cut_percent);
        let kept = |a: usize, b: usize| sub.has_edge(a, b);
        let start = if less_one_pair {
            let m = maximum_matching(g.n, &|a, b| sub.has_edge(a, b));
            let mut start = vec![None; g.n];
            for (a, b) in m.pairs().skip(1) {
                start[a] = Some(b);
                start[b] = Some(a);
            }
            start
        } else {
            start_from(&g, seed)
        };
        let graph = matching::Graph::from_edges(g.n, edge_list(&g));
        let count = present.iter().filter(|&&p| p).count();
        let maximum = brute_force_size(&sub);
        match barrier_in(&graph, &present, &start, kept) {
            None => prop_assert_eq!(2 * maximum, count),
            Some((outer, free)) => {
                assert_is_a_barrier(&sub, &outer, free, count - 2 * maximum)?;
                prop_assert!(is_barrier_in(&graph, &present, kept, &outer, free));
            }
        }
    }

    /// The blossom matcher returns a valid matching of exactly the brute-force maximum size.
    #[test]
    fn maximum_matching_agrees_with_brute_force(g in prop_oneof![graphs(12), blossom_graphs(14)]) {
        let m = maximum_matching(g.n, &|a, b| g.has_edge(a, b));
        assert_is_a_matching_of(&m, &g)?;
        prop_assert_eq!(m.size(), brute_force_size(&g));
        prop_assert_eq!(maximum_matching_size(g.n, &|a, b| g.has_edge(a, b)), m.size());
    }

    /// `perfectly_matchable` (which may stop early) agrees with the brute force, on lists that
    /// name the vertices in any order.
    #[test]
    fn perfectly_matchable_agrees_with_brute_force(
        g in prop_oneof![graphs(12), blossom_graphs(14)],
        seed in any::<u64>(),
    ) {
        let mut list: Vec<usize> = (0..g.n).collect();
        // A deterministic shuffle from the seed.
        let mut s = seed;
        for i in (1..list.len()).rev() {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            list.swap(i, (s >> 33) as usize % (i + 1));
        }
        let expected = 2 * brute_force_size(&g) == g.n;
        prop_assert_eq!(perfectly_matchable(&list, &|a, b| g.has_edge(a, b)), expected);
    }

    /// Only two-sided adjacency is an edge: a one-sided predicate gives the same matching as its
    /// symmetric part.
    #[test]
    fn one_sided_adjacency_counts_as_no_edge(g in graphs(10), h in graphs(10)) {
        // `g` says a→b for a < b and `h` says a→b for a > b; the edge needs both.
        let n = g.n.min(h.n);
        let directed = |a: usize, b: usize| {
            if a < b { g.has_edge(a, b) } else { h.has_edge(a, b) }
        };
        let both = |a: usize, b: usize| g.has_edge(a, b) && h.has_edge(a, b);
        prop_assert_eq!(maximum_matching(n, &directed), maximum_matching(n, &both));
    }

    /// Deterministic: the same graph gives the same matching.
    #[test]
    fn same_graph_same_matching(g in graphs(14)) {
        let first = maximum_matching(g.n, &|a, b| g.has_edge(a, b));
        let second = maximum_matching(g.n, &|a, b| g.has_edge(a, b));
        prop_assert_eq!(first, second);
    }

    /// Larger graphs (beyond the brute force): the result is a valid matching that leaves no two
    /// adjacent vertices unpaired (a maximum matching is maximal).
    #[test]
    fn larger_graphs_give_maximal_valid_matchings(g in graphs(40)) {
        let m = maximum_matching(g.n, &|a, b| g.has_edge(a, b));
        assert_is_a_matching_of(&m, &g)?;
        let free: Vec<usize> = m.unmatched().collect();
        for (i, &a) in free.iter().enumerate() {
            for &b in &free[i + 1..] {
                prop_assert!(!g.has_edge(a, b), "{}-{} both unpaired", a, b);
            }
        }
    }
}

/// Complete graphs: ⌊n/2⌋ pairs; perfect exactly for even n.
#[test]
fn complete_graphs() {
    for n in 0..30 {
        assert_eq!(maximum_matching_size(n, &|_, _| true), n / 2);
        let list: Vec<usize> = (0..n).collect();
        assert_eq!(perfectly_matchable(&list, &|_, _| true), n % 2 == 0);
    }
}

/// Odd cycles C(2k+1) have k pairs; even cycles are perfect. Cycles are where blossoms arise.
#[test]
fn cycles() {
    for n in 3..30 {
        let adj = |a: usize, b: usize| (a + 1) % n == b || (b + 1) % n == a;
        assert_eq!(maximum_matching_size(n, &adj), n / 2, "cycle of {n}");
    }
}

/// Every labelled graph on up to 6 vertices (2^15 graphs on 6): the blossom matcher and
/// `perfectly_matchable` agree with the brute force, and the matching is valid.
#[test]
fn every_graph_on_up_to_six_vertices() {
    for n in 0..=6usize {
        let pairs = n * n.saturating_sub(1) / 2;
        for code in 0u32..(1 << pairs) {
            let g = Graph {
                n,
                bits: (0..pairs).map(|i| code & (1 << i) != 0).collect(),
            };
            let m = maximum_matching(n, &|a, b| g.has_edge(a, b));
            let expected = brute_force_size(&g);
            assert_eq!(m.size(), expected, "{g:?}");
            assert!(assert_is_a_matching_of(&m, &g).is_ok(), "{g:?}");
            let list: Vec<usize> = (0..n).collect();
            assert_eq!(
                perfectly_matchable(&list, &|a, b| g.has_edge(a, b)),
                2 * expected == n,
                "{g:?}"
            );
        }
    }
}
