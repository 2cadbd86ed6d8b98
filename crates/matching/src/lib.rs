//! Maximum cardinality matching in a general (not necessarily bipartite) graph: Edmonds'
//! blossom algorithm (J. Edmonds, "Paths, trees, and flowers", 1965), O(n³).
//!
//! Where it is used: the Swiss pairing searches of `arbiter-lim` (FIDE C.04.4.3, Lim system),
//! `arbiter-italoswiss` (seed 000, Italo-Swiss system) and `arbiter-draughtsswiss` (FMJD
//! Annex V) walk through candidate pairings in the order their rules prescribe, with the one
//! search of [`ordered_search`] (their rules behind [`PairingOrder`]). Before taking a
//! pairing it asks [`perfectly_matchable`] whether the players left can still all be paired
//! (players are vertices, "may meet" is an edge). That look-ahead changes no result — the search
//! still returns the first complete pairing in the rules' order — it only cuts off branches that
//! cannot succeed, so the search never needs exponential backtracking.
//! [`maximum_matching_size`] tells how many pairs a score group can make at best. The Dutch
//! engine's fast path (`arbiter-swiss`) asks [`perfect_or_barrier_in`] whether the players left
//! can still all be paired on the edges its optimal duals allow, starting from the pairs it
//! already knows, and takes a "no" with its proof (Tutte's barrier).
//!
//! | what | where |
//! |---|---|
//! | the result type: who is paired with whom | [`Matching`] |
//! | a maximum matching, its size, whether a list of players can all be paired | [`maximum_matching`], [`maximum_matching_size`], [`perfectly_matchable`] |
//! | the augmenting-path search with blossom shrinking | `edmonds_blossom` (private) |
//! | the search the Lim, Italo-Swiss and draughts Swiss systems share: the first pairing in a system's order of opponents ([`first_pairing`]), the `k`-subsets of a list in order ([`first_subset`]), a score group paired with the fewest players left out ([`fewest_left_out`]); a system's rules behind [`PairingOrder`] | [`ordered_search`] |
//! | a perfect matching grown from a given one, or Tutte's barrier proving there is none (the Dutch fast path, ADR swiss-011) | [`perfect_or_barrier`], [`perfect_or_barrier_in`], [`barrier_in`] (the barrier alone), [`is_barrier_in`], [`Graph`] |
//!
//! The graph is given as a vertex count `n` (vertices `0..n`) and a predicate `adj(a, b)`.
//! An edge `{a, b}` exists only when `a != b` and `adj(a, b) && adj(b, a)`: a one-sided "yes" is
//! not an edge and a loop is never an edge (`docs/decisions/matching-001-edges-and-determinism.md`).
//! The predicate is called at most once per ordered pair.
//!
//! Pure: no I/O, no clock, no global state, deterministic (the same graph always gives the same
//! matching). No input makes these functions panic (a panic inside the caller's `adj` is the
//! caller's). Memory is O(n + m) for m edges, and `adj` is evaluated O(n²) times.
//!
//! ```
//! // Four players; 1 and 2 have already met, so have 3 and 4.
//! let met = [(1, 2), (3, 4)];
//! let may_meet = |a: usize, b: usize| !met.contains(&(a.min(b), a.max(b)));
//! assert!(matching::perfectly_matchable(&[1, 2, 3, 4], &may_meet));
//! // Players 1, 2, 3 only: odd, so someone is left over.
//! assert!(!matching::perfectly_matchable(&[1, 2, 3], &may_meet));
//! // 1 and 2 alone cannot be paired.
//! assert!(!matching::perfectly_matchable(&[1, 2], &may_meet));
//!
//! let m = matching::maximum_matching(4, &|a, b| (a + b) % 2 == 1); // even–odd pairs only
//! assert_eq!(m.size(), 2);
//! assert_eq!(m.pairs().collect::<Vec<_>>(), vec![(0, 1), (2, 3)]);
//! ```

mod edmonds_blossom;
mod graph;
pub mod ordered_search;
mod tutte_barrier;

pub use graph::Graph;
pub use ordered_search::{
    GroupPairing, OrderedPairing, PairingOrder, SubsetTry, fewest_left_out, first_pairing,
    first_subset,
};
pub use tutte_barrier::{
    Completion, barrier_in, is_barrier_in, perfect_or_barrier, perfect_or_barrier_in,
};

