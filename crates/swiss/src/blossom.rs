//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with dual
//! variables (the O(n³) primal–dual method of Gabow/Galil), written for this crate.
//!
//! Weights are [`WideN`] unsigned integers; every weight must be even (bit 0 clear) so that
//! the dual updates on S–S edges (half the slack) stay exact. The result maximises the
//! total weight; the caller makes maximum cardinality the top-priority field.

use crate::two_threads::{DropWatch, found_in_halves, in_halves};
use crate::weight::WideN;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NO: isize = -1;

/// How a vertex's dual moves with a stage's deltas ([`Matcher::dual`]): an S-vertex's falls
/// by each, a T-vertex's rises by each, an unlabelled one's stays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moving {
    Still,
    Falls,
    Rises,
}

/// From this many vertices the search augments and goes on in one stage
/// ([`Matcher::augment_and_go_on`], ADR swiss-026); smaller searches end a stage at each
/// augmenting path, which costs them less (a 100-player round's brackets: 2.7 against
/// 3.7 ms).
const GO_ON_FROM: usize = 256;

/// From this many vertices the search keeps its vertex duals lazily and its delta
/// candidates in heaps ([`Matcher::dual`], ADR swiss-026); smaller ones move the duals of
/// every labelled vertex at each delta step, which costs them less.
const LAZY_FROM: usize = 1024;

/// An undirected weighted edge between vertices `u` and `v`.
///
/// The ends are 32-bit: the engine's largest edge lists (a 9,999-player bracket's millions
/// of pairs) take 8 bytes less per edge than with `usize` ends (40 instead of 48 at four
/// limbs). Build it with [`Edge::new`], read the ends with [`Edge::u`] and [`Edge::v`].
#[derive(Debug, Clone, Copy)]
pub struct Edge<const L: usize = 8> {
    u: u32,
    v: u32,
    pub w: WideN<L>,
}

impl<const L: usize> Edge<L> {
    /// The edge (u, v) of weight `w`; vertex numbers must fit in 32 bits (the engine's are
    /// below 10,001).
    #[inline]
    pub fn new(u: usize, v: usize, w: WideN<L>) -> Self {
        debug_assert!(u <= u32::MAX as usize && v <= u32::MAX as usize);
        Edge {
            u: u as u32,
            v: v as u32,
            w,
        }
    }

    /// One end.
    #[inline]
    pub fn u(&self) -> usize {
        self.u as usize
    }

    /// The other end.
    #[inline]
    pub fn v(&self) -> usize {
        self.v as usize
    }
}

/// Returns `mate[v]` (the partner of each vertex, or `None`).
pub fn max_weight_matching<const L: usize>(n: usize, edges: &[Edge<L>]) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    m.mates()
}

/// Optimal dual solution of a maximum-weight matching (LP certificate): for any matching M
/// containing edge (u, v), w(M) ≤ optimum − reduced_cost(u, v). Scaled as in the solver:
/// twice the vertex duals, blossom duals as they are.
///
/// A certificate of a warm-started (perfect) matching has `shift` > 0: its vertex duals are
/// those of the weights raised by `shift` (duals of a perfect matching may be negative; the
/// shift keeps them unsigned), and its bound holds for perfect matchings.
#[derive(Debug, Clone)]
pub struct Certificate<const L: usize> {
    /// 2 × vertex dual (of the weights raised by `shift`).
    pub vertex: Vec<WideN<L>>,
    /// Chains of nested blossoms, outermost first, shared by the vertices they hold: each
    /// vertex's chain is a prefix of one of them ([`Certificate::chain`]). Nests are deep
    /// in degenerate brackets (about 1,500 blossoms at 9,999 players): a chain per vertex
    /// took n × depth entries, half a gigabyte there. Shared, a nest that goes on through
    /// each blossom's first sub-blossom is one path; each further sub-blossom that is a
    /// blossom copies its parent's chain.
    pub paths: Vec<Vec<Link<L>>>,
    /// For each vertex: the path holding its chain and how many of its blossoms hold the
    /// vertex (0: none).
    pub chain_of: Vec<(u32, u32)>,
    /// Added to every edge weight (0 for a cold solve).
    pub shift: WideN<L>,
}

/// One blossom of a chain: its id, its dual and the sum of its dual and of the duals of
/// every blossom containing it.
pub type Link<const L: usize> = (usize, WideN<L>, WideN<L>);

impl<const L: usize> Certificate<L> {
    /// Twice the dual objective: the vertex duals (doubled already) and each blossom's dual
    /// times its size less one. Every perfect matching of the graph the duals cover weighs at
    /// most half of it (weights raised by `shift`); in 8 limbs, which hold the sum of any
    /// narrower certificate.
    pub fn doubled_objective(&self) -> WideN<8> {
        let mut sum = self
            .vertex
            .iter()
            .fold(WideN::<8>::ZERO, |s, d| s.plus(d.narrow::<8>()));
        // The vertices whose chain ends at each position of each path; a blossom holds
        // those whose chain ends at or below its position, on every path that lists it.
        let mut ends: Vec<Vec<u64>> = self.paths.iter().map(|p| vec![0; p.len() + 1]).collect();
        for &(p, d) in &self.chain_of {
            if d > 0 {
                ends[p as usize][d as usize] += 1;
            }
        }
        let mut size: std::collections::HashMap<usize, (u64, WideN<L>)> = Default::default();
        for (path, ends) in self.paths.iter().zip(&ends) {
            let mut below = 0;
            for (i, &(b, z, _)) in path.iter().enumerate().rev() {
                below += ends[i + 1];
                size.entry(b).or_insert((0, z)).0 += below;
            }
        }
        for (count, z) in size.into_values() {
            sum = sum.plus(z.narrow::<8>().times(count - 1));
        }
        sum
    }

    /// 2 × reduced cost of edge (u, v) of weight `w`: 0 when the edge is tight.
    #[inline]
    pub fn reduced_cost(&self, u: usize, v: usize, w: WideN<L>) -> WideN<L> {
        let (sum, two_w) = self.dual_sum_and_twice(u, v, w);
        if sum >= two_w {
            sum.minus(two_w)
        } else {
            WideN::<L>::ZERO
        }
    }

    /// The doubled dual of vertex `v` with the duals of its blossoms moved onto it, for
    /// weights raised by `shift` (≥ `self.shift`) instead: feasible on every edge, so a warm
    /// start. A blossom's dual z counts twice on an edge inside it (`z + z`), so each of its
    /// vertices takes z once: an edge inside keeps its slack (its pair stays matched), an
    /// edge leaving it gains z (only the pair at the blossom's base starts free).
    pub fn spread_dual(&self, v: usize, shift: WideN<L>) -> WideN<L> {
        let nested = outer_sum(self.chain(v));
        self.vertex[v].plus(nested).plus(shift).minus(self.shift)
    }

    /// Whether the duals are feasible on edge (u, v) of weight `w` (reduced cost ≥ 0).
    /// Edges left out of a solve: when the certificate of a subgraph's optimum covers every
    /// edge of the graph, the duals are feasible for the graph's matching LP and complementary
    /// slackness still holds, so that matching is optimal for the whole graph and the
    /// certificate is one of the graph (LP duality).
    #[inline]
    pub fn covers(&self, u: usize, v: usize, w: WideN<L>) -> bool {
        self.shortfall(u, v, w).is_none()
    }

    /// How far the duals over edge (u, v) of weight `w` fall short of twice its shifted
    /// weight; `None` when they cover it ([`Certificate::covers`]).
    #[inline]
    pub fn shortfall(&self, u: usize, v: usize, w: WideN<L>) -> Option<WideN<L>> {
        // The vertex duals alone often cover it (blossom duals only add): no chain walk.
        let w2 = w.plus(self.shift);
        if self.vertex[u].plus(self.vertex[v]) >= w2.plus(w2) {
            return None;
        }
        let (sum, two_w) = self.dual_sum_and_twice(u, v, w);
        (sum < two_w).then(|| two_w.minus(sum))
    }

    /// The duals over edge (u, v) (vertices and the blossoms holding both) and twice its
    /// shifted weight.
    #[inline]
    fn dual_sum_and_twice(&self, u: usize, v: usize, w: WideN<L>) -> (WideN<L>, WideN<L>) {
        let w = w.plus(self.shift);
        let mut sum = self.vertex[u].plus(self.vertex[v]);
        // Blossoms are nested: those holding both ends are the common outer end of the
        // two chains.
        let cu = self.chain(u);
        let outer = outer_sum(&cu[..common_outer(cu, self.chain(v))]);
        sum = sum.plus(outer).plus(outer);
        (sum, w.plus(w))
    }

    /// The blossoms holding `v`, outermost first.
    #[inline]
    pub fn chain(&self, v: usize) -> &[Link<L>] {
        self.prefix(self.chain_of[v])
    }

    /// The first `d` blossoms of path `p` (a chain as [`Certificate::chain_of`] names it).
    #[inline]
    pub fn prefix(&self, (p, d): (u32, u32)) -> &[Link<L>] {
        match self.paths.get(p as usize) {
            Some(path) => &path[..(d as usize).min(path.len())],
            None => &[],
        }
    }
}

/// The duals of the blossoms of `chain` (a chain, or its outer end) summed: its last link's
/// running sum, zero for no blossom.
pub fn outer_sum<const L: usize>(chain: &[Link<L>]) -> WideN<L> {
    chain.last().map_or(WideN::<L>::ZERO, |b| b.2)
}

/// How many blossoms two chains of one certificate (outermost first) share. Blossoms are
/// nested: if the k-th blossoms from the outer end are the same, so are all those outside
/// them, so the common length is found by halving. Two chains that start at the same
/// address are prefixes of one path of the certificate ([`Certificate::chain`] always
/// starts a chain at its path's start): they share the shorter one whole.
pub fn common_outer<const L: usize>(a: &[Link<L>], b: &[Link<L>]) -> usize {
    let (mut lo, mut hi) = (0, a.len().min(b.len()));
    if std::ptr::eq(a.as_ptr(), b.as_ptr()) {
        return hi;
    }
    let same = |k: usize| a[k - 1].0 == b[k - 1].0;
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if same(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// [`max_weight_matching`] with the optimal duals.
pub fn max_weight_matching_with_duals<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
) -> (Vec<Option<usize>>, Option<Certificate<L>>) {
    if n == 0 || edges.is_empty() {
        return (vec![None; n], None);
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    (m.mates(), Some(m.certificate(WideN::<L>::ZERO)))
}

/// A warm start for [`max_weight_perfect_matching_warm`]: a matching (`mate`, symmetric)
/// and doubled vertex duals (`dual`) of the weights raised by `shift`, no blossom.
#[derive(Debug, Clone)]
pub struct WarmStart<const L: usize> {
    pub mate: Vec<Option<usize>>,
    pub dual: Vec<WideN<L>>,
    pub shift: WideN<L>,
}

/// A maximum-weight matching among those of maximum cardinality, grown from `warm` instead
/// of from nothing: only the vertices `warm` leaves unmatched start a search, so after a
/// small change to a solved problem (a pair fixed, a partner set restricted) a few stages
/// replace the n/2 of a cold solve.
///
/// Returns `None` (the caller solves cold) when the warm start is not valid (a dual
/// infeasible on an edge, a matched pair not an edge or not tight), when a dual would fall
/// below zero, or when the matching found is not perfect (a certificate with shifted duals
/// bounds perfect matchings only). Otherwise the matching, perfect and of maximum weight,
/// with its certificate (`shift` = `warm.shift`).
pub fn max_weight_perfect_matching_warm<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    warm: &WarmStart<L>,
) -> Option<(Vec<Option<usize>>, Certificate<L>)> {
    match warm_search(n, edges, warm, None) {
        WarmSearch::Perfect(m, c) => Some((m, c)),
        _ => None,
    }
}

/// What a warm-started search found ([`warm_search`]).
#[derive(Debug, Clone)]
pub enum WarmSearch<const L: usize> {
    /// A perfect matching of maximum weight, with its certificate (`shift` = the warm
    /// start's).
    Perfect(Vec<Option<usize>>, Certificate<L>),
    /// The graph has no perfect matching: `free` vertices stay unmatched. `outer[v]`: the
    /// outer (S) blossom of the final search forest that holds v, if any. The forest is
    /// Tutte's barrier: every edge at an outer vertex leads to an inner (T) vertex or stays
    /// inside its own outer blossom, so once the inner vertices are removed each outer
    /// blossom is an odd component, and they outnumber the inner vertices by `free`. In a
    /// larger graph that adds an even, perfectly matchable part joined to k outer
    /// blossoms (and to anything else but outer vertices), those merge into components
    /// of which at least k mod 2 are odd: the proof stands while free − k + (k mod 2) > 0.
    NoPerfect {
        outer: Vec<Option<usize>>,
        free: usize,
    },
    /// The warm start is not valid, or a dual would fall below zero: no conclusion.
    Declined,
    /// The search was given a floor, and the dual objective of its (feasible) duals fell
    /// below it: no perfect matching of the graph weighs as much as the floor asks. The
    /// certificate holds those duals.
    Below(Certificate<L>),
}

/// [`max_weight_perfect_matching_warm`], telling a graph without a perfect matching
/// (with the barrier that proves it) from a warm start that could not be used.
pub fn warm_search<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    warm: &WarmStart<L>,
    floor: Option<WideN<8>>,
) -> WarmSearch<L> {
    warm_search_stuck(n, edges, warm, floor, false).0
}

/// Where a warm search without a perfect matching stopped ([`warm_search_stuck`]): which
/// vertices were inner (T, or inside an inner blossom) in its final forest, and its duals
/// then.
struct Stuck<const L: usize> {
    inner: Vec<bool>,
    cert: Certificate<L>,
}

