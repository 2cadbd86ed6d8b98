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

use super::*;

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
            let mut heaviest = WideN::<M>::ZERO;
            let mut covers = true;
            for (p, &(u, v)) in c.pairs.iter().enumerate() {
                let w = cached_weight::<M>(&c.weights, p);
                heaviest = heaviest.max(w);
                covers = covers && cert.covers(u as usize, v as usize, w.narrow::<8>());
            }
            if covers {
                c.pairs_at = Some(PairsAt::new(self.n + 1, &c.pairs));
                c.heaviest = Some(heaviest.narrow::<8>());
                // The listed path's spare list is not needed while questions come here.
                c.spare = None;
            }
        }
        let maxw = c.heaviest?;
        c.asked = c.asked.wrapping_add(1);
        let c = &*c;
        let at = c.pairs_at.as_ref()?;
        let weight = |p: usize| cached_weight::<M>(&c.weights, p);
        // The local ends of pair `p` when it is an edge of this question.
        let usable = |p: usize| -> Option<(usize, usize)> {
            if !c.allowed[p] {
                return None;
            }
            let (u, v) = (c.pairs[p].0 as usize, c.pairs[p].1 as usize);
            let (iu, iv) = (idx[u], idx[v]);
            if iu == usize::MAX || iv == usize::MAX || !cons.only_allows(u, v) {
                return None;
            }
            Some((iu, iv))
        };
        // The index of the pair (a, b), found among a's pairs by its other end.
        let find = |a: usize, b: usize| -> Option<usize> {
            let other = |p: u32| {
                let (x, y) = c.pairs[p as usize];
                if x as usize == a {
                    y as usize
                } else {
                    x as usize
                }
            };
            let list = at.of(a);
            let i = list.partition_point(|&p| other(p) < b);
            list.get(i).filter(|&&p| other(p) == b).map(|&p| p as usize)
        };
        let warm = self.warm_start(k, verts, idx, maxw)?;
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
                && let Some(p) = find(verts[i], verts[j])
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
        // Twice the floor, each weight raised by the shift (the matcher's units).
        let floor = floor.map(|f| f.times(2).plus(warm.shift.times(nv as u64)));
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
            // Only the edges at a player whose dual fell can be uncovered: one pass over
            // the cache in its order (reading each player's pairs instead jumps about it).
            // How far each player's dual fell and rose: a pair whose one end rose at least
            // as far as the other fell keeps the cover of the warm duals, its weight unread
            // (the searches of a partner search are forests of players who fell and
            // partners who rose as much, and half the pairs between them are such).
            let moved: Vec<(WideN<M>, WideN<M>)> = (0..nv)
                .map(|i| {
                    let (now, then) = (duals.vertex[i], start.dual[i]);
                    if now < then {
                        (then.minus(now), WideN::ZERO)
                    } else {
                        (WideN::ZERO, now.minus(then))
                    }
                })
                .collect();
            let mut uncovered: Vec<usize> = Vec::new();
            for (p, (&(u, v), &ok)) in c.pairs.iter().zip(&c.allowed).enumerate() {
                if !ok {
                    continue;
                }
                let (iu, iv) = (idx[u as usize], idx[v as usize]);
                if iu == usize::MAX || iv == usize::MAX || cover_kept(moved[iu], moved[iv]) {
                    continue;
                }
                if usable(p).is_some() && !duals.covers(iu, iv, weight(p)) {
                    uncovered.push(p);
                }
            }
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
        if let Some(c) = guard.as_mut() {
            c.hint = hint;
            c.hint_at = hint_at;
        }
        Some((found, edges))
    }
}

/// Whether a pair whose ends' duals moved by `a` and `b` (how far each fell, how far it
/// rose) keeps the cover the warm duals gave it, whatever its weight: neither end fell, or
/// one end rose at least as far as the other fell (blossom duals only add to a cover).
fn cover_kept<const M: usize>(a: (WideN<M>, WideN<M>), b: (WideN<M>, WideN<M>)) -> bool {
    match (a.0.is_zero(), b.0.is_zero()) {
        (true, true) => true,
        (false, true) => b.1 >= a.0,
        (true, false) => a.1 >= b.0,
        (false, false) => false,
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

    #[test]
    fn a_pair_keeps_its_cover_unless_an_end_fell_further_than_the_other_rose() {
        let still = (w(0), w(0));
        assert!(cover_kept(still, still));
        assert!(cover_kept((w(0), w(5)), (w(0), w(0))));
        // One end fell by 3: the other must have risen by 3 or more.
        for (fell, rose, kept) in [(3, 3, true), (3, 4, true), (3, 2, false), (3, 0, false)] {
            let down = (w(fell), w(0));
            let up = (w(0), w(rose));
            assert_eq!(cover_kept(down, up), kept, "fell {fell}, rose {rose}");
            assert_eq!(cover_kept(up, down), kept, "either order");
        }
        // Both fell: only the weight can tell.
        assert!(!cover_kept((w(1), w(0)), (w(1), w(0))));
    }
}
