//! `verify`: walks the whole log and checks every invariant the hash chain and the
//! gap-free numbering give, naming each event at fault.
use std::collections::HashMap;

use futures::TryStreamExt;
use sqlx::{AssertSqlSafe, Row};

use crate::anchor::Anchor;
use crate::hash_chain::{GENESIS, event_hash};
use crate::signing::{LOG_GENESIS, log_link, log_message, seal_message};
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
    /// About the log as a whole (its positions, chain, head or anchor), not only about
    /// the stream named: a per-tournament check reports these too.
    pub log_wide: bool,
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

/// Which signatures [`EventStore::verify_with`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Signatures {
    /// Every seal and every log seal (an audit).
    #[default]
    All,
    /// The seals after the anchor, and the newest log seal: what the anchor's
    /// signature does not already vouch for (the check at start).
    AfterAnchor,
}

/// What [`EventStore::verify_with`] checks against.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// The last anchor written outside the database, if any.
    pub anchor: Option<Anchor>,
    /// Which signatures to check.
    pub signatures: Signatures,
}

struct LogSealRow {
    position: i64,
    log_hash: Vec<u8>,
    key_id: String,
    signature: Vec<u8>,
}

struct SealRow {
    first: i64,
    last: i64,
    service: String,
    key_id: String,
    signature: Vec<u8>,
}

impl EventStore {
    /// [`EventStore::verify_with`] checking every signature, without an anchor.
    pub async fn verify(&self) -> Result<VerifyReport> {
        self.verify_with(&VerifyOptions::default()).await
    }

