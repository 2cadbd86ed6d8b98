//! Where a task that acts on events (not a projection: the results service's clock
//! reports, the rating service's intake) has got to in the log, kept in the log's
//! `checkpoints` table so a restart resumes there instead of re-reading from position 1
//! (ADR registry-003). Saved at most once a second: what follows the saved position is
//! handled again after a restart, which every such task does idempotently (its command
//! ids are the triggering events' ids).
use std::time::{Duration, Instant};

use arbiter_eventlog::EventStore;

/// How often a cursor writes its position.
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// A consumer's position.
pub struct Cursor {
    store: EventStore,
    name: String,
    saved: i64,
    handled: i64,
    saved_at: Instant,
}

impl Cursor {
    /// The cursor `name` of `store` and the first position to read (1 when new).
    pub async fn open(store: &EventStore, name: &str) -> (Cursor, i64) {
        let saved = match store.checkpoint(name).await {
            Ok(p) => p,
            Err(err) => {
                tracing::warn!(%err, cursor = name, "cursor not read; reading from position 1");
                0
            }
        };
        tracing::info!(cursor = name, from = saved + 1, "resuming");
        (
            Cursor {
                store: store.clone(),
                name: name.to_owned(),
                saved,
                handled: saved,
                saved_at: Instant::now(),
            },
            saved + 1,
        )
    }

    /// Every event up to `position` is handled; saved when a second has passed since
    /// the last save.
    pub async fn handled(&mut self, position: i64) {
        self.handled = self.handled.max(position);
        if self.handled > self.saved && self.saved_at.elapsed() >= SAVE_EVERY {
            match self.store.save_checkpoint(&self.name, self.handled).await {
                Ok(()) => self.saved = self.handled,
                Err(err) => tracing::warn!(%err, cursor = %self.name, "cursor not saved"),
            }
            self.saved_at = Instant::now();
        }
    }
}
