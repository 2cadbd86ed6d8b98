//! The Dutch pairing process, bracket by bracket (C.04.3 2026 Art. 3–4; 2017 B).
//!
//! Method (any method giving the identical result is allowed, 2026 Art. 3 note): the whole
//! round is one maximum-weight matching over all players not yet paired (plus a dummy
//! vertex for the pairing-allocated bye). Edge weights encode, from most to least
//! significant: completion (C4, every bracket), the PAB assignee's score (C5), then the
//! quality of the *current* bracket (C6 pairs, C7 downfloater scores, C8 look-ahead into
//! the next bracket, C9, colour criteria C10–C13, float criteria C14–C21). A maximum
//! matching is therefore a best candidate by the criteria. Among equally good candidates
//! the rules take the one generated first; we reproduce the generation order by fixing
//! decisions one at a time in that order (MDP set, MDP partners by S2 transposition,
//! remainder exchange, remainder partners by transposition), re-solving to check that the
//! optimum is still reachable after each decision.

use crate::blossom::{
    Certificate, Edge, Link, Priced, WarmSearch, WarmStart, common_outer, keep_best_per_vertex,
    max_weight_matching, max_weight_matching_priced, max_weight_matching_with_duals,
    max_weight_perfect_matching_warm_priced, outer_sum, warm_search,
};
use crate::colour::ColourState;
use crate::criteria::{c1_allows, c3_allows, is_topscorer, pab_eligible};
use crate::model::*;
use crate::two_threads::{found_in_halves, on_two_threads};
use crate::weight::{Layout, Wide, WideN};

/// `$f::<M>(args)` in the narrowest number of limbs M (2 to 6) that `$bits` bits fit in,
/// `$wider` beyond: narrower integers are faster, and the values (so the matching) are
/// the same.
macro_rules! in_width {
    ($bits:expr, $f:ident ( $($arg:expr),* ), $wider:expr) => {
        match $bits {
            0..=128 => $f::<2>($($arg),*),
            129..=192 => $f::<3>($($arg),*),
            193..=256 => $f::<4>($($arg),*),
            257..=320 => $f::<5>($($arg),*),
            321..=384 => $f::<6>($($arg),*),
            _ => $wider,
        }
    };
}

/// Cold matchings of at least this many vertices are solved on a sparse part of their
/// edges and priced against the rest ([`Engine::priced_matching`]).
const PRICED_SMALL_FROM: usize = 32;

/// From this many vertices a priced cold matching starts from a wider part (10 neighbours
/// each side and 10 about its natural opponent, 3 heaviest edges; 12 and 6 before ADR
/// swiss-042); below, from a narrower one (6 and 4): with pricing rounds that go on from the
/// round before (ADR swiss-012), the few edges the narrow part misses cost less than the
/// larger part's first solve (ADR swiss-013).
const WIDE_PART_FROM: usize = 400;

/// The narrow margin of a reduced matching ([`Engine::solve_reduced`]): the highest lower
/// players kept besides the bracket and the next scoregroup, and the lowest PAB-eligible
/// ones (ADR swiss-034). The proof decides, not the margin: too narrow a margin only costs
/// the wide one's solve after it.
const NARROW_BELOW: usize = 4;
const NARROW_BYES: usize = 4;
const NARROW_NEXT: usize = 16;

/// The next scoregroup is set aside ([`Engine::next_aside`]) only when it is at least this
/// many times as large as the whole bracket (ADR swiss-039).
const ASIDE_NEXT_FROM: usize = 4;

/// How many players outside the bracket a reduced matching keeps
/// ([`Engine::solve_reduced_with`]).
#[derive(Clone, Copy)]
struct Margin {
    /// The highest players below the next scoregroup (downfloat targets).
    below: usize,
    /// The lowest PAB-eligible players (C5 candidates).
    byes: usize,
    /// The highest players of the next scoregroup (the bracket's floaters' partners); the
    /// others are set aside ([`Engine::next_aside`], ADR swiss-039).
    next: usize,
}

/// Warm searches of at least this many vertices are priced (ADR swiss-009); smaller ones
/// run on every edge, which is cheaper there (ADR swiss-013).
const WARM_PRICED_FROM: usize = 400;

/// The largest field paired: pairing numbers have four digits in the TRF (and in the
/// pairing files of the FIDE-endorsed programs). Large fields are slow, not refused: the
/// CLI reports progress and the pairing service stops the engine at its timeout.
const MAX_PLAYERS: usize = 9999;

mod board_order;
mod cache_from_cold_matching;
mod cache_taken_over;
mod cached_question;
mod next_bracket_ahead;
mod quality_criteria;

/// A player as the engine sees them (sorted by Art. 1.2 order: score, then TPN).
#[derive(Debug, Clone)]
pub(crate) struct Pl {
    pub tpn: Tpn,
    /// The number whose parity decides Art. 5.2.5: the position among the players paired in
    /// the round, in TPN order (ADR swiss-004).
    pub parity_number: u32,
    pub score: Score,
    pub col: ColourState,
    pub top: bool,
    pub f1: Float,
    pub f2: Float,
    pub bye_ok: bool,
    pub unplayed: u32,
}

#[derive(Debug, Clone, Default)]
struct Fields {
    complete: usize,
    c5: usize,
    c6: usize,
    c7: Vec<usize>,
    /// 2017 C.6: score differences of the pairs (largest first).
    psd: Vec<usize>,
    c8p: usize,
    c8: Vec<usize>,
    c9: Option<usize>,
    c10: usize,
    c11: usize,
    c12: usize,
    c13: usize,
    c14: usize,
    c15: usize,
    c16: usize,
    c17: usize,
    c18: Vec<usize>,
    c19: Vec<usize>,
    c20: Vec<usize>,
    c21: Vec<usize>,
    ex1: Option<usize>,
    ex2: Option<usize>,
    ex3: Option<usize>,
    ex4: Option<usize>,
    /// Fast path only: the rank of the partner a partner search's question gives the player
    /// it restricts (not a criterion; ADR swiss-028), above the generation order.
    rank: Option<usize>,
    /// Fast path only: the generation-order tie-break (not a criterion; see [`Order`]).
    order: Option<usize>,
}

/// The fast path's generation-order tie-break: the least significant weight field, below
/// every criterion, favours the candidate the rules generate first (C.04.3 Art. 4.2: S1[i]
/// with S2[i]; moved-down players in order with the first residents). Among equally good
/// candidates the matching then usually returns the one the sequential decisions look for,
/// so they need no re-solve. It never changes which candidates are best: the engine
/// compares only the criteria bits ([`Frame::same_quality`]) and excludes a pair by its
/// reduced cost only when that exceeds every possible tie-break total.
#[derive(Debug, Clone, Default)]
struct Order {
    /// Rank of a moved-down player among the MDPs, or of a resident among the residents.
    rank: Vec<u32>,
    mdps: u32,
    residents: u32,
    /// Residents ranked from `taken` (those the MDPs presumably take) below `split` are
    /// the presumed S1 of the remainder, the others its S2.
    taken: u32,
    split: u32,
}

impl Order {
    /// Tie-break value of the in-bracket pair (a, b), `a` ranked higher: larger for the
    /// pairs generated first.
    fn value(&self, a: usize, b: usize, a_mdp: bool, b_mdp: bool) -> u64 {
        let (ra, rb) = (u64::from(self.rank[a]), u64::from(self.rank[b]));
        let (m, r, split) = (
            u64::from(self.mdps),
            u64::from(self.residents),
            u64::from(self.split),
        );
        match (a_mdp, b_mdp) {
            (true, false) => (m - ra.min(m)) * (r + 1 - rb.min(r)),
            (false, false) if ra < split && rb >= split && r >= rb => {
                if ra < u64::from(self.taken) {
                    return 0;
                }
                (split - ra) * (r + 1 - (rb - split))
            }
            _ => 0,
        }
    }
}

/// Remainder exchange data (Art. 4.3 / 2017 D.2).
#[derive(Debug, Clone)]
struct Exch {
    in_rm: Vec<bool>,
    in_s1: Vec<bool>,
    pos: Vec<usize>,
    len: usize,
}

/// The weights for one bracket (and phase).
struct Frame {
    /// Distinct for every frame the engine builds (keys the [`EdgeCache`]).
    id: u64,
    in_b: Vec<bool>,
    mdp: Vec<bool>,
    in_n: Vec<bool>,
    last: bool,
    mdp_levels: Vec<Score>,
    b_levels: Vec<Score>,
    sd_levels: Vec<Score>,
    /// Resident score of the bracket (the lowest resident score of a collapsed bracket).
    s0: Score,
    /// Vertices taking part in the matching (2017: the bracket and the next one only).
    active: Vec<bool>,
    /// 2017 bracket paired without the completion criterion (C.4 applies only in the PPB).
    isolated: bool,
    exch: Option<Exch>,
    layout: Layout,
    order: Order,
    /// Bits used by the layout (chooses the matching's integer width).
    bits: u32,
    f: Fields,
}

/// Constraints used while fixing decisions.
#[derive(Debug, Clone)]
struct Cons {
    /// Some(true): must be paired inside the bracket; Some(false): must not.
    req: Vec<Option<bool>>,
    /// Remainder S1 members after the exchange: paired with a lower-ranked non-S1 remainder player.
    tops: Vec<bool>,
    /// `Some((who, rank))`: `who` may be paired only with the players of a positive rank
    /// (the fast path's test of several candidate partners in one matching); the rank
    /// goes into the pair's weight (`Frame::rank_bonus`, ADR swiss-028).
    only: Option<(usize, Vec<u32>)>,
}

impl Cons {
    /// No constraint on the `n` players (and the bye): how a bracket starts.
    fn none(n: usize) -> Cons {
        Cons {
            req: vec![None; n + 1],
            tops: vec![false; n + 1],
            only: None,
        }
    }

    /// Whether these constraints constrain nothing ([`Cons::none`]).
    fn is_none(&self) -> bool {
        self.only.is_none() && self.req.iter().all(Option::is_none) && !self.tops.contains(&true)
    }

    /// These constraints without `only`: what stays the same across the questions of a
    /// bracket's partner search, which restrict one player at a time.
    fn apart_from_only(&self) -> Cons {
        Cons {
            req: self.req.clone(),
            tops: self.tops.clone(),
            only: None,
        }
    }

    /// The same constraints, `only` aside.
    fn same_apart_from_only(&self, other: &Cons) -> bool {
        self.req == other.req && self.tops == other.tops
    }

    /// Whether every pair `narrower` allows (`only` aside, in the same frame), these
    /// constraints allow too ([`Rules::allowed`]): each player required in or out of the
    /// bracket here is required the same there, and each remainder S1 member here is one
    /// there (a member's partners are narrowed by the other members, so more members allow
    /// fewer pairs). The questions of a bracket's phase B add S1 members to phase A's
    /// constraints (ADR swiss-044).
    fn allow_all_of(&self, narrower: &Cons) -> bool {
        self.req.len() == narrower.req.len()
            && self.tops.len() == narrower.tops.len()
            && self
                .req
                .iter()
                .zip(&narrower.req)
                .all(|(r, n)| r.is_none() || r == n)
            && self.tops.iter().zip(&narrower.tops).all(|(&t, &n)| !t || n)
    }

    /// Whether `only` lets u and v meet (it restricts one player's partners).
    fn only_allows(&self, u: usize, v: usize) -> bool {
        match &self.only {
            Some((who, ok)) if u == *who => ok[v] > 0,
            Some((who, ok)) if v == *who => ok[u] > 0,
            _ => true,
        }
    }

    /// What `only`'s rank adds to the weight of the pair (u, v) (zero when it does not
    /// restrict either).
    fn bonus(&self, fr: &Frame, u: usize, v: usize) -> Option<Wide> {
        match &self.only {
            Some((who, r)) if u == *who && r[v] > 0 => Some(fr.rank_bonus(r[v])),
            Some((who, r)) if v == *who && r[u] > 0 => Some(fr.rank_bonus(r[u])),
            _ => None,
        }
    }

    /// The weight `w` of the pair (u, v) in this question: with `only`'s rank.
    fn weigh<const M: usize>(&self, fr: &Frame, u: usize, v: usize, w: WideN<M>) -> WideN<M> {
        match self.bonus(fr, u, v) {
            Some(b) => w.plus(b.narrow::<M>()),
            None => w,
        }
    }

    /// The player `only` restricts and the most its rank adds to a weight.
    fn most_bonus(&self, fr: &Frame) -> Option<(usize, Wide)> {
        let (who, r) = self.only.as_ref()?;
        fr.f.rank?;
        Some((*who, fr.rank_bonus(r.iter().copied().max()?)))
    }
}

/// What a bracket starts from ([`Engine::bracket_start`]): its resident score, its players
/// (`in_b`, the MDPs among them `mdp`), the next scoregroup (`in_n`), its residents, its
/// frame and first optimum, and whether C9 (2026) is on.
struct BracketStart {
    s0: Score,
    in_b: Vec<bool>,
    mdp: Vec<bool>,
    in_n: Vec<bool>,
    res_b: Vec<usize>,
    fr: Frame,
    cur: Sol,
    c9_on: bool,
}

#[derive(Clone)]
struct Sol {
    total: Wide,
    mate: Vec<Option<usize>>,
    /// Optimal duals (global vertex indices): an edge with a positive reduced cost is in
    /// no optimal matching, which saves re-solving to find out.
    cert: Option<Certificate<8>>,
    /// Distinct for every certificate the engine computes (keys the [`EdgeCache`]).
    cert_id: u64,
    /// Shared by the optima of one partner search: each found from the one before with
    /// the same quality, on the same constraints (`only` aside), with one pair more fixed
    /// ([`Engine::edges_from_cache_before`]); a fresh solution starts its own.
    lineage: u64,
}

impl Sol {
    /// True when no matching containing (a, b) can reach this solution's quality.
    fn excludes(&self, eng: &Engine, fr: &Frame, a: usize, b: usize) -> bool {
        match eng.w(fr, a, b) {
            Some(w) => self.excludes_weight(fr, a, b, w),
            None => true,
        }
    }

    /// [`Sol::excludes`] for the edge (a, b) of weight `w`.
    fn excludes_weight(&self, fr: &Frame, a: usize, b: usize, w: Wide) -> bool {
        let Some(c) = &self.cert else {
            return false;
        };
        excluded_by(c.reduced_cost(a, b, w), fr.order_top())
    }
}

/// Whether a pair of doubled reduced cost `rc` is in no matching of the known optimum's
/// quality: any positive `rc`, or with a generation-order tie-break topped at bit `top`,
/// 2 × reduced cost ≥ 2 × 2^top: more than any tie-break total (a known optimum's matching
/// has no partner rank, ADR swiss-028).
fn excluded_by<const L: usize>(rc: WideN<L>, top: Option<u32>) -> bool {
    match top {
        None => rc > WideN::<L>::ZERO,
        Some(shift) => rc.truncate_below(shift + 1) > WideN::<L>::ZERO,
    }
}

impl Frame {
    /// Equal by every criterion (the generation-order tie-break ignored).
    fn same_quality(&self, a: &Wide, b: &Wide) -> bool {
        self.quality_floor(a) == self.quality_floor(b)
    }

    /// The least total of the quality of `total` (by every criterion): `total` with the
    /// generation-order tie-break cleared.
    fn quality_floor(&self, total: &Wide) -> Wide {
        match self.criteria_shift() {
            None => *total,
            Some(shift) => total.truncate_below(shift),
        }
    }

    /// The lowest bit of the criteria when the partner rank and the generation-order
    /// tie-break sit below them.
    fn criteria_shift(&self) -> Option<u32> {
        self.f
            .rank
            .or(self.f.order)
            .map(|o| self.layout.fields[o].shift + self.layout.fields[o].bits)
    }

    /// The bit above the generation-order tie-break.
    fn order_top(&self) -> Option<u32> {
        self.f
            .order
            .map(|o| self.layout.fields[o].shift + self.layout.fields[o].bits)
    }

    /// What the completion field (C4, every player paired) adds to a pair's weight: one
    /// unit, none in a 2017 isolated bracket (A.9), whose pairs leave it out.
    fn completion_unit(&self) -> Wide {
        let mut w = Wide::ZERO;
        if !self.isolated {
            w.add_at(self.layout.fields[self.f.complete].shift, 1);
        }
        w
    }

    /// What the partner rank `r` adds to a weight.
    fn rank_bonus(&self, r: u32) -> Wide {
        let mut b = Wide::ZERO;
        if let Some(f) = self.f.rank {
            b.add_at(self.layout.fields[f].shift, u64::from(r));
        }
        b
    }
}

pub(crate) struct Engine {
    /// Shared with the engine that works the next bracket's start out ahead
    /// ([`next_bracket_ahead`]).
    ps: std::sync::Arc<Vec<Pl>>,
    n: usize,
    has_bye: bool,
    /// C1: for each player, the players they may not meet (sorted engine indices).
    met: std::sync::Arc<Vec<Vec<usize>>>,
    edition: Edition,
    initial: Colour,
    remaining: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
    max_score: Score,
    max_unplayed: u32,
    /// "One point" in scoring units (2017 A.8), taken as the points for a win.
    one_point: Score,
    explain: bool,
    explanation: Vec<BracketExplanation>,
    /// [`EnginePath::Fast`]: take the optimised paths (same results).
    fast: bool,
    /// Rounds already played (bounds the incompatibilities of a player under C1).
    rounds_played: usize,
    /// Fast path: the warm-started reduced solve's recent record ([`Engine::solve_reduced`]).
    warm_record: std::cell::Cell<WarmRecord>,
    /// Fast path: the recent record of the floors of the reduced solve's kept players
    /// ([`Engine::solve_reduced_with`]).
    floor_record: std::cell::Cell<FloorRecord>,
    /// The last number handed out by [`Engine::next_id`].
    serial: std::cell::Cell<u64>,
    /// Fast path: the edges of the last large question ([`Engine::edges_in`]).
    edge_cache: std::cell::RefCell<Option<EdgeCache>>,
    /// Fast path: which players may meet the players a reduced solve set aside
    /// ([`Engine::rest_extension`]).
    rest_meets: std::cell::RefCell<Option<RestMeets>>,
    /// Fast path: each kept player's heaviest edges to the players a reduced solve set
    /// aside ([`RestQuery::heaviest`]).
    rest_heaviest: std::cell::RefCell<Option<RestHeaviest>>,
    /// Fast path: the frame whose next scoregroup a reduced solve could not set aside
    /// ([`Engine::next_aside`]): not tried again in it.
    aside_declined: std::cell::Cell<u64>,
    /// Engine ahead only (`None` on the engine that pairs the round): the players of its
    /// last large cold matching (ascending), whose pairs it lists for the questions after
    /// its start ([`ahead`]).
    cold_players: Option<std::cell::RefCell<Option<Vec<usize>>>>,
    /// Fast path: the last large cold matching's list of edges, until its bracket's start
    /// makes the first questions' cache from it (ADR swiss-048).
    cold_list: std::cell::RefCell<Option<cache_from_cold_matching::ColdList>>,
    /// Set while a bracket's start is worked out: only its cold matchings keep their lists
    /// (a cold solve a question falls back on would hold one through the decisions).
    starting: std::cell::Cell<bool>,
    /// Engine ahead only, while it lists the first questions' pairs: set once the engine
    /// that takes the start asks for it; the listing then stops and nothing is kept
    /// ([`Engine::edges_in`], ADR swiss-043).
    listing_until: std::cell::RefCell<Option<std::sync::Arc<std::sync::atomic::AtomicBool>>>,
}

/// What weighs a pair of players and allows it, read-only: the players, C1's
/// incompatibilities and the tournament's constants ([`Engine::rules`]). The engine's caches
/// are cells, so the engine stays on its thread; this can be shared, and a large listing
/// weighs its pairs on two threads ([`list_rows_on_two_threads`]).
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a> {
    ps: &'a [Pl],
    met: &'a [Vec<usize>],
    n: usize,
    edition: Edition,
    initial: Colour,
    max_score: Score,
    max_unplayed: u32,
    one_point: Score,
}

/// A two-thread listing's rows come in this many chunks of about as many pairs, taken in
/// turn by the two threads: the helper's chunks wait at most two at a time for the engine's
/// thread to append them, so the listing takes little more memory than on one thread.
const LISTING_CHUNKS: usize = 40;

/// What a listing of the pairs among `verts` reads ([`Engine::edges_in`]); shared by its
/// threads.
#[derive(Clone, Copy)]
struct Lister<'a> {
    rules: Rules<'a>,
    fr: &'a Frame,
    cons: &'a Cons,
    verts: &'a [usize],
    idx: &'a [usize],
    prune: Option<&'a Sol>,
    /// A listing that stops once this is set: an engine ahead's listing of the first
    /// questions' pairs, which the start's taker has asked for (or dropped). It fills the
    /// cache only: no question reads its edges.
    until: Option<&'a std::sync::atomic::AtomicBool>,
}

/// What a listing found, row by row: the pairs it keeps for the [`EdgeCache`] and their
/// weights (while `filling`: at most `cap`, [`EDGE_CACHE_MAX`] but in tests; else none), the
/// question's edges (local indices) and the heaviest.
struct Rows<const M: usize> {
    pairs: Vec<(u32, u32)>,
    weights: Vec<u64>,
    edges: Vec<Edge<M>>,
    heaviest: Option<WideN<M>>,
    filling: bool,
    cap: usize,
}

impl<const M: usize> Rows<M> {
    /// No rows yet, filling the cache as `filling` says, at most `cap` pairs.
    fn new(filling: bool, cap: usize) -> Rows<M> {
        Rows {
            pairs: Vec::new(),
            weights: Vec::new(),
            edges: Vec::new(),
            heaviest: None,
            filling,
            cap,
        }
    }

    /// No more pairs for the cache (too many): what it held is freed.
    fn stop_filling(&mut self) {
        self.filling = false;
        self.pairs = Vec::new();
        self.weights = Vec::new();
    }

    /// Rows listed after these ones, appended in order.
    fn append(&mut self, mut later: Rows<M>) {
        if self.filling && (!later.filling || self.pairs.len() + later.pairs.len() > self.cap) {
            self.stop_filling();
        }
        if self.filling {
            self.pairs.append(&mut later.pairs);
            self.weights.append(&mut later.weights);
        }
        self.edges.append(&mut later.edges);
        if let Some(h) = later.heaviest {
            self.heaviest = Some(self.heaviest.map_or(h, |m| m.max(h)));
        }
    }
}

