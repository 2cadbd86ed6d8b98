//! The next brackets' starts worked out ahead, on the machine's second core (ADR swiss-041).
//!
//! A bracket starts with its frame and a first optimum (a cold solve: a second or more for
//! a bracket of thousands of players), then decides, question by question, which MDPs it
//! pairs and with whom, the exchange and the transpositions. Its decisions keep the quality
//! of that first optimum, and nearly always its downfloaters too. So once a bracket has its
//! first optimum, a second engine guesses that the bracket leaves those players to pair and
//! floats those MDPs down, and works the next bracket's start out for them while this
//! engine decides; then the start of the bracket after it, from its own start, and so on,
//! one start ahead of what is taken. When a decision changes the players the bracket floats,
//! the work is dropped and started again for them. When a bracket is decided with exactly the
//! players left and the MDPs guessed, the next bracket takes the start worked out for them:
//! the start this engine would have worked out (the start reads only the players left, the
//! MDPs and the round's constants; its caches are keyed by the new frame). Otherwise the
//! work is dropped and the start worked out here. Either way the pairing is the same.
//!
//! The engine ahead has the same players and C1 incompatibilities (shared, read-only), its
//! own caches, and numbers (frames, certificates) apart from this engine's: what it leaves
//! in its caches is taken over with its start, and this engine's next numbers come after
//! its (`max`), so that no number is handed out twice. The one record a start changes that
//! is not keyed by a frame, the warm-start record's skips ([`WarmRecord`]), is counted ahead
//! and taken off this engine's own record: it stays the record one engine would keep.

use super::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{Scope, ScopedJoinHandle};

/// Numbers handed out by an engine ahead start this far beyond those of the engine that
/// takes its work (frames and certificates are told apart by their numbers).
const AHEAD_NUMBERS: u64 = 1 << 40;

#[cfg(test)]
thread_local! {
    /// Starts taken from the work ahead, work dropped, work started again because a
    /// decision floated other players, and work that had ended before a bracket asked for
    /// it (this thread's, for tests).
    pub(super) static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    pub(super) static DROPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    pub(super) static GUESSED_AGAIN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    pub(super) static ENDED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The work ahead is announced under a wrong guess (one MDP more), so that it is dropped.
    pub(super) static MISLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Only the work started from a bracket's start is announced so (then the first
    /// decision finds the guess wrong and starts the work again, [`Engine::guess_again`]).
    pub(super) static MISLED_FIRST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The work ahead is dropped as it starts: it ends at its first matching's first check
    /// (ADR swiss-042), and every bracket works its own start out.
    pub(super) static DROPPED_AT_ONCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Every listing of the first questions' pairs ahead stops at its first row, as when
    /// the start is asked for at once (passed on to the engine ahead's thread).
    pub(super) static LISTINGS_STOPPED_AT_ONCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Listings of the first questions' pairs ahead kept with the start, and stopped part way
/// (every thread's, for tests).
#[cfg(test)]
pub(super) static LISTED_AHEAD: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);
#[cfg(test)]
pub(super) static LISTINGS_STOPPED: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// A bracket as its downfloaters are read off a solution ([`Engine::guess_of`]): its MDPs,
/// its residents, its players, whether it is paired isolated (2017).
pub(super) struct BracketOf<'a> {
    pub(super) mdps: &'a [usize],
    pub(super) res_b: &'a [usize],
    pub(super) in_b: &'a [bool],
    pub(super) isolated: bool,
}

/// Whether tests announce the work ahead under a wrong guess: all of it ([`MISLED`]), or,
/// for work started from a bracket's `start`, also [`MISLED_FIRST`]. Never outside tests.
fn misled(start: bool) -> bool {
    #[cfg(test)]
    return MISLED.with(|m| m.get()) || (start && MISLED_FIRST.with(|m| m.get()));
    #[cfg(not(test))]
    {
        let _ = start;
        false
    }
}

/// The players left to pair and the MDPs of a bracket to come, as guessed, and whether it
/// is paired isolated (2017).
#[derive(Clone)]
struct Guess {
    remaining: Vec<bool>,
    mdps: Vec<usize>,
    isolated: bool,
}

