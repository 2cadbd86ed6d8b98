//! The fast path's warm questions answered on the [`EdgeCache`] itself, without listing its
//! millions of edges (ADR swiss-025).
//!
//! A question of a bracket's partner search (is the known optimum's quality still reachable
//! with this player restricted to these partners?) starts from the known optimum `k`: its
//! pairs and its duals, which cover every edge of the cache. The priced warm search
//! ([`max_weight_perfect_matching_warm_priced`]) solves it on a small part of the edges and
//! checks the duals it ends with against all of them. Listing the edges and that check were
//! two thirds of a question in the 4,000-player last bracket of a 9,999-player round 2,
//! where the search itself, one stage from the two players the question frees, touches a few
//! thousand edges.
//!
//! Here the part is built from each player's own pairs in the cache ([`PairsAt`]): the warm
//! pairs, every edge at a player they leave free, and the part the last question ended with
//! (the same part the listed search starts from, in the same order). The check reads only
//! the edges at players whose dual the search lowered: the warm duals cover every edge, so
//! an edge at two players whose duals did not fall stays covered (blossom duals only add),
//! and so does one whose other end rose at least as far. A search that stops short (no perfect matching on the
//! part, a warm start it cannot use, too many rounds) leaves the question to the listed
//! path, which answers it as before.
//!
//! A question answered "below its floor" leaves its duals on the cache ([`CarriedProof`]):
//! the next question of the partner search is often answered by them alone, with the dual
//! of the one player it restricts worked out again from that player's own pairs (ADR
//! swiss-036), without a search or a pass over the cache.

use super::*;

/// The duals with which the last question on an [`EdgeCache`] was answered below its floor
/// (ADR swiss-036), their blossoms spread onto the vertices: feasible for every pair that
/// question allowed, that is every allowed pair of the cache among its players but those at
/// the player it restricted.
pub(super) struct CarriedProof {
    /// Each player's doubled dual (weights raised by `shift`); `None`: not in that question.
    dual: Vec<Option<Wide>>,
    shift: Wide,
    /// The player whose partners that question restricted.
    who: usize,
}

/// How a question weighs and admits the pairs of an [`EdgeCache`]: the pair's weight with
/// the partner rank of the player `only` restricts (ADR swiss-028), and its local ends when
/// it is an edge of the question (allowed, both ends present, `only` permitting).
struct AskedOf<'a> {
    pairs: &'a [(u32, u32)],
    weights: &'a [u64],
    allowed: &'a [bool],
    fr: &'a Frame,
    cons: &'a Cons,
    idx: &'a [usize],
}

impl<'a> AskedOf<'a> {
    fn of(c: &'a EdgeCache, fr: &'a Frame, cons: &'a Cons, idx: &'a [usize]) -> Self {
        AskedOf {
            pairs: &c.pairs,
            weights: &c.weights,
            allowed: &c.allowed,
            fr,
            cons,
            idx,
        }
    }

    fn weight<const M: usize>(&self, p: usize) -> WideN<M> {
        let (u, v) = self.pairs[p];
        self.cons.weigh(
            self.fr,
            u as usize,
            v as usize,
            cached_weight::<M>(self.weights, p),
        )
    }

    fn usable(&self, p: usize) -> Option<(usize, usize)> {
        if !self.allowed[p] {
            return None;
        }
        let (u, v) = (self.pairs[p].0 as usize, self.pairs[p].1 as usize);
        let (iu, iv) = (self.idx[u], self.idx[v]);
        if iu == usize::MAX || iv == usize::MAX || !self.cons.only_allows(u, v) {
            return None;
        }
        Some((iu, iv))
    }
}

/// Each cached pair's index at both its ends, vertex by vertex; a vertex's pairs read in
/// the cache's (ascending) order, so its neighbours ascend too.
pub(super) struct PairsAt {
    start: Vec<u32>,
    at: Vec<u32>,
}