impl Lister<'_> {
    /// Lists rows `rows` (indices into `verts`, ascending) into `out`: each pair
    /// (`verts[i]`, `verts[j]`), i < j, with its weight, unless the known optimum excludes
    /// it; for the question, the pairs its constraints allow.
    fn list<const M: usize>(&self, rows: std::ops::Range<usize>, out: &mut Rows<M>) {
        let (fr, n) = (self.fr, self.rules.n);
        // A stopped round or dropped work ends at the next row (ADR pairing-003).
        let watch = crate::two_threads::DropWatch::here();
        for i in rows {
            watch.check();
            if self
                .until
                .is_some_and(|u| u.load(std::sync::atomic::Ordering::Relaxed))
            {
                return;
            }
            let u = self.verts[i];
            for &v in &self.verts[i + 1..] {
                let Some(w) = self.rules.w(fr, u, v) else {
                    continue;
                };
                // Any pair of players, not only the bracket's (ADR swiss-038).
                if u < n && v < n && self.prune.is_some_and(|k| k.excludes_weight(fr, u, v, w)) {
                    continue;
                }
                let w = w.narrow::<M>();
                if out.filling {
                    if out.pairs.len() < out.cap {
                        out.pairs.push((u as u32, v as u32));
                        out.weights.extend_from_slice(&w.0);
                    } else {
                        out.stop_filling();
                    }
                }
                // A listing ahead fills the cache only (no question reads its edges).
                if self.until.is_none() && self.rules.allowed(fr, self.cons, u, v) {
                    let w = self.cons.weigh(fr, u, v, w);
                    if out.heaviest.is_none_or(|h| w > h) {
                        out.heaviest = Some(w);
                    }
                    out.edges.push(Edge::new(i, self.idx[v], w));
                }
            }
        }
    }
}

/// Whether the helper lists chunk `c` of a two-thread listing: three chunks in five. The
/// engine's thread appends the helper's chunks to its own (a copy into fresh memory, about
/// 40 % of listing them), so it lists fewer.
fn helper_lists(c: usize) -> bool {
    matches!(c % 5, 1 | 3 | 4)
}

/// The rows of a listing of `nv` players in [`LISTING_CHUNKS`] chunks of about as many
/// pairs (at most one more: the last rows, of few pairs, may close one of their own; none
/// empty; counted in 64 bits).
fn listing_chunks(nv: usize) -> Vec<std::ops::Range<usize>> {
    let total = (nv as u64) * (nv as u64).saturating_sub(1) / 2;
    let mut chunks = Vec::with_capacity(LISTING_CHUNKS);
    let (mut start, mut taken) = (0, 0u64);
    for i in 0..nv {
        taken += (nv - 1 - i) as u64;
        if taken * LISTING_CHUNKS as u64 >= total * (chunks.len() as u64 + 1) || i + 1 == nv {
            chunks.push(start..i + 1);
            start = i + 1;
        }
    }
    chunks
}

/// [`Lister::list`] of every row, on the engine's thread and a helper: the rows in
/// [`listing_chunks`], three in five listed by the helper ([`helper_lists`]) and appended in
/// order, so the result is the one-thread listing's, pair for pair. When no thread can be
/// had, all on the engine's; a panic of the helper is the listing's.
fn list_rows_on_two_threads<const M: usize>(lister: &Lister<'_>, out: &mut Rows<M>) {
    let chunks = listing_chunks(lister.verts.len());
    let filling = std::sync::atomic::AtomicBool::new(out.filling);
    let cap = out.cap;
    let watch = crate::two_threads::DropWatch::here();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Rows<M>>(1);
        let theirs: Vec<_> = (0..chunks.len())
            .filter(|&c| helper_lists(c))
            .map(|c| chunks[c].clone())
            .collect();
        let filling = &filling;
        let helper_watch = watch.clone();
        let helper = std::thread::Builder::new().spawn_scoped(s, move || {
            helper_watch.on_this_thread(|| {
                for rows in theirs {
                    let mut part =
                        Rows::new(filling.load(std::sync::atomic::Ordering::Relaxed), cap);
                    lister.list(rows, &mut part);
                    if tx.send(part).is_err() {
                        break;
                    }
                }
            })
        });
        let helping = helper.is_ok();
        for (c, rows) in chunks.iter().enumerate() {
            if !helping || !helper_lists(c) {
                lister.list(rows.clone(), out);
            } else {
                match rx.recv() {
                    Ok(part) => out.append(part),
                    // The helper panicked: the scope passes its panic on; or it ended
                    // because the work was dropped or stopped: so does this thread.
                    Err(_) => {
                        watch.check();
                        break;
                    }
                }
            }
            if !out.filling {
                filling.store(false, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
}

/// The players of the next scoregroup a reduced solve sets aside ([`Engine::next_aside`]):
/// paired among themselves, each pair weighing `weight`.
struct NextAside {
    /// Ascending.
    players: Vec<usize>,
    weight: Wide,
    /// The weight of their pairs.
    total: Wide,
    /// They all have the same dual and blossoms in the known optimum's certificate
    /// ([`rest_alike`]; [`Engine::meets_aside`]).
    alike: bool,
}

/// How many of a kept player's heaviest edges to `rest` [`RestHeaviest`] lists.
const REST_HEAVIEST: usize = 8;

/// Each kept player's [`REST_HEAVIEST`] heaviest edges to `rest`, for one frame and `rest`,
/// whatever the constraints and the known optimum: [`RestMeets`] is emptied whenever the
/// known optimum changes (20 times in one bracket of the 9,999-player round 6), and each
/// time the heaviest edges of 1,600 floaters to 4,194 players of `rest` were weighed again
/// (ADR swiss-024). Made (or kept) by [`Engine::rest_query`], once per question; its `id`
/// names the frame and `rest` for [`RestMeets`] too.
struct RestHeaviest {
    frame: u64,
    rest: Vec<usize>,
    /// Per vertex (`None`: not listed yet).
    top: Vec<Option<HeaviestToRest>>,
    /// Distinct for every list ([`Engine::next_id`]).
    id: u64,
}

/// A player's heaviest edges to `rest` that have a weight, heaviest first, as (weight, the
/// player of `rest`), and whether they are all of them.
type HeaviestToRest = (Vec<(Wide, usize)>, bool);

/// Which kept players may meet one of `rest` in a matching of the known optimum's quality,
/// for one frame, known optimum, constraints (but `only`) and `rest`: successive questions
/// of a bracket ask it of the same players (ADR swiss-011).
struct RestMeets {
    /// The frame and `rest`, as the [`RestHeaviest`] id of the question.
    rest_id: u64,
    cert: Option<u64>,
    /// The constraints, `only` aside.
    cons: Cons,
    meets: Vec<Option<bool>>,
    /// Every player of `rest` has the same dual and the same blossoms in the known
    /// optimum's certificate ([`rest_alike`]).
    alike: bool,
    /// The heaviest edge from each kept player to `rest` (outer `None`: not known yet).
    heaviest: Vec<Option<Option<Wide>>>,
    /// Distinct for every memo ([`Engine::next_id`]).
    id: u64,
}

/// A reduced solve's questions about the players it set aside (`rest`), answered from the
/// [`RestMeets`] memo `memo` (`None`: not remembered) but for the player `only` restricts.
struct RestQuery<'a> {
    eng: &'a Engine,
    fr: &'a Frame,
    cons: &'a Cons,
    prune: Option<&'a Sol>,
    rest: &'a [usize],
    /// The [`RestHeaviest`] list of this frame and `rest`.
    rest_id: u64,
    memo: Option<u64>,
    /// [`RestMeets::alike`].
    alike: bool,
}

impl RestQuery<'_> {
    /// The memo, when it may answer for u.
    fn memo(&self, u: usize) -> Option<std::cell::RefMut<'_, RestMeets>> {
        if self.cons.only.as_ref().is_some_and(|(who, _)| *who == u) {
            return None;
        }
        let memo = self.memo?;
        std::cell::RefMut::filter_map(self.eng.rest_meets.borrow_mut(), |m| {
            m.as_mut().filter(|m| m.id == memo)
        })
        .ok()
    }

    /// Whether u may meet one of `rest` in a matching of the question that reaches
    /// `prune`'s quality ([`Engine::may_meet`]).
    fn meets(&self, u: usize) -> bool {
        if let Some(b) = self.memo(u).and_then(|m| m.meets[u]) {
            return b;
        }
        // A player required inside the bracket cannot (`rest` is below the next scoregroup).
        let scan = || {
            self.rest
                .iter()
                .any(|&x| self.eng.may_meet(self.fr, self.cons, self.prune, u, x))
        };
        let b = self.cons.req.get(u) != Some(&Some(true))
            && if self.alike {
                // Alike (ADR swiss-032), u's heaviest edge to `rest` is one read off its list
                // (scanning all of `rest` was a seventh of a 9,999-player round 6).
                let b = self.heaviest(u).is_some();
                debug_assert_eq!(b, scan(), "u meets rest as a scan finds");
                b
            } else {
                scan()
            };
        if let Some(mut m) = self.memo(u) {
            m.meets[u] = Some(b);
        }
        b
    }

    /// The heaviest weight of u's edges to `rest` that the question allows (its constraints
    /// and the known optimum's pruning; [`RestQuery::meets`] also rules out a player the
    /// constraints require inside the bracket, and [`RestQuery::demand`] asks it first).
    fn heaviest(&self, u: usize) -> Option<Wide> {
        if let Some(w) = self.memo(u).and_then(|m| m.heaviest[u]) {
            return w;
        }
        let heaviest_of = |may: &dyn Fn(usize, Wide) -> bool| {
            self.eng
                .heaviest_to_rest(self.fr, self.rest, self.rest_id, u, may)
        };
        let allowed = |x: usize| self.eng.allowed(self.fr, self.cons, u, x);
        let every = || {
            heaviest_of(&|x, w| {
                allowed(x)
                    && !self
                        .prune
                        .is_some_and(|k| k.excludes_weight(self.fr, u, x, w))
            })
        };
        let w = match (self.prune, self.rest.first()) {
            // Alike, the players of `rest` are excluded in the order of u's weights to them
            // (ADR swiss-032): the heaviest allowed edge, unless it is excluded (then so is
            // every lighter one). Found among the first of u's list, where the pruning
            // excludes them all and `every` weighed all of `rest` again.
            (Some(k), Some(&x)) if self.alike => {
                let w = heaviest_of(&|y, _| allowed(y))
                    .filter(|&w| !k.excludes_weight(self.fr, u, x, w));
                debug_assert_eq!(w, every(), "u's heaviest allowed edge to rest");
                w
            }
            _ => every(),
        };
        if let Some(mut m) = self.memo(u) {
            m.heaviest[u] = Some(w);
        }
        w
    }

    /// Twice the heaviest weight of u's edges to `rest` raised by `shift` (`full` is c
    /// raised by it), `None` when u meets none of `rest`. A player outside the bracket and
    /// the next scoregroup meets `rest` at exactly c; a floater (bracket or next scoregroup)
    /// at most c, its exact heaviest computed only when `exact`; the bye dummy at its
    /// heaviest.
    fn demand(&self, u: usize, full: Wide, shift: Wide, exact: bool) -> Option<Wide> {
        let n = self.eng.n;
        let floater = u < n && (self.fr.in_b[u] || self.fr.in_n[u]);
        if u < n && !(exact && floater) {
            return self.meets(u).then(|| full.plus(full));
        }
        let w = self.heaviest(u)?;
        Some(w.plus(shift).plus(w.plus(shift)))
    }
}

/// Whether every player of `rest` has the same vertex dual and the same chain of blossoms
/// in the known optimum `k`'s certificate (as [`Engine::extend_to_rest`] gives them): an
/// edge from a kept player to one of them then has a reduced cost that falls as its weight
/// rises, the same for every one of them at equal weight.
fn rest_alike(k: &Sol, rest: &[usize]) -> bool {
    let (Some(c), Some(&first)) = (&k.cert, rest.first()) else {
        return false;
    };
    let (dual, chain) = (c.vertex.get(first), c.chain_of.get(first));
    rest.iter()
        .all(|&x| c.vertex.get(x) == dual && c.chain_of.get(x) == chain)
}

/// The edges of a large question kept for the next ones (fast path): the decisions of a
/// bracket ask one question after another on the same frame and the same known optimum,
/// each on the players of the one before less a pair or two, under constraints that differ
/// only in who may meet whom. Computing every pair's weight and reduced cost again was half
/// the time of a 2,000-player round 2 (ADR swiss-011).
struct EdgeCache {
    /// The frame, the pruning certificate (`None`: no pruning) and the width in limbs.
    frame: u64,
    cert: Option<u64>,
    limbs: usize,
    /// The vertices whose pairs are listed (narrowed when the cache is taken over: then the
    /// vertices its questions may have, ADR swiss-037).
    covered: Vec<bool>,
    /// How many vertices the pairs were listed at.
    listed_at: usize,
    /// Every pair of covered vertices (global indices, in the order [`Engine::edges_in`]
    /// lists them) that has a weight and is not pruned, whatever the constraints.
    pairs: Vec<(u32, u32)>,
    /// Their weights, `limbs` limbs each.
    weights: Vec<u64>,
    /// Which of `pairs` the constraints `allowed_for` allow, whoever `only` names aside:
    /// the questions of a partner search differ only in `only`, so each reads these flags
    /// and tests `only` alone ([`EdgeCache::allowed`]).
    allowed: Vec<bool>,
    allowed_for: Option<Cons>,
    /// The pairs `allowed` marks as a graph on the engine's vertices, made at its first use
    /// ([`Engine::cached_barrier`]).
    graph: Option<matching::Graph>,
    /// The pairs (global indices, ascending as in `pairs`) the priced search of the last
    /// question ended with: most of what the next one needs
    /// ([`max_weight_perfect_matching_warm_priced`]); read while its edges are listed.
    hint: Vec<(u32, u32)>,
    /// The same part as indices into `pairs`, when a question answered on the cache left it
    /// ([`Engine::cached_warm_question`]; empty otherwise).
    hint_at: Vec<u32>,
    /// The last question's list of edges (a `Vec<Edge<limbs>>`), given back when it was
    /// done with ([`Listed`]) for the next to fill: a fresh list of millions of edges cost
    /// more in page faults than its copying (ADR swiss-021).
    spare: Option<Box<dyn std::any::Any + Send>>,
    /// The pairs by player, made at the first question answered on the cache
    /// ([`Engine::cached_warm_question`]).
    pairs_at: Option<cached_question::PairsAt>,
    /// Made with `pairs_at`: each player's pair with its partner in the pruning optimum, by
    /// index into `pairs` (`u32::MAX`: none).
    mate_at: Option<Vec<u32>>,
    /// A lower bound of each pair's slack under the warm duals every question starts from,
    /// made with `pairs_at` ([`cached_question::SlackFloor`]; `None` when the warm duals do
    /// not fit the cache's limbs).
    warm_slack: Option<Vec<cached_question::SlackFloor>>,
    /// The heaviest pair's weight, when the pruning certificate covers every pair (else
    /// `None`: the questions are listed).
    heaviest: Option<Wide>,
    /// Whether `heaviest` (and `pairs_at`) were worked out.
    checked: bool,
    /// The duals of the last question answered below its floor on this cache, under the
    /// constraint flags `allowed` holds (ADR swiss-036).
    proof: Option<cached_question::CarriedProof>,
    /// The partner search of the pruning optimum ([`Sol::lineage`]).
    lineage: Option<u64>,
    /// The certificate of the last question solved while the cache held its edges (global
    /// indices; whatever quality it reached), which covers every pair that question
    /// allowed: a new optimum of the partner search with these duals takes the cache over
    /// (ADR swiss-037).
    proved: Option<cache_taken_over::ProvedOn>,
    /// The certificate the cache is keyed by covers every pair its questions allow (the
    /// cache was taken over with it, its players narrowed to those it was proved on; ADR
    /// swiss-037): the check of [`Engine::cached_warm_question`] is not needed. The pairs
    /// stay those the lineage's first optimum left (ADR swiss-029).
    trusted: bool,
    /// How many questions were answered on the cache (debug builds leave the hint out of
    /// every other one, see [`Engine::cached_warm_question`]).
    asked: u32,
}

/// A question's edges; when they came from the [`EdgeCache`], their list goes back to it
/// once read, for the next question of the cache to fill again.
struct Listed<'e, const M: usize> {
    edges: Vec<Edge<M>>,
    back_to: Option<&'e std::cell::RefCell<Option<EdgeCache>>>,
    /// The cache whose pairs these edges are, when it is not `back_to` (a cache just filled
    /// or made from the one before): the part a search ends with is its hint all the same.
    hint_to: Option<&'e std::cell::RefCell<Option<EdgeCache>>>,
    /// The edges of [`EdgeCache::hint`] among them (indices into `edges`).
    hinted: Option<Vec<usize>>,
    /// The heaviest edge's weight (`None`: no edges), found while they were listed.
    heaviest: Option<WideN<M>>,
}

impl<const M: usize> Listed<'_, M> {
    /// Keeps the part a priced search of these edges ended with (indices into them, of
    /// the players `verts`; none: forget the last) as the [`EdgeCache::hint`] of the next
    /// question.
    fn remember_part(&self, verts: &[usize], part: &[usize]) {
        let Some(cache) = self.back_to.or(self.hint_to) else {
            return;
        };
        let Some(c) = &mut *cache.borrow_mut() else {
            return;
        };
        let mut hint: Vec<(u32, u32)> = part
            .iter()
            .filter_map(|&k| {
                let e = self.edges.get(k)?;
                let (a, b) = (*verts.get(e.u())?, *verts.get(e.v())?);
                Some((a.min(b) as u32, a.max(b) as u32))
            })
            .collect();
        hint.sort_unstable();
        c.hint = hint;
        c.hint_at.clear();
    }
}

impl<const M: usize> std::ops::Deref for Listed<'_, M> {
    type Target = Vec<Edge<M>>;
    fn deref(&self) -> &Vec<Edge<M>> {
        &self.edges
    }
}

impl<const M: usize> Drop for Listed<'_, M> {
    fn drop(&mut self) {
        // A cache borrowed elsewhere just does without the list (no panic in a drop).
        if let Some(cache) = self.back_to
            && let Ok(mut cache) = cache.try_borrow_mut()
            && let Some(c) = &mut *cache
            && c.limbs == M
        {
            c.spare = Some(Box::new(std::mem::take(&mut self.edges)));
        }
    }
}

impl EdgeCache {
    /// A cache of `pairs` and their `weights` (`limbs` limbs each) among the vertices
    /// `idx` marks, for the frame and the pruning optimum `prune` (its certificate and
    /// lineage); what the questions work out from them (constraint flags, graph, hint,
    /// pairs by player, slack floors) is made when first needed.
    fn new(
        frame: u64,
        prune: Option<&Sol>,
        limbs: usize,
        idx: &[usize],
        pairs: Vec<(u32, u32)>,
        weights: Vec<u64>,
    ) -> EdgeCache {
        EdgeCache {
            frame,
            cert: prune.map(|k| k.cert_id),
            limbs,
            covered: idx.iter().map(|&i| i != usize::MAX).collect(),
            listed_at: idx.iter().filter(|&&i| i != usize::MAX).count(),
            pairs,
            weights,
            allowed: Vec::new(),
            allowed_for: None,
            graph: None,
            hint: Vec::new(),
            hint_at: Vec::new(),
            spare: None,
            pairs_at: None,
            mate_at: None,
            warm_slack: None,
            heaviest: None,
            checked: false,
            proof: None,
            asked: 0,
            lineage: prune.map(|k| k.lineage),
            proved: None,
            trusted: false,
        }
    }

    /// Whether the cache holds the pairs of a question on `verts` in frame `frame` pruned by
    /// the certificate `cert`, its weights in `limbs` limbs (`None`: any width).
    fn holds(&self, frame: u64, cert: Option<u64>, limbs: Option<usize>, verts: &[usize]) -> bool {
        (self.frame, self.cert) == (frame, cert)
            && limbs.is_none_or(|l| l == self.limbs)
            && verts.iter().all(|&v| self.covered[v])
    }

    /// [`EdgeCache::allowed`] for the constraints `cons` (`only` aside), computed again
    /// when they are not those of the last question.
    fn allowed_under(&mut self, eng: &Engine, fr: &Frame, cons: &Cons) {
        if self
            .allowed_for
            .as_ref()
            .is_none_or(|f| !f.same_apart_from_only(cons))
        {
            let general = cons.apart_from_only();
            self.allowed = self
                .pairs
                .iter()
                .map(|&(u, v)| eng.allowed(fr, &general, u as usize, v as usize))
                .collect();
            self.allowed_for = Some(general);
            self.graph = None;
            self.proof = None;
            // Pairs the flags did not allow may be allowed now: a certificate taken over
            // (ADR swiss-037) is checked against every pair again.
            if self.trusted {
                self.trusted = false;
                self.checked = false;
                self.heaviest = None;
            }
        }
    }
}

/// Questions on fewer vertices are cheap enough to compute afresh.
const EDGE_CACHE_FROM: usize = 32;

/// From this many players in a bracket's cold matching, an engine ahead lists the pairs of
/// the bracket's first questions after its start, while the start is not asked for (ADR
/// swiss-043); this crate's tests, whose brackets are smaller, list from the edge cache's
/// threshold.
#[cfg(not(test))]
const FIRST_QUESTIONS_AHEAD_FROM: usize = WARM_PRICED_FROM;
#[cfg(test)]
const FIRST_QUESTIONS_AHEAD_FROM: usize = EDGE_CACHE_FROM;

/// At most this many edges are kept (8 bytes a pair and 8 a limb: about 540 MB in three
/// limbs when full, 670 MB in four): the questions
/// of the top bracket of a 9,999-player round 2 have 6–7 million edges, and without the
/// cache each computed them again (1.7 s a question; ADR swiss-015); those of its last
/// bracket list their edges from its 12 million pairs (ADR swiss-016).
const EDGE_CACHE_MAX: usize = 1 << 24;

/// How often the warm-started reduced solve failed lately: after `misses` failures in a
/// row the next `misses` attempts (at most 16) go straight to the cold solve.
#[derive(Debug, Clone, Copy, Default)]
struct WarmRecord {
    misses: u32,
    skip: u32,
}

impl WarmRecord {
    /// Whether an attempt is made now (none left to skip), the skips counted down.
    fn take_turn(&mut self) -> bool {
        let turn = self.skip == 0;
        self.skip = self.skip.saturating_sub(1);
        turn
    }

