//! `arbiter admin backup DIR` and `arbiter admin restore DIR` (ADR platform-013): the
//! embedded server's data directory copied while it runs, and put back, each verified.
//!
//! Both work on files, not through the server: the backup reads the live log with
//! `VACUUM INTO` (one read transaction: a snapshot of one commit, taken beside the
//! server's writes), copies the signing keys, the admin token and the player directory,
//! then checks the copy as `arbiterd --check-log` would — every hash, seal and log seal,
//! and the server's anchor as read before the snapshot — and anchors the copy's head. A
//! restore checks the backup against its own anchor before the new data directory is
//! used. A check that fails leaves nothing behind.
use std::path::{Path, PathBuf};

use arbiter_eventlog::anchor::Anchor;
use arbiter_eventlog::{EventStore, Keys, Scope, Signatures, VerifyOptions, VerifyReport};
use clap::Subcommand;

use crate::{Cli, Failure};

/// The log file in a data directory (as `arbiterd` names it).
const LOG_FILE: &str = "arbiter.db";
/// The anchor file in a data directory.
const ANCHOR_FILE: &str = "log.anchor";
/// The signing keys' directory.
const KEY_DIR: &str = "keys";
/// The key that seals the embedded log's chain.
const LOG_OWNER: &str = "arbiterd";
/// What a backup holds besides the log, its keys and its anchor (when present).
const OTHER_FILES: &[&str] = &["admin.token", "player-directory"];
/// The backup's description, written last.
const MANIFEST_FILE: &str = "backup.json";
/// Its format tag.
const MANIFEST_FORMAT: &str = "arbiter-backup-v1";
/// Longest manifest read.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

#[derive(Subcommand)]
pub enum AdminCommand {
    /// A verified copy of the embedded server's data (`--data-dir`, the server's), taken
    /// while it runs, into DIR (new or empty). For PostgreSQL see the README (pg_dump).
    Backup {
        /// Where the backup goes: a new or empty directory.
        dir: PathBuf,
    },
    /// Puts the backup in DIR into `--data-dir` (new or empty), verified; then start
    /// `arbiterd --data-dir` on it.
    Restore {
        /// A directory made by `arbiter admin backup`.
        dir: PathBuf,
    },
}

pub async fn run(cli: &Cli, command: &AdminCommand) -> Result<(), Failure> {
    match command {
        AdminCommand::Backup { dir } => backup(cli, dir).await,
        AdminCommand::Restore { dir } => restore(cli, dir).await,
    }
}

fn failure(message: String) -> Failure {
    Failure { code: 1, message }
}

/// Makes `dir` (0700) when missing; refuses one that is not an empty directory. True when
/// it was made here (so a failure removes it).
fn empty_target(dir: &Path, what: &str) -> Result<bool, Failure> {
    let made = !dir.exists();
    if !made {
        let mut entries = std::fs::read_dir(dir).map_err(|e| {
            failure(format!(
                "{what} {}: {e} — give a new or empty directory",
                dir.display()
            ))
        })?;
        if entries.next().is_some() {
            return Err(failure(format!(
                "{what} {}: not empty — give a new or empty directory (nothing was written)",
                dir.display()
            )));
        }
    }
    arbiter_service_kit::files::private_dir(dir)
        .map_err(|e| failure(format!("{what} {}: {e}", dir.display())))?;
    Ok(made)
}

/// Undoes a failed backup or restore: what was written into `dir` goes.
fn discard(dir: &Path, made: bool) {
    if made {
        let _ = std::fs::remove_dir_all(dir);
    } else if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            let _ = if p.is_dir() {
                std::fs::remove_dir_all(&p)
            } else {
                std::fs::remove_file(&p)
            };
        }
    }
}

