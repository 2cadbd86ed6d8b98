//! Passes over millions of pairs on the machine's second core (ADR swiss-040).
//!
//! A large bracket's listings weigh every pair, and its checks read every pair against a
//! matching's duals: each pair on its own, so the work divides without any exchange. Such
//! passes take a second thread, a scoped one that ends with the pass, and their results
//! are put together in order: the engine gives the same pairing on one core or two. The
//! other use of the second core, the next bracket's start worked out while a bracket
//! decides (ADR swiss-041, `dutch/next_bracket_ahead.rs`), is decided here too
//! ([`ahead_on_two_threads`]).

use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// From this many pairs a pass takes two threads, when the machine has two (65,536 pairs
/// take about 4 ms to weigh; a thread costs tens of µs).
pub(crate) const TWO_THREADS_FROM: usize = 1 << 16;

#[cfg(test)]
thread_local! {
    /// Every pass on two threads (`Some(true)`), or on one (`Some(false)`), whatever its
    /// size and the machine; `None`: as [`on_two_threads`] decides.
    pub(crate) static FORCED: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether the machine lets a pass take two threads.
fn machine_has_two() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// Whether a pass over `pairs` pairs takes two threads ([`TWO_THREADS_FROM`]).
pub(crate) fn on_two_threads(pairs: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = FORCED.with(|c| c.get()) {
        return forced;
    }
    pairs >= TWO_THREADS_FROM && machine_has_two()
}

/// From this many players left after a bracket, the next bracket's start is worked out
/// ahead on a second thread (ADR swiss-041; a cold solve of a few hundred players takes
/// milliseconds, a thread tens of µs).
pub(crate) const AHEAD_FROM: usize = 256;

/// Whether the next bracket's start is worked out ahead on a second thread when `left`
/// players are left to pair after a bracket ([`AHEAD_FROM`]).
pub(crate) fn ahead_on_two_threads(left: usize) -> bool {
    #[cfg(test)]
    if let Some(forced) = FORCED.with(|c| c.get()) {
        return forced;
    }
    left >= AHEAD_FROM && machine_has_two()
}

/// What `scan` finds in `0..len` (it pushes what it finds in the range it is given, in
/// order): in two halves, the second on a scoped helper thread, when [`on_two_threads`];
/// either way the one-thread result. When no thread can be had, both halves here; a panic of
/// the helper is passed on.
pub(crate) fn found_in_halves<T: Send>(
    len: usize,
    scan: &(dyn Fn(Range<usize>, &mut Vec<T>) + Sync),
) -> Vec<T> {
    let mut found = Vec::new();
    if !on_two_threads(len) {
        scan(0..len, &mut found);
        return found;
    }
    let half = len / 2;
    let watch = DropWatch::here();
    std::thread::scope(|s| {
        let theirs = std::thread::Builder::new().spawn_scoped(s, || {
            watch.on_this_thread(|| {
                let mut found = Vec::new();
                scan(half..len, &mut found);
                found
            })
        });
        scan(0..half, &mut found);
        match theirs.map(|t| t.join()) {
            Ok(Ok(mut later)) => found.append(&mut later),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => scan(half..len, &mut found),
        }
    });
    found
}

/// `halves(0..len)` split in two, the second half on a scoped helper thread, when
/// [`on_two_threads`] (then `merge` puts the two results together); else `halves(0..len)`.
/// When no thread can be had, on this one alone; a panic of the helper is passed on.
pub(crate) fn in_halves<T: Send>(
    len: usize,
    halves: &(dyn Fn(Range<usize>) -> T + Sync),
    merge: impl FnOnce(T, T) -> T,
) -> T {
    if !on_two_threads(len) {
        return halves(0..len);
    }
    let half = len / 2;
    let watch = DropWatch::here();
    std::thread::scope(|s| {
        let theirs = std::thread::Builder::new()
            .spawn_scoped(s, || watch.on_this_thread(|| halves(half..len)));
        match theirs {
            Ok(t) => {
                let first = halves(0..half);
                match t.join() {
                    Ok(second) => merge(first, second),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            Err(_) => halves(0..len),
        }
    })
}

/// The unwinding payload of work that ended because nobody waits for it any more
/// ([`until_dropped`]; ADR swiss-042).
pub(crate) struct WorkDropped;

thread_local! {
    /// The flags this thread's work is dropped by: the [`until_dropped`] it runs in (an
    /// engine ahead's, the caller's stop of the round, ADR pairing-003) and those of the
    /// thread that started it ([`DropWatch::on_this_thread`]).
    static DROPPED_BY: RefCell<Vec<Arc<AtomicBool>>> = const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
/// Work ended early by [`until_dropped`] (every thread's, for tests).
pub(crate) static ENDED_EARLY: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// Runs `work` on this thread until `dropped` is set (ADR swiss-042): the long loops that
/// watch it ([`DropWatch::check`], the matcher's delta steps) then unwind with
/// [`WorkDropped`], which ends here without a result (`false`; `true` when `work` ran to
/// its end). No panic hook runs for it; any other panic is passed on. For work nobody reads
/// once it is dropped (an engine ahead's start, ADR swiss-041): whatever it held is freed
/// on the way out, and nothing it shares is written. It needs unwinding: built with
/// `panic = "abort"`, a dropped piece of work would abort the process (this workspace
/// unwinds).
pub(crate) fn until_dropped(dropped: Arc<AtomicBool>, work: impl FnOnce()) -> bool {
    let depth = DROPPED_BY.with(|d| {
        let mut d = d.borrow_mut();
        d.push(dropped);
        d.len() - 1
    });
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
    DROPPED_BY.with(|d| d.borrow_mut().truncate(depth));
    match ran {
        Ok(()) => true,
        Err(payload) if payload.is::<WorkDropped>() => {
            #[cfg(test)]
            ENDED_EARLY.fetch_add(1, Ordering::Relaxed);
            false
        }
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// What a long loop watches to end early: the flags of [`until_dropped`] on this thread
/// (none on a thread whose work is never dropped).
#[derive(Clone)]
pub(crate) struct DropWatch(Vec<Arc<AtomicBool>>);

impl DropWatch {
    /// The watch of this thread's work.
    pub(crate) fn here() -> Self {
        DropWatch(DROPPED_BY.with(|d| d.borrow().clone()))
    }

    /// Whether this thread's work was dropped.
    #[inline]
    pub(crate) fn dropped(&self) -> bool {
        self.0.iter().any(|d| d.load(Ordering::Relaxed))
    }

    /// Unwinds with [`WorkDropped`] when this thread's work was dropped.
    #[inline]
    pub(crate) fn check(&self) {
        if self.dropped() {
            std::panic::resume_unwind(Box::new(WorkDropped));
        }
    }

    /// Runs `work` on this (helper) thread watching what the thread that started it
    /// watches: a helper of a pass ends with its engine's work (ADR pairing-003). Its
    /// [`WorkDropped`] passes to the thread that joins it, which unwinds in turn.
    pub(crate) fn on_this_thread<R>(self, work: impl FnOnce() -> R) -> R {
        let before = DROPPED_BY.with(|d| std::mem::replace(&mut *d.borrow_mut(), self.0));
        struct Restore(Option<Vec<Arc<AtomicBool>>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                if let Some(before) = self.0.take() {
                    DROPPED_BY.with(|d| *d.borrow_mut() = before);
                }
            }
        }
        let _restore = Restore(Some(before));
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_find_what_one_pass_finds_in_order() {
        let scan = |r: Range<usize>, out: &mut Vec<usize>| out.extend(r.filter(|i| i % 7 == 3));
        let sum = |r: Range<usize>| vec![r.start, r.end];
        let one: Vec<usize> = (0..100_003).filter(|i| i % 7 == 3).collect();
        for forced in [false, true] {
            FORCED.with(|c| c.set(Some(forced)));
            assert_eq!(found_in_halves(100_003, &scan), one);
            assert_eq!(found_in_halves(0, &scan), Vec::<usize>::new());
            assert_eq!(found_in_halves(1, &scan), Vec::<usize>::new());
            let cut = in_halves(100_003, &sum, |mut a, b| {
                a.extend(b);
                a
            });
            assert_eq!(
                cut,
                if forced {
                    vec![0, 50_001, 50_001, 100_003]
                } else {
                    vec![0, 100_003]
                }
            );
        }
        FORCED.with(|c| c.set(None));
    }

    #[test]
    fn dropped_work_ends_at_its_next_check_and_other_panics_pass() {
        let dropped = Arc::new(AtomicBool::new(false));
        // Not dropped: runs to its end.
        let mut steps = 0;
        assert!(until_dropped(dropped.clone(), || {
            for _ in 0..10 {
                DropWatch::here().check();
                steps += 1;
            }
        }));
        assert_eq!(steps, 10);
        // Dropped after three steps: ends at the fourth check, without a result.
        let mut steps = 0;
        let flag = dropped.clone();
        assert!(!until_dropped(dropped.clone(), || {
            let watch = DropWatch::here();
            for i in 0..10 {
                if i == 3 {
                    flag.store(true, Ordering::Relaxed);
                }
                watch.check();
                steps += 1;
            }
        }));
        assert_eq!(steps, 3);
        // Outside it nothing is watched.
        DropWatch::here().check();
        // Another panic is passed on with its payload.
        let other = std::panic::catch_unwind(|| {
            until_dropped(Arc::new(AtomicBool::new(false)), || {
                std::panic::resume_unwind(Box::new(7u8))
            })
        });
        assert_eq!(
            other.err().and_then(|p| p.downcast::<u8>().ok()),
            Some(Box::new(7))
        );
    }
}