impl PairsAt {
    /// The pairs at each of the vertices `0..nv`.
    pub(super) fn new(nv: usize, pairs: &[(u32, u32)]) -> PairsAt {
        let mut start = vec![0u32; nv + 1];
        for &(u, v) in pairs {
            start[u as usize + 1] += 1;
            start[v as usize + 1] += 1;
        }
        for v in 0..nv {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut at = vec![0u32; start[nv] as usize];
        for (p, &(u, v)) in pairs.iter().enumerate() {
            for x in [u as usize, v as usize] {
                at[fill[x] as usize] = p as u32;
                fill[x] += 1;
            }
        }
        PairsAt { start, at }
    }

    /// The index in `pairs` (those this was made of) of the pair (a, b), found among a's
    /// pairs by its other end.
    fn find(&self, pairs: &[(u32, u32)], a: usize, b: usize) -> Option<usize> {
        let other = |p: u32| {
            let (x, y) = pairs[p as usize];
            if x as usize == a {
                y as usize
            } else {
                x as usize
            }
        };
        let list = self.of(a);
        let i = list.partition_point(|&p| other(p) < b);
        list.get(i).filter(|&&p| other(p) == b).map(|&p| p as usize)
    }

    /// The indices of the pairs at `v`.
    fn of(&self, v: usize) -> &[u32] {
        match (self.start.get(v), self.start.get(v + 1)) {
            (Some(&a), Some(&b)) => &self.at[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// What a question answered on the cache found: a perfect matching of maximum weight with
/// its certificate and the edges it was solved on (local indices), or duals below the floor
/// ([`WarmSearch::Below`]); both feasible for every edge of the question.
pub(super) type CachedAnswer<const M: usize> = (Priced<M>, Vec<Edge<M>>);

impl Engine {
    /// The warm question on `verts` (local indices `idx`) about the known optimum `k`, asked
    /// of the [`EdgeCache`] when it holds this question's edges and the hint of the question
    /// before; `None` leaves it to the listed path ([`solve_verts_in`]). `floor` as there.
    pub(super) fn cached_warm_question<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        idx: &[usize],
        k: &Sol,
        floor: Option<Wide>,
    ) -> Option<CachedAnswer<M>> {
        let mut guard = self.edge_cache.borrow_mut();
        let c = guard.as_mut()?;
        if !c.holds(fr.id, Some(k.cert_id), Some(M), verts) || c.hint.is_empty() {
            return None;
        }
        let cert = k.cert.as_ref()?;
        c.allowed_under(self, fr, cons);
        if !c.checked {
            // Once per cache: whether `k`'s duals cover every pair (a certificate found on
            // fewer edges need not; then every question is listed), and the pairs by player.
            c.checked = true;
            // A cache taken over by a new optimum (ADR swiss-037) knows its duals cover
            // every pair a question allows, and its heaviest pair.
            let (heaviest, covers) = match c.heaviest.filter(|_| c.trusted) {
                Some(h) => (h.narrow::<M>(), true),
                None => {
                    let mut heaviest = WideN::<M>::ZERO;
                    let mut covers = true;
                    for (p, &(u, v)) in c.pairs.iter().enumerate() {
                        let w = cached_weight::<M>(&c.weights, p);
                        heaviest = heaviest.max(w);
                        covers = covers
                            && (c.trusted || cert.covers(u as usize, v as usize, w.narrow::<8>()));
                    }
                    (heaviest, covers)
                }
            };
            // Debug builds: the duals a cache was taken over with cover every allowed pair
            // of this question's players (at their weights without a partner rank).
            #[cfg(debug_assertions)]
            if c.trusted {
                for (p, &(u, v)) in c.pairs.iter().enumerate() {
                    let (u, v) = (u as usize, v as usize);
                    if c.allowed[p] && idx[u] != usize::MAX && idx[v] != usize::MAX {
                        debug_assert!(
                            cert.covers(u, v, cached_weight::<M>(&c.weights, p).narrow::<8>()),
                            "the duals a cache was taken over with cover pair {p}"
                        );
                    }
                }
            }
            if !covers {
                c.heaviest = None;
            } else {
                let at = c
                    .pairs_at
                    .take()
                    .unwrap_or_else(|| PairsAt::new(self.n + 1, &c.pairs));
                // Each player's pair with its partner in `k`, the warm pairs of every question
                // of this cache (`u32::MAX`: none cached).
                let mut mate_at = vec![u32::MAX; self.n + 1];
                for (v, m) in k.mate.iter().enumerate() {
                    if let Some(u) = *m
                        && v < u
                        && u < mate_at.len()
                        && k.mate.get(u) == Some(&Some(v))
                        && let Some(p) = at.find(&c.pairs, v, u)
                    {
                        mate_at[v] = p as u32;
                        mate_at[u] = p as u32;
                    }
                }
                c.mate_at = Some(mate_at);
                c.pairs_at = Some(at);
                c.heaviest = Some(heaviest.narrow::<8>());
                // The warm duals every question starts from (`Engine::warm_start`'s), each
                // pair's slack under them. Not for a cache taken over (ADR swiss-037): its
                // optimum serves about one question, and the floors cost a pass over the
                // cache like the check they spare.
                let shift = heaviest.narrow::<8>().times(2).max(cert.shift);
                c.warm_slack = (!c.trusted && shift.narrow::<M>().narrow::<8>() == shift)
                    .then(|| {
                        let dual: Vec<Option<WideN<M>>> = (0..=self.n)
                            .map(|v| {
                                let d = cert.spread_dual(v, shift);
                                (c.covered.get(v) == Some(&true)
                                    && d.narrow::<M>().narrow::<8>() == d)
                                    .then(|| d.narrow::<M>())
                            })
                            .collect();
                        let twice_shift = shift.narrow::<M>().times(2);
                        warm_slack_floors(&c.pairs, &c.weights, &dual, twice_shift)
                    })
                    .flatten();
                // The listed path's spare list is not needed while questions come here.
                c.spare = None;
            }
        }
        let maxw = c.heaviest?;
        c.asked = c.asked.wrapping_add(1);
        let c = &*c;
        let at = c.pairs_at.as_ref()?;
        let asked = AskedOf::of(c, fr, cons, idx);
        let weight = |p: usize| asked.weight::<M>(p);
        let usable = |p: usize| asked.usable(p);
        // The index of the pair (a, b).
        let find = |a: usize, b: usize| at.find(&c.pairs, a, b);
        // The same for a pair of the known optimum, read off the list made with the cache
        // when it names that pair (each search of a thousand pairs cost a few milliseconds in
        // the 9,999-player round 2, whose 497 questions share one known optimum).
        let find_warm = |a: usize, b: usize| {
            let found = c
                .mate_at
                .as_ref()
                .and_then(|m| m.get(a))
                .map(|&p| p as usize)
                .filter(|&p| c.pairs.get(p) == Some(&(a.min(b) as u32, a.max(b) as u32)))
                .or_else(|| find(a, b));
            // Debug builds: the index the search finds (a wrong one would only slow the
            // search down: the part decides where it starts, the pricing what it proves).
            debug_assert_eq!(found, find(a, b), "the warm pair ({a}, {b})");
            found
        };
        // The heaviest pair with the most a partner rank adds; the restricted player's dual
        // raised as much (the slack floors do not depend on the shift).
        let maxw = maxw.plus(cons.most_bonus(fr).map_or(Wide::ZERO, |(_, b)| b));
        let warm = raised_for_rank(self.warm_start(k, verts, idx, maxw)?, cons, fr, idx);
        // The warm duals in `M` limbs (`solve_verts` sizes them to fit; checked, since the
        // check below trusts them on the pairs it skips).
        let fits = |d: &Wide| d.narrow::<M>().narrow::<8>() == *d;
        if !warm.dual.iter().all(fits) || !fits(&warm.shift) {
            return None;
        }
        let nv = verts.len();
        // The part: the warm pairs that are edges, every edge at a player they leave free,
        // and the part the last question ended with.
        let mut part: Vec<usize> = Vec::new();
        let mut free = vec![true; nv];
        for (i, m) in warm.mate.iter().enumerate() {
            if let Some(j) = *m
                && i < j
                && let Some(p) = find_warm(verts[i], verts[j])
                && usable(p).is_some()
            {
                part.push(p);
                free[i] = false;
                free[j] = false;
            }
        }
        for (i, &v) in verts.iter().enumerate() {
            if free[i] {
                part.extend(
                    at.of(v)
                        .iter()
                        .map(|&p| p as usize)
                        .filter(|&p| usable(p).is_some()),
                );
            }
        }
        // Debug builds leave half the hint out of every other question: its search then
        // lacks edges the whole graph has, and the check below must find them (the debug
        // tests exercise it; release questions seldom need it).
        let starve = cfg!(debug_assertions) && c.asked % 2 == 0;
        let start_at = part.len();
        if c.hint_at.is_empty() {
            for &(a, b) in &c.hint {
                if let Some(p) = find(a as usize, b as usize)
                    && usable(p).is_some()
                {
                    part.push(p);
                }
            }
        } else {
            let hinted = c.hint_at.iter().map(|&p| p as usize);
            part.extend(hinted.filter(|&p| usable(p).is_some()));
        }
        if starve {
            let mut seen = 0;
            part.retain(|_| {
                seen += 1;
                seen <= start_at || seen % 2 == 0
            });
        }
        part.sort_unstable();
        part.dedup();
        let start = narrow_warm::<M>(&warm);
        let floor = floor.map(|f| matcher_floor(f, warm.shift, nv));
        let mut answer = None;
        for _ in 0..PRICING_ROUNDS {
            let edges: Vec<Edge<M>> = part
                .iter()
                .filter_map(|&p| usable(p).map(|(iu, iv)| Edge::new(iu, iv, weight(p))))
                .collect();
            let found: Priced<M> = match warm_search(nv, &edges, &start, floor) {
                WarmSearch::Perfect(m, cert) => Ok((m, cert)),
                WarmSearch::Below(cert) => Err(cert),
                WarmSearch::NoPerfect { .. } | WarmSearch::Declined => return None,
            };
            let duals = match &found {
                Ok((_, d)) | Err(d) => d,
            };
            // Only the edges at a player whose dual fell can be uncovered (the warm duals
            // cover every edge, a search only lowers the duals of the players it labels
            // outer, blossom duals only add): one pass over the cache in its order (reading
            // each player's pairs instead jumps about it).
            // On two threads for a large cache ([`found_in_halves`]).
            let uncovered_at = |p: usize, iu: usize, iv: usize| {
                usable(p).is_some() && !duals.covers(iu, iv, weight(p))
            };
            let (pairs, allowed) = (&c.pairs[..], &c.allowed[..]);
            // How far each player's dual fell ([`Moved`]). Debug builds take the pass without
            // slacks on one starved question in two, so that the tests exercise both.
            let by_slack = !(cfg!(debug_assertions) && c.asked % 4 == 2);
            let slack = c.warm_slack.as_deref().filter(|_| by_slack);
            let mut moved = vec![Moved::ABSENT; self.n + 1];
            for (i, &v) in verts.iter().enumerate() {
                moved[v] = Moved::of(start.dual[i], duals.vertex[i], duals.chain(i).first());
            }
            // The warm duals cover every pair of the cache (its certificate was checked
            // against each, or proved on it), a search only lowers the duals of the players it
            // labels outer, and blossom duals only add: a pair is covered when its ends' falls
            // add up to at most zero, less twice the dual of the outermost blossom holding
            // both, or to at most its warm slack (ADR swiss-027); only the others are read (a
            // third of them in the partner searches of a 9,999-player round 2, whose forests
            // hold every player: each fell or rose by about one unit of a criterion, and the
            // sums are the little deltas before). A pair whose sum does not fit is read.
            let uncovered = found_in_halves(pairs.len(), &|range, uncovered| {
                for p in range {
                    if !allowed[p] {
                        continue;
                    }
                    let (u, v) = (pairs[p].0 as usize, pairs[p].1 as usize);
                    let covered = moved[u]
                        .on_pair(moved[v])
                        .is_some_and(|sum| sum <= 0 || slack.is_some_and(|s| s[p].covers(sum)));
                    if !covered && uncovered_at(p, idx[u], idx[v]) {
                        uncovered.push(p);
                    }
                }
            });
            if uncovered.is_empty() {
                // Debug builds: the duals cover every edge of the question, not only those
                // at the players whose dual fell.
                #[cfg(debug_assertions)]
                for p in 0..c.pairs.len() {
                    if let Some((iu, iv)) = usable(p) {
                        debug_assert!(
                            duals.covers(iu, iv, weight(p)),
                            "a cached question's duals cover pair {p}"
                        );
                    }
                }
                // A part grown much beyond each player's least edges would slow the next
                // search down: not kept (as on the listed path).
                let kept = if part.len() <= nv * WARM_LEAST {
                    &part[..]
                } else {
                    &[]
                };
                let hint: Vec<(u32, u32)> = kept.iter().map(|&p| c.pairs[p]).collect();
                let hint_at: Vec<u32> = kept.iter().map(|&p| p as u32).collect();
                answer = Some((found, edges, (hint, hint_at)));
                break;
            }
            part.extend(uncovered);
            part.sort_unstable();
            part.dedup();
        }
        let (found, edges, (hint, hint_at)) = answer?;
        // Duals below the floor: kept for the next question (ADR swiss-036).
        let proof = match (&found, &cons.only) {
            (Err(cert), Some((who, _))) => {
                let mut dual = vec![None; self.n + 1];
                for (i, &v) in verts.iter().enumerate() {
                    dual[v] = Some(cert.spread_dual(i, cert.shift).narrow::<8>());
                }
                Some(CarriedProof {
                    dual,
                    shift: cert.shift.narrow::<8>(),
                    who: *who,
                })
            }
            _ => None,
        };
        if let Some(c) = guard.as_mut() {
            c.hint = hint;
            c.hint_at = hint_at;
            c.proof = proof;
        }
        Some((found, edges))
    }
}

impl Engine {
    /// The warm question on `verts` (local indices `idx`) about the known optimum `k`,
    /// answered below `floor` by the duals the last question on the [`EdgeCache`] was
    /// answered with (ADR swiss-036); `None` when they do not prove it.
    ///
    /// The question restricts one player (`who`, to the partners `only` ranks); its other
    /// pairs are pairs of the cache the last question allowed too, among players it had
    /// (checked: each has a carried dual, and the player that question restricted is gone
    /// or is `who`), so the carried duals cover them; `who`'s dual is made anew, the least
    /// that covers each of its pairs in this question. Those duals are feasible, so every
    /// perfect matching of the question weighs at most half their sum: when that is below
    /// the floor, no matching of the known optimum's quality is left, as a search would
    /// have proved (its certificate is returned). The duals are kept for the next question.
    pub(super) fn carried_proof<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        idx: &[usize],
        k: &Sol,
        floor: Wide,
    ) -> Option<Certificate<M>> {
        let mut guard = self.edge_cache.borrow_mut();
        let c = guard.as_mut()?;
        // Most questions have no proof to carry: answered before reading their players.
        if c.proof.is_none() || !c.holds(fr.id, Some(k.cert_id), Some(M), verts) {
            return None;
        }
        // New constraint flags drop the proof (`EdgeCache::allowed_under`).
        c.allowed_under(self, fr, cons);
        let c = &*c;
        let proof = c.proof.as_ref()?;
        let at = c.pairs_at.as_ref()?;
        let &(who, _) = cons.only.as_ref()?;
        let iw = *idx.get(who).filter(|&&i| i != usize::MAX)?;
        if proof.who != who && idx.get(proof.who).is_some_and(|&i| i != usize::MAX) {
            return None;
        }
        let fits = |d: &Wide| d.narrow::<M>().narrow::<8>() == *d;
        let shift = proof.shift;
        if !fits(&shift) {
            return None;
        }
        let mut dual = Vec::with_capacity(verts.len());
        for &v in verts {
            match proof.dual.get(v) {
                _ if v == who => dual.push(Wide::ZERO),
                Some(Some(d)) if fits(d) => dual.push(*d),
                _ => return None,
            }
        }
        // `who`'s dual: the least covering each of its pairs in this question.
        let asked = AskedOf::of(c, fr, cons, idx);
        let mut own = Wide::ZERO;
        for &p in at.of(who) {
            if let Some((iu, iv)) = asked.usable(p as usize) {
                let other = if iu == iw { iv } else { iu };
                let need = asked
                    .weight::<M>(p as usize)
                    .narrow::<8>()
                    .plus(shift)
                    .times(2);
                if need > dual[other] {
                    own = own.max(need.minus(dual[other]));
                }
            }
        }
        if !fits(&own) {
            return None;
        }
        dual[iw] = own;
        let sum = dual.iter().fold(Wide::ZERO, |s, d| s.plus(*d));
        let floor = matcher_floor(floor, shift, verts.len());
        if sum >= floor {
            return None;
        }
        let cert = Certificate {
            vertex: dual.iter().map(|d| d.narrow::<M>()).collect(),
            paths: Vec::new(),
            chain_of: vec![(0, 0); verts.len()],
            shift: shift.narrow::<M>(),
        };
        // Debug builds: the duals cover every edge of the question and stay below the floor.
        #[cfg(debug_assertions)]
        {
            for p in 0..c.pairs.len() {
                if let Some((iu, iv)) = asked.usable(p) {
                    debug_assert!(
                        cert.covers(iu, iv, asked.weight::<M>(p)),
                        "a carried proof covers pair {p}"
                    );
                }
            }
            debug_assert!(
                cert.doubled_objective() < floor,
                "a carried proof stays below the floor"
            );
        }
        // The next question's proof: these duals, the same as the carried ones but `who`'s
        // (the players gone since keep theirs, which no later question reads).
        drop(guard);
        if let Some(proof) = self
            .edge_cache
            .borrow_mut()
            .as_mut()
            .and_then(|c| c.proof.as_mut())
            && let Some(d) = proof.dual.get_mut(who)
        {
            *d = Some(own);
            proof.who = who;
        }
        Some(cert)
    }
}

/// A lower bound of a pair's slack (twice the warm duals of its ends less twice its
/// shifted weight), in 32 bits: below 2^24 the slack itself; above, its 24 highest bits
/// and how far they are shifted (`shift << 24 | bits`, the top bit of `bits` set), the
/// bits below cleared. Monotone in the slack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct SlackFloor(u32);

impl SlackFloor {
    fn of<const M: usize>(slack: WideN<M>) -> SlackFloor {
        let top = slack
            .0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, l)| **l != 0)
            .map_or(0, |(i, l)| 64 * i as u32 + 64 - l.leading_zeros());
        if top <= 24 {
            return SlackFloor(slack.0[0] as u32);
        }
        let shift = top - 24;
        SlackFloor((shift.min(255) << 24) | slack.field(shift, 24) as u32)
    }

    /// Whether the slack is at least `sum` (> 0, below 2^127): then the pair stays covered
    /// when its ends' duals fell by `sum` together. False when the bound cannot tell.
    fn covers(self, sum: i128) -> bool {
        let (shift, bits) = (self.0 >> 24, i128::from(self.0 & 0xff_ffff));
        match shift {
            0 => bits >= sum,
            // At least 2^23 · 2^104 = 2^127, more than any two falls (`fall_of`: each below
            // 2^126, so their sum below 2^127); below that shift the floor fits an i128.
            104.. => true,
            _ => bits << shift >= sum,
        }
    }
}

/// An end absent from the question: any sum with a fall (`fall_of`, at most 2^126 − 1) is
/// negative.
const FELL_ABSENT: i128 = -(1 << 126);

/// How far a dual fell from `then` to `now` (negative: how far it rose), when less than
/// 2^126 either way.
fn fall_of<const M: usize>(then: WideN<M>, now: WideN<M>) -> Option<i128> {
    let (by, sign) = if now <= then {
        (then.minus(now), 1)
    } else {
        (now.minus(then), -1)
    };
    let fits = by.0.iter().skip(2).all(|&l| l == 0) && by.0.get(1).is_none_or(|&l| l < 1 << 62);
    let low = i128::from(by.0[0]) | by.0.get(1).map_or(0, |&l| i128::from(l) << 64);
    fits.then(|| sign * low)
}

/// Each pair's [`SlackFloor`] under the warm duals `dual` (by global index; `None` for a
/// vertex the cache does not cover or whose dual does not fit); `None` when a pair's end
/// has none. `twice_shift`: twice the shift the weights are raised by.
fn warm_slack_floors<const M: usize>(
    pairs: &[(u32, u32)],
    weights: &[u64],
    dual: &[Option<WideN<M>>],
    twice_shift: WideN<M>,
) -> Option<Vec<SlackFloor>> {
    let mut out = Vec::with_capacity(pairs.len());
    for (p, &(u, v)) in pairs.iter().enumerate() {
        let (du, dv) = (
            dual.get(u as usize)?.as_ref()?,
            dual.get(v as usize)?.as_ref()?,
        );
        let w = cached_weight::<M>(weights, p);
        let (sum, need) = (du.plus(*dv), w.plus(w).plus(twice_shift));
        // A sum that wraps or falls short (neither happens: the duals cover every pair and
        // fit) gets the floor 0, which clears nothing.
        let slack = if sum >= *du && sum >= need {
            sum.minus(need)
        } else {
            WideN::ZERO
        };
        out.push(SlackFloor::of(slack));
    }
    Some(out)
}

/// How a player's dual moved from the warm start to the end of a search, for the pass
/// that finds the pairs the search's duals may no longer cover (ADR swiss-045).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Moved {
    /// How far its dual fell (negative: rose), when it fits ([`fall_of`]).
    fell: Option<i128>,
    /// Its outermost blossom (`usize::MAX`: none) and the fall less that blossom's dual,
    /// which counts on every pair inside the blossom, when it fits: the searches after a
    /// change of partner often end with one blossom holding most players, whose vertex
    /// duals all fell by as much as it adds back (ADR swiss-037), by more than 2^126 where
    /// a criterion above the lowest moved.
    outer: (usize, Option<i128>),
}

