//! Mirrors: in the distributed mode every service has its own log, and a service that
//! folds another service's events (the tournament record: registry, pairing, results,
//! clock results) keeps a copy of them in its own log, so that its projections are folds
//! of its own log and can be rebuilt from it at any time.
//!
//! A mirror is a durable consumer of the owner's subjects that appends each event to the
//! local log under the same stream, at the same stream version (`expected_version` =
//! version − 1), with the owner's type, schema version, payload, actor, reason, rule
//! edition and service; its command id is `mirror:<event id>` (a redelivery is a retry
//! that writes nothing) and the relay does not publish mirrored events again. In the
//! embedded mode (`Bus::InProcess`) every service shares one log and there is nothing to
//! mirror.
use std::time::Duration;

use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent, RecordedEvent};
use tokio::sync::watch;

use crate::{Bus, Error};

/// Command-id prefix of mirrored events.
pub const MIRROR_PREFIX: &str = "mirror:";

/// True when `event` is a local copy of another service's event.
pub fn is_mirrored(event: &RecordedEvent) -> bool {
    event.command_id.starts_with(MIRROR_PREFIX)
}

/// Appends the copy of `e`; `Ok(true)` when written or already there.
async fn copy(store: &EventStore, e: &RecordedEvent) -> Result<bool, Error> {
    let local = store.stream_version(&e.stream).await?;
    if local >= e.stream_version {
        return Ok(true);
    }
    if local != e.stream_version - 1 {
        tracing::warn!(
            stream = %e.stream,
            local,
            incoming = e.stream_version,
            "mirror: an earlier event of the stream has not arrived yet"
        );
        return Ok(false);
    }
    store
        .append(AppendRequest {
            stream: e.stream.clone(),
            expected_version: Some(e.stream_version - 1),
            events: vec![NewEvent {
                event_type: e.event_type.clone(),
                schema_version: e.schema_version,
                payload: e.payload.clone(),
            }],
            context: CommandContext {
                command_id: format!("{MIRROR_PREFIX}{}", e.event_id),
                actor: e.actor.clone(),
                correlation_id: e.correlation_id.clone(),
                causation_id: e.event_id.clone(),
                reason: e.reason.clone(),
                rule_edition: e.rule_edition.clone(),
                service: e.service.clone(),
                trace_parent: e.trace_parent.clone(),
            },
        })
        .await?;
    Ok(true)
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
    loop {
        let d = consumer.next().await?;
        // Not acknowledged when an earlier event of the stream is missing: redelivered.
        if copy(store, &d.event).await? {
            d.ack().await?;
        }
    }
}
