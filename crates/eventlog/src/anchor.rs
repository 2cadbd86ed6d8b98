//! Anchored heads (ADR platform-006): the log's head — position, log-chain hash and the
//! log owner's signature over both — written outside the database, so that a log cut
//! short, re-hashed or reordered while the server was stopped no longer matches it.
//!
//! The file is one line, `arbiter-anchor-v1 POSITION LOG_HASH KEY_ID SIGNATURE MICROS`
//! (hex), replaced atomically (write to a temporary file, fsync, rename).
use std::path::Path;

use crate::signing::log_message;
use crate::{Error, Result};

/// Tag of the file's one line.
pub const ANCHOR_TAG: &str = "arbiter-anchor-v1";
/// Longest anchor file read.
const MAX_ANCHOR_BYTES: u64 = 4096;

/// A signed log head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// Global position of the head.
    pub position: i64,
    /// The log chain's hash at that position.
    pub log_hash: Vec<u8>,
    /// The log owner's key id.
    pub key_id: String,
    /// Ed25519 over `LOG_DOMAIN ‖ position ‖ log_hash`.
    pub signature: Vec<u8>,
    /// When it was written (µs since the Unix epoch).
    pub written_at_micros: i64,
}

impl Anchor {
    /// The signed message.
    pub fn message(&self) -> Vec<u8> {
        log_message(self.position, &self.log_hash)
    }

    /// The file's line.
    pub fn to_line(&self) -> String {
        format!(
            "{ANCHOR_TAG} {} {} {} {} {}\n",
            self.position,
            hex::encode(&self.log_hash),
            self.key_id,
            hex::encode(&self.signature),
            self.written_at_micros
        )
    }

    /// Parses the file's line.
    pub fn parse(text: &str) -> std::result::Result<Anchor, String> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [tag, position, log_hash, key_id, signature, micros] = parts[..] else {
            return Err(format!(
                "expected `{ANCHOR_TAG} POSITION LOG_HASH KEY_ID SIGNATURE MICROS`"
            ));
        };
        if tag != ANCHOR_TAG {
            return Err(format!("unknown anchor format {tag:?}"));
        }
        let hexfield = |name: &str, v: &str, len: usize| {
            hex::decode(v)
                .ok()
                .filter(|b| b.len() == len)
                .ok_or_else(|| format!("{name}: not {len} bytes of hex"))
        };
        Ok(Anchor {
            position: position
                .parse()
                .map_err(|_| format!("position: {position:?} is not a number"))?,
            log_hash: hexfield("log_hash", log_hash, 32)?,
            key_id: key_id.to_owned(),
            signature: hexfield("signature", signature, 64)?,
            written_at_micros: micros
                .parse()
                .map_err(|_| format!("written_at: {micros:?} is not a number"))?,
        })
    }

    /// Reads the anchor at `path`; `Ok(None)` when there is none yet.
    pub fn read(path: &Path) -> Result<Option<Anchor>> {
        let err = |m: String| Error::invalid("anchor", format!("{}: {m}", path.display()));
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(err(e.to_string())),
        };
        if meta.len() > MAX_ANCHOR_BYTES {
            return Err(err(format!("larger than {MAX_ANCHOR_BYTES} bytes")));
        }
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        Anchor::parse(&text).map(Some).map_err(err)
    }

    /// Replaces the anchor at `path` atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        use std::io::Write;
        let err = |e: std::io::Error| Error::invalid("anchor", format!("{}: {e}", path.display()));
        let tmp = path.with_extension("anchor-new");
        {
            // 0600 like the log and the keys (ADR platform-010); the rename keeps it.
            let mut opts = std::fs::OpenOptions::new();
            opts.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
            let mut f = opts.open(&tmp).map_err(err)?;
            #[cfg(unix)]
            {
                // A temporary file left by an older version keeps its mode on open.
                use std::os::unix::fs::PermissionsExt;
                f.set_permissions(std::fs::Permissions::from_mode(0o600))
                    .map_err(err)?;
            }
            f.write_all(self.to_line().as_bytes()).map_err(err)?;
            f.sync_all().map_err(err)?;
        }
        std::fs::rename(&tmp, path).map_err(err)?;
        if let Some(dir) = path.parent()
            && let Ok(d) = std::fs::File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_survives_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.anchor");
        assert_eq!(Anchor::read(&path).unwrap(), None);
        let a = Anchor {
            position: 42,
            log_hash: vec![3; 32],
            key_id: "0011223344556677".into(),
            signature: vec![9; 64],
            written_at_micros: 1_700_000_000_000_000,
        };
        a.write(&path).unwrap();
        assert_eq!(Anchor::read(&path).unwrap(), Some(a));
        std::fs::write(&path, "arbiter-anchor-v1 x").unwrap();
        assert!(Anchor::read(&path).is_err());
    }
}