/// [`warm_search`], with, when it answers [`WarmSearch::NoPerfect`] and `stuck` asks for
/// it, where the search stopped: a priced search
/// ([`max_weight_perfect_matching_warm_priced`]) then adds the edges of the whole graph
/// that would let it go on.
fn warm_search_stuck<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    warm: &WarmStart<L>,
    floor: Option<WideN<8>>,
    stuck: bool,
) -> (WarmSearch<L>, Option<Stuck<L>>) {
    let declined = (WarmSearch::Declined, None);
    if n == 0 || edges.is_empty() || warm.mate.len() != n || warm.dual.len() != n {
        return declined;
    }
    // The weights raised by the shift inside the matcher (no shifted copy of the edges).
    let mut m = Matcher::with_shift(n, edges, warm.shift);
    m.maxcard = true;
    for (v, d) in warm.dual.iter().enumerate() {
        m.dualvar[v] = *d;
    }
    for (k, e) in edges.iter().enumerate() {
        let (du, dv) = (m.dualvar[e.u()], m.dualvar[e.v()]);
        let sum = du.plus(dv);
        if sum < du || sum < m.twice[k] {
            return declined;
        }
        // A pair of the warm matching that is still a tight edge stays matched; the others
        // start free.
        if warm.mate[e.u()] == Some(e.v())
            && warm.mate[e.v()] == Some(e.u())
            && sum == m.twice[k]
            && m.mate[e.u()] == NO
            && m.mate[e.v()] == NO
        {
            m.mate[e.u()] = (2 * k + 1) as isize;
            m.mate[e.v()] = (2 * k) as isize;
        }
    }
    // The search halves the slack of edges between two S-vertices, exact only when the
    // free vertices (the roots of the search) have duals of the same parity: the others
    // are raised by one (feasible: duals only grow; they are free, so no matched edge
    // loses its tightness).
    m.same_root_parity();
    if floor.is_some() {
        m.floor = floor;
        m.objective = m.dualvar[..n]
            .iter()
            .fold(WideN::<8>::ZERO, |sum, d| sum.plus(d.narrow::<8>()));
    }
    m.solve();
    if m.failed {
        return declined;
    }
    if m.below {
        let cert = m.certificate(warm.shift);
        debug_assert!(
            cert.doubled_objective() < floor.unwrap_or(WideN::<8>::ZERO)
                && edges.iter().all(|e| cert.covers(e.u(), e.v(), e.w)),
            "a feasible dual below the floor"
        );
        return (WarmSearch::Below(cert), None);
    }
    if (0..n).any(|v| m.mate[v] == NO) {
        if !m.exhausted {
            return declined;
        }
        let outer: Vec<Option<usize>> = (0..n)
            .map(|v| (m.label[m.inblossom[v]] == 1).then_some(m.inblossom[v]))
            .collect();
        let free = (0..n).filter(|&v| m.mate[v] == NO).count();
        debug_assert!(
            m.is_barrier(&outer, free),
            "the final search forest is Tutte's barrier"
        );
        let stuck = stuck.then(|| Stuck {
            inner: (0..n).map(|v| m.label[m.inblossom[v]] == 2).collect(),
            cert: m.certificate(warm.shift),
        });
        return (WarmSearch::NoPerfect { outer, free }, stuck);
    }
    (
        WarmSearch::Perfect(m.mates(), m.certificate(warm.shift)),
        None,
    )
}

/// [`max_weight_matching_with_duals`] solved on the edges marked `keep` (a sparse part the
/// caller expects the optimum to use) and priced against the others: the edges the part's
/// optimal duals do not cover are added and the part solved again, until the duals cover
/// every edge. They are then feasible for the whole graph's matching LP and complementary
/// slackness still holds, so the part's matching is a maximum-weight matching of the whole
/// graph and its certificate one of the whole graph (LP duality). `None` when `rounds`
/// solves do not settle it (or without edges).
///
/// Each round after the first continues from the one before (its matching, duals and
/// blossoms, `Matcher::carry`) instead of solving from nothing: the edges added are
/// covered by raising duals, which frees only the pairs that lose their tightness, and the
/// search goes on from there: from a perfect matching as a search for a perfect one, whose
/// free vertices keep their own duals (raising them all to the highest dissolved the
/// blossoms holding them, rebuilt one by one after; ADR swiss-035). When many edges are
/// uncovered, a round adds each vertex's few most uncovered ones (`most_uncovered`); the
/// others are priced again in the next round.
pub fn max_weight_matching_priced<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    mut keep: Vec<bool>,
    rounds: usize,
) -> Option<(Vec<Option<usize>>, Certificate<L>)> {
    if keep.len() != edges.len() || n == 0 {
        return None;
    }
    // The part in the order its edges were added: the matcher's edge numbers stay valid.
    let mut part: Vec<Edge<L>> = edges
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(e, _)| *e)
        .collect();
    if part.is_empty() {
        return None;
    }
    let mut carried: Option<Carried<L>> = None;
    for round in 0..rounds {
        let mut m = Matcher::new(n, &part);
        if let Some(state) = carried.take() {
            let old = state.edges;
            // A perfect matching goes on as a search for a perfect one (ADR swiss-035).
            let perfect = state.mate.iter().all(|&m| m != NO);
            m.carry(state);
            for k in old..part.len() {
                m.cover(k);
            }
            if perfect {
                #[cfg(test)]
                tests::PERFECT_GOING_ON.with(|c| c.set(c.get() + 1));
                m.maxcard = true;
                m.same_root_parity();
            } else {
                m.warm_roots();
            }
            m.solve();
            // A search for a perfect matching that ends without one (the part has none):
            // solved afresh below, as one that gave up.
            if m.maxcard && (0..n).any(|v| m.mate[v] == NO) {
                m.failed = true;
            }
            #[cfg(test)]
            if m.failed {
                tests::GAVE_UP.with(|c| c.set(c.get() + 1));
            } else {
                tests::CONTINUED.with(|c| c.set(c.get() + 1));
            }
            if m.failed {
                // Solved afresh as [`price`] does.
                return price(edges, keep, rounds - round, |part, _| {
                    let (m, c) = max_weight_matching_with_duals(n, part);
                    Some(PricedRound::Found(Ok((m, c?))))
                })?
                .0
                .ok();
            }
        } else {
            m.solve();
        }
        let cert = m.certificate(WideN::<L>::ZERO);
        let per_vertex = ADDED_PER_VERTEX.saturating_mul(1 << round.min(16));
        let added = most_uncovered(n, edges, &cert, &mut keep, per_vertex);
        if added.is_empty() {
            return Some((m.mates(), cert));
        }
        carried = Some(m.carried());
        part.extend(added);
    }
    None
}

/// How many uncovered edges each vertex takes into a cold priced part after its first
/// round, twice as many after each further round ([`most_uncovered`], ADR swiss-023; an
/// edge joins while either end has fewer, so a vertex may end up with more).
const ADDED_PER_VERTEX: usize = 4;

/// The edges not yet in the part (`keep` false) that `cert` does not cover, marked in
/// `keep` and returned in edge order: all of them when they are at most `per_vertex` times
/// the vertices, else the most uncovered first (largest shortfall of the duals; ties: the
/// earlier edge), each taken while one of its ends has fewer than `per_vertex` taken. The
/// others wait for the next round's pricing, by which the duals have moved: a part that
/// took every uncovered edge at once (269,000 edges on a 3,070-vertex bracket whose first
/// part had 106,000) freed most of the matching, and the next search cost 7 s.
fn most_uncovered<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    cert: &Certificate<L>,
    keep: &mut [bool],
    per_vertex: usize,
) -> Vec<Edge<L>> {
    // The edges uncovered and by how much (on two threads for a large graph).
    let keep_now: &[bool] = keep;
    let mut short: Vec<(usize, WideN<L>)> = found_in_halves(edges.len(), &|range, out| {
        for k in range.filter(|&k| !keep_now[k]) {
            let e = &edges[k];
            if let Some(by) = cert.shortfall(e.u(), e.v(), e.w) {
                out.push((k, by));
            }
        }
    });
    if short.len() > per_vertex.saturating_mul(n) {
        short.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut taken = vec![0usize; n];
        short.retain(|&(k, _)| {
            let (u, v) = (edges[k].u(), edges[k].v());
            let take = taken[u] < per_vertex || taken[v] < per_vertex;
            if take {
                taken[u] += 1;
                taken[v] += 1;
            }
            take
        });
        short.sort_unstable_by_key(|&(k, _)| k);
        #[cfg(test)]
        tests::HELD_BACK.with(|c| c.set(c.get() + 1));
    }
    short
        .into_iter()
        .map(|(k, _)| {
            keep[k] = true;
            edges[k]
        })
        .collect()
}

/// [`max_weight_perfect_matching_warm`] priced as [`max_weight_matching_priced`]; the part
/// holds the warm pairs and each vertex's `least` edges of least reduced cost under the warm
/// duals (those the search is likely to make tight). When the search on the part stops
/// without a perfect matching, each outer vertex's `least` edges that would let it go on are
/// added and the part searched again (`keep_edges_to_go_on`; one of the `rounds`). `None`
/// when the warm start declines on the part, when `rounds` solves do not settle it, or when
/// the part's barrier holds for the whole graph (the caller searches it whole for the
/// proof).
///
/// `hint`: edges (indices into `edges`) a search of a like question ended with. The first
/// part is then the hint, the matched edges and every edge at a vertex the warm start
/// leaves free (where the search starts), instead of each vertex's `least` edges: in a
/// degenerate bracket of millions of tight edges, those least edges are any tight ones,
/// the search gets stuck on them, and choosing them and the edges to go on costs a pass
/// over all edges each (ADR swiss-021). Without a conclusion from the hinted part, the
/// part is chosen as without a hint. With the answer, the edges the search ended with
/// (the next question's hint).
#[allow(clippy::type_complexity)]
pub fn max_weight_perfect_matching_warm_priced<const L: usize>(
    n: usize,
    edges: &[Edge<L>],
    warm: &WarmStart<L>,
    least: usize,
    rounds: usize,
    floor: Option<WideN<8>>,
    hint: Option<&[usize]>,
) -> Option<(Priced<L>, Vec<usize>)> {
    if warm.mate.len() != n || warm.dual.len() != n {
        return None;
    }
    // The warm pairs among the edges, and the vertices none of them covers (one pass: the
    // edges of a large question are millions).
    let mut matched = vec![false; edges.len()];
    let mut free = vec![true; n];
    for (k, e) in edges.iter().enumerate() {
        let (u, v) = (e.u(), e.v());
        if u >= n || v >= n {
            return None;
        }
        if warm.mate[u] == Some(v) {
            matched[k] = true;
            free[u] = false;
            free[v] = false;
        }
    }
    // The priced search from the part `keep`, and the part it ended with.
    let search_from = |keep: Vec<bool>| -> Option<(Priced<L>, Vec<usize>)> {
        let (found, keep) = price(edges, keep, rounds, |part, keep| {
            match warm_search_stuck(n, part, warm, floor, true) {
                (WarmSearch::Perfect(m, c), _) => Some(PricedRound::Found(Ok((m, c)))),
                (WarmSearch::Below(c), _) => Some(PricedRound::Found(Err(c))),
                // The part has no perfect matching, or its search stopped for want of edges
                // only the whole graph has: then those edges are added and it goes on.
                (WarmSearch::NoPerfect { outer, .. }, Some(stuck))
                    if keep_edges_to_go_on(edges, keep, &outer, &stuck, least) =>
                {
                    #[cfg(test)]
                    tests::WENT_ON.with(|c| c.set(c.get() + 1));
                    Some(PricedRound::More)
                }
                _ => None,
            }
        })?;
        let part = keep.iter().enumerate().filter(|(_, k)| **k).map(|(k, _)| k);
        Some((found, part.collect()))
    };
    if let Some(hint) = hint.filter(|h| h.iter().all(|&k| k < edges.len())) {
        // The search starts at the vertices the warm start leaves free: all their edges.
        let mut keep: Vec<bool> = edges
            .iter()
            .zip(&matched)
            .map(|(e, &m)| m || free[e.u()] || free[e.v()])
            .collect();
        for &k in hint {
            keep[k] = true;
        }
        if let Some(found) = search_from(keep) {
            return Some(found);
        }
    }
    let mut keep = matched;
    keep_best_per_vertex(n, edges, least, &mut keep, |e| {
        let sum = warm.dual[e.u()].plus(warm.dual[e.v()]);
        let w = e.w.plus(warm.shift);
        let two_w = w.plus(w);
        if sum >= two_w {
            sum.minus(two_w)
        } else {
            WideN::<L>::ZERO
        }
    });
    search_from(keep)
}

/// Marks in `keep` the edges a warm search that stopped without a perfect matching on the
/// kept part (`outer`, `stuck`) lacked to go on: edges at an outer vertex that lead
/// neither to an inner vertex nor inside its own outer blossom (the search would grow its
/// forest along them, or raise duals until they are tight). Each outer vertex keeps its
/// `count` of least reduced cost under the duals where the search stopped: roughly the
/// first to become tight (an edge between two outer vertices closes its slack twice as fast
/// as one to an unlabelled vertex; the next search starts from the warm duals again, and
/// the pricing adds whatever the choice missed). `false` when none was kept (with `count`
/// ≥ 1: there is none, and the part's barrier holds for the whole graph too; the caller
/// searches it whole for the proof).
fn keep_edges_to_go_on<const L: usize>(
    edges: &[Edge<L>],
    keep: &mut [bool],
    outer: &[Option<usize>],
    stuck: &Stuck<L>,
    count: usize,
) -> bool {
    keep_least_at(
        outer.len(),
        edges,
        count,
        keep,
        |e| stuck.cert.reduced_cost(e.u(), e.v(), e.w),
        |kept, a, b| !kept && outer[a].is_some() && outer[a] != outer[b] && !stuck.inner[b],
    )
}

/// Marks in `keep` each vertex's `count` edges of least `key` (ties: the earlier edge),
/// the usual first part of a priced matching.
pub fn keep_best_per_vertex<const L: usize, K: Ord + Copy + Send>(
    n: usize,
    edges: &[Edge<L>],
    count: usize,
    keep: &mut [bool],
    key: impl Fn(&Edge<L>) -> K + Sync,
) {
    keep_least_at(n, edges, count, keep, key, |_, _, _| true);
}

/// Marks in `keep` each vertex's `count` edges of least `key` among those `at` takes at
/// that vertex (`at(kept, a, b)`: an edge, kept already or not, seen from its end a, b the
/// other; ties: the earlier edge). Whether any edge was marked.
fn keep_least_at<const L: usize, K: Ord + Copy + Send>(
    n: usize,
    edges: &[Edge<L>],
    count: usize,
    keep: &mut [bool],
    key: impl Fn(&Edge<L>) -> K + Sync,
    at: impl Fn(bool, usize, usize) -> bool + Sync,
) -> bool {
    if count == 0 {
        return false;
    }
    let kept: &[bool] = keep;
    let least =
        |edges_of: std::ops::Range<usize>| least_at(n, edges, count, kept, edges_of, &key, &at);
    // A large graph's edges in two halves on two threads, each vertex's two lists merged.
    let (best, len) = in_halves(edges.len(), &least, |first, second| {
        merge_least(n, count, first, second)
    });
    // No edge taken at any vertex: no lists (their slices would be out of range).
    if best.is_empty() {
        return false;
    }
    let mut any = false;
    for (v, &used) in len.iter().enumerate() {
        for &(_, k) in &best[v * count..v * count + used] {
            keep[k] = true;
            any = true;
        }
    }
    any
}

