//! The next brackets' starts worked out ahead, on the machine's second core (ADR swiss-041).
//!
//! A bracket starts with its frame and a first optimum (a cold solve: a second or more for
//! a bracket of thousands of players), then decides, question by question, which MDPs it
//! pairs and with whom, the exchange and the transpositions. Its decisions keep the quality
//! of that first optimum, and nearly always its downfloaters too. So once a bracket has its
//! first optimum, a second engine guesses that the bracket leaves those players to pair and
//! floats those MDPs down, and works the next bracket's start out for them while this
//! engine decides; then the start of the bracket after it, from its own start, and so on,
//! one start ahead of what is taken. When a bracket is decided with exactly the players left
//! and the MDPs guessed, the next bracket takes the start worked out for them (it is the
//! start this engine would have worked out: the same players, the same frame, a first
//! optimum of it with its certificate); otherwise the work ahead is dropped and the start
//! worked out here. Either way the pairing is the same.
//!
//! The engine ahead has the same players and C1 incompatibilities (shared, read-only), its
//! own caches, and numbers (frames, certificates) apart from this engine's: what it leaves
//! in its caches is taken over with its start.

use super::*;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{Scope, ScopedJoinHandle};

/// Numbers handed out by an engine ahead start this far beyond those of the engine that
/// takes its work (frames and certificates are told apart by their numbers).
const AHEAD_NUMBERS: u64 = 1 << 40;

