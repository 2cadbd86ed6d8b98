//! Where the service's "now" comes from: the system clock (milliseconds since the Unix
//! epoch, the same scale devices stamp telemetry with) or, in tests, a manual clock the
//! test moves forward.
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// The service's clock.
#[derive(Clone)]
pub enum TimeSource {
    /// Wall clock, milliseconds since the Unix epoch.
    System,
    /// A clock that moves only when [`ManualClock::set`] is called.
    Manual(ManualClock),
}

/// A test clock.
#[derive(Clone)]
pub struct ManualClock {
    now: watch::Sender<u64>,
}

impl ManualClock {
    /// A manual clock at `start_ms`.
    pub fn new(start_ms: u64) -> ManualClock {
        ManualClock {
            now: watch::Sender::new(start_ms),
        }
    }
    /// Moves the clock to `ms` (never backwards).
    pub fn set(&self, ms: u64) {
        self.now.send_modify(|n| *n = (*n).max(ms));
    }
    /// The current instant.
    pub fn now(&self) -> u64 {
        *self.now.borrow()
    }
}

impl TimeSource {
    /// Now, in milliseconds.
    pub fn now_ms(&self) -> u64 {
        match self {
            TimeSource::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
            TimeSource::Manual(m) => m.now(),
        }
    }

    /// Returns once `now_ms() >= at`.
    pub async fn sleep_until(&self, at: u64) {
        match self {
            TimeSource::System => loop {
                let now = self.now_ms();
                if now >= at {
                    return;
                }
                // Re-read the wall clock after each sleep (it may have been stepped).
                tokio::time::sleep(Duration::from_millis(at - now)).await;
            },
            TimeSource::Manual(m) => {
                let mut rx = m.now.subscribe();
                let _ = rx.wait_for(|n| *n >= at).await;
            }
        }
    }
}