/// Copies a file or a directory tree (no symbolic links followed), files 0600, dirs 0700.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_dir() {
        arbiter_service_kit::files::private_dir(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
    } else if meta.is_file() {
        std::fs::copy(from, to)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// The full check of the log in `dir` (its keys beside it), against `anchor` when given;
/// returns the report and the copy's head as an anchor.
async fn check(
    dir: &Path,
    anchor: Option<Anchor>,
) -> Result<(VerifyReport, Option<Anchor>), Failure> {
    let key_dir = dir.join(KEY_DIR);
    let owner_key = key_dir.join(format!("{LOG_OWNER}.key"));
    if !owner_key.is_file() {
        return Err(failure(format!(
            "{}: missing — the log owner's signing key must travel with the log",
            owner_key.display()
        )));
    }
    let err = |e: arbiter_eventlog::Error| failure(format!("{}: {e}", dir.display()));
    let keys = Keys::in_dir(&key_dir, LOG_OWNER, None).map_err(err)?;
    let url = format!("sqlite://{}", dir.join(LOG_FILE).display());
    let store = EventStore::open_with(&url, keys).await.map_err(err)?;
    let checked = async {
        let report = store
            .verify_with(&VerifyOptions {
                anchor,
                signatures: Signatures::All,
                scope: Scope::Full,
            })
            .await?;
        let head = store.anchor().await?;
        Ok::<_, arbiter_eventlog::Error>((report, head))
    }
    .await;
    store.close().await;
    checked.map_err(err)
}

fn read_anchor(dir: &Path) -> Result<Option<Anchor>, Failure> {
    Anchor::read(&dir.join(ANCHOR_FILE)).map_err(|e| failure(e.to_string()))
}

fn problems_text(dir: &Path, report: &VerifyReport) -> String {
    let mut text = format!(
        "{}: the log does not verify ({} problem(s)); nothing was kept:",
        dir.display(),
        report.problems.len()
    );
    for p in report.problems.iter().take(20) {
        text.push_str(&format!("\n  {p}"));
    }
    if report.problems.len() > 20 {
        text.push_str(&format!("\n  … and {} more", report.problems.len() - 20));
    }
    text
}

fn manifest(report: &VerifyReport, head: Option<&Anchor>) -> serde_json::Value {
    serde_json::json!({
        "format": MANIFEST_FORMAT,
        "head_position": head.map_or(0, |a| a.position),
        "log_hash": head.map(|a| a.log_hash.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        "events": report.events,
        "streams": report.streams,
        "taken_at": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    })
}

async fn backup(cli: &Cli, dir: &Path) -> Result<(), Failure> {
    let source = &cli.data_dir;
    let log = source.join(LOG_FILE);
    if !log.is_file() {
        return Err(failure(format!(
            "--data-dir {}: no {LOG_FILE} here — give the data directory of the arbiterd to back up",
            source.display()
        )));
    }
    // Read before the snapshot, so the snapshot holds at least the anchored head.
    let source_anchor = read_anchor(source)?;
    let made = empty_target(dir, "backup")?;
    let done = async {
        arbiter_eventlog::backup::sqlite_snapshot(&log, &dir.join(LOG_FILE))
            .await
            .map_err(|e| failure(format!("{}: {e}", log.display())))?;
        for name in std::iter::once(KEY_DIR).chain(OTHER_FILES.iter().copied()) {
            let from = source.join(name);
            if from.exists() {
                copy_tree(&from, &dir.join(name))
                    .map_err(|e| failure(format!("{}: {e}", from.display())))?;
            }
        }
        let (report, head) = check(dir, source_anchor).await?;
        if !report.is_ok() {
            return Err(failure(problems_text(dir, &report)));
        }
        if let Some(a) = &head {
            a.write(&dir.join(ANCHOR_FILE))
                .map_err(|e| failure(e.to_string()))?;
        }
        let m = manifest(&report, head.as_ref());
        std::fs::write(dir.join(MANIFEST_FILE), format!("{m:#}\n"))
            .map_err(|e| failure(format!("{}: {e}", dir.join(MANIFEST_FILE).display())))?;
        Ok(m)
    }
    .await;
    match done {
        Ok(m) => {
            if cli.json {
                crate::output::json(&m);
            } else {
                println!(
                    "backup {}: {} events in {} streams, head position {}; every hash, seal and log seal verifies",
                    dir.display(),
                    m["events"],
                    m["streams"],
                    m["head_position"]
                );
                println!(
                    "restore with: arbiter admin restore {} --data-dir NEW-DIR",
                    dir.display()
                );
            }
            Ok(())
        }
        Err(f) => {
            discard(dir, made);
            Err(f)
        }
    }
}

async fn restore(cli: &Cli, dir: &Path) -> Result<(), Failure> {
    let target = &cli.data_dir;
    for name in [LOG_FILE, ANCHOR_FILE, MANIFEST_FILE] {
        if !dir.join(name).is_file() {
            return Err(failure(format!(
                "{}: no {name} — not a backup made by `arbiter admin backup`",
                dir.display()
            )));
        }
    }
    let manifest_file = dir.join(MANIFEST_FILE);
    let manifest_ok = std::fs::metadata(&manifest_file)
        .ok()
        .filter(|m| m.len() <= MAX_MANIFEST_BYTES)
        .and_then(|_| std::fs::read_to_string(&manifest_file).ok())
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v["format"] == MANIFEST_FORMAT);
    if !manifest_ok {
        return Err(failure(format!(
            "{}: not a {MANIFEST_FORMAT} manifest",
            manifest_file.display()
        )));
    }
    let anchor = read_anchor(dir)?;
    let made = empty_target(target, "--data-dir")?;
    let done = async {
        arbiter_eventlog::backup::sqlite_snapshot(&dir.join(LOG_FILE), &target.join(LOG_FILE))
            .await
            .map_err(|e| failure(format!("{}: {e}", dir.join(LOG_FILE).display())))?;
        for name in [KEY_DIR, ANCHOR_FILE]
            .into_iter()
            .chain(OTHER_FILES.iter().copied())
        {
            let from = dir.join(name);
            if from.exists() {
                copy_tree(&from, &target.join(name))
                    .map_err(|e| failure(format!("{}: {e}", from.display())))?;
            }
        }
        let (report, _) = check(target, anchor).await?;
        if !report.is_ok() {
            return Err(failure(problems_text(dir, &report)));
        }
        Ok(report)
    }
    .await;
    match done {
        Ok(report) => {
            if cli.json {
                crate::output::json(&serde_json::json!({
                    "data_dir": target.display().to_string(),
                    "events": report.events,
                    "streams": report.streams,
                }));
            } else {
                println!(
                    "restored {} events in {} streams into {}; every hash, seal and log seal verifies, and the log matches the backup's anchor",
                    report.events,
                    report.streams,
                    target.display()
                );
                println!("start with: arbiterd --data-dir {}", target.display());
            }
            Ok(())
        }
        Err(f) => {
            discard(target, made);
            Err(f)
        }
    }
}