/// A matching of the vertices `0..n`: a set of disjoint pairs, each of them an edge.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Matching {
    /// `mate[v]` is the vertex paired with `v`, if any; `mate[mate[v]] == v`.
    mate: Vec<Option<usize>>,
}

impl Matching {
    /// Number of vertices of the graph this matching belongs to.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.mate.len()
    }

    /// Number of pairs.
    #[must_use]
    pub fn size(&self) -> usize {
        self.mate.iter().flatten().count() / 2
    }

    /// The vertex paired with `v`; `None` when `v` is unpaired or not a vertex (`v >= n`).
    #[must_use]
    pub fn mate(&self, v: usize) -> Option<usize> {
        self.mate.get(v).copied().flatten()
    }

    /// The pairs `(a, b)` with `a < b`, in ascending order of `a`.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.mate
            .iter()
            .enumerate()
            .filter_map(|(a, &m)| m.filter(|&b| a < b).map(|b| (a, b)))
    }

    /// The vertices left unpaired, in ascending order.
    pub fn unmatched(&self) -> impl Iterator<Item = usize> + '_ {
        self.mate
            .iter()
            .enumerate()
            .filter_map(|(v, m)| m.is_none().then_some(v))
    }

    /// Whether every vertex is paired (true for the empty graph).
    #[must_use]
    pub fn is_perfect(&self) -> bool {
        self.mate.iter().all(Option::is_some)
    }
}

