//! The tournament's event stream over server-sent events
//! (`/api/v1/tournaments/{id}/events`): every event of its record (registry, pairing,
//! results) as it is committed, `id:` its global log position, so a client that
//! reconnects with `Last-Event-ID` (or `?from_position=`) misses nothing and gets nothing
//! twice. The frame is pure ([`frame`]); the stream follows the log
//! (`EventStore::subscribe`). Access: the rule of `GetHistory` on the tournament (the
//! events of the record are its history), checked when the stream opens.
use arbiter_eventlog::RecordedEvent;
use serde::Serialize;
use utoipa::ToSchema;

/// What each event says (its envelope; the payload is left to the read RPCs, so nothing
/// beyond what the history shows travels here).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventJson {
    /// Global log position (also the SSE `id`).
    pub position: i64,
    /// Event id (UUID v7): the idempotency key of a consumer.
    pub event_id: String,
    /// Stream.
    pub stream: String,
    /// Version in the stream.
    pub stream_version: i64,
    /// Event type (also the SSE `event`).
    pub event_type: String,
    /// When (µs since the Unix epoch).
    pub recorded_at_micros: i64,
    /// The service that wrote it.
    pub service: String,
}

/// The SSE frame of `e`.
pub fn frame(e: &RecordedEvent) -> String {
    let j = EventJson {
        position: e.global_position,
        event_id: e.event_id.clone(),
        stream: e.stream.clone(),
        stream_version: e.stream_version,
        event_type: e.event_type.clone(),
        recorded_at_micros: e.recorded_at_micros,
        service: e.service.clone(),
    };
    // Event types are identifiers; anything else is dropped from the `event:` line so a
    // frame is always one event.
    let kind: String = e
        .event_type
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    format!(
        "id: {}\nevent: {kind}\ndata: {}\n\n",
        e.global_position,
        serde_json::to_string(&j).unwrap_or_default()
    )
}

/// Where a stream starts: after `Last-Event-ID`, else at `from_position`, else after
/// `head` (only what comes next). `Err` names the bad value.
pub fn start(
    last_event_id: Option<&str>,
    from_position: i64,
    head: i64,
) -> Result<i64, crate::problem::Problem> {
    if let Some(id) = last_event_id {
        return id
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|p| *p >= 0)
            .map(|p| p + 1)
            .ok_or_else(|| {
                crate::problem::invalid("Last-Event-ID", "not a log position this stream gave")
            });
    }
    if from_position < 0 {
        return Err(crate::problem::invalid("from_position", "must be ≥ 0"));
    }
    Ok(if from_position > 0 {
        from_position
    } else {
        head + 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_resumes_after_the_last_id_it_gave() {
        assert_eq!(start(Some("41"), 0, 100).unwrap(), 42);
        assert_eq!(start(None, 7, 100).unwrap(), 7);
        assert_eq!(start(None, 0, 100).unwrap(), 101);
        assert!(start(Some("x"), 0, 1).is_err());
        assert!(start(Some("-3"), 0, 1).is_err());
        assert!(start(None, -1, 1).is_err());
    }
}
