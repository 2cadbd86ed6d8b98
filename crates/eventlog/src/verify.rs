//! `verify`: walks the log and checks every invariant the hash chain, the gap-free
//! numbering, the seals and the anchor give, naming each event at fault.
//!
//! What can change under a walk is read first, in one short read transaction: the log
//! head, the stream heads, the seals and the log seals, each filtered to positions up to
//! that head. The events up to the head are then read through the replay path
//! (`read_all`: the raw SQLite handle, PostgreSQL binary COPY), page by page, the next
//! page read while the current one is checked: committed events never change, so they
//! need no snapshot (an event committed meanwhile is past the head and left out).
use std::collections::{HashMap, HashSet};

use sqlx::{AssertSqlSafe, Row};

use crate::anchor::Anchor;
use crate::envelope::EventRef;
use crate::hash_chain::{GENESIS, hash_of};
use crate::signing::{Keys, LOG_GENESIS, log_link, log_message, seal_message};
use crate::store::placeholders;
use crate::{Backend, Error, EventStore, RecordedEvent, Result};

/// Events per page of the walk.
const PAGE: i64 = 10_000;
/// Stream lookups per statement (two parameters each).
const LOOKUP_CHUNK: usize = 250;

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

/// How much of the log [`EventStore::verify_with`] walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// Every event from position 1: also finds a log edited before the anchor (e.g.
    /// while the server was stopped).
    #[default]
    Full,
    /// Only the events after the anchor: the anchor's signature, and the stored log
    /// seal at its position carrying the anchor's log hash, stand for everything up
    /// to it. The log chain continues from the anchor's hash; each stream touched
    /// after it continues from its event at the version before. Without an anchor,
    /// the same as [`Scope::Full`].
    SinceAnchor,
}

/// What [`EventStore::verify_with`] checks against.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// The last anchor written outside the database, if any.
    pub anchor: Option<Anchor>,
    /// Which signatures to check.
    pub signatures: Signatures,
    /// The whole log, or only what follows the anchor.
    pub scope: Scope,
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

/// What the short read transaction saw.
struct Snapshot {
    head: i64,
    stored_log_hash: Vec<u8>,
    sealed_from: i64,
    /// Log seals at positions `after..=head` (the one at `after` included), by position.
    log_seals: Vec<LogSealRow>,
    /// Seals ending in `after+1..=head`, by last position.
    seals: Vec<SealRow>,
    /// Stream heads (every stream, or those with events after `after`), by stream.
    heads: Vec<(String, i64, Vec<u8>)>,
}

/// A seal whose signature is still to be checked, over the hash of its last event.
struct PendingSeal<'a> {
    seal: &'a SealRow,
    stream: String,
    version: i64,
    hash: Vec<u8>,
}

