use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, AssertSqlSafe, Executor, Row};
use tokio::sync::watch;

use crate::hash_chain::{GENESIS, event_hash};
use crate::heads::StreamHead;
use crate::signing::{Keys, log_link, log_message, seal_message};
use crate::writer::{Commit, Writer};
use crate::{AppendAck, AppendRequest, Error, RecordedEvent, Result, Seal, migrations};

/// Rewrites `$1, $2, …` placeholders (each used once, in order) into SQLite's anonymous
/// `?`: sqlx binds `$N`/`?N` names through `sqlite3_bind_parameter_name`, a linear scan
/// per parameter, which made multi-row inserts quadratic.
pub(crate) fn placeholders(backend: Backend, sql: &str) -> String {
    match backend {
        Backend::Postgres => sql.to_owned(),
        Backend::Sqlite => {
            let mut out = String::with_capacity(sql.len());
            let mut chars = sql.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
                    while chars.peek().is_some_and(char::is_ascii_digit) {
                        chars.next();
                    }
                    out.push('?');
                } else {
                    out.push(c);
                }
            }
            out
        }
    }
}

/// A connection idle for longer is tested before the pool hands it out.
const TEST_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Pool options that test a connection (a round trip, or a hop to SQLite's worker)
/// only when it was idle for over [`TEST_AFTER_IDLE`], not at every acquire: a busy
/// connection is known to work (ADR platform-011).
macro_rules! test_when_idle {
    ($options:expr) => {
        $options
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for > TEST_AFTER_IDLE {
                        sqlx::Connection::ping(conn).await?;
                    }
                    Ok(true)
                })
            })
    };
}

/// Which database holds the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// One SQLite file in WAL mode (the embedded default).
    Sqlite,
    /// PostgreSQL (the distributed deployment).
    Postgres,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        })
    }
}

/// Columns of `events`, in the order [`decode_row`] reads them.
const COLUMNS: &str = "global_position, event_id, stream, stream_version, event_type, \
    schema_version, payload, recorded_at, actor, command_id, correlation_id, causation_id, \
    reason, rule_edition, service, prev_hash, hash, trace_parent";
const COLUMN_COUNT: usize = 18;
/// The columns, in `RecordedEvent` order, for the binary COPY replay.
pub(crate) const COLUMNS_FOR_COPY: &str = COLUMNS;
/// Events per multi-row INSERT (18 parameters each; SQLite allows 32,766).
const INSERT_CHUNK: usize = 500;
/// Longest stream name accepted.
const MAX_STREAM_LEN: usize = 200;

/// The event log. Cheap to clone (shared pools).
#[derive(Clone)]
pub struct EventStore {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Backend,
    /// Readers.
    pool: AnyPool,
    /// Appends (SQLite: a single connection, so writes are serialised in-process too).
    writer: AnyPool,
    /// Last global position committed by this process.
    head: watch::Sender<i64>,
    /// The last events read at the log's head, shared by the subscriptions that follow
    /// it live ([`Tail`]).
    tail: std::sync::Mutex<Tail>,
    /// One live subscription at a time reads the head from the database; the others
    /// then find it in `tail`.
    tail_fill: tokio::sync::Mutex<()>,
    /// SQLite: the replay read path on the raw handle.
    replay: Option<crate::sqlite_replay::SqliteReplay>,
    /// PostgreSQL: the replay read path on the native driver (no `Any` row copies).
    pg_replay: Option<sqlx::PgPool>,
    /// The append lock: held for the whole of an append, which serialises this
    /// process's appends; it holds the heads this process knows and the fast path's
    /// connection (ADR platform-011).
    append_lock: tokio::sync::Mutex<Writer>,
    /// Signing keys (seals) and trusted public keys.
    keys: Arc<Keys>,
    /// Set when the log must not grow (it failed its check): every append is refused.
    refusal: std::sync::RwLock<Option<String>>,
    /// Concurrent single appends committed together (ADR platform-015).
    group: crate::group_commit::GroupCommit,
}

/// What a command id's first use recorded: its stream, its (replayed) ack and the
/// digest of its request.
type CommandRecord = (String, AppendAck, Option<Vec<u8>>);

/// The file of a `sqlite://PATH[?…]` URL (`None`: in memory).
fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() || path == ":memory:" || query.contains("mode=memory") {
        return None;
    }
    Some(std::path::PathBuf::from(path))
}

