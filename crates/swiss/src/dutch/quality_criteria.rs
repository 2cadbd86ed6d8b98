//! Quality criteria as weight fields (C.04.3 2026 Art. 2.3–2.5: C5–C21; 2017 C.5–C.19).
//!
//! One field per criterion, most significant first: C4 completion, C5 PAB score, C6 pairs
//! in the bracket, C7 downfloater scores (one field per MDP score level), C8 look-ahead into
//! the next bracket, C9 PAB assignee's unplayed games, C10–C13 colours (topscorer colour
//! difference, three in a row, preference, strong preference), C14–C17 repeated floats,
//! C18–C21 score differences of repeated floats, then the remainder exchange order
//! (Art. 4.3). The 2017 edition adds C.6 pair score differences (PSD) and uses the 2017
//! float definitions.

use super::{Engine, Exch, Fields, Frame, Order, Pl, Rules};
use crate::colour::{Strength, allocate};
use crate::model::*;
use crate::weight::{Layout, Wide};

impl Engine {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build_frame(
        &self,
        in_b: Vec<bool>,
        mdp: Vec<bool>,
        in_n: Vec<bool>,
        s0: Score,
        exch: Option<Exch>,
        c9_on: bool,
        isolated: bool,
    ) -> Result<Frame, NoValidPairing> {
        let n = self.n;
        let last = !in_n.iter().any(|&x| x);
        let isolated = isolated && !last;
        // 2017 C.7 looks at the following bracket; when that is the round's last one, its
        // pairing gives the PAB (A.9, note), which C2 allows only to an eligible player:
        // the bye dummy then takes part in the look-ahead (ADR swiss-049).
        let bye_ahead = isolated
            && self.remaining[n]
            && (0..n).all(|v| !self.remaining[v] || in_b[v] || in_n[v]);
        let active: Vec<bool> = (0..=n)
            .map(|v| !isolated || (v < n && (in_b[v] || in_n[v])) || (v == n && bye_ahead))
            .collect();
        let mut mdp_levels: Vec<Score> = (0..n)
            .filter(|&i| self.remaining[i] && mdp[i])
            .map(|i| self.ps[i].score)
            .collect();
        mdp_levels.sort_unstable_by(|a, b| b.cmp(a));
        mdp_levels.dedup();
        let mut b_levels = mdp_levels.clone();
        b_levels.push(s0);
        for (v, _) in in_b.iter().enumerate().take(n).filter(|x| *x.1) {
            if self.remaining[v] {
                b_levels.push(self.ps[v].score);
            }
        }
        b_levels.sort_unstable_by(|a, b| b.cmp(a));
        b_levels.dedup();
        let mut sd_levels = Vec::new();
        for (i, a) in b_levels.iter().enumerate() {
            for b in &b_levels[i + 1..] {
                sd_levels.push(a - b);
            }
        }
        if self.edition == Edition::Dutch2017 {
            // 2017 A.8: a downfloater's score difference is taken against a value one point
            // below the lowest score of the bracket.
            for &s in &b_levels {
                sd_levels.push(s - s0 + self.one_point);
            }
        }
        sd_levels.sort_unstable_by(|a, b| b.cmp(a));
        sd_levels.dedup();
        // How many pairs of a matching a field can count (its capacity, so that no field
        // overflows into the one above): C4 counts every pair, C5 and C9 the bye's pair;
        // C8's look-ahead only pairs within the bracket and the next scoregroup; every other
        // criterion, the exchange and the generation order only pairs within the bracket
        // (`edge_weight` returns before them for any other pair). Narrower fields, narrower weights: fewer limbs for the
        // matching's arithmetic and its edge lists (ADR swiss-017).
        let pairs_among = |k: usize| (k as u64 + 2) / 2 + 1;
        let max_edges = pairs_among(n);
        let in_bracket = (0..n).filter(|&v| in_b[v]).count() as u64;
        let bracket_edges = pairs_among(in_bracket as usize);
        let look_edges = pairs_among((0..n).filter(|&v| in_b[v] || in_n[v]).count());
        let order = self
            .fast
            .then(|| self.generation_order(&in_b, &mdp, exch.as_ref()));
        let fr_layout;
        let bits;
        let mut f = Fields::default();
        let two26 = self.edition == Edition::Dutch2026;
        // The partner rank, unless its bits would widen a question's weights by a limb.
        let mut with_rank = true;
        loop {
            let mut l = Layout::default();
            f.complete = l.push("C4", 1, max_edges);
            f.c5 = l.push("C5", u64::from(self.max_score) + 1, 1);
            f.c6 = l.push("C6", 1, bracket_edges);
            f.c7 = mdp_levels
                .iter()
                .map(|_| l.push("C7", 2, bracket_edges))
                .collect();
            f.psd = if two26 {
                Vec::new()
            } else {
                sd_levels
                    .iter()
                    .map(|_| l.push("C.6", 1, bracket_edges))
                    .collect()
            };
            f.c8p = l.push("C8", 1, look_edges);
            f.c8 = b_levels
                .iter()
                .map(|_| l.push("C8", 2, look_edges))
                .collect();
            f.c9 = (two26 && c9_on).then(|| l.push("C9", u64::from(self.max_unplayed) + 1, 1));
            let (n10, n11, n12, n13) = if two26 {
                ("C10", "C11", "C12", "C13")
            } else {
                ("C.8", "C.9", "C.10", "C.11")
            };
            f.c10 = l.push(n10, 2, bracket_edges);
            f.c11 = l.push(n11, 2, bracket_edges);
            f.c12 = l.push(n12, 2, bracket_edges);
            f.c13 = l.push(n13, 2, bracket_edges);
            let fl = |a: &'static str, b: &'static str| if two26 { a } else { b };
            f.c14 = l.push(fl("C14", "C.12"), 2, bracket_edges);
            f.c15 = l.push(fl("C15", "C.13"), 1, bracket_edges);
            f.c16 = l.push(fl("C16", "C.14"), 2, bracket_edges);
            f.c17 = l.push(fl("C17", "C.15"), 1, bracket_edges);
            f.c18 = sd_levels
                .iter()
                .map(|_| l.push(fl("C18", "C.16"), 3, bracket_edges))
                .collect();
            f.c19 = sd_levels
                .iter()
                .map(|_| l.push(fl("C19", "C.17"), 1, bracket_edges))
                .collect();
            f.c20 = sd_levels
                .iter()
                .map(|_| l.push(fl("C20", "C.18"), 3, bracket_edges))
                .collect();
            f.c21 = sd_levels
                .iter()
                .map(|_| l.push(fl("C21", "C.19"), 1, bracket_edges))
                .collect();
            f.ex1 = exch
                .as_ref()
                .map(|_| l.push("exchange: fewest swapped", 1, bracket_edges));
            f.ex2 = exch.as_ref().map(|x| {
                l.push(
                    "exchange: smallest BSN sum",
                    x.len as u64 + 1,
                    bracket_edges,
                )
            });
            let edge_bits = 64 - bracket_edges.leading_zeros() + 2;
            let small = exch.as_ref().filter(|x| x.len <= 60);
            f.ex3 = small.map(|x| {
                l.push_bits(
                    "exchange: highest BSN out of S1",
                    x.len as u32 + 1 + edge_bits,
                )
            });
            f.ex4 = small
                .map(|x| l.push_bits("exchange: lowest BSN into S1", x.len as u32 + 1 + edge_bits));
            // The partner rank of a partner search's question (one pair a matching, at
            // most one rank a player; ADR swiss-028).
            // A rank is at most the number of candidates, all of the bracket.
            f.rank = order
                .as_ref()
                .filter(|_| with_rank)
                .map(|_| l.push("partner rank (partner search)", in_bracket + 1, 1));
            f.order = order.as_ref().map(|o| {
                let side = u64::from(o.residents.max(o.mdps)) + 1;
                l.push("generation order (tie-break)", side * side, bracket_edges)
            });
            if let Some(b) = l.finish() {
                // A question's weights take the bits, two for the doubled duals and four
                // for a warm start's shift (`Engine::solve_verts`), in 64-bit limbs.
                let limbs = |bits: u32| (bits + 2 + 4).div_ceil(64);
                if let Some(r) = f.rank
                    && limbs(b) > limbs(b - l.fields[r].bits)
                {
                    with_rank = false;
                    continue;
                }
                fr_layout = l;
                bits = b;
                break;
            }
            if sd_levels.len() <= 1 {
                return Err(NoValidPairing::Limit(
                    "criteria weights do not fit in the weight width".into(),
                ));
            }
            // Degrade gracefully: coarser score-difference levels (documented limit).
            sd_levels.truncate(sd_levels.len() / 2);
        }
        let fr = Frame {
            id: self.next_id(),
            in_b,
            mdp,
            in_n,
            last,
            mdp_levels,
            b_levels,
            sd_levels,
            s0,
            active,
            isolated,
            exch,
            layout: fr_layout,
            order: order.unwrap_or_default(),
            bits,
            f,
        };
        Ok(fr)
    }