    /// Checks the whole log: positions 1..=head without gaps (a gap is a deleted
    /// event), versions 1..=n per stream in log order (a reordered event breaks this),
    /// every hash recomputed (an edited event), every `prev_hash` linked, the stream
    /// heads matching their last events (a deleted last event); the log chain over
    /// every position against each commit's signed log seal (positions swapped or
    /// re-hashed), the seals of every append (who wrote it), and the anchor (a log cut
    /// short or rewritten while stopped).
    pub async fn verify_with(&self, options: &VerifyOptions) -> Result<VerifyReport> {
        let mut report = VerifyReport::default();
        let keys = self.keys().clone();
        // One snapshot for the whole walk: appends that commit meanwhile are not seen.
        let mut tx = self.pool().begin().await?;
        if self.backend() == crate::Backend::Postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                .execute(&mut *tx)
                .await?;
        }
        let row = sqlx::query("SELECT position, log_hash, sealed_from FROM log_head WHERE id = 1")
            .fetch_one(&mut *tx)
            .await?;
        let head: i64 = row.try_get(0)?;
        let stored_log_hash = row
            .try_get::<Option<Vec<u8>>, _>(1)?
            .unwrap_or_else(|| LOG_GENESIS.to_vec());
        let sealed_from: i64 = row.try_get(2)?;
        let after = match (&options.signatures, &options.anchor) {
            (Signatures::AfterAnchor, Some(a)) => a.position,
            (Signatures::AfterAnchor, None) => 0,
            (Signatures::All, _) => 0,
        };
        // Log seals and seals, in position order, merged with the walk below.
        let log_seals: Vec<LogSealRow> = sqlx::query(
            "SELECT position, log_hash, key_id, signature FROM log_seals ORDER BY position",
        )
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            Ok(LogSealRow {
                position: r.try_get(0)?,
                log_hash: r.try_get(1)?,
                key_id: r.try_get(2)?,
                signature: r.try_get(3)?,
            })
        })
        .collect::<Result<_>>()?;
        let seals: Vec<SealRow> = sqlx::query(
            "SELECT first_position, last_position, service, key_id, signature FROM seals \
             ORDER BY last_position",
        )
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            Ok(SealRow {
                first: r.try_get(0)?,
                last: r.try_get(1)?,
                service: r.try_get(2)?,
                key_id: r.try_get(3)?,
                signature: r.try_get(4)?,
            })
        })
        .collect::<Result<_>>()?;
        let newest_log_seal = log_seals.last().map(|l| l.position);
        let mut next_log_seal = log_seals.iter().peekable();
        let mut next_seal = seals.iter().peekable();
        let mut log_hash = LOG_GENESIS.to_vec();
        let mut anchor_hash: Option<Vec<u8>> = None;
        // Where the walk has seen the first log-chain mismatch (reported once).
        let mut chain_broken = false;

        let mut streams: HashMap<String, StreamState> = HashMap::new();
        let mut expected_position = 1i64;
        let sql = "SELECT global_position, event_id, stream, stream_version, event_type, \
            schema_version, payload, recorded_at, actor, command_id, correlation_id, causation_id, \
            reason, rule_edition, service, prev_hash, hash, trace_parent FROM events \
            ORDER BY global_position";
        let mut rows = sqlx::query(sql).fetch(&mut *tx);
        while let Some(row) = rows.try_next().await? {
            let e = decode_row(&row)?;
            report.events += 1;
            let mut problems = Vec::new();
            if e.global_position != expected_position {
                problems.push(format!(
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
                problems.push(format!(
                    "stream version {} follows version {}: an event was deleted or reordered",
                    e.stream_version, state.version
                ));
            }
            if e.prev_hash != state.hash {
                problems.push(
                    "prev_hash does not match the previous event of the stream \
                     (deleted, reordered or edited predecessor)"
                        .to_owned(),
                );
            }
            let computed = event_hash(&e);
            if e.hash != computed {
                problems.push(format!(
                    "hash mismatch: stored {}, computed {} (the event was edited)",
                    hex::encode(&e.hash),
                    hex::encode(computed)
                ));
            }
            state.version = e.stream_version;
            state.hash = e.hash.clone();
            log_hash = log_link(&log_hash, e.global_position, &e.hash).to_vec();
            if options
                .anchor
                .as_ref()
                .is_some_and(|a| a.position == e.global_position)
            {
                anchor_hash = Some(log_hash.clone());
            }

            // The append's seal, when this is its last event.
            while next_seal.peek().is_some_and(|s| s.last < e.global_position) {
                let s = next_seal.next().expect("peeked");
                problems.push(format!(
                    "a seal covers positions {}..{} but no event is at {} (deleted)",
                    s.first, s.last, s.last
                ));
            }
            let sealed = next_seal
                .peek()
                .is_some_and(|s| s.last == e.global_position);
            if sealed {
                let s = next_seal.next().expect("peeked");
                if e.global_position > after {
                    if s.service != e.service {
                        problems.push(format!(
                            "sealed for service {:?}, the event names {:?}",
                            s.service, e.service
                        ));
                    } else if let Err(f) =
                        keys.check(&s.service, &s.key_id, &seal_message(&e.hash), &s.signature)
                    {
                        problems.push(format!(
                            "the seal of positions {}..{} does not verify: {f} (an event of that append was edited, or the seal forged)",
                            s.first, s.last
                        ));
                    }
                }
            } else if e.global_position >= sealed_from
                && next_seal.peek().is_none_or(|s| s.first > e.global_position)
            {
                problems.push("no seal covers this event (inserted without a signature)".into());
            }

            // The commit's log seal, when this is its last event.
            while next_log_seal
                .peek()
                .is_some_and(|l| l.position < e.global_position)
            {
                next_log_seal.next();
            }
            if let Some(l) = next_log_seal.next_if(|l| l.position == e.global_position) {
                let check_signature = matches!(options.signatures, Signatures::All)
                    || e.global_position > after
                    || Some(l.position) == newest_log_seal;
                if l.log_hash != log_hash && !chain_broken {
                    chain_broken = true;
                    problems.push(format!(
                        "the log chain at position {} does not match the signed log seal of that commit: events at or before it were removed, inserted, swapped or re-hashed",
                        l.position
                    ));
                } else if check_signature
                    && let Err(f) = keys.check(
                        keys.log_owner(),
                        &l.key_id,
                        &log_message(l.position, &l.log_hash),
                        &l.signature,
                    )
                    && !chain_broken
                {
                    chain_broken = true;
                    problems.push(format!(
                        "the log seal at position {} does not verify: {f} (the log was rewritten up to there)",
                        l.position
                    ));
                }
            }
            for message in problems {
                let log_wide = message.starts_with("positions ")
                    || message.starts_with("the log ")
                    || message.starts_with("a seal covers");
                report.problems.push(Problem {
                    position: e.global_position,
                    stream: e.stream.clone(),
                    version: e.stream_version,
                    message,
                    log_wide,
                });
            }
        }
        drop(rows);
        report.streams = streams.len() as u64;

        if head != expected_position - 1 {
            report.problems.push(Problem {
                position: head,
                stream: String::new(),
                version: 0,
                log_wide: true,
                message: format!(
                    "log head says {head} but the last event is at {} (events deleted at the end)",
                    expected_position - 1
                ),
            });
        }
        if stored_log_hash != log_hash && !chain_broken && head == expected_position - 1 {
            report.problems.push(Problem {
                position: head,
                stream: String::new(),
                version: 0,
                log_wide: true,
                message: "the log head's chain hash does not match the events (rewritten)".into(),
            });
        }
        if let Some(a) = &options.anchor {
            let mut problem = |message: String| {
                report.problems.push(Problem {
                    position: a.position,
                    stream: String::new(),
                    version: 0,
                    message,
                    log_wide: true,
                })
            };
            if let Err(f) = keys.check(keys.log_owner(), &a.key_id, &a.message(), &a.signature) {
                problem(format!("the anchor's signature does not verify: {f}"));
            } else if a.position > expected_position - 1 {
                problem(format!(
                    "the anchor says the log reached position {}, it ends at {}: events {}..{} were removed",
                    a.position,
                    expected_position - 1,
                    expected_position,
                    a.position
                ));
            } else if anchor_hash.as_deref() != Some(a.log_hash.as_slice()) {
                problem(format!(
                    "the log up to position {} does not match its anchor: events at or before it were edited, removed, inserted or swapped",
                    a.position
                ));
            }
        }
        let heads = sqlx::query(AssertSqlSafe(
            "SELECT stream, version, head_hash FROM streams ORDER BY stream".to_owned(),
        ))
        .fetch_all(&mut *tx)
        .await?;
        tx.rollback().await?;
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
                    log_wide: false,
                }),
                None => report.problems.push(Problem {
                    position: 0,
                    stream: stream.clone(),
                    version,
                    message: "stream head exists but the stream has no events (deleted)".to_owned(),
                    log_wide: false,
                }),
            }
        }
        Ok(report)
    }
}