/// Checks the signatures of `pending` (Ed25519 verification dominates an incremental
/// check: one per append), split over the available cores, each part as one batch;
/// a part whose batch fails is checked one by one to name the seals at fault.
fn check_seals(keys: &Keys, pending: &[PendingSeal<'_>]) -> Vec<Problem> {
    let check = |chunk: &[PendingSeal<'_>]| -> Vec<Problem> {
        let messages: Vec<Vec<u8>> = chunk.iter().map(|p| seal_message(&p.hash)).collect();
        let items: Vec<(&str, &str, &[u8], &[u8])> = chunk
            .iter()
            .zip(&messages)
            .map(|(p, m)| {
                let s = p.seal;
                (
                    s.service.as_str(),
                    s.key_id.as_str(),
                    m.as_slice(),
                    s.signature.as_slice(),
                )
            })
            .collect();
        if keys.check_all(&items) {
            return Vec::new();
        }
        chunk
            .iter()
            .filter_map(|p| {
                let s = p.seal;
                let f = keys
                    .check(&s.service, &s.key_id, &seal_message(&p.hash), &s.signature)
                    .err()?;
                Some(Problem {
                    position: s.last,
                    stream: p.stream.clone(),
                    version: p.version,
                    message: format!(
                        "the seal of positions {}..{} does not verify: {f} (an event of that append was edited, or the seal forged)",
                        s.first, s.last
                    ),
                    log_wide: false,
                })
            })
            .collect()
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(pending.len().div_ceil(64))
        .max(1);
    if threads == 1 {
        return check(pending);
    }
    let per = pending.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = pending
            .chunks(per)
            .map(|chunk| scope.spawn(move || check(chunk)))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// The state of a walk over consecutive events.
struct Walk<'a> {
    keys: &'a Keys,
    options: &'a VerifyOptions,
    /// Seals before or at this position are vouched for by the anchor.
    after: i64,
    sealed_from: i64,
    newest_log_seal: Option<i64>,
    log_seals: std::iter::Peekable<std::slice::Iter<'a, LogSealRow>>,
    seals: std::iter::Peekable<std::slice::Iter<'a, SealRow>>,
    /// Seals to check: their signatures are verified after the walk, in parallel.
    pending: Vec<PendingSeal<'a>>,
    log_hash: Vec<u8>,
    anchor_hash: Option<Vec<u8>>,
    /// Where the walk has seen the first log-chain mismatch (reported once).
    chain_broken: bool,
    streams: HashMap<String, StreamState>,
    expected_position: i64,
    report: VerifyReport,
}

impl Walk<'_> {
    fn event(&mut self, e: EventRef<'_>) {
        self.report.events += 1;
        let mut problems = Vec::new();
        if e.global_position != self.expected_position {
            problems.push(format!(
                "positions {}..{} are missing (deleted events)",
                self.expected_position,
                e.global_position - 1
            ));
        }
        self.expected_position = e.global_position + 1;
        if !self.streams.contains_key(e.stream) {
            self.streams.insert(
                e.stream.to_owned(),
                StreamState {
                    version: 0,
                    hash: GENESIS.to_vec(),
                },
            );
        }
        let state = self.streams.get_mut(e.stream).expect("inserted");
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
        let computed = hash_of(&e);
        if e.hash != computed {
            problems.push(format!(
                "hash mismatch: stored {}, computed {} (the event was edited)",
                hex::encode(e.hash),
                hex::encode(computed)
            ));
        }
        state.version = e.stream_version;
        state.hash.clear();
        state.hash.extend_from_slice(e.hash);
        let link = log_link(&self.log_hash, e.global_position, e.hash);
        self.log_hash.clear();
        self.log_hash.extend_from_slice(&link);
        if self.options.scope == Scope::Full
            && self
                .options
                .anchor
                .as_ref()
                .is_some_and(|a| a.position == e.global_position)
        {
            self.anchor_hash = Some(self.log_hash.clone());
        }

        // The append's seal, when this is its last event.
        while self
            .seals
            .peek()
            .is_some_and(|s| s.last < e.global_position)
        {
            let s = self.seals.next().expect("peeked");
            problems.push(format!(
                "a seal covers positions {}..{} but no event is at {} (deleted)",
                s.first, s.last, s.last
            ));
        }
        let sealed = self
            .seals
            .peek()
            .is_some_and(|s| s.last == e.global_position);
        if sealed {
            let s = self.seals.next().expect("peeked");
            if e.global_position > self.after {
                if s.service != e.service {
                    problems.push(format!(
                        "sealed for service {:?}, the event names {:?}",
                        s.service, e.service
                    ));
                } else {
                    // Checked after the walk, on every core (`check_seals`).
                    self.pending.push(PendingSeal {
                        seal: s,
                        stream: e.stream.to_owned(),
                        version: e.stream_version,
                        hash: e.hash.to_vec(),
                    });
                }
            }
        } else if e.global_position >= self.sealed_from
            && self
                .seals
                .peek()
                .is_none_or(|s| s.first > e.global_position)
        {
            problems.push("no seal covers this event (inserted without a signature)".into());
        }

        // The commit's log seal, when this is its last event.
        while self
            .log_seals
            .peek()
            .is_some_and(|l| l.position < e.global_position)
        {
            self.log_seals.next();
        }
        if let Some(l) = self.log_seals.next_if(|l| l.position == e.global_position) {
            // At start the newest log seal's signature is enough: every stored log hash is
            // compared with the recomputed chain, and a rewrite up to any of them changes
            // the chain at the newest, whose signature it cannot make again.
            let check_signature = matches!(self.options.signatures, Signatures::All)
                || Some(l.position) == self.newest_log_seal;
            if l.log_hash != self.log_hash && !self.chain_broken {
                self.chain_broken = true;
                problems.push(format!(
                    "the log chain at position {} does not match the signed log seal of that commit: events at or before it were removed, inserted, swapped or re-hashed",
                    l.position
                ));
            } else if check_signature
                && let Err(f) = self.keys.check(
                    self.keys.log_owner(),
                    &l.key_id,
                    &log_message(l.position, &l.log_hash),
                    &l.signature,
                )
                && !self.chain_broken
            {
                self.chain_broken = true;
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
            self.report.problems.push(Problem {
                position: e.global_position,
                stream: e.stream.to_owned(),
                version: e.stream_version,
                message,
                log_wide,
            });
        }
    }

    fn log_problem(&mut self, position: i64, message: String) {
        self.report.problems.push(Problem {
            position,
            stream: String::new(),
            version: 0,
            message,
            log_wide: true,
        });
    }
}

/// A page of the walk: owned events (SQLite's replay path), or PostgreSQL's COPY
/// buffers read in place (ADR platform-011).
enum Page {
    Owned(Vec<RecordedEvent>),
    Raw(Vec<crate::pg_copy_replay::RawPage>),
}

impl Page {
    fn for_each<'p>(&'p self, mut f: impl FnMut(EventRef<'p>) -> Result<()>) -> Result<()> {
        match self {
            Page::Owned(events) => events.iter().try_for_each(|e| f(e.as_ref())),
            Page::Raw(parts) => parts.iter().try_for_each(|p| p.for_each(&mut f)),
        }
    }
}

impl EventStore {
    /// The events at positions `start..before` (SQLite: the page from `start` may hold
    /// events past `before` where positions are missing; the walk skips them).
    async fn check_page(&self, start: i64, before: i64) -> Result<Page> {
        match self.pg_replay() {
            Some(pg) => Ok(Page::Raw(
                crate::pg_copy_replay::raw_range(pg, start, before).await?,
            )),
            None => Ok(Page::Owned(self.read_all(start, before - start).await?)),
        }
    }

    /// [`EventStore::verify_with`] checking every signature, without an anchor.
    pub async fn verify(&self) -> Result<VerifyReport> {
        self.verify_with(&VerifyOptions::default()).await
    }

    /// Checks the log: positions without gaps (a gap is a deleted event), versions
    /// 1..=n per stream in log order (a reordered event breaks this), every hash
    /// recomputed (an edited event), every `prev_hash` linked, the stream heads matching
    /// their last events (a deleted last event); the log chain over every position
    /// against each commit's signed log seal (positions swapped or re-hashed), the seals
    /// of every append (who wrote it), and the anchor (a log cut short or rewritten
    /// while stopped). [`Scope::Full`] walks every event, [`Scope::SinceAnchor`] only
    /// those after the anchor.
    pub async fn verify_with(&self, options: &VerifyOptions) -> Result<VerifyReport> {
        let keys = self.keys().clone();
        let since = match options.scope {
            Scope::SinceAnchor => options.anchor.as_ref(),
            Scope::Full => None,
        };
        let after = match (&options.signatures, &options.anchor) {
            (Signatures::AfterAnchor, Some(a)) => a.position,
            (Signatures::AfterAnchor, None) => 0,
            (Signatures::All, _) => 0,
        };
        let from = since.map_or(0, |a| a.position);
        let snap = self.verify_snapshot(from).await?;
        let mut walk = Walk {
            keys: &keys,
            options,
            after: after.max(from),
            sealed_from: snap.sealed_from,
            newest_log_seal: snap.log_seals.last().map(|l| l.position),
            log_seals: snap.log_seals.iter().peekable(),
            seals: snap.seals.iter().peekable(),
            pending: Vec::new(),
            log_hash: LOG_GENESIS.to_vec(),
            anchor_hash: None,
            chain_broken: false,
            streams: HashMap::new(),
            expected_position: 1,
            report: VerifyReport::default(),
        };

        if let Some(a) = since {
            // The anchor and the log seal of its commit stand for the log up to it.
            if let Err(f) = keys.check(keys.log_owner(), &a.key_id, &a.message(), &a.signature) {
                walk.log_problem(
                    a.position,
                    format!("the anchor's signature does not verify: {f}"),
                );
                return Ok(walk.report);
            }
            if a.position > snap.head {
                walk.log_problem(
                    a.position,
                    format!(
                        "the anchor says the log reached position {}, it ends at {}: events {}..{} were removed",
                        a.position,
                        snap.head,
                        snap.head + 1,
                        a.position
                    ),
                );
                return Ok(walk.report);
            }
            match walk.log_seals.next_if(|l| l.position == a.position) {
                Some(l) if l.log_hash == a.log_hash => {}
                Some(l) => {
                    walk.chain_broken = true;
                    walk.log_problem(
                        a.position,
                        format!(
                            "the anchor says the log chain at position {} is {}, the log seal of that commit says {}: the log was rewritten up to there",
                            a.position,
                            hex::encode(&a.log_hash),
                            hex::encode(&l.log_hash)
                        ),
                    );
                }
                None => {
                    walk.chain_broken = true;
                    walk.log_problem(
                        a.position,
                        format!(
                            "the anchor says a commit ended at position {}, no log seal is there: the log was rewritten up to there",
                            a.position
                        ),
                    );
                }
            }
            walk.log_hash = a.log_hash.clone();
            walk.expected_position = a.position + 1;
        }

        // The events up to the head, page by page (positions `start..start + PAGE`), a
        // page ahead of the checks.
        let end = snap.head.saturating_add(1);
        let read = |start: i64| {
            let store = self.clone();
            let before = start.saturating_add(PAGE).min(end);
            tokio::spawn(async move { store.check_page(start, before).await })
        };
        let mut start = from + 1;
        let mut next = (start < end).then(|| read(start));
        while let Some(pending) = next.take() {
            let page = pending.await.map_err(|e| Error::Invalid {
                field: "verify",
                message: format!("reading the log failed: {e}"),
            })??;
            let before = start.saturating_add(PAGE).min(end);
            if before < end {
                next = Some(read(before));
            }
            let mut events = Vec::new();
            page.for_each(|e| {
                if e.global_position >= start && e.global_position < before {
                    events.push(e);
                }
                Ok(())
            })?;
            if since.is_some() {
                self.continue_streams(&events, &mut walk.streams).await?;
            }
            for e in events {
                walk.event(e);
            }
            start = before;
        }

        let seal_problems = check_seals(&keys, &walk.pending);
        walk.report.problems.extend(seal_problems);
        let last = walk.expected_position - 1;
        let head = snap.head;
        if head != last {
            walk.log_problem(
                head,
                format!(
                    "log head says {head} but the last event is at {last} (events deleted at the end)"
                ),
            );
        }
        if snap.stored_log_hash != walk.log_hash && !walk.chain_broken && head == last {
            walk.log_problem(
                head,
                "the log head's chain hash does not match the events (rewritten)".into(),
            );
        }
        if let (Some(a), None) = (&options.anchor, since) {
            if let Err(f) = keys.check(keys.log_owner(), &a.key_id, &a.message(), &a.signature) {
                walk.log_problem(
                    a.position,
                    format!("the anchor's signature does not verify: {f}"),
                );
            } else if a.position > last {
                walk.log_problem(
                    a.position,
                    format!(
                        "the anchor says the log reached position {}, it ends at {last}: events {}..{} were removed",
                        a.position,
                        last + 1,
                        a.position
                    ),
                );
            } else if walk.anchor_hash.as_deref() != Some(a.log_hash.as_slice()) {
                walk.log_problem(
                    a.position,
                    format!(
                        "the log up to position {} does not match its anchor: events at or before it were edited, removed, inserted or swapped",
                        a.position
                    ),
                );
            }
        }
        let mut report = walk.report;
        let streams = walk.streams;
        report.streams = streams.len() as u64;
        for (stream, version, hash) in snap.heads {
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

    /// The log head, and the seals, log seals and stream heads up to it, in one read
    /// transaction. With `after > 0` (a walk from the anchor at `after`): the log seals
    /// from `after` on, the seals after it and the heads of the streams written after it.
    async fn verify_snapshot(&self, after: i64) -> Result<Snapshot> {
        let backend = self.backend();
        let sql = |s: &str| AssertSqlSafe(placeholders(backend, s));
        let mut tx = match backend {
            Backend::Postgres => {
                self.pool()
                    .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .await?
            }
            Backend::Sqlite => self.pool().begin().await?,
        };
        let row = sqlx::query("SELECT position, log_hash, sealed_from FROM log_head WHERE id = 1")
            .fetch_one(&mut *tx)
            .await?;
        let head: i64 = row.try_get(0)?;
        let stored_log_hash = row
            .try_get::<Option<Vec<u8>>, _>(1)?
            .unwrap_or_else(|| LOG_GENESIS.to_vec());
        let sealed_from: i64 = row.try_get(2)?;
        let log_seals = sqlx::query(sql(
            "SELECT position, log_hash, key_id, signature FROM log_seals \
             WHERE position >= $1 AND position <= $2 ORDER BY position",
        ))
        .bind(after)
        .bind(head)
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
        let seals = sqlx::query(sql(
            "SELECT first_position, last_position, service, key_id, signature FROM seals \
             WHERE last_position > $1 AND last_position <= $2 ORDER BY last_position",
        ))
        .bind(after)
        .bind(head)
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
        let heads = if after == 0 {
            sqlx::query("SELECT stream, version, head_hash FROM streams ORDER BY stream")
                .fetch_all(&mut *tx)
                .await?
        } else {
            sqlx::query(sql(
                "SELECT stream, version, head_hash FROM streams WHERE stream IN \
                 (SELECT stream FROM events WHERE global_position > $1 AND global_position <= $2) \
                 ORDER BY stream",
            ))
            .bind(after)
            .bind(head)
            .fetch_all(&mut *tx)
            .await?
        }
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
        .collect::<Result<_>>()?;
        tx.rollback().await?;
        Ok(Snapshot {
            head,
            stored_log_hash,
            sealed_from,
            log_seals,
            seals,
            heads,
        })
    }

    /// A walk from the anchor: each stream of `page` not seen yet continues from its
    /// event at the version before its first one here (before the anchor, vouched for
    /// by it). A predecessor that is missing leaves an empty hash, so the event's
    /// `prev_hash` is reported.
    async fn continue_streams(
        &self,
        page: &[EventRef<'_>],
        streams: &mut HashMap<String, StreamState>,
    ) -> Result<()> {
        let mut seen = HashSet::new();
        let mut wanted = Vec::new();
        for e in page {
            if !streams.contains_key(e.stream) && seen.insert(e.stream) {
                if e.stream_version <= 1 {
                    streams.insert(
                        e.stream.to_owned(),
                        StreamState {
                            version: 0,
                            hash: GENESIS.to_vec(),
                        },
                    );
                } else {
                    wanted.push((e.stream, e.stream_version - 1));
                }
            }
        }
        for chunk in wanted.chunks(LOOKUP_CHUNK) {
            // One indexed lookup per stream, as arms of one statement: an OR of the
            // same conditions made SQLite scan the whole table.
            let sql = (0..chunk.len())
                .map(|i| {
                    format!(
                        "SELECT stream, hash FROM events WHERE stream = ${} AND stream_version = ${}",
                        2 * i + 1,
                        2 * i + 2
                    )
                })
                .collect::<Vec<_>>()
                .join(" UNION ALL ");
            let mut q = sqlx::query(AssertSqlSafe(placeholders(self.backend(), &sql)));
            for (stream, version) in chunk {
                q = q.bind(*stream).bind(*version);
            }
            let mut found: HashMap<String, Vec<u8>> = HashMap::new();
            for row in q.fetch_all(self.pool()).await? {
                found.insert(row.try_get(0)?, row.try_get(1)?);
            }
            for (stream, version) in chunk {
                streams.insert(
                    (*stream).to_owned(),
                    StreamState {
                        version: *version,
                        hash: found.remove(*stream).unwrap_or_default(),
                    },
                );
            }
        }
        Ok(())
    }
}