    /// The ranks the generation-order tie-break of the fast path uses (see [`Order`]):
    /// MDPs in order, then the residents; the presumed remainder S1 is the residents
    /// left once the MDPs took the first ones (the exchange's S1 when there is one).
    fn generation_order(&self, in_b: &[bool], mdp: &[bool], exch: Option<&Exch>) -> Order {
        let n = self.n;
        let mut rank = vec![0u32; n + 1];
        let (mut mdps, mut residents) = (0u32, 0u32);
        for v in 0..n {
            if !self.remaining[v] || !in_b[v] {
                continue;
            }
            if mdp[v] {
                rank[v] = mdps;
                mdps += 1;
            } else {
                rank[v] = residents;
                residents += 1;
            }
        }
        let (taken, split) = match exch {
            Some(x) => (0, x.in_s1.iter().filter(|&&b| b).count() as u32),
            None => {
                let taken = mdps.min(residents);
                (taken, taken + (residents - taken) / 2)
            }
        };
        Order {
            rank,
            mdps,
            residents,
            taken,
            split,
        }
    }
}

impl Rules<'_> {
    pub(super) fn edge_weight(&self, fr: &Frame, u: usize, v: usize) -> Option<Wide> {
        let n = self.n;
        let l = &fr.layout.fields;
        let mut w = Wide::ZERO;
        let put = |w: &mut Wide, fi: usize, val: u64| w.add_at(l[fi].shift, val);
        let f = &fr.f;
        if u == n || v == n {
            let p = if u == n { v } else { u };
            if !self.ps[p].bye_ok {
                return None;
            }
            if fr.isolated {
                // 2017 C.7, the following bracket being the last (the dummy is active only
                // then): its PAB counts with its pairs, so that the look-ahead prefers the
                // downfloaters that leave an eligible player for the PAB (C2) there. No
                // other field: a player given the PAB is not paired in either bracket.
                put(&mut w, f.c8p, 1);
                return Some(w);
            }
            put(&mut w, f.complete, 1);
            // C5 (2026 only): the PAB goes to the lowest score possible. The 2017 text has no
            // such criterion: the PAB falls out of the last bracket's pairing.
            if self.edition == Edition::Dutch2026 {
                put(&mut w, f.c5, u64::from(self.max_score - self.ps[p].score));
            }
            // 2017 C.6 in the last bracket: the player it leaves for the PAB is one of its
            // downfloaters, whose SD is taken against one point below the bracket's lowest
            // score (A.8); it counts in the PSD fields as a pair does (ADR swiss-050).
            if fr.last && fr.in_b[p] {
                let sd = self.ps[p].score + self.one_point - fr.s0;
                for (i, &fi) in f.psd.iter().enumerate() {
                    put(&mut w, fi, u64::from(sd < fr.sd_levels[i]));
                }
            }
            if let Some(c9) = f.c9
                && fr.in_b[p]
            {
                put(
                    &mut w,
                    c9,
                    u64::from(self.max_unplayed - self.ps[p].unplayed.min(self.max_unplayed)),
                );
            }
            return Some(w);
        }
        if !self.compatible(u, v) {
            return None;
        }
        if !fr.isolated {
            put(&mut w, f.complete, 1);
        }
        let (a, b) = if u < v { (u, v) } else { (v, u) };
        if !self.in_bracket(fr, a, b) {
            let nb = |x: usize| fr.in_b[x] || fr.in_n[x];
            // 2017 C.7 does not apply to the PPB (nor the CLB).
            let lookahead = self.edition == Edition::Dutch2026 || fr.isolated;
            if lookahead && nb(a) && nb(b) && (fr.in_n[a] || fr.in_n[b]) {
                put(&mut w, f.c8p, 1);
                for x in [a, b] {
                    if fr.in_b[x]
                        && let Some(i) = fr.b_levels.iter().position(|&s| s == self.ps[x].score)
                    {
                        put(&mut w, f.c8[i], 1);
                    }
                }
            }
            return Some(w);
        }
        put(&mut w, f.c6, 1);
        for x in [a, b] {
            if fr.mdp[x]
                && let Some(i) = fr.mdp_levels.iter().position(|&s| s == self.ps[x].score)
            {
                put(&mut w, f.c7[i], 1);
            }
        }
        for (i, &fi) in f.psd.iter().enumerate() {
            let d = fr.sd_levels[i];
            let diff = self.ps[a].score - self.ps[b].score;
            put(&mut w, fi, u64::from(diff < d));
        }
        // Colour criteria (C10–C13 / 2017 C.8–C.11), with the Art. 5.2 allocation.
        let (pa, pb) = (&self.ps[a], &self.ps[b]);
        let ca = allocate(&pa.col, &pb.col, pa.parity_number, self.initial);
        let cb = ca.opposite();
        let (mut v10, mut v11, mut v12, mut v13) = (0u64, 0u64, 0u64, 0u64);
        for (p, c) in [(pa, ca), (pb, cb)] {
            if let Some(pref) = p.col.preference
                && pref != c
            {
                v12 += 1;
                if p.col.strength >= Strength::Strong {
                    v13 += 1;
                }
            }
            if pa.top || pb.top {
                if p.col.difference_after(c).abs() > 2 {
                    v10 += 1;
                }
                if p.col.third_in_a_row(c) {
                    v11 += 1;
                }
            }
        }
        put(&mut w, f.c10, 2 - v10);
        put(&mut w, f.c11, 2 - v11);
        put(&mut w, f.c12, 2 - v12);
        put(&mut w, f.c13, 2 - v13);
        // Float criteria.
        let diff = pa.score - pb.score;
        let two26 = self.edition == Edition::Dutch2026;
        let repeat_down = |_p: &Pl, fl: Float, is_higher: bool, mdp: bool| -> bool {
            // true when p *avoids* repeating a downfloat by this pair
            if fl != Float::Down {
                return false;
            }
            if two26 {
                // Paired inside the bracket: not a downfloater of this bracket. Limbo MDPs
                // that float again count too (ADR swiss-002).
                let _ = mdp;
                true
            } else {
                !(is_higher && diff > 0)
            }
        };
        let c14 = [(pa, true, fr.mdp[a]), (pb, false, fr.mdp[b])]
            .iter()
            .filter(|(p, h, m)| repeat_down(p, p.f1, *h, *m))
            .count() as u64;
        let c16 = [(pa, true, fr.mdp[a]), (pb, false, fr.mdp[b])]
            .iter()
            .filter(|(p, h, m)| repeat_down(p, p.f2, *h, *m))
            .count() as u64;
        put(&mut w, f.c14, c14);
        put(&mut w, f.c16, c16);
        put(&mut w, f.c15, u64::from(!(diff > 0 && pb.f1 == Float::Up)));
        put(&mut w, f.c17, u64::from(!(diff > 0 && pb.f2 == Float::Up)));
        for (i, &d) in fr.sd_levels.iter().enumerate() {
            let big = diff > 0 && diff >= d;
            // 2017: a repeated downfloater that floats out of the bracket counts with its
            // artificial score difference; pairing it inside avoids that (bonus).
            let float_bonus = |fl: fn(&Pl) -> Float| -> u64 {
                if two26 {
                    return 0;
                }
                [a, b]
                    .iter()
                    .filter(|&&x| {
                        fl(&self.ps[x]) == Float::Down
                            && self.ps[x].score + self.one_point >= d + fr.s0
                    })
                    .count() as u64
            };
            put(
                &mut w,
                f.c18[i],
                u64::from(!(big && pa.f1 == Float::Down)) + float_bonus(|p| p.f1),
            );
            put(&mut w, f.c19[i], u64::from(!(big && pb.f1 == Float::Up)));
            put(
                &mut w,
                f.c20[i],
                u64::from(!(big && pa.f2 == Float::Down)) + float_bonus(|p| p.f2),
            );
            put(&mut w, f.c21[i], u64::from(!(big && pb.f2 == Float::Up)));
        }
        if let Some(o) = f.order {
            put(&mut w, o, fr.order.value(a, b, fr.mdp[a], fr.mdp[b]));
        }
        if let (Some(x), Some(e1), Some(e2)) = (&fr.exch, f.ex1, f.ex2) {
            put(&mut w, e1, u64::from(x.in_s1[a]));
            put(&mut w, e2, (x.len - x.pos[a]) as u64);
            // Art. 4.3.3: prefer moving the highest BSNs out of S1 (minimise Σ 2^pos over S1
            // players that stay tops); 4.3.4: prefer moving the lowest BSNs into S1.
            if let (Some(e3), Some(e4)) = (f.ex3, f.ex4) {
                if x.in_s1[a] {
                    put(&mut w, e3, (1u64 << x.len) - (1u64 << x.pos[a]));
                } else {
                    put(&mut w, e4, 1u64 << (x.len - x.pos[a]));
                }
            }
        }
        Some(w)
    }
}
