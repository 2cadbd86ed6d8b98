//! A partner search's new optimum takes the [`EdgeCache`] of the one before over, as it is
//! (ADR swiss-037).
//!
//! When a question of a partner search is answered "yes" (the player takes an earlier
//! candidate at the same quality), its matching is the next known optimum. Its duals were
//! proved on this very cache: the question's search checked them against every pair it
//! allowed. The questions after it allow a subset of those pairs (the same constraints
//! apart from `only`, fewer players, and the player that question restricted is gone), so
//! the duals cover every pair they can read. The cache is then re-keyed to the new optimum:
//! its pairs, weights, flags, the barrier's graph and the pairs by player stay; only what
//! depends on the duals (the warm pairs, the slack floors) is made again, and the check that
//! the duals cover every pair is not needed. Without this, each new optimum listed the
//! cache's millions of pairs again (ADR swiss-029) and its first question was a listed one.

use super::*;

/// The certificate a question solved on an [`EdgeCache`] ended with, and what it proved:
/// it covers every pair of the cache among `verts` that the question allowed.
pub(super) struct ProvedOn {
    cert: Certificate<8>,
    /// The question's players (ascending).
    verts: Vec<usize>,
    /// The player whose partners the question restricted (its other pairs were not edges).
    who: Option<usize>,
    /// The question's constraints, `only` aside (which pairs were edges).
    cons: Cons,
}

/// A new optimum takes the cache over while at least this share of the cache's players
/// is in its questions (numerator, denominator); with fewer, most pairs are at players
/// already paired, and the cache made anew from the one before (ADR swiss-029) is smaller.
const TAKEN_OVER_WHILE: (usize, usize) = (3, 4);

impl ProvedOn {
    /// Whether these duals are `cert`'s on every pair of a question on `verts` (ascending):
    /// its players were all in the question that proved them, the player that question
    /// restricted is not among them, and the duals are the same at each of them.
    fn proves(&self, cert: &Certificate<8>, verts: &[usize]) -> bool {
        let mut of_proved = self.verts.iter().peekable();
        let within = verts.iter().all(|&v| {
            while of_proved.next_if(|&&x| x < v).is_some() {}
            of_proved.next_if_eq(&&v).is_some()
        });
        let same = |v: usize| {
            self.cert.vertex.get(v) == cert.vertex.get(v)
                && self.cert.chain_of.get(v) == cert.chain_of.get(v)
        };
        within
            && self.who.is_none_or(|w| verts.binary_search(&w).is_err())
            && self.cert.shift == cert.shift
            && self.cert.paths == cert.paths
            && verts.iter().all(|&v| same(v))
    }
}

impl Engine {
    /// Records the certificate of `sol`, solved on `verts` with the pruning optimum `k`,
    /// on the cache when the cache holds that question's pairs (its edges were the cache's
    /// pairs it allows, so the certificate covers each of them).
    pub(super) fn record_proved<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        k: Option<&Sol>,
        sol: &Sol,
    ) {
        let (Some(k), Some(cert)) = (k, &sol.cert) else {
            return;
        };
        if let Some(c) = &mut *self.edge_cache.borrow_mut()
            && c.holds(fr.id, Some(k.cert_id), Some(M), verts)
        {
            c.proved = Some(ProvedOn {
                cert: cert.clone(),
                verts: verts.to_vec(),
                who: cons.only.as_ref().map(|&(w, _)| w),
                cons: cons.apart_from_only(),
            });
        }
    }

    /// Re-keys the cache to the known optimum `k` of a question on `verts` when `k`'s
    /// duals are those a question on the cache proved, under the same frame, width,
    /// lineage and constraints apart from `only` (see the module's text).
    pub(super) fn take_over_cache<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        k: &Sol,
    ) {
        let mut guard = self.edge_cache.borrow_mut();
        let Some(c) = guard.as_mut() else {
            return;
        };
        if c.frame != fr.id
            || c.limbs != M
            || c.cert == Some(k.cert_id)
            || c.lineage != Some(k.lineage)
            || !c
                .allowed_for
                .as_ref()
                .is_some_and(|f| f.same_apart_from_only(cons))
            || !verts.iter().all(|&v| c.covered.get(v) == Some(&true))
        {
            return;
        }
        let (num, den) = TAKEN_OVER_WHILE;
        if verts.len() * den < c.listed_at * num {
            return;
        }
        let (Some(proved), Some(cert)) = (&c.proved, &k.cert) else {
            return;
        };
        if !proved.cons.same_apart_from_only(cons) || !proved.proves(cert, verts) {
            return;
        }
        c.cert = Some(k.cert_id);
        c.trusted = true;
        // Its questions from now on are on players the duals were proved on: a question with
        // another player is not one of this cache's (ADR swiss-037).
        let mut of_proved = vec![false; c.covered.len()];
        for &v in &proved.verts {
            if let Some(x) = of_proved.get_mut(v) {
                *x = true;
            }
        }
        for (x, p) in c.covered.iter_mut().zip(of_proved) {
            *x = *x && p;
        }
        // What depends on the pruning optimum is made again at the next question
        // (`Engine::cached_warm_question`); the duals of a question below its floor belong
        // to the optimum before.
        c.checked = false;
        c.mate_at = None;
        c.warm_slack = None;
        c.proof = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert(vertex: &[u64], chains: &[(u32, u32)], blossom: u64) -> Certificate<8> {
        let w = |x: u64| {
            let mut d = Wide::ZERO;
            d.add_at(0, x);
            d
        };
        Certificate {
            vertex: vertex.iter().map(|&x| w(x)).collect(),
            paths: vec![vec![(7, w(blossom), w(blossom))]],
            chain_of: chains.to_vec(),
            shift: w(2),
        }
    }

    #[test]
    fn duals_prove_a_question_only_on_the_players_they_were_proved_on() {
        let chains = [(0, 1), (0, 1), (0, 0), (0, 0), (0, 0)];
        let proved = ProvedOn {
            cert: cert(&[4, 5, 6, 7, 0], &chains, 3),
            verts: vec![0, 1, 2, 3],
            who: Some(3),
            cons: Cons {
                req: Vec::new(),
                tops: Vec::new(),
                only: None,
            },
        };
        let same = cert(&[4, 5, 6, 7, 9], &chains, 3);
        // Fewer players, the restricted one gone: proved (the dual of player 4, in no
        // question, may differ).
        assert!(proved.proves(&same, &[0, 1, 2]));
        assert!(proved.proves(&same, &[1, 2]));
        // The restricted player still there: its other pairs were not edges.
        assert!(!proved.proves(&same, &[0, 1, 2, 3]));
        // A player the proving question did not have.
        assert!(!proved.proves(&same, &[0, 1, 4]));
        // Another dual, another blossom dual, another chain, another shift.
        assert!(!proved.proves(&cert(&[4, 5, 8, 7, 0], &chains, 3), &[0, 1, 2]));
        assert!(!proved.proves(&cert(&[4, 5, 6, 7, 0], &chains, 1), &[0, 1, 2]));
        let other_chains = [(0, 1), (0, 0), (0, 0), (0, 0), (0, 0)];
        assert!(!proved.proves(&cert(&[4, 5, 6, 7, 0], &other_chains, 3), &[0, 1, 2]));
        let mut shifted = same.clone();
        shifted.shift = Wide::ZERO;
        assert!(!proved.proves(&shifted, &[0, 1, 2]));
    }
}
