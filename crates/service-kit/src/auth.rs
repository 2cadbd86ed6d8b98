//! Bearer tokens. A token file holds one `ACTOR TOKEN` pair per line (`#` comments);
//! the server keeps only SHA-256 digests in memory. [`Auth::load_or_create`] writes an
//! `admin` token on first start (mode 0600) and says so once.
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use tonic::{Request, Status};

/// Who may call mutating RPCs.
#[derive(Clone, Debug)]
pub struct Auth {
    /// sha256(token) → actor.
    tokens: HashMap<[u8; 32], String>,
    /// Set when the event log failed its check at start: every write is refused.
    refuse_writes: Option<String>,
}

/// What happened when the token file was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenFile {
    /// The file existed.
    Loaded(PathBuf),
    /// The file was created with a new admin token (show it once).
    Created {
        /// Where.
        path: PathBuf,
        /// The new admin token.
        token: String,
    },
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.trim().as_bytes()).into()
}

/// A new random token (`arb_` + 64 hex digits, from the OS random source via UUID v4).
pub fn new_token() -> String {
    format!(
        "arb_{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

impl Auth {
    /// Tokens from `(actor, token)` pairs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        Auth {
            tokens: pairs
                .into_iter()
                .map(|(actor, token)| (digest(token), actor.to_owned()))
                .collect(),
            refuse_writes: None,
        }
    }

    /// Refuses every write from now on (`FAILED_PRECONDITION` with `why`).
    pub fn refuse_writes(&mut self, why: String) {
        self.refuse_writes = Some(why);
    }

    /// Reads the token file, creating it with a fresh `admin` token when missing.
    pub fn load_or_create(path: &Path) -> anyhow::Result<(Auth, TokenFile)> {
        if !path.exists() {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let token = new_token();
            let mut opts = std::fs::OpenOptions::new();
            opts.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
            let mut f = opts.open(path)?;
            writeln!(
                f,
                "# Arbiter API tokens: one `ACTOR TOKEN` per line.\nadmin {token}"
            )?;
            f.sync_all()?;
            let auth = Auth::from_pairs([("admin", token.as_str())]);
            return Ok((
                auth,
                TokenFile::Created {
                    path: path.to_owned(),
                    token,
                },
            ));
        }
        let text = std::fs::read_to_string(path)?;
        let mut pairs = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split_whitespace();
            match (parts.next(), parts.next(), parts.next()) {
                (Some(actor), Some(token), None) => pairs.push((actor, token)),
                _ => anyhow::bail!(
                    "{}:{}: expected `ACTOR TOKEN`, found {line:?}",
                    path.display(),
                    n + 1
                ),
            }
        }
        Ok((Auth::from_pairs(pairs), TokenFile::Loaded(path.to_owned())))
    }

    /// The first token of `actor` in a token file (how the CLI finds the admin token).
    pub fn read_token(path: &Path, actor: &str) -> Option<String> {
        std::fs::read_to_string(path).ok()?.lines().find_map(|l| {
            let mut p = l.split_whitespace();
            (p.next() == Some(actor)).then(|| p.next().map(str::to_owned))?
        })
    }

    /// The authenticated actor of a request, or `UNAUTHENTICATED` naming the RPC.
    /// Every mutating RPC resolves its actor here first, so this is also where writes
    /// are refused when the event log failed its check at start.
    pub fn actor<T>(&self, request: &Request<T>, rpc: &str) -> Result<String, Status> {
        if let Some(why) = &self.refuse_writes {
            return Err(Status::failed_precondition(format!("{rpc}: {why}")));
        }
        let header = request
            .metadata()
            .get("authorization")
            .ok_or_else(|| {
                Status::unauthenticated(format!(
                    "authorization: {rpc} needs a bearer token (ARBITER_TOKEN)"
                ))
            })?
            .to_str()
            .map_err(|_| Status::unauthenticated("authorization: not ASCII"))?;
        let token = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .ok_or_else(|| Status::unauthenticated("authorization: expected `Bearer <token>`"))?;
        self.tokens
            .get(&digest(token))
            .cloned()
            .ok_or_else(|| Status::unauthenticated("authorization: unknown token"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_file_is_created_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/tokens");
        let (auth, created) = Auth::load_or_create(&path).unwrap();
        let TokenFile::Created { token, .. } = created else {
            panic!("expected a new file")
        };
        let mut req = Request::new(());
        req.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        assert_eq!(auth.actor(&req, "X").unwrap(), "admin");
        let (again, loaded) = Auth::load_or_create(&path).unwrap();
        assert!(matches!(loaded, TokenFile::Loaded(_)));
        assert_eq!(again.actor(&req, "X").unwrap(), "admin");
        assert_eq!(Auth::read_token(&path, "admin").unwrap(), token);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn missing_or_wrong_tokens_are_unauthenticated() {
        let auth = Auth::from_pairs([("arbiter-1", "secret")]);
        let err = auth
            .actor(&Request::new(()), "CreateTournament")
            .unwrap_err();
        assert_eq!(err.code(), tonic::Code::Unauthenticated);
        assert!(err.message().contains("CreateTournament"));
        let mut req = Request::new(());
        req.metadata_mut()
            .insert("authorization", "Bearer nope".parse().unwrap());
        assert_eq!(
            auth.actor(&req, "X").unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
    }

    #[test]
    fn malformed_token_file_names_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens");
        std::fs::write(&path, "# c\nadmin a b\n").unwrap();
        let err = Auth::load_or_create(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }
}
