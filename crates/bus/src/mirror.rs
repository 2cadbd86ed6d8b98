//! Mirrors: in the distributed mode every service has its own log, and a service that
//! folds another service's events (the tournament record: registry, pairing, results,
//! clock results) keeps a copy of them in its own log, so that its projections are folds
//! of its own log and can be rebuilt from it at any time.
//!
//! A mirror is a durable consumer of the owner's subjects that appends verbatim copies
//! of each append's events to the local log ([`EventStore::append_copy`]): the same
//! stream, versions, event ids, actor, reason, hashes, and the owner's seal, which is
//! checked again before anything is written (ADR platform-006). Copies get no outbox
//! row, so the relay does not publish them again. An event whose seal does not verify
//! is counted and logged ([`crate::rejected_events`]) and never applied. In the
//! embedded mode (`Bus::InProcess`) every service shares one log and there is nothing
//! to mirror.
use std::collections::HashMap;
use std::time::Duration;

use arbiter_eventlog::{EventStore, RecordedEvent};
use tokio::sync::watch;

use crate::{Bus, Delivery, Error};

/// Command-id prefix of events mirrored before copies were verbatim (still skipped by
/// the relay).
pub const MIRROR_PREFIX: &str = "mirror:";

/// True when `event` is a copy made by a mirror of an earlier version.
pub fn is_mirrored(event: &RecordedEvent) -> bool {
    event.command_id.starts_with(MIRROR_PREFIX)
}

/// Runs one mirror per subject filter until `shutdown` (a no-op on the in-process bus).
/// `durable` names the consumers (`<durable>-<n>`); each resumes where it stopped.
pub async fn run_mirrors(
    bus: Bus,
    store: EventStore,
    durable: String,
    filters: Vec<String>,
    shutdown: watch::Receiver<bool>,
) {
    if matches!(bus, Bus::InProcess(_)) {
        return;
    }
    let mut tasks = Vec::new();
    for (i, filter) in filters.into_iter().enumerate() {
        let (bus, store, mut shutdown) = (bus.clone(), store.clone(), shutdown.clone());
        let name = format!("{durable}-{i}");
        tasks.push(tokio::spawn(async move {
            loop {
                tokio::select! {
                    r = mirror_one(&bus, &store, &name, &filter) => {
                        if let Err(e) = r {
                            tracing::warn!(error = %e, %filter, "mirror stopped; restarting");
                        }
                    }
                    _ = shutdown.changed() => return,
                }
                if *shutdown.borrow() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

async fn mirror_one(
    bus: &Bus,
    store: &EventStore,
    durable: &str,
    filter: &str,
) -> Result<(), Error> {
    let mut consumer = bus.consumer(durable, filter).await?;
    // Per stream: the delivered events of an append whose sealed last event is to come
    // (the consumer delivers an append's events only once its seal verified).
    let mut runs: HashMap<String, Vec<Delivery>> = HashMap::new();
    loop {
        let d = consumer.next().await?;
        let Some(seal) = d.seal.clone() else {
            runs.entry(d.event.stream.clone()).or_default().push(d);
            continue;
        };
        let mut run = runs.remove(&d.event.stream).unwrap_or_default();
        run.push(d);
        let events: Vec<RecordedEvent> = run.iter().map(|d| d.event.clone()).collect();
        match store.append_copy(&events, &seal).await {
            Ok(_) => {
                for d in run {
                    d.ack().await?;
                }
            }
            Err(arbiter_eventlog::Error::Unsealed { message, .. }) => {
                for d in run {
                    crate::reject(&d.event.subject(), &d.event, &message);
                    d.ack().await?;
                }
            }
            // An earlier append of the stream has not arrived: not acknowledged, so
            // it is delivered again — to a new consumer. This one has marked the run
            // as seen and would skip (and acknowledge) its redelivery: the copy would
            // be lost for good (found by the stopped-consumer fault test).
            Err(arbiter_eventlog::Error::Conflict {
                stream,
                expected,
                actual,
            }) => {
                tracing::warn!(%stream, local = actual, incoming = expected + 1,
                    "mirror: an earlier event of the stream has not arrived yet; restarting to take it again");
                return Err(Error::Nats(format!(
                    "{stream}: event {} has not arrived before {}",
                    actual + 1,
                    expected + 1
                )));
            }
            Err(e) => return Err(e.into()),
        }
    }
}
