//! A caller's request that a pairing stop (ADR pairing-003): the pairing service sets it
//! when a request's deadline passes or its client goes away, and the engine ends within a
//! delta step of its matcher, a row of a listing or a block of a cache, on every thread of
//! the round (the passes' helpers, the work ahead), returning
//! [`crate::NoValidPairing::Limit`]. A flag, not a clock: the engine stays pure and
//! deterministic, and a pairing that is not stopped is the pairing it would have been.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag a caller stops a pairing by ([`crate::pair_stoppable`]); clones share it.
#[derive(Debug, Clone, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// A signal not given yet.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Asks the pairing to stop (from any thread; the engine reads it at its next check).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the pairing was asked to stop.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the watch of the engine's threads (`two_threads`).
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}