/// The log holds personal data: its file is created 0600 before SQLite opens it (SQLite
/// gives its `-wal` and `-shm` files the database file's mode), and a log file, `-wal`
/// or `-shm` that others may read is made 0600 (ADR platform-010).
fn private_sqlite_files(path: &std::path::Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let err = |p: &std::path::Path, e: std::io::Error| {
            Error::invalid("database_url", format!("{}: {e}", p.display()))
        };
        if !path.exists() {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
            {
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                // Let SQLite say what is wrong (e.g. a missing directory).
                Err(_) => return Ok(()),
            }
        }
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let p = std::path::PathBuf::from(p);
            if let Ok(m) = std::fs::metadata(&p)
                && m.permissions().mode() & 0o077 != 0
            {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| err(&p, e))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl EventStore {
    /// Opens (creating if needed) the log at `url` and runs the migrations.
    ///
    /// `sqlite://PATH` (file created if missing; WAL, `synchronous=FULL`) or
    /// `postgres://…`. The database must exist for PostgreSQL.
    ///
    /// Seals are made with ephemeral keys (see [`Keys::ephemeral`]): for tests and
    /// tools; a service opens its log with [`EventStore::open_with`].
    pub async fn open(url: &str) -> Result<Self> {
        Self::open_with(url, Keys::ephemeral("eventlog")).await
    }

    /// Opens the log at `url` (as [`EventStore::open`]) sealing with `keys`.
    pub async fn open_with(url: &str, keys: Arc<Keys>) -> Result<Self> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(Error::invalid(
                "database_url",
                format!("unsupported scheme in {url:?}: use sqlite://PATH or postgres://…"),
            ));
        };
        let mut replay = None;
        let mut pg_replay = None;
        let url = match backend {
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_owned(),
        };
        let url = url.as_str();
        let (pool, writer) = match backend {
            Backend::Sqlite => {
                if let Some(path) = sqlite_path(url) {
                    private_sqlite_files(&path)?;
                }
                let opts = || {
                    test_when_idle!(AnyPoolOptions::new()).after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            conn.execute("PRAGMA synchronous = FULL").await?;
                            conn.execute("PRAGMA busy_timeout = 10000").await?;
                            Ok(())
                        })
                    })
                };
                let writer = opts().max_connections(1).connect(url).await?;
                let pool = opts().max_connections(4).connect(url).await?;
                let native: sqlx::sqlite::SqliteConnectOptions = url.parse()?;
                replay = Some(native);
                (pool, writer)
            }
            Backend::Postgres => {
                let pool = test_when_idle!(AnyPoolOptions::new())
                    .max_connections(8)
                    .connect(url)
                    .await?;
                pg_replay = Some(
                    test_when_idle!(sqlx::postgres::PgPoolOptions::new())
                        .max_connections(2)
                        .connect(url)
                        .await?,
                );
                (pool.clone(), pool)
            }
        };
        migrations::migrator(backend).run(&writer).await?;
        // Opened after the migrations: the replay connection is read-only.
        let replay = match replay {
            Some(options) => Some(crate::sqlite_replay::SqliteReplay::open(options).await?),
            None => None,
        };
        let head: i64 = sqlx::query_scalar("SELECT position FROM log_head WHERE id = 1")
            .fetch_one(&pool)
            .await?;
        let (head, _) = watch::channel(head);
        let store = EventStore {
            inner: Arc::new(Inner {
                backend,
                pool,
                writer,
                head,
                tail: std::sync::Mutex::new(Tail::default()),
                tail_fill: tokio::sync::Mutex::new(()),
                replay,
                pg_replay,
                append_lock: tokio::sync::Mutex::new(Writer::new(backend, url)),
                keys,
                refusal: std::sync::RwLock::new(None),
                group: Default::default(),
            }),
        };
        store.chain_legacy_events().await?;
        store.trust_rotations().await?;
        Ok(store)
    }

    /// A log written before events were signed has no log-chain hash: compute it once
    /// over the events it has (they stay unsealed: `sealed_from` says where seals begin).
    async fn chain_legacy_events(&self) -> Result<()> {
        let row = sqlx::query("SELECT position, log_hash FROM log_head WHERE id = 1")
            .fetch_one(&self.inner.pool)
            .await?;
        let position: i64 = row.try_get(0)?;
        if row.try_get::<Option<Vec<u8>>, _>(1)?.is_some() {
            return Ok(());
        }
        let mut log_hash = crate::signing::LOG_GENESIS.to_vec();
        let mut from = 1;
        while from <= position {
            let page = self.read_all(from, 10_000).await?;
            let Some(last) = page.last() else { break };
            from = last.global_position + 1;
            for e in &page {
                log_hash = log_link(&log_hash, e.global_position, &e.hash).to_vec();
            }
        }
        if position > 0 {
            tracing::warn!(
                events = position,
                "event log written before signing: its events stay unsealed; the log chain now covers them"
            );
        }
        sqlx::query(AssertSqlSafe(placeholders(
            self.inner.backend,
            "UPDATE log_head SET log_hash = $1 WHERE id = 1",
        )))
        .bind(log_hash)
        .execute(&self.inner.writer)
        .await?;
        Ok(())
    }

    /// Replaces `service`'s signing key: a `SigningKeyRotated` event on stream
    /// `keys-<service>`, sealed by the old key (so whoever trusts the old key can trust
    /// the new one), then the new key in use. Returns (old key id, new key id).
    pub async fn rotate_key(&self, service: &str) -> Result<(String, String)> {
        use prost::Message as _;
        let pending = self.inner.keys.prepare_rotation(service)?;
        let (old_id, new_id) = (
            pending.old.key_id().to_owned(),
            pending.new.key_id().to_owned(),
        );
        let payload = arbiter_proto::v1::SigningKeyRotated {
            service: service.to_owned(),
            previous_key_id: old_id.clone(),
            key_id: new_id.clone(),
            public_key: pending.new.public_key().as_bytes().to_vec(),
            possession: pending
                .new
                .sign(&crate::signing::rotation_message(service, &old_id)),
        }
        .encode_to_vec();
        self.append(AppendRequest {
            stream: format!("keys-{service}"),
            expected_version: None,
            events: vec![crate::NewEvent {
                event_type: "SigningKeyRotated".into(),
                schema_version: 1,
                payload,
            }],
            context: crate::CommandContext {
                command_id: format!("rotate-key:{new_id}"),
                actor: format!("{service} (key rotation)"),
                reason: format!("signing key {old_id} replaced by {new_id}"),
                service: service.to_owned(),
                ..Default::default()
            },
        })
        .await?;
        self.inner.keys.install(pending)?;
        Ok((old_id, new_id))
    }

    /// Trusts the keys the log's `SigningKeyRotated` events announce, in log order, each
    /// only when its seal verifies by a key already trusted for its service. The streams
    /// `keys-…` are read through the (stream, version) index, not by a scan of the log.
    async fn trust_rotations(&self) -> Result<()> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream >= 'keys-' AND stream < 'keys.' \
             AND event_type = 'SigningKeyRotated' ORDER BY global_position"
        );
        let rows = sqlx::query(AssertSqlSafe(sql))
            .fetch_all(&self.inner.pool)
            .await?;
        for row in &rows {
            let e = decode_row(row)?;
            let seal = self
                .seals_between(e.global_position, e.global_position)
                .await?
                .into_iter()
                .find(|(_, last, _)| *last == e.global_position);
            let Some((_, _, seal)) = seal else { continue };
            let ok = e.hash == event_hash(&e)
                && self
                    .inner
                    .keys
                    .check(
                        &e.service,
                        &seal.key_id,
                        &seal_message(&e.hash),
                        &seal.signature,
                    )
                    .is_ok();
            if !ok {
                tracing::error!(
                    position = e.global_position,
                    "a key rotation whose seal does not verify is ignored"
                );
                continue;
            }
            if let Err(why) = self.inner.keys.trust_rotation(&e, &seal.key_id) {
                tracing::error!(position = e.global_position, %why, "key rotation ignored");
            }
        }
        Ok(())
    }

    /// Refuses every append from now on ([`Error::ReadOnly`] with `why`): a log that
    /// failed its check must not grow, whoever writes (handlers, device streams, the
    /// services' own tasks, mirrors).
    pub fn refuse_appends(&self, why: String) {
        *self
            .inner
            .refusal
            .write()
            .unwrap_or_else(|p| p.into_inner()) = Some(why);
    }

    fn refused(&self) -> Result<()> {
        match &*self.inner.refusal.read().unwrap_or_else(|p| p.into_inner()) {
            Some(why) => Err(Error::ReadOnly(why.clone())),
            None => Ok(()),
        }
    }

    /// The keys this log seals with and verifies against.
    pub fn keys(&self) -> &Arc<Keys> {
        &self.inner.keys
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.inner.backend
    }

    /// Closes the pools (waits for in-flight queries).
    pub async fn close(&self) {
        self.inner.append_lock.lock().await.close().await;
        if let Some(r) = &self.inner.replay {
            r.close().await;
        }
        if let Some(p) = &self.inner.pg_replay {
            p.close().await;
        }
        self.inner.writer.close().await;
        self.inner.pool.close().await;
    }

    /// Appends events to one stream, atomically, with their outbox rows.
    ///
    /// Errors: [`Error::Conflict`] when `expected_version` is stale,
    /// [`Error::CommandIdReused`] when the command id belongs to another stream,
    /// [`Error::Invalid`] for a malformed request. Nothing is written on error.
    pub async fn append(&self, req: AppendRequest) -> Result<AppendAck> {
        validate(&req)?;
        self.refused()?;
        self.inner.group.append(self, req).await
    }

    /// Group commit: appends several requests (any streams, each with its own
    /// `expected_version` and command id) in ONE transaction, so a burst of small
    /// appends costs one durable commit (one fsync on SQLite) instead of one each.
    ///
    /// Per-request semantics are exactly those of [`EventStore::append`] applied to the
    /// requests one after the other, in order: each gets its own outcome in the returned
    /// vector (same index). A request that [`append`](EventStore::append) would refuse
    /// ([`Error::Conflict`], [`Error::CommandIdReused`], [`Error::Invalid`]) gets that
    /// same error and writes nothing, and the other requests still commit. A later
    /// request sees what the earlier ones of the batch wrote (a second request on the
    /// same stream must expect the version the first one left; a command id repeated in
    /// the batch is answered as a replay of its first use). Positions stay gap-free and
    /// in batch order.
    ///
    /// The outer `Err` is a failure of the database itself (connection, I/O): then
    /// nothing of the batch is written and the caller may retry the batch, or its
    /// requests one by one with [`EventStore::append`] (idempotent by command id).
    pub async fn append_batch(&self, reqs: &[AppendRequest]) -> Result<Vec<Result<AppendAck>>> {
        self.append_requests(reqs, false).await
    }

    /// [`append_batch`](Self::append_batch) all or nothing: when any request would be
    /// refused (its expected version, its command id), nothing of the batch is written;
    /// the refused requests get their error and the others
    /// [`Error::NotWritten`]. Requests that are retries of commands already written
    /// answer as retries (a batch retried whole writes nothing twice).
    pub async fn append_all(&self, reqs: &[AppendRequest]) -> Result<Vec<Result<AppendAck>>> {
        self.append_requests(reqs, true).await
    }

    async fn append_requests(
        &self,
        reqs: &[AppendRequest],
        all_or_nothing: bool,
    ) -> Result<Vec<Result<AppendAck>>> {
        if reqs.is_empty() {
            return Ok(Vec::new());
        }
        self.refused()?;
        // One append at a time in this process (the database serialises them on the log
        // head anyway), so the heads it knows stay its own (ADR platform-011).
        let mut writer = self.inner.append_lock.lock().await;
        writer.taken();
        match self
            .append_from_known_heads(&mut writer, reqs, all_or_nothing)
            .await
        {
            Ok(Some(outcomes)) => return Ok(outcomes),
            Ok(None) => {}
            Err(e) => {
                writer.heads.forget();
                return Err(e);
            }
        }
        let result = self.append_locked(&mut writer, reqs, all_or_nothing).await;
        if result.is_err() {
            writer.reset();
        }
        result
    }

    /// The fast path (ADR platform-011): every stream the batch names has a known head,
    /// so nothing is read; the batch is decided in memory and written in one call (one
    /// statement in autocommit on PostgreSQL, `BEGIN IMMEDIATE … COMMIT` in one script on
    /// SQLite). `None` when it does not apply: a stream not known, a request refused for
    /// its expected version (decided again from the database), or the write refused by a
    /// key (someone else appended since, or a command id was used before) — then nothing
    /// was written and the locked path decides.
    async fn append_from_known_heads(
        &self,
        writer: &mut Writer,
        reqs: &[AppendRequest],
        all_or_nothing: bool,
    ) -> Result<Option<Vec<Result<AppendAck>>>> {
        let valid: Vec<Result<()>> = reqs.iter().map(validate).collect();
        let names = reqs
            .iter()
            .zip(&valid)
            .filter(|(_, ok)| ok.is_ok())
            .map(|(r, _)| r.stream.as_str());
        let Some((start, start_log_hash, mut streams)) = writer.heads.lookup(names) else {
            return Ok(None);
        };
        let mut commands = HashMap::new();
        let plan = decide(
            &self.inner.keys,
            reqs,
            valid,
            start,
            &mut streams,
            &mut commands,
        );
        // A refusal of an all-or-nothing batch is judged on the database's heads.
        if plan.conflict || (all_or_nothing && plan.outcomes.iter().any(Result::is_err)) {
            return Ok(None);
        }
        if plan.head == start {
            return Ok(Some(plan.outcomes));
        }
        let touched = touched(&plan.recorded, &streams);
        let log_seal = self.log_seal(plan.head, chain(start_log_hash, &plan.recorded))?;
        let commit = Commit {
            events: &plan.recorded,
            streams: &touched,
            commands: &plan.commands,
            seals: &plan.seals,
            log_seal: &log_seal,
        };
        match writer.commit(&commit).await {
            Ok(()) => {
                writer
                    .heads
                    .committed(plan.head, log_seal.log_hash, touched);
                self.advance_head(plan.head);
                Ok(Some(plan.outcomes))
            }
            Err(e) if is_unique_violation(&e) => {
                writer.heads.forget();
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The locked path: the log head is locked and every stream and command id the batch
    /// names is read from the database, then the batch is decided and written in the
    /// same transaction.
    async fn append_locked(
        &self,
        writer: &mut Writer,
        reqs: &[AppendRequest],
        all_or_nothing: bool,
    ) -> Result<Vec<Result<AppendAck>>> {
        let backend = self.inner.backend;
        let valid: Vec<Result<()>> = reqs.iter().map(validate).collect();
        let (mut tx, heads) = writer.begin_locked(&self.inner.writer).await?;
        // One request (a durable single commit): its stream and command id are read in
        // one statement — on SQLite with the log head too (BEGIN IMMEDIATE already holds
        // the write lock); on PostgreSQL after the head's row lock, so that the read's
        // snapshot sees the previous append.
        let single = match (reqs, valid.as_slice()) {
            ([r], [Ok(())]) => Some(r),
            _ => None,
        };
        let (start, start_log_hash, mut streams, mut commands) = match single {
            Some(r) => {
                let joined = backend == Backend::Sqlite;
                let lock = if joined {
                    None
                } else {
                    Some(lock_head(backend, &mut tx).await?)
                };
                let (head, streams, commands) = load_one(backend, &mut tx, r, joined).await?;
                let (start, log_hash) = match lock {
                    Some(l) => l,
                    None => head.ok_or_else(|| Error::invalid("log_head", "missing"))?,
                };
                (start, log_hash, streams, commands)
            }
            None => {
                let (start, log_hash) = lock_head(backend, &mut tx).await?;
                (start, log_hash, HashMap::new(), HashMap::new())
            }
        };
        heads.observed(start, &start_log_hash);
        // Set-based: the streams and command ids the batch names are read in a few
        // statements, the requests are decided in memory in order (each seeing what
        // the earlier ones wrote), and everything accepted is written in a few
        // multi-row statements.
        let named = |f: fn(&AppendRequest) -> &str| {
            let mut v: Vec<&str> = reqs
                .iter()
                .zip(&valid)
                .filter(|(_, ok)| ok.is_ok())
                .map(|(r, _)| f(r))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        if single.is_none() {
            streams = load_streams(backend, &mut tx, &named(|r| &r.stream)).await?;
            commands = load_commands(backend, &mut tx, &named(|r| &r.context.command_id)).await?;
        }
        let plan = decide(
            &self.inner.keys,
            reqs,
            valid,
            start,
            &mut streams,
            &mut commands,
        );
        if all_or_nothing && plan.outcomes.iter().any(Result::is_err) {
            tx.rollback().await?;
            return Ok(plan
                .outcomes
                .into_iter()
                .map(|o| o.and(Err(Error::NotWritten)))
                .collect());
        }
        if plan.head == start {
            tx.rollback().await?;
            // The heads read are the database's under the lock.
            heads.committed(start, start_log_hash, streams);
            return Ok(plan.outcomes);
        }
        let touched = touched(&plan.recorded, &streams);
        let log_seal = self.log_seal(plan.head, chain(start_log_hash, &plan.recorded))?;
        match backend {
            // Events, outbox rows and the tail in one script.
            Backend::Sqlite => {
                let commit = Commit {
                    events: &plan.recorded,
                    streams: &touched,
                    commands: &plan.commands,
                    seals: &plan.seals,
                    log_seal: &log_seal,
                };
                commit_script(&commit).query().execute(&mut *tx).await?;
            }
            // The PostgreSQL statement binds one append's shared values once.
            Backend::Postgres => {
                for span in &plan.spans {
                    for chunk in plan.recorded[span.clone()].chunks(INSERT_CHUNK) {
                        insert_events(backend, &mut tx, chunk, true).await?;
                    }
                }
                write_tail(
                    backend,
                    &mut tx,
                    &touched,
                    &plan.commands,
                    &plan.seals,
                    &log_seal,
                )
                .await?;
            }
        }
        tx.commit().await?;
        heads.committed(plan.head, log_seal.log_hash, touched);
        self.advance_head(plan.head);
        Ok(plan.outcomes)
    }

    /// The log owner's seal of the log chain at `head` (the commit's last position).
    fn log_seal(&self, head: i64, log_hash: Vec<u8>) -> Result<LogSealRow> {
        let signer = self.inner.keys.signer(self.inner.keys.log_owner())?;
        Ok(LogSealRow {
            position: head,
            signature: signer.sign(&log_message(head, &log_hash)),
            log_hash,
            key_id: signer.key_id().to_owned(),
        })
    }

    /// Appends verbatim copies of another service's events (a mirror, distributed
    /// mode): `events` are consecutive versions of one stream, the last one sealed by
    /// `seal`. Each is checked before anything is written: the versions follow the
    /// local stream head, every `prev_hash` links, every hash is recomputed, and the
    /// seal is a valid signature, by a trusted key of the service the events name, of
    /// the last event's hash. Copies keep their event id, command id, actor, time and
    /// hashes, get local positions (sealed in the local log chain), and no outbox row
    /// (they are not published again). Copies already present are skipped.
    pub async fn append_copy(&self, events: &[RecordedEvent], seal: &Seal) -> Result<AppendAck> {
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            return Err(Error::invalid("events", "at least one event is required"));
        };
        let unsealed = |version: i64, message: String| Error::Unsealed {
            stream: first.stream.clone(),
            version,
            message,
        };
        if seal.version != last.stream_version {
            return Err(unsealed(
                last.stream_version,
                format!("the seal is for version {}, not this one", seal.version),
            ));
        }
        for (i, e) in events.iter().enumerate() {
            if e.stream != first.stream
                || e.service != first.service
                || e.stream_version != first.stream_version + i as i64
            {
                return Err(unsealed(
                    e.stream_version,
                    "copies must be consecutive versions of one stream of one service".into(),
                ));
            }
            if i > 0 && e.prev_hash != events[i - 1].hash {
                return Err(unsealed(
                    e.stream_version,
                    "prev_hash does not link to the version before".into(),
                ));
            }
            if e.hash != event_hash(e) {
                return Err(unsealed(
                    e.stream_version,
                    "the hash does not match the event (edited)".into(),
                ));
            }
        }
        self.refused()?;
        if seal.service != first.service {
            return Err(unsealed(
                last.stream_version,
                format!(
                    "sealed by service {:?}, the events name {:?}",
                    seal.service, first.service
                ),
            ));
        }
        self.inner
            .keys
            .check(
                &seal.service,
                &seal.key_id,
                &seal_message(&last.hash),
                &seal.signature,
            )
            .map_err(|f| unsealed(last.stream_version, f.to_string()))?;

        let mut writer = self.inner.append_lock.lock().await;
        writer.taken();
        let copied = self.copy_locked(&mut writer, events, seal).await;
        if copied.is_err() {
            writer.reset();
        }
        copied
    }

    /// [`EventStore::append_copy`] once the copies and their seal are checked: the log
    /// head locked, the local stream head read, the new copies written.
    async fn copy_locked(
        &self,
        writer: &mut Writer,
        events: &[RecordedEvent],
        seal: &Seal,
    ) -> Result<AppendAck> {
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            return Err(Error::invalid("events", "at least one event is required"));
        };
        let unsealed = |version: i64, message: String| Error::Unsealed {
            stream: first.stream.clone(),
            version,
            message,
        };
        let backend = self.inner.backend;
        let (mut tx, heads) = writer.begin_locked(&self.inner.writer).await?;
        let (head, log_hash) = lock_head(backend, &mut tx).await?;
        heads.observed(head, &log_hash);
        let (version, head_hash) = load_streams(backend, &mut tx, &[first.stream.as_str()])
            .await?
            .remove(&first.stream)
            .unwrap_or_else(|| (0, GENESIS.to_vec()));
        let new: Vec<&RecordedEvent> = events
            .iter()
            .filter(|e| e.stream_version > version)
            .collect();
        let Some(first_new) = new.first() else {
            tx.rollback().await?;
            return Ok(AppendAck {
                first_position: 0,
                last_position: 0,
                stream_version: version,
                replayed: true,
            });
        };
        if first_new.stream_version != version + 1 {
            tx.rollback().await?;
            return Err(Error::Conflict {
                stream: first.stream.clone(),
                expected: first_new.stream_version - 1,
                actual: version,
            });
        }
        if first_new.prev_hash != head_hash {
            tx.rollback().await?;
            return Err(unsealed(
                first_new.stream_version,
                "prev_hash does not link to the local copy of the version before".into(),
            ));
        }
        let copies: Vec<RecordedEvent> = new
            .iter()
            .enumerate()
            .map(|(i, e)| RecordedEvent {
                global_position: head + 1 + i as i64,
                ..(*e).clone()
            })
            .collect();
        let n = copies.len() as i64;
        for chunk in copies.chunks(INSERT_CHUNK) {
            insert_events(backend, &mut tx, chunk, false).await?;
        }
        sqlx::query(AssertSqlSafe(placeholders(
            backend,
            "INSERT INTO streams (stream, version, head_hash) VALUES ($1, $2, $3) \
             ON CONFLICT (stream) DO UPDATE SET version = excluded.version, \
             head_hash = excluded.head_hash",
        )))
        .bind(first.stream.clone())
        .bind(last.stream_version)
        .bind(last.hash.clone())
        .execute(&mut *tx)
        .await?;
        insert_seals(
            backend,
            &mut tx,
            &[SealRow {
                first_position: head + 1,
                last_position: head + n,
                stream: first.stream.clone(),
                service: seal.service.clone(),
                key_id: seal.key_id.clone(),
                signature: seal.signature.clone(),
            }],
        )
        .await?;
        let mut chained = log_hash;
        for e in &copies {
            chained = log_link(&chained, e.global_position, &e.hash).to_vec();
        }
        let log_seal = self.log_seal(head + n, chained)?;
        write_log_seal(backend, &mut tx, &log_seal).await?;
        tx.commit().await?;
        heads.committed(
            head + n,
            log_seal.log_hash,
            [(
                first.stream.clone(),
                (last.stream_version, last.hash.clone()),
            )],
        );
        self.advance_head(head + n);
        Ok(AppendAck {
            first_position: head + 1,
            last_position: head + n,
            stream_version: last.stream_version,
            replayed: false,
        })
    }

    /// The seals covering positions `from..=to`, by last position.
    pub async fn seals_between(&self, from: i64, to: i64) -> Result<Vec<(i64, i64, Seal)>> {
        let rows = sqlx::query(AssertSqlSafe(placeholders(
            self.inner.backend,
            "SELECT s.first_position, s.last_position, s.service, s.key_id, s.signature, \
             e.stream_version FROM seals s JOIN events e ON e.global_position = s.last_position \
             WHERE s.last_position >= $1 AND s.first_position <= $2 ORDER BY s.last_position",
        )))
        .bind(from)
        .bind(to)
        .fetch_all(&self.inner.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    Seal {
                        service: r.try_get(2)?,
                        key_id: r.try_get(3)?,
                        signature: r.try_get(4)?,
                        version: r.try_get(5)?,
                    },
                ))
            })
            .collect()
    }

    /// The log's head: its position and the log chain's hash there.
    pub async fn log_head(&self) -> Result<(i64, Vec<u8>)> {
        let row = sqlx::query("SELECT position, log_hash FROM log_head WHERE id = 1")
            .fetch_one(&self.inner.pool)
            .await?;
        Ok((
            row.try_get(0)?,
            row.try_get::<Option<Vec<u8>>, _>(1)?
                .unwrap_or_else(|| crate::signing::LOG_GENESIS.to_vec()),
        ))
    }

    /// The head as an anchor, signed by the log owner's key (`None` for an empty log).
    pub async fn anchor(&self) -> Result<Option<crate::anchor::Anchor>> {
        let (position, log_hash) = self.log_head().await?;
        if position == 0 {
            return Ok(None);
        }
        let signer = self.inner.keys.signer(self.inner.keys.log_owner())?;
        let signature = signer.sign(&log_message(position, &log_hash));
        Ok(Some(crate::anchor::Anchor {
            position,
            log_hash,
            key_id: signer.key_id().to_owned(),
            signature,
            written_at_micros: now_micros(),
        }))
    }

    /// Tells subscribers that the log reached `last`.
    fn advance_head(&self, last: i64) {
        self.inner.head.send_if_modified(|h| {
            let changed = *h < last;
            *h = (*h).max(last);
            changed
        });
    }

    /// What a command id wrote, if it was applied: its stream and positions (as a
    /// replayed ack). Lets a handler answer a retry before deciding anything, e.g.
    /// when the command would create a new stream under a fresh id.
    pub async fn find_command(&self, command_id: &str) -> Result<Option<(String, AppendAck)>> {
        let row = sqlx::query(
            "SELECT stream, first_position, last_position, stream_version FROM commands \
             WHERE command_id = $1",
        )
        .bind(command_id)
        .fetch_optional(&self.inner.pool)
        .await?;
        row.map(|row| {
            Ok((
                row.try_get(0)?,
                AppendAck {
                    first_position: row.try_get(1)?,
                    last_position: row.try_get(2)?,
                    stream_version: row.try_get(3)?,
                    replayed: true,
                },
            ))
        })
        .transpose()
    }

    /// The request digest a command id's first use recorded (`None`: not applied, or
    /// applied without a digest).
    pub async fn command_digest(&self, command_id: &str) -> Result<Option<Vec<u8>>> {
        let d: Option<Option<Vec<u8>>> = sqlx::query_scalar(AssertSqlSafe(placeholders(
            self.inner.backend,
            "SELECT request_digest FROM commands WHERE command_id = $1",
        )))
        .bind(command_id)
        .fetch_optional(&self.inner.pool)
        .await?;
        Ok(d.flatten().filter(|d| !d.is_empty()))
    }

    /// Events of `stream` with version ≥ `from_version`, in version order.
    pub async fn read_stream(&self, stream: &str, from_version: i64) -> Result<Vec<RecordedEvent>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream = $1 AND stream_version >= $2 \
             ORDER BY stream_version"
        );
        let rows = sqlx::query(AssertSqlSafe(placeholders(self.inner.backend, &sql)))
            .bind(stream)
            .bind(from_version)
            .fetch_all(&self.inner.pool)
            .await?;
        rows.iter().map(decode_row).collect()
    }

    /// Up to `limit` events of `stream` with version ≥ `from_version`, in version order:
    /// a stream read in pages (a page ends before `from_version + limit`).
    pub async fn read_stream_page(
        &self,
        stream: &str,
        from_version: i64,
        limit: i64,
    ) -> Result<Vec<RecordedEvent>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream = $1 AND stream_version >= $2 \
             ORDER BY stream_version LIMIT $3"
        );
        let rows = sqlx::query(AssertSqlSafe(placeholders(self.inner.backend, &sql)))
            .bind(stream)
            .bind(from_version)
            .bind(limit.max(0))
            .fetch_all(&self.inner.pool)
            .await?;
        rows.iter().map(decode_row).collect()
    }

    /// Up to `limit` events with global position ≥ `from_position`, in log order.
    pub async fn read_all(&self, from_position: i64, limit: i64) -> Result<Vec<RecordedEvent>> {
        if let Some(replay) = &self.inner.replay {
            return replay.page(from_position, limit).await;
        }
        if let Some(pg) = &self.inner.pg_replay {
            return crate::pg_copy_replay::page(pg, from_position, limit).await;
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE global_position >= $1 \
             ORDER BY global_position LIMIT $2"
        );
        let rows = sqlx::query(AssertSqlSafe(placeholders(self.inner.backend, &sql)))
            .bind(from_position)
            .bind(limit)
            .fetch_all(&self.inner.pool)
            .await?;
        rows.iter().map(decode_row).collect()
    }

    /// The events at `positions`, in log order (positions absent from the log are
    /// skipped): what a projection's index of one tournament names, read without a scan
    /// of the log (ADR registry-003).
    pub async fn read_positions(&self, positions: &[i64]) -> Result<Vec<RecordedEvent>> {
        // Far below SQLite's and PostgreSQL's limits on bound parameters.
        const CHUNK: usize = 500;
        let mut sorted = positions.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut out = Vec::with_capacity(sorted.len());
        for chunk in sorted.chunks(CHUNK) {
            let list = (1..=chunk.len())
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "SELECT {COLUMNS} FROM events WHERE global_position IN ({list}) \
                 ORDER BY global_position"
            );
            let mut q = sqlx::query(AssertSqlSafe(placeholders(self.inner.backend, &sql)));
            for p in chunk {
                q = q.bind(*p);
            }
            for row in q.fetch_all(&self.inner.pool).await? {
                out.push(decode_row(&row)?);
            }
        }
        Ok(out)
    }

    /// The event at `position`, if any.
    pub async fn read_at(&self, position: i64) -> Result<Option<RecordedEvent>> {
        Ok(self.read_all(position, 1).await?.into_iter().next())
    }

    /// Asks the database for an answer (`SELECT 1`): the health probe's question.
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.inner.pool).await?;
        Ok(())
    }

    /// Global position of the last committed event (0 when empty).
    pub async fn head_position(&self) -> Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT position FROM log_head WHERE id = 1")
                .fetch_one(&self.inner.pool)
                .await?,
        )
    }

    /// Current version of `stream` (0 when it does not exist).
    pub async fn stream_version(&self, stream: &str) -> Result<i64> {
        Ok(sqlx::query_scalar(AssertSqlSafe(placeholders(
            self.inner.backend,
            "SELECT version FROM streams WHERE stream = $1",
        )))
        .bind(stream)
        .fetch_optional(&self.inner.pool)
        .await?
        .unwrap_or(0))
    }

    /// Every event from `from_position` on: first the stored ones (catch-up), then
    /// new ones as they are committed (live). Appends by this process wake it at
    /// once; other processes' appends are seen within `poll` (PostgreSQL).
    pub fn subscribe(&self, from_position: i64) -> Subscription {
        Subscription {
            store: self.clone(),
            next_position: from_position.max(1),
            buffer: VecDeque::new(),
            head: self.inner.head.subscribe(),
            poll: Duration::from_millis(200),
            poll_due: true,
        }
    }

    /// Events of the outbox not yet published, oldest first (an outbox row covers the
    /// positions `global_position ..= last_position` of one commit; ADR platform-011).
    pub async fn outbox_pending(&self, limit: i64) -> Result<Vec<RecordedEvent>> {
        let cols = COLUMNS
            .split(", ")
            .map(|c| format!("e.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {cols} FROM outbox o JOIN events e ON e.global_position >= o.global_position \
             AND e.global_position <= {OUTBOX_LAST} ORDER BY e.global_position LIMIT $1"
        );
        let rows = sqlx::query(AssertSqlSafe(placeholders(self.inner.backend, &sql)))
            .bind(limit)
            .fetch_all(&self.inner.pool)
            .await?;
        rows.iter().map(decode_row).collect()
    }

    /// Marks events of the outbox as published: each run of consecutive positions is
    /// taken out of the rows that cover it (a row cut by a run keeps what is left on
    /// either side), in one transaction.
    pub async fn outbox_ack(&self, positions: &[i64]) -> Result<()> {
        let runs = consecutive_runs(positions);
        if runs.is_empty() {
            return Ok(());
        }
        let b = self.inner.backend;
        let mut tx = self.inner.writer.begin().await?;
        for (a, z) in runs {
            // Each statement's parameters in the order they appear (SQLite's are `?`).
            let steps: [(String, &[i64]); 4] = [
                // A row reaching past both ends of the run: its tail becomes a row.
                (
                    format!(
                        "INSERT INTO outbox (global_position, last_position) \
                         SELECT $1, {OUTBOX_LAST} FROM outbox o \
                         WHERE o.global_position < $2 AND {OUTBOX_LAST} > $3"
                    ),
                    &[z + 1, a, z],
                ),
                // A row starting before the run and reaching into it: it ends before it.
                (
                    format!(
                        "UPDATE outbox SET last_position = $1 WHERE global_position < $2 \
                         AND {OUTBOX_LAST_OF_TABLE} >= $3"
                    ),
                    &[a - 1, a, a],
                ),
                // Rows inside the run: published.
                (
                    format!(
                        "DELETE FROM outbox WHERE global_position >= $1 \
                         AND {OUTBOX_LAST_OF_TABLE} <= $2"
                    ),
                    &[a, z],
                ),
                // A row starting inside the run and ending after it: it starts after it.
                (
                    format!(
                        "UPDATE outbox SET global_position = $1 WHERE global_position >= $2 \
                         AND global_position <= $3 AND {OUTBOX_LAST_OF_TABLE} > $4"
                    ),
                    &[z + 1, a, z, z],
                ),
            ];
            for (sql, values) in steps {
                let mut q = sqlx::query(AssertSqlSafe(placeholders(b, &sql)));
                for v in values {
                    q = q.bind(*v);
                }
                q.execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Number of events in the outbox not yet published.
    pub async fn outbox_len(&self) -> Result<i64> {
        Ok(sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT CAST(COALESCE(SUM({OUTBOX_LAST} - o.global_position + 1), 0) AS BIGINT) \
             FROM outbox o"
        )))
        .fetch_one(&self.inner.pool)
        .await?)
    }

    /// Test hook: the append lock, held (nothing commits while it is held).
    #[cfg(test)]
    pub(crate) async fn hold_appends(&self) -> tokio::sync::MutexGuard<'_, Writer> {
        self.inner.append_lock.lock().await
    }

    /// Test hook: the group-commit queue.
    #[cfg(test)]
    pub(crate) fn inner_group(&self) -> &crate::group_commit::GroupCommit {
        &self.inner.group
    }

    /// Test hook: the number of commits (one outbox row each, ADR platform-011).
    #[cfg(test)]
    pub(crate) async fn commits(&self) -> i64 {
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM outbox")
            .fetch_one(&self.inner.pool)
            .await
            .expect("count outbox rows")
    }

    /// The saved position of a named projection or consumer (0 when none).
    pub async fn checkpoint(&self, name: &str) -> Result<i64> {
        Ok(sqlx::query_scalar(AssertSqlSafe(placeholders(
            self.inner.backend,
            "SELECT position FROM checkpoints WHERE name = $1",
        )))
        .bind(name)
        .fetch_optional(&self.inner.pool)
        .await?
        .unwrap_or(0))
    }

    /// Saves the position of a named projection or consumer.
    pub async fn save_checkpoint(&self, name: &str, position: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO checkpoints (name, position) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET position = excluded.position",
        )
        .bind(name)
        .bind(position)
        .execute(&self.inner.writer)
        .await?;
        Ok(())
    }

    /// A receiver that changes whenever this process commits an append (value: the
    /// new head position). Other processes' appends are not signalled: poll as well.
    pub fn head_watch(&self) -> watch::Receiver<i64> {
        self.inner.head.subscribe()
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.inner.pool
    }

    /// PostgreSQL: the replay pool (binary COPY).
    pub(crate) fn pg_replay(&self) -> Option<&sqlx::PgPool> {
        self.inner.pg_replay.as_ref()
    }
}