/// A maximum matching (one with as many pairs as possible) of the graph on `0..n` whose edges
/// are the pairs `{a, b}`, `a != b`, with `adj(a, b) && adj(b, a)`.
///
/// Which maximum matching is returned when there are several is deterministic but not otherwise
/// specified; callers that need a particular one (a rules' order) must search for it themselves.
#[must_use]
pub fn maximum_matching(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Matching {
    let edges = edmonds_blossom::adjacency_lists(n, adj);
    let mate = edmonds_blossom::grow_matching(&edges, false);
    Matching { mate }
}

/// Size (number of pairs) of a maximum matching of the graph on `0..n` with edges `adj`
/// (see [`maximum_matching`] for what counts as an edge).
#[must_use]
pub fn maximum_matching_size(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> usize {
    maximum_matching(n, adj).size()
}

/// Whether the players `list` can all be paired: whether the graph whose vertices are the
/// positions of `list` and whose edges are the pairs of positions `{i, j}` with
/// `adj(list[i], list[j]) && adj(list[j], list[i])` has a perfect matching.
///
/// `list` holds indices into whatever `adj` reads (pairing numbers, indices into a state). An
/// odd-length list is never perfectly matchable; the empty list is. A value repeated in `list`
/// stands for two vertices, joined only if `adj(x, x)` is true. Stops at the first player who
/// provably cannot be paired, so a "no" is usually cheaper than a full matching.
#[must_use]
pub fn perfectly_matchable(list: &[usize], adj: &dyn Fn(usize, usize) -> bool) -> bool {
    if !list.len().is_multiple_of(2) {
        return false;
    }
    let edges = edmonds_blossom::adjacency_lists(list.len(), &|a, b| adj(list[a], list[b]));
    edmonds_blossom::grow_matching(&edges, true)
        .iter()
        .all(Option::is_some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(usize, usize)]) -> impl Fn(usize, usize) -> bool + '_ {
        |a, b| edges.contains(&(a, b)) || edges.contains(&(b, a))
    }

    #[test]
    fn empty_graph_has_the_empty_perfect_matching() {
        let m = maximum_matching(0, &|_, _| true);
        assert_eq!(m.size(), 0);
        assert!(m.is_perfect());
        assert!(perfectly_matchable(&[], &|_, _| false));
    }

    #[test]
    fn single_vertex_and_loops_are_never_matched() {
        let m = maximum_matching(1, &|_, _| true);
        assert_eq!(m.size(), 0);
        assert_eq!(m.mate(0), None);
        assert_eq!(m.unmatched().collect::<Vec<_>>(), vec![0]);
        // A repeated player is two vertices joined by adj(x, x).
        assert!(!perfectly_matchable(&[4, 4], &|a, b| a != b));
        assert!(perfectly_matchable(&[4, 4], &|_, _| true));
    }

    #[test]
    fn one_sided_adjacency_is_not_an_edge() {
        // adj(0, 1) but not adj(1, 0): no edge (ADR matching-001).
        let m = maximum_matching(2, &|a, b| a < b);
        assert_eq!(m.size(), 0);
        assert!(!perfectly_matchable(&[0, 1], &|a, b| a < b));
    }

    #[test]
    fn triangle_matches_one_pair() {
        let e = [(0, 1), (1, 2), (2, 0)];
        assert_eq!(maximum_matching_size(3, &graph(&e)), 1);
        assert!(!perfectly_matchable(&[0, 1, 2], &graph(&e)));
    }

    #[test]
    fn odd_cycle_with_three_pendants_leaves_two_players_unpaired() {
        // 5-cycle 0-1-2-3-4-0 with pendants 7 on 0, 5 on 2, 6 on 4. Covering the pendants forces
        // 0-7, 2-5, 4-6, and then 1 and 3 (not adjacent) are left: 3 pairs of 8 vertices, and no
        // perfect matching (4 pairs would have to cover the pendants too).
        let e = [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (2, 5),
            (4, 6),
            (0, 7),
        ];
        let m = maximum_matching(8, &graph(&e));
        assert_eq!(m.size(), 3);
        assert!(!m.is_perfect());
        assert_valid(&m, &graph(&e));
        assert!(!perfectly_matchable(
            &(0..8).collect::<Vec<_>>(),
            &graph(&e)
        ));
    }

    #[test]
    fn augmenting_path_around_an_odd_cycle_needs_blossom_shrinking() {
        // 5-cycle 4-0-1-2-3-4 plus the pendant 5 on 0. The greedy start pairs 0-1 and 2-3 and
        // leaves 4 and 5 exposed. The only augmenting path is 4-3=2-1=0-5: it reaches 0 the long
        // way round the odd cycle, while a plain alternating tree from 4 reaches 0 first through
        // the edge 4-0 (odd level) and would never find 5. Shrinking the blossom (base 4) finds
        // it, giving the unique perfect matching {0-5, 1-2, 3-4}.
        let e = [(4, 0), (0, 1), (1, 2), (2, 3), (3, 4), (0, 5)];
        let m = maximum_matching(6, &graph(&e));
        assert_eq!(m.pairs().collect::<Vec<_>>(), vec![(0, 5), (1, 2), (3, 4)]);
        assert!(m.is_perfect());
        assert!(perfectly_matchable(&[0, 1, 2, 3, 4, 5], &graph(&e)));
    }

    #[test]
    fn petersen_graph_has_a_perfect_matching() {
        // Outer 5-cycle 0..4, inner pentagram 5..9, spokes i-(i+5).
        let mut e = Vec::new();
        for i in 0..5 {
            e.push((i, (i + 1) % 5));
            e.push((5 + i, 5 + (i + 2) % 5));
            e.push((i, i + 5));
        }
        let adj = graph(&e);
        let m = maximum_matching(10, &adj);
        assert!(m.is_perfect());
        assert_valid(&m, &adj);
        assert!(perfectly_matchable(&(0..10).collect::<Vec<_>>(), &adj));
    }

    #[test]
    fn perfectly_matchable_reads_the_list_values() {
        // Players 10, 20, 30, 40 where only 10-40 and 20-30 may meet.
        let adj = |a: usize, b: usize| matches!((a.min(b), a.max(b)), (10, 40) | (20, 30));
        assert!(perfectly_matchable(&[10, 20, 30, 40], &adj));
        assert!(!perfectly_matchable(&[10, 20, 30], &adj));
        assert!(!perfectly_matchable(&[10, 20], &adj));
    }

    #[test]
    fn mate_of_a_non_vertex_is_none() {
        let m = maximum_matching(2, &|_, _| true);
        assert_eq!(m.mate(0), Some(1));
        assert_eq!(m.mate(2), None);
        assert_eq!(m.mate(usize::MAX), None);
        assert_eq!(m.vertex_count(), 2);
    }

    fn assert_valid(m: &Matching, adj: &dyn Fn(usize, usize) -> bool) {
        for (a, b) in m.pairs() {
            assert!(adj(a, b) && adj(b, a), "{a}-{b} is not an edge");
            assert_eq!(m.mate(a), Some(b));
            assert_eq!(m.mate(b), Some(a));
        }
    }
}