    /// After an attempt that succeeded (`ok`) or failed: a failure in a row more (at most
    /// 16), and as many attempts to skip.
    fn after(self, ok: bool) -> WarmRecord {
        let misses = if ok { 0 } else { (self.misses + 1).min(16) };
        WarmRecord {
            misses,
            skip: misses,
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Caches made from the one before under narrower constraints, and questions asked
    /// without their floor after the floors failed (this thread's, for tests; ADR
    /// swiss-044).
    static NARROWED_KEPT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static FLOORS_SKIPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Both off: a cache under narrower constraints is listed again, every question asks
    /// its floor (the paths of ADR swiss-044 not taken).
    static NARROWED_OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether tests turned the paths of ADR swiss-044 off ([`NARROWED_OFF`]; never in builds).
fn narrowed_off() -> bool {
    #[cfg(test)]
    return NARROWED_OFF.with(|o| o.get());
    #[cfg(not(test))]
    false
}

/// How often, in the frame last asked, the duals a reduced solve's kept players stopped
/// at below their floor did not extend to the players set aside (then the same question
/// is solved again without the floor): after `misses` such failures in a row the next
/// `misses` questions of the frame (at most 16) are asked without the floor at once (ADR
/// swiss-044): a [`WarmRecord`] kept per frame.
#[derive(Debug, Clone, Copy, Default)]
struct FloorRecord {
    frame: u64,
    record: WarmRecord,
}

impl FloorRecord {
    /// The record for a question in frame `frame` (a new frame starts a new record).
    fn of(self, frame: u64) -> FloorRecord {
        if self.frame == frame {
            self
        } else {
            FloorRecord {
                frame,
                ..FloorRecord::default()
            }
        }
    }
}

/// Maximum-weight matching with duals computed in `M` limbs (the caller guarantees the
/// weights and doubled duals fit), the certificate widened back to [`Wide`].
fn matching_in<const M: usize>(
    n: usize,
    edges: &[Edge],
) -> (Vec<Option<usize>>, Option<Certificate<8>>) {
    let (m, c) = max_weight_matching_with_duals(n, &narrow_edges::<M>(edges));
    (m, c.map(|c| widen(&c)))
}

/// The fast path of [`Engine::solve_verts`], its edges built in `M` limbs: the narrowest
/// width holding the weights raised by a warm start's shift and doubled, so the least
/// memory and the fastest arithmetic (the values, so the matching, are the same).
/// `warm_ok`: a warm start fits in `M` limbs. `floor`: the total (of `verts`' pairs) a
/// warm search may stop below ([`Answer::Below`]).
#[allow(clippy::too_many_arguments)]
fn solve_verts_in<const M: usize>(
    eng: &Engine,
    fr: &Frame,
    cons: &Cons,
    base: Wide,
    verts: &[usize],
    prune: Option<&Sol>,
    warm_ok: bool,
    proves_no: Option<&ProvesNo<'_>>,
    floor: Option<Wide>,
) -> Answer {
    let idx = eng.local_index(verts);
    if let Some(cold) = &eng.cold_players
        && prune.is_none()
        && verts.len() >= FIRST_QUESTIONS_AHEAD_FROM
    {
        *cold.borrow_mut() = Some(verts.to_vec());
    }
    // A bracket's start keeps its cold matching's list for its first questions' cache
    // (ADR swiss-048).
    let keep_cold = prune.is_none() && eng.keeps_cold_list(cons, verts);
    // A new optimum of a partner search takes the cache of the one before over when its
    // duals were proved on it (ADR swiss-037).
    if let Some(k) = prune.filter(|_| warm_ok && verts.len() >= WARM_PRICED_FROM) {
        eng.take_over_cache::<M>(fr, cons, verts, k);
    }
    // A question about a known optimum that pairs everybody: first whether the edges left
    // can pair everybody at all (ADR swiss-011), on the cached graph of the questions before
    // when it covers this one (then without building the edges).
    let question = prune.zip(proves_no);
    // A question the duals of the last one on the edge cache answer (ADR swiss-036).
    if warm_ok
        && verts.len() >= WARM_PRICED_FROM
        && let (Some(k), Some(floor)) = (prune, floor)
        && let Some(c) = eng.carried_proof::<M>(fr, cons, verts, &idx, k, floor)
    {
        return Answer::Below(eng.globalize(verts, widen(&c)));
    }
    let mut asked = false;
    if let Some((k, proves_no)) = question
        && let Some(found) = eng.cached_barrier(fr, cons, verts, &idx, k)
    {
        asked = true;
        if found.is_some_and(|(outer, free)| proves_no(&outer, free)) {
            return Answer::No;
        }
    }
    // A large question about a known optimum: asked of the edge cache itself when it can
    // (ADR swiss-025), else its edges are listed.
    if warm_ok
        && verts.len() >= WARM_PRICED_FROM
        && let Some(k) = prune
        && let Some((found, edges)) = eng.cached_warm_question::<M>(fr, cons, verts, &idx, k, floor)
    {
        return match found {
            Ok((m, c)) => {
                #[cfg(debug_assertions)]
                assert_fields_fit(fr, &edges, &m);
                let sol = eng.solution(base, verts, &edges, m, Some(widen(&c)));
                eng.record_proved::<M>(fr, cons, verts, prune, &sol);
                Answer::Solved(sol)
            }
            Err(c) => Answer::Below(eng.globalize(verts, widen(&c))),
        };
    }
    let mut edges = eng.edges_in::<M>(fr, cons, verts, &idx, prune);
    if let Some((k, proves_no)) = question
        && !asked
        && eng
            .cached_barrier(fr, cons, verts, &idx, k)
            .unwrap_or_else(|| no_perfect_matching(verts, &idx, &edges, k))
            .is_some_and(|(outer, free)| proves_no(&outer, free))
    {
        return Answer::No;
    }
    // A question about a known optimum starts from it (warm start).
    let warm = prune
        .filter(|_| warm_ok)
        .and_then(|k| {
            let maxw = edges.heaviest?;
            eng.warm_start(k, verts, &idx, maxw.narrow::<8>())
                .map(|w| raised_for_rank(w, cons, fr, &idx))
        })
        .map(|w| {
            let floor = floor.map(|f| matcher_floor(f, w.shift, verts.len()));
            let (warm, part) =
                warm_matching_in(verts.len(), &edges, &w, floor, edges.hinted.as_deref());
            // A part grown much beyond each vertex's least edges (pricing added the edges
            // its duals did not cover) would slow the next search down: not kept.
            let small = |p: &Vec<usize>| p.len() <= verts.len() * WARM_LEAST;
            edges.remember_part(verts, part.filter(small).as_deref().unwrap_or_default());
            warm
        });
    let (m, local_cert) = match warm {
        Some(Warm::Solved(m, c)) => (m, c),
        Some(Warm::NoPerfect { outer, free })
            if proves_no.is_some_and(|proves_no| proves_no(&outer_of(verts, &outer), free)) =>
        {
            return Answer::No;
        }
        Some(Warm::Below(c)) => {
            return Answer::Below(eng.globalize(verts, c));
        }
        _ => eng.priced_matching(fr, verts, &edges).unwrap_or_else(|| {
            let (m, c) = max_weight_matching_with_duals(verts.len(), &edges);
            (m, c.map(|c| widen(&c)))
        }),
    };
    #[cfg(debug_assertions)]
    assert_fields_fit(fr, &edges, &m);
    let sol = eng.solution(base, verts, &edges, m, local_cert);
    // Edges read from the cache, or listed as it filled, are the cache's pairs this question
    // allows: its duals cover each of them.
    if edges.back_to.or(edges.hint_to).is_some() {
        eng.record_proved::<M>(fr, cons, verts, prune, &sol);
    }
    if keep_cold {
        eng.keep_cold_list(fr, verts, std::mem::take(&mut edges.edges));
    }
    Answer::Solved(sol)
}

/// A floor on the total of `players` players' pairs in the matcher's units: doubled, each
/// weight raised by `shift` (what a warm search's doubled dual objective is compared with).
fn matcher_floor(floor: Wide, shift: Wide, players: usize) -> Wide {
    floor.times(2).plus(shift.times(players as u64))
}

/// A warm start for a question whose restricted player's pairs carry a partner rank
/// (ADR swiss-028): that player starts free (its known partner is not among those it may
/// take), so its dual may rise by the most a rank adds (doubled, as the duals are), and
/// the duals cover its pairs again.
fn raised_for_rank(mut w: WarmStart<8>, cons: &Cons, fr: &Frame, idx: &[usize]) -> WarmStart<8> {
    if let Some((who, most)) = cons.most_bonus(fr)
        && let Some(&i) = idx.get(who).filter(|&&i| i != usize::MAX)
    {
        w.dual[i] = w.dual[i].plus(most.times(2));
    }
    w
}

/// Debug builds: every field's total over the matching `m` of `edges` stays within the
/// capacity its width was sized for (the pairs that can carry it: all, the bracket and the
/// next scoregroup, or the bracket; ADR swiss-017).
#[cfg(debug_assertions)]
fn assert_fields_fit<const M: usize>(fr: &Frame, edges: &[Edge<M>], m: &[Option<usize>]) {
    let mut sums = vec![0u64; fr.layout.fields.len()];
    for e in edges.iter().filter(|e| m[e.u()] == Some(e.v())) {
        for (sum, f) in sums.iter_mut().zip(&fr.layout.fields) {
            *sum = sum.saturating_add(e.w.field(f.shift, f.bits));
        }
    }
    for (sum, f) in sums.iter().zip(&fr.layout.fields) {
        debug_assert!(
            f.bits > 62 || *sum <= f.capacity,
            "field {} totals {sum} over the capacity {} of its layout",
            f.name,
            f.capacity
        );
    }
}

/// What [`Engine::solve_verts`] found.
enum Answer {
    /// The best matching.
    Solved(Sol),
    /// Proved that `verts` cannot all be paired, and the caller's `proves_no` accepted it.
    No,
    /// Proved that no perfect matching of `verts` reaches the floor: feasible duals (global
    /// indices) whose objective is below it.
    Below(Certificate<8>),
}

/// The outer vertices of a barrier on `verts` (`outer` by local index) in global indices,
/// with their outer blossoms: what a [`ProvesNo`] test reads.
fn outer_of(verts: &[usize], outer: &[Option<usize>]) -> Vec<(usize, usize)> {
    verts
        .iter()
        .zip(outer)
        .filter_map(|(&v, b)| b.map(|b| (v, b)))
        .collect()
}

/// Tutte's barrier when the graph of `edges` on `verts` (local indices `idx`) has no perfect
/// matching, grown from the known solution `k`'s pairs ([`matching::perfect_or_barrier`]):
/// the even vertices of the barrier (global indices) with their blossoms (local base
/// indices), and the number of vertices a maximum matching leaves unpaired. `None` when
/// there is a perfect matching.
fn no_perfect_matching<const M: usize>(
    verts: &[usize],
    idx: &[usize],
    edges: &[Edge<M>],
    k: &Sol,
) -> Option<(Vec<(usize, usize)>, usize)> {
    let g = matching::Graph::from_edges(verts.len(), edges.iter().map(|e| (e.u(), e.v())));
    let start: Vec<Option<usize>> = verts
        .iter()
        .map(|&v| k.mate[v].map(|u| idx[u]).filter(|&u| u != usize::MAX))
        .collect();
    match matching::perfect_or_barrier(&g, &start) {
        matching::Completion::Barrier { outer, free } => Some((
            {
                debug_assert!(
                    matching::is_barrier_in(
                        &g,
                        &vec![true; verts.len()],
                        |_, _| true,
                        &outer,
                        free
                    ),
                    "Tutte's barrier"
                );
                outer_of(verts, &outer)
            },
            free,
        )),
        _ => None,
    }
}

/// The edges with their weights in `M` limbs (the caller guarantees they fit).
fn narrow_edges<const M: usize>(edges: &[Edge]) -> Vec<Edge<M>> {
    edges
        .iter()
        .map(|e| Edge::new(e.u(), e.v(), e.w.narrow::<M>()))
        .collect()
}

/// A certificate of `M` limbs widened to [`Wide`].
fn widen<const M: usize>(c: &Certificate<M>) -> Certificate<8> {
    in_limbs::<M, 8>(c)
}

/// A certificate of `M` limbs in `K` limbs, each value's low limbs kept (the caller knows
/// they fit when `K` < `M`).
fn in_limbs<const M: usize, const K: usize>(c: &Certificate<M>) -> Certificate<K> {
    Certificate {
        vertex: c.vertex.iter().map(|x| x.narrow::<K>()).collect(),
        paths: c
            .paths
            .iter()
            .map(|path| {
                path.iter()
                    .map(|&(b, z, o)| (b, z.narrow::<K>(), o.narrow::<K>()))
                    .collect()
            })
            .collect(),
        chain_of: c.chain_of.clone(),
        shift: c.shift.narrow::<K>(),
    }
}

/// A warm start in `M` limbs (the caller guarantees its duals fit).
fn narrow_warm<const M: usize>(warm: &WarmStart<8>) -> WarmStart<M> {
    WarmStart {
        mate: warm.mate.clone(),
        dual: warm.dual.iter().map(|d| d.narrow::<M>()).collect(),
        shift: warm.shift.narrow::<M>(),
    }
}

/// [`max_weight_perfect_matching_warm`] in `M` limbs (the caller guarantees the shifted
/// weights and doubled duals fit).
///
/// `hint`: the part a priced search of a like question ended with (indices into
/// `edges`); with a priced answer, the part this one ended with.
fn warm_matching_in<const M: usize>(
    n: usize,
    edges: &[Edge<M>],
    warm: &WarmStart<8>,
    floor: Option<Wide>,
    hint: Option<&[usize]>,
) -> (Warm, Option<Vec<usize>>) {
    let w = narrow_warm::<M>(warm);
    if n >= WARM_PRICED_FROM
        && edges.len() >= 4 * n * WARM_LEAST
        && let Some((found, part)) = max_weight_perfect_matching_warm_priced(
            n,
            edges,
            &w,
            WARM_LEAST,
            PRICING_ROUNDS,
            floor,
            hint,
        )
    {
        let warm = match found {
            Ok((m, c)) => Warm::Solved(m, Some(widen(&c))),
            Err(c) => Warm::Below(widen(&c)),
        };
        return (warm, Some(part));
    }
    // On every edge: a search that ends short of a perfect matching proves there is none.
    let warm = match warm_search(n, edges, &w, floor) {
        WarmSearch::Perfect(m, c) => Warm::Solved(m, Some(widen(&c))),
        WarmSearch::NoPerfect { outer, free } => Warm::NoPerfect { outer, free },
        WarmSearch::Declined => Warm::Declined,
        WarmSearch::Below(c) => Warm::Below(widen(&c)),
    };
    (warm, None)
}

/// Whether the barrier of a warm search that could not pair everybody (its outer vertices
/// in global indices with their outer blossoms, and the number of vertices left free)
/// answers the question being asked ([`Engine::solve_verts`]).
type ProvesNo<'a> = dyn Fn(&[(usize, usize)], usize) -> bool + 'a;

/// What a warm start gave the fast path.
enum Warm {
    /// A perfect matching of maximum weight and its certificate.
    Solved(Vec<Option<usize>>, Option<Certificate<8>>),
    /// No perfect matching: `outer[v]` (local index) is the outer blossom holding v in the
    /// barrier that proves it, `free` the vertices left unmatched
    /// ([`WarmSearch::NoPerfect`]).
    NoPerfect {
        outer: Vec<Option<usize>>,
        free: usize,
    },
    /// No conclusion: solve cold.
    Declined,
    /// The duals fell below the floor ([`WarmSearch::Below`]; local indices).
    Below(Certificate<8>),
}

/// Edges of least reduced cost kept per vertex by a priced warm start.
const WARM_LEAST: usize = 12;

/// Rounds of pricing before a priced warm search gives up (then it runs on every edge).
const PRICING_ROUNDS: usize = 6;

/// Rounds of pricing before a priced cold matching gives up and the whole graph is solved
/// cold, which costs O(n·m): 136 s for a 2,556-vertex bracket of 3.2 million edges whose
/// pricing settled in its eighth round (ADR swiss-014).
const COLD_PRICING_ROUNDS: usize = 32;

fn float_at(p: &Player, back: usize) -> Float {
    let len = p.floats.len();
    if len >= back {
        p.floats[len - back]
    } else {
        Float::None
    }
}

/// [`crate::pair_with`] that can be stopped (exported as `swiss::pair_stoppable`): once
/// `stop` is given, the engine returns [`NoValidPairing::Limit`] ("stopped by the caller")
/// within a delta step of a matcher, a row of a listing or a block of a cache, on every
/// thread of the round (ADR pairing-003), having changed nothing. A service that gives up
/// waiting (its timeout, its client gone) stops the computation with it instead of
/// leaving it to run on. A pairing not stopped is the one [`crate::pair_with`] makes.
pub fn pair_round(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress: &mut dyn FnMut(&Progress),
    stop: &crate::StopSignal,
) -> Result<RoundPairing, NoValidPairing> {
    pair_round_in(state, edition, options, path, progress, Some(stop))
}

/// [`pair_round`] that nobody stops: its threads watch no signal.
pub(crate) fn pair_round_unstopped(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RoundPairing, NoValidPairing> {
    pair_round_in(state, edition, options, path, progress, None)
}

fn pair_round_in(
    state: &TournamentState,
    edition: Edition,
    options: &Options,
    path: EnginePath,
    progress: &mut dyn FnMut(&Progress),
    stop: Option<&crate::StopSignal>,
) -> Result<RoundPairing, NoValidPairing> {
    let mut seen = std::collections::HashSet::new();
    for p in &state.players {
        if p.tpn == 0 || !seen.insert(p.tpn) {
            return Err(NoValidPairing::InvalidState(format!(
                "player TPN {} is zero or duplicated",
                p.tpn
            )));
        }
    }
    let present: Vec<&Player> = state.players.iter().filter(|p| !p.absent).collect();
    let mut ps: Vec<(Pl, &Player)> = present
        .iter()
        .map(|p| {
            (
                Pl {
                    tpn: p.tpn,
                    parity_number: p.tpn,
                    score: p.pairing_score(),
                    col: ColourState::from_history(&p.colours),
                    top: is_topscorer(state, p),
                    f1: float_at(p, 1),
                    f2: float_at(p, 2),
                    bye_ok: pab_eligible(p),
                    unplayed: p.unplayed_games(),
                },
                *p,
            )
        })
        .collect();
    // 5.2.5 / E.5 "odd pairing number" (ADR swiss-004): both reference engines number the
    // players paired in the round consecutively in TPN order; position 1 keeps the colour
    // its TPN would get from the initial colour.
    let mut initial = state.initial_colour;
    {
        let mut by_tpn: Vec<Tpn> = ps.iter().map(|p| p.0.tpn).collect();
        by_tpn.sort_unstable();
        if by_tpn.first().is_some_and(|&t| t % 2 == 0) {
            initial = initial.opposite();
        }
        for p in ps.iter_mut() {
            p.0.parity_number = by_tpn
                .binary_search(&p.0.tpn)
                .map_or(p.0.tpn, |i| i as u32 + 1);
        }
    }
    ps.sort_by(|a, b| b.0.score.cmp(&a.0.score).then(a.0.tpn.cmp(&b.0.tpn)));
    let n = ps.len();
    if n > MAX_PLAYERS {
        return Err(NoValidPairing::Limit(format!(
            "{n} players: at most {MAX_PLAYERS} can be paired (FIDE pairing numbers and the TRF have four digits; ADR swiss-009)"
        )));
    }
    // C1 (rematches, forbidden pairs) as sorted lists of engine indices: a player has met
    // at most rounds-played opponents, so the incompatibility graph is sparse.
    let index_of: std::collections::HashMap<Tpn, usize> =
        ps.iter().enumerate().map(|(i, p)| (p.0.tpn, i)).collect();
    let mut met: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, (_, p)) in ps.iter().enumerate() {
        for t in &p.opponents {
            if let Some(&j) = index_of.get(t)
                && j != i
            {
                met[i].push(j);
                met[j].push(i);
            }
        }
    }
    for &(x, y) in &state.forbidden_pairs {
        if let (Some(&i), Some(&j)) = (index_of.get(&x), index_of.get(&y))
            && i != j
        {
            met[i].push(j);
            met[j].push(i);
        }
    }
    for m in met.iter_mut() {
        m.sort_unstable();
        m.dedup();
    }
    debug_assert!((0..n).all(|i| (0..n).all(
        |j| i == j || met[i].binary_search(&j).is_err() == c1_allows(state, ps[i].1, ps[j].1)
    )));
    let max_score = ps.iter().map(|p| p.0.score).max().unwrap_or(0);
    let max_unplayed = ps.iter().map(|p| p.0.unplayed).max().unwrap_or(0);
    let mut eng = Engine {
        n,
        has_bye: n % 2 == 1,
        met: std::sync::Arc::new(met),
        edition,
        initial,
        remaining: vec![true; n + 1],
        pairs: Vec::new(),
        bye: None,
        max_score,
        max_unplayed,
        one_point: state.points_for_win.max(1),
        explain: options.explain,
        explanation: Vec::new(),
        fast: path == EnginePath::Fast,
        rounds_played: state.rounds_played as usize,
        warm_record: Default::default(),
        floor_record: Default::default(),
        serial: Default::default(),
        edge_cache: Default::default(),
        rest_meets: Default::default(),
        rest_heaviest: Default::default(),
        aside_declined: Default::default(),
        cold_players: None,
        cold_list: Default::default(),
        starting: Default::default(),
        listing_until: Default::default(),
        ps: std::sync::Arc::new(ps.into_iter().map(|p| p.0).collect()),
    };
    eng.remaining[n] = eng.has_bye;
    eng.run(progress, stop)?;
    Ok(eng.finish())
}

impl Rules<'_> {
    fn in_bracket(&self, fr: &Frame, u: usize, v: usize) -> bool {
        u < self.n
            && v < self.n
            && fr.in_b[u]
            && fr.in_b[v]
            && (fr.last || !(fr.mdp[u] && fr.mdp[v]))
            && match &fr.exch {
                Some(x) => x.in_rm[u] && x.in_rm[v],
                None => true,
            }
    }

    fn allowed(&self, fr: &Frame, cons: &Cons, u: usize, v: usize) -> bool {
        for (x, y) in [(u, v), (v, u)] {
            if x >= self.n {
                continue;
            }
            match cons.req[x] {
                Some(true) if !self.in_bracket(fr, x, y) => return false,
                Some(false) if self.in_bracket(fr, x, y) => return false,
                _ => {}
            }
            if let Some((who, ok)) = &cons.only
                && x == *who
                && ok[y] == 0
            {
                return false;
            }
            if cons.tops[x] {
                if y >= self.n || cons.tops[y] || y < x {
                    return false;
                }
                if let Some(e) = &fr.exch
                    && !e.in_rm[y]
                {
                    return false;
                }
            }
        }
        true
    }

    fn w(&self, fr: &Frame, u: usize, v: usize) -> Option<Wide> {
        if u == v || !fr.active[u] || !fr.active[v] {
            return None;
        }
        self.edge_weight(fr, u, v)
    }

    /// C1 and C3 allow players `u` and `v` (engine indices) to meet.
    pub(crate) fn compatible(&self, u: usize, v: usize) -> bool {
        let (a, b) = (&self.ps[u], &self.ps[v]);
        u != v && c3_allows(&a.col, a.top, &b.col, b.top) && self.met[u].binary_search(&v).is_err()
    }
}

impl Engine {
    /// The read-only part of the engine that weighs and allows pairs.
    pub(crate) fn rules(&self) -> Rules<'_> {
        Rules {
            ps: &self.ps,
            met: &self.met,
            n: self.n,
            edition: self.edition,
            initial: self.initial,
            max_score: self.max_score,
            max_unplayed: self.max_unplayed,
            one_point: self.one_point,
        }
    }

    fn in_bracket(&self, fr: &Frame, u: usize, v: usize) -> bool {
        self.rules().in_bracket(fr, u, v)
    }

    fn allowed(&self, fr: &Frame, cons: &Cons, u: usize, v: usize) -> bool {
        self.rules().allowed(fr, cons, u, v)
    }

    /// Maximum-weight matching on the remaining players, optionally with one forced pair.
    fn solve(&self, fr: &Frame, cons: &Cons, forced: Option<(usize, usize)>) -> Option<Sol> {
        let f: Vec<(usize, usize)> = forced.into_iter().collect();
        self.solve_forced(fr, cons, &f, None)
    }

    /// [`Engine::solve`] for a question that only asks whether the quality of `known` (an
    /// optimal solution with its certificate, of this frame under the same or fewer
    /// constraints) can still be reached: the edges `known` excludes are left out (no
    /// matching of that quality can use them), which makes the matching smaller.
    fn solve_reaching(
        &self,
        fr: &Frame,
        cons: &Cons,
        forced: Option<(usize, usize)>,
        known: &Sol,
    ) -> Option<Sol> {
        let f: Vec<(usize, usize)> = forced.into_iter().collect();
        // An explanation's criteria come from exact matchings of their own
        // ([`Engine::rejected_for`]), not from these questions (ADR pairing-003).
        self.solve_forced(fr, cons, &f, self.fast.then_some(known))
    }

    /// Maximum-weight matching on the remaining players with several forced pairs.
    fn solve_forced(
        &self,
        fr: &Frame,
        cons: &Cons,
        forced: &[(usize, usize)],
        prune: Option<&Sol>,
    ) -> Option<Sol> {
        let n = self.n;
        let mut base = Wide::ZERO;
        let mut excluded = vec![false; n + 1];
        for &(a, b) in forced {
            if !self.allowed(fr, cons, a, b) || excluded[a] || excluded[b] {
                return None;
            }
            base = base.plus(self.w(fr, a, b)?);
            excluded[a] = true;
            excluded[b] = true;
        }
        let verts: Vec<usize> = (0..=n)
            .filter(|&v| self.remaining[v] && !excluded[v] && fr.active[v])
            .collect();
        // When `prune`'s quality pairs every player, a warm search that proves `verts`
        // cannot all be paired answers the question: fewer pairs (C4), so not that quality.
        let pairs_all = !fr.isolated
            && prune.is_some_and(|k| (0..=n).all(|v| !self.remaining[v] || k.mate[v].is_some()));
        // A matching of `prune`'s quality has at least its total with the tie-break bits
        // cleared; when `prune` pairs everybody it is perfect, so a warm search may stop
        // once its duals prove that no perfect matching reaches that total (ADR swiss-011).
        let floor = prune
            .filter(|_| pairs_all)
            .map(|k| fr.quality_floor(&k.total));
        let reduced = if self.fast && !fr.isolated {
            self.solve_reduced(fr, cons, base, &verts, prune, pairs_all, floor)
        } else {
            None
        };
        let sol = match reduced {
            Some(answer) => answer?,
            None => {
                // The whole field starts from the known optimum (warm, pruned); a warm
                // search that cannot pair everybody answers at once (ADR swiss-010). Not in
                // a 2017 isolated bracket: its best matching need not pair everybody, and
                // the pruning and a warm start's certificate hold for perfect matchings
                // only.
                let warm = prune.filter(|_| !fr.isolated);
                match self.solve_verts(
                    fr,
                    cons,
                    base,
                    &verts,
                    warm,
                    pairs_all.then_some(&|_, _| true),
                    floor.and_then(|f| f.checked_minus(base)),
                ) {
                    Answer::Solved(sol) => sol,
                    Answer::No | Answer::Below(_) => return None,
                }
            }
        };
        // A player required inside the bracket must be paired (without the completion
        // field of the 2017 isolated brackets nothing else forces it).
        if (0..n).any(|v| {
            cons.req[v] == Some(true) && self.remaining[v] && !excluded[v] && sol.mate[v].is_none()
        }) {
            return None;
        }
        Some(sol)
    }

    /// Maximum-weight matching on the vertices `verts` (global indices, ascending), `base`
    /// being the weight of the pairs already forced. `None` when a warm search (from
    /// `prune`) proved that `verts` cannot all be paired and `proves_no`, given the barrier
    /// that proves it, accepts that as the answer.
    #[allow(clippy::too_many_arguments)]
    fn solve_verts(
        &self,
        fr: &Frame,
        cons: &Cons,
        base: Wide,
        verts: &[usize],
        prune: Option<&Sol>,
        proves_no: Option<&ProvesNo<'_>>,
        floor: Option<Wide>,
    ) -> Answer {
        // Narrower integers are faster; the doubled duals need one spare bit, a warm start's
        // shifted weights four more (only a question about a known optimum starts warm).
        // The fast path takes the narrowest width that fits (same values, so the same
        // matching).
        let need = fr.bits + 2;
        if self.fast {
            return in_width!(
                if prune.is_some() { need + 4 } else { need },
                solve_verts_in(self, fr, cons, base, verts, prune, true, proves_no, floor),
                solve_verts_in::<8>(self, fr, cons, base, verts, prune, false, proves_no, floor)
            );
        }
        let idx = self.local_index(verts);
        let edges = self.edges_in::<8>(fr, cons, verts, &idx, prune);
        let (m, local_cert) = if need <= 4 * 64 {
            matching_in::<4>(verts.len(), &edges)
        } else {
            max_weight_matching_with_duals(verts.len(), &edges)
        };
        #[cfg(debug_assertions)]
        assert_fields_fit(fr, &edges, &m);
        Answer::Solved(self.solution(base, verts, &edges, m, local_cert))
    }

    /// The local index of each vertex of `verts` (`usize::MAX` for the others).
    fn local_index(&self, verts: &[usize]) -> Vec<usize> {
        let mut idx = vec![usize::MAX; self.n + 1];
        for (i, &v) in verts.iter().enumerate() {
            idx[v] = i;
        }
        idx
    }

    /// A number not handed out before (frames and certificates, for the [`EdgeCache`]).
    fn next_id(&self) -> u64 {
        let id = self.serial.get() + 1;
        self.serial.set(id);
        id
    }

    /// The edges of a question (as [`Engine::edges_in`]) when the known optimum `prune`
    /// was found by the partner search of the cache `before`'s (ADR swiss-029): that
    /// cache's pairs at these players, kept as they are and made the cache of `prune`.
    ///
    /// Its optimum had the same quality, on a graph that held this one's (the same
    /// constraints but `only`, more players), and a perfect matching of this question
    /// with the pairs fixed since is one of that graph of that quality: a pair its
    /// certificate pruned is in no such matching, so it stays out. Pairs `prune`'s own
    /// certificate would prune stay in (covered: they were edges of the question that
    /// found it): pruning them again read every pair's duals for 2 % fewer pairs.
    fn edges_from_cache_before<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        idx: &[usize],
        prune: Option<&Sol>,
        before: EdgeCache,
        same: bool,
    ) -> Listed<'_, M> {
        let EdgeCache {
            mut pairs,
            mut weights,
            mut allowed,
            allowed_for,
            graph,
            spare,
            ..
        } = before;
        // Its constraint flags hold for this question when its constraints are the same
        // but `only` (the same frame), `only` asked of each pair apart; so does the
        // barrier's graph of the pairs they allow (its pairs at players no longer here are
        // not read: the barrier reads only the players present). Under narrower
        // constraints (`same` false, ADR swiss-044) the flags are made again as the pairs
        // are read.
        let flags = same && allowed.len() == pairs.len();
        let general = (!flags).then(|| cons.apart_from_only());
        if !flags {
            allowed.clear();
        }
        let mut edges = spare
            .and_then(|b| b.downcast::<Vec<Edge<M>>>().ok())
            .map(|b| *b)
            .unwrap_or_default();
        edges.clear();
        let mut heaviest: Option<WideN<M>> = None;
        let mut kept = 0;
        for p in 0..pairs.len() {
            let (u, v) = (pairs[p].0 as usize, pairs[p].1 as usize);
            let (iu, iv) = (idx[u], idx[v]);
            if iu == usize::MAX || iv == usize::MAX {
                continue;
            }
            let mut limbs = [0u64; M];
            limbs.copy_from_slice(&weights[p * M..(p + 1) * M]);
            let w = WideN(limbs);
            let flag = match &general {
                None => allowed[p],
                Some(general) => self.allowed(fr, general, u, v),
            };
            let ok = flag && cons.only_allows(u, v);
            debug_assert_eq!(
                ok,
                self.allowed(fr, cons, u, v),
                "the kept flags allow what the constraints allow"
            );
            pairs[kept] = pairs[p];
            weights.copy_within(p * M..(p + 1) * M, kept * M);
            if flags {
                allowed[kept] = flag;
            } else {
                allowed.push(flag);
            }
            kept += 1;
            if ok {
                let w = cons.weigh(fr, u, v, w);
                if heaviest.is_none_or(|h| w > h) {
                    heaviest = Some(w);
                }
                edges.push(Edge::new(iu, iv, w));
            }
        }
        pairs.truncate(kept);
        weights.truncate(kept * M);
        allowed.truncate(kept);
        let mut kept_cache = EdgeCache::new(fr.id, prune, M, idx, pairs, weights);
        kept_cache.allowed = allowed;
        if flags {
            kept_cache.allowed_for = allowed_for;
            kept_cache.graph = graph;
        } else {
            kept_cache.allowed_for = general;
        }
        *self.edge_cache.borrow_mut() = Some(kept_cache);
        Listed {
            edges,
            back_to: None,
            hint_to: Some(&self.edge_cache),
            hinted: None,
            heaviest,
        }
    }

    /// The edges among `verts` (local indices `idx`) allowed under `cons`, their weights in
    /// `M` limbs (the caller guarantees they fit); with `prune`, without the pairs
    /// that no matching of `prune`'s quality can use. The fast path takes large questions'
    /// edges from the [`EdgeCache`] when it covers them, and fills it otherwise.
    fn edges_in<const M: usize>(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        idx: &[usize],
        prune: Option<&Sol>,
    ) -> Listed<'_, M> {
        let large = self.fast && prune.is_some() && verts.len() >= EDGE_CACHE_FROM;
        let key = (fr.id, prune.map(|k| k.cert_id), M);
        if large
            && let Some(c) = &mut *self.edge_cache.borrow_mut()
            && c.holds(key.0, key.1, Some(M), verts)
        {
            let mut edges = c
                .spare
                .take()
                .and_then(|b| b.downcast::<Vec<Edge<M>>>().ok())
                .map(|b| *b)
                .unwrap_or_default();
            edges.clear();
            edges.reserve(c.pairs.len());
            c.allowed_under(self, fr, cons);
            let mut hinted = Vec::new();
            let mut heaviest: Option<WideN<M>> = None;
            // The hint and the pairs are both in ascending order: read side by side.
            let mut hint = c.hint.iter().copied().peekable();
            for (&pair, w) in c
                .pairs
                .iter()
                .zip(c.weights.chunks_exact(M))
                .zip(&c.allowed)
                .filter(|(_, ok)| **ok)
                .map(|(pw, _)| pw)
            {
                let (u, v) = (pair.0 as usize, pair.1 as usize);
                let (iu, iv) = (idx[u], idx[v]);
                if iu == usize::MAX || iv == usize::MAX || !cons.only_allows(u, v) {
                    continue;
                }
                while hint.next_if(|&h| h < pair).is_some() {}
                if hint.next_if_eq(&pair).is_some() {
                    hinted.push(edges.len());
                }
                let mut limbs = [0u64; M];
                limbs.copy_from_slice(w);
                let w = cons.weigh(fr, u, v, WideN(limbs));
                if heaviest.is_none_or(|h| w > h) {
                    heaviest = Some(w);
                }
                edges.push(Edge::new(iu, iv, w));
            }
            return Listed {
                edges,
                back_to: Some(&self.edge_cache),
                hint_to: None,
                hinted: (!hinted.is_empty()).then_some(hinted),
                heaviest,
            };
        }
        let pairs = verts.len() * verts.len().saturating_sub(1) / 2;
        // The cache held another question's edges and this one's will fit: emptied before
        // they are listed (two such lists at once would double the memory), its lists
        // filled again in place: fresh memory of that size is paid in page faults, 9 % of
        // the 9,999-player round 6's profile, whose partner searches fill a new cache after
        // each new optimum (ADR swiss-025).
        let old = (large && pairs <= EDGE_CACHE_MAX)
            .then(|| self.edge_cache.borrow_mut().take())
            .flatten();
        let lineage = prune.map(|k| k.lineage);
        // The cache of the partner search's optimum before this one (same frame, same
        // quality, the same constraints but `only` or narrower ones, these players among
        // its own): its pairs are all this one can need (ADR swiss-029, swiss-044).
        let same = |c: &EdgeCache| {
            c.allowed_for
                .as_ref()
                .is_some_and(|f| f.same_apart_from_only(cons))
        };
        let old = match old {
            Some(c)
                if c.frame == key.0
                    && c.limbs == M
                    && lineage.is_some()
                    && c.lineage == lineage
                    && (same(&c)
                        || c.allowed_for
                            .as_ref()
                            .is_some_and(|f| f.allow_all_of(cons) && !narrowed_off()))
                    && verts.iter().all(|&v| c.covered[v]) =>
            {
                let same = same(&c);
                #[cfg(test)]
                if !same {
                    NARROWED_KEPT.with(|k| k.set(k.get() + 1));
                }
                return self.edges_from_cache_before::<M>(fr, cons, idx, prune, c, same);
            }
            old => old,
        };
        let (mut old_pairs, mut old_weights, old_edges) = match old {
            Some(c) => {
                let edges = c
                    .spare
                    .and_then(|b| b.downcast::<Vec<Edge<M>>>().ok())
                    .map(|b| *b);
                (c.pairs, c.weights, edges)
            }
            None => (Vec::new(), Vec::new(), None),
        };
        old_pairs.clear();
        old_weights.clear();
        let mut fill = large.then(|| EdgeCache::new(key.0, prune, M, idx, old_pairs, old_weights));
        // The cache's pairs ascend (its hint is merged with them side by side) because
        // `verts` does.
        debug_assert!(verts.is_sorted(), "a question's players ascend");
        // Small questions reserve every pair at once (no regrowing); large ones grow, or
        // fill the last list of the cache again.
        let edges = match old_edges {
            Some(mut e) => {
                e.clear();
                e
            }
            None => Vec::with_capacity(if pairs <= 1 << 15 { pairs } else { 0 }),
        };
        let until = self.listing_until.borrow().clone();
        let lister = Lister {
            rules: self.rules(),
            fr,
            cons,
            verts,
            idx,
            prune,
            until: until.as_deref(),
        };
        let mut rows = Rows {
            edges,
            ..Rows::new(fill.is_some(), EDGE_CACHE_MAX)
        };
        if let Some(c) = &mut fill {
            rows.pairs = std::mem::take(&mut c.pairs);
            rows.weights = std::mem::take(&mut c.weights);
        }
        if on_two_threads(pairs) {
            list_rows_on_two_threads(&lister, &mut rows);
        } else {
            lister.list(0..verts.len(), &mut rows);
        }
        #[cfg(test)]
        if crate::two_threads::FORCED.with(|c| c.get()) == Some(true) && lister.until.is_none() {
            tests::two_threads_list_as_one::<M>(&lister);
        }
        let Rows {
            pairs: cached,
            weights,
            edges,
            heaviest,
            filling,
            ..
        } = rows;
        let fill = fill.filter(|_| filling).map(|mut c| {
            c.pairs = cached;
            c.weights = weights;
            c
        });
        // A listing whose flag is set by now keeps nothing: it may have stopped part way, on
        // either thread (its list is not the question's), and a flag once set stays set
        // until the start is handed over, after this (at worst a whole listing is not kept).
        let stopped = until
            .as_deref()
            .is_some_and(|u| u.load(std::sync::atomic::Ordering::Relaxed));
        let fill = fill.filter(|_| !stopped);
        let filled = fill.is_some();
        if filled {
            *self.edge_cache.borrow_mut() = fill;
        }
        // Not given back to the cache: a list built while it filled may be the largest of
        // the bracket's (all its pairs, before the questions after it leave some out).
        Listed {
            edges,
            back_to: None,
            hint_to: filled.then_some(&self.edge_cache),
            hinted: None,
            heaviest,
        }
    }

    /// [`no_perfect_matching`] on the [`EdgeCache`]'s graph (global indices) when it holds
    /// this question's edges (same frame, certificate `k`, and every vertex of `verts`,
    /// whose local indices are `idx`); `None` when it does not.
    #[allow(clippy::type_complexity)]
    fn cached_barrier(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        idx: &[usize],
        k: &Sol,
    ) -> Option<Option<(Vec<(usize, usize)>, usize)>> {
        let mut cache = self.edge_cache.borrow_mut();
        let c = cache.as_mut()?;
        if !c.holds(fr.id, Some(k.cert_id), None, verts) {
            return None;
        }
        let n = self.n;
        // The graph of the pairs allowed under `cons` but its `only`, which is asked of each
        // edge at `who` (the others' constraints stay the same from question to question).
        c.allowed_under(self, fr, cons);
        if c.graph.is_none() {
            // Read twice (degrees, then neighbours) rather than collected: a list of the
            // allowed pairs would hold 16 bytes a pair beside the cache, 195 MB at the
            // 9,999-player round 2's 12 million.
            let allowed = c
                .pairs
                .iter()
                .zip(&c.allowed)
                .filter(|(_, ok)| **ok)
                .map(|(&(u, v), _)| (u as usize, v as usize));
            c.graph = Some(matching::Graph::from_edges(n + 1, allowed));
        }
        let g = c.graph.as_ref()?;
        let present: Vec<bool> = idx.iter().map(|&i| i != usize::MAX).collect();
        let start: Vec<Option<usize>> = (0..=n)
            .map(|v| k.mate[v].filter(|&u| present[v] && present[u]))
            .collect();
        let edge_ok = |u: usize, v: usize| cons.only_allows(u, v);
        Some(
            matching::barrier_in(g, &present, &start, edge_ok).map(|(outer, free)| {
                debug_assert!(
                    matching::is_barrier_in(g, &present, edge_ok, &outer, free),
                    "Tutte's barrier"
                );
                (
                    (0..=n).filter_map(|v| outer[v].map(|b| (v, b))).collect(),
                    free,
                )
            }),
        )
    }

    /// The solution of a matching `m` of `verts` (local indices) with `edges`: its total
    /// (plus `base`), the partners and the certificate in global indices.
    fn solution<const M: usize>(
        &self,
        base: Wide,
        verts: &[usize],
        edges: &[Edge<M>],
        m: Vec<Option<usize>>,
        local_cert: Option<Certificate<8>>,
    ) -> Sol {
        let n = self.n;
        let cert = local_cert.map(|c| self.globalize(verts, c));
        let mut total = base;
        for e in edges {
            if m[e.u()] == Some(e.v()) {
                total = total.plus(e.w.narrow::<8>());
            }
        }
        let mut mate = vec![None; n + 1];
        for (i, &v) in verts.iter().enumerate() {
            mate[v] = m[i].map(|j| verts[j]);
        }
        let id = self.next_id();
        Sol {
            total,
            mate,
            cert,
            cert_id: id,
            lineage: id,
        }
    }

    /// A certificate of a matching of `verts` (local indices) in global indices.
    fn globalize(&self, verts: &[usize], c: Certificate<8>) -> Certificate<8> {
        let n = self.n;
        let mut vertex = vec![Wide::ZERO; n + 1];
        let mut chain_of = vec![(0, 0); n + 1];
        for ((&v, &x), &chain) in verts.iter().zip(&c.vertex).zip(&c.chain_of) {
            vertex[v] = x;
            chain_of[v] = chain;
        }
        Certificate {
            vertex,
            paths: c.paths,
            chain_of,
            shift: c.shift,
        }
    }

    /// The fast path's cold matching of a large problem on a sparse part of its edges,
    /// priced against all of them (ADR swiss-009): the matching is solved on the edges a
    /// Swiss pairing usually takes (each player's neighbours in the ranking, its natural
    /// opponents half a bracket away, its heaviest edges, the bye), then every other edge
    /// is checked against the optimum's duals. Edges the duals do not cover are added and
    /// the part re-solved; when they cover every edge, the matching is optimal for the whole
    /// problem and its certificate is one of the whole problem. `None` (solve everything)
    /// for small problems or when the pricing does not settle in a few rounds.
    fn priced_matching<const M: usize>(
        &self,
        fr: &Frame,
        verts: &[usize],
        edges: &[Edge<M>],
    ) -> Option<(Vec<Option<usize>>, Option<Certificate<8>>)> {
        // Smaller problems keep a narrower part: its later rounds continue from the first
        // ([`max_weight_matching_priced`]), so a few edges missed cost little.
        let nv = verts.len();
        let (window, heaviest, dense) = if nv >= WIDE_PART_FROM {
            (10, 3, 2)
        } else {
            (6, 4, 1)
        };
        if nv < PRICED_SMALL_FROM || edges.len() < dense * nv * (2 * window + heaviest) {
            return None;
        }
        let half = verts.iter().filter(|&&v| v < self.n && fr.in_b[v]).count() / 2;
        let near = |d: usize| d <= window || d.abs_diff(half) <= window;
        let mut keep: Vec<bool> = edges
            .iter()
            .map(|e| {
                verts[e.v()] == self.n || verts[e.u()] == self.n || near(e.u().abs_diff(e.v()))
            })
            .collect();
        // Each vertex's heaviest edges.
        keep_best_per_vertex(nv, edges, heaviest, &mut keep, |e| std::cmp::Reverse(e.w));
        let (m, c) = max_weight_matching_priced(nv, edges, keep, COLD_PRICING_ROUNDS)?;
        Some((m, Some(widen(&c))))
    }

    /// A warm start from the known optimum `k` for the matching of `verts` (local indices
    /// `idx`) whose heaviest edge weighs `maxw`: its matching and vertex duals, shifted so
    /// that they stay unsigned (`None` without a certificate).
    fn warm_start(
        &self,
        k: &Sol,
        verts: &[usize],
        idx: &[usize],
        maxw: Wide,
    ) -> Option<WarmStart<8>> {
        let cert = k.cert.as_ref()?;
        let shift = maxw.plus(maxw).max(cert.shift);
        let dual = verts.iter().map(|&v| cert.spread_dual(v, shift)).collect();
        let mate = verts
            .iter()
            .map(|&v| {
                k.mate[v]
                    .filter(|&u| idx[u] != usize::MAX && k.mate[u] == Some(v))
                    .map(|u| idx[u])
            })
            .collect();
        Some(WarmStart { mate, dual, shift })
    }

    /// The fast path's matching over the bracket, the next scoregroup (C8 look-ahead; most of
    /// it set aside when it dwarfs the bracket, [`Engine::next_aside`]) and a margin of lower
    /// players instead of every player still to pair, proved optimal for
    /// the whole field or abandoned (`None`: solve the whole field).
    ///
    /// Outside the bracket and the next scoregroup an edge weighs exactly the completion
    /// unit c (C4): the criteria of this bracket do not see those pairs. The lower players
    /// left out (`rest`) are paired among themselves (a greedy perfect matching of their
    /// compatibility graph) and given the dual value c; the duals of the reduced problem
    /// extended so are a feasible dual of the whole problem when every kept vertex that
    /// may meet one of `rest` has a dual ≥ c and the bye dummy's dual covers the bye edges
    /// to `rest`. Complementary slackness then holds (all of `rest` is matched by tight
    /// edges), so the combined matching is a maximum-weight matching of the whole field,
    /// with the same total, and the extended duals remain a certificate for it. Vertices
    /// short of c may be made up for by the duals of blossoms around them, extended to
    /// hold `rest` ([`Engine::rest_extension`], ADR swiss-010).
    #[allow(clippy::too_many_arguments)]
    fn solve_reduced(
        &self,
        fr: &Frame,
        cons: &Cons,
        base: Wide,
        verts: &[usize],
        prune: Option<&Sol>,
        pairs_all: bool,
        floor: Option<Wide>,
    ) -> Option<Option<Sol>> {
        let n = self.n;
        let in_b = verts.iter().filter(|&&v| v < n && fr.in_b[v]).count();
        let low: Vec<usize> = verts
            .iter()
            .copied()
            .filter(|&v| v < n && !fr.in_b[v] && !fr.in_n[v])
            .collect();
        // A narrow margin first (enough when the bracket's floaters find partners in the
        // next scoregroup, the common case), then a wide one: as wide as the bracket, and
        // more PAB candidates (ADR swiss-034).
        let narrow = Margin {
            below: NARROW_BELOW,
            byes: NARROW_BYES,
            next: NARROW_NEXT,
        };
        let wide = Margin {
            below: 2 * self.rounds_played + 16 + in_b,
            byes: 2 * self.rounds_played + 8,
            next: 2 * self.rounds_played + 16 + in_b,
        };
        // With `prune`, the lower duals of the smaller matching may fail the check that
        // extends them to the players left out: then without it.
        // Whole runs of brackets fail the extension with warm duals (deep blossoms among
        // the lower players): after failures in a row, skip as many attempts.
        let mut record = self.warm_record.get();
        let try_warm = record.take_turn() && prune.is_some();
        let warm = if try_warm {
            let r = self
                .solve_reduced_with(fr, cons, base, verts, &low, narrow, prune, pairs_all, floor);
            record = record.after(r.is_some());
            r
        } else {
            None
        };
        self.warm_record.set(record);
        warm.or_else(|| {
            self.solve_reduced_with(fr, cons, base, verts, &low, narrow, None, false, None)
        })
        .or_else(|| self.solve_reduced_with(fr, cons, base, verts, &low, wide, None, false, None))
    }

    /// [`Engine::solve_reduced`] keeping the `margin.below` highest players of `low` and its
    /// `margin.byes` lowest PAB-eligible ones, and setting aside the next scoregroup but its
    /// `margin.next` highest players when [`Engine::next_aside`] does: `None` when abandoned,
    /// `Some(None)` when
    /// proved that `prune`'s quality (which pairs every player when `pairs_all`) cannot be
    /// reached.
    #[allow(clippy::too_many_arguments)]
    fn solve_reduced_with(
        &self,
        fr: &Frame,
        cons: &Cons,
        base: Wide,
        verts: &[usize],
        low: &[usize],
        margin: Margin,
        prune: Option<&Sol>,
        pairs_all: bool,
        floor: Option<Wide>,
    ) -> Option<Option<Sol>> {
        let n = self.n;
        let mut paired = vec![usize::MAX; n + 1];
        let mut in_rest = vec![false; n + 1];
        // The next scoregroup but its highest players, paired among themselves (ADR
        // swiss-039).
        let aside = self
            .next_aside(fr, cons, verts, margin.next, &mut paired)
            .map(|mut a| {
                a.alike = prune.is_some_and(|k| rest_alike(k, &a.players));
                a
            });
        let mut rest: Vec<usize> = Vec::new();
        if low.len() >= margin.below + 32 {
            // Kept: the highest lower players (downfloat targets) and the lowest
            // bye-eligible ones (C5 candidates); the rest is paired greedily.
            let mut keep = vec![false; n + 1];
            for &v in &low[..margin.below] {
                keep[v] = true;
            }
            let mut byes = 0;
            for &v in low.iter().rev() {
                if byes >= margin.byes {
                    break;
                }
                if self.ps[v].bye_ok {
                    keep[v] = true;
                    byes += 1;
                }
            }
            rest = low.iter().copied().filter(|&v| !keep[v]).collect();
            if rest.len() % 2 == 1 {
                keep[rest[0]] = true;
                rest.remove(0);
            }
        }
        // Greedy perfect matching of `rest`; a player it leaves out (the lowest players have
        // often all met) is kept.
        let mut rest_total = Wide::ZERO;
        for (u, v) in self.greedy_pairs(fr, cons, &rest) {
            paired[u] = v;
            paired[v] = u;
            in_rest[u] = true;
            in_rest[v] = true;
            rest_total = rest_total.plus(self.w(fr, u, v)?);
        }
        rest.retain(|&v| in_rest[v]);
        if rest.is_empty() && aside.is_none() {
            return None;
        }
        let mut set_aside = in_rest.clone();
        if let Some(a) = &aside {
            for &x in &a.players {
                set_aside[x] = true;
            }
        }
        let aside_total = aside.as_ref().map_or(Wide::ZERO, |a| a.total);
        let kept: Vec<usize> = verts.iter().copied().filter(|&v| !set_aside[v]).collect();
        // A barrier proving that the kept players cannot all be paired proves it for the
        // whole field too when none of its outer vertices may meet a player set aside
        // (`rest` or the next scoregroup's).
        let query = self.rest_query(fr, cons, prune, &rest, &in_rest);
        let meets_rest = |u: usize| {
            query.meets(u)
                || aside
                    .as_ref()
                    .is_some_and(|a| self.meets_aside(fr, cons, prune, a, u))
        };
        // Joining the players set aside (two even groups, taken as one) to k outer blossoms
        // leaves free − k + (k mod 2) more odd components than inner vertices
        // ([`WarmSearch::NoPerfect`]).
        let proves_no = |outer: &[(usize, usize)], free: usize| {
            let stands = |k: usize| free + k % 2 > k;
            let mut touching: Vec<usize> = Vec::new();
            // The lowest players first: the likeliest to meet `rest`.
            for &(u, b) in outer.iter().rev() {
                if !touching.contains(&b) && meets_rest(u) {
                    touching.push(b);
                    if !stands(touching.len()) {
                        return false;
                    }
                }
            }
            true
        };
        let proves_no = pairs_all.then_some(&proves_no as &ProvesNo<'_>);
        let unit = fr.completion_unit();
        // The kept players' floor: `rest`'s pairs weigh `rest_total`, those of the next
        // scoregroup's players set aside `aside_total`.
        let kept_floor = floor
            .and_then(|f| f.checked_minus(base))
            .and_then(|f| f.checked_minus(rest_total))
            .and_then(|f| f.checked_minus(aside_total));
        // The blossoms the next scoregroup's players set aside take, when the duals
        // extended to `rest` through the blossoms `outer` extend to them too (`(0, 0)`
        // when none are set aside).
        let aside_outer = |cert: &Certificate<8>, outer: (u32, u32)| match &aside {
            None => Some((0, 0)),
            Some(a) => self.next_aside_outer(
                fr,
                cons,
                prune,
                cert,
                &kept,
                a,
                (!rest.is_empty()).then_some((outer, unit)),
            ),
        };
        // The solve again without setting the next scoregroup aside, the kept players' duals
        // falling short of its pairs' weight; the frame does not try again
        // ([`Engine::aside_declined`]). Once at most: that margin sets nothing aside.
        let without_aside = || {
            self.aside_declined.set(fr.id);
            let margin = Margin {
                next: usize::MAX,
                ..margin
            };
            self.solve_reduced_with(fr, cons, base, verts, low, margin, prune, pairs_all, floor)
        };
        let extend = |cert: Certificate<8>, outer: (u32, u32), aside_outer: (u32, u32)| {
            let cert = self.extend_to_rest(cert, &rest, unit, outer);
            match &aside {
                Some(a) => self.extend_to_rest(cert, &a.players, a.weight, aside_outer),
                None => cert,
            }
        };
        // Lately the duals stopped below the floor did not extend: the question is asked
        // without it (as it then is again), the same answer at the cost of one question.
        let mut floors = self.floor_record.get().of(fr.id);
        if narrowed_off() {
            floors.record.skip = 0;
        }
        let turn = floors.record.take_turn();
        #[cfg(test)]
        if !turn && kept_floor.is_some() {
            FLOORS_SKIPPED.with(|c| c.set(c.get() + 1));
        }
        let kept_floor = kept_floor.filter(|_| turn);
        self.floor_record.set(floors);
        let sol = match self.solve_verts(fr, cons, base, &kept, prune, proves_no, kept_floor) {
            Answer::Solved(sol) => sol,
            Answer::No => return Some(None),
            Answer::Below(cert) => {
                // Duals of the kept players below their floor. Extended to the players set
                // aside they are feasible for the whole field, with an objective higher by
                // exactly their pairs: no matching of the whole field reaches the floor then.
                let extension = self.rest_extension(&cert, &kept, &query, unit);
                let floors = self.floor_record.get().of(fr.id);
                self.floor_record.set(FloorRecord {
                    record: floors.record.after(extension.is_some()),
                    ..floors
                });
                if let Some(outer) = extension {
                    let Some(_aside_outer) = aside_outer(&cert, outer) else {
                        return without_aside();
                    };
                    #[cfg(debug_assertions)]
                    {
                        let whole = extend(cert, outer, _aside_outer);
                        self.check_aside_extension(
                            fr,
                            cons,
                            &whole,
                            &kept,
                            &rest,
                            aside.as_ref(),
                            &paired,
                            prune,
                        );
                    }
                    return Some(None);
                }
                match self.solve_verts(fr, cons, base, &kept, prune, proves_no, None) {
                    Answer::Solved(sol) => sol,
                    Answer::No => return Some(None),
                    Answer::Below(_) => return None,
                }
            }
        };
        let cert = sol.cert?;
        let outer = match self.rest_extension(&cert, &kept, &query, unit) {
            Some(outer) => outer,
            // Duals short of c that no common outer blossoms make up: copied from a kept
            // pair that weighs c, as `rest`'s pairs do (ADR swiss-020).
            None => self.rest_template(&cert, &sol.mate, &kept, &query, unit)?,
        };
        let Some(a_outer) = aside_outer(&cert, outer) else {
            return without_aside();
        };
        let cert = extend(cert, outer, a_outer);
        let mut mate = sol.mate;
        let next_players = aside.as_ref().map_or(&[][..], |a| &a.players[..]);
        for &x in rest.iter().chain(next_players) {
            mate[x] = Some(paired[x]);
        }
        #[cfg(debug_assertions)]
        self.check_aside_extension(
            fr,
            cons,
            &cert,
            &kept,
            &rest,
            aside.as_ref(),
            &paired,
            prune,
        );
        let id = self.next_id();
        Some(Some(Sol {
            total: sol.total.plus(rest_total).plus(aside_total),
            mate,
            cert: Some(cert),
            cert_id: id,
            lineage: id,
        }))
    }

    /// The certificate `cert` of the kept players extended to `rest` through the blossoms
    /// `outer` ([`Engine::rest_extension`]): `rest` inside the outer blossoms taken, whose
    /// duals count on its pairs, so its vertex duals are lower by as much.
    fn extend_to_rest(
        &self,
        mut cert: Certificate<8>,
        rest: &[usize],
        unit: Wide,
        outer: (u32, u32),
    ) -> Certificate<8> {
        let z = outer_sum(cert.prefix(outer));
        for &x in rest {
            cert.vertex[x] = unit.plus(cert.shift).minus(z);
            cert.chain_of[x] = outer;
        }
        cert
    }

    /// Whether u may meet one of the next scoregroup's players set aside `a` in a matching
    /// of the question that reaches `prune`'s quality ([`Engine::may_meet`]). When they all
    /// have the same dual and blossoms in `prune`'s certificate (`a.alike`), u's edges to
    /// them, of one weight, are pruned alike: its first allowed edge answers.
    fn meets_aside(
        &self,
        fr: &Frame,
        cons: &Cons,
        prune: Option<&Sol>,
        a: &NextAside,
        u: usize,
    ) -> bool {
        let scan = || {
            a.players
                .iter()
                .any(|&x| self.may_meet(fr, cons, prune, u, x))
        };
        if !a.alike {
            return scan();
        }
        let b = self
            .first_to_aside(fr, cons, a, u)
            .is_some_and(|x| self.may_meet(fr, cons, prune, u, x));
        debug_assert_eq!(b, scan(), "u meets the players set aside as a scan finds");
        b
    }

    /// The first of the next scoregroup's players set aside `a` that u has an allowed edge
    /// to (its weight stands for u's edges to all of them, [`Engine::next_aside_covered`]).
    fn first_to_aside(&self, fr: &Frame, cons: &Cons, a: &NextAside, u: usize) -> Option<usize> {
        a.players
            .iter()
            .copied()
            .find(|&x| self.has_edge(fr, u, x) && self.allowed(fr, cons, u, x))
    }

    /// Debug builds: [`Engine::check_rest_extension`] for `rest` and for the next
    /// scoregroup's players set aside `aside`, each on its own (the kept players' edges to
    /// each group checked), and a few pairs between the two groups covered.
    #[cfg(debug_assertions)]
    #[allow(clippy::too_many_arguments)]
    fn check_aside_extension(
        &self,
        fr: &Frame,
        cons: &Cons,
        cert: &Certificate<8>,
        kept: &[usize],
        rest: &[usize],
        aside: Option<&NextAside>,
        paired: &[usize],
        prune: Option<&Sol>,
    ) {
        self.check_rest_extension(fr, cons, cert, kept, rest, paired, prune);
        if let Some(a) = aside {
            self.check_rest_extension(fr, cons, cert, kept, &a.players, paired, prune);
            for &x in a.players.iter().take(16) {
                for &y in rest.iter().take(16) {
                    if let Some(w) = self.w(fr, x, y) {
                        debug_assert!(cert.covers(x, y, w), "edge {x}-{y} across set-aside groups");
                    }
                }
            }
        }
    }

    /// A greedy matching of `players` (in their order, each with the first later one still
    /// free that it may meet under `cons`): the pairs of the players a reduced solve sets
    /// aside. A player nobody is left for stays out of it.
    fn greedy_pairs(&self, fr: &Frame, cons: &Cons, players: &[usize]) -> Vec<(usize, usize)> {
        let mut taken = vec![false; self.n + 1];
        let mut pairs = Vec::new();
        for (i, &u) in players.iter().enumerate() {
            if taken[u] {
                continue;
            }
            if let Some(v) = players[i + 1..]
                .iter()
                .copied()
                .find(|&v| !taken[v] && self.has_edge(fr, u, v) && self.allowed(fr, cons, u, v))
            {
                taken[u] = true;
                taken[v] = true;
                pairs.push((u, v));
            }
        }
        pairs
    }

    /// The players of the next scoregroup a reduced solve of `verts` sets aside (ADR
    /// swiss-039): all but its `keep_top` highest, paired among themselves greedily (the
    /// pairs recorded in `paired`), `None` when it holds fewer than `keep_top` + 32 of
    /// `verts` or fewer than [`ASIDE_NEXT_FROM`] times the whole bracket, when the frame
    /// declined it before ([`Engine::aside_declined`]) or when their pairs do not all weigh
    /// the same. Outside the bracket two players of the next scoregroup weigh the
    /// same whoever they are (C4 and C8's look-ahead unit, `Fields::c8p`), so their
    /// millions of pairs need not be listed: they take half that weight each, as `rest`
    /// takes c, and the duals of the kept players are checked against their edges to
    /// them ([`Engine::next_aside_covered`]). The player `only` restricts, a player the
    /// constraints place (`req`, `tops`) and those the greedy pairing leaves out stay.
    fn next_aside(
        &self,
        fr: &Frame,
        cons: &Cons,
        verts: &[usize],
        keep_top: usize,
        paired: &mut [usize],
    ) -> Option<NextAside> {
        let n = self.n;
        let next: Vec<usize> = verts
            .iter()
            .copied()
            .filter(|&v| v < n && fr.in_n[v])
            .collect();
        // The whole bracket, its players already paired too (counting only those still to
        // pair set aside late in large brackets, changing their questions' players).
        let in_b = fr.in_b.iter().filter(|&&b| b).count();
        if next.len() < keep_top.saturating_add(32)
            || next.len() < ASIDE_NEXT_FROM * in_b
            || self.aside_declined.get() == fr.id
        {
            return None;
        }
        let who = cons.only.as_ref().map(|o| o.0);
        let mut cand: Vec<usize> = next[keep_top..]
            .iter()
            .copied()
            .filter(|&v| Some(v) != who && cons.req[v].is_none() && !cons.tops[v])
            .collect();
        if cand.len() % 2 == 1 {
            cand.remove(0);
        }
        let pairs = self.greedy_pairs(fr, cons, &cand);
        let weight = self.w(fr, pairs.first()?.0, pairs.first()?.1)?;
        let mut total = Wide::ZERO;
        for &(u, v) in &pairs {
            if self.w(fr, u, v) != Some(weight) {
                return None;
            }
            total = total.plus(weight);
        }
        let mut players = Vec::with_capacity(2 * pairs.len());
        for &(u, v) in &pairs {
            paired[u] = v;
            paired[v] = u;
            players.push(u);
            players.push(v);
        }
        players.sort_unstable();
        Some(NextAside {
            players,
            weight,
            total,
            alike: false,
        })
    }

    /// The blossoms the players `a` set aside take in the extended duals
    /// ([`Engine::extend_to_rest`]; `(path, depth)` as [`Engine::rest_extension`] returns
    /// them), `None` when no choice tried covers the kept players' edges to them or keeps
    /// the pairs between `rest` and `a` covered. Tried in turn: the blossoms `rest` takes
    /// (`with_rest`: its blossoms and its pairs' weight c); none (when `rest` is set aside
    /// elsewhere, its pairs to `a` then need c′ − c ≥ Z_rest); as [`Engine::rest_extension`]
    /// chooses for `rest`, the outermost blossoms common to every kept player short of half
    /// the set-aside pairs' weight c′ (the kept players of the next scoregroup, deep in
    /// blossoms, often are), the fewest making up the largest shortfall. The pairs between
    /// `rest` and `a` are covered when c′ − c ≥ Z_a + Z_rest − 2·Z_common (doubled duals:
    /// (c′ + s − Z_a) + (c + s − Z_rest) + 2·Z_common ≥ 2·(c + s)).
    #[allow(clippy::too_many_arguments)]
    fn next_aside_outer(
        &self,
        fr: &Frame,
        cons: &Cons,
        prune: Option<&Sol>,
        cert: &Certificate<8>,
        kept: &[usize],
        a: &NextAside,
        with_rest: Option<((u32, u32), Wide)>,
    ) -> Option<(u32, u32)> {
        let n = self.n;
        // Whether `rest`'s pairs to `a` stay covered with `a` in the blossoms `outer`.
        let across = |outer: (u32, u32)| {
            with_rest.is_none_or(|(r, unit)| {
                let (ca, cr) = (cert.prefix(outer), cert.prefix(r));
                let zc = outer_sum(&ca[..common_outer(ca, cr)]);
                let (za, zr) = (outer_sum(ca), outer_sum(cr));
                a.weight.plus(zc).plus(zc) >= unit.plus(za).plus(zr)
            })
        };
        let mut first: Vec<(u32, u32)> = with_rest.map(|r| r.0).into_iter().collect();
        if !first.contains(&(0, 0)) {
            first.push((0, 0));
        }
        for outer in first {
            if across(outer) && self.next_aside_covered(fr, cons, prune, cert, kept, a, outer) {
                return Some(outer);
            }
        }
        let full = a.weight.plus(cert.shift);
        // Each kept player's shortfall outside every blossom (its first edge to `a`
        // standing for all, as in [`Engine::next_aside_covered`]).
        let short: Vec<(usize, Wide)> = kept
            .iter()
            .filter(|&&u| u < n)
            .filter_map(|&u| {
                let x = self.first_to_aside(fr, cons, a, u)?;
                let w = cons.weigh(fr, u, x, self.w(fr, u, x)?).plus(cert.shift);
                let need = w.plus(w);
                let have = cert.vertex[u].plus(full);
                (need > have).then(|| (u, need.minus(have)))
            })
            .collect();
        let (&(anchor, _), need) = (short.first()?, short.iter().map(|s| s.1).max()?);
        let chain = cert.chain(anchor);
        let depth = short.iter().fold(chain.len(), |d, &(u, _)| {
            d.min(common_outer(chain, cert.chain(u)))
        });
        let j = (1..=depth)
            .find(|&j| chain[j - 1].2 >= need)
            .filter(|&j| chain[j - 1].2 <= full)?;
        let outer = (cert.chain_of[anchor].0, j as u32);
        (across(outer) && self.next_aside_covered(fr, cons, prune, cert, kept, a, outer))
            .then_some(outer)
    }

    /// Whether the duals `cert` of the kept players of a reduced solve, the players set
    /// aside `a` taking the dual `a.weight` − Z inside the blossoms `outer` (Z their sum,
    /// as `rest` takes c − Z: [`Engine::extend_to_rest`]), cover every edge from a kept
    /// player u to them that a matching of the question reaching `prune`'s quality may
    /// use: u's dual, `a.weight` − Z and twice the blossoms u shares with `outer` reach
    /// twice the edge's weight. The pairs of the players of the bracket, of the next
    /// scoregroup and below to the next scoregroup each weigh the same whoever of it they
    /// meet (but the bye dummy's, by score, and those of the player `only` restricts, by
    /// rank): u's first edge to `a` stands for all; the edges one by one only when it is
    /// not covered.
    #[allow(clippy::too_many_arguments)]
    fn next_aside_covered(
        &self,
        fr: &Frame,
        cons: &Cons,
        prune: Option<&Sol>,
        cert: &Certificate<8>,
        kept: &[usize],
        a: &NextAside,
        outer: (u32, u32),
    ) -> bool {
        let n = self.n;
        let chain = cert.prefix(outer);
        let z = outer_sum(chain);
        let full = a.weight.plus(cert.shift);
        let who = cons.only.as_ref().map(|o| o.0);
        kept.iter().all(|&u| {
            let l = common_outer(chain, cert.chain(u));
            let zu = outer_sum(&chain[..l]);
            let have = cert.vertex[u].plus(full).plus(zu).plus(zu);
            let covers = |w: Wide| {
                let w = w.plus(cert.shift);
                have >= w.plus(w).plus(z)
            };
            if u != n && Some(u) != who {
                let Some(x) = self.first_to_aside(fr, cons, a, u) else {
                    return true;
                };
                // Debug builds: u's allowed edges to them weigh the same (a criterion that
                // told the next scoregroup's players apart would break this shortcut).
                #[cfg(debug_assertions)]
                for &y in a.players.iter().take(64) {
                    if self.has_edge(fr, u, y) && self.allowed(fr, cons, u, y) {
                        debug_assert_eq!(self.w(fr, u, y), self.w(fr, u, x), "u's edges to them");
                    }
                }
                if self.w(fr, u, x).is_some_and(covers) {
                    return true;
                }
            }
            a.players.iter().all(|&x| {
                !self.may_meet(fr, cons, prune, u, x)
                    || self
                        .w(fr, u, x)
                        .is_some_and(|w| covers(cons.weigh(fr, u, x, w)))
            })
        })
    }

    /// A template for `rest`'s duals when [`Engine::rest_extension`] finds none (ADR
    /// swiss-020): a matched pair (g, g2) of kept players outside the bracket and the next
    /// scoregroup that weighs exactly c, as each pair of `rest` does, with equal vertex
    /// duals. Tight, each of them has the dual c − Z (shifted), Z the sum of the blossoms
    /// holding both. `rest` takes exactly that: the dual c − Z and those blossoms
    /// ([`Engine::extend_to_rest`] with their chain), so its pairs are tight as (g, g2) is,
    /// its edges among themselves and to g and g2 are tight too, and the blossoms stay full
    /// (they gain whole pairs). The duals are then feasible for the whole field when every
    /// other kept vertex covers its edges to `rest`, counting the blossoms it shares with
    /// that chain.
    ///
    /// Of the candidate pairs only the last (lowest-ranked) is tried: in every round
    /// measured it passed. Returns the chain `rest` takes (path, depth), or `None`.
    fn rest_template(
        &self,
        cert: &Certificate<8>,
        mate: &[Option<usize>],
        kept: &[usize],
        rest: &RestQuery<'_>,
        unit: Wide,
    ) -> Option<(u32, u32)> {
        let n = self.n;
        let fr = rest.fr;
        let full = unit.plus(cert.shift);
        let low = |v: usize| v < n && !fr.in_b[v] && !fr.in_n[v];
        // The blossoms holding both a and b: how many, and the sum of their duals.
        let common = |a: usize, b: usize| {
            let ca = cert.chain(a);
            let d = common_outer(ca, cert.chain(b));
            (d, outer_sum(&ca[..d]))
        };
        let (g, depth) = kept.iter().rev().find_map(|&a| {
            let b = mate[a]?;
            let (d, z) = common(a, b);
            (a < b
                && low(a)
                && low(b)
                && cert.vertex[a] == cert.vertex[b]
                && cert.vertex[a].plus(z) == full
                && self.w(fr, a, b) == Some(unit))
            .then_some((a, d))
        })?;
        // g and g2 pass as `rest`'s own players do (tight).
        self.rest_covered(cert, kept, rest, full, &cert.chain(g)[..depth], false)
            .then_some((cert.chain_of[g].0, depth as u32))
    }

    /// Whether `rest`, inside the blossoms `outer` (the outer end of a chain, Z their sum)
    /// with the dual c − Z ([`Engine::extend_to_rest`]; `full` is c shifted), covers every
    /// edge from a kept vertex u to it: u's dual, c − Z and twice the blossoms u shares
    /// with `outer` reach twice u's heaviest edge to `rest` (a floater's exact heaviest
    /// only when c does not do). With `inside_checked`, the vertices inside all of `outer`
    /// are taken as covered (the caller made sure of them).
    fn rest_covered(
        &self,
        cert: &Certificate<8>,
        kept: &[usize],
        rest: &RestQuery<'_>,
        full: Wide,
        outer: &[Link<8>],
        inside_checked: bool,
    ) -> bool {
        let n = self.n;
        let fr = rest.fr;
        let z = outer_sum(outer);
        kept.iter().all(|&u| {
            let l = common_outer(outer, cert.chain(u));
            if inside_checked && l == outer.len() {
                return true;
            }
            let zu = outer_sum(&outer[..l]);
            let have = cert.vertex[u].plus(full).plus(zu).plus(zu);
            let covered = |exact: bool| match rest.demand(u, full, cert.shift, exact) {
                Some(d) => have >= d.plus(z),
                None => true,
            };
            covered(false) || (u < n && (fr.in_b[u] || fr.in_n[u]) && covered(true))
        })
    }

    /// Whether u and x may be paired in a matching of the question (`cons`) that reaches
    /// `prune`'s quality: an edge, allowed, and not excluded by `prune`'s certificate.
    fn may_meet(&self, fr: &Frame, cons: &Cons, prune: Option<&Sol>, u: usize, x: usize) -> bool {
        self.has_edge(fr, u, x)
            && self.allowed(fr, cons, u, x)
            && !prune.is_some_and(|k| k.excludes(self, fr, u, x))
    }

    /// The heaviest weight of u's edges to `rest` (in frame `fr`) among those `may` takes
    /// (`may(x, w)`: the edge to x, of weight w): the first `may` takes of u's
    /// [`RestHeaviest`] list, heaviest first (every edge after it weighs no more); all of
    /// u's edges weighed again only when `may` takes none of a list that is not all of
    /// them. The same maximum as weighing every edge `may` takes. `rest_id`: the list
    /// [`Engine::rest_query`] made for `fr` and `rest` (without it, every edge is weighed).
    fn heaviest_to_rest(
        &self,
        fr: &Frame,
        rest: &[usize],
        rest_id: u64,
        u: usize,
        may: impl Fn(usize, Wide) -> bool,
    ) -> Option<Wide> {
        let weigh = |x: usize| self.has_edge(fr, u, x).then(|| self.w(fr, u, x)).flatten();
        let every = || {
            rest.iter()
                .filter_map(|&x| weigh(x).filter(|&w| may(x, w)))
                .max()
        };
        // The first of the list `may` takes (`Some(None)`: none, and the list is all of
        // u's edges); `None`: weigh them all.
        let listed = self
            .rest_heaviest
            .borrow_mut()
            .as_mut()
            .filter(|c| c.id == rest_id)
            .and_then(|c| {
                let (top, all) = c.top[u].get_or_insert_with(|| {
                    // Heaviest first (ties: the earlier in `rest`), at most REST_HEAVIEST.
                    let mut top: Vec<(Wide, usize)> = Vec::with_capacity(REST_HEAVIEST + 1);
                    let mut all = true;
                    // No edge from u to `rest` weighs more than this: once the list is full
                    // of such edges and one more is left out, the rest of `rest` cannot
                    // change it (most of a 9,999-player round 6's lists were made weighing
                    // every one of 4,000 players, all at that weight).
                    let most = self.most_to_rest(fr, u);
                    for &x in rest {
                        if !all && most.is_some_and(|m| top.last().is_some_and(|&(w, _)| w >= m)) {
                            break;
                        }
                        let Some(w) = weigh(x) else { continue };
                        debug_assert!(
                            most.is_none_or(|m| w <= m),
                            "an edge to rest weighs no more than its bound"
                        );
                        let at = top.partition_point(|&(y, _)| y >= w);
                        if at < REST_HEAVIEST {
                            top.insert(at, (w, x));
                        }
                        if top.len() > REST_HEAVIEST {
                            top.pop();
                            all = false;
                        } else if at >= REST_HEAVIEST {
                            all = false;
                        }
                    }
                    (top, all)
                });
                match top.iter().find(|&&(w, x)| may(x, w)) {
                    Some(&(w, _)) => Some(Some(w)),
                    None => all.then_some(None),
                }
            });
        let found = listed.unwrap_or_else(every);
        // Debug builds: the same as weighing every edge.
        debug_assert_eq!(found, every(), "u's heaviest edge to rest");
        found
    }

    /// The heaviest an edge from `u` to a player of neither the bracket nor the next
    /// scoregroup (a reduced solve's `rest`) can weigh: such a pair is not in the bracket
    /// and not a floater's pair to the next scoregroup, so it weighs its completion unit
    /// alone (C.04.3 C4: every player paired), nothing when the bracket is isolated (2017
    /// A.9); `None` for the bye dummy, whose pairs weigh C5 and C9 too.
    fn most_to_rest(&self, fr: &Frame, u: usize) -> Option<Wide> {
        (u < self.n).then(|| fr.completion_unit())
    }

    /// The [`RestQuery`] of a reduced solve's question, its memo kept when the frame, the
    /// known optimum, the constraints but `only` and `rest` are those of the question
    /// before (a bracket's successive decisions), emptied otherwise.
    fn rest_query<'a>(
        &'a self,
        fr: &'a Frame,
        cons: &'a Cons,
        prune: Option<&'a Sol>,
        rest: &'a [usize],
        in_rest: &[bool],
    ) -> RestQuery<'a> {
        let rest_id = {
            let mut heaviest = self.rest_heaviest.borrow_mut();
            match &*heaviest {
                Some(h) if h.frame == fr.id && h.rest == rest => h.id,
                _ => {
                    let id = self.next_id();
                    *heaviest = Some(RestHeaviest {
                        frame: fr.id,
                        rest: rest.to_vec(),
                        top: vec![None; self.n + 1],
                        id,
                    });
                    id
                }
            }
        };
        let mut memo = self.rest_meets.borrow_mut();
        let cert = prune.map(|k| k.cert_id);
        // Unchanged with the memo's key (`rest` and the known optimum).
        let same = memo.as_ref().is_some_and(|m| {
            (m.rest_id, m.cert) == (rest_id, cert) && m.cons.same_apart_from_only(cons)
        });
        if !same {
            *memo = Some(RestMeets {
                rest_id,
                cert,
                cons: cons.apart_from_only(),
                meets: vec![None; self.n + 1],
                alike: prune.is_some_and(|k| rest_alike(k, rest)),
                heaviest: vec![None; self.n + 1],
                id: self.next_id(),
            });
        }
        RestQuery {
            eng: self,
            fr,
            cons,
            prune,
            rest,
            rest_id,
            alike: memo.as_ref().is_some_and(|m| m.alike),
            // Not when `only` restricts a player of `rest` (its edges differ by question).
            memo: memo
                .as_ref()
                .filter(|_| !cons.only.as_ref().is_some_and(|(who, _)| in_rest[*who]))
                .map(|m| m.id),
        }
    }

    /// How the optimal duals `cert` of the reduced solve extend to the players of `rest`
    /// (ADR swiss-007 and swiss-010), or `None` when this proof does not apply.
    ///
    /// Each pair of `rest` weighs exactly c and is matched, so its duals must add up to c
    /// (shifted): each takes c. That covers an edge from a kept vertex u to `rest` when
    /// u's own dual is at least c (an edge from a player of the margin weighs c; one from
    /// the bracket or the next scoregroup, floating down, at most c). A vertex short of it
    /// is often deep inside blossoms whose duals the search raised instead. An odd set
    /// holding such a blossom B and all of `rest` is full too (B's pairs, `rest`'s pairs
    /// and only B's base pair leaving), so B's dual may count for it instead: the duals of
    /// the outermost blossoms common to every vertex short of c are extended to `rest`.
    /// `rest`'s vertex duals are then c − Z (Z their sum), its pairs stay tight, and an
    /// edge from u to `rest` gains 2·Z_u − Z (Z_u the part of Z on blossoms holding u):
    /// +Z for the vertices inside them, while those outside must have the room to spare.
    /// Returns the blossoms extended: the first `j` (outermost) of the certificate's path
    /// `p`, as `(p, j)`, their outer sums unchanged; `j` = 0 when c alone covers every edge.
    #[allow(clippy::too_many_arguments)]
    fn rest_extension(
        &self,
        cert: &Certificate<8>,
        kept: &[usize],
        rest: &RestQuery<'_>,
        unit: Wide,
    ) -> Option<(u32, u32)> {
        let n = self.n;
        let fr = rest.fr;
        let full = unit.plus(cert.shift);
        // A player of the bracket or the next scoregroup: its edges to `rest` float down.
        let floater = |u: usize| u < n && (fr.in_b[u] || fr.in_n[u]);
        let demand = |u: usize, exact: bool| rest.demand(u, full, cert.shift, exact);
        // What u's edges to `rest` lack when `rest` takes c.
        let lack = |u: usize, exact: bool| -> Wide {
            let have = cert.vertex[u].plus(full);
            match demand(u, exact) {
                Some(d) if d > have => d.minus(have),
                _ => Wide::ZERO,
            }
        };
        let mut short: Vec<(usize, Wide)> = kept
            .iter()
            .filter(|&&u| u == n || cert.vertex[u] < full)
            .map(|&u| (u, lack(u, false)))
            .filter(|(_, l)| !l.is_zero())
            .collect();
        if short.is_empty() {
            return Some((0, 0));
        }
        // The outermost blossoms common to every vertex short of c, as the outer part of
        // the first one's chain; the fewest whose duals make up the largest lack.
        let choose = |short: &[(usize, Wide)]| -> Option<(usize, usize)> {
            let first = cert.chain(short[0].0);
            let depth = short.iter().fold(first.len(), |d, &(u, _)| {
                d.min(common_outer(first, cert.chain(u)))
            });
            let need = short.iter().map(|s| s.1).max()?;
            (1..=depth)
                .find(|&j| first[j - 1].2 >= need)
                .filter(|&j| first[j - 1].2 <= full)
                .map(|j| (short[0].0, j))
        };
        let (anchor, j) = match choose(&short) {
            Some(c) => c,
            None => {
                // The exact weights of the floaters' edges, then again.
                for s in &mut short {
                    if floater(s.0) {
                        s.1 = lack(s.0, true);
                    }
                }
                short.retain(|s| !s.1.is_zero());
                if short.is_empty() {
                    return Some((0, 0));
                }
                choose(&short)?
            }
        };
        // Every vertex outside some of those blossoms must cover Z − 2·Z_u more (those
        // inside all of them gain Z, which `choose` made enough).
        self.rest_covered(cert, kept, rest, full, &cert.chain(anchor)[..j], true)
            .then_some((cert.chain_of[anchor].0, j as u32))
    }

    /// Debug builds: the extended certificate covers the edges from the kept vertices to
    /// `rest` (up to 16 of each vertex's, by the certificate's own arithmetic) and keeps
    /// every pair of `rest` tight.
    #[cfg(debug_assertions)]
    #[allow(clippy::too_many_arguments)]
    fn check_rest_extension(
        &self,
        fr: &Frame,
        cons: &Cons,
        cert: &Certificate<8>,
        kept: &[usize],
        rest: &[usize],
        paired: &[usize],
        prune: Option<&Sol>,
    ) {
        for (i, &x) in rest.iter().enumerate() {
            let w = self.w(fr, x, paired[x]).unwrap_or(Wide::ZERO);
            debug_assert!(
                cert.covers(x, paired[x], w) && cert.reduced_cost(x, paired[x], w).is_zero(),
                "rest pair not tight"
            );
            // A few of its edges to the other players of `rest` (ADR swiss-020's copies).
            for &y in rest[i + 1..].iter().take(4) {
                if let Some(w) = self.w(fr, x, y) {
                    debug_assert!(cert.covers(x, y, w), "edge {x}-{y} within rest not covered");
                }
            }
        }
        for &u in kept {
            for &x in rest
                .iter()
                .filter(|&&x| self.may_meet(fr, cons, prune, u, x))
                .take(16)
            {
                let w = self.w(fr, u, x).unwrap_or(Wide::ZERO);
                debug_assert!(cert.covers(u, x, w), "edge {u}-{x} to rest not covered");
            }
        }
    }

    fn fix_pair(&mut self, a: usize, b: usize) {
        self.remaining[a] = false;
        self.remaining[b] = false;
        if b == self.n {
            self.bye = Some(a);
        } else if a == self.n {
            self.bye = Some(b);
        } else {
            self.pairs.push((a.min(b), a.max(b)));
        }
    }

    /// Solution after fixing the pair (a, b) taken from `sol` (consumed: its certificate,
    /// one chain of blossoms per vertex, is far too large to copy at every decision).
    fn without(&self, mut sol: Sol, fr: &Frame, a: usize, b: usize) -> Sol {
        let w = self.w(fr, a, b).unwrap_or(Wide::ZERO);
        sol.mate[a] = None;
        sol.mate[b] = None;
        sol.total = sol.total.minus(w);
        sol
    }

    /// Completion check (C4 / 2017 A.9): every remaining player can still be paired under
    /// C1–C3, with the PAB to an eligible player when the number is odd.
    fn completable(&self) -> bool {
        self.unpairable().is_empty()
    }

    /// The players a maximum-cardinality pairing of the remaining players leaves out
    /// (empty when the round can be completed). The bye dummy is reported as TPN 0.
    fn unpairable(&self) -> Vec<Tpn> {
        let n = self.n;
        let verts: Vec<usize> = (0..=n).filter(|&v| self.remaining[v]).collect();
        if self.fast && self.greedy_completion(&verts) {
            return Vec::new();
        }
        let mut edges: Vec<Edge<1>> = Vec::new();
        let mut two = crate::weight::WideN::<1>::ZERO;
        two.add_at(1, 1);
        for (i, &u) in verts.iter().enumerate() {
            for (j, &v) in verts.iter().enumerate().skip(i + 1) {
                let ok = if v == n {
                    self.ps[u].bye_ok
                } else {
                    self.compatible(u, v)
                };
                if ok {
                    edges.push(Edge::new(i, j, two));
                }
            }
        }
        let m = max_weight_matching(verts.len(), &edges);
        verts
            .iter()
            .zip(m.iter())
            .filter(|(_, x)| x.is_none())
            .map(|(&v, _)| if v == n { 0 } else { self.ps[v].tpn })
            .collect()
    }

    /// The weight of the edge (u, v) in frame `fr` (index n = the bye dummy), computed when
    /// needed (no n² matrix: the matchings see only the bracket and its surroundings);
    /// `None` = no edge.
    fn w(&self, fr: &Frame, u: usize, v: usize) -> Option<Wide> {
        self.rules().w(fr, u, v)
    }

    /// `self.w(fr, u, v).is_some()`, without computing the weight.
    fn has_edge(&self, fr: &Frame, u: usize, v: usize) -> bool {
        let n = self.n;
        if u == v || !fr.active[u] || !fr.active[v] {
            return false;
        }
        match (u == n, v == n) {
            (true, _) => self.ps[v].bye_ok,
            (_, true) => self.ps[u].bye_ok,
            _ => self.compatible(u, v),
        }
    }

    /// C1 and C3 allow players `u` and `v` (engine indices) to meet.
    pub(crate) fn compatible(&self, u: usize, v: usize) -> bool {
        self.rules().compatible(u, v)
    }

    /// A quick proof that the players `verts` (ascending, the bye dummy last) can all be
    /// paired: a greedy pairing, lowest players first, that leaves nobody out. `false`
    /// proves nothing (the exact matching decides then).
    fn greedy_completion(&self, verts: &[usize]) -> bool {
        let n = self.n;
        let mut free: Vec<bool> = vec![false; n + 1];
        for &v in verts {
            free[v] = true;
        }
        // The bye first: to the lowest eligible player.
        if free[n] {
            match verts.iter().rev().find(|&&v| v < n && self.ps[v].bye_ok) {
                Some(&v) => {
                    free[v] = false;
                    free[n] = false;
                }
                None => return false,
            }
        }
        for (i, &u) in verts.iter().enumerate().rev() {
            if u >= n || !free[u] {
                continue;
            }
            free[u] = false;
            let partner = verts[..i]
                .iter()
                .rev()
                .copied()
                .find(|&v| free[v] && self.compatible(u, v));
            match partner {
                Some(v) => free[v] = false,
                None => return false,
            }
        }
        true
    }

    /// Reports the bracket about to be paired (see [`Progress`]).
    fn report(&self, bracket: &mut usize, progress: &mut dyn FnMut(&Progress)) {
        *bracket += 1;
        let left: Vec<usize> = (0..self.n).filter(|&i| self.remaining[i]).collect();
        let mut groups = 0;
        let mut last = None;
        for &i in &left {
            if last != Some(self.ps[i].score) {
                groups += 1;
                last = Some(self.ps[i].score);
            }
        }
        progress(&Progress {
            bracket: *bracket,
            score_groups_left: groups,
            players_left: left.len(),
            players: self.n,
        });
    }

    fn run(
        &mut self,
        progress: &mut dyn FnMut(&Progress),
        stop: Option<&crate::StopSignal>,
    ) -> Result<(), NoValidPairing> {
        std::thread::scope(|scope| {
            let mut ahead = next_bracket_ahead::Lookahead::new(scope);
            let paired = match stop {
                None => self.run_in(&mut ahead, progress, &|| false),
                Some(stop) => {
                    // Every long loop of this thread, and of the threads it starts, ends
                    // once `stop` is given (ADR pairing-003): the work unwinds to here.
                    let mut paired = None;
                    let ran = crate::two_threads::until_dropped(stop.flag(), || {
                        paired = Some(self.run_in(&mut ahead, progress, &|| stop.is_stopped()));
                    });
                    match paired {
                        Some(paired) if ran => paired,
                        _ => {
                            let left = (0..self.n).filter(|&i| self.remaining[i]).count();
                            Err(NoValidPairing::Limit(format!(
                                "stopped by the caller ({left} of {} players left to pair)",
                                self.n
                            )))
                        }
                    }
                }
            };
            ahead.end();
            paired
        })
    }

    /// [`Engine::run`] with the next brackets' starts worked out ahead (ADR swiss-041).
    fn run_in(
        &mut self,
        ahead: &mut next_bracket_ahead::Lookahead<'_, '_>,
        progress: &mut dyn FnMut(&Progress),
        stop: &dyn Fn() -> bool,
    ) -> Result<(), NoValidPairing> {
        let mut bracket_no = 0;
        let n = self.n;
        let left_out = self.unpairable();
        if !left_out.is_empty() {
            return Err(NoValidPairing::AbsoluteCriteria { players: left_out });
        }
        let mut mdps: Vec<usize> = Vec::new();
        loop {
            if !(0..n).any(|i| self.remaining[i]) {
                if self.remaining[n] {
                    return Err(NoValidPairing::AbsoluteCriteria { players: vec![] });
                }
                break;
            }
            if stop() {
                let left = (0..n).filter(|&i| self.remaining[i]).count();
                return Err(NoValidPairing::Limit(format!(
                    "stopped by the caller before bracket {} ({left} of {n} players left to pair)",
                    bracket_no + 1
                )));
            }
            self.report(&mut bracket_no, progress);
            if self.edition == Edition::Dutch2017 {
                // 2017 A.9: pair the bracket without C.4; if the rest can no longer be
                // completed, re-pair it as the PPB (with C.4) and collapse everything below
                // into the last bracket (CLB).
                let snap = (
                    self.remaining.clone(),
                    self.pairs.len(),
                    self.bye,
                    self.explanation.len(),
                );
                let (floaters, last) = self.bracket_with_ahead(ahead, &mdps, true)?;
                if last {
                    break;
                }
                if self.completable() {
                    mdps = floaters;
                    continue;
                }
                // Worked out for an isolated bracket: the work ahead goes.
                ahead.drop_work();
                self.remaining = snap.0;
                self.pairs.truncate(snap.1);
                self.bye = snap.2;
                self.explanation.truncate(snap.3);
                let (floaters, last) = self.bracket(&mdps, false, false)?;
                if last {
                    break;
                }
                self.bracket(&floaters, true, false)?;
                break;
            }
            let (floaters, last) = self.bracket_with_ahead(ahead, &mdps, false)?;
            if last {
                break;
            }
            mdps = floaters;
        }
        if self.has_bye && self.bye.is_none() {
            return Err(NoValidPairing::AbsoluteCriteria { players: vec![] });
        }
        Ok(())
    }

    /// Pairs one bracket: the MDPs `mdps` and the next scoregroup (all remaining players
    /// when `collapse`). Returns the downfloaters and whether this was the last bracket.
    /// The first candidate of the transposition order (C.04.3 Art. 4.2: S1[i] with the
    /// i-th player of S2): when it keeps the optimum, all its pairs are fixed at once and
    /// `cur` becomes the solution of the rest. Returns whether it was taken.
    fn take_first_transposition(
        &mut self,
        fr: &Frame,
        cons: &Cons,
        cur: &mut Sol,
        s1: &[usize],
        s2: &[usize],
    ) -> bool {
        if s1.len() <= 1 || s2.len() < s1.len() {
            return false;
        }
        let first: Vec<(usize, usize)> = s1.iter().copied().zip(s2.iter().copied()).collect();
        if first.iter().all(|&(a, b)| cur.mate[a] == Some(b)) {
            // The best candidate found is the first transposition itself.
            for &(a, b) in &first {
                let w = self.w(fr, a, b).unwrap_or(Wide::ZERO);
                cur.total = cur.total.minus(w);
                cur.mate[a] = None;
                cur.mate[b] = None;
                self.fix_pair(a, b);
            }
            return true;
        }
        let Some(s) = self.solve_forced(fr, cons, &first, self.fast.then_some(&*cur)) else {
            return false;
        };
        if !fr.same_quality(&s.total, &cur.total) {
            return false;
        }
        let mut total = s.total;
        for &(a, b) in &first {
            total = total.minus(self.w(fr, a, b).unwrap_or(Wide::ZERO));
            self.fix_pair(a, b);
        }
        *cur = Sol {
            total,
            mate: s.mate,
            cert: s.cert,
            cert_id: s.cert_id,
            lineage: cur.lineage,
        };
        true
    }

    /// Fixes the partner of `who` (an MDP of a heterogeneous bracket, or an S1 player of
    /// the homogeneous remainder): the first of `candidates` (generation order, C.04.3
    /// Art. 4.2–4.3), among those still unpaired and `eligible`, with which the best
    /// quality `cur` is still reachable. Returns the solution of the rest; with
    /// `explain`, records the first rejected candidate and the deciding criterion. The
    /// plain path asks the candidates one at a time; the fast path asks them in groups
    /// ([`Engine::first_partner_grouped`]) and, for the explanation, asks one exact matching
    /// of the first candidate when it is rejected ([`Engine::rejected_for`], ADR
    /// pairing-003): the decision the one-at-a-time search records.
    #[allow(clippy::too_many_arguments)]
    fn first_partner_keeping_optimum(
        &mut self,
        fr: &Frame,
        cons: &Cons,
        cur: Sol,
        who: usize,
        role: PartnerOf,
        candidates: &[usize],
        eligible: impl Fn(usize) -> bool,
        expl: &mut BracketExplanation,
    ) -> Result<Sol, NoValidPairing> {
        let n = self.n;
        let target = cur.mate[who].unwrap_or(usize::MAX);
        if self.fast {
            // The explanation's decision: the first candidate generated, when it is not the
            // partner, and what it loses on (ADR pairing-003). Worked out before the pair is
            // fixed: on the players the one-at-a-time search asked it on.
            let first = candidates
                .iter()
                .copied()
                .take_while(|&c| c != target)
                .find(|&c| self.remaining[c] && eligible(c));
            let best = cur.total;
            let (pick, next) =
                self.first_partner_grouped(fr, cons, cur, who, role, candidates, eligible)?;
            if self.explain
                && let Some(r) = first.filter(|&r| r != pick)
            {
                let criterion = self.rejected_for(fr, cons, Some((who, r)), &best, "C1-C3");
                expl.decisions.push(Decision {
                    subject: role.subject(self.ps[who].tpn),
                    rejected: self.ps[r].tpn.to_string(),
                    chosen: self.ps[pick].tpn.to_string(),
                    criterion,
                });
            }
            self.fix_pair(who, pick);
            return Ok(next);
        }
        let mut pick = target;
        let mut forced_sol = None;
        let mut first_rejected: Option<(usize, String)> = None;
        for &c in candidates {
            if c == target {
                break;
            }
            if !self.remaining[c] || !eligible(c) {
                continue;
            }
            // Reduced cost > 0: no optimal candidate pairs them (skip the re-solve
            // unless the explanation needs the deciding criterion).
            if cur.excludes(self, fr, who, c) && (!self.explain || first_rejected.is_some()) {
                continue;
            }
            match self.solve(fr, cons, Some((who, c))) {
                Some(s) if fr.same_quality(&s.total, &cur.total) => {
                    pick = c;
                    forced_sol = Some(s);
                    break;
                }
                other => {
                    if first_rejected.is_none() {
                        let crit = other
                            .map(|s| {
                                fr.layout
                                    .first_difference(&cur.total, &s.total)
                                    .unwrap_or("?")
                                    .to_string()
                            })
                            .unwrap_or_else(|| "C1-C3".into());
                        first_rejected = Some((c, crit));
                    }
                }
            }
        }
        if pick >= n {
            return Err(NoValidPairing::Limit(format!(
                "internal: {} {} has no partner",
                role.label(),
                self.ps[who].tpn
            )));
        }
        if let (true, Some((r, crit))) = (self.explain, first_rejected) {
            expl.decisions.push(Decision {
                subject: role.subject(self.ps[who].tpn),
                rejected: self.ps[r].tpn.to_string(),
                chosen: self.ps[pick].tpn.to_string(),
                criterion: crit,
            });
        }
        let next = match forced_sol {
            Some(mut s) => {
                let w = self.w(fr, who, pick).unwrap_or(Wide::ZERO);
                s.total = s.total.minus(w);
                s
            }
            None => self.without(cur, fr, who, pick),
        };
        self.fix_pair(who, pick);
        Ok(next)
    }

    /// What a rejected choice loses on, for the explanation (ADR pairing-003): the first
    /// criterion in which the best pairing with `forced` under `cons` differs from the
    /// optimum `best`, or `none` when no pairing complies. Its own exact matching (a
    /// question's pruned one may only prove that the optimum is out of reach): the
    /// criterion the one-at-a-time search names ([`EnginePath::Reference`]).
    fn rejected_for(
        &self,
        fr: &Frame,
        cons: &Cons,
        forced: Option<(usize, usize)>,
        best: &Wide,
        none: &str,
    ) -> String {
        match self.solve(fr, cons, forced) {
            Some(s) => fr
                .layout
                .first_difference(best, &s.total)
                .unwrap_or("?")
                .to_string(),
            None => none.to_string(),
        }
    }

    /// The fast path of [`Engine::first_partner_keeping_optimum`]: the partner and the
    /// solution of the rest, the pair not fixed yet.
    /// instead of one matching per candidate, one matching in which `who` may take any of
    /// the candidates generated before the current partner. If none keeps the best
    /// quality, the current partner is the first that does; otherwise the partner that
    /// matching chose does, and only the candidates before it remain to be tried.
    #[allow(clippy::too_many_arguments)]
    fn first_partner_grouped(
        &mut self,
        fr: &Frame,
        cons: &Cons,
        cur: Sol,
        who: usize,
        role: PartnerOf,
        candidates: &[usize],
        eligible: impl Fn(usize) -> bool,
    ) -> Result<(usize, Sol), NoValidPairing> {
        let n = self.n;
        let target = cur.mate[who].unwrap_or(usize::MAX);
        if target >= n {
            return Err(NoValidPairing::Limit(format!(
                "internal: {} {} has no partner",
                role.label(),
                self.ps[who].tpn
            )));
        }
        let mut open: Vec<usize> = Vec::new();
        for &c in candidates {
            if c == target {
                break;
            }
            if self.remaining[c] && eligible(c) && !cur.excludes(self, fr, who, c) {
                open.push(c);
            }
        }
        // The partner found so far and the solution of the rest after it.
        let mut best: Option<(usize, Sol)> = None;
        // First all of them (usually none keeps the best quality: one matching decides),
        // then, once one is found, halves of the candidates before it. With a partner rank
        // in the weights (ADR swiss-028), the one found is the first that keeps the best
        // quality: no halves.
        let ranked =
            fr.f.rank
                .is_some_and(|f| open.len() as u64 <= fr.layout.fields[f].capacity);
        let mut whole = true;
        while !open.is_empty() {
            // The first half of the candidates left: one of them, or none (then the first
            // that keeps the best quality, if any, is in the second half).
            let half = if whole {
                open.len()
            } else {
                open.len().div_ceil(2)
            };
            whole = false;
            // Each candidate's rank: the earlier in generation order, the higher.
            let mut only = vec![0u32; n + 1];
            for (i, &c) in open[..half].iter().enumerate() {
                only[c] = if ranked { (half - i) as u32 } else { 1 };
            }
            let mut c2 = cons.clone();
            c2.only = Some((who, only));
            match self.solve_reaching(fr, &c2, None, &cur) {
                Some(mut s) if fr.same_quality(&s.total, &cur.total) => {
                    match s.mate[who].filter(|p| open[..half].contains(p)) {
                        Some(p) => {
                            // The solution's total without the rank of `who`'s partner.
                            if let Some(b) = c2.bonus(fr, who, p) {
                                s.total = s.total.minus(b);
                            }
                            // `open` is in generation order: keep what comes before `p`
                            // (nothing once ranked: `p` is the first that keeps the best
                            // quality).
                            let before = open.iter().position(|&c| c == p).unwrap_or(0);
                            open.truncate(if ranked { 0 } else { before });
                            s.lineage = cur.lineage;
                            best = Some((p, self.without(s, fr, who, p)));
                        }
                        None => {
                            // `who` left unpaired at the same quality: no conclusion about
                            // the candidates; try them one by one.
                            for &c in &open[..half] {
                                if let Some(mut s) =
                                    self.solve_reaching(fr, cons, Some((who, c)), &cur)
                                    && fr.same_quality(&s.total, &cur.total)
                                {
                                    let w = self.w(fr, who, c).unwrap_or(Wide::ZERO);
                                    s.total = s.total.minus(w);
                                    s.lineage = cur.lineage;
                                    best = Some((c, s));
                                    break;
                                }
                            }
                            if best.is_some() {
                                break;
                            }
                            open.drain(..half);
                        }
                    }
                }
                _ => {
                    open.drain(..half);
                }
            }
        }
        Ok(match best {
            Some(found) => found,
            None => (target, self.without(cur, fr, who, target)),
        })
    }

    /// A bracket (not collapsed) with the work ahead (ADR swiss-041): its start, worked out
    /// ahead while the bracket before decided when it could be; the next one's worked out
    /// ahead while this one decides.
    fn bracket_with_ahead(
        &mut self,
        ahead: &mut next_bracket_ahead::Lookahead<'_, '_>,
        mdps: &[usize],
        isolated: bool,
    ) -> Result<(Vec<usize>, bool), NoValidPairing> {
        let start = match self.started_ahead(ahead, mdps, isolated) {
            Some(start) => start,
            None => self.bracket_start(mdps, false, isolated)?,
        };
        self.start_ahead(ahead, mdps, &start, isolated);
        self.bracket_decided(mdps, isolated, start, Some(ahead))
    }

    /// A bracket: its start ([`Engine::bracket_start`]), then its decisions.
    fn bracket(
        &mut self,
        mdps: &[usize],
        collapse: bool,
        isolated: bool,
    ) -> Result<(Vec<usize>, bool), NoValidPairing> {
        let start = self.bracket_start(mdps, collapse, isolated)?;
        self.bracket_decided(mdps, isolated, start, None)
    }

    /// The start of a bracket: its frame and its first optimum (the cold solve), which
    /// depend only on the players left to pair and the bracket's MDPs, so that they can be
    /// worked out ahead on another engine ([`next_bracket_ahead`]); and the edge cache of its
    /// first questions, made from the cold solve's list (ADR swiss-048).
    fn bracket_start(
        &self,
        mdps: &[usize],
        collapse: bool,
        isolated: bool,
    ) -> Result<BracketStart, NoValidPairing> {
        // The last bracket's edges serve no question of this one (another frame).
        *self.edge_cache.borrow_mut() = None;
        debug_assert!(
            self.cold_list.borrow().is_none(),
            "a cold matching's list kept outside a bracket's start (ADR swiss-048)"
        );
        self.starting.set(true);
        let start = self.bracket_start_solved(mdps, collapse, isolated);
        self.starting.set(false);
        let Ok(start) = start else {
            // A list kept before the error goes with it.
            *self.cold_list.borrow_mut() = None;
            return start;
        };
        // Its first questions' cache made from its cold matching's list (ADR swiss-048).
        self.first_questions_from_cold(&start);
        Ok(start)
    }

    /// [`Engine::bracket_start`]'s frame and first optimum.
    fn bracket_start_solved(
        &self,
        mdps: &[usize],
        collapse: bool,
        isolated: bool,
    ) -> Result<BracketStart, NoValidPairing> {
        let n = self.n;
        let rem: Vec<usize> = (0..n).filter(|&i| self.remaining[i]).collect();
        let is_mdp = |i: &usize| mdps.contains(i);
        let residents: Vec<usize> = rem.iter().copied().filter(|i| !is_mdp(i)).collect();
        let s0 = match (collapse, residents.first(), residents.last()) {
            (false, Some(&r), _) => self.ps[r].score,
            (true, _, Some(&r)) => self.ps[r].score,
            _ => self.ps[mdps[mdps.len() - 1]].score,
        };
        let mut in_b = vec![false; n + 1];
        let mut mdp = vec![false; n + 1];
        for &m in mdps {
            in_b[m] = true;
            mdp[m] = true;
        }
        let res_b: Vec<usize> = residents
            .iter()
            .copied()
            .filter(|&r| collapse || self.ps[r].score == s0)
            .collect();
        for &r in &res_b {
            in_b[r] = true;
        }
        let s1 = residents
            .iter()
            .map(|&r| self.ps[r].score)
            .find(|&s| s < s0 && !collapse);
        let mut in_n = vec![false; n + 1];
        if let Some(s1) = s1 {
            for &r in &residents {
                if self.ps[r].score == s1 {
                    in_n[r] = true;
                }
            }
        }
        let cons = Cons::none(n);
        // The players of the bracket its pairing `sol` does not pair inside it.
        let floaters_of = |s: &Self, fr: &Frame, sol: &Sol| -> Vec<usize> {
            (0..n)
                .filter(|&v| {
                    in_b[v]
                        && s.remaining[v]
                        && !matches!(sol.mate[v], Some(p) if s.in_bracket(fr, v, p))
                })
                .collect()
        };
        // C9 (2026) applies only to a bracket that downfloats exactly one player, who gets
        // the PAB: the bracket is solved without it, and again with it when it applies.
        // The last bracket of a round with a PAB is solved with C9 at once (ADR swiss-030):
        // its downfloater, if it has exactly one, gets the PAB, and how many it has is
        // decided above C9 (by C4 and C6), so a solution with C9 that downfloats exactly one
        // player to the PAB is the one the second solve would find.
        let c9_possible = self.edition == Edition::Dutch2026 && self.has_bye;
        // The bracket's frame, with or without C9.
        let frame = |s: &Self, c9: bool| {
            s.build_frame(
                in_b.clone(),
                mdp.clone(),
                in_n.clone(),
                s0,
                None,
                c9,
                isolated,
            )
        };
        let at_once = (c9_possible && !in_n.iter().any(|&x| x))
            .then(|| {
                let fr = frame(self, true).ok()?;
                let cur = self.solve(&fr, &cons, None)?;
                let floaters = floaters_of(self, &fr, &cur);
                (floaters.len() == 1 && cur.mate[floaters[0]] == Some(n)).then_some((fr, cur))
            })
            .flatten();
        let (fr, cur, c9_on) = match at_once {
            Some((fr, cur)) => (fr, cur, true),
            None => {
                let mut fr = frame(self, false)?;
                let mut cur = self
                    .solve(&fr, &cons, None)
                    .ok_or(NoValidPairing::AbsoluteCriteria { players: vec![] })?;
                let mut c9_on = false;
                if c9_possible && !fr.isolated {
                    let floaters = floaters_of(self, &fr, &cur);
                    if floaters.len() == 1 && cur.mate[floaters[0]] == Some(n) {
                        c9_on = true;
                        fr = frame(self, true)?;
                        cur = self
                            .solve(&fr, &cons, None)
                            .ok_or(NoValidPairing::AbsoluteCriteria { players: vec![] })?;
                    }
                }
                (fr, cur, c9_on)
            }
        };
        Ok(BracketStart {
            s0,
            in_b,
            mdp,
            in_n,
            res_b,
            fr,
            cur,
            c9_on,
        })
    }

    /// The decisions of a bracket from its start: which MDPs are paired and with whom,
    /// the exchange, the transpositions; the bracket's downfloaters and whether it was the
    /// last.
    /// With `ahead` (the work ahead of the round), whenever a decision changes which
    /// players the bracket floats, the work ahead starts again for them
    /// ([`Engine::guess_again`]).
    fn bracket_decided(
        &mut self,
        mdps: &[usize],
        isolated: bool,
        start: BracketStart,
        mut ahead: Option<&mut next_bracket_ahead::Lookahead<'_, '_>>,
    ) -> Result<(Vec<usize>, bool), NoValidPairing> {
        let n = self.n;
        let BracketStart {
            s0,
            in_b,
            mdp,
            in_n,
            res_b,
            fr,
            mut cur,
            c9_on,
        } = start;
        // After a decision that may have changed the bracket's solution.
        macro_rules! guess_again {
            ($fr:expr, $sol:expr) => {
                if let Some(la) = ahead.as_deref_mut() {
                    let of = next_bracket_ahead::BracketOf {
                        mdps,
                        res_b: &res_b,
                        in_b: &in_b,
                        isolated,
                    };
                    self.guess_again(la, &of, $fr, $sol);
                }
            };
        }
        let mut cons = Cons::none(n);
        let mut expl = BracketExplanation {
            score: s0,
            players: mdps
                .iter()
                .chain(res_b.iter())
                .map(|&i| self.ps[i].tpn)
                .collect(),
            moved_down: mdps.iter().map(|&i| self.ps[i].tpn).collect(),
            pairs: vec![],
            downfloaters: vec![],
            decisions: vec![],
        };
        let pairs_before = self.pairs.len();

        // Phase A: heterogeneous bracket — which MDPs are paired (S1), then their partners.
        if !mdps.is_empty() {
            let inb = |s: &Self, sol: &Sol, m: usize| match sol.mate[m] {
                Some(p) => s.in_bracket(&fr, m, p),
                None => false,
            };
            let m1 = mdps.iter().filter(|&&m| inb(self, &cur, m)).count();
            let mut chosen = Vec::new();
            for &m in mdps {
                if chosen.len() == m1 {
                    cons.req[m] = Some(false);
                    continue;
                }
                if inb(self, &cur, m) {
                    cons.req[m] = Some(true);
                    chosen.push(m);
                    continue;
                }
                cons.req[m] = Some(true);
                match self.solve_reaching(&fr, &cons, None, &cur) {
                    Some(s) if fr.same_quality(&s.total, &cur.total) => {
                        cur = s;
                        chosen.push(m);
                        guess_again!(&fr, &cur);
                    }
                    _ => {
                        // What pairing it here loses on, asked while it is still required.
                        let crit = self
                            .explain
                            .then(|| self.rejected_for(&fr, &cons, None, &cur.total, "C1-C4"));
                        cons.req[m] = Some(false);
                        if let Some(crit) = crit {
                            expl.decisions.push(Decision {
                                subject: format!("MDP {} in S1", self.ps[m].tpn),
                                rejected: "paired in this bracket".into(),
                                chosen: "left in the Limbo (floats again)".into(),
                                criterion: crit,
                            });
                        }
                    }
                }
            }
            // The first candidate of the transposition order (S1[i] with the i-th
            // resident): when it is optimal, it is the answer.
            let free: Vec<usize> = res_b
                .iter()
                .copied()
                .filter(|&r| self.remaining[r])
                .collect();
            if self.take_first_transposition(&fr, &cons, &mut cur, &chosen, &free) {
                chosen.clear();
            }
            guess_again!(&fr, &cur);
            for &m in &chosen {
                cur = self.first_partner_keeping_optimum(
                    &fr,
                    &cons,
                    cur,
                    m,
                    PartnerOf::MovedDown,
                    &res_b,
                    |_| true,
                    &mut expl,
                )?;
                guess_again!(&fr, &cur);
            }
        }

        // Phase B: the (remainder of the) bracket, homogeneous: exchange then transpositions.
        let rm: Vec<usize> = res_b
            .iter()
            .copied()
            .filter(|&r| self.remaining[r])
            .collect();
        if !rm.is_empty() {
            let pr = rm
                .iter()
                .filter(|&&r| matches!(cur.mate[r], Some(p) if p < n && rm.contains(&p)))
                .count()
                / 2;
            let mut x = Exch {
                in_rm: vec![false; n + 1],
                in_s1: vec![false; n + 1],
                pos: vec![0; n + 1],
                len: rm.len(),
            };
            for (i, &r) in rm.iter().enumerate() {
                x.in_rm[r] = true;
                x.pos[r] = i;
                x.in_s1[r] = i < pr;
            }
            let tops_of = |sol: &Sol| -> Vec<usize> {
                rm.iter()
                    .copied()
                    .filter(
                        |&r| matches!(sol.mate[r], Some(p) if p < n && p > r && rm.contains(&p)),
                    )
                    .collect()
            };
            // When the best candidate already keeps the original S1, no exchange is
            // needed and the exchange fields cannot change anything: reuse the frame.
            let natural = tops_of(&cur) == rm[..pr];
            let fr2_owned;
            let (fr2, mut cons2, mut cur2): (&Frame, Cons, Sol) = if natural {
                (&fr, cons.clone(), cur.clone())
            } else {
                let mut in_b2 = in_b.clone();
                for (v, slot) in in_b2.iter_mut().enumerate().take(n) {
                    if !self.remaining[v] {
                        *slot = false;
                    }
                }
                fr2_owned = self.build_frame(
                    in_b2,
                    mdp.clone(),
                    in_n.clone(),
                    s0,
                    Some(x),
                    c9_on,
                    isolated,
                )?;
                let mut c2 = Cons::none(n);
                if !fr2_owned.last {
                    for &m in mdps {
                        if self.remaining[m] {
                            c2.req[m] = Some(false);
                        }
                    }
                }
                let s2 = self
                    .solve(&fr2_owned, &c2, None)
                    .ok_or(NoValidPairing::AbsoluteCriteria { players: vec![] })?;
                (&fr2_owned, c2, s2)
            };
            guess_again!(fr2, &cur2);
            let tops = tops_of(&cur2);
            for &t in &tops {
                cons2.tops[t] = true;
                cons2.req[t] = Some(true);
            }
            let s1_orig: Vec<usize> = rm[..pr].to_vec();
            if self.explain && tops != s1_orig {
                expl.decisions.push(Decision {
                    subject: "S1 of the (remainder) bracket".into(),
                    rejected: tpns(&self.ps, &s1_orig),
                    chosen: tpns(&self.ps, &tops),
                    criterion: "exchange (C.04.3 Art. 4.3): no transposition of the original S1 reaches the best quality".into(),
                });
            }
            let mut tops = tops;
            let s2: Vec<usize> = rm
                .iter()
                .copied()
                .filter(|&r| self.remaining[r] && !cons2.tops[r])
                .collect();
            if self.take_first_transposition(fr2, &cons2, &mut cur2, &tops, &s2) {
                tops.clear();
            }
            guess_again!(fr2, &cur2);
            for &t in &tops {
                // Art. 4.2: S1 players are paired with lower-ranked S2 players.
                cur2 = self.first_partner_keeping_optimum(
                    fr2,
                    &cons2,
                    cur2,
                    t,
                    PartnerOf::S1,
                    &rm,
                    |c| c > t && !cons2.tops[c],
                    &mut expl,
                )?;
                guess_again!(fr2, &cur2);
            }
            cur = cur2;
        }

        // Last bracket: whatever the optimum still pairs (MDP–MDP pairs, the PAB).
        if fr.last {
            let left: Vec<usize> = (0..=n).filter(|&v| self.remaining[v]).collect();
            for &v in &left {
                if !self.remaining[v] {
                    continue;
                }
                match cur.mate[v] {
                    Some(p) if self.remaining[p] => self.fix_pair(v, p),
                    _ => {
                        return Err(NoValidPairing::AbsoluteCriteria {
                            players: left
                                .iter()
                                .filter(|&&x| x < n)
                                .map(|&x| self.ps[x].tpn)
                                .collect(),
                        });
                    }
                }
            }
        }
        // Downfloaters of this bracket become the MDPs of the next one.
        let floaters: Vec<usize> = mdps
            .iter()
            .chain(res_b.iter())
            .copied()
            .filter(|&v| self.remaining[v])
            .collect();
        if self.explain {
            expl.pairs = self.pairs[pairs_before..]
                .iter()
                .map(|&(a, b)| (self.ps[a].tpn, self.ps[b].tpn))
                .collect();
            for &f in &floaters {
                let why = if cur.mate[f] == Some(n) {
                    if self.edition == Edition::Dutch2026 {
                        "receives the pairing-allocated bye (C5: lowest score able to)".to_string()
                    } else {
                        "left for the pairing-allocated bye of the last bracket".to_string()
                    }
                } else if mdps.contains(&f) {
                    "MDP not paired here (C6/C7 or absolute criteria): floats again".to_string()
                } else {
                    "left unpaired by the best candidate (C6: odd or incompatible bracket)"
                        .to_string()
                };
                expl.downfloaters.push((self.ps[f].tpn, why));
            }
            if let Some(b) = self.bye
                && mdps.iter().chain(res_b.iter()).any(|&v| v == b)
            {
                expl.downfloaters.push((
                    self.ps[b].tpn,
                    "receives the pairing-allocated bye".to_string(),
                ));
            }
            self.explanation.push(expl);
        }
        Ok((floaters, fr.last))
    }
}

