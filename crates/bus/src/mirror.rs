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
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use arbiter_eventlog::{EventStore, RecordedEvent, Seal};
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

/// Events a mirror may hold, per stream, that came before an earlier append of their
/// stream (each unacknowledged, so NATS also redelivers them): past this, the held
/// appends are dropped and taken again when they are redelivered.
pub const MAX_HELD_EVENTS: usize = 100_000;

/// One verified append of one stream, as delivered.
struct Run {
    deliveries: Vec<Delivery>,
    seal: Seal,
}

impl Run {
    fn first(&self) -> i64 {
        self.deliveries
            .first()
            .map_or(0, |d| d.event.stream_version)
    }
    fn last(&self) -> i64 {
        self.deliveries.last().map_or(0, |d| d.event.stream_version)
    }
    async fn ack(self) -> Result<(), Error> {
        for d in self.deliveries {
            d.ack().await?;
        }
        Ok(())
    }
}

async fn mirror_one(
    bus: &Bus,
    store: &EventStore,
    durable: &str,
    filter: &str,
) -> Result<(), Error> {
    let mut consumer = bus.consumer(durable, filter).await?;
    tracing::debug!(%durable, %filter, "mirror: consumer started");
    // Per stream: the delivered events of an append whose sealed last event is to come
    // (the consumer delivers an append's events only once its seal verified).
    let mut runs: HashMap<String, Vec<Delivery>> = HashMap::new();
    // Per stream, by first version: verified appends that came before an earlier append
    // of their stream (a redelivery after a consumer was lost with its NATS node). They
    // are copied, and acknowledged, once the earlier ones are in.
    let mut held: HashMap<String, BTreeMap<i64, Run>> = HashMap::new();
    loop {
        let d = consumer.next().await?;
        tracing::debug!(%durable, stream = %d.event.stream, version = d.event.stream_version,
            subject = %d.event.subject(), sealed = d.seal.is_some(), "mirror: delivered");
        let Some(seal) = d.seal.clone() else {
            runs.entry(d.event.stream.clone()).or_default().push(d);
            continue;
        };
        let stream = d.event.stream.clone();
        let mut deliveries = runs.remove(&stream).unwrap_or_default();
        deliveries.push(d);
        let mut next = Some(Run { deliveries, seal });
        while let Some(run) = next.take() {
            let Some(local) = copy(store, run, &stream, &mut held).await? else {
                break;
            };
            // The stream's local copy is at `local`: what was held up to it is in.
            let Some(waiting) = held.get_mut(&stream) else {
                break;
            };
            while let Some(entry) = waiting.first_entry() {
                if entry.get().last() <= local {
                    entry.remove().ack().await?;
                } else if entry.get().first() <= local + 1 {
                    next = Some(entry.remove());
                    break;
                } else {
                    break;
                }
            }
            if waiting.is_empty() {
                held.remove(&stream);
            }
        }
    }
}

/// Copies one verified append into the local log and acknowledges it; returns the
/// stream's local version after it, or `None` when the append waits (held) for an
/// earlier one of its stream.
async fn copy(
    store: &EventStore,
    run: Run,
    stream: &str,
    held: &mut HashMap<String, BTreeMap<i64, Run>>,
) -> Result<Option<i64>, Error> {
    let events: Vec<RecordedEvent> = run.deliveries.iter().map(|d| d.event.clone()).collect();
    match store.append_copy(&events, &run.seal).await {
        Ok(ack) => {
            let local = ack.stream_version.max(run.last());
            run.ack().await?;
            Ok(Some(local))
        }
        Err(arbiter_eventlog::Error::Unsealed { message, .. }) => {
            let local = run.first() - 1;
            for d in run.deliveries {
                crate::reject(&d.event.subject(), &d.event, &message);
                d.ack().await?;
            }
            Ok(Some(local))
        }
        // An earlier append of the stream has not arrived: held, unacknowledged (the
        // consumer counts a delivery as seen only once acknowledged, so a redelivery of
        // it is taken again too).
        Err(arbiter_eventlog::Error::Conflict { actual, .. }) => {
            tracing::debug!(%stream, local = actual, incoming = run.first(),
                "mirror: an earlier event of the stream has not arrived yet; held");
            let waiting = held.entry(stream.to_owned()).or_default();
            waiting.insert(run.first(), run);
            let count: usize = waiting.values().map(|r| r.deliveries.len()).sum();
            if count > MAX_HELD_EVENTS {
                tracing::warn!(%stream, held = count,
                    "mirror: too many events wait for an earlier one; dropped until redelivered");
                held.remove(stream);
            }
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}
