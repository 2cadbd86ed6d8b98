//! The first questions' pairs made from the bracket's cold matching's own list (ADR
//! swiss-048).
//!
//! A large bracket's start lists every pair of its cold matching's players with its weight
//! (a 9,999-player round 2: 12.9 million pairs), solves, and then its first question lists
//! the same pairs again, weighing each a second time, to fill the [`EdgeCache`] its
//! questions read (or the engine ahead lists them for it, ADR swiss-043). The weights are
//! those of the same frame, and the cache holds every pair of those players the start's
//! optimum does not prune, whatever the constraints: so the cache is made from the cold
//! matching's list instead, pair for pair in the same order, without weighing any pair
//! again. The list is read from its end and given back as it is read, so the memory held
//! stays about the larger of the two.

use super::*;

#[cfg(test)]
thread_local! {
    /// Caches made from a cold matching's list (this thread's, for tests).
    pub(super) static FROM_COLD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Off: no cold list is kept, the first question lists its pairs (or the engine ahead
    /// does) as before ADR swiss-048.
    pub(super) static FROM_COLD_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether tests turned the path off ([`FROM_COLD_OFF`]; never in builds).
fn from_cold_off() -> bool {
    #[cfg(test)]
    return FROM_COLD_OFF.with(|o| o.get());
    #[cfg(not(test))]
    false
}

/// A large cold matching's list of edges, kept until its bracket's start is known: its
/// frame, its players (ascending) and the edges (local indices, `Vec<Edge<limbs>>`) of
/// every pair among them that has a weight, in the order [`Engine::edges_in`] lists them.
pub(super) struct ColdList {
    frame: u64,
    verts: Vec<usize>,
    limbs: usize,
    edges: Box<dyn std::any::Any + Send>,
}

/// The edges read before the list is shrunk (its memory given back) by as much (in this
/// crate's tests, whose lists are short, few: every list is read in several blocks).
#[cfg(not(test))]
const BLOCK: usize = 1 << 20;
#[cfg(test)]
const BLOCK: usize = 100;

impl Engine {
    /// Whether a cold matching of `verts` under `cons` keeps its list for the cache of its
    /// bracket's first questions: on the fast path (with or without explanations: ADR
    /// pairing-003), while a bracket's start is worked out, from
    /// [`FIRST_QUESTIONS_AHEAD_FROM`] players, without constraints. Any list kept before is
    /// given back first: two such lists at once would double the memory.
    pub(super) fn keeps_cold_list(&self, cons: &Cons, verts: &[usize]) -> bool {
        *self.cold_list.borrow_mut() = None;
        self.fast
            && self.starting.get()
            && !from_cold_off()
            && verts.len() >= FIRST_QUESTIONS_AHEAD_FROM
            && cons.is_none()
    }

    /// Keeps the list `edges` (in `M` limbs) of the cold matching of `verts` in frame `fr`.
    pub(super) fn keep_cold_list<const M: usize>(
        &self,
        fr: &Frame,
        verts: &[usize],
        edges: Vec<Edge<M>>,
    ) {
        *self.cold_list.borrow_mut() = Some(ColdList {
            frame: fr.id,
            verts: verts.to_vec(),
            limbs: M,
            edges: Box::new(edges),
        });
    }

    /// The edge cache of `start`'s first questions made from the list its cold matching
    /// kept ([`Engine::keep_cold_list`]), when that list is of `start`'s frame and its
    /// players are still to pair; the list is given back either way. True when the cache
    /// was made (it holds what the first question's listing would fill it with: the same
    /// frame, certificate and width; [`Engine::first_questions_listed`]).
    pub(super) fn first_questions_from_cold(&self, start: &BracketStart) -> bool {
        let Some(cold) = self.cold_list.borrow_mut().take() else {
            return false;
        };
        let (fr, cur) = (&start.fr, &start.cur);
        if cold.frame != fr.id
            || cur.cert.is_none()
            || !cold.verts.iter().all(|&v| self.remaining[v])
        {
            return false;
        }
        // The width of a question about a known optimum ([`Engine::solve_verts`]).
        let cache = in_width!(
            fr.bits + 6,
            cache_from_cold(self, fr, cur, cold),
            cache_from_cold::<8>(self, fr, cur, cold)
        );
        let made = cache.is_some();
        if made {
            #[cfg(test)]
            FROM_COLD.with(|c| c.set(c.get() + 1));
            *self.edge_cache.borrow_mut() = cache;
        }
        made
    }
}

/// [`Engine::first_questions_from_cold`] in `M` limbs, the list read in its own width.
fn cache_from_cold<const M: usize>(
    eng: &Engine,
    fr: &Frame,
    cur: &Sol,
    cold: ColdList,
) -> Option<EdgeCache> {
    let ColdList {
        verts,
        limbs,
        edges,
        ..
    } = cold;
    match limbs {
        2 => cache_from_list::<2, M>(eng, fr, cur, verts, edges),
        3 => cache_from_list::<3, M>(eng, fr, cur, verts, edges),
        4 => cache_from_list::<4, M>(eng, fr, cur, verts, edges),
        5 => cache_from_list::<5, M>(eng, fr, cur, verts, edges),
        6 => cache_from_list::<6, M>(eng, fr, cur, verts, edges),
        8 => cache_from_list::<8, M>(eng, fr, cur, verts, edges),
        _ => None,
    }
}

/// The cache (weights in `M` limbs) of the pairs of the cold list `edges` (in `L` limbs,
/// among `verts`) that `cur` does not prune, in the list's order; `None` when they are more
/// than a cache keeps ([`EDGE_CACHE_MAX`]). The list is read in blocks from its end, each
/// block's memory given back once read; two blocks at a time on two threads when the list
/// is long enough ([`on_two_threads`]), the helper's appended after the engine's.
fn cache_from_list<const L: usize, const M: usize>(
    eng: &Engine,
    fr: &Frame,
    cur: &Sol,
    verts: Vec<usize>,
    edges: Box<dyn std::any::Any + Send>,
) -> Option<EdgeCache> {
    let mut edges = *edges.downcast::<Vec<Edge<L>>>().ok()?;
    let narrow = cur.cert.as_ref().and_then(narrowed::<M>);
    let read = BlockReader {
        fr,
        cur,
        narrow: narrow.as_ref(),
        top: fr.order_top(),
        verts: &verts,
        n: eng.n,
    };
    // Read from the end and pushed so, each pair's limbs last to first: both lists are
    // turned round at the end. Their room is reserved at once (pages untouched until
    // written).
    let mut out = (
        Vec::with_capacity(edges.len()),
        Vec::with_capacity(edges.len() * M),
    );
    let two = on_two_threads(edges.len());
    // The helper's block, its room reserved here once for every block: the helper thread
    // allocates nothing (what a thread allocates goes to its own arena of the allocator).
    let room = if two { BLOCK } else { 0 };
    let mut theirs = (Vec::with_capacity(room), Vec::with_capacity(room * M));
    let watch = crate::two_threads::DropWatch::here();
    while !edges.is_empty() {
        // A stopped round ends here too (ADR pairing-003).
        watch.check();
        let mut from = edges.len().saturating_sub(BLOCK);
        if two && from > 0 {
            let low = from.saturating_sub(BLOCK);
            let (lower, upper) = edges[low..].split_at(from - low);
            theirs.0.clear();
            theirs.1.clear();
            let helped = std::thread::scope(|s| {
                let theirs = &mut theirs;
                let watch = watch.clone();
                let helper = std::thread::Builder::new().spawn_scoped(s, move || {
                    watch.on_this_thread(|| read.block::<L>(lower, theirs))
                });
                read.block::<L>(upper, &mut out);
                match helper.map(|h| h.join()) {
                    Ok(Ok(())) => true,
                    Ok(Err(panic)) => std::panic::resume_unwind(panic),
                    Err(_) => false,
                }
            });
            // No thread could be had: the helper's block read here.
            if !helped {
                read.block::<L>(lower, &mut theirs);
            }
            out.0.extend_from_slice(&theirs.0);
            out.1.extend_from_slice(&theirs.1);
            from = low;
        } else {
            read.block::<L>(&edges[from..], &mut out);
        }
        if out.0.len() > EDGE_CACHE_MAX {
            return None;
        }
        edges.truncate(from);
        edges.shrink_to_fit();
    }
    drop(edges);
    let (mut pairs, mut weights) = out;
    pairs.reverse();
    weights.reverse();
    pairs.shrink_to_fit();
    weights.shrink_to_fit();
    let idx = eng.local_index(&verts);
    #[cfg(debug_assertions)]
    assert_listed_so::<M>(eng, fr, cur, &verts, &idx, &pairs, &weights);
    Some(EdgeCache::new(fr.id, Some(cur), M, &idx, pairs, weights))
}

/// What reading a block of a cold list takes (shared by the two threads): the start's
/// optimum `cur`, its certificate in `M` limbs when it fits ([`narrowed`]) and its frame's
/// tie-break top ([`Frame::order_top`]).
#[derive(Clone, Copy)]
struct BlockReader<'a, const M: usize> {
    fr: &'a Frame,
    cur: &'a Sol,
    narrow: Option<&'a Certificate<M>>,
    top: Option<u32>,
    verts: &'a [usize],
    n: usize,
}

impl<const M: usize> BlockReader<'_, M> {
    /// Pushes the pairs of `edges` (last first) that `cur` does not prune, and their
    /// weights in `M` limbs (last limb first), onto `out`.
    fn block<const L: usize>(&self, edges: &[Edge<L>], out: &mut (Vec<(u32, u32)>, Vec<u64>)) {
        let (verts, n) = (self.verts, self.n);
        for e in edges.iter().rev() {
            let (u, v) = (verts[e.u()], verts[e.v()]);
            let w: Wide = e.w.narrow();
            let wm = w.narrow::<M>();
            // As the listing: any pair of players, not the bye's (ADR swiss-038).
            if u < n && v < n && self.prunes(u, v, w, wm) {
                continue;
            }
            out.0.push((u as u32, v as u32));
            out.1.extend(wm.0.iter().rev());
        }
    }

    /// [`Sol::excludes_weight`] of the pair (u, v) of weight `w` (`wm` in `M` limbs): on the
    /// narrowed certificate when there is one, the same sums without their empty limbs.
    #[inline]
    fn prunes(&self, u: usize, v: usize, w: Wide, wm: WideN<M>) -> bool {
        let Some(c) = self.narrow else {
            return self.cur.excludes_weight(self.fr, u, v, w);
        };
        let pruned = excluded_by(c.reduced_cost(u, v, wm), self.top);
        debug_assert_eq!(pruned, self.cur.excludes_weight(self.fr, u, v, w));
        pruned
    }
}