/// Whose partner is being chosen (for the explanation and errors).
#[derive(Debug, Clone, Copy)]
enum PartnerOf {
    /// A moved-down player of a heterogeneous bracket (Art. 4.1 S1 of MDPs).
    MovedDown,
    /// An S1 player of the homogeneous (remainder) bracket.
    S1,
}

impl PartnerOf {
    fn label(self) -> &'static str {
        match self {
            PartnerOf::MovedDown => "MDP",
            PartnerOf::S1 => "S1 player",
        }
    }

    fn subject(self, tpn: Tpn) -> String {
        match self {
            PartnerOf::MovedDown => format!("partner of MDP {tpn}"),
            PartnerOf::S1 => format!("partner of {tpn}"),
        }
    }
}

fn tpns(ps: &[Pl], v: &[usize]) -> String {
    v.iter()
        .map(|&i| ps[i].tpn.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tournament of `n` players, each round paired by the fast path with every listing
    /// on `two` threads or on one, results from a fixed sequence (white wins, draw, black
    /// wins in turn by board); the pairings of every round.
    fn rounds_paired(n: u32, rounds: u32, two: bool) -> Vec<RoundPairing> {
        rounds_paired_in(Edition::Dutch2026, n, rounds, two)
    }

    /// [`rounds_paired`] in `edition`.
    fn rounds_paired_in(edition: Edition, n: u32, rounds: u32, two: bool) -> Vec<RoundPairing> {
        rounds_paired_on(edition, n, rounds, two, EnginePath::Fast)
    }

    /// [`rounds_paired_in`] on `path`.
    fn rounds_paired_on(
        edition: Edition,
        n: u32,
        rounds: u32,
        two: bool,
        path: EnginePath,
    ) -> Vec<RoundPairing> {
        crate::two_threads::FORCED.with(|c| c.set(Some(two)));
        let mut st = TournamentState {
            players: (1..=n)
                .map(|tpn| Player {
                    tpn,
                    rating: 2600 - tpn,
                    score: 0,
                    acceleration: 0,
                    colours: vec![],
                    floats: vec![],
                    opponents: vec![],
                    had_pab: false,
                    had_unplayed_win: false,
                    absent: false,
                })
                .collect(),
            rounds_played: 0,
            total_rounds: rounds,
            points_for_win: 2,
            initial_colour: Colour::White,
            forbidden_pairs: vec![],
        };
        let mut out = Vec::new();
        for round in 0..rounds {
            let p = pair_round_unstopped(&st, edition, &Options::default(), path, &mut |_| {})
                .expect("a pairing");
            let at = |st: &TournamentState, t: Tpn| st.players.iter().position(|p| p.tpn == t);
            let before: Vec<Score> = st.players.iter().map(|p| p.score).collect();
            let mut played = vec![false; st.players.len()];
            for (k, b) in p.boards.iter().enumerate() {
                let (Some(w), Some(bl)) = (at(&st, b.white), at(&st, b.black)) else {
                    panic!("a board of unknown players");
                };
                let r = ((k as u32 + round) % 3) as Score;
                st.players[w].score += r;
                st.players[bl].score += 2 - r;
                st.players[w].colours.push(Some(Colour::White));
                st.players[bl].colours.push(Some(Colour::Black));
                st.players[w].opponents.push(b.black);
                st.players[bl].opponents.push(b.white);
                let (fw, fb) = match before[w].cmp(&before[bl]) {
                    std::cmp::Ordering::Greater => (Float::Down, Float::Up),
                    std::cmp::Ordering::Less => (Float::Up, Float::Down),
                    std::cmp::Ordering::Equal => (Float::None, Float::None),
                };
                st.players[w].floats.push(fw);
                st.players[bl].floats.push(fb);
                played[w] = true;
                played[bl] = true;
            }
            for (i, pl) in st.players.iter_mut().enumerate() {
                if !played[i] {
                    pl.colours.push(None);
                    let bye = Some(pl.tpn) == p.bye;
                    pl.score += if bye { 2 } else { 0 };
                    pl.had_pab |= bye;
                    pl.floats.push(if bye { Float::Down } else { Float::None });
                }
            }
            st.rounds_played += 1;
            out.push(p);
        }
        crate::two_threads::FORCED.with(|c| c.set(None));
        out
    }

    /// Every cap of the cache around the pairs `lister` keeps (none, one, a third, all but
    /// one, all, one more): the two-thread listing ([`list_rows_on_two_threads`]) gives the
    /// one-thread one — the cache's pairs and weights in order, whether it still fills, each
    /// edge in order, the heaviest. Run on every listing of the forced tests.
    pub(super) fn two_threads_list_as_one<const M: usize>(lister: &Lister<'_>) {
        let nv = lister.verts.len();
        let one = |cap: usize| {
            let mut rows = Rows::<M>::new(true, cap);
            lister.list(0..nv, &mut rows);
            rows
        };
        let k = one(usize::MAX).pairs.len();
        for cap in [0, 1, k / 3, k.saturating_sub(1), k, k + 1] {
            let a = one(cap);
            let mut b = Rows::<M>::new(true, cap);
            list_rows_on_two_threads(lister, &mut b);
            assert_eq!(
                (a.filling, &a.pairs, &a.weights),
                (b.filling, &b.pairs, &b.weights),
                "cap {cap}"
            );
            let ends = |r: &Rows<M>| {
                r.edges
                    .iter()
                    .map(|e| (e.u(), e.v(), e.w))
                    .collect::<Vec<_>>()
            };
            assert_eq!(ends(&a), ends(&b), "cap {cap}");
            assert_eq!(a.heaviest, b.heaviest, "cap {cap}");
        }
    }

    #[test]
    fn listing_chunks_cover_every_row_once_in_order() {
        for nv in [0usize, 1, 2, 3, 39, 40, 41, 1000] {
            let chunks = listing_chunks(nv);
            assert!(chunks.len() <= LISTING_CHUNKS + 1, "{nv} players");
            assert!(chunks.iter().all(|c| !c.is_empty()));
            let rows: Vec<usize> = chunks.into_iter().flatten().collect();
            assert_eq!(rows, (0..nv).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_listing_on_two_threads_pairs_as_on_one() {
        // Every listing of these rounds (brackets of 24 to 121 players, the cache filled
        // and listed from) on two threads, against one thread.
        let (one, two) = (rounds_paired(121, 5, false), rounds_paired(121, 5, true));
        assert_eq!(one.len(), 5);
        assert_eq!(one, two);
    }

    #[test]
    fn next_brackets_worked_out_ahead_pair_as_without() {
        use cache_from_cold_matching::FROM_COLD_OFF;
        use next_bracket_ahead::{
            DROPPED, DROPPED_AT_ONCE, ENDED, GUESSED_AGAIN, LISTINGS_STOPPED_AT_ONCE, MISLED,
            MISLED_FIRST, TAKEN,
        };
        use std::sync::atomic::Ordering;
        let counts = || {
            (
                TAKEN.with(|c| c.replace(0)),
                DROPPED.with(|c| c.replace(0)),
                GUESSED_AGAIN.with(|c| c.replace(0)),
                ENDED.with(|c| c.replace(0)),
            )
        };
        counts();
        for (edition, n, rounds) in [
            (Edition::Dutch2026, 121, 5),
            (Edition::Dutch2017, 121, 5),
            (Edition::Dutch2017, 60, 7),
        ] {
            // One thread: nothing is worked out ahead.
            let one = rounds_paired_in(edition, n, rounds, false);
            assert_eq!(counts(), (0, 0, 0, 0));
            // Every bracket but a round's first has its start worked out ahead, bracket
            // after bracket: taken when the bracket before floats the players guessed.
            let two = rounds_paired_in(edition, n, rounds, true);
            let (taken, dropped, _, ended) = counts();
            assert!(
                taken > 2 * dropped,
                "{edition:?}: {taken} taken, {dropped} dropped"
            );
            assert_eq!(
                ended, 0,
                "{edition:?}: the work ahead goes on to the last bracket"
            );
            assert_eq!(one, two, "{edition:?}");
            // The starts' caches not made from their cold matchings' lists (ADR swiss-048
            // off): the first questions' pairs listed ahead (ADR swiss-043), the same
            // pairings.
            FROM_COLD_OFF.with(|o| o.set(true));
            let listed = rounds_paired_in(edition, n, rounds, true);
            FROM_COLD_OFF.with(|o| o.set(false));
            counts();
            assert_eq!(one, listed, "{edition:?}");
            // Announced under a wrong guess: dropped every time (at the first decision, and
            // at the bracket's end), worked out again, the same pairings.
            MISLED.with(|m| m.set(true));
            let misled = rounds_paired_in(edition, n, rounds, true);
            MISLED.with(|m| m.set(false));
            let (taken, dropped, again, _) = counts();
            assert_eq!(taken, 0, "{edition:?}");
            assert!(dropped > 0 && again > 0, "{edition:?}");
            assert_eq!(one, misled, "{edition:?}");
            // Only the work started from a bracket's start announced so: a decision finds
            // the guess wrong and starts the work again, which is then taken.
            MISLED_FIRST.with(|m| m.set(true));
            let again_taken = rounds_paired_in(edition, n, rounds, true);
            MISLED_FIRST.with(|m| m.set(false));
            let (taken, _, again, _) = counts();
            assert!(taken > 0 && again > 0, "{edition:?}");
            assert_eq!(one, again_taken, "{edition:?}");
            // Dropped as it starts: the work ahead ends at its first matching's first delta
            // step (ADR swiss-042), each bracket works its own start out, the same pairings.
            let early = crate::two_threads::ENDED_EARLY.load(Ordering::Relaxed);
            DROPPED_AT_ONCE.with(|d| d.set(true));
            let at_once = rounds_paired_in(edition, n, rounds, true);
            DROPPED_AT_ONCE.with(|d| d.set(false));
            let (taken, _, _, ended) = counts();
            assert_eq!(taken, 0, "{edition:?}");
            assert!(ended > 0, "{edition:?}");
            assert!(
                crate::two_threads::ENDED_EARLY.load(Ordering::Relaxed) > early,
                "{edition:?}: the work dropped ended early"
            );
            assert_eq!(one, at_once, "{edition:?}");
            // The first questions' pairs listed ahead stop at their first row (the start
            // asked for at once): nothing is kept, the same pairings (ADR swiss-043).
            let stopped = next_bracket_ahead::LISTINGS_STOPPED.load(Ordering::Relaxed);
            LISTINGS_STOPPED_AT_ONCE.with(|s| s.set(true));
            FROM_COLD_OFF.with(|o| o.set(true));
            let listing_stopped = rounds_paired_in(edition, n, rounds, true);
            FROM_COLD_OFF.with(|o| o.set(false));
            LISTINGS_STOPPED_AT_ONCE.with(|s| s.set(false));
            counts();
            assert!(
                next_bracket_ahead::LISTINGS_STOPPED.load(Ordering::Relaxed) > stopped,
                "{edition:?}: listings ahead stopped"
            );
            assert_eq!(one, listing_stopped, "{edition:?}");
        }
        // Listed ahead and kept with the start while it was not asked for, somewhere in
        // these rounds (how many depends on the two threads' timing; only where the
        // caches are not made from the cold lists).
        assert!(next_bracket_ahead::LISTED_AHEAD.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn constraints_allow_all_of_narrower_ones_only() {
        let cons = |req: &[Option<bool>], tops: &[bool]| Cons {
            req: req.to_vec(),
            tops: tops.to_vec(),
            only: None,
        };
        let (t, f) = (Some(true), Some(false));
        let phase_a = cons(&[None, f, None, None], &[false; 4]);
        // Phase B: S1 members required in the bracket, paired lower (ADR swiss-044).
        let phase_b = cons(&[t, f, None, t], &[true, false, false, true]);
        assert!(phase_a.allow_all_of(&phase_b));
        assert!(phase_a.allow_all_of(&phase_a));
        // Wider: a requirement or an S1 member dropped, a requirement turned round.
        assert!(!phase_b.allow_all_of(&phase_a));
        assert!(!phase_a.allow_all_of(&cons(&[None, None, None, None], &[false; 4])));
        assert!(!phase_a.allow_all_of(&cons(&[None, t, None, None], &[false; 4])));
        let fewer_tops = cons(&[t, f, None, t], &[true, false, false, false]);
        assert!(!phase_b.allow_all_of(&fewer_tops));
        assert!(fewer_tops.allow_all_of(&phase_b));
        // `only` aside; another field size never.
        let mut only = phase_b.clone();
        only.only = Some((0, vec![0, 1, 1, 0]));
        assert!(phase_b.allow_all_of(&only) && only.allow_all_of(&phase_b));
        assert!(!phase_a.allow_all_of(&cons(&[None, f, None], &[false; 3])));
    }

    #[test]
    fn narrowed_caches_kept_and_failed_floors_skipped_pair_as_without() {
        let counts = || {
            (
                NARROWED_KEPT.with(|c| c.replace(0)),
                FLOORS_SKIPPED.with(|c| c.replace(0)),
            )
        };
        counts();
        let mut seen = (0, 0);
        // Small tournaments against the plain path too; larger ones (where reduced solves
        // set players aside and floors fail) against the fast path without these paths,
        // the plain path being slow there in debug builds (the CLI's tests compare it on
        // 1,000 and 2,000 players).
        for (edition, n, rounds, plain) in [
            (Edition::Dutch2026, 121, 5, true),
            (Edition::Dutch2026, 90, 7, true),
            (Edition::Dutch2017, 60, 7, true),
            (Edition::Dutch2026, 150, 7, false),
            (Edition::Dutch2026, 200, 8, false),
        ] {
            let fast = rounds_paired_on(edition, n, rounds, false, EnginePath::Fast);
            let (kept, skipped) = counts();
            seen = (seen.0 + kept, seen.1 + skipped);
            NARROWED_OFF.with(|o| o.set(true));
            let off = rounds_paired_on(edition, n, rounds, false, EnginePath::Fast);
            NARROWED_OFF.with(|o| o.set(false));
            assert_eq!(counts(), (0, 0), "{edition:?} {n}: the paths turned off");
            assert_eq!(fast, off, "{edition:?} {n}");
            if plain {
                let plain = rounds_paired_on(edition, n, rounds, false, EnginePath::Reference);
                assert_eq!(fast, plain, "{edition:?} {n}");
            }
        }
        // Each path taken somewhere in these rounds.
        assert!(seen.0 > 0 && seen.1 > 0, "{seen:?}");
    }

    #[test]
    fn first_questions_cache_made_from_the_cold_list_pairs_as_without() {
        use cache_from_cold_matching::{FROM_COLD, FROM_COLD_OFF};
        FROM_COLD.with(|c| c.set(0));
        // Debug builds check each cache made so against the listing it replaces; the
        // pairings must be those of the listing, on one thread and on two (the engine
        // ahead makes its starts' caches so too).
        for (edition, n, rounds) in [
            (Edition::Dutch2026, 121, 5),
            (Edition::Dutch2026, 90, 7),
            (Edition::Dutch2017, 60, 7),
            (Edition::Dutch2026, 200, 6),
        ] {
            let made = FROM_COLD.with(|c| c.get());
            let fast = rounds_paired_on(edition, n, rounds, false, EnginePath::Fast);
            assert!(
                FROM_COLD.with(|c| c.get()) > made,
                "{edition:?} {n}: made so"
            );
            let two = rounds_paired_on(edition, n, rounds, true, EnginePath::Fast);
            FROM_COLD_OFF.with(|o| o.set(true));
            let made = FROM_COLD.with(|c| c.get());
            let off = rounds_paired_on(edition, n, rounds, false, EnginePath::Fast);
            FROM_COLD_OFF.with(|o| o.set(false));
            assert_eq!(FROM_COLD.with(|c| c.get()), made, "{edition:?} {n}: off");
            assert_eq!(fast, off, "{edition:?} {n}");
            assert_eq!(fast, two, "{edition:?} {n}: two threads");
        }
    }

    #[test]
    fn rows_of_two_threads_come_in_order_and_stop_filling_past_the_cap() {
        let rows = |pairs: Vec<(u32, u32)>, heaviest: u64, filling: bool| Rows::<1> {
            weights: pairs.iter().map(|&(u, _)| u64::from(u)).collect(),
            edges: pairs
                .iter()
                .map(|&(u, v)| Edge::new(u as usize, v as usize, WideN([u64::from(u)])))
                .collect(),
            pairs,
            heaviest: Some(WideN([heaviest])),
            filling,
            cap: EDGE_CACHE_MAX,
        };
        let mut first = rows(vec![(0, 1), (0, 2)], 5, true);
        first.append(rows(vec![(1, 2)], 9, true));
        assert_eq!(first.pairs, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(first.weights, vec![0, 0, 1]);
        assert_eq!(
            first
                .edges
                .iter()
                .map(|e| (e.u(), e.v()))
                .collect::<Vec<_>>(),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(first.heaviest, Some(WideN([9])));
        assert!(first.filling);
        // A later chunk that stopped filling (it passed the cap alone) stops the whole.
        first.append(rows(vec![(2, 3)], 1, false));
        assert!(!first.filling && first.pairs.is_empty() && first.weights.is_empty());
        assert_eq!(first.edges.len(), 4);
        assert_eq!(first.heaviest, Some(WideN([9])));
    }
}
