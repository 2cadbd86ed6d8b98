//! A consistent copy of a live SQLite log (ADR platform-013), for `arbiter admin backup`.
//!
//! `VACUUM INTO` reads the whole database inside one read transaction and writes a new,
//! compacted file: a snapshot of one commit even while a server keeps appending (WAL mode
//! lets the reader go on beside the writer), and never a half-written log. The source is
//! opened read-only, so a backup cannot change the log it copies.
use std::path::Path;

use sqlx::{Connection, Executor};

use crate::{Error, Result};

/// How long the snapshot waits for a writer's lock (WAL readers rarely wait at all): 10 s.
const SNAPSHOT_BUSY_TIMEOUT: &str = "PRAGMA busy_timeout = 10000";

/// Writes a consistent copy of the SQLite log at `source` to `target`, a file that must
/// not exist yet (made 0600 by SQLite from the source's mode, tightened here).
pub async fn sqlite_snapshot(source: &Path, target: &Path) -> Result<()> {
    sqlx::any::install_default_drivers();
    if !source.is_file() {
        return Err(Error::invalid(
            "data_dir",
            format!("{}: no event log here (no such file)", source.display()),
        ));
    }
    if target.exists() {
        return Err(Error::invalid(
            "backup",
            format!(
                "{}: already exists — a backup never overwrites",
                target.display()
            ),
        ));
    }
    let target_text = target.to_str().ok_or_else(|| {
        Error::invalid("backup", format!("{}: not a UTF-8 path", target.display()))
    })?;
    let url = format!("sqlite://{}?mode=ro", source.display());
    let mut conn = sqlx::AnyConnection::connect(&url).await?;
    conn.execute(SNAPSHOT_BUSY_TIMEOUT).await?;
    let copied = sqlx::query("VACUUM INTO $1")
        .bind(target_text)
        .execute(&mut conn)
        .await;
    conn.close().await?;
    copied?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(target, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::invalid("backup", format!("{}: {e}", target.display())))?;
    }
    Ok(())
}