impl Moved {
    /// A player absent from the question: any pair at it sums below zero with a fall that
    /// fits (its pairs are not the question's).
    const ABSENT: Moved = Moved {
        fell: Some(FELL_ABSENT),
        outer: (usize::MAX, None),
    };

    /// The move from the warm dual `then` to the dual `now` inside the outermost blossom
    /// `outer` (its link of the certificate's chain: id, dual; `None`: none).
    fn of<const M: usize>(
        then: WideN<M>,
        now: WideN<M>,
        outer: Option<&(usize, WideN<M>, WideN<M>)>,
    ) -> Moved {
        let outer = outer.map_or((usize::MAX, None), |&(b, z, _)| {
            let with_blossom = now.plus(z);
            let less = (with_blossom >= now)
                .then(|| fall_of(then, with_blossom))
                .flatten();
            (b, less)
        });
        Moved {
            fell: fall_of(then, now),
            outer,
        }
    }

    /// How far the duals over a pair with ends moved as `self` and `other` fell together
    /// at most, counting the outermost blossom holding both (any blossom inside it only
    /// adds): the pair's cover under the warm duals is kept when this is at most zero, or
    /// at most its warm slack. `None` when it does not fit: the pair is read.
    fn on_pair(self, other: Moved) -> Option<i128> {
        let ((b, less), (ob, other_less)) = (self.outer, other.outer);
        if b != usize::MAX && b == ob {
            Some(less? + other_less?)
        } else {
            Some(self.fell? + other.fell?)
        }
    }
}