/// What an engine ahead leaves after a start: its caches, the last number it handed out,
/// and how many skips of the warm-start record the start used.
struct Caches {
    serial: u64,
    skips_used: u32,
    aside_declined: u64,
    edge_cache: Option<EdgeCache>,
    rest_meets: Option<RestMeets>,
    rest_heaviest: Option<RestHeaviest>,
}

/// What the engine ahead tells, in this order for each bracket: the guess it works on,
/// then the start it worked out (an error is worked out again by the engine that takes it).
enum News {
    Guess(Guess),
    Started(Box<(Result<BracketStart, NoValidPairing>, Caches)>),
}

/// The brackets' starts being worked out ahead: what the engine ahead tells, its thread,
/// the guess it told whose start has not been taken yet, and the flag that ends its work
/// early once it is dropped.
struct Ahead<'scope> {
    news: Receiver<News>,
    worker: ScopedJoinHandle<'scope, ()>,
    told: Option<Guess>,
    dropped: Arc<AtomicBool>,
    /// Set while the engine that takes the starts waits for the one being worked out: the
    /// engine ahead then stops listing its first questions' pairs and hands it over.
    asked: Arc<AtomicBool>,
}

/// The work ahead of a round ([`Engine::run`]): the scope its threads run in, the work
/// going on, and the threads of the work dropped (each ends at its matcher's next delta step,
/// its listing's next row or its next news, ADR swiss-042/043; joined at the
/// end of the round, so that a panic there is passed on with its message).
pub(super) struct Lookahead<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    work: Option<Ahead<'scope>>,
    dropped: Vec<ScopedJoinHandle<'scope, ()>>,
}

impl<'scope, 'env> Lookahead<'scope, 'env> {
    pub(super) fn new(scope: &'scope Scope<'scope, 'env>) -> Self {
        Lookahead {
            scope,
            work: None,
            dropped: Vec::new(),
        }
    }

    /// The work going on dropped: nobody listens to it any more, and it ends at its
    /// matcher's next delta step (ADR swiss-042) instead of at its next news: a dropped cold
    /// solve of 3,000 players went on for two seconds on one of the two cores while this
    /// engine decided and the work started again took the other.
    pub(super) fn drop_work(&mut self) {
        if let Some(a) = self.work.take() {
            a.dropped.store(true, Ordering::Relaxed);
            // A listing of the first questions' pairs stops too (ADR swiss-043).
            a.asked.store(true, Ordering::Relaxed);
            drop(a.news);
            self.dropped.push(a.worker);
        }
    }

