//! The transactional-outbox relay: publishes every event exactly in log order, then
//! deletes its outbox row. Runs until shutdown, and on shutdown drains the outbox.
use std::time::Duration;

use arbiter_eventlog::EventStore;
use tokio::sync::watch;

use crate::{Bus, Error};

/// Relay settings.
#[derive(Debug, Clone)]
pub struct RelayOptions {
    /// Events per batch.
    pub batch: i64,
    /// How often to look for other processes' appends.
    pub poll: Duration,
    /// Fault injection for crash tests: abort the process after publishing a batch
    /// and before deleting its outbox rows (env `ARBITER_FAULT_RELAY_ABORT_AFTER_PUBLISH=1`).
    pub abort_after_publish: bool,
}

impl Default for RelayOptions {
    fn default() -> Self {
        RelayOptions {
            batch: 500,
            poll: Duration::from_millis(200),
            abort_after_publish: std::env::var("ARBITER_FAULT_RELAY_ABORT_AFTER_PUBLISH")
                .is_ok_and(|v| v == "1"),
        }
    }
}

/// Publishes the outbox until `shutdown` turns true, then drains what is left and
/// returns the number of events published. Publish failures are retried with backoff
/// (the rows stay in the outbox, so nothing is lost).
pub async fn run_relay(
    store: EventStore,
    bus: Bus,
    options: RelayOptions,
    mut shutdown: watch::Receiver<bool>,
) -> Result<u64, Error> {
    let mut head = store.head_watch();
    let mut published = 0u64;
    let mut backoff = Duration::from_millis(50);
    loop {
        let batch = store.outbox_pending(options.batch).await?;
        if batch.is_empty() {
            if *shutdown.borrow() {
                return Ok(published);
            }
            tokio::select! {
                _ = head.changed() => {}
                _ = shutdown.changed() => {}
                _ = tokio::time::sleep(options.poll) => {}
            }
            continue;
        }
        let mut done = Vec::with_capacity(batch.len());
        let mut failed = None;
        let (lo, hi) = (
            batch.first().map_or(0, |e| e.global_position),
            batch.last().map_or(0, |e| e.global_position),
        );
        let seals = store.seals_between(lo, hi).await?;
        for event in &batch {
            if crate::mirror::is_mirrored(event) {
                // A copy of another service's event: its owner published it already.
                done.push(event.global_position);
                continue;
            }
            let seal = seals
                .iter()
                .find(|(first, last, _)| (*first..=*last).contains(&event.global_position))
                .map(|(_, _, seal)| seal);
            let Some(seal) = seal else {
                // Written before events were signed: nobody may apply it from the bus.
                tracing::warn!(position = event.global_position, stream = %event.stream,
                    "unsealed event (written before signing) not published");
                done.push(event.global_position);
                continue;
            };
            match bus.publish(event, seal).await {
                Ok(dup) => {
                    tracing::debug!(stream = %event.stream, version = event.stream_version,
                        subject = %event.subject(), duplicate = dup, "relay: published");
                    done.push(event.global_position)
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if options.abort_after_publish && !done.is_empty() {
            tracing::error!("fault injection: aborting after publish, before outbox ack");
            std::process::abort();
        }
        store.outbox_ack(&done).await?;
        published += done.len() as u64;
        if let Some(e) = failed {
            if *shutdown.borrow() {
                // Shutting down with the bus unreachable: the rows stay in the outbox
                // and are published on the next start.
                return Err(e);
            }
            tracing::warn!(error = %e, retry_in = ?backoff, "relay publish failed; will retry");
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        } else {
            backoff = Duration::from_millis(50);
        }
    }
}
