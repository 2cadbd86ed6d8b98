//! `verify`: walks the whole log and checks every invariant the hash chain and the
//! gap-free numbering give, naming each event at fault.
use std::collections::HashMap;

use futures::TryStreamExt;
use sqlx::{AssertSqlSafe, Row};

use crate::hash_chain::{GENESIS, event_hash};
use crate::store::decode_row;
use crate::{EventStore, Result};

/// One thing found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Global position concerned (of the event, or where one is missing).
    pub position: i64,
    /// Stream concerned.
    pub stream: String,
    /// Stream version concerned (0 when not applicable).
    pub version: i64,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "position {} (stream {} version {}): {}",
            self.position, self.stream, self.version, self.message
        )
    }
}

/// The outcome of [`EventStore::verify`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Events read.
    pub events: u64,
    /// Streams seen.
    pub streams: u64,
    /// Everything found wrong; empty when the log is intact.
    pub problems: Vec<Problem>,
}

impl VerifyReport {
    /// True when nothing is wrong.
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }
}

struct StreamState {
    version: i64,
    hash: Vec<u8>,
}

impl EventStore {
    /// Checks the whole log: positions 1..=head without gaps (a gap is a deleted
    /// event), versions 1..=n per stream in log order (a reordered event breaks this),
    /// every hash recomputed (an edited event), every `prev_hash` linked, and the
    /// stream heads matching their last events (a deleted last event).
    pub async fn verify(&self) -> Result<VerifyReport> {
        let mut report = VerifyReport::default();
        let mut streams: HashMap<String, StreamState> = HashMap::new();
        let mut expected_position = 1i64;
        let sql = "SELECT global_position, event_id, stream, stream_version, event_type, \
            schema_version, payload, recorded_at, actor, command_id, correlation_id, causation_id, \
            reason, rule_edition, service, prev_hash, hash, trace_parent FROM events \
            ORDER BY global_position";
        let mut rows = sqlx::query(sql).fetch(self.pool());
        while let Some(row) = rows.try_next().await? {
            let e = decode_row(&row)?;
            report.events += 1;
            let mut problem = |message: String| {
                report.problems.push(Problem {
                    position: e.global_position,
                    stream: e.stream.clone(),
                    version: e.stream_version,
                    message,
                })
            };
            if e.global_position != expected_position {
                problem(format!(
                    "positions {expected_position}..{} are missing (deleted events)",
                    e.global_position - 1
                ));
            }
            expected_position = e.global_position + 1;
            let state = streams.entry(e.stream.clone()).or_insert(StreamState {
                version: 0,
                hash: GENESIS.to_vec(),
            });
            if e.stream_version != state.version + 1 {
                problem(format!(
                    "stream version {} follows version {}: an event was deleted or reordered",
                    e.stream_version, state.version
                ));
            }
            if e.prev_hash != state.hash {
                problem(
                    "prev_hash does not match the previous event of the stream \
                     (deleted, reordered or edited predecessor)"
                        .to_owned(),
                );
            }
            let computed = event_hash(&e);
            if e.hash != computed {
                problem(format!(
                    "hash mismatch: stored {}, computed {} (the event was edited)",
                    hex::encode(&e.hash),
                    hex::encode(computed)
                ));
            }
            state.version = e.stream_version;
            state.hash = e.hash.clone();
        }
        drop(rows);
        report.streams = streams.len() as u64;

        let head = self.head_position().await?;
        if head != expected_position - 1 {
            report.problems.push(Problem {
                position: head,
                stream: String::new(),
                version: 0,
                message: format!(
                    "log head says {head} but the last event is at {} (events deleted at the end)",
                    expected_position - 1
                ),
            });
        }
        let heads = sqlx::query(AssertSqlSafe(
            "SELECT stream, version, head_hash FROM streams ORDER BY stream".to_owned(),
        ))
        .fetch_all(self.pool())
        .await?;
        for row in heads {
            let stream: String = row.try_get(0)?;
            let version: i64 = row.try_get(1)?;
            let hash: Vec<u8> = row.try_get(2)?;
            match streams.get(&stream) {
                Some(s) if s.version == version && s.hash == hash => {}
                Some(s) => report.problems.push(Problem {
                    position: 0,
                    stream: stream.clone(),
                    version,
                    message: format!(
                        "stream head says version {version}, the log ends at version {} \
                         (last events deleted or edited)",
                        s.version
                    ),
                }),
                None => report.problems.push(Problem {
                    position: 0,
                    stream: stream.clone(),
                    version,
                    message: "stream head exists but the stream has no events (deleted)".to_owned(),
                }),
            }
        }
        Ok(report)
    }
}