/// A catch-up-then-live reader of the log. See [`EventStore::subscribe`].
pub struct Subscription {
    store: EventStore,
    next_position: i64,
    buffer: VecDeque<RecordedEvent>,
    head: watch::Receiver<i64>,
    poll: Duration,
    /// The poll's time came (or nothing was read yet): the database is read even when
    /// this process committed nothing new.
    poll_due: bool,
}

/// How many of the last events read at the head are kept for the live subscriptions.
const TAIL_EVENTS: usize = 4096;

/// The last events read at the log's head, consecutive positions from `start`: a
/// subscription following the log live takes the events it needs from here, so a
/// thousand of them (the HTTP event streams of one tournament) read a new event from
/// the database once instead of a thousand times. Committed events never change, so a
/// copy is as good as the row.
#[derive(Default)]
struct Tail {
    start: i64,
    events: VecDeque<RecordedEvent>,
}

impl Tail {
    fn end(&self) -> i64 {
        self.start + self.events.len() as i64
    }

    /// Up to `max` events from `position` on, if the tail holds `position`.
    fn from(&self, position: i64, max: usize) -> Vec<RecordedEvent> {
        if position < self.start || position >= self.end() {
            return Vec::new();
        }
        let skip = usize::try_from(position - self.start).unwrap_or(usize::MAX);
        self.events.iter().skip(skip).take(max).cloned().collect()
    }

