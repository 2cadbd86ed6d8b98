//! A commit on PostgreSQL in one statement and one round trip (ADR platform-011): the
//! events, their outbox row (one range per commit), the stream heads, the command records, the seals, the log
//! seal and the log head, each bound as arrays (`UNNEST`), so the statement text is the
//! same for every batch size and stays prepared on the connection. It runs in
//! autocommit: the statement is its own transaction, committed (WAL flushed, `fsync`
//! on) before PostgreSQL answers.
//!
//! The log head's `UPDATE` is the main statement, so it runs — and takes the head's row
//! lock — before the data-modifying `WITH` parts, as the locked path's `SELECT … FOR
//! UPDATE` does: two writers always lock in the same order.
use sqlx::PgConnection;

use crate::Result;
use crate::writer::Commit;

const COMMIT: &str = "WITH e AS (INSERT INTO events (global_position, event_id, stream, \
    stream_version, event_type, schema_version, payload, recorded_at, actor, command_id, \
    correlation_id, causation_id, reason, rule_edition, service, prev_hash, hash, trace_parent) \
    SELECT * FROM UNNEST($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[], \
    $6::bigint[], $7::bytea[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[], \
    $13::text[], $14::text[], $15::text[], $16::bytea[], $17::bytea[], $18::text[]) \
    RETURNING global_position), \
    o AS (INSERT INTO outbox (global_position, last_position) \
    SELECT MIN(global_position), MAX(global_position) FROM e), \
    s AS (INSERT INTO streams (stream, version, head_hash) \
    SELECT * FROM UNNEST($19::text[], $20::bigint[], $21::bytea[]) \
    ON CONFLICT (stream) DO UPDATE SET version = excluded.version, head_hash = excluded.head_hash), \
    c AS (INSERT INTO commands (command_id, stream, first_position, last_position, \
    stream_version, request_digest) \
    SELECT * FROM UNNEST($22::text[], $23::text[], $24::bigint[], $25::bigint[], $26::bigint[], \
    $27::bytea[])), \
    se AS (INSERT INTO seals (first_position, last_position, stream, service, key_id, signature) \
    SELECT * FROM UNNEST($28::bigint[], $29::bigint[], $30::text[], $31::text[], $32::text[], \
    $33::bytea[])), \
    ls AS (INSERT INTO log_seals (position, log_hash, key_id, signature) \
    VALUES ($34, $35, $36, $37)) \
    UPDATE log_head SET position = $34, log_hash = $35 WHERE id = 1";

/// Column `f` of every row.
fn col<'a, T, U: 'a>(rows: &'a [T], f: impl Fn(&'a T) -> U) -> Vec<U> {
    rows.iter().map(f).collect()
}

/// Writes one commit (see the module doc). A unique-key error means nothing was
/// written: a position or command id is taken.
pub(crate) async fn commit(conn: &mut PgConnection, c: &Commit<'_>) -> Result<()> {
    let (events, streams, commands, seals, log_seal) =
        (c.events, c.streams, c.commands, c.seals, c.log_seal);
    sqlx::query(COMMIT)
        .bind(col(events, |e| e.global_position))
        .bind(col(events, |e| e.event_id.as_str()))
        .bind(col(events, |e| e.stream.as_str()))
        .bind(col(events, |e| e.stream_version))
        .bind(col(events, |e| e.event_type.as_str()))
        .bind(col(events, |e| i64::from(e.schema_version)))
        .bind(col(events, |e| e.payload.as_slice()))
        .bind(col(events, |e| e.recorded_at_micros))
        .bind(col(events, |e| e.actor.as_str()))
        .bind(col(events, |e| e.command_id.as_str()))
        .bind(col(events, |e| e.correlation_id.as_str()))
        .bind(col(events, |e| e.causation_id.as_str()))
        .bind(col(events, |e| e.reason.as_str()))
        .bind(col(events, |e| e.rule_edition.as_str()))
        .bind(col(events, |e| e.service.as_str()))
        .bind(col(events, |e| e.prev_hash.as_slice()))
        .bind(col(events, |e| e.hash.as_slice()))
        .bind(col(events, |e| e.trace_parent.as_str()))
        .bind(col(streams, |s| s.0.as_str()))
        .bind(col(streams, |s| s.1.0))
        .bind(col(streams, |s| s.1.1.as_slice()))
        .bind(col(commands, |c| c.0))
        .bind(col(commands, |c| c.1))
        .bind(col(commands, |c| c.2.first_position))
        .bind(col(commands, |c| c.2.last_position))
        .bind(col(commands, |c| c.2.stream_version))
        .bind(col(commands, |c| c.3))
        .bind(col(seals, |s| s.first_position))
        .bind(col(seals, |s| s.last_position))
        .bind(col(seals, |s| s.stream.as_str()))
        .bind(col(seals, |s| s.service.as_str()))
        .bind(col(seals, |s| s.key_id.as_str()))
        .bind(col(seals, |s| s.signature.as_slice()))
        .bind(log_seal.position)
        .bind(log_seal.log_hash.as_slice())
        .bind(log_seal.key_id.as_str())
        .bind(log_seal.signature.as_slice())
        .execute(conn)
        .await?;
    Ok(())
}