/// [`keep_least_at`]'s lists for the edges `edges_of`: each vertex's `count` edges of least
/// key (ties: the earlier edge), in one flat array (`count` places a vertex; empty when no
/// edge was taken), and how many each vertex has.
#[allow(clippy::type_complexity)]
fn least_at<const L: usize, K: Ord + Copy>(
    n: usize,
    edges: &[Edge<L>],
    count: usize,
    keep: &[bool],
    edges_of: std::ops::Range<usize>,
    key: &impl Fn(&Edge<L>) -> K,
    at: &impl Fn(bool, usize, usize) -> bool,
) -> (Vec<(K, usize)>, Vec<usize>) {
    // Once a vertex's list is full, an edge no better than its last is passed over at one
    // comparison, which is nearly every edge of a large graph.
    let mut best: Vec<(K, usize)> = Vec::new();
    let mut len = vec![0usize; n];
    for k in edges_of {
        let e = &edges[k];
        let ends = [(e.u(), e.v()), (e.v(), e.u())].map(|(a, b)| at(keep[k], a, b));
        if ends == [false, false] {
            continue;
        }
        let x = key(e);
        if best.is_empty() {
            best = vec![(x, usize::MAX); n * count];
        }
        for (v, taken) in [e.u(), e.v()].into_iter().zip(ends) {
            if !taken {
                continue;
            }
            let l = &mut best[v * count..(v + 1) * count];
            let used = len[v];
            if used == count && x >= l[count - 1].0 {
                continue;
            }
            let at = l[..used].partition_point(|&(y, _)| y <= x);
            let end = (used + 1).min(count);
            l.copy_within(at..end - 1, at + 1);
            l[at] = (x, k);
            len[v] = end;
        }
    }
    (best, len)
}

/// The lists of [`least_at`] over all the edges from those over a first and a second part
/// of them: each vertex's `count` least of both, the first part's before the second's at
/// equal keys (its edges come earlier).
#[allow(clippy::type_complexity)]
fn merge_least<K: Ord + Copy>(
    n: usize,
    count: usize,
    first: (Vec<(K, usize)>, Vec<usize>),
    second: (Vec<(K, usize)>, Vec<usize>),
) -> (Vec<(K, usize)>, Vec<usize>) {
    let ((a, a_len), (b, b_len)) = (first, second);
    if b.is_empty() {
        return (a, a_len);
    }
    if a.is_empty() {
        return (b, b_len);
    }
    let mut best = Vec::with_capacity(n * count);
    let mut len = vec![0usize; n];
    for v in 0..n {
        let (x, y) = (
            &a[v * count..v * count + a_len[v]],
            &b[v * count..v * count + b_len[v]],
        );
        let (mut i, mut j) = (0, 0);
        while i + j < count && (i < x.len() || j < y.len()) {
            if j == y.len() || (i < x.len() && x[i].0 <= y[j].0) {
                best.push(x[i]);
                i += 1;
            } else {
                best.push(y[j]);
                j += 1;
            }
        }
        len[v] = i + j;
        // Each vertex keeps `count` places (those past its length are not read).
        best.resize(best.len() + count - len[v], a[0]);
    }
    (best, len)
}

/// What a priced search found: a matching with its certificate, or (`Err`) duals below a
/// floor ([`WarmSearch::Below`]).
pub type Priced<const L: usize> = Result<(Vec<Option<usize>>, Certificate<L>), Certificate<L>>;

/// One round of a pricing loop ([`price`]) on the kept part.
enum PricedRound<const L: usize> {
    /// A matching or duals below a floor, to check against every edge.
    Found(Priced<L>),
    /// No conclusion yet: more edges were kept, search again.
    More,
}

/// The pricing loop of the priced matchings: `solve` on the kept edges, then keep the edges
/// its duals do not cover, until there are none. `solve` answers a matching with its
/// certificate, or (`Err`) duals below a floor ([`WarmSearch::Below`]), which hold for the
/// whole graph too once they cover every edge; or that it kept more edges (`keep`, its
/// second argument) and the part is to be solved again.
fn price<const L: usize>(
    edges: &[Edge<L>],
    mut keep: Vec<bool>,
    rounds: usize,
    mut solve: impl FnMut(&[Edge<L>], &mut [bool]) -> Option<PricedRound<L>>,
) -> Option<(Priced<L>, Vec<bool>)> {
    if keep.len() != edges.len() {
        return None;
    }
    for _ in 0..rounds {
        let part: Vec<Edge<L>> = edges
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(e, _)| *e)
            .collect();
        let found = match solve(&part, &mut keep)? {
            PricedRound::Found(found) => found,
            PricedRound::More => continue,
        };
        let cert = match &found {
            Ok((_, c)) | Err(c) => c,
        };
        // A sum that wraps reads as uncovered: the edge is only kept needlessly. On two
        // threads for a large graph.
        let kept: &[bool] = &keep;
        let uncovered = found_in_halves(edges.len(), &|range, out| {
            out.extend(
                range.filter(|&k| !kept[k] && !cert.covers(edges[k].u(), edges[k].v(), edges[k].w)),
            );
        });
        if uncovered.is_empty() {
            return Some((found, keep));
        }
        for k in uncovered {
            keep[k] = true;
        }
    }
    None
}

/// What a [`Matcher`] carries from one pricing round to the next: its matching, duals and
/// blossoms, on its first `edges` edges.
struct Carried<const L: usize> {
    edges: usize,
    mate: Vec<isize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<isize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<isize>,
    blossomendps: Vec<Vec<usize>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<WideN<L>>,
}

struct Matcher<'a, const L: usize> {
    n: usize,
    edges: &'a [Edge<L>],
    /// The endpoints `p` of the edges at vertex v (the other end is `endpoint(p)`), in
    /// `neighbend[neighstart[v]..neighstart[v + 1]]`: one flat array, 32-bit (half the
    /// memory and cache of the scans; the engine's graphs, at most 9,999 players, have at
    /// most 50 million edges, far below 2³¹).
    neighbend: Vec<u32>,
    /// `endpoint(p)` for each entry of `neighbend` (read in sequence while scanning).
    neighbour: Vec<u32>,
    neighstart: Vec<usize>,
    /// Twice each edge's weight (the slack is `dual u + dual v − 2w`).
    twice: Vec<WideN<L>>,
    mate: Vec<isize>,
    label: Vec<u8>,
    labelend: Vec<isize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<isize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<isize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<isize>,
    /// For a top-level S-blossom b: the slack of `bestedge[b]` plus twice `stage_delta`
    /// when it was chosen. Both ends of that edge stay S for the stage, so its slack falls
    /// by twice each delta: the current slack is `bestkey[b] − 2·stage_delta`, compared
    /// without recomputing the slack (the hot comparison of the edge scan).
    bestkey: Vec<WideN<L>>,
    /// The sum of the deltas applied in the current stage.
    stage_delta: WideN<L>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    /// Each vertex's dual and each blossom's, doubled. Inside a stage a vertex's dual is
    /// kept lazily (ADR swiss-026): `moving[v]` says how it moves with the stage's deltas
    /// (S falls, T rises, else still) and `dualvar[v]` holds it offset by `stage_delta`
    /// accordingly ([`Matcher::dual`]), so a delta step moves no vertex dual; each stage
    /// ends with them settled ([`Matcher::settle`]). Blossom duals are kept exactly.
    dualvar: Vec<WideN<L>>,
    moving: Vec<Moving>,
    /// Whether this search keeps its vertex duals lazily and its delta candidates in heaps
    /// (from [`LAZY_FROM`] vertices, not cold starts); the others
    /// move every labelled vertex's dual at each delta step and read the stage's lists.
    lazy: bool,
    /// The S-vertex of least dual this stage (S-vertices stay S for the stage and their
    /// duals fall together, so it stays the least until another becomes S): delta 1, and
    /// the warm search's check that no dual falls below zero.
    least_s: isize,
    /// Candidates for delta 2, the unlabelled vertices' best edges, by the stage delta at
    /// which each becomes tight (its slack then falls by each delta) and vertex: stale
    /// entries are skipped when read ([`Matcher::least_unlabelled`]).
    tight_at: BinaryHeap<Reverse<(WideN<L>, usize)>>,
    /// Candidates for delta 3, the top-level S-blossoms' best edges, by `bestkey` and
    /// blossom (stale entries skipped, [`Matcher::least_s_to_s`]).
    s_best: BinaryHeap<Reverse<(WideN<L>, usize)>>,
    /// The vertices and blossoms whose best edge changed since the last delta step: their
    /// entries are made then, once each (a scan may better one many times).
    changed: Vec<usize>,
    changed_in: Vec<bool>,
    allowedge: Vec<bool>,
    /// Scratch of [`Matcher::augment_and_go_on`]: the root of each labelled top-level
    /// blossom's tree, by index (`NO` unknown), and the blossoms it set.
    root_of: Vec<isize>,
    rooted: Vec<usize>,
    leaving: Vec<bool>,
    queue: Vec<usize>,
    /// Maximum-cardinality mode (warm starts): no delta 1, duals may not go below zero.
    maxcard: bool,
    /// A dual would have gone below zero (warm start abandoned).
    failed: bool,
    /// Maximum-cardinality mode: the search stopped with nothing left to grow (no edge
    /// to make tight, no inner blossom to open), so no augmenting path is left.
    exhausted: bool,
    /// Maximum-cardinality mode with a floor: stop once the dual objective (`objective`,
    /// doubled, of the shifted weights) falls below `floor` (then `below`). Every perfect
    /// matching weighs at most the dual objective, so none reaches the floor.
    floor: Option<WideN<8>>,
    objective: WideN<8>,
    below: bool,
    /// Scratch of [`Matcher::add_blossom`] (2n entries once a blossom is made, else
    /// empty): the least-slack edge to each top-level S-blossom and its slack, the
    /// blossoms touched, and a list of leaves.
    best_to: Vec<isize>,
    best_slack: Vec<WideN<L>>,
    touched: Vec<usize>,
    leaf_scratch: Vec<usize>,
    /// What the current stage labelled ([`Stage`]): the delta steps read these instead of
    /// every vertex and blossom.
    stage: Stage,
    /// Ends the search early when this thread's work is dropped (an engine ahead's,
    /// checked at each delta step; ADR swiss-042).
    watch: DropWatch,
}

/// The vertices and blossoms a stage of [`Matcher::solve`] labelled: the stage's end
/// settles these vertices' duals ([`Matcher::settle`]), and each delta step moves the
/// duals of these blossoms (the top-level labelled ones; the others are dropped from the
/// list as it is read). A warm search from a few free vertices labels a small tree among
/// thousands of vertices, and its delta steps, each reading every vertex and blossom, were
/// most of its time. Every label a stage writes is recorded here (a blossom with all its
/// leaves). The scans' order decided ties (the first of equal slack), so the candidates of
/// a delta are compared by (value, index) to choose the same one.
struct Stage {
    /// Vertices in a blossom labelled this stage (each once: `vert_in`).
    verts: Vec<usize>,
    vert_in: Vec<bool>,
    /// Non-trivial blossoms labelled or made this stage (each once: `blossom_in`, by
    /// blossom index minus n).
    blossoms: Vec<usize>,
    blossom_in: Vec<bool>,
    /// Vertices given a best edge this stage (each once: `best_in`; the textbook stages,
    /// whose delta 2 reads them).
    best: Vec<usize>,
    best_in: Vec<bool>,
}

impl Stage {
    fn new(n: usize) -> Self {
        Stage {
            verts: Vec::new(),
            vert_in: vec![false; n],
            blossoms: Vec::new(),
            blossom_in: vec![false; n],
            best: Vec::new(),
            best_in: vec![false; n],
        }
    }

    /// Forgets the stage's records (only those made are reset).
    fn clear(&mut self, n: usize) {
        for &v in &self.verts {
            self.vert_in[v] = false;
        }
        for &b in &self.blossoms {
            self.blossom_in[b - n] = false;
        }
        for &v in &self.best {
            self.best_in[v] = false;
        }
        self.verts.clear();
        self.blossoms.clear();
        self.best.clear();
    }

    fn vertex(&mut self, v: usize) {
        if !self.vert_in[v] {
            self.vert_in[v] = true;
            self.verts.push(v);
        }
    }

    fn best_edge_at(&mut self, v: usize) {
        if !self.best_in[v] {
            self.best_in[v] = true;
            self.best.push(v);
        }
    }

    /// Blossom `b` (≥ n) labelled; its leaves are recorded by the caller.
    fn blossom(&mut self, b: usize, n: usize) {
        if !self.blossom_in[b - n] {
            self.blossom_in[b - n] = true;
            self.blossoms.push(b);
        }
    }
}

/// Lowers `delta` to the candidate's value when it is strictly smaller (an earlier kind of
/// delta wins ties), and then names the candidate's index.
fn lower_to<const L: usize>(
    delta: &mut WideN<L>,
    least: Option<(WideN<L>, usize)>,
) -> Option<usize> {
    let (d, i) = least.filter(|&(d, _)| d < *delta)?;
    *delta = d;
    Some(i)
}

/// The least of `(value, index)` pairs: the candidate a scan in index order keeping the
/// first strictly smaller value would end with.
fn least_first<const L: usize>(
    best: Option<(WideN<L>, usize)>,
    value: WideN<L>,
    index: usize,
) -> Option<(WideN<L>, usize)> {
    match best {
        Some((v, i)) if (v, i) <= (value, index) => best,
        _ => Some((value, index)),
    }
}

impl<'a, const L: usize> Matcher<'a, L> {
    fn new(n: usize, edges: &'a [Edge<L>]) -> Self {
        Self::with_shift(n, edges, WideN::<L>::ZERO)
    }