    /// Keeps `batch` (consecutive positions, read from the database) at the tail's end.
    fn put(&mut self, batch: &[RecordedEvent]) {
        let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
            return;
        };
        let (first, last) = (first.global_position, last.global_position);
        if last - first + 1 != batch.len() as i64 {
            return;
        }
        if !self.events.is_empty() && last < self.end() {
            // Older than what is kept, or already in it.
            return;
        }
        if self.events.is_empty() || first > self.end() {
            self.start = first;
            self.events = batch.iter().cloned().collect();
        } else {
            let skip = usize::try_from(self.end() - first).unwrap_or(0);
            self.events.extend(batch[skip..].iter().cloned());
        }
        while self.events.len() > TAIL_EVENTS {
            self.events.pop_front();
            self.start += 1;
        }
    }
}

impl Subscription {
    /// The next event, waiting for it when the log has no more.
    pub async fn next(&mut self) -> Result<RecordedEvent> {
        loop {
            if let Some(e) = self.buffer.pop_front() {
                self.next_position = e.global_position + 1;
                return Ok(e);
            }
            let head = *self.head.borrow();
            if self.next_position + TAIL_EVENTS as i64 > head {
                // Near the head: live. What another subscription read is in the tail;
                // else one of them at a time reads it and keeps it there.
                if self.take_from_tail() {
                    continue;
                }
                if head >= self.next_position {
                    let store = self.store.clone();
                    let _one = store.inner.tail_fill.lock().await;
                    if self.take_from_tail() {
                        continue;
                    }
                    let batch = store.read_all(self.next_position, 1000).await?;
                    if let Ok(mut tail) = store.inner.tail.lock() {
                        tail.put(&batch);
                    }
                    if !batch.is_empty() {
                        self.buffer.extend(batch);
                        continue;
                    }
                } else if !self.poll_due {
                    // Nothing new committed here since the last read: wait, without
                    // asking the database again.
                    self.wait().await;
                    continue;
                }
            }
            self.poll_due = false;
            let batch = self.store.read_all(self.next_position, 1000).await?;
            if batch.is_empty() {
                self.wait().await;
            } else {
                self.buffer.extend(batch);
            }
        }
    }