/// `c` in `M` limbs when every value it holds (vertex duals, blossom duals and their sums,
/// the shift) is below 2^(64M − 3): then a reduced cost's sums (two vertex duals, twice a
/// blossoms' sum; twice a weight below 2^(64M − 6) and the shift) stay below 2^(64M − 1) and
/// every test reads as in eight limbs. `None` otherwise (the test stays in eight limbs).
fn narrowed<const M: usize>(c: &Certificate<8>) -> Option<Certificate<M>> {
    let fits = |x: &Wide| x.0[M..].iter().all(|&l| l == 0) && x.0[M - 1] >> 61 == 0;
    let links_fit = c.paths.iter().flatten().all(|(_, z, o)| fits(z) && fits(o));
    if !fits(&c.shift) || !c.vertex.iter().all(fits) || !links_fit {
        return None;
    }
    Some(in_limbs::<8, M>(c))
}

/// Debug builds: the cache made from the cold list is the one the first question's
/// listing fills (every pair of `verts` weighed again, pruned by `cur`).
#[cfg(debug_assertions)]
fn assert_listed_so<const M: usize>(
    eng: &Engine,
    fr: &Frame,
    cur: &Sol,
    verts: &[usize],
    idx: &[usize],
    pairs: &[(u32, u32)],
    weights: &[u64],
) {
    let cons = Cons::none(eng.n);
    let lister = Lister {
        rules: eng.rules(),
        fr,
        cons: &cons,
        verts,
        idx,
        prune: Some(cur),
        until: None,
    };
    let mut rows = Rows::<M>::new(true, usize::MAX);
    lister.list(0..verts.len(), &mut rows);
    assert!(
        rows.pairs == pairs && rows.weights == weights,
        "the cache made from the cold list is not the listing's ({} pairs, {} listed)",
        pairs.len(),
        rows.pairs.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A certificate of `n` vertices in eight limbs whose values are `value(i)`: vertex
    /// duals, and one path of nested blossoms over the first half of the vertices.
    fn certificate(n: usize, value: impl Fn(usize) -> Wide) -> Certificate<8> {
        let depth = 5;
        let mut sum = Wide::ZERO;
        let path: Vec<Link<8>> = (0..depth)
            .map(|b| {
                let z = value(1000 + b);
                sum = sum.plus(z);
                (n + b, z, sum)
            })
            .collect();
        Certificate {
            vertex: (0..n).map(&value).collect(),
            paths: vec![path],
            chain_of: (0..n)
                .map(|v| {
                    if v < n / 2 {
                        (0, (v % depth + 1) as u32)
                    } else {
                        (0, 0)
                    }
                })
                .collect(),
            shift: value(2000),
        }
    }

    #[test]
    fn a_narrowed_certificate_gives_the_reduced_costs_of_the_wide_one() {
        // Values below 2^125 in two limbs (each at most 2^(128 − 3) − 1, and the blossom
        // sums of five of them below that too): narrowed, the same reduced costs and the
        // same exclusions, weights up to 2^122.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let vals: Vec<Wide> = (0..2001)
            .map(|_| {
                let mut w = Wide::ZERO;
                w.0[0] = next();
                w.0[1] = next() >> 6;
                w
            })
            .collect();
        let c = certificate(40, |i| vals[i]);
        let narrow = narrowed::<2>(&c).expect("fits in two limbs");
        for _ in 0..20_000 {
            let (u, v) = ((next() % 40) as usize, (next() % 40) as usize);
            let mut w = Wide::ZERO;
            w.0[0] = next();
            w.0[1] = next() >> 6;
            let wide = c.reduced_cost(u, v, w);
            let two = narrow.reduced_cost(u, v, w.narrow::<2>());
            assert_eq!(two.narrow::<8>(), wide, "pair {u}-{v}");
            for top in [None, Some(3), Some(64), Some(100), Some(120)] {
                assert_eq!(excluded_by(two, top), excluded_by(wide, top));
            }
        }
        // A value from 2^125 (or in a higher limb) keeps the test in eight limbs.
        let mut big = Wide::ZERO;
        big.0[1] = 1 << 61;
        assert!(narrowed::<2>(&certificate(40, |i| if i == 7 { big } else { vals[i] })).is_none());
        assert!(
            narrowed::<2>(&certificate(40, |i| if i == 1003 { big } else { vals[i] })).is_none()
        );
        let mut high = Wide::ZERO;
        high.0[2] = 1;
        assert!(
            narrowed::<2>(&certificate(40, |i| if i == 2000 { high } else { vals[i] })).is_none()
        );
        let mut under = Wide::ZERO;
        under.0[1] = (1 << 61) - 1;
        assert!(
            narrowed::<2>(&certificate(40, |i| if i == 7 { under } else { vals[i] })).is_some()
        );
    }
}
