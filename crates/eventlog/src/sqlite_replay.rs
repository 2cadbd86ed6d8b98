//! The SQLite read path for replay, on the raw `sqlite3` handle.
//!
//! sqlx's SQLite driver runs statements on a worker thread and hands rows over one at a
//! time through a channel, then the `Any` layer copies every value once more; replaying
//! a million events cost ~8 µs of CPU per event that way. Here a page of events is read
//! synchronously on the connection's own handle (sqlx lends it through
//! `lock_handle`), each value copied once, straight into a [`RecordedEvent`].
use std::ffi::{CStr, c_int};
use std::ptr;

use libsqlite3_sys as ffi;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use crate::{Error, RecordedEvent, Result};

const PAGE_SQL: &CStr = c"SELECT global_position, event_id, stream, stream_version, event_type, \
    schema_version, payload, recorded_at, actor, command_id, correlation_id, causation_id, \
    reason, rule_edition, service, prev_hash, hash, trace_parent FROM events \
    WHERE global_position >= ?1 ORDER BY global_position LIMIT ?2";

/// A dedicated read connection for replay.
pub(crate) struct SqliteReplay {
    pool: SqlitePool,
}

/// Finalizes the statement on every path.
struct Statement(*mut ffi::sqlite3_stmt);

impl Drop for Statement {
    fn drop(&mut self) {
        // SAFETY: the pointer came from sqlite3_prepare_v2 and is finalized once.
        unsafe {
            ffi::sqlite3_finalize(self.0);
        }
    }
}

fn storage(db: *mut ffi::sqlite3, what: &str) -> Error {
    // SAFETY: db is a live handle; sqlite3_errmsg returns a NUL-terminated string
    // owned by SQLite, copied here at once.
    let msg = unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)) }
        .to_string_lossy()
        .into_owned();
    Error::Invalid {
        field: "sqlite",
        message: format!("{what}: {msg}"),
    }
}

impl SqliteReplay {
    pub(crate) async fn open(options: SqliteConnectOptions) -> Result<Self> {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.read_only(true))
            .await?;
        Ok(SqliteReplay { pool })
    }

    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }

    /// Up to `limit` events from `from` on, in log order.
    pub(crate) async fn page(&self, from: i64, limit: i64) -> Result<Vec<RecordedEvent>> {
        let mut conn = self.pool.acquire().await?;
        let mut handle = conn.lock_handle().await?;
        let db = handle.as_raw_handle().as_ptr();
        // SAFETY: `db` is the connection's handle, exclusively ours while `handle` (the
        // worker's lock) lives; every pointer read below is used before the next step.
        unsafe { read_page(db, from, limit) }
    }
}

unsafe fn text(stmt: *mut ffi::sqlite3_stmt, col: c_int, position: i64) -> Result<String> {
    // SAFETY (caller): stmt is on a row. Text first, then its length (SQLite's order).
    let bytes = unsafe {
        let p = ffi::sqlite3_column_text(stmt, col);
        let n = ffi::sqlite3_column_bytes(stmt, col);
        if p.is_null() || n <= 0 {
            return Ok(String::new());
        }
        std::slice::from_raw_parts(p, n as usize)
    };
    std::str::from_utf8(bytes)
        .map(str::to_owned)
        .map_err(|e| Error::Corrupt {
            position,
            message: format!("column {col} is not UTF-8: {e}"),
        })
}

unsafe fn blob(stmt: *mut ffi::sqlite3_stmt, col: c_int) -> Vec<u8> {
    // SAFETY (caller): stmt is on a row. Blob first, then its length.
    unsafe {
        let p = ffi::sqlite3_column_blob(stmt, col) as *const u8;
        let n = ffi::sqlite3_column_bytes(stmt, col);
        if p.is_null() || n <= 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(p, n as usize).to_vec()
        }
    }
}

unsafe fn read_page(db: *mut ffi::sqlite3, from: i64, limit: i64) -> Result<Vec<RecordedEvent>> {
    let mut raw = ptr::null_mut();
    // SAFETY: db is live (caller); PAGE_SQL is NUL-terminated.
    let rc =
        unsafe { ffi::sqlite3_prepare_v2(db, PAGE_SQL.as_ptr(), -1, &mut raw, ptr::null_mut()) };
    if rc != ffi::SQLITE_OK {
        return Err(storage(db, "prepare replay"));
    }
    let stmt = Statement(raw);
    // SAFETY: stmt is prepared.
    unsafe {
        ffi::sqlite3_bind_int64(stmt.0, 1, from);
        ffi::sqlite3_bind_int64(stmt.0, 2, limit);
    }
    let mut out = Vec::with_capacity(limit.clamp(0, 100_000) as usize);
    loop {
        // SAFETY: stmt is prepared and bound.
        match unsafe { ffi::sqlite3_step(stmt.0) } {
            ffi::SQLITE_ROW => {}
            ffi::SQLITE_DONE => return Ok(out),
            _ => return Err(storage(db, "replay step")),
        }
        let s = stmt.0;
        // SAFETY: s is on a row; columns 0..18 exist (PAGE_SQL).
        let event = unsafe {
            let position = ffi::sqlite3_column_int64(s, 0);
            let schema = ffi::sqlite3_column_int64(s, 5);
            RecordedEvent {
                global_position: position,
                event_id: text(s, 1, position)?,
                stream: text(s, 2, position)?,
                stream_version: ffi::sqlite3_column_int64(s, 3),
                event_type: text(s, 4, position)?,
                schema_version: u32::try_from(schema).map_err(|_| Error::Corrupt {
                    position,
                    message: format!("schema_version {schema} out of range"),
                })?,
                payload: blob(s, 6),
                recorded_at_micros: ffi::sqlite3_column_int64(s, 7),
                actor: text(s, 8, position)?,
                command_id: text(s, 9, position)?,
                correlation_id: text(s, 10, position)?,
                causation_id: text(s, 11, position)?,
                reason: text(s, 12, position)?,
                rule_edition: text(s, 13, position)?,
                service: text(s, 14, position)?,
                prev_hash: blob(s, 15),
                hash: blob(s, 16),
                trace_parent: text(s, 17, position)?,
            }
        };
        out.push(event);
    }
}