    /// Until this process's next commit, or the poll (another process's commits:
    /// PostgreSQL) — then the database is asked again.
    async fn wait(&mut self) {
        tokio::select! {
            r = self.head.changed() => if r.is_err() {
                tokio::time::sleep(self.poll).await;
                self.poll_due = true;
            },
            _ = tokio::time::sleep(self.poll) => self.poll_due = true,
        }
    }

    fn take_from_tail(&mut self) -> bool {
        let cached = match self.store.inner.tail.lock() {
            Ok(tail) => tail.from(self.next_position, 1000),
            Err(_) => Vec::new(),
        };
        if cached.is_empty() {
            return false;
        }
        self.buffer.extend(cached);
        true
    }

    /// The position the next call to [`Subscription::next`] starts from.
    pub fn position(&self) -> i64 {
        self.next_position
    }
}

/// Takes the append lock and reads the log head. Serialises appends on the log head, so
/// positions stay gap-free in commit order. The lookups of [`append_in`] come in later
/// statements: under READ COMMITTED their snapshot is taken after the lock was granted,
/// so they see the previous append.
async fn lock_head(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
) -> Result<(i64, Vec<u8>)> {
    let lock = match backend {
        Backend::Sqlite => "SELECT position, log_hash FROM log_head WHERE id = 1",
        Backend::Postgres => "SELECT position, log_hash FROM log_head WHERE id = 1 FOR UPDATE",
    };
    let row = sqlx::query(lock).fetch_one(&mut **tx).await?;
    Ok((
        row.try_get(0)?,
        row.try_get::<Option<Vec<u8>>, _>(1)?
            .unwrap_or_else(|| crate::signing::LOG_GENESIS.to_vec()),
    ))
}

/// The answer to a command id used before: the original ack when the request is the
/// same (same stream, same digest), else a refusal naming the earlier command.
fn replay_of(
    req: &AppendRequest,
    stream: &str,
    ack: &AppendAck,
    digest: Option<&[u8]>,
) -> Result<AppendAck> {
    if stream != req.stream {
        return Err(Error::CommandIdReused {
            command_id: req.context.command_id.clone(),
            original_stream: stream.to_owned(),
            stream: req.stream.clone(),
        });
    }
    match digest {
        Some(d)
            if !d.is_empty()
                && !req.context.request_digest.is_empty()
                && d != req.context.request_digest =>
        {
            Err(Error::CommandIdMismatch {
                command_id: req.context.command_id.clone(),
                original_stream: stream.to_owned(),
                first_position: ack.first_position,
                last_position: ack.last_position,
            })
        }
        _ => Ok(*ack),
    }
}

/// What a batch decided in memory, before anything is written.
struct Plan<'a> {
    /// Each request's outcome, in order.
    outcomes: Vec<Result<AppendAck>>,
    /// The events accepted, in log order.
    recorded: Vec<RecordedEvent>,
    /// Each accepted append's events in `recorded`.
    spans: Vec<std::ops::Range<usize>>,
    /// Command records of the accepted appends: (command id, stream, ack, digest).
    commands: Vec<(&'a str, &'a str, AppendAck, &'a [u8])>,
    /// One seal per accepted append.
    seals: Vec<SealRow>,
    /// The log head after the batch.
    head: i64,
    /// Some request was refused for its expected version.
    conflict: bool,
}

