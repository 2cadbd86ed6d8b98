//! What the append lock holds (ADR platform-011): the heads this process knows and the
//! connection the fast path commits on, kept by the lock rather than taken from a pool
//! for every commit (a pool's acquire, its test query and the hand-back of the
//! connection cost more than the commit's own round trip).
use std::time::{Duration, Instant};

use sqlx::{AnyConnection, Connection, Executor, PgConnection};

use crate::heads::{Heads, StreamHead};
use crate::store::{LogSealRow, Script, SealRow};
use crate::{AppendAck, Backend, RecordedEvent, Result};

/// A connection idle for longer is tested (and made again if broken) before a commit.
const TEST_AFTER_IDLE: Duration = Duration::from_secs(1);

enum Conn {
    Sqlite(AnyConnection),
    Postgres(PgConnection),
}

/// One commit's rows, as decided.
pub(crate) struct Commit<'a> {
    pub(crate) events: &'a [RecordedEvent],
    pub(crate) streams: &'a [(String, StreamHead)],
    pub(crate) commands: &'a [(&'a str, &'a str, AppendAck, &'a [u8])],
    pub(crate) seals: &'a [SealRow],
    pub(crate) log_seal: &'a LogSealRow,
}

pub(crate) struct Writer {
    backend: Backend,
    url: String,
    /// The heads this process knows.
    pub(crate) heads: Heads,
    conn: Option<Conn>,
    last_used: Instant,
    /// Set while a commit is in flight: still set when the lock is taken again means its
    /// caller gave up mid-commit, so neither the connection nor the heads are trusted.
    in_flight: bool,
    /// The store was closed: no connection is made again.
    closed: bool,
}

impl Writer {
    pub(crate) fn new(backend: Backend, url: &str) -> Self {
        Writer {
            backend,
            url: url.to_owned(),
            heads: Heads::default(),
            conn: None,
            last_used: Instant::now(),
            in_flight: false,
            closed: false,
        }
    }

    /// Called when the lock is taken: forgets what a cancelled commit left unknown.
    pub(crate) fn taken(&mut self) {
        if self.in_flight {
            self.in_flight = false;
            self.conn = None;
            self.heads.forget();
        }
    }

    /// Nothing known, no connection kept (an append failed).
    pub(crate) fn reset(&mut self) {
        self.heads.forget();
        self.conn = None;
    }

    /// A transaction for the locked path, with the heads: SQLite `BEGIN IMMEDIATE` on this
    /// connection (one connection writes, so its page cache stays valid), PostgreSQL a
    /// transaction from `pool` (the locked path's statements go through `Any`).
    pub(crate) async fn begin_locked(
        &mut self,
        pool: &sqlx::AnyPool,
    ) -> Result<(sqlx::Transaction<'_, sqlx::Any>, &mut Heads)> {
        if self.backend == Backend::Postgres {
            return Ok((pool.begin().await?, &mut self.heads));
        }
        self.connection().await?;
        let Some(Conn::Sqlite(c)) = &mut self.conn else {
            return Err(sqlx::Error::PoolClosed.into());
        };
        Ok((c.begin_with("BEGIN IMMEDIATE").await?, &mut self.heads))
    }

    /// Closes the connection (a later commit makes a new one).
    pub(crate) async fn close(&mut self) {
        self.closed = true;
        let _ = match self.conn.take() {
            Some(Conn::Sqlite(c)) => c.close().await,
            Some(Conn::Postgres(c)) => c.close().await,
            None => Ok(()),
        };
    }

    /// Makes sure there is a live connection (made on first use or after a failure).
    async fn connection(&mut self) -> Result<()> {
        if self.closed {
            return Err(sqlx::Error::PoolClosed.into());
        }
        if let Some(conn) = &mut self.conn
            && self.last_used.elapsed() > TEST_AFTER_IDLE
        {
            let alive = match conn {
                Conn::Sqlite(c) => c.ping().await,
                Conn::Postgres(c) => c.ping().await,
            };
            if alive.is_err() {
                self.conn = None;
            }
        }
        if self.conn.is_none() {
            self.conn = Some(match self.backend {
                Backend::Sqlite => {
                    let mut c = AnyConnection::connect(&self.url).await?;
                    c.execute("PRAGMA synchronous = FULL").await?;
                    c.execute("PRAGMA busy_timeout = 10000").await?;
                    Conn::Sqlite(c)
                }
                Backend::Postgres => Conn::Postgres(PgConnection::connect(&self.url).await?),
            });
        }
        self.last_used = Instant::now();
        Ok(())
    }

    /// Writes `commit` as one transaction in one call: the SQLite script between
    /// `BEGIN IMMEDIATE` and `COMMIT`, or the PostgreSQL statement in autocommit. On an
    /// error nothing was written (or, for a broken connection, the outcome is unknown and
    /// the connection is dropped).
    pub(crate) async fn commit(&mut self, commit: &Commit<'_>) -> Result<()> {
        self.connection().await?;
        self.in_flight = true;
        let (result, broken) = match self.conn.as_mut().expect("connected above") {
            Conn::Sqlite(c) => {
                let mut script = Script::default();
                script.push("BEGIN IMMEDIATE", []);
                script.append(crate::store::commit_script(commit));
                script.push("COMMIT", []);
                let r = script.query().execute(&mut *c).await;
                // A failed statement stops the script inside the transaction.
                let broken = r.is_err() && c.execute("ROLLBACK").await.is_err();
                (r.map(|_| ()).map_err(Into::into), broken)
            }
            Conn::Postgres(c) => {
                let r = crate::pg_commit::commit(c, commit).await;
                let broken = r
                    .as_ref()
                    .is_err_and(|e| !crate::store::is_unique_violation(e));
                (r, broken)
            }
        };
        if broken {
            self.conn = None;
        }
        self.in_flight = false;
        result
    }
}
