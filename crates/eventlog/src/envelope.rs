use arbiter_proto::v1::EventEnvelope;

/// Who did it, why, and under which command: recorded on every event of an append.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandContext {
    /// Client-chosen idempotency key (required, non-empty).
    pub command_id: String,
    /// Authenticated actor (required, non-empty).
    pub actor: String,
    /// Correlation id (the trace or business flow); defaults to the command id.
    pub correlation_id: String,
    /// What caused this command (an event id or command id), may be empty.
    pub causation_id: String,
    /// Why (free text; required for corrections by the services that do corrections).
    pub reason: String,
    /// The rule edition in force for the aggregate, e.g. `dutch-2026`.
    pub rule_edition: String,
    /// The owning service (`registry`, `pairing`, …), used for NATS subjects.
    pub service: String,
    /// W3C `traceparent` of the command's span, carried to NATS headers (not hashed).
    pub trace_parent: String,
    /// SHA-256 of the request that carried the command (RPC name and message): a
    /// retry with the same command id must carry the same digest. Empty: not checked.
    pub request_digest: Vec<u8>,
}

/// An event about to be appended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvent {
    /// Event type, the payload message name, e.g. `TournamentCreated`.
    pub event_type: String,
    /// Schema version of the payload.
    pub schema_version: u32,
    /// Encoded payload (protobuf).
    pub payload: Vec<u8>,
}

/// One append: events for one stream, under one command.
#[derive(Debug, Clone)]
pub struct AppendRequest {
    /// Target stream, e.g. `tournament-0192…`.
    pub stream: String,
    /// `None`: no check. `Some(0)`: the stream must be new. `Some(v)`: must be at `v`.
    pub expected_version: Option<i64>,
    /// The events, in order (at least one).
    pub events: Vec<NewEvent>,
    /// Who, why, which command.
    pub context: CommandContext,
}

/// What an append wrote (or, for a retried command id, had written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppendAck {
    /// Global position of the first event.
    pub first_position: i64,
    /// Global position of the last event.
    pub last_position: i64,
    /// Stream version after the append.
    pub stream_version: i64,
    /// True when the command id had already been applied and nothing was written now.
    pub replayed: bool,
}

/// The owner's signature over an append's last event (see `signing`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Seal {
    /// Stream version of the signed (last) event.
    pub version: i64,
    /// The service whose key signed.
    pub service: String,
    /// The key's id.
    pub key_id: String,
    /// Ed25519 over `SEAL_DOMAIN ‖ hash of the event at `version``.
    pub signature: Vec<u8>,
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedEvent {
    /// 1-based, gap-free over the log.
    pub global_position: i64,
    /// UUID v7 (text form).
    pub event_id: String,
    /// Stream name.
    pub stream: String,
    /// 1-based, gap-free per stream.
    pub stream_version: i64,
    /// Event type.
    pub event_type: String,
    /// Payload schema version.
    pub schema_version: u32,
    /// Encoded payload.
    pub payload: Vec<u8>,
    /// Microseconds since the Unix epoch (UTC).
    pub recorded_at_micros: i64,
    /// Who did it.
    pub actor: String,
    /// Command id.
    pub command_id: String,
    /// Correlation id.
    pub correlation_id: String,
    /// Causation id.
    pub causation_id: String,
    /// Why.
    pub reason: String,
    /// Rule edition in force.
    pub rule_edition: String,
    /// Owning service.
    pub service: String,
    /// Hash of the previous event of the stream (32 zero bytes for version 1).
    pub prev_hash: Vec<u8>,
    /// SHA-256(prev_hash ‖ canonical bytes).
    pub hash: Vec<u8>,
    /// W3C traceparent of the command (not part of the hash).
    pub trace_parent: String,
}

/// An event as read, borrowed from the buffer it was read into: the check's walk reads
/// a million of them without allocating (ADR platform-011).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventRef<'a> {
    pub(crate) global_position: i64,
    pub(crate) event_id: &'a str,
    pub(crate) stream: &'a str,
    pub(crate) stream_version: i64,
    pub(crate) event_type: &'a str,
    pub(crate) schema_version: u32,
    pub(crate) payload: &'a [u8],
    pub(crate) recorded_at_micros: i64,
    pub(crate) actor: &'a str,
    pub(crate) command_id: &'a str,
    pub(crate) correlation_id: &'a str,
    pub(crate) causation_id: &'a str,
    pub(crate) reason: &'a str,
    pub(crate) rule_edition: &'a str,
    pub(crate) service: &'a str,
    pub(crate) prev_hash: &'a [u8],
    pub(crate) hash: &'a [u8],
    pub(crate) trace_parent: &'a str,
}