/// Decides `reqs` in order after log position `start`: each sees what the earlier ones
/// accepted (`streams` and `commands` are updated as it goes). Rules only: nothing here
/// knows where the heads came from.
fn decide<'a>(
    keys: &Keys,
    reqs: &'a [AppendRequest],
    valid: Vec<Result<()>>,
    start: i64,
    streams: &mut HashMap<String, StreamHead>,
    commands: &mut HashMap<String, CommandRecord>,
) -> Plan<'a> {
    let now = now_micros();
    let mut plan = Plan {
        outcomes: Vec::with_capacity(reqs.len()),
        recorded: Vec::new(),
        spans: Vec::new(),
        commands: Vec::new(),
        seals: Vec::new(),
        head: start,
        conflict: false,
    };
    for (req, ok) in reqs.iter().zip(valid) {
        if let Err(e) = ok {
            plan.outcomes.push(Err(e));
            continue;
        }
        if let Some((stream, ack, digest)) = commands.get(&req.context.command_id) {
            plan.outcomes
                .push(replay_of(req, stream, ack, digest.as_deref()));
            continue;
        }
        let (version, head_hash) = streams
            .get(&req.stream)
            .cloned()
            .unwrap_or_else(|| (0, GENESIS.to_vec()));
        if let Some(expected) = req.expected_version
            && expected != version
        {
            plan.conflict = true;
            plan.outcomes.push(Err(Error::Conflict {
                stream: req.stream.clone(),
                expected,
                actual: version,
            }));
            continue;
        }
        let signer = match keys.signer(&req.context.service) {
            Ok(s) => s,
            Err(e) => {
                plan.outcomes.push(Err(e));
                continue;
            }
        };
        let events = record(req, plan.head, version, head_hash, now);
        let n = events.len() as i64;
        let ack = AppendAck {
            first_position: plan.head + 1,
            last_position: plan.head + n,
            stream_version: version + n,
            replayed: false,
        };
        let last_hash = events.last().map(|e| e.hash.clone()).unwrap_or_default();
        plan.seals.push(SealRow {
            first_position: ack.first_position,
            last_position: ack.last_position,
            stream: req.stream.clone(),
            service: signer.service().to_owned(),
            key_id: signer.key_id().to_owned(),
            signature: signer.sign(&seal_message(&last_hash)),
        });
        streams.insert(req.stream.clone(), (ack.stream_version, last_hash));
        commands.insert(
            req.context.command_id.clone(),
            (
                req.stream.clone(),
                AppendAck {
                    replayed: true,
                    ..ack
                },
                Some(req.context.request_digest.clone()),
            ),
        );
        plan.commands.push((
            req.context.command_id.as_str(),
            req.stream.as_str(),
            ack,
            req.context.request_digest.as_slice(),
        ));
        plan.spans
            .push(plan.recorded.len()..plan.recorded.len() + events.len());
        plan.recorded.extend(events);
        plan.head = ack.last_position;
        plan.outcomes.push(Ok(ack));
    }
    plan
}