    /// The matcher of `edges` with every weight raised by `shift`.
    fn with_shift(n: usize, edges: &'a [Edge<L>], shift: WideN<L>) -> Self {
        let mut degree = vec![0usize; n + 1];
        let mut maxw = WideN::<L>::ZERO;
        for e in edges {
            degree[e.u()] += 1;
            degree[e.v()] += 1;
            if e.w > maxw {
                maxw = e.w;
            }
        }
        let maxw = maxw.plus(shift);
        let mut neighstart = vec![0usize; n + 1];
        for v in 0..n {
            neighstart[v + 1] = neighstart[v] + degree[v];
        }
        let mut fill = neighstart.clone();
        let mut neighbend = vec![0u32; 2 * edges.len()];
        let mut neighbour = vec![0u32; 2 * edges.len()];
        for (k, e) in edges.iter().enumerate() {
            neighbend[fill[e.u()]] = (2 * k + 1) as u32;
            neighbour[fill[e.u()]] = e.v() as u32;
            fill[e.u()] += 1;
            neighbend[fill[e.v()]] = (2 * k) as u32;
            neighbour[fill[e.v()]] = e.u() as u32;
            fill[e.v()] += 1;
        }
        let twice = edges
            .iter()
            .map(|e| {
                let w = e.w.plus(shift);
                w.plus(w)
            })
            .collect();
        let mut dualvar = vec![maxw; n];
        dualvar.extend(std::iter::repeat_n(WideN::<L>::ZERO, n));
        Matcher {
            n,
            edges,
            neighbend,
            neighbour,
            neighstart,
            twice,
            mate: vec![NO; n],
            label: vec![0; 2 * n],
            labelend: vec![NO; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NO; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n as isize).chain(std::iter::repeat_n(NO, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NO; 2 * n],
            bestkey: vec![WideN::<L>::ZERO; 2 * n],
            stage_delta: WideN::<L>::ZERO,
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            moving: Vec::new(),
            lazy: false,
            least_s: NO,
            tight_at: BinaryHeap::new(),
            s_best: BinaryHeap::new(),
            changed: Vec::new(),
            changed_in: Vec::new(),
            allowedge: vec![false; edges.len()],
            root_of: Vec::new(),
            rooted: Vec::new(),
            leaving: Vec::new(),
            queue: Vec::new(),
            maxcard: false,
            failed: false,
            exhausted: false,
            floor: None,
            objective: WideN::<8>::ZERO,
            below: false,
            best_to: Vec::new(),
            best_slack: Vec::new(),
            touched: Vec::new(),
            leaf_scratch: Vec::new(),
            stage: Stage::new(n),
            watch: DropWatch::here(),
        }
    }

    /// The vertex at endpoint `p`: edge p / 2, its end u for even p, v for odd p.
    #[inline]
    fn endpoint(&self, p: usize) -> usize {
        let e = &self.edges[p / 2];
        if p & 1 == 0 { e.u() } else { e.v() }
    }

    /// The partner of each vertex.
    fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n)
            .map(|v| (self.mate[v] >= 0).then(|| self.endpoint(self.mate[v] as usize)))
            .collect()
    }

    /// The duals of the solved problem (weights raised by `shift`).
    fn certificate(&self, shift: WideN<L>) -> Certificate<L> {
        let n = self.n;
        let mut paths: Vec<Vec<Link<L>>> = Vec::new();
        let mut chain_of = vec![(0u32, 0u32); n];
        // Depth first from each top-level blossom: a blossom's first sub-blossom extends its
        // parent's path in place, the others start a copy of the parent's chain.
        let mut stack: Vec<(usize, usize, usize)> = Vec::new();
        let mut seen = vec![false; 2 * n];
        for v in 0..n {
            let top = self.inblossom[v];
            if top < n || seen[top] {
                continue;
            }
            seen[top] = true;
            let z = self.dualvar[top];
            paths.push(vec![(top, z, z)]);
            stack.push((top, 1, paths.len() - 1));
            while let Some((b, depth, p)) = stack.pop() {
                let outer = paths[p][depth - 1].2;
                for &c in &self.blossomchilds[b] {
                    if c < n {
                        chain_of[c] = (p as u32, depth as u32);
                        continue;
                    }
                    let link = (c, self.dualvar[c], outer.plus(self.dualvar[c]));
                    let q = if paths[p].len() == depth {
                        p
                    } else {
                        let mut copy = Vec::with_capacity(depth + 1);
                        copy.extend_from_slice(&paths[p][..depth]);
                        paths.push(copy);
                        paths.len() - 1
                    };
                    paths[q].push(link);
                    stack.push((c, depth + 1, q));
                }
            }
        }
        Certificate {
            vertex: self.dualvar[..n].to_vec(),
            paths,
            chain_of,
            shift,
        }
    }

    /// This matcher's matching, duals and blossoms, to go on with more edges
    /// ([`Matcher::carry`]).
    fn carried(self) -> Carried<L> {
        Carried {
            edges: self.edges.len(),
            mate: self.mate,
            inblossom: self.inblossom,
            blossomparent: self.blossomparent,
            blossomchilds: self.blossomchilds,
            blossombase: self.blossombase,
            blossomendps: self.blossomendps,
            unusedblossoms: self.unusedblossoms,
            dualvar: self.dualvar,
        }
    }

    /// Takes over the state of a matcher of the same vertices whose edges were the first
    /// `state.edges` of this one's, in the same order (so the edge numbers its matching
    /// and blossoms hold stay valid). The edges after those may be uncovered
    /// ([`Matcher::cover`]).
    fn carry(&mut self, state: Carried<L>) {
        self.mate = state.mate;
        self.inblossom = state.inblossom;
        self.blossomparent = state.blossomparent;
        self.blossomchilds = state.blossomchilds;
        self.blossombase = state.blossombase;
        self.blossomendps = state.blossomendps;
        self.unusedblossoms = state.unusedblossoms;
        self.dualvar = state.dualvar;
    }

    /// Raises duals until edge k is covered (the duals of its ends and of the blossoms
    /// holding both reach twice its weight), keeping them feasible everywhere: a top-level
    /// element is raised as a whole ([`Matcher::raise_top`]), and a top-level blossom whose
    /// own dual is used up, or that holds both ends, is dissolved into its children.
    fn cover(&mut self, k: usize) {
        loop {
            let (u, v) = (self.edges[k].u(), self.edges[k].v());
            let have = self.dualvar[u]
                .plus(self.dualvar[v])
                .plus(self.common_duals(u, v).times(2));
            if have >= self.twice[k] {
                return;
            }
            let deficit = self.twice[k].minus(have);
            let (tu, tv) = (self.inblossom[u], self.inblossom[v]);
            if tu == tv {
                // Raising the blossom holding both ends does not help: its dual moves onto
                // its vertices, and it is dissolved.
                self.raise_top(tu, self.dualvar[tu]);
                self.expand_blossom(tu, true);
            } else {
                self.raise_through(u, deficit);
            }
        }
    }

    /// Raises v's dual by d through the top-level elements that hold it: each is raised as a
    /// whole ([`Matcher::raise_top`]) by as much as its own dual allows, and a blossom whose
    /// dual is used up is dissolved, the raise going on in the child that holds v.
    fn raise_through(&mut self, v: usize, mut d: WideN<L>) {
        while !d.is_zero() {
            let t = self.inblossom[v];
            let step = if t < self.n {
                d
            } else {
                d.min(self.dualvar[t])
            };
            self.raise_top(t, step);
            d = d.minus(step);
            if t >= self.n && self.dualvar[t].is_zero() {
                self.expand_blossom(t, true);
            }
        }
    }

    /// The sum of the duals of the blossoms that hold both u and v.
    fn common_duals(&self, u: usize, v: usize) -> WideN<L> {
        let mut above_u = Vec::new();
        let mut b = self.blossomparent[u];
        while b >= 0 {
            above_u.push(b);
            b = self.blossomparent[b as usize];
        }
        let mut b = self.blossomparent[v];
        while b >= 0 && !above_u.contains(&b) {
            b = self.blossomparent[b as usize];
        }
        let mut sum = WideN::<L>::ZERO;
        while b >= 0 {
            sum = sum.plus(self.dualvar[b as usize]);
            b = self.blossomparent[b as usize];
        }
        sum
    }

    /// Raises every vertex of the top-level element b by d and lowers b's own dual by as
    /// much (d ≤ it): edges inside b keep their slack, edges leaving it gain d. The pair at
    /// b's base, no longer tight, is unmatched (both ends become free).
    fn raise_top(&mut self, b: usize, d: WideN<L>) {
        if d.is_zero() {
            return;
        }
        for x in self.leaves_of(b) {
            self.dualvar[x] = self.dualvar[x].plus(d);
        }
        let base = if b < self.n {
            b
        } else {
            self.dualvar[b] = self.dualvar[b].minus(d);
            self.blossombase[b] as usize
        };
        let p = self.mate[base];
        if p != NO {
            let partner = self.endpoint(p as usize);
            self.mate[base] = NO;
            self.mate[partner] = NO;
        }
    }

    /// Raises by one the free vertices whose dual's parity differs from the first free
    /// vertex's (through the blossoms holding them, which stay tight): a search for a
    /// perfect matching halves the slack between two outer vertices, exact when the roots'
    /// duals share a parity (every tight edge then keeps it through each tree).
    fn same_root_parity(&mut self) {
        let mut one = WideN::<L>::ZERO;
        one.add_at(0, 1);
        let mut parity = None;
        for v in 0..self.n {
            if self.mate[v] != NO {
                continue;
            }
            let odd = self.dualvar[v].0[0] & 1;
            match parity {
                None => parity = Some(odd),
                Some(p) if p != odd => self.raise_through(v, one),
                _ => {}
            }
        }
    }

    /// Gives the free vertices (the roots of the next search) one dual, the highest of
    /// theirs, as a search for a maximum-weight matching needs (the roots' duals fall
    /// together and the search ends when they reach zero): each free top-level element is
    /// raised by the difference (a blossom whose own dual runs out is dissolved, the raise
    /// going on in the part that holds the free base). Any matched vertex whose dual is
    /// below the roots' and falls to zero first makes the search give up
    /// ([`Matcher::failed`]).
    fn warm_roots(&mut self) {
        let n = self.n;
        let Some(top) = (0..n)
            .filter(|&v| self.mate[v] == NO)
            .map(|v| self.dualvar[v])
            .max()
        else {
            return;
        };
        for v in 0..n {
            if self.mate[v] != NO {
                continue;
            }
            self.raise_through(v, top.minus(self.dualvar[v]));
        }
    }

    #[inline(always)]
    fn slack(&self, k: usize) -> WideN<L> {
        let e = &self.edges[k];
        self.dual(e.u()).plus(self.dual(e.v())).minus(self.twice[k])
    }

    /// The (doubled) dual of vertex `v` now: `dualvar[v]` offset by the stage's deltas as
    /// `v` moves with them (wrapping arithmetic: the offset stored may wrap, the dual does
    /// not).
    #[inline(always)]
    fn dual(&self, v: usize) -> WideN<L> {
        if !self.lazy {
            return self.dualvar[v];
        }
        match self.moving[v] {
            Moving::Still => self.dualvar[v],
            Moving::Falls => self.dualvar[v].minus(self.stage_delta),
            Moving::Rises => self.dualvar[v].plus(self.stage_delta),
        }
    }

    /// Vertex `v` moves as `how` from now on (its label's top-level blossom was labelled,
    /// relabelled or unlabelled): its dual is kept, offset anew. A vertex that moves is
    /// recorded as labelled this stage ([`Stage`]), so that the stage's end settles it.
    fn set_moving(&mut self, v: usize, how: Moving) {
        if !self.lazy {
            // Duals moved at each delta step: only recorded.
            if how != Moving::Still {
                self.stage.vertex(v);
            }
            return;
        }
        if self.moving[v] == how {
            return;
        }
        let d = self.dual(v);
        self.moving[v] = how;
        self.dualvar[v] = match how {
            Moving::Still => d,
            Moving::Falls => d.plus(self.stage_delta),
            Moving::Rises => d.minus(self.stage_delta),
        };
        if how == Moving::Falls && (self.least_s == NO || d < self.dual(self.least_s as usize)) {
            self.least_s = v as isize;
        }
        if how != Moving::Still {
            self.stage.vertex(v);
        }
    }

    /// The stage ends: every vertex's dual is written out exactly (outside a stage
    /// `dualvar` holds them as they are).
    fn settle(&mut self) {
        if !self.lazy {
            return;
        }
        for i in 0..self.stage.verts.len() {
            let v = self.stage.verts[i];
            self.set_moving(v, Moving::Still);
        }
    }

    /// Vertex or blossom `b` was given a best edge: its entry for delta 2 or 3 is made at
    /// the next delta step ([`Matcher::offer_changed`]).
    #[inline]
    fn best_changed(&mut self, b: usize) {
        if !self.lazy {
            // Delta 2 reads the vertices given a best edge while unlabelled or inside a
            // T-blossom; delta 3 reads every labelled top.
            if b < self.n && self.label[self.inblossom[b]] != 1 {
                self.stage.best_edge_at(b);
            }
            return;
        }
        if !self.changed_in[b] {
            self.changed_in[b] = true;
            self.changed.push(b);
        }
    }

    /// The entries of the vertices and blossoms given a best edge since the last delta
    /// step: an unlabelled vertex's for delta 2 (one inside a T-blossom waits for the
    /// blossom to open, [`Matcher::expand_blossom`]), a top-level S-blossom's for delta 3.
    fn offer_changed(&mut self) {
        let mut changed = std::mem::take(&mut self.changed);
        for &b in &changed {
            self.changed_in[b] = false;
            if self.bestedge[b] == NO {
                continue;
            }
            if b < self.n && self.label[self.inblossom[b]] == 0 {
                self.offer_unlabelled(b);
            } else if self.label[b] == 1 && self.blossomparent[b] == NO {
                self.s_best.push(Reverse((self.bestkey[b], b)));
            }
        }
        changed.clear();
        self.changed = changed;
    }

    /// Delta 2's candidate: the unlabelled vertex whose best edge (to an S-vertex) has the
    /// least slack, the least such vertex of equal slack, with that slack. Entries that no
    /// longer hold (the vertex labelled since, or given another best edge) are dropped.
    fn least_unlabelled(&mut self) -> Option<(WideN<L>, usize)> {
        while let Some(&Reverse((at, v))) = self.tight_at.peek() {
            let k = self.bestedge[v];
            if self.label[self.inblossom[v]] == 0 && k != NO {
                let slack = self.slack(k as usize);
                if slack.plus(self.stage_delta) == at {
                    return Some((slack, v));
                }
            }
            self.tight_at.pop();
        }
        None
    }

    /// Offers vertex `v`'s best edge, `v` unlabelled, as a candidate for delta 2.
    fn offer_unlabelled(&mut self, v: usize) {
        let k = self.bestedge[v];
        if k != NO {
            let at = self.slack(k as usize).plus(self.stage_delta);
            self.tight_at.push(Reverse((at, v)));
        }
    }

    /// Delta 3's candidate: the top-level S-blossom (or S-vertex) whose best edge to
    /// another S-blossom has the least slack, the least such of equal slack, with half
    /// that slack. Entries that no longer hold are dropped.
    fn least_s_to_s(&mut self) -> Option<(WideN<L>, usize)> {
        while let Some(&Reverse((key, b))) = self.s_best.peek() {
            if self.blossomparent[b] == NO
                && self.label[b] == 1
                && self.bestedge[b] != NO
                && self.bestkey[b] == key
                && (b < self.n || self.blossombase[b] >= 0)
            {
                let slack = self.slack(self.bestedge[b] as usize);
                debug_assert_eq!(
                    key.minus(self.stage_delta).minus(self.stage_delta),
                    slack,
                    "the cached slack of an S-blossom's best edge"
                );
                debug_assert!(
                    slack.0[0] & 1 == 0,
                    "an S-S slack is even (the roots' duals share one parity)"
                );
                return Some((slack.half(), b));
            }
            self.s_best.pop();
        }
        None
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.blossomchilds[b] {
                self.leaves(c, out);
            }
        }
    }

    /// Records top-level blossom (or vertex) `b`, labelled `t` (S = 1, T = 2) this stage,
    /// with its leaves ([`Stage`]), whose duals now move with the deltas.
    fn record_labelled(&mut self, b: usize, t: u8) {
        let how = if t == 1 { Moving::Falls } else { Moving::Rises };
        if b < self.n {
            self.set_moving(b, how);
            return;
        }
        self.stage.blossom(b, self.n);
        let mut leaves = std::mem::take(&mut self.leaf_scratch);
        leaves.clear();
        self.leaves(b, &mut leaves);
        for &v in &leaves {
            self.set_moving(v, how);
        }
        self.leaf_scratch = leaves;
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: isize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NO;
        self.bestedge[b] = NO;
        self.record_labelled(b, t);
        if t == 1 {
            // Its vertices are scanned: onto the queue without a vector of their own.
            if b < self.n {
                self.queue.push(b);
            } else {
                let mut queue = std::mem::take(&mut self.queue);
                self.leaves(b, &mut queue);
                self.queue = queue;
            }
        } else if t == 2 {
            let base = self.blossombase[b] as usize;
            let mb = self.mate[base];
            let target = self.endpoint(mb as usize);
            self.assign_label(target, 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> isize {
        let mut path = Vec::new();
        let mut base = NO;
        let mut v = v as isize;
        let mut w = w as isize;
        while v != NO || w != NO {
            let mut b = self.inblossom[v as usize];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NO {
                v = NO;
            } else {
                v = self.endpoint(self.labelend[b] as usize) as isize;
                b = self.inblossom[v as usize];
                v = self.endpoint(self.labelend[b] as usize) as isize;
            }
            if w != NO {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.edges[k].u(), self.edges[k].v());
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("blossom slots");
        self.blossombase[b] = base as isize;
        self.blossomparent[b] = NO;
        self.blossomparent[bb] = b as isize;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b as isize;
            path.push(bv);
            endps.push(self.labelend[bv] as usize);
            v = self.endpoint(self.labelend[bv] as usize);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b as isize;
            path.push(bw);
            endps.push((self.labelend[bw] ^ 1) as usize);
            w = self.endpoint(self.labelend[bw] as usize);
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.stage.blossom(b, self.n);
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = WideN::<L>::ZERO;
        self.blossomendps[b] = endps;
        // b's leaves are its children's (b's own child list is set once they are scanned).
        let mut leaves = std::mem::take(&mut self.leaf_scratch);
        leaves.clear();
        for &c in &path {
            self.leaves(c, &mut leaves);
        }
        for &v in &leaves {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
            // T-vertices become S (S ones stay).
            self.set_moving(v, Moving::Falls);
        }
        // The least-slack edge from b to each other top-level S-blossom, gathered in
        // scratch arrays kept between calls (only the entries touched are reset).
        if self.best_to.is_empty() {
            self.best_to = vec![NO; 2 * self.n];
            self.best_slack = vec![WideN::<L>::ZERO; 2 * self.n];
        }
        let mut touched = std::mem::take(&mut self.touched);
        for &bv in &path {
            match self.blossombestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        self.offer_best(b, k, &mut touched);
                    }
                }
                None => {
                    leaves.clear();
                    self.leaves(bv, &mut leaves);
                    for &v in &leaves {
                        for q in self.neighstart[v]..self.neighstart[v + 1] {
                            self.offer_best(b, self.neighbend[q] as usize / 2, &mut touched);
                        }
                    }
                }
            }
            self.bestedge[bv] = NO;
        }
        self.leaf_scratch = leaves;
        self.blossomchilds[b] = path;
        // In the order of the blossoms reached (as a scan of all of them would give).
        touched.sort_unstable();
        let mut list = Vec::with_capacity(touched.len());
        let mut best = NO;
        let mut least = WideN::<L>::ZERO;
        for &bj in &touched {
            let k = self.best_to[bj];
            self.best_to[bj] = NO;
            list.push(k as usize);
            if best == NO || self.best_slack[bj] < least {
                best = k;
                least = self.best_slack[bj];
            }
        }
        touched.clear();
        self.touched = touched;
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.bestkey[b] = least.plus(self.stage_delta).plus(self.stage_delta);
        if best != NO {
            self.best_changed(b);
        }
    }

    /// [`Matcher::add_blossom`]: edge k from the new blossom b, kept when it is the
    /// least-slack edge seen so far to the top-level S-blossom at its other end.
    #[inline]
    fn offer_best(&mut self, b: usize, k: usize, touched: &mut Vec<usize>) {
        let (u, v) = (self.edges[k].u(), self.edges[k].v());
        let j = if self.inblossom[v] == b { u } else { v };
        let bj = self.inblossom[j];
        if bj != b && self.label[bj] == 1 {
            let slack = self.slack(k);
            if self.best_to[bj] == NO {
                touched.push(bj);
            } else if slack >= self.best_slack[bj] {
                return;
            }
            self.best_to[bj] = k as isize;
            self.best_slack[bj] = slack;
        }
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        // A T-blossom opened inside a stage: its vertices stop rising, and are labelled
        // again below (or left unlabelled).
        let opened = self.lazy && !endstage && self.label[b] == 2;
        let leaves = if opened {
            let leaves = self.leaves_of(b);
            for &v in &leaves {
                self.set_moving(v, Moving::Still);
            }
            leaves
        } else {
            Vec::new()
        };
        // b's lists are taken out (it is freed at the end; nothing below reads them).
        let childs = std::mem::take(&mut self.blossomchilds[b]);
        for &s in &childs {
            self.blossomparent[s] = NO;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len() as isize;
            let endps = std::mem::take(&mut self.blossomendps[b]);
            let idx = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let entrychild = self.inblossom[self.endpoint((self.labelend[b] ^ 1) as usize)];
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let a = self.endpoint((p ^ 1) as usize);
                self.label[a] = 0;
                let q = (endps[idx(j - endptrick)] as isize) ^ endptrick ^ 1;
                let c = self.endpoint(q as usize);
                self.label[c] = 0;
                self.assign_label(a, 2, p);
                self.allowedge[endps[idx(j - endptrick)] / 2] = true;
                j += jstep;
                p = (endps[idx(j - endptrick)] as isize) ^ endptrick;
                self.allowedge[(p / 2) as usize] = true;
                j += jstep;
            }
            let bv = childs[idx(j)];
            let a = self.endpoint((p ^ 1) as usize);
            self.label[a] = 2;
            self.label[bv] = 2;
            self.record_labelled(bv, 2);
            self.labelend[a] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NO;
            j += jstep;
            while childs[idx(j)] != entrychild {
                let bv = childs[idx(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NO;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = v as isize;
                        break;
                    }
                }
                if found != NO {
                    let v = found as usize;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv] as usize];
                    let e = self.endpoint(mb as usize);
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    debug_assert!(
                        self.label[self.inblossom[self.endpoint(le as usize)]] == 1
                            && self.slack(le as usize / 2).is_zero(),
                        "a vertex inside a T-blossom is marked from an S-vertex, over a tight edge"
                    );
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        // The vertices left unlabelled: their best edges (kept while they were inside b)
        // are candidates for delta 2 from now on.
        for &v in &leaves {
            if self.label[self.inblossom[v]] == 0 {
                self.offer_unlabelled(v);
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NO;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NO;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NO;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b as isize {
            t = self.blossomparent[t] as usize;
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        // b's own lists are taken out while its children are augmented (the recursion
        // only touches blossoms inside it) and rotated in place: no copies.
        let mut childs = std::mem::take(&mut self.blossomchilds[b]);
        let mut endps = std::mem::take(&mut self.blossomendps[b]);
        let len = childs.len() as isize;
        let idx = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = childs.iter().position(|&c| c == t).unwrap_or(0) as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, isize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[idx(j)];
            let p = (endps[idx(j - endptrick)] as isize) ^ endptrick;
            if t >= self.n {
                let e = self.endpoint(p as usize);
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = childs[idx(j)];
            if t >= self.n {
                let e = self.endpoint((p ^ 1) as usize);
                self.augment_blossom(t, e);
            }
            let a = self.endpoint(p as usize);
            let c = self.endpoint((p ^ 1) as usize);
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        childs.rotate_left(i);
        endps.rotate_left(i);
        self.blossombase[b] = self.blossombase[childs[0]];
        self.blossomchilds[b] = childs;
        self.blossomendps[b] = endps;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.edges[k].u(), self.edges[k].v());
        for (s0, p0) in [(v, 2 * k as isize + 1), (w, 2 * k as isize)] {
            let mut s = s0;
            let mut p = p0;
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NO {
                    break;
                }
                let t = self.endpoint(self.labelend[bs] as usize);
                let bt = self.inblossom[t];
                s = self.endpoint(self.labelend[bt] as usize);
                let j = self.endpoint((self.labelend[bt] ^ 1) as usize);
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// The root (top-level S-blossom without a parent edge) of the search tree that holds
    /// the labelled top-level blossom `b`, memoised in `root_of`.
    fn tree_root(&mut self, b: usize) -> usize {
        // Up to the root or a top whose root is known, then the same way again noting it.
        let mut t = b;
        let root = loop {
            if self.root_of[t] != NO {
                break self.root_of[t] as usize;
            }
            if self.labelend[t] == NO {
                break t;
            }
            t = self.inblossom[self.endpoint(self.labelend[t] as usize)];
        };
        let mut t = b;
        while self.root_of[t] == NO {
            self.root_of[t] = root as isize;
            self.rooted.push(t);
            if self.labelend[t] == NO {
                break;
            }
            t = self.inblossom[self.endpoint(self.labelend[t] as usize)];
        }
        root
    }

    /// Augments the matching over edge k (between two S-blossoms of different trees) and
    /// goes on with the stage instead of starting another (ADR swiss-026). A stage of the
    /// textbook method ends at each augmentation and the next labels every root again and
    /// scans all their edges: a cold solve of a few thousand vertices scanned its hundred
    /// thousand edges once for each of its thousand pairs. Here only the two trees the
    /// path joined leave the forest: their vertices and blossoms lose their labels (they
    /// are all matched now; blossoms made this stage stay, unlabelled), the other trees
    /// stay as they are, and the duals stay feasible. What the stage recorded about the
    /// edges at those vertices is renewed: their own best edges from the S-vertices left
    /// (as unlabelled vertices), and the best edge of each vertex or S-blossom elsewhere
    /// that named one of their edges (an S–S edge that is now S–unlabelled, or an
    /// S–unlabelled edge whose S end left).
    fn augment_and_go_on(&mut self, k: usize) {
        let n = self.n;
        // The two trees, found before the augmentation changes the blossoms' bases.
        let (u, v) = (self.edges[k].u(), self.edges[k].v());
        let ru = self.tree_root(self.inblossom[u]);
        let rv = self.tree_root(self.inblossom[v]);
        let mut tops: Vec<usize> = Vec::new();
        for i in 0..self.stage.verts.len() {
            let x = self.stage.verts[i];
            let b = self.inblossom[x];
            if self.label[b] == 0 || self.leaving[b] {
                continue;
            }
            let r = self.tree_root(b);
            if r == ru || r == rv {
                self.leaving[b] = true;
                tops.push(b);
            }
        }
        for &x in &self.rooted {
            self.root_of[x] = NO;
        }
        self.rooted.clear();
        for &b in &tops {
            self.leaving[b] = false;
        }
        self.augment_matching(k);
        let mut leaves = Vec::new();
        let mut stack = Vec::new();
        for &b in &tops {
            self.blossombestedges[b] = None;
            stack.push(b);
            while let Some(c) = stack.pop() {
                self.label[c] = 0;
                self.labelend[c] = NO;
                self.bestedge[c] = NO;
                if c < n {
                    // Its dual stops moving.
                    self.set_moving(c, Moving::Still);
                    leaves.push(c);
                } else {
                    stack.extend_from_slice(&self.blossomchilds[c]);
                }
            }
        }
        // Blossoms without dual are opened, as the textbook method does at each stage's
        // end (nested ones would make every later walk of their leaves longer).
        for &b in &tops {
            if b >= n && self.blossombase[b] >= 0 && self.dualvar[b].is_zero() {
                self.expand_blossom(b, true);
            }
        }
        for &x in &leaves {
            // x's own best edge, its least-slack edge to an S-blossom, found on this walk of
            // its edges ([`Matcher::renew_best`] walks them again otherwise): nothing below
            // changes a top's label, a dual or a blossom (ADR swiss-046).
            let own = self.inblossom[x];
            let mut least: (isize, WideN<L>) = (NO, WideN::<L>::ZERO);
            for pi in self.neighstart[x]..self.neighstart[x + 1] {
                let kk = (self.neighbend[pi] / 2) as isize;
                // Tight while both ends moved together; not known to be from now on.
                self.allowedge[kk as usize] = false;
                let r = self.neighbour[pi] as usize;
                let top = self.inblossom[r];
                self.keep_least_to_s(kk as usize, top, own, &mut least);
                if top != r
                    && self.label[top] == 2
                    && self.label[r] == 2
                    && self.endpoint(self.labelend[r] as usize) == x
                {
                    // A vertex inside a T-blossom elsewhere, marked as reached from x:
                    // marked again from another S-vertex over a tight edge, if any, else
                    // given its best edge (for when the blossom is opened).
                    self.label[r] = 0;
                    self.labelend[r] = NO;
                    self.renew_best(r);
                    let b = self.bestedge[r];
                    if b != NO && self.slack(b as usize).is_zero() {
                        let e = &self.edges[b as usize];
                        self.label[r] = 2;
                        self.labelend[r] = 2 * b + isize::from(e.u() == r);
                    }
                    continue;
                }
                if self.bestedge[r] == kk {
                    self.renew_best(r);
                }
                if top != r && self.bestedge[top] == kk {
                    self.renew_best(top);
                }
            }
            // As `renew_best` gives an unlabelled vertex outside an S-blossom its best edge.
            if self.label[x] == 0 && self.label[own] != 1 {
                self.give_best(x, least.0);
            }
        }
        // Debug builds: each best edge is the one a walk of its edges finds now, after the
        // renewals of the other vertices.
        #[cfg(debug_assertions)]
        for &x in &leaves {
            if self.label[x] == 0 && self.label[self.inblossom[x]] != 1 {
                let mut walked = (NO, WideN::<L>::ZERO);
                self.least_edge_to_s(x, self.inblossom[x], &mut walked);
                debug_assert_eq!(walked.0, self.bestedge[x], "a leaving vertex's best edge");
            }
        }
        // The S-vertex of least dual may have left: found again among those left.
        if self.least_s != NO && self.moving[self.least_s as usize] != Moving::Falls {
            self.least_s = NO;
            for i in 0..self.stage.verts.len() {
                let v = self.stage.verts[i];
                if self.moving[v] == Moving::Falls
                    && (self.least_s == NO || self.dual(v) < self.dual(self.least_s as usize))
                {
                    self.least_s = v as isize;
                }
            }
        }
    }

    /// Recomputes the best edge of `r`: for a top-level S-blossom (or S-vertex), its
    /// least-slack edge to another S-blossom (with its key, [`Matcher::bestkey`]); for a
    /// vertex not labelled itself, its least-slack edge from an S-vertex.
    fn renew_best(&mut self, r: usize) {
        let two_d = self.stage_delta.plus(self.stage_delta);
        if self.blossomparent[r] == NO && self.label[r] == 1 {
            let mut leaves = std::mem::take(&mut self.leaf_scratch);
            leaves.clear();
            self.leaves(r, &mut leaves);
            let mut best = (NO, WideN::<L>::ZERO);
            for &v in &leaves {
                self.least_edge_to_s(v, r, &mut best);
            }
            self.leaf_scratch = leaves;
            let (best, least) = best;
            self.bestedge[r] = best;
            self.bestkey[r] = least.plus(two_d);
            if best != NO {
                self.best_changed(r);
            }
        } else if r < self.n && self.label[r] == 0 && self.label[self.inblossom[r]] != 1 {
            let mut best = (NO, WideN::<L>::ZERO);
            self.least_edge_to_s(r, self.inblossom[r], &mut best);
            self.give_best(r, best.0);
        }
    }

    /// Gives vertex `v` (unlabelled, outside an S-blossom) the best edge `best` (`NO`: none).
    fn give_best(&mut self, v: usize, best: isize) {
        self.bestedge[v] = best;
        if best != NO {
            self.best_changed(v);
        }
    }

    /// Lowers `best` (an edge and its slack, `NO` for none yet) to the least-slack edge from
    /// vertex `v` to a top-level S-blossom other than `own` (the first of equal slack).
    fn least_edge_to_s(&self, v: usize, own: usize, best: &mut (isize, WideN<L>)) {
        for pi in self.neighstart[v]..self.neighstart[v + 1] {
            let bw = self.inblossom[self.neighbour[pi] as usize];
            self.keep_least_to_s(self.neighbend[pi] as usize / 2, bw, own, best);
        }
    }

    /// Lowers `best` to edge `k` when its far end's top-level blossom `top` is an S-blossom
    /// other than `own` and its slack is less ([`Matcher::least_edge_to_s`]'s test and tie
    /// rule: the first edge of least slack).
    #[inline(always)]
    fn keep_least_to_s(&self, k: usize, top: usize, own: usize, best: &mut (isize, WideN<L>)) {
        if top == own || self.label[top] != 1 {
            return;
        }
        let slack = self.slack(k);
        if best.0 == NO || slack < best.1 {
            *best = (k as isize, slack);
        }
    }

    /// Whether `outer` (each vertex's outer blossom) with the inner vertices is Tutte's
    /// barrier: each edge at an outer vertex stays inside its blossom or leads to an inner
    /// vertex (not a blossom), and the outer blossoms, each of odd size, outnumber the
    /// inner vertices by `free`.
    fn is_barrier(&self, outer: &[Option<usize>], free: usize) -> bool {
        let n = self.n;
        let inner = |v: usize| self.label[self.inblossom[v]] == 2 && self.inblossom[v] == v;
        let edges_ok = self.edges.iter().all(|e| {
            let same = outer[e.u()].is_some() && outer[e.u()] == outer[e.v()];
            (outer[e.u()].is_none() || same || inner(e.v()))
                && (outer[e.v()].is_none() || same || inner(e.u()))
        });
        let mut size = vec![0usize; 2 * n];
        for b in outer.iter().flatten() {
            size[*b] += 1;
        }
        let tops = size.iter().filter(|&&s| s > 0).count();
        edges_ok
            && size.iter().all(|&s| s == 0 || s % 2 == 1)
            && tops == (0..n).filter(|&v| inner(v)).count() + free
            && free > 0
    }

    /// The search. From [`GO_ON_FROM`] vertices, one stage, every free vertex a root, that
    /// augments the matching over each path it finds and goes on with the other trees
    /// ([`Matcher::augment_and_go_on`]), until no delta is left (the roots' duals reach
    /// zero, or in maximum-cardinality mode nothing is left to grow). Below, the textbook
    /// stages, each ending at its augmenting path.
    fn solve(&mut self) {
        let n = self.n;
        // Lazy duals pay where the forest is large and few trees leave it: a search from a
        // few free vertices (a warm start, a pricing round going on). A cold solve pairs
        // a thousand trees, and the renewals each one's leaving brings cost more there.
        let free = (0..n).filter(|&v| self.mate[v] == NO).count();
        let (go_on, lazy) = (n >= GO_ON_FROM, n >= LAZY_FROM && free * 2 <= n);
        // This crate's tests, on small graphs, take the one-stage way and lazy duals (the
        // engine's brackets below the thresholds take the others).
        #[cfg(test)]
        let (go_on, lazy) = match tests::GO_ON_ALWAYS.with(|c| c.get()) {
            true => (true, tests::LAZY_ALWAYS.with(|c| c.get())),
            false => (go_on, lazy),
        };
        self.lazy = lazy;
        // Their scratch, made only for the searches that use it.
        if lazy {
            self.moving.resize(n, Moving::Still);
            self.changed_in.resize(2 * n, false);
        }
        if go_on {
            self.root_of.resize(2 * n, NO);
            self.leaving.resize(2 * n, false);
        }
        if lazy {
            self.solve_stages::<true>(go_on);
        } else {
            self.solve_stages::<false>(go_on);
        }
    }

    /// [`Matcher::solve`]'s stages, compiled once with lazy duals and once without (the
    /// small searches' hot loops then hold nothing of the lazy way).
    fn solve_stages<const LAZY: bool>(&mut self, go_on: bool) {
        let n = self.n;
        for _ in 0..n {
            for l in self.label.iter_mut() {
                *l = 0;
            }
            for e in self.bestedge.iter_mut() {
                *e = NO;
            }
            self.stage_delta = WideN::<L>::ZERO;
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            for a in self.allowedge.iter_mut() {
                *a = false;
            }
            self.queue.clear();
            self.stage.clear(n);
            self.least_s = NO;
            self.tight_at.clear();
            self.s_best.clear();
            for &b in &self.changed {
                self.changed_in[b] = false;
            }
            self.changed.clear();
            // The roots of the search: each delta lowers the doubled dual objective by delta
            // per tree (its outer tops outnumber its inner tops by one).
            let mut roots = 0u64;
            // From a start where every vertex is free with one dual (a cold solve's) the
            // roots' duals fall together and no other S-vertex's falls further: delta 1 is
            // the dual of any root still free, read off the roots in turn as they are
            // matched instead of a pass over the stage's vertices at each delta step (ADR
            // swiss-047). Eager duals only (a lazy search keeps its own candidate).
            let one_dual = !LAZY
                && self.mate.iter().all(|&m| m == NO)
                && self.dualvar[..n].windows(2).all(|d| d[0] == d[1]);
            let mut free_roots: Vec<usize> = Vec::new();
            let mut next_root = 0;
            for v in 0..n {
                if self.mate[v] == NO && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NO);
                    roots += 1;
                    if one_dual {
                        free_roots.push(v);
                    }
                }
            }
            let mut augmented = false;
            loop {
                self.watch.check();
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    // A vertex whose tree left the forest while it waited
                    // ([`Matcher::augment_and_go_on`]).
                    if self.label[self.inblossom[v]] != 1 {
                        continue;
                    }
                    // Duals change only between scans (delta steps): v's own and the stage's
                    // sum of deltas are fixed here.
                    let dv = self.dual(v);
                    let lazy = LAZY;
                    let two_d = self.stage_delta.plus(self.stage_delta);
                    for pi in self.neighstart[v]..self.neighstart[v + 1] {
                        let p = self.neighbend[pi] as usize;
                        let k = p / 2;
                        let w = self.neighbour[pi] as usize;
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = WideN::<L>::ZERO;
                        if !self.allowedge[k] {
                            // The ends of edge k are v and w.
                            let dw = if lazy { self.dual(w) } else { self.dualvar[w] };
                            kslack = dv.plus(dw).minus(self.twice[k]);
                            if kslack.is_zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, (p ^ 1) as isize);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base >= 0 {
                                    self.add_blossom(base as usize, k);
                                } else if go_on {
                                    // The stage goes on with the other trees (v, no longer
                                    // labelled, is not scanned further).
                                    self.augment_and_go_on(k);
                                    roots -= 2;
                                    break;
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = (p ^ 1) as isize;
                                self.stage.vertex(w);
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            let key = kslack.plus(two_d);
                            if self.bestedge[b] == NO || key < self.bestkey[b] {
                                self.bestedge[b] = k as isize;
                                self.bestkey[b] = key;
                                if LAZY {
                                    self.best_changed(b);
                                }
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NO
                                || kslack < self.slack(self.bestedge[w] as usize))
                        {
                            self.bestedge[w] = k as isize;
                            if LAZY {
                                self.best_changed(w);
                            } else {
                                self.stage.best_edge_at(w);
                            }
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Delta 1: minimum vertex dual (not max-cardinality mode).
                let mut deltatype = if self.maxcard { -1 } else { 1 };
                // Delta 1: the least dual of an S-vertex (duals may not go below zero).
                // From a cold start (or [`Matcher::warm_roots`]) the roots hold it, and it
                // ends the search when they reach zero.
                // A lazy search keeps the candidates of deltas 1 to 3 as it goes (no vertex
                // is read here); the others read what the stage labelled ([`Stage`]). Of
                // equal candidates, the least index (the one a scan in index order would
                // keep).
                let scan = || {
                    self.stage
                        .verts
                        .iter()
                        .filter(|&&v| self.label[self.inblossom[v]] == 1)
                        .map(|&v| self.dualvar[v])
                        .min()
                };
                let least_s = if LAZY {
                    (self.least_s != NO).then(|| self.dual(self.least_s as usize))
                } else if one_dual {
                    while free_roots
                        .get(next_root)
                        .is_some_and(|&r| self.mate[r] != NO)
                    {
                        next_root += 1;
                    }
                    let least = free_roots.get(next_root).map(|&r| self.dualvar[r]);
                    debug_assert_eq!(least, scan(), "delta 1 is a free root's dual");
                    least
                } else {
                    scan()
                };
                let mut delta = if self.maxcard {
                    WideN::<L>([u64::MAX; L])
                } else {
                    least_s.unwrap_or(WideN::<L>::ZERO)
                };
                let mut deltaedge = NO;
                let mut deltablossom = NO;
                let least = if LAZY {
                    self.offer_changed();
                    self.least_unlabelled()
                } else {
                    let mut least = None;
                    for &v in &self.stage.best {
                        if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NO {
                            let slack = self.slack(self.bestedge[v] as usize);
                            least = least_first(least, slack, v);
                        }
                    }
                    least
                };
                if let Some(v) = lower_to(&mut delta, least) {
                    deltatype = 2;
                    deltaedge = self.bestedge[v];
                }
                let least = if LAZY {
                    self.least_s_to_s()
                } else {
                    let mut least = None;
                    let tops = self.stage.verts.iter().chain(&self.stage.blossoms);
                    // Each best edge's slack from its key, kept with it (the edge, its ends'
                    // duals and its weight are not read again at each delta step; ADR
                    // swiss-047).
                    let two_d = self.stage_delta.plus(self.stage_delta);
                    for &b in tops {
                        if self.blossomparent[b] == NO
                            && self.label[b] == 1
                            && self.bestedge[b] != NO
                        {
                            let slack = self.bestkey[b].minus(two_d);
                            debug_assert_eq!(
                                self.slack(self.bestedge[b] as usize),
                                slack,
                                "the cached slack of an S-blossom's best edge"
                            );
                            least = least_first(least, slack.half(), b);
                        }
                    }
                    least
                };
                if let Some(b) = lower_to(&mut delta, least) {
                    deltatype = 3;
                    deltaedge = self.bestedge[b];
                }
                // Delta 4 reads the stage's blossoms, dropping those no longer top-level
                // and labelled (a blossom labelled again is recorded again).
                let mut least = None;
                let mut blossoms = std::mem::take(&mut self.stage.blossoms);
                blossoms.retain(|&b| {
                    let top = self.blossombase[b] >= 0
                        && self.blossomparent[b] == NO
                        && self.label[b] != 0;
                    if !top {
                        self.stage.blossom_in[b - n] = false;
                    } else if self.label[b] == 2 {
                        least = least_first(least, self.dualvar[b], b);
                    }
                    top
                });
                self.stage.blossoms = blossoms;
                if let Some(b) = lower_to(&mut delta, least) {
                    deltatype = 4;
                    deltablossom = b as isize;
                }
                if deltatype == 1 && (0..n).any(|v| self.mate[v] == NO && self.dual(v) != delta) {
                    // A matched S-vertex would reach zero before the roots (a warm start's).
                    self.failed = true;
                    self.settle();
                    return;
                }
                if deltatype == -1 {
                    // Maximum cardinality reached: no augmenting path is left.
                    self.exhausted = true;
                    break;
                }
                if self.maxcard && least_s.is_some_and(|d| d < delta) {
                    self.failed = true;
                    self.settle();
                    return;
                }
                // A lazy search's vertex duals move by being read against the stage's sum of
                // deltas; the others' are moved here.
                self.stage_delta = self.stage_delta.plus(delta);
                if !LAZY {
                    for &v in &self.stage.verts {
                        match self.label[self.inblossom[v]] {
                            1 => self.dualvar[v] = self.dualvar[v].minus(delta),
                            2 => self.dualvar[v] = self.dualvar[v].plus(delta),
                            _ => {}
                        }
                    }
                }
                for &b in &self.stage.blossoms {
                    match self.label[b] {
                        1 => self.dualvar[b] = self.dualvar[b].plus(delta),
                        2 => self.dualvar[b] = self.dualvar[b].minus(delta),
                        _ => {}
                    }
                }
                if let Some(floor) = self.floor {
                    let fall = delta.narrow::<8>().times(roots);
                    // The duals are feasible again after this step: stop here if below.
                    if self.objective < fall.plus(floor) {
                        self.below = true;
                        self.settle();
                        return;
                    }
                    self.objective = self.objective.minus(fall);
                }
                match deltatype {
                    1 => break,
                    2 => {
                        let k = deltaedge as usize;
                        self.allowedge[k] = true;
                        let (mut i, j) = (self.edges[k].u(), self.edges[k].v());
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        let k = deltaedge as usize;
                        self.allowedge[k] = true;
                        self.queue.push(self.edges[k].u());
                    }
                    _ => {
                        self.expand_blossom(deltablossom as usize, false);
                    }
                }
            }
            self.settle();
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NO
                    && self.blossombase[b] >= 0
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weight::{Wide, xorshift};

    thread_local! {
        /// Pricing rounds continued from the one before ([`max_weight_matching_priced`]) that
        /// ended, and that gave up.
        pub(super) static CONTINUED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        pub(super) static GAVE_UP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// Pricing rounds that went on from a perfect matching as a search for a perfect one.
        pub(super) static PERFECT_GOING_ON: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// Pricing rounds that left uncovered edges for the next ([`most_uncovered`]).
        pub(super) static HELD_BACK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// Priced warm searches that stopped on their part and went on with more edges
        /// ([`keep_edges_to_go_on`]).
        pub(super) static WENT_ON: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// Every solve augments and goes on, with lazy duals, whatever its size
        /// ([`GO_ON_FROM`], [`LAZY_FROM`]); `false`: as the engine's searches do.
        pub(super) static GO_ON_ALWAYS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
        /// With `GO_ON_ALWAYS`: lazy duals (`false`: the one stage with eager duals, as the
        /// engine's searches of 256 to 1,023 vertices and its cold solves take).
        pub(super) static LAZY_ALWAYS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    }

    /// Warm start after a restriction: from the optimum of a graph, restrict one vertex's
    /// partners (as the Dutch fast path's grouped partner search does) or remove an edge,
    /// and re-solve warm; the result, when given, is perfect and as heavy as the best
    /// perfect matching by brute force, and its certificate bounds every edge.
    #[test]
    fn warm_start_after_a_restriction_matches_brute_force() {
        let mut rnd = xorshift(987654);
        let big = 1000u64; // a completion unit: maximum weight = maximum cardinality
        let (mut warm_used, mut declined) = (0, 0);
        for _ in 0..400 {
            let (n, restricted, warm) = restricted_case(&mut rnd, big, true);
            let best = brute(n, &restricted);
            let perfect_exists = best >= big * n as u64 / 2;
            match max_weight_perfect_matching_warm(n, &restricted, &warm) {
                Some((m, c)) => {
                    warm_used += 1;
                    assert!(m.iter().all(|x| x.is_some()));
                    assert_eq!(total(&restricted, &m), best);
                    for e in &restricted {
                        let mut sum = c.vertex[e.u()].plus(c.vertex[e.v()]);
                        for &(b, z, _) in c.chain(e.u()) {
                            if c.chain(e.v()).iter().any(|&(x, _, _)| x == b) {
                                sum = sum.plus(z).plus(z);
                            }
                        }
                        let two_w = e.w.plus(c.shift).plus(e.w.plus(c.shift));
                        assert!(sum >= two_w, "dual infeasible on {e:?}");
                    }
                }
                // Declining (a dual would fall below zero, no perfect matching) is allowed:
                // the caller then solves cold.
                None => declined += usize::from(perfect_exists),
            }
        }
        assert!(
            warm_used > 300,
            "warm start used {warm_used} times of 400 ({declined} declined with a perfect matching)"
        );
    }

    /// A warm search on a graph without a perfect matching says so, with a barrier that
    /// still proves it after adding a tight pair joined only to vertices outside the
    /// barrier's outer set (as the Dutch fast path adds the players it set aside); when it
    /// finds a perfect matching, it is the heaviest (brute force).
    #[test]
    fn warm_search_proves_no_perfect_matching_with_a_barrier() {
        let mut rnd = xorshift(2718);
        let big = 1000u64;
        let (mut proofs, mut perfect, mut joined) = (0, 0, 0);
        for _ in 0..600 {
            let n = 2 * (rnd() % 4 + 3) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rnd() % 10 < 4 {
                        edges.push(Edge::new(u, v, w(big + rnd() % 30)));
                    }
                }
            }
            let (mate, Some(cert)) = max_weight_matching_with_duals(n, &edges) else {
                continue;
            };
            let Some(old) = mate[0] else {
                continue;
            };
            if mate.iter().any(|m| m.is_none()) {
                continue;
            }
            // Vertex 0 loses its partner and keeps at most two other edges.
            let mut kept_at_0 = 0;
            let restricted: Vec<Edge> = edges
                .iter()
                .copied()
                .filter(|e| {
                    let at_0 = e.u() == 0 || e.v() == 0;
                    if at_0 && (e.u() == old || e.v() == old) {
                        return false;
                    }
                    !at_0 || {
                        kept_at_0 += 1;
                        kept_at_0 <= 2
                    }
                })
                .collect();
            let Some(maxw) = restricted.iter().map(|e| e.w).max() else {
                continue;
            };
            let shift = maxw.plus(maxw);
            let warm = WarmStart {
                dual: (0..n).map(|v| cert.spread_dual(v, shift)).collect(),
                mate,
                shift,
            };
            let best = brute(n, &restricted);
            match warm_search(n, &restricted, &warm, None) {
                WarmSearch::Perfect(m, _) => {
                    perfect += 1;
                    assert_eq!(total(&restricted, &m), best);
                }
                WarmSearch::NoPerfect { outer, free } => {
                    proofs += 1;
                    assert!(best < big * n as u64 / 2, "a perfect matching exists");
                    // Two more vertices, paired, joined to every vertex not outer and to
                    // the vertices of k outer blossoms: the proof must stand while
                    // free - k + (k mod 2) > 0.
                    let mut tops: Vec<usize> = outer.iter().flatten().copied().collect();
                    tops.sort_unstable();
                    tops.dedup();
                    for k in 0..=tops.len().min(3) {
                        let touching = &tops[..k];
                        let mut bigger = restricted.clone();
                        bigger.push(Edge::new(n, n + 1, w(big)));
                        for v in (0..n).filter(|&v| outer[v].is_none_or(|b| touching.contains(&b)))
                        {
                            for x in [n, n + 1] {
                                bigger.push(Edge::new(v, x, w(big)));
                            }
                        }
                        if free + k % 2 > k {
                            joined += usize::from(k > 0);
                            assert!(
                                brute(n + 2, &bigger) < big * (n as u64 + 2) / 2,
                                "the barrier no longer proves it ({k} outer blossoms joined)"
                            );
                        }
                    }
                }
                WarmSearch::Declined => {}
                WarmSearch::Below(_) => panic!("stopped without a floor"),
            }
        }
        assert!(
            proofs > 50 && perfect > 50 && joined > 50,
            "{proofs} proofs ({joined} with outer blossoms joined), {perfect} perfect"
        );
    }

    /// The blossom duals over an edge, found by halving over the two nested chains, equal
    /// the sum over every blossom holding both ends (a naive scan), on certificates of
    /// random graphs with many ties (so with blossoms nested several deep). Each vertex's
    /// shared chain is the matcher's chain of parents; the dual objective, counted over the
    /// shared paths, equals the count over each vertex's chain, and each chain's outer sums
    /// add its duals from the outside in.
    #[test]
    fn common_blossom_duals_equal_the_naive_sum() {
        let mut rnd = xorshift(31337);
        let mut deepest = 0;
        for _ in 0..200 {
            let n = 2 * (rnd() % 12 + 3) as usize;
            let edges = random_graph(&mut rnd, n, 3, 100, 3);
            if edges.is_empty() {
                continue;
            }
            let mut m = Matcher::new(n, &edges);
            m.solve();
            let c = m.certificate(Wide::ZERO);
            // Each shared chain is the matcher's own: the parents from the outside in.
            for v in 0..n {
                let mut walk = Vec::new();
                let mut b = m.blossomparent[v];
                while b >= 0 {
                    walk.push(b as usize);
                    b = m.blossomparent[b as usize];
                }
                walk.reverse();
                let chain: Vec<usize> = c.chain(v).iter().map(|l| l.0).collect();
                assert_eq!(chain, walk, "chain of vertex {v}");
            }
            for u in 0..n {
                for v in 0..n {
                    let mut naive = c.vertex[u].plus(c.vertex[v]);
                    let mut common = 0;
                    for &(b, z, _) in c.chain(u) {
                        if c.chain(v).iter().any(|&(x, _, _)| x == b) {
                            naive = naive.plus(z).plus(z);
                            common += 1;
                        }
                    }
                    deepest = deepest.max(common);
                    assert_eq!(c.dual_sum_and_twice(u, v, Wide::ZERO).0, naive);
                }
            }
            let mut size: std::collections::HashMap<usize, (u64, Wide)> = Default::default();
            let mut objective = WideN::<8>::ZERO;
            for v in 0..n {
                objective = objective.plus(c.vertex[v]);
                let mut outer = Wide::ZERO;
                for &(b, z, sum) in c.chain(v) {
                    outer = outer.plus(z);
                    assert_eq!(sum, outer, "outer sum of blossom {b} at vertex {v}");
                    size.entry(b).or_insert((0, z)).0 += 1;
                }
            }
            for (count, z) in size.into_values() {
                objective = objective.plus(z.times(count - 1));
            }
            assert_eq!(c.doubled_objective(), objective);
        }
        assert!(deepest >= 2, "blossoms nested {deepest} deep at most");
    }

    /// Warm duals need not share one parity (a free vertex's dual raised by one is still
    /// feasible), while the search halves the slack of S–S edges: it must stay exact (the
    /// solver's debug assertion checks every halved slack is even).
    #[test]
    fn warm_start_with_free_duals_of_both_parities_matches_brute_force() {
        let mut rnd = xorshift(4242);
        let big = 1000u64;
        let mut one = Wide::ZERO;
        one.add_at(0, 1);
        let mut used = 0;
        for _ in 0..300 {
            let (n, restricted, mut warm) = restricted_case(&mut rnd, big, false);
            let paired = |v: usize, p: usize| {
                restricted
                    .iter()
                    .any(|e| (e.u(), e.v()) == (v, p) || (e.u(), e.v()) == (p, v))
            };
            let free = (0..n)
                .find(|&v| warm.mate[v].is_none_or(|p| !paired(v, p)))
                .expect("the restricted vertex starts free");
            warm.dual[free] = warm.dual[free].plus(one);
            if let Some((m, _)) = max_weight_perfect_matching_warm(n, &restricted, &warm) {
                used += 1;
                assert_eq!(total(&restricted, &m), brute(n, &restricted));
            }
        }
        assert!(used > 200, "warm start used {used} times of 300");
    }

    /// A matching solved on a random part of the edges and priced against the rest is as
    /// heavy as the best matching of the whole graph (brute force on small graphs, the
    /// plain solve on larger ones), and its certificate covers every edge.
    #[test]
    fn priced_matching_equals_the_whole_graph() {
        let mut rnd = xorshift(31337);
        let mut repriced = 0;
        for round in 0..300u32 {
            let n = if round.is_multiple_of(3) {
                (rnd() % 50 + 20) as usize
            } else {
                (rnd() % 9 + 2) as usize
            };
            let edges = random_graph(&mut rnd, n, 4, 1, 40);
            let keep: Vec<bool> = edges.iter().map(|_| rnd().is_multiple_of(3)).collect();
            let Some((m, cert)) = max_weight_matching_priced(n, &edges, keep.clone(), n * n) else {
                // Only an empty part (no edge kept) declines.
                assert!(!keep.contains(&true));
                continue;
            };
            let expected = if n <= 10 {
                brute(n, &edges)
            } else {
                total(&edges, &max_weight_matching(n, &edges))
            };
            assert_eq!(total(&edges, &m), expected, "n={n}");
            assert!(edges.iter().all(|e| cert.covers(e.u(), e.v(), e.w)));
            let solved_on_part = edges
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(e, _)| *e)
                .collect::<Vec<_>>();
            if total(&edges, &max_weight_matching(n, &solved_on_part)) < expected {
                repriced += 1;
            }
        }
        assert!(
            repriced > 50,
            "the part alone was optimal too often ({repriced})"
        );
    }

    /// The priced matching whose later rounds continue from the round before (new edges
    /// covered by raising duals, blossoms kept) is as heavy as the best matching of the
    /// whole graph, its certificate covers every edge and is tight on its pairs, and
    /// vertices it leaves unpaired have zero duals; the continued search rarely gives up.
    #[test]
    fn continued_pricing_equals_the_whole_graph() {
        let mut rnd = xorshift(4242);
        let (mut continued, mut gave_up) = (0, 0);
        let held_back_before = HELD_BACK.with(|c| c.get());
        for round in 0..600u32 {
            let n = if round.is_multiple_of(3) {
                (rnd() % 60 + 10) as usize
            } else {
                (rnd() % 9 + 2) as usize
            };
            let sparse = rnd() % 4 + 2;
            let edges = random_graph(&mut rnd, n, sparse, 1, 60);
            let keep: Vec<bool> = edges.iter().map(|_| rnd().is_multiple_of(4)).collect();
            let before = CONTINUED.with(|c| c.get());
            let failed_before = GAVE_UP.with(|c| c.get());
            let Some((m, cert)) = max_weight_matching_priced(n, &edges, keep.clone(), n * n) else {
                assert!(!keep.contains(&true));
                continue;
            };
            continued += CONTINUED.with(|c| c.get()) - before;
            gave_up += GAVE_UP.with(|c| c.get()) - failed_before;
            let expected = if n <= 10 {
                brute(n, &edges)
            } else {
                total(&edges, &max_weight_matching(n, &edges))
            };
            assert_eq!(total(&edges, &m), expected, "n={n}");
            assert!(cert.shift.is_zero());
            assert!(edges.iter().all(|e| cert.covers(e.u(), e.v(), e.w)));
            for e in &edges {
                if m[e.u()] == Some(e.v()) {
                    assert!(cert.reduced_cost(e.u(), e.v(), e.w).is_zero(), "tight pair");
                }
            }
            for (mate, dual) in m.iter().zip(&cert.vertex) {
                if mate.is_none() {
                    assert!(dual.is_zero(), "an unpaired vertex's dual is zero");
                }
            }
        }
        assert!(continued > 200, "continued only {continued} times");
        let held_back = HELD_BACK.with(|c| c.get()) - held_back_before;
        assert!(held_back > 0, "no round held uncovered edges back");
        assert!(
            gave_up * 10 < continued,
            "gave up {gave_up} times of {continued}"
        );
    }

    /// Graphs whose every edge carries a completion unit (so the best matching is perfect,
    /// as in the engine's brackets), priced from a part that has a perfect matching: the
    /// rounds after the first go on as searches for a perfect matching (ADR swiss-035), and
    /// the result is as heavy as the plain solve of the whole graph, perfect, its certificate
    /// covering every edge, tight on its pairs and never below zero.
    #[test]
    fn pricing_from_a_perfect_part_equals_the_whole_graph() {
        let mut rnd = xorshift(8086);
        let big = 1u64 << 20;
        let (going_on_before, gave_up_before) = (
            PERFECT_GOING_ON.with(|c| c.get()),
            GAVE_UP.with(|c| c.get()),
        );
        for round in 0..300u32 {
            let n = 2 * (rnd() % if round.is_multiple_of(3) { 30 } else { 6 } + 2) as usize;
            let mut edges = Vec::new();
            let mut keep = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    // The pairs (2i, 2i + 1) are edges and in the part: it has a perfect
                    // matching, so the first round's is perfect.
                    let paired = u % 2 == 0 && v == u + 1;
                    if paired || !rnd().is_multiple_of(3) {
                        edges.push(Edge::new(u, v, w(big + rnd() % 500)));
                        keep.push(paired || rnd().is_multiple_of(5));
                    }
                }
            }
            let (m, cert) =
                max_weight_matching_priced(n, &edges, keep, n * n).expect("a part with edges");
            assert_eq!(
                total(&edges, &m),
                total(&edges, &max_weight_matching(n, &edges)),
                "n={n}"
            );
            assert!(m.iter().all(|x| x.is_some()), "perfect");
            assert!(edges.iter().all(|e| cert.covers(e.u(), e.v(), e.w)));
            for e in &edges {
                if m[e.u()] == Some(e.v()) {
                    assert!(cert.reduced_cost(e.u(), e.v(), e.w).is_zero(), "tight pair");
                }
            }
        }
        let going_on = PERFECT_GOING_ON.with(|c| c.get()) - going_on_before;
        let gave_up = GAVE_UP.with(|c| c.get()) - gave_up_before;
        assert!(
            going_on > 100,
            "went on as perfect searches {going_on} times"
        );
        assert!(
            gave_up * 10 < going_on,
            "gave up {gave_up} times of {going_on}"
        );
    }

    /// A dense graph priced from a thin part leaves more uncovered edges than a round takes
    /// ([`most_uncovered`]): those held back are priced again in the next round, and the
    /// matching is still as heavy as the best of the whole graph, its certificate covering
    /// every edge.
    #[test]
    fn pricing_that_holds_edges_back_equals_the_whole_graph() {
        let mut rnd = xorshift(2027);
        let held_back_before = HELD_BACK.with(|c| c.get());
        for _ in 0..120u32 {
            let n = (rnd() % 50 + 30) as usize;
            let edges = random_graph(&mut rnd, n, 8, 1, 200);
            let keep: Vec<bool> = edges.iter().map(|_| rnd().is_multiple_of(40)).collect();
            let Some((m, cert)) = max_weight_matching_priced(n, &edges, keep.clone(), n * n) else {
                assert!(!keep.contains(&true));
                continue;
            };
            let expected = total(&edges, &max_weight_matching(n, &edges));
            assert_eq!(total(&edges, &m), expected, "n={n}");
            assert!(edges.iter().all(|e| cert.covers(e.u(), e.v(), e.w)));
        }
        let held_back = HELD_BACK.with(|c| c.get()) - held_back_before;
        assert!(held_back > 60, "rounds that held edges back: {held_back}");
    }

    /// The priced warm start after a restriction gives, when it does not decline, a perfect
    /// matching as heavy as the best perfect matching by brute force.
    #[test]
    fn priced_warm_start_matches_brute_force() {
        let mut rnd = xorshift(2718);
        let big = 1000u64;
        let mut used = 0;
        let mut hinted = 0;
        let went_on = WENT_ON.with(|c| c.get());
        for _ in 0..300 {
            let (n, restricted, warm) = restricted_case(&mut rnd, big, false);
            // One edge a vertex: the part often has no perfect matching at first, and the
            // search goes on with the edges it lacked (keep_edges_to_go_on).
            // A hint (a like question's part): a few of the edges, whichever they are.
            let hint: Vec<usize> = (0..restricted.len())
                .filter(|_| rnd().is_multiple_of(4))
                .collect();
            for (least, hint) in [(1, None), (2, None), (1, Some(&hint[..]))] {
                if let Some((Ok((m, c)), part)) = max_weight_perfect_matching_warm_priced(
                    n,
                    &restricted,
                    &warm,
                    least,
                    n * n,
                    None,
                    hint,
                ) {
                    used += 1;
                    assert!(part.iter().all(|&k| k < restricted.len()));
                    if hint.is_some() {
                        hinted += 1;
                    }
                    assert!(m.iter().all(|x| x.is_some()));
                    assert_eq!(total(&restricted, &m), brute(n, &restricted));
                    assert!(restricted.iter().all(|e| c.covers(e.u(), e.v(), e.w)));
                }
            }
        }
        let went_on = WENT_ON.with(|c| c.get()) - went_on;
        assert!(used > 600, "priced warm start used {used} times of 900");
        assert!(
            hinted > 200,
            "priced warm start with a hint used {hinted} times of 300"
        );
        assert!(went_on > 50, "went on with more edges {went_on} times");
    }

    /// A warm search with a floor: never stops below a floor the best perfect matching
    /// reaches; above it, either finds that matching or stops with feasible duals whose
    /// objective is below the floor (also through the priced search).
    #[test]
    fn warm_search_stops_below_a_floor_only_when_no_perfect_matching_reaches_it() {
        let mut rnd = xorshift(1618);
        let big = 1000u64;
        let (mut below, mut cases) = (0, 0);
        for _ in 0..400 {
            let (n, restricted, warm) = restricted_case(&mut rnd, big, false);
            let WarmSearch::Perfect(_, _) = warm_search(n, &restricted, &warm, None) else {
                continue;
            };
            cases += 1;
            let best = brute(n, &restricted);
            // Twice the best perfect matching's weight with every edge raised by the shift.
            let reached = w(best)
                .times(2)
                .plus(warm.shift.times(n as u64))
                .narrow::<8>();
            let mut one = WideN::<8>::ZERO;
            one.add_at(0, 1);
            let higher = [reached.plus(one), reached.plus(w(rnd() % big + 1))];
            match warm_search(n, &restricted, &warm, Some(reached)) {
                WarmSearch::Perfect(m, _) => assert_eq!(total(&restricted, &m), best),
                other => panic!("stopped at a floor the best matching reaches: {other:?}"),
            }
            for floor in higher {
                let searches = [
                    warm_search(n, &restricted, &warm, Some(floor)),
                    match max_weight_perfect_matching_warm_priced(
                        n,
                        &restricted,
                        &warm,
                        2,
                        n * n,
                        Some(floor),
                        None,
                    ) {
                        Some((Ok((m, c)), _)) => WarmSearch::Perfect(m, c),
                        Some((Err(c), _)) => WarmSearch::Below(c),
                        None => WarmSearch::Declined,
                    },
                    // With a hint: the edges at odd positions.
                    match max_weight_perfect_matching_warm_priced(
                        n,
                        &restricted,
                        &warm,
                        2,
                        n * n,
                        Some(floor),
                        Some(&(1..restricted.len()).step_by(2).collect::<Vec<_>>()),
                    ) {
                        Some((Ok((m, c)), _)) => WarmSearch::Perfect(m, c),
                        Some((Err(c), _)) => WarmSearch::Below(c),
                        None => WarmSearch::Declined,
                    },
                ];
                for found in searches {
                    match found {
                        WarmSearch::Perfect(m, _) => assert_eq!(total(&restricted, &m), best),
                        WarmSearch::Below(c) => {
                            below += 1;
                            assert!(c.doubled_objective() < floor);
                            assert!(restricted.iter().all(|e| c.covers(e.u(), e.v(), e.w)));
                        }
                        WarmSearch::Declined => {}
                        WarmSearch::NoPerfect { .. } => panic!("a perfect matching exists"),
                    }
                }
            }
        }
        assert!(
            cases > 200 && below > cases,
            "{below} stops in {cases} cases"
        );
    }

    /// A xorshift generator for the random tests.
    /// A random graph on n vertices: each pair an edge unless `rnd()` is a multiple of
    /// `missing_one_in`, weighing `low + rnd() % spread` (the weight drawn after the pair).
    #[test]
    fn each_vertexs_least_edges_on_two_threads_are_those_on_one() {
        // Weights from a narrow range (many ties: the earlier edge wins), some edges kept
        // already, lists of 1 to 7 edges a vertex, on graphs of 2 to 40 vertices.
        let mut rnd = xorshift(4242);
        for case in 0..200 {
            let n = 2 + (rnd() % 39) as usize;
            let edges = random_graph(&mut rnd, n, 3, 1, 4);
            let count = 1 + (rnd() % 7) as usize;
            let kept: Vec<bool> = edges.iter().map(|_| rnd().is_multiple_of(5)).collect();
            let lists = |two: bool| {
                crate::two_threads::FORCED.with(|c| c.set(Some(two)));
                let mut keep = kept.clone();
                keep_best_per_vertex(n, &edges, count, &mut keep, |e| e.w);
                let mut go_on = kept.clone();
                let outer: Vec<Option<usize>> =
                    (0..n).map(|v| (v % 3 != 0).then_some(v % 4)).collect();
                keep_least_at(
                    n,
                    &edges,
                    count,
                    &mut go_on,
                    |e| Reverse(e.w),
                    |k, a, b| !k && outer[a].is_some() && outer[a] != outer[b],
                );
                crate::two_threads::FORCED.with(|c| c.set(None));
                (keep, go_on)
            };
            assert_eq!(lists(false), lists(true), "case {case}");
            // One half of the edges takes none (every edge of it kept already, and the
            // filter passes over kept edges): the other half's lists alone.
            let m = edges.len();
            for first_half in [false, true] {
                let kept: Vec<bool> = (0..m).map(|k| (k < m / 2) == first_half).collect();
                let lists = |two: bool| {
                    crate::two_threads::FORCED.with(|c| c.set(Some(two)));
                    let mut keep = kept.clone();
                    keep_least_at(n, &edges, count, &mut keep, |e| e.w, |k, _, _| !k);
                    crate::two_threads::FORCED.with(|c| c.set(None));
                    keep
                };
                assert_eq!(lists(false), lists(true), "case {case}, half {first_half}");
            }
        }
    }

    fn random_graph(
        rnd: &mut impl FnMut() -> u64,
        n: usize,
        missing_one_in: u64,
        low: u64,
        spread: u64,
    ) -> Vec<Edge> {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if !rnd().is_multiple_of(missing_one_in) {
                    edges.push(Edge::new(u, v, w(low + rnd() % spread)));
                }
            }
        }
        edges
    }

    /// A complete graph of 4–10 vertices weighing `big` (a completion unit: maximum weight
    /// = maximum cardinality) plus up to 29, solved; then one vertex is restricted to
    /// partners other than its own (and, when `thin`, a quarter of the other edges are
    /// dropped). Returns the restricted edges and the warm start from the optimum.
    fn restricted_case(
        rnd: &mut impl FnMut() -> u64,
        big: u64,
        thin: bool,
    ) -> (usize, Vec<Edge>, WarmStart<8>) {
        let n = 2 * (rnd() % 4 + 2) as usize;
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                edges.push(Edge::new(u, v, w(big + rnd() % 30)));
            }
        }
        let (mate, cert) = max_weight_matching_with_duals(n, &edges);
        let cert = cert.expect("certificate");
        let a = (rnd() as usize) % n;
        let old = mate[a].expect("perfect");
        let restricted: Vec<Edge> = edges
            .iter()
            .copied()
            .filter(|e| !((e.u() == a && e.v() == old) || (e.v() == a && e.u() == old)))
            .filter(|e| !thin || !rnd().is_multiple_of(4) || e.u() == a || e.v() == a)
            .collect();
        let maxw = restricted.iter().map(|e| e.w).max().expect("edges");
        let shift = maxw.plus(maxw);
        let warm = WarmStart {
            dual: (0..n).map(|v| cert.spread_dual(v, shift)).collect(),
            mate,
            shift,
        };
        (n, restricted, warm)
    }

    fn w(x: u64) -> Wide {
        let mut r = Wide::ZERO;
        r.add_at(1, x);
        r
    }

    fn total(edges: &[Edge], mate: &[Option<usize>]) -> u64 {
        edges
            .iter()
            .filter(|e| mate[e.u()] == Some(e.v()))
            .map(|e| e.w.field(1, 60))
            .sum()
    }

    fn brute(n: usize, edges: &[Edge]) -> u64 {
        fn rec(used: u32, edges: &[Edge], i: usize) -> u64 {
            if i == edges.len() {
                return 0;
            }
            let mut best = rec(used, edges, i + 1);
            let e = edges[i];
            if used & (1 << e.u()) == 0 && used & (1 << e.v()) == 0 {
                best =
                    best.max(e.w.field(1, 60) + rec(used | 1 << e.u() | 1 << e.v(), edges, i + 1));
            }
            best
        }
        let _ = n;
        rec(0, edges, 0)
    }

    #[test]
    fn small_cases() {
        let e = vec![
            Edge::new(0, 1, w(5)),
            Edge::new(1, 2, w(11)),
            Edge::new(2, 3, w(5)),
        ];
        let m = max_weight_matching(4, &e);
        assert_eq!(m[1], Some(2));
        // a blossom case
        let e = vec![
            Edge::new(0, 1, w(8)),
            Edge::new(0, 2, w(9)),
            Edge::new(1, 2, w(10)),
            Edge::new(2, 3, w(7)),
        ];
        let m = max_weight_matching(4, &e);
        assert_eq!(total(&e, &m), 15);
    }

    #[test]
    fn certificate_bounds_every_forced_edge() {
        let mut rnd = xorshift(777);
        for _ in 0..200 {
            let n = (rnd() % 9 + 2) as usize;
            let edges = random_graph(&mut rnd, n, 3, 1, 20);
            let (m, cert) = max_weight_matching_with_duals(n, &edges);
            let Some(cert) = cert else { continue };
            let best = total(&edges, &m);
            for e in &edges {
                // best matching containing e, by brute force on the rest
                let rest: Vec<Edge> = edges
                    .iter()
                    .filter(|f| {
                        f.u() != e.u() && f.u() != e.v() && f.v() != e.u() && f.v() != e.v()
                    })
                    .copied()
                    .collect();
                let with_e = e.w.field(1, 60) + brute(n, &rest);
                let rc = cert.reduced_cost(e.u(), e.v(), e.w).half().field(1, 60);
                assert!(with_e + rc <= best, "bound violated");
                if rc > 0 {
                    assert!(with_e < best);
                }
            }
        }
    }

    /// Larger graphs than brute force reaches: the one-stage search with lazy duals and with
    /// eager ones (ADR swiss-026) and the textbook stages find matchings of the same weight, and the duals of each cover
    /// every edge with every matched edge tight. Dense graphs of few weights make many
    /// blossoms, trees that leave the forest holding some, and T-blossoms opened after.
    #[test]
    fn one_stage_search_equals_the_textbook_stages() {
        let mut rnd = xorshift(2026);
        for case in 0..300 {
            let n = (rnd() % 70 + 10) as usize;
            let (missing, spread) = [(2, 4), (3, 20), (5, 3), (8, 50)][case % 4];
            let edges = random_graph(&mut rnd, n, missing, 1, spread);
            let mut found = Vec::new();
            // One stage with lazy duals, one stage with eager ones, the textbook stages.
            for (go_on, lazy) in [(true, true), (true, false), (false, false)] {
                GO_ON_ALWAYS.with(|c| c.set(go_on));
                LAZY_ALWAYS.with(|c| c.set(lazy));
                let (m, cert) = max_weight_matching_with_duals(n, &edges);
                if let Some(cert) = cert {
                    for e in &edges {
                        assert!(
                            cert.covers(e.u(), e.v(), e.w),
                            "case {case}: an edge uncovered"
                        );
                        if m[e.u()] == Some(e.v()) {
                            assert!(
                                cert.reduced_cost(e.u(), e.v(), e.w).is_zero(),
                                "case {case}: a matched edge not tight"
                            );
                        }
                    }
                }
                found.push(total(&edges, &m));
            }
            GO_ON_ALWAYS.with(|c| c.set(true));
            LAZY_ALWAYS.with(|c| c.set(true));
            assert_eq!(found[0], found[1], "case {case}: n={n}, lazy");
            assert_eq!(found[1], found[2], "case {case}: n={n}, eager");
        }
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut rnd = xorshift(12345);
        for _ in 0..400 {
            let n = (rnd() % 9 + 2) as usize;
            let edges = random_graph(&mut rnd, n, 3, 1, 20);
            let m = max_weight_matching(n, &edges);
            for v in 0..n {
                if let Some(u) = m[v] {
                    assert_eq!(m[u], Some(v));
                }
            }
            assert_eq!(total(&edges, &m), brute(n, &edges), "n={n} edges={edges:?}");
        }
    }
}