    /// The end of the round: the threads of the work ahead joined (a panic passed on).
    pub(super) fn end(mut self) {
        self.drop_work();
        for worker in self.dropped {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

impl Engine {
    /// An engine for this round with `remaining` left to pair: the same players and
    /// incompatibilities, empty caches but the frame whose next scoregroup could not be set
    /// aside, numbers apart from this engine's.
    fn engine_ahead(&self, remaining: Vec<bool>) -> Engine {
        Engine {
            ps: self.ps.clone(),
            n: self.n,
            has_bye: self.has_bye,
            met: self.met.clone(),
            edition: self.edition,
            initial: self.initial,
            remaining,
            pairs: Vec::new(),
            bye: None,
            max_score: self.max_score,
            max_unplayed: self.max_unplayed,
            one_point: self.one_point,
            explain: self.explain,
            explanation: Vec::new(),
            fast: self.fast,
            rounds_played: self.rounds_played,
            warm_record: Default::default(),
            floor_record: Default::default(),
            serial: std::cell::Cell::new(self.serial.get() + AHEAD_NUMBERS),
            edge_cache: Default::default(),
            rest_meets: Default::default(),
            rest_heaviest: Default::default(),
            aside_declined: self.aside_declined.clone(),
            cold_players: Some(Default::default()),
            cold_list: Default::default(),
            starting: Default::default(),
            listing_until: Default::default(),
        }
    }

    /// The edge cache of the questions that will be asked of `start`'s first optimum,
    /// filled ahead: the pairs among the players of the cold matching that found it
    /// (those of the first questions, or more), as the first question's listing would fill
    /// it ([`Engine::edges_in`]: the same frame, certificate and width; the pairs do not
    /// depend on the question's constraints). A question whose players it does not cover,
    /// or of another frame, lists its own as before.
    fn first_questions_listed(&self, start: &BracketStart, asked: &Arc<AtomicBool>) {
        let Some(verts) = self.cold_players.as_ref().and_then(|c| c.take()) else {
            return;
        };
        let (fr, cur) = (&start.fr, &start.cur);
        if cur.cert.is_none() || !verts.iter().all(|&v| self.remaining[v]) {
            return;
        }
        // Made from the cold matching's own list already (ADR swiss-048).
        if self
            .edge_cache
            .borrow()
            .as_ref()
            .is_some_and(|c| c.holds(fr.id, Some(cur.cert_id), None, &verts))
        {
            return;
        }
        let idx = self.local_index(&verts);
        let cons = Cons::none(self.n);
        #[cfg(test)]
        let asked = &if LISTINGS_STOPPED_AT_ONCE.with(|s| s.get()) {
            Arc::new(AtomicBool::new(true))
        } else {
            Arc::clone(asked)
        };
        *self.listing_until.borrow_mut() = Some(Arc::clone(asked));
        // The width of a question about a known optimum ([`Engine::solve_verts`]).
        in_width!(
            fr.bits + 6,
            listed_ahead(self, fr, &cons, &verts, &idx, cur),
            listed_ahead::<8>(self, fr, &cons, &verts, &idx, cur)
        );
        *self.listing_until.borrow_mut() = None;
        #[cfg(test)]
        {
            let kept = self.edge_cache.borrow().is_some();
            let counter = if kept {
                &LISTED_AHEAD
            } else {
                &LISTINGS_STOPPED
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The guess of the next bracket after the bracket of `mdps` (and residents) that
    /// has `start`, `isolated` or not: the players its first optimum leaves to pair and the
    /// MDPs it floats down ([`Engine::guess_of`]).
    fn guess_after(&self, mdps: &[usize], start: &BracketStart, isolated: bool) -> Option<Guess> {
        let of = BracketOf {
            mdps,
            res_b: &start.res_b,
            in_b: &start.in_b,
            isolated,
        };
        self.guess_of(&of, &start.fr, &start.cur)
    }

    /// The guess of the next bracket after the bracket `of` when it pairs as `sol` does in
    /// frame `fr`: the players `sol` leaves to pair and the MDPs it floats down, in the
    /// order the bracket lists them ([`Engine::bracket_decided`]). None after the last
    /// bracket, on the plain path, below
    /// [`crate::two_threads::AHEAD_FROM`] players left, or on one core.
    fn guess_of(&self, of: &BracketOf<'_>, fr: &Frame, sol: &Sol) -> Option<Guess> {
        let BracketOf {
            mdps,
            res_b,
            in_b,
            isolated,
        } = *of;
        if !self.fast || fr.last {
            return None;
        }
        let remaining: Vec<bool> = (0..=self.n)
            .map(|v| {
                self.remaining[v]
                    && !(in_b[v] && matches!(sol.mate[v], Some(p) if self.in_bracket(fr, v, p)))
            })
            .collect();
        let left = remaining[..self.n].iter().filter(|&&r| r).count();
        if !crate::two_threads::ahead_on_two_threads(left) {
            return None;
        }
        let mdps = mdps
            .iter()
            .chain(res_b.iter())
            .copied()
            .filter(|&v| remaining[v])
            .collect();
        Some(Guess {
            remaining,
            mdps,
            isolated,
        })
    }

    /// Works the starts out, bracket after bracket, from `guess`, telling `news`; ends
    /// after the last bracket, below [`crate::two_threads::AHEAD_FROM`] players left, or
    /// when nobody listens any more. `misled` (tests only): each guess is told with one
    /// MDP more, so that its work is dropped.
    fn work_ahead(
        mut self,
        mut guess: Guess,
        misled: bool,
        news: SyncSender<News>,
        asked: Arc<AtomicBool>,
    ) {
        loop {
            let mut told = guess.clone();
            if misled {
                told.mdps.push(self.n);
            }
            if news.send(News::Guess(told)).is_err() {
                return;
            }
            // A cold start only lowers the skips of the warm-start record: counted from
            // the most, taken off the record of the engine that takes the start.
            self.warm_record.set(WarmRecord {
                misses: 0,
                skip: u32::MAX,
            });
            let start = self.bracket_start(&guess.mdps, false, guess.isolated);
            if let Ok(s) = &start {
                self.first_questions_listed(s, &asked);
            }
            let next = start
                .as_ref()
                .ok()
                .and_then(|s| self.guess_after(&guess.mdps, s, guess.isolated));
            let serial = self.serial.get();
            // The next start's numbers come after any this start's taker hands out.
            self.serial.set(serial + AHEAD_NUMBERS);
            let caches = Caches {
                serial,
                skips_used: u32::MAX - self.warm_record.get().skip,
                aside_declined: self.aside_declined.get(),
                edge_cache: self.edge_cache.take(),
                rest_meets: self.rest_meets.take(),
                rest_heaviest: self.rest_heaviest.take(),
            };
            if news.send(News::Started(Box::new((start, caches)))).is_err() {
                return;
            }
            match next {
                Some(g) => {
                    self.remaining = g.remaining.clone();
                    guess = g;
                }
                None => return,
            }
        }
    }

    /// Once a bracket (of `mdps` and residents, `isolated` or not) has its `start`, and
    /// no work ahead goes on, the starts of the brackets after it worked out ahead on a
    /// scoped thread ([`Engine::guess_after`]); none when there is no guess or no thread
    /// can be had.
    pub(super) fn start_ahead(
        &self,
        la: &mut Lookahead<'_, '_>,
        mdps: &[usize],
        start: &BracketStart,
        isolated: bool,
    ) {
        if la.work.is_some() {
            return;
        }
        let Some(guess) = self.guess_after(mdps, start, isolated) else {
            return;
        };
        self.ahead_for(la, guess, misled(true));
    }

    /// The starts of the brackets from the one `guess` guesses on, worked out ahead on a
    /// scoped thread (none when no thread can be had). `misled`: tests only
    /// ([`Engine::work_ahead`]).
    fn ahead_for(&self, la: &mut Lookahead<'_, '_>, guess: Guess, misled: bool) {
        let eng = self.engine_ahead(guess.remaining.clone());
        // One piece of news waits: the engine ahead tells its guess, works its start out,
        // and waits for the guess to be taken before it tells the start and goes on to the
        // next. So it works on the start after the one being decided, never further: two
        // brackets further (room for three) took round 2 of 9,999 players to 1.23 GB (a
        // bracket's caches being decided, one waiting, one being worked out) for 0.35 s.
        let (tell, news) = sync_channel(1);
        // The tests' switch of the passes (ADR swiss-040) holds on the engine ahead's thread.
        #[cfg(test)]
        let forced = crate::two_threads::FORCED.with(|c| c.get());
        let dropped = Arc::new(AtomicBool::new(false));
        #[cfg(test)]
        dropped.store(DROPPED_AT_ONCE.with(|d| d.get()), Ordering::Relaxed);
        let flag = Arc::clone(&dropped);
        let asked = Arc::new(AtomicBool::new(false));
        let asking = Arc::clone(&asked);
        #[cfg(test)]
        let stopped_at_once = LISTINGS_STOPPED_AT_ONCE.with(|s| s.get());
        #[cfg(test)]
        let from_cold_off = super::cache_from_cold_matching::FROM_COLD_OFF.with(|o| o.get());
        // The caller's stop of the round ends the work ahead too (ADR pairing-003).
        let watch = crate::two_threads::DropWatch::here();
        let worker = std::thread::Builder::new().spawn_scoped(la.scope, move || {
            #[cfg(test)]
            crate::two_threads::FORCED.with(|c| c.set(forced));
            #[cfg(test)]
            LISTINGS_STOPPED_AT_ONCE.with(|s| s.set(stopped_at_once));
            #[cfg(test)]
            super::cache_from_cold_matching::FROM_COLD_OFF.with(|o| o.set(from_cold_off));
            watch.on_this_thread(|| {
                crate::two_threads::until_dropped(flag, || {
                    eng.work_ahead(guess, misled, tell, asking)
                })
            });
        });
        if let Ok(worker) = worker {
            la.work = Some(Ahead {
                news,
                worker,
                told: None,
                dropped,
                asked,
            });
        }
    }

    /// While the bracket `of` decides: when its solution `sol` in frame `fr` now floats
    /// other players than the guess the work ahead is on (a decision took another
    /// downfloater at the same quality), that work is dropped and started again for the new
    /// guess.
    pub(super) fn guess_again(
        &self,
        la: &mut Lookahead<'_, '_>,
        of: &BracketOf<'_>,
        fr: &Frame,
        sol: &Sol,
    ) {
        let Some(a) = la.work.as_mut() else {
            return;
        };
        if a.told.is_none() {
            match a.news.try_recv() {
                Ok(News::Guess(g)) => a.told = Some(g),
                // Nothing told yet (or the engine ahead ended): nothing to compare.
                _ => return,
            }
        }
        let Some(told) = &a.told else {
            return;
        };
        let Some(guess) = self.guess_of(of, fr, sol) else {
            return;
        };
        if told.remaining == guess.remaining && told.mdps == guess.mdps {
            return;
        }
        #[cfg(test)]
        GUESSED_AGAIN.with(|c| c.set(c.get() + 1));
        la.drop_work();
        self.ahead_for(la, guess, misled(false));
    }

    /// The start of the bracket of `mdps` (`isolated` or not) worked out ahead, when it was
    /// worked out for the players left now and these MDPs (it is then the start this engine
    /// would work out), with what the engine ahead left in its caches; else None, and the
    /// work ahead is dropped. A panic ahead is passed on when the engine ahead is found to
    /// have ended.
    pub(super) fn started_ahead(
        &mut self,
        la: &mut Lookahead<'_, '_>,
        mdps: &[usize],
        isolated: bool,
    ) -> Option<BracketStart> {
        // The engine ahead ended (or panicked): a panic is passed on.
        let ended = |la: &mut Lookahead<'_, '_>| {
            #[cfg(test)]
            ENDED.with(|c| c.set(c.get() + 1));
            if let Some(a) = la.work.take()
                && let Err(panic) = a.worker.join()
            {
                std::panic::resume_unwind(panic);
            }
        };
        let told = la.work.as_mut()?.told.take();
        let guess = match told {
            Some(g) => g,
            None => match la.work.as_ref()?.news.recv() {
                Ok(News::Guess(g)) => g,
                _ => {
                    ended(la);
                    return None;
                }
            },
        };
        if guess.remaining != self.remaining || guess.mdps != mdps || guess.isolated != isolated {
            #[cfg(test)]
            DROPPED.with(|c| c.set(c.get() + 1));
            la.drop_work();
            return None;
        }
        let a = la.work.as_ref()?;
        a.asked.store(true, Ordering::Relaxed);
        let got = a.news.recv();
        a.asked.store(false, Ordering::Relaxed);
        let (start, caches) = match got {
            Ok(News::Started(s)) => *s,
            _ => {
                ended(la);
                return None;
            }
        };
        #[cfg(test)]
        TAKEN.with(|c| c.set(c.get() + 1));
        // An error is worked out again here (the same error).
        let start = start.ok()?;
        debug_assert!(caches.serial >= start.fr.id);
        self.serial.set(self.serial.get().max(caches.serial));
        let mut record = self.warm_record.get();
        record.skip = record.skip.saturating_sub(caches.skips_used);
        self.warm_record.set(record);
        self.aside_declined.set(caches.aside_declined);
        *self.edge_cache.borrow_mut() = caches.edge_cache;
        *self.rest_meets.borrow_mut() = caches.rest_meets;
        *self.rest_heaviest.borrow_mut() = caches.rest_heaviest;
        Some(start)
    }
}

/// [`Engine::first_questions_listed`] in `M` limbs: the cache filled (the listing ahead builds
/// no list of edges, [`Lister::until`]).
fn listed_ahead<const M: usize>(
    eng: &Engine,
    fr: &Frame,
    cons: &Cons,
    verts: &[usize],
    idx: &[usize],
    cur: &Sol,
) {
    drop(eng.edges_in::<M>(fr, cons, verts, idx, Some(cur)));
}
