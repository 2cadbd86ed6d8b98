//! Passes over millions of pairs on the machine's second core (ADR swiss-040).
//!
//! A large bracket's listings weigh every pair, and its checks read every pair against a
//! matching's duals: each pair on its own, so the work divides without any exchange. Such
//! passes take a second thread, a scoped one that ends with the pass, and their results
//! are put together in order: the engine gives the same pairing on one core or two. The
//! other use of the second core, the next bracket's start worked out while a bracket
//! decides (ADR swiss-041, `dutch/next_bracket_ahead.rs`), is decided here too
//! ([`ahead_on_two_threads`]).

use std::ops::Range;

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
    std::thread::scope(|s| {
        let theirs = std::thread::Builder::new().spawn_scoped(s, || {
            let mut found = Vec::new();
            scan(half..len, &mut found);
            found
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
    std::thread::scope(|s| {
        let theirs = std::thread::Builder::new().spawn_scoped(s, || halves(half..len));
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
}