impl EventRef<'_> {
    /// The owned event.
    pub(crate) fn to_owned(self) -> RecordedEvent {
        RecordedEvent {
            global_position: self.global_position,
            event_id: self.event_id.to_owned(),
            stream: self.stream.to_owned(),
            stream_version: self.stream_version,
            event_type: self.event_type.to_owned(),
            schema_version: self.schema_version,
            payload: self.payload.to_vec(),
            recorded_at_micros: self.recorded_at_micros,
            actor: self.actor.to_owned(),
            command_id: self.command_id.to_owned(),
            correlation_id: self.correlation_id.to_owned(),
            causation_id: self.causation_id.to_owned(),
            reason: self.reason.to_owned(),
            rule_edition: self.rule_edition.to_owned(),
            service: self.service.to_owned(),
            prev_hash: self.prev_hash.to_vec(),
            hash: self.hash.to_vec(),
            trace_parent: self.trace_parent.to_owned(),
        }
    }
}

impl RecordedEvent {
    /// The event, borrowed.
    pub(crate) fn as_ref(&self) -> EventRef<'_> {
        EventRef {
            global_position: self.global_position,
            event_id: &self.event_id,
            stream: &self.stream,
            stream_version: self.stream_version,
            event_type: &self.event_type,
            schema_version: self.schema_version,
            payload: &self.payload,
            recorded_at_micros: self.recorded_at_micros,
            actor: &self.actor,
            command_id: &self.command_id,
            correlation_id: &self.correlation_id,
            causation_id: &self.causation_id,
            reason: &self.reason,
            rule_edition: &self.rule_edition,
            service: &self.service,
            prev_hash: &self.prev_hash,
            hash: &self.hash,
            trace_parent: &self.trace_parent,
        }
    }

    /// NATS subject: `arbiter.v1.<service>.<event_type>`.
    pub fn subject(&self) -> String {
        format!("arbiter.v1.{}.{}", self.service, self.event_type)
    }

    /// The wire form (`arbiter.v1.EventEnvelope`).
    pub fn to_envelope(&self) -> EventEnvelope {
        EventEnvelope {
            event_id: self.event_id.clone(),
            stream: self.stream.clone(),
            stream_version: self.stream_version,
            global_position: self.global_position,
            event_type: self.event_type.clone(),
            schema_version: self.schema_version,
            payload: self.payload.clone(),
            recorded_at_micros: self.recorded_at_micros,
            actor: self.actor.clone(),
            command_id: self.command_id.clone(),
            correlation_id: self.correlation_id.clone(),
            causation_id: self.causation_id.clone(),
            reason: self.reason.clone(),
            rule_edition: self.rule_edition.clone(),
            prev_hash: self.prev_hash.clone(),
            hash: self.hash.clone(),
            service: self.service.clone(),
            seal_version: 0,
            seal_key_id: String::new(),
            seal_signature: Vec::new(),
        }
    }

    /// From the wire form (the trace parent travels in message headers instead).
    pub fn from_envelope(e: EventEnvelope, trace_parent: String) -> Self {
        let (event, _) = Self::from_sealed_envelope(e, trace_parent);
        event
    }

    /// From the wire form, with the seal it carries (`None` when it carries none).
    pub fn from_sealed_envelope(e: EventEnvelope, trace_parent: String) -> (Self, Option<Seal>) {
        let seal = (!e.seal_signature.is_empty() || !e.seal_key_id.is_empty()).then(|| Seal {
            version: e.seal_version,
            service: e.service.clone(),
            key_id: e.seal_key_id.clone(),
            signature: e.seal_signature.clone(),
        });
        (Self::from_unsealed_envelope(e, trace_parent), seal)
    }

    fn from_unsealed_envelope(e: EventEnvelope, trace_parent: String) -> Self {
        RecordedEvent {
            global_position: e.global_position,
            event_id: e.event_id,
            stream: e.stream,
            stream_version: e.stream_version,
            event_type: e.event_type,
            schema_version: e.schema_version,
            payload: e.payload,
            recorded_at_micros: e.recorded_at_micros,
            actor: e.actor,
            command_id: e.command_id,
            correlation_id: e.correlation_id,
            causation_id: e.causation_id,
            reason: e.reason,
            rule_edition: e.rule_edition,
            service: e.service,
            prev_hash: e.prev_hash,
            hash: e.hash,
            trace_parent,
        }
    }
}
