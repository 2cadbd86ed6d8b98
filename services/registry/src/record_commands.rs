//! The command path shared by the services that write a tournament's record (pairing,
//! results): retry detection, append with the actor's context, and read-your-writes on
//! the [`Tournaments`] projection, which folds their events too.
use arbiter_eventlog::{AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::{CommandAck, CommandMeta, Tournament};
use arbiter_service_kit::Platform;
use arbiter_service_kit::status::{from_log, invalid, not_found};
use arbiter_service_kit::telemetry::current_traceparent;
use tonic::Status;

use crate::projection::Tournaments;
use crate::roster::{Roster, RosterEvent};

/// The acknowledgement of an append.
pub fn ack(stream: String, a: arbiter_eventlog::AppendAck) -> CommandAck {
    CommandAck {
        stream,
        stream_version: a.stream_version,
        first_position: a.first_position,
        last_position: a.last_position,
        replayed: a.replayed,
    }
}

/// A retried command id: the original acknowledgement (if its first event has
/// `event_type`), or an error when the id was used for another kind of command.
pub async fn replayed(
    platform: &Platform,
    meta: &CommandMeta,
    event_types: &[&str],
) -> Result<Option<CommandAck>, Status> {
    let Some((stream, a)) = platform
        .store
        .find_command(&meta.command_id)
        .await
        .map_err(from_log)?
    else {
        return Ok(None);
    };
    let first = platform
        .store
        .read_at(a.first_position)
        .await
        .map_err(from_log)?
        .ok_or_else(|| Status::internal("replayed command has no event"))?;
    if !event_types.contains(&first.event_type.as_str()) {
        return Err(invalid(
            "meta.command_id",
            format!("already used for a {} command", first.event_type),
        ));
    }
    Ok(Some(ack(stream, a)))
}

/// The tournament and its record as of the log's head: waits until this service's
/// projection has folded everything appended so far (by any service sharing the log),
/// so a command is decided on the latest record and a query sees every earlier write.
pub async fn load_latest(
    platform: &Platform,
    tournaments: &Tournaments,
    id: &str,
) -> Result<(Tournament, Roster), Status> {
    let head = platform.store.head_position().await.map_err(from_log)?;
    if !tournaments.caught_up(head).await {
        return Err(Status::unavailable(
            "the tournament projection is behind the log; retry",
        ));
    }
    load(tournaments, id)
}

/// [`load_latest`] with the tournament's revision (see
/// [`Tournaments::with_roster_revision`]): what a cache of things computed from the record
/// is keyed by.
pub async fn load_latest_revision(
    platform: &Platform,
    tournaments: &Tournaments,
    id: &str,
) -> Result<(Tournament, Roster, u64), Status> {
    let head = platform.store.head_position().await.map_err(from_log)?;
    if !tournaments.caught_up(head).await {
        return Err(Status::unavailable(
            "the tournament projection is behind the log; retry",
        ));
    }
    if id.trim().is_empty() {
        return Err(invalid("tournament_id", "must not be empty"));
    }
    tournaments
        .with_roster_revision(id.trim())
        .ok_or_else(|| not_found("tournament_id", format!("no tournament {id:?}")))
}

/// The tournament and its record, or NOT_FOUND naming `tournament_id`.
pub fn load(tournaments: &Tournaments, id: &str) -> Result<(Tournament, Roster), Status> {
    if id.trim().is_empty() {
        return Err(invalid("tournament_id", "must not be empty"));
    }
    tournaments
        .with_roster(id.trim())
        .ok_or_else(|| not_found("tournament_id", format!("no tournament {id:?}")))
}

/// Appends to several streams all or nothing (one database transaction, ADR
/// registry-005): each item is (stream, expected version, events, command id); the other
/// fields of the context are `meta`'s. When the log refuses an item (a concurrent write on
/// its stream), nothing of the batch is written: that item is answered with its error,
/// the others with "not written" (`EventStore::append_all`). Waits until the projection
/// has folded what was written.
#[allow(clippy::too_many_arguments)]
pub async fn append_many(
    platform: &Platform,
    tournaments: &Tournaments,
    service: &str,
    actor: String,
    meta: &CommandMeta,
    rule_edition: &str,
    items: Vec<(String, Option<i64>, Vec<RosterEvent>, String)>,
) -> Result<Vec<Result<CommandAck, Status>>, Status> {
    crate::tournament::check_reason(&meta.reason).map_err(|e| invalid(e.field, e.message))?;
    let streams: Vec<String> = items.iter().map(|i| i.0.clone()).collect();
    let reqs: Vec<AppendRequest> = items
        .into_iter()
        .map(
            |(stream, expected_version, events, command_id)| AppendRequest {
                stream,
                expected_version,
                events: events
                    .iter()
                    .map(|e| {
                        let (event_type, payload) = e.encode();
                        NewEvent {
                            event_type: event_type.into(),
                            schema_version: 1,
                            payload,
                        }
                    })
                    .collect(),
                context: CommandContext {
                    command_id,
                    request_digest: meta.request_digest.clone(),
                    actor: actor.clone(),
                    reason: meta.reason.clone(),
                    rule_edition: rule_edition.to_owned(),
                    service: service.to_owned(),
                    trace_parent: current_traceparent(),
                    ..Default::default()
                },
            },
        )
        .collect();
    let outcomes = platform.store.append_all(&reqs).await.map_err(from_log)?;
    let last = outcomes
        .iter()
        .filter_map(|o| o.as_ref().ok().map(|a| a.last_position))
        .max()
        .unwrap_or(0);
    if last > 0 && !tournaments.caught_up(last).await {
        return Err(Status::unavailable(
            "the tournament projection is behind the log; retry",
        ));
    }
    Ok(outcomes
        .into_iter()
        .zip(streams)
        .map(|(o, stream)| o.map(|a| ack(stream, a)).map_err(from_log))
        .collect())
}

/// Appends `events` to `stream` as `actor` under `meta`, then waits until the
/// projection has folded them.
#[allow(clippy::too_many_arguments)]
pub async fn append(
    platform: &Platform,
    tournaments: &Tournaments,
    service: &str,
    actor: String,
    meta: &CommandMeta,
    rule_edition: &str,
    stream: String,
    expected_version: Option<i64>,
    events: &[RosterEvent],
) -> Result<CommandAck, Status> {
    // Every command's reason is recorded free text: bounded, no control characters.
    crate::tournament::check_reason(&meta.reason).map_err(|e| invalid(e.field, e.message))?;
    let context = CommandContext {
        command_id: meta.command_id.clone(),
        request_digest: meta.request_digest.clone(),
        actor,
        reason: meta.reason.clone(),
        rule_edition: rule_edition.to_owned(),
        service: service.to_owned(),
        trace_parent: current_traceparent(),
        ..Default::default()
    };
    let a = platform
        .store
        .append(AppendRequest {
            stream: stream.clone(),
            expected_version,
            events: events
                .iter()
                .map(|e| {
                    let (event_type, payload) = e.encode();
                    NewEvent {
                        event_type: event_type.into(),
                        schema_version: 1,
                        payload,
                    }
                })
                .collect(),
            context,
        })
        .await
        .map_err(from_log)?;
    if !tournaments.caught_up(a.last_position).await {
        return Err(Status::unavailable(
            "the tournament projection is behind the log; retry",
        ));
    }
    Ok(ack(stream, a))
}