/// The weight of the cache's pair `p` (`M` limbs a pair in `weights`).
fn cached_weight<const M: usize>(weights: &[u64], p: usize) -> WideN<M> {
    let mut limbs = [0u64; M];
    limbs.copy_from_slice(&weights[p * M..(p + 1) * M]);
    WideN(limbs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(x: u64) -> WideN<2> {
        let mut v = WideN::<2>::ZERO;
        v.add_at(0, x);
        v
    }

    /// A value with `bits` set at `shift` (two limbs).
    fn at(shift: u32, bits: u64) -> WideN<2> {
        let mut v = WideN::<2>::ZERO;
        v.add_at(shift, bits);
        v
    }

    #[test]
    fn a_slack_floor_is_a_monotone_lower_bound_that_clears_only_what_the_slack_covers() {
        let mut next = crate::weight::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut values: Vec<WideN<2>> = vec![WideN::ZERO, w(1), w((1 << 24) - 1), w(1 << 24)];
        for _ in 0..2000 {
            let shift = (next() % 120) as u32;
            values.push(at(shift, next() >> (next() % 64)));
        }
        // As an i128 when below 2^127.
        let exact = |v: &WideN<2>| {
            (v.0[1] < 1 << 63).then(|| i128::from(v.0[0]) | i128::from(v.0[1]) << 64)
        };
        values.sort();
        for pair in values.windows(2) {
            assert!(
                SlackFloor::of(pair[0]) <= SlackFloor::of(pair[1]),
                "monotone"
            );
        }
        for v in &values {
            let f = SlackFloor::of(*v);
            let Some(x) = exact(v) else {
                // At least 2^127: more than any two falls add up to.
                assert!(f.covers(i128::MAX - 1), "clears any two falls");
                continue;
            };
            // The floor is the slack with the bits below its 24 highest cleared.
            let top = 128 - x.leading_zeros();
            let cut = top.saturating_sub(24);
            let floor = x >> cut << cut;
            if floor > 0 && floor < i128::MAX {
                assert!(
                    f.covers(floor) && !f.covers(floor + 1),
                    "floor {f:?} of {x}"
                );
            }
        }
        // A slack of 2^126 does not cover two falls of 2^126 - 1 (their sum, 2^127 - 2).
        let twice_largest_fall = 2 * ((1i128 << 126) - 1);
        assert!(!SlackFloor::of(at(126, 1)).covers(twice_largest_fall));
        assert!(SlackFloor::of(at(126, 3)).covers(twice_largest_fall));
        assert!(SlackFloor::of(w(5)).covers(5) && !SlackFloor::of(w(5)).covers(6));
        assert!(!SlackFloor::of(WideN::<2>::ZERO).covers(1));
    }

    #[test]
    fn falls_fit_only_below_2_to_the_126() {
        assert_eq!(fall_of(w(10), w(3)), Some(7));
        assert_eq!(fall_of(w(3), w(10)), Some(-7));
        assert_eq!(fall_of(at(100, 1), WideN::ZERO), Some(1 << 100));
        assert_eq!(fall_of(at(125, 1), WideN::ZERO), Some(1 << 125));
        assert_eq!(fall_of(at(126, 1), WideN::ZERO), None);
        assert_eq!(fall_of(WideN::ZERO, at(126, 1)), None);
        // Two falls and an absent end: never a positive sum, never an overflow.
        let most = (1i128 << 126) - 1;
        assert!(most + FELL_ABSENT < 0 && FELL_ABSENT + FELL_ABSENT < 0);
    }

    #[test]
    fn a_pair_keeps_its_cover_unless_its_ends_fell_together_beyond_their_common_blossom() {
        let moved = |then: WideN<3>, now: WideN<3>, outer: Option<(usize, WideN<3>)>| {
            Moved::of(then, now, outer.map(|(b, z)| (b, z, z)).as_ref())
        };
        let w = |x: u64| WideN::<3>([x, 0, 0]);
        let still = moved(w(10), w(10), None);
        assert_eq!(still.on_pair(still), Some(0));
        // One end fell by 3: the other must have risen by 3 or more.
        for (rose, kept) in [(3, true), (4, true), (2, false), (0, false)] {
            let down = moved(w(10), w(7), None);
            let up = moved(w(10), w(10 + rose), None);
            assert_eq!(
                down.on_pair(up).is_some_and(|s| s <= 0),
                kept,
                "rose {rose}"
            );
            assert_eq!(up.on_pair(down), down.on_pair(up), "either order");
        }
        // Both fell by 2^127 (more than fits) into one blossom of dual 2^127 - 1, which
        // counts twice on their pair: it fell by 2 in all. With another blossom each, or one
        // end outside, the fall does not fit and the pair is read.
        let (then, now) = (WideN::<3>([5, 0, 1]), WideN::<3>([5, 1 << 63, 0]));
        let dual = WideN::<3>([u64::MAX, (1 << 63) - 1, 0]);
        let a = moved(then, now, Some((7, dual)));
        assert_eq!(a.fell, None);
        assert_eq!(a.on_pair(a), Some(2));
        assert_eq!(a.on_pair(moved(then, now, Some((8, dual)))), None);
        assert_eq!(a.on_pair(moved(then, now, None)), None);
        // A blossom whose dual would wrap the width: read.
        let wraps = moved(then, now, Some((7, WideN::<3>([u64::MAX; 3]))));
        assert_eq!(wraps.on_pair(wraps), None);
        // Falls that fit in one blossom: its dual counts twice.
        let (c, d) = (
            moved(w(20), w(15), Some((3, w(4)))),
            moved(w(20), w(16), Some((3, w(4)))),
        );
        assert_eq!(c.on_pair(d), Some(5 + 4 - 8));
        // An absent end: below zero with any fall that fits, the largest too.
        let largest = moved(WideN::<3>([u64::MAX, (1 << 62) - 1, 0]), w(0), None);
        assert_eq!(largest.fell, Some((1 << 126) - 1));
        assert!(Moved::ABSENT.on_pair(largest).is_some_and(|s| s < 0));
        assert!(Moved::ABSENT.on_pair(still).is_some_and(|s| s < 0));
    }
}