/// The head of every stream `recorded` touches, once each, at its final version.
fn touched(
    recorded: &[RecordedEvent],
    streams: &HashMap<String, StreamHead>,
) -> Vec<(String, StreamHead)> {
    let mut seen = std::collections::HashSet::new();
    recorded
        .iter()
        .filter(|e| seen.insert(e.stream.as_str()))
        .filter_map(|e| streams.get_key_value(&e.stream))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The log chain after `recorded`, from `log_hash`.
fn chain(mut log_hash: Vec<u8>, recorded: &[RecordedEvent]) -> Vec<u8> {
    for e in recorded {
        log_hash = log_link(&log_hash, e.global_position, &e.hash).to_vec();
    }
    log_hash
}

/// A refusal by a unique key (an event position or command id already taken).
pub(crate) fn is_unique_violation(e: &Error) -> bool {
    matches!(e, Error::Database(sqlx::Error::Database(d))
        if d.kind() == sqlx::error::ErrorKind::UniqueViolation)
}

/// Statements separated by `;` with their values in order, run in one call: each
/// statement would otherwise cost a hop to sqlx's SQLite worker thread (SQLite only:
/// `?` placeholders).
#[derive(Default)]
pub(crate) struct Script {
    sql: String,
    vals: Vec<Val>,
}

impl Script {
    /// Appends `sql` (with `?` placeholders) and its values.
    pub(crate) fn push(&mut self, sql: &str, vals: impl IntoIterator<Item = Val>) {
        if !self.sql.is_empty() {
            self.sql.push_str("; ");
        }
        self.sql.push_str(sql);
        self.vals.extend(vals);
    }

    /// `INSERT INTO table (columns) VALUES (?, …), …` for `rows` rows, values in order.
    fn insert(
        &mut self,
        head: &str,
        rows: usize,
        columns: usize,
        vals: impl IntoIterator<Item = Val>,
    ) {
        let row = format!("({})", vec!["?"; columns].join(", "));
        let sql = format!("{head} VALUES {}", vec![row.as_str(); rows].join(", "));
        self.push(&sql, vals);
    }

    /// Appends another script.
    pub(crate) fn append(&mut self, other: Script) {
        self.push(&other.sql, other.vals);
    }

    pub(crate) fn query(self) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments> {
        let mut q = sqlx::query(AssertSqlSafe(self.sql));
        for v in self.vals {
            q = match v {
                Val::I(i) => q.bind(i),
                Val::S(s) => q.bind(s),
                Val::B(b) => q.bind(b),
            };
        }
        q
    }
}

/// Everything a commit writes on SQLite — events, outbox rows, stream heads, command
/// records, seals, the log seal and the log head — as one script.
pub(crate) fn commit_script(c: &Commit<'_>) -> Script {
    let (recorded, touched, commands, seals, log_seal) =
        (c.events, c.streams, c.commands, c.seals, c.log_seal);
    let mut s = Script::default();
    for chunk in recorded.chunks(INSERT_CHUNK) {
        s.insert(
            &format!("INSERT INTO events ({COLUMNS})"),
            chunk.len(),
            COLUMN_COUNT,
            chunk.iter().flat_map(|r| {
                [
                    Val::I(r.global_position),
                    Val::S(r.event_id.clone()),
                    Val::S(r.stream.clone()),
                    Val::I(r.stream_version),
                    Val::S(r.event_type.clone()),
                    Val::I(i64::from(r.schema_version)),
                    Val::B(r.payload.clone()),
                    Val::I(r.recorded_at_micros),
                    Val::S(r.actor.clone()),
                    Val::S(r.command_id.clone()),
                    Val::S(r.correlation_id.clone()),
                    Val::S(r.causation_id.clone()),
                    Val::S(r.reason.clone()),
                    Val::S(r.rule_edition.clone()),
                    Val::S(r.service.clone()),
                    Val::B(r.prev_hash.clone()),
                    Val::B(r.hash.clone()),
                    Val::S(r.trace_parent.clone()),
                ]
            }),
        );
        s.insert(
            "INSERT INTO outbox (global_position, last_position)",
            1,
            2,
            {
                let (first, last) = outbox_span(chunk);
                [Val::I(first), Val::I(last)]
            },
        );
    }
    for chunk in touched.chunks(INSERT_CHUNK) {
        let head = "INSERT INTO streams (stream, version, head_hash)";
        let mut part = Script::default();
        part.insert(
            head,
            chunk.len(),
            3,
            chunk.iter().flat_map(|(stream, (version, hash))| {
                [
                    Val::S(stream.clone()),
                    Val::I(*version),
                    Val::B(hash.clone()),
                ]
            }),
        );
        s.push(
            &format!(
                "{} ON CONFLICT (stream) DO UPDATE SET version = excluded.version, \
                 head_hash = excluded.head_hash",
                part.sql
            ),
            part.vals,
        );
    }
    for chunk in commands.chunks(INSERT_CHUNK) {
        s.insert(
            "INSERT INTO commands (command_id, stream, first_position, last_position, \
             stream_version, request_digest)",
            chunk.len(),
            6,
            chunk.iter().flat_map(|(command_id, stream, ack, digest)| {
                [
                    Val::S((*command_id).to_owned()),
                    Val::S((*stream).to_owned()),
                    Val::I(ack.first_position),
                    Val::I(ack.last_position),
                    Val::I(ack.stream_version),
                    Val::B(digest.to_vec()),
                ]
            }),
        );
    }
    for chunk in seals.chunks(INSERT_CHUNK) {
        s.insert(
            "INSERT INTO seals (first_position, last_position, stream, service, key_id, \
             signature)",
            chunk.len(),
            6,
            chunk.iter().flat_map(|r| {
                [
                    Val::I(r.first_position),
                    Val::I(r.last_position),
                    Val::S(r.stream.clone()),
                    Val::S(r.service.clone()),
                    Val::S(r.key_id.clone()),
                    Val::B(r.signature.clone()),
                ]
            }),
        );
    }
    s.insert(
        "INSERT INTO log_seals (position, log_hash, key_id, signature)",
        1,
        4,
        [
            Val::I(log_seal.position),
            Val::B(log_seal.log_hash.clone()),
            Val::S(log_seal.key_id.clone()),
            Val::B(log_seal.signature.clone()),
        ],
    );
    s.push(
        "UPDATE log_head SET position = ?, log_hash = ? WHERE id = 1",
        [Val::I(log_seal.position), Val::B(log_seal.log_hash.clone())],
    );
    s
}

/// The log seal of one commit.
pub(crate) struct LogSealRow {
    pub(crate) position: i64,
    pub(crate) log_hash: Vec<u8>,
    pub(crate) key_id: String,
    pub(crate) signature: Vec<u8>,
}

/// A value bound to a statement.
pub(crate) enum Val {
    I(i64),
    S(String),
    B(Vec<u8>),
}

/// `($a, $b, …), (…)` for `rows` rows of `columns` parameters numbered from `first`.
fn values_from(first: usize, rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|r| {
            let cols = (0..columns)
                .map(|c| format!("${}", first + r * columns + c))
                .collect::<Vec<_>>()
                .join(", ");
            format!("({cols})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Most parameters written by one tail statement (PostgreSQL allows 65,535).
const MAX_TAIL_PARAMETERS: usize = 30_000;

/// Everything an append writes after its events — stream heads, command records, seals,
/// the log seal and the log head — in ONE data-modifying CTE: the locked path on
/// PostgreSQL (SQLite writes a whole commit as one [`commit_script`]). Each statement
/// costs a round trip, which dominated a durable single-event commit once seals were
/// added (ADR platform-006).
async fn write_tail(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    touched: &[(String, StreamHead)],
    commands: &[(&str, &str, AppendAck, &[u8])],
    seals: &[SealRow],
    log_seal: &LogSealRow,
) -> Result<()> {
    let parameters = touched.len() * 3 + commands.len() * 6 + seals.len() * 6 + 6;
    if parameters > MAX_TAIL_PARAMETERS {
        return write_tail_in_parts(backend, tx, touched, commands, seals, log_seal).await;
    }
    let mut vals: Vec<Val> = Vec::with_capacity(parameters);
    let mut next = 1;
    let mut part = |rows: usize, cols: usize| {
        let v = values_from(next, rows, cols);
        next += rows * cols;
        v
    };
    let streams_sql = format!(
        "INSERT INTO streams (stream, version, head_hash) VALUES {} \
         ON CONFLICT (stream) DO UPDATE SET version = excluded.version, \
         head_hash = excluded.head_hash",
        part(touched.len(), 3)
    );
    for (stream, (version, hash)) in touched {
        vals.extend([
            Val::S(stream.clone()),
            Val::I(*version),
            Val::B(hash.clone()),
        ]);
    }
    let commands_sql = format!(
        "INSERT INTO commands (command_id, stream, first_position, last_position, \
         stream_version, request_digest) VALUES {}",
        part(commands.len(), 6)
    );
    for (command_id, stream, ack, digest) in commands {
        vals.extend([
            Val::S((*command_id).to_owned()),
            Val::S((*stream).to_owned()),
            Val::I(ack.first_position),
            Val::I(ack.last_position),
            Val::I(ack.stream_version),
            Val::B(digest.to_vec()),
        ]);
    }
    let seals_sql = format!(
        "INSERT INTO seals (first_position, last_position, stream, service, key_id, \
         signature) VALUES {}",
        part(seals.len(), 6)
    );
    for r in seals {
        vals.extend([
            Val::I(r.first_position),
            Val::I(r.last_position),
            Val::S(r.stream.clone()),
            Val::S(r.service.clone()),
            Val::S(r.key_id.clone()),
            Val::B(r.signature.clone()),
        ]);
    }
    let log_seal_sql = format!(
        "INSERT INTO log_seals (position, log_hash, key_id, signature) VALUES {}",
        part(1, 4)
    );
    vals.extend([
        Val::I(log_seal.position),
        Val::B(log_seal.log_hash.clone()),
        Val::S(log_seal.key_id.clone()),
        Val::B(log_seal.signature.clone()),
    ]);
    let head_params = part(1, 2);
    let (p, h) = head_params
        .trim_matches(|c| c == '(' || c == ')')
        .split_once(", ")
        .unwrap_or(("$0", "$0"));
    let head_sql = format!("UPDATE log_head SET position = {p}, log_hash = {h} WHERE id = 1");
    vals.extend([Val::I(log_seal.position), Val::B(log_seal.log_hash.clone())]);
    let sql = format!(
        "WITH s AS ({streams_sql}), c AS ({commands_sql}), se AS ({seals_sql}), \
         ls AS ({log_seal_sql}) {head_sql}"
    );
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for v in vals {
        q = match v {
            Val::I(i) => q.bind(i),
            Val::S(s) => q.bind(s),
            Val::B(b) => q.bind(b),
        };
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// [`write_tail`] as separate statements, for a batch too large for one.
async fn write_tail_in_parts(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    touched: &[(String, StreamHead)],
    commands: &[(&str, &str, AppendAck, &[u8])],
    seals: &[SealRow],
    log_seal: &LogSealRow,
) -> Result<()> {
    for chunk in touched.chunks(INSERT_CHUNK) {
        let sql = format!(
            "INSERT INTO streams (stream, version, head_hash) VALUES {} \
             ON CONFLICT (stream) DO UPDATE SET version = excluded.version, \
             head_hash = excluded.head_hash",
            values(chunk.len(), 3)
        );
        let mut q = sqlx::query(AssertSqlSafe(placeholders(backend, &sql)));
        for (stream, (version, hash)) in chunk {
            q = q.bind(stream.as_str()).bind(*version).bind(hash.clone());
        }
        q.execute(&mut **tx).await?;
    }
    for chunk in commands.chunks(INSERT_CHUNK) {
        let sql = format!(
            "INSERT INTO commands (command_id, stream, first_position, last_position, \
             stream_version, request_digest) VALUES {}",
            values(chunk.len(), 6)
        );
        let mut q = sqlx::query(AssertSqlSafe(placeholders(backend, &sql)));
        for (command_id, stream, ack, digest) in chunk {
            q = q
                .bind(*command_id)
                .bind(*stream)
                .bind(ack.first_position)
                .bind(ack.last_position)
                .bind(ack.stream_version)
                .bind(digest.to_vec());
        }
        q.execute(&mut **tx).await?;
    }
    insert_seals(backend, tx, seals).await?;
    write_log_seal(backend, tx, log_seal).await
}

/// The log seal and the log head it moves to, as separate statements.
async fn write_log_seal(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    log_seal: &LogSealRow,
) -> Result<()> {
    sqlx::query(AssertSqlSafe(placeholders(
        backend,
        "INSERT INTO log_seals (position, log_hash, key_id, signature) VALUES ($1, $2, $3, $4)",
    )))
    .bind(log_seal.position)
    .bind(log_seal.log_hash.clone())
    .bind(log_seal.key_id.clone())
    .bind(log_seal.signature.clone())
    .execute(&mut **tx)
    .await?;
    sqlx::query(AssertSqlSafe(placeholders(
        backend,
        "UPDATE log_head SET position = $1, log_hash = $2 WHERE id = 1",
    )))
    .bind(log_seal.position)
    .bind(log_seal.log_hash.clone())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// One seal row (see `signing`).
pub(crate) struct SealRow {
    pub(crate) first_position: i64,
    pub(crate) last_position: i64,
    pub(crate) stream: String,
    pub(crate) service: String,
    pub(crate) key_id: String,
    pub(crate) signature: Vec<u8>,
}

async fn insert_seals(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    seals: &[SealRow],
) -> Result<()> {
    for chunk in seals.chunks(INSERT_CHUNK) {
        let sql = format!(
            "INSERT INTO seals (first_position, last_position, stream, service, key_id, \
             signature) VALUES {}",
            values(chunk.len(), 6)
        );
        let mut q = sqlx::query(AssertSqlSafe(placeholders(backend, &sql)));
        for r in chunk {
            q = q
                .bind(r.first_position)
                .bind(r.last_position)
                .bind(r.stream.clone())
                .bind(r.service.clone())
                .bind(r.key_id.clone())
                .bind(r.signature.clone());
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// The events of `req` as recorded after log position `head` on a stream at `version`
/// whose last hash is `head_hash`.
fn record(
    req: &AppendRequest,
    head: i64,
    version: i64,
    head_hash: Vec<u8>,
    now: i64,
) -> Vec<RecordedEvent> {
    let ctx = &req.context;
    let correlation = if ctx.correlation_id.is_empty() {
        ctx.command_id.clone()
    } else {
        ctx.correlation_id.clone()
    };
    let mut prev = head_hash;
    let mut recorded = Vec::with_capacity(req.events.len());
    for (i, e) in req.events.iter().enumerate() {
        let offset = i as i64 + 1;
        let mut r = RecordedEvent {
            global_position: head + offset,
            event_id: uuid::Uuid::now_v7().to_string(),
            stream: req.stream.clone(),
            stream_version: version + offset,
            event_type: e.event_type.clone(),
            schema_version: e.schema_version,
            payload: e.payload.clone(),
            recorded_at_micros: now,
            actor: ctx.actor.clone(),
            command_id: ctx.command_id.clone(),
            correlation_id: correlation.clone(),
            causation_id: ctx.causation_id.clone(),
            reason: ctx.reason.clone(),
            rule_edition: ctx.rule_edition.clone(),
            service: ctx.service.clone(),
            prev_hash: prev,
            hash: Vec::new(),
            trace_parent: ctx.trace_parent.clone(),
        };
        r.hash = event_hash(&r).to_vec();
        prev = r.hash.clone();
        recorded.push(r);
    }
    recorded
}

/// `($1, $2, …), (…)` for `rows` rows of `columns` parameters.
fn values(rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|r| {
            let cols = (1..=columns)
                .map(|c| format!("${}", r * columns + c))
                .collect::<Vec<_>>()
                .join(", ");
            format!("({cols})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What [`load_one`] reads.
type OneRead = (
    Option<(i64, Vec<u8>)>,
    HashMap<String, (i64, Vec<u8>)>,
    HashMap<String, CommandRecord>,
);

/// The stream and the command id of one request in one statement, with the log head
/// (position, log hash) when `with_head`.
async fn load_one(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    req: &AppendRequest,
    with_head: bool,
) -> Result<OneRead> {
    let sql = "SELECT h.position, h.log_hash, s.version, s.head_hash, c.stream, \
         c.first_position, c.last_position, c.stream_version, c.request_digest \
         FROM log_head h LEFT JOIN streams s ON s.stream = $1 \
         LEFT JOIN commands c ON c.command_id = $2 WHERE h.id = 1";
    let row = sqlx::query(AssertSqlSafe(placeholders(backend, sql)))
        .bind(&req.stream)
        .bind(&req.context.command_id)
        .fetch_one(&mut **tx)
        .await?;
    let head = with_head
        .then(|| -> Result<(i64, Vec<u8>)> {
            Ok((
                row.try_get(0)?,
                row.try_get::<Option<Vec<u8>>, _>(1)?
                    .unwrap_or_else(|| crate::signing::LOG_GENESIS.to_vec()),
            ))
        })
        .transpose()?;
    let mut streams = HashMap::new();
    if let (Some(v), Some(h)) = (
        row.try_get::<Option<i64>, _>(2)?,
        row.try_get::<Option<Vec<u8>>, _>(3)?,
    ) {
        streams.insert(req.stream.clone(), (v, h));
    }
    let mut commands = HashMap::new();
    if let Some(stream) = row.try_get::<Option<String>, _>(4)? {
        commands.insert(
            req.context.command_id.clone(),
            (
                stream,
                AppendAck {
                    first_position: row.try_get(5)?,
                    last_position: row.try_get(6)?,
                    stream_version: row.try_get(7)?,
                    replayed: true,
                },
                row.try_get(8)?,
            ),
        );
    }
    Ok((head, streams, commands))
}

/// Version and head hash of the named streams that exist.
async fn load_streams(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    names: &[&str],
) -> Result<HashMap<String, (i64, Vec<u8>)>> {
    let mut out = HashMap::with_capacity(names.len());
    for chunk in names.chunks(INSERT_CHUNK) {
        let sql = format!(
            "SELECT stream, version, head_hash FROM streams WHERE stream IN {}",
            values(1, chunk.len())
        );
        let mut q = sqlx::query(AssertSqlSafe(placeholders(backend, &sql)));
        for n in chunk {
            q = q.bind(*n);
        }
        for row in q.fetch_all(&mut **tx).await? {
            out.insert(row.try_get(0)?, (row.try_get(1)?, row.try_get(2)?));
        }
    }
    Ok(out)
}

/// Stream and (replayed) ack of the named command ids that were applied.
async fn load_commands(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ids: &[&str],
) -> Result<HashMap<String, CommandRecord>> {
    let mut out = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(INSERT_CHUNK) {
        let sql = format!(
            "SELECT command_id, stream, first_position, last_position, stream_version, \
             request_digest FROM commands WHERE command_id IN {}",
            values(1, chunk.len())
        );
        let mut q = sqlx::query(AssertSqlSafe(placeholders(backend, &sql)));
        for id in chunk {
            q = q.bind(*id);
        }
        for row in q.fetch_all(&mut **tx).await? {
            out.insert(
                row.try_get(0)?,
                (
                    row.try_get(1)?,
                    AppendAck {
                        first_position: row.try_get(2)?,
                        last_position: row.try_get(3)?,
                        stream_version: row.try_get(4)?,
                        replayed: true,
                    },
                    row.try_get(5)?,
                ),
            );
        }
    }
    Ok(out)
}

fn validate(req: &AppendRequest) -> Result<()> {
    if req.stream.is_empty() || req.stream.len() > MAX_STREAM_LEN {
        return Err(Error::invalid(
            "stream",
            format!("must be 1 to {MAX_STREAM_LEN} characters"),
        ));
    }
    if req.events.is_empty() {
        return Err(Error::invalid("events", "at least one event is required"));
    }
    if req.context.command_id.trim().is_empty() {
        return Err(Error::invalid("command_id", "must not be empty"));
    }
    if req.context.actor.trim().is_empty() {
        return Err(Error::invalid("actor", "must not be empty"));
    }
    if let Some(v) = req.expected_version
        && v < 0
    {
        return Err(Error::invalid("expected_version", "must be 0 or more"));
    }
    if let Some(i) = req.events.iter().position(|e| e.event_type.is_empty()) {
        return Err(Error::invalid(
            "event_type",
            format!("event {i} has an empty type"),
        ));
    }
    Ok(())
}

async fn insert_events(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    chunk: &[RecordedEvent],
    outbox: bool,
) -> Result<()> {
    let Some(first) = chunk.first() else {
        return Ok(());
    };
    let q = match backend {
        // PostgreSQL: the ten values every event of one append shares (stream and command
        // metadata) are bound once as $1..$10 and referenced from every row, the eight
        // per-event values follow; each event gets its outbox row in the same statement.
        Backend::Postgres => {
            const SHARED: usize = 10;
            let rows = (0..chunk.len())
                .map(|i| {
                    let b = SHARED + i * 8;
                    format!(
                        "(${}, ${}, $1, ${}, ${}, ${}, ${}, $2, $3, $4, $5, $6, $7, $8, $9, ${}, ${}, $10)",
                        b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8
                    )
                })
                .collect::<Vec<_>>()
                .join(", ");
            let sql = if outbox {
                format!(
                    "WITH e AS (INSERT INTO events ({COLUMNS}) VALUES {rows} RETURNING global_position) \
                     INSERT INTO outbox (global_position, last_position) \
                     SELECT MIN(global_position), MAX(global_position) FROM e"
                )
            } else {
                format!("INSERT INTO events ({COLUMNS}) VALUES {rows}")
            };
            let mut q = sqlx::query(AssertSqlSafe(sql))
                .bind(first.stream.clone())
                .bind(first.recorded_at_micros)
                .bind(first.actor.clone())
                .bind(first.command_id.clone())
                .bind(first.correlation_id.clone())
                .bind(first.causation_id.clone())
                .bind(first.reason.clone())
                .bind(first.rule_edition.clone())
                .bind(first.service.clone())
                .bind(first.trace_parent.clone());
            for r in chunk {
                q = q
                    .bind(r.global_position)
                    .bind(r.event_id.clone())
                    .bind(r.stream_version)
                    .bind(r.event_type.clone())
                    .bind(i64::from(r.schema_version))
                    .bind(r.payload.clone())
                    .bind(r.prev_hash.clone())
                    .bind(r.hash.clone());
            }
            q
        }
        Backend::Sqlite => {
            let row = format!("({})", vec!["?"; COLUMN_COUNT].join(", "));
            let sql = format!(
                "INSERT INTO events ({COLUMNS}) VALUES {}",
                vec![row.as_str(); chunk.len()].join(", ")
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for r in chunk {
                q = q
                    .bind(r.global_position)
                    .bind(r.event_id.clone())
                    .bind(r.stream.clone())
                    .bind(r.stream_version)
                    .bind(r.event_type.clone())
                    .bind(i64::from(r.schema_version))
                    .bind(r.payload.clone())
                    .bind(r.recorded_at_micros)
                    .bind(r.actor.clone())
                    .bind(r.command_id.clone())
                    .bind(r.correlation_id.clone())
                    .bind(r.causation_id.clone())
                    .bind(r.reason.clone())
                    .bind(r.rule_edition.clone())
                    .bind(r.service.clone())
                    .bind(r.prev_hash.clone())
                    .bind(r.hash.clone())
                    .bind(r.trace_parent.clone());
            }
            q
        }
    };
    q.execute(&mut **tx).await?;
    if backend == Backend::Sqlite && outbox {
        let (first, last) = outbox_span(chunk);
        sqlx::query("INSERT INTO outbox (global_position, last_position) VALUES (?, ?)")
            .bind(first)
            .bind(last)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The last position an outbox row `o` covers (rows from before migration 3 cover one).
const OUTBOX_LAST: &str = "COALESCE(o.last_position, o.global_position)";
/// The same, in a statement on the outbox table itself.
const OUTBOX_LAST_OF_TABLE: &str = "COALESCE(last_position, global_position)";

/// Sorted, deduplicated positions as runs of consecutive positions `(first, last)`.
fn consecutive_runs(positions: &[i64]) -> Vec<(i64, i64)> {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for p in sorted {
        match runs.last_mut() {
            Some((_, z)) if *z + 1 == p => *z = p,
            _ => runs.push((p, p)),
        }
    }
    runs
}

/// The outbox row of consecutive events: their first and last positions (one row per
/// commit, ADR platform-011).
fn outbox_span(chunk: &[RecordedEvent]) -> (i64, i64) {
    let first = chunk.first().map_or(0, |r| r.global_position);
    (first, chunk.last().map_or(first, |r| r.global_position))
}

pub(crate) fn decode_row(row: &AnyRow) -> Result<RecordedEvent> {
    let global_position: i64 = row.try_get(0)?;
    let schema: i64 = row.try_get(5)?;
    let schema_version = u32::try_from(schema).map_err(|_| Error::Corrupt {
        position: global_position,
        message: format!("schema_version {schema} out of range"),
    })?;
    Ok(RecordedEvent {
        global_position,
        event_id: row.try_get(1)?,
        stream: row.try_get(2)?,
        stream_version: row.try_get(3)?,
        event_type: row.try_get(4)?,
        schema_version,
        payload: row.try_get(6)?,
        recorded_at_micros: row.try_get(7)?,
        actor: row.try_get(8)?,
        command_id: row.try_get(9)?,
        correlation_id: row.try_get(10)?,
        causation_id: row.try_get(11)?,
        reason: row.try_get(12)?,
        rule_edition: row.try_get(13)?,
        service: row.try_get(14)?,
        prev_hash: row.try_get(15)?,
        hash: row.try_get(16)?,
        trace_parent: row.try_get(17)?,
    })
}

fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