#[cfg(test)]
thread_local! {
    /// Starts taken from the work ahead, and work ahead dropped (this thread's, for tests).
    pub(super) static TAKEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    pub(super) static DROPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The work ahead is announced under a wrong guess (one MDP more), so that it is dropped.
    pub(super) static MISLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The players left to pair and the MDPs of a bracket to come, as guessed.
#[derive(Clone)]
struct Guess {
    remaining: Vec<bool>,
    mdps: Vec<usize>,
}

/// What an engine ahead leaves in its caches after a start, with the last number it
/// handed out.
struct Caches {
    serial: u64,
    warm_record: WarmRecord,
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

/// The brackets' starts being worked out ahead: what the engine ahead tells, and its thread.
pub(super) struct Ahead<'scope> {
    news: Receiver<News>,
    worker: ScopedJoinHandle<'scope, ()>,
}

impl Engine {
    /// An engine for this round with `remaining` left to pair: the same players and
    /// incompatibilities, empty caches, numbers apart from this engine's.
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
            warm_record: self.warm_record.clone(),
            serial: std::cell::Cell::new(self.serial.get() + AHEAD_NUMBERS),
            edge_cache: Default::default(),
            rest_meets: Default::default(),
            rest_heaviest: Default::default(),
            aside_declined: self.aside_declined.clone(),
        }
    }

    /// The guess of the next bracket after the bracket of `mdps` (and residents) that
    /// has `start`: the players its first optimum leaves to pair and the MDPs it floats
    /// down, in the order the bracket lists them ([`Engine::bracket_decided`]). None after
    /// the last bracket, with explanations, on the plain path, below
    /// [`crate::two_threads::AHEAD_FROM`] players left, or on one core.
    fn guess_after(&self, mdps: &[usize], start: &BracketStart) -> Option<Guess> {
        if !self.fast || self.explain || start.fr.last {
            return None;
        }
        let (fr, cur) = (&start.fr, &start.cur);
        let remaining: Vec<bool> = (0..=self.n)
            .map(|v| {
                self.remaining[v]
                    && !(start.in_b[v]
                        && matches!(cur.mate[v], Some(p) if self.in_bracket(fr, v, p)))
            })
            .collect();
        let left = remaining.iter().filter(|&&r| r).count();
        if !crate::two_threads::ahead_on_two_threads(left) {
            return None;
        }
        let mdps = mdps
            .iter()
            .chain(start.res_b.iter())
            .copied()
            .filter(|&v| remaining[v])
            .collect();
        Some(Guess { remaining, mdps })
    }

    /// The caches this engine (ahead) leaves after a start, taken out; its next numbers
    /// are moved on past those the engine taking them hands out.
    fn caches_taken(&self) -> Caches {
        let serial = self.serial.get();
        self.serial.set(serial + AHEAD_NUMBERS);
        Caches {
            serial,
            warm_record: self.warm_record.get(),
            aside_declined: self.aside_declined.get(),
            edge_cache: self.edge_cache.take(),
            rest_meets: self.rest_meets.take(),
            rest_heaviest: self.rest_heaviest.take(),
        }
    }

    /// Works the starts out, bracket after bracket, from `guess`, telling `news`; ends
    /// after the last bracket, below [`crate::two_threads::AHEAD_FROM`] players left, or
    /// when nobody listens any more. `misled` (tests only): each guess is told with one
    /// MDP more, so that its work is dropped.
    fn work_ahead(
        mut self,
        mut guess: Guess,
        isolated: bool,
        misled: bool,
        news: SyncSender<News>,
    ) {
        loop {
            let mut told = guess.clone();
            if misled {
                told.mdps.push(self.n);
            }
            if news.send(News::Guess(told)).is_err() {
                return;
            }
            let start = self.bracket_start(&guess.mdps, false, isolated);
            let next = start
                .as_ref()
                .ok()
                .and_then(|s| self.guess_after(&guess.mdps, s));
            let caches = self.caches_taken();
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

    /// Once a bracket (of `mdps` and residents, `isolated` or not) has its `start`, the
    /// starts of the brackets after it worked out ahead on a scoped thread
    /// ([`Engine::guess_after`]); None when there is no guess or no thread can be had.
    pub(super) fn start_ahead<'scope>(
        &self,
        scope: &'scope Scope<'scope, '_>,
        mdps: &[usize],
        start: &BracketStart,
        isolated: bool,
    ) -> Option<Ahead<'scope>> {
        let guess = self.guess_after(mdps, start)?;
        let eng = self.engine_ahead(guess.remaining.clone());
        // One piece of news waits: the engine ahead tells its guess, works its start out,
        // and waits for the guess to be taken before it tells the start and goes on to the
        // next. So it works on the start after the one being decided, never further: two
        // brackets further (room for three) took round 2 of 9,999 players to 1.23 GB (a
        // bracket's caches being decided, one waiting, one being worked out) for 0.35 s.
        let (tell, news) = sync_channel(1);
        #[cfg(test)]
        let misled = MISLED.with(|m| m.get());
        #[cfg(not(test))]
        let misled = false;
        let worker = std::thread::Builder::new()
            .spawn_scoped(scope, move || eng.work_ahead(guess, isolated, misled, tell))
            .ok()?;
        Some(Ahead { news, worker })
    }

    /// The start of the bracket of `mdps` worked out `ahead`, when it was worked out for
    /// the players left now and these MDPs (it is then the start this engine would work
    /// out), with what the engine ahead left in its caches; else None, and the work ahead is
    /// dropped (its thread ends at its next news, or with the scope). A panic ahead is
    /// passed on.
    pub(super) fn started_ahead(
        &mut self,
        ahead: &mut Option<Ahead<'_>>,
        mdps: &[usize],
    ) -> Option<BracketStart> {
        // The engine ahead ended (or panicked): a panic is passed on.
        let ended = |ahead: &mut Option<Ahead<'_>>| {
            if let Some(a) = ahead.take()
                && let Err(panic) = a.worker.join()
            {
                std::panic::resume_unwind(panic);
            }
        };
        let guess = match ahead.as_ref()?.news.recv() {
            Ok(News::Guess(g)) => g,
            _ => {
                ended(ahead);
                return None;
            }
        };
        if guess.remaining != self.remaining || guess.mdps != mdps {
            #[cfg(test)]
            DROPPED.with(|c| c.set(c.get() + 1));
            *ahead = None;
            return None;
        }
        let (start, caches) = match ahead.as_ref()?.news.recv() {
            Ok(News::Started(s)) => *s,
            _ => {
                ended(ahead);
                return None;
            }
        };
        #[cfg(test)]
        TAKEN.with(|c| c.set(c.get() + 1));
        // An error is worked out again here (the same error).
        let start = start.ok()?;
        self.serial.set(self.serial.get().max(caches.serial));
        self.warm_record.set(caches.warm_record);
        self.aside_declined.set(caches.aside_declined);
        *self.edge_cache.borrow_mut() = caches.edge_cache;
        *self.rest_meets.borrow_mut() = caches.rest_meets;
        *self.rest_heaviest.borrow_mut() = caches.rest_heaviest;
        Some(start)
    }
}
