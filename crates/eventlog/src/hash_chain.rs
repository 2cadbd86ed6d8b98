//! The per-stream hash chain: `hash = SHA-256(prev_hash ‖ canonical bytes)`.
//!
//! The canonical bytes are every recorded field except the global position (which
//! belongs to the log, not the stream) and the trace parent (telemetry, not truth),
//! each written as a big-endian `u32` length followed by its bytes (integers as
//! 8-byte big-endian), in a fixed order. Changing this function breaks every stored
//! chain: it is versioned by the envelope's schema, never edited in place.
use sha2::{Digest, Sha256};

use crate::RecordedEvent;
use crate::envelope::EventRef;

/// `prev_hash` of a stream's first event.
pub const GENESIS: [u8; 32] = [0; 32];

fn field(h: &mut Sha256, bytes: &[u8]) {
    // Lengths above u32::MAX cannot occur: payloads are bounded far below that by the
    // transport; saturate rather than panic.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    h.update(len.to_be_bytes());
    h.update(bytes);
}

/// The hash an event must carry, given its fields and `prev_hash`.
pub fn event_hash(e: &RecordedEvent) -> [u8; 32] {
    hash_of(&e.as_ref())
}

/// [`event_hash`] of a borrowed event.
pub(crate) fn hash_of(e: &EventRef<'_>) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(e.prev_hash);
    field(&mut h, e.event_id.as_bytes());
    field(&mut h, e.stream.as_bytes());
    field(&mut h, &e.stream_version.to_be_bytes());
    field(&mut h, e.event_type.as_bytes());
    field(&mut h, &u64::from(e.schema_version).to_be_bytes());
    field(&mut h, e.payload);
    field(&mut h, &e.recorded_at_micros.to_be_bytes());
    field(&mut h, e.actor.as_bytes());
    field(&mut h, e.command_id.as_bytes());
    field(&mut h, e.correlation_id.as_bytes());
    field(&mut h, e.causation_id.as_bytes());
    field(&mut h, e.reason.as_bytes());
    field(&mut h, e.rule_edition.as_bytes());
    field(&mut h, e.service.as_bytes());
    h.finalize().into()
}
