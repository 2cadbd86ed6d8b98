//! Signed events (ADR platform-006).
//!
//! Every append is **sealed**: the owning service signs, with its Ed25519 key, the hash
//! of the append's last event (`SEAL_DOMAIN ‖ hash`). That hash covers the event's
//! canonical bytes and its `prev_hash`, so one seal vouches for every event of the
//! append and for the stream's chain before it. A seal does not depend on the event's
//! global position, so a mirror's copy keeps its owner's seal and stays verifiable.
//!
//! Every commit also signs the **log chain** at its last position
//! (`LOG_DOMAIN ‖ position ‖ log_hash`, [`log_link`]), with the key of the process that
//! owns the log: that fixes the order of global positions across streams and the log's
//! length at the commit. The same signed pair, written outside the database, is the
//! anchor (`anchor.rs`).
//!
//! Keys: one per service, a 32-byte Ed25519 seed in `<key dir>/<service>.key` (mode
//! 0600, created on first use); its public half in `<service>.pub` as one line
//! `SERVICE KEY_ID PUBLIC_KEY_HEX`, where `KEY_ID` is the first 16 hex digits of
//! SHA-256(public key). Every `*.pub` file of the key dir and every line of the trusted
//! keys file (same format) is trusted for the service it names.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use ed25519_dalek::{Signature, Signer as _, SigningKey, Verifier as _, VerifyingKey};
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// Domain of a stream seal: the signed message is `SEAL_DOMAIN ‖ hash of the last event`.
pub const SEAL_DOMAIN: &[u8] = b"arbiter.v1 event seal\0";
/// Domain of a log seal and of an anchor: `LOG_DOMAIN ‖ position (8 bytes BE) ‖ log_hash`.
pub const LOG_DOMAIN: &[u8] = b"arbiter.v1 log seal\0";
/// Domain of the log chain link.
pub const LOG_CHAIN_DOMAIN: &[u8] = b"arbiter.v1 log chain\0";
/// The log chain's value before position 1.
pub const LOG_GENESIS: [u8; 32] = [0; 32];

/// `log_hash` after the event at `position` whose stream hash is `hash`.
pub fn log_link(prev: &[u8], position: i64, hash: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(LOG_CHAIN_DOMAIN);
    h.update(prev);
    h.update(position.to_be_bytes());
    h.update(hash);
    h.finalize().into()
}

/// The message a stream seal signs.
pub fn seal_message(hash: &[u8]) -> Vec<u8> {
    [SEAL_DOMAIN, hash].concat()
}

/// The message a log seal (or an anchor) signs.
pub fn log_message(position: i64, log_hash: &[u8]) -> Vec<u8> {
    [LOG_DOMAIN, &position.to_be_bytes(), log_hash].concat()
}

/// `KEY_ID` of a public key: the first 16 hex digits of its SHA-256.
pub fn key_id(key: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(key.as_bytes())[..8])
}

/// A service's signing key.
pub struct Signer {
    service: String,
    key: SigningKey,
    id: String,
}

impl Signer {
    fn new(service: &str, key: SigningKey) -> Self {
        let id = key_id(&key.verifying_key());
        Signer {
            service: service.to_owned(),
            key,
            id,
        }
    }
    /// The service it signs for.
    pub fn service(&self) -> &str {
        &self.service
    }
    /// Its key id.
    pub fn key_id(&self) -> &str {
        &self.id
    }
    /// Its public key.
    pub fn public_key(&self) -> VerifyingKey {
        self.key.verifying_key()
    }
    /// Signs `message`.
    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        self.key.sign(message).to_bytes().to_vec()
    }
}

/// Domain of a new key's proof of possession in `SigningKeyRotated`.
pub const ROTATION_DOMAIN: &[u8] = b"arbiter.v1 key rotation\0";

/// What a new key signs to prove possession: `ROTATION_DOMAIN ‖ service ‖ 0 ‖ previous id`.
pub fn rotation_message(service: &str, previous_key_id: &str) -> Vec<u8> {
    [
        ROTATION_DOMAIN,
        service.as_bytes(),
        &[0],
        previous_key_id.as_bytes(),
    ]
    .concat()
}

/// A key made for a rotation, not yet in use.
pub struct PendingRotation {
    /// The key in use until [`Keys::install`].
    pub old: Arc<Signer>,
    /// The next one.
    pub new: Signer,
}

/// A public key trusted for a service.
#[derive(Clone, Debug)]
pub struct TrustedKey {
    /// The service it speaks for.
    pub service: String,
    /// The key.
    pub key: VerifyingKey,
}

/// Why a signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealFault {
    /// No signature at all.
    Missing,
    /// The key id is not trusted.
    UnknownKey(String),
    /// The key belongs to another service.
    WrongService {
        /// Key id.
        key_id: String,
        /// The service the key is trusted for.
        key_service: String,
        /// The service the event claims.
        claimed: String,
    },
    /// The signature does not verify.
    BadSignature(String),
}

impl std::fmt::Display for SealFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SealFault::Missing => f.write_str("no signature"),
            SealFault::UnknownKey(k) => write!(f, "signed by key {k}, which is not trusted"),
            SealFault::WrongService {
                key_id,
                key_service,
                claimed,
            } => write!(
                f,
                "signed by key {key_id} of service {key_service}, not of {claimed}"
            ),
            SealFault::BadSignature(k) => write!(f, "the signature of key {k} does not verify"),
        }
    }
}

/// The signing keys of this process and the public keys it trusts.
pub struct Keys {
    /// Where keys are kept; `None`: ephemeral keys made in memory (tests, tools).
    dir: Option<PathBuf>,
    /// The service whose key seals the log chain (the process).
    log_owner: String,
    signers: Mutex<HashMap<String, Arc<Signer>>>,
    trusted: RwLock<HashMap<String, TrustedKey>>,
    trusted_file: Option<PathBuf>,
}

fn random_seed() -> Result<[u8; 32]> {
    use rand::TryRngCore as _;
    let mut seed = [0u8; 32];
    rand::rngs::OsRng
        .try_fill_bytes(&mut seed)
        .map_err(|e| Error::invalid("signing_key", format!("no OS randomness: {e}")))?;
    Ok(seed)
}

fn key_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::invalid("signing_key", format!("{}: {message}", path.display()))
}

/// Parses one `SERVICE KEY_ID PUBLIC_KEY_HEX` line.
fn parse_pub_line(line: &str) -> std::result::Result<Option<(String, VerifyingKey)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let parts: Vec<&str> = line.split_whitespace().collect();
    let [service, id, hexkey] = parts[..] else {
        return Err("expected `SERVICE KEY_ID PUBLIC_KEY_HEX`".into());
    };
    let bytes: [u8; 32] = hex::decode(hexkey)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or("the public key is not 64 hex digits")?;
    let key = VerifyingKey::from_bytes(&bytes).map_err(|e| format!("not an Ed25519 key: {e}"))?;
    if key_id(&key) != id {
        return Err(format!(
            "key id {id} does not match the key (its id is {})",
            key_id(&key)
        ));
    }
    Ok(Some((service.to_owned(), key)))
}

/// The `SERVICE KEY_ID PUBLIC_KEY_HEX` line of a key.
pub fn pub_line(service: &str, key: &VerifyingKey) -> String {
    format!("{service} {} {}", key_id(key), hex::encode(key.as_bytes()))
}

/// A key dir others may enter is made 0700, and a private key others may read 0600
/// (ADR platform-010). Best effort: a read-only mount of keys is left as it is, with a
/// warning.
fn tighten_key_dir(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let tighten = |p: &Path, mode: u32| {
            if let Ok(m) = std::fs::metadata(p)
                && m.permissions().mode() & 0o077 != 0
            {
                match std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)) {
                    Ok(()) => {
                        tracing::warn!(path = %p.display(), mode = format!("{mode:o}"), "others could read it: permissions tightened")
                    }
                    Err(e) => {
                        tracing::warn!(path = %p.display(), error = %e, "others can read it and its permissions could not be tightened")
                    }
                }
            }
        };
        tighten(dir, 0o700);
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let p = e.path();
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                if name.ends_with(".key") || name.ends_with(".key.new") {
                    tighten(&p, 0o600);
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts.open(path)?;
    f.write_all(contents.as_bytes())?;
    f.sync_all()
}

impl Keys {
    /// Keys made in memory on first use, trusted by this process only: for tests and
    /// tools. Seals they make cannot be verified after the process ends.
    pub fn ephemeral(log_owner: &str) -> Arc<Keys> {
        Arc::new(Keys {
            dir: None,
            log_owner: log_owner.to_owned(),
            signers: Mutex::new(HashMap::new()),
            trusted: RwLock::new(HashMap::new()),
            trusted_file: None,
        })
    }

    /// Keys kept in `dir` (created 0700 when missing); `log_owner` names the key that
    /// seals the log chain. Every `*.pub` of the dir and every line of `trusted_file`
    /// is trusted. A key of a service that has none yet is made on first use.
    pub fn in_dir(dir: &Path, log_owner: &str, trusted_file: Option<&Path>) -> Result<Arc<Keys>> {
        if !dir.exists() {
            std::fs::create_dir_all(dir).map_err(|e| key_error(dir, e))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                    .map_err(|e| key_error(dir, e))?;
            }
        }
        tighten_key_dir(dir);
        let keys = Keys {
            dir: Some(dir.to_owned()),
            log_owner: log_owner.to_owned(),
            signers: Mutex::new(HashMap::new()),
            trusted: RwLock::new(HashMap::new()),
            trusted_file: trusted_file.map(Path::to_owned),
        };
        keys.reload_trusted()?;
        keys.signer(log_owner)?;
        Ok(Arc::new(keys))
    }

    /// The service whose key seals the log chain.
    pub fn log_owner(&self) -> &str {
        &self.log_owner
    }

    /// Reads the trusted public keys again (the key dir's `*.pub` and the trusted
    /// keys file): a key another process made since is then known.
    pub fn reload_trusted(&self) -> Result<()> {
        let mut files = Vec::new();
        if let Some(dir) = &self.dir {
            let entries = std::fs::read_dir(dir).map_err(|e| key_error(dir, e))?;
            for entry in entries.flatten() {
                let p = entry.path();
                if p.extension().is_some_and(|x| x == "pub") {
                    files.push(p);
                }
            }
        }
        files.extend(self.trusted_file.clone());
        files.sort();
        let mut found = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|e| key_error(&path, e))?;
            if text.len() > 1 << 20 {
                return Err(key_error(&path, "larger than 1 MiB"));
            }
            for (i, line) in text.lines().enumerate() {
                match parse_pub_line(line) {
                    Ok(Some(k)) => found.push(k),
                    Ok(None) => {}
                    Err(m) => return Err(key_error(&path, format!("line {}: {m}", i + 1))),
                }
            }
        }
        let mut trusted = self.trusted.write().unwrap_or_else(|p| p.into_inner());
        for (service, key) in found {
            trusted.insert(key_id(&key), TrustedKey { service, key });
        }
        Ok(())
    }

    /// Trusts `key` for `service` (e.g. a key announced by a verified rotation event).
    pub fn trust(&self, service: &str, key: VerifyingKey) {
        let mut trusted = self.trusted.write().unwrap_or_else(|p| p.into_inner());
        trusted.insert(
            key_id(&key),
            TrustedKey {
                service: service.to_owned(),
                key,
            },
        );
    }

    /// The trusted key with this id.
    pub fn trusted(&self, key_id: &str) -> Option<TrustedKey> {
        let trusted = self.trusted.read().unwrap_or_else(|p| p.into_inner());
        trusted.get(key_id).cloned()
    }

    /// Every trusted key, sorted by service then id.
    pub fn trusted_keys(&self) -> Vec<(String, TrustedKey)> {
        let trusted = self.trusted.read().unwrap_or_else(|p| p.into_inner());
        let mut v: Vec<_> = trusted
            .iter()
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect();
        v.sort_by(|a, b| (&a.1.service, &a.0).cmp(&(&b.1.service, &b.0)));
        v
    }

    /// The signing key of `service`, loaded or made on first use.
    pub fn signer(&self, service: &str) -> Result<Arc<Signer>> {
        let mut signers = self.signers.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = signers.get(service) {
            return Ok(s.clone());
        }
        if service.is_empty()
            || !service
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(Error::invalid(
                "service",
                format!("{service:?} cannot name a signing key (letters, digits, - and _)"),
            ));
        }
        let key = match &self.dir {
            None => SigningKey::from_bytes(&random_seed()?),
            Some(dir) => load_or_make(dir, service)?,
        };
        let signer = Arc::new(Signer::new(service, key));
        self.trust(service, signer.public_key());
        signers.insert(service.to_owned(), signer.clone());
        Ok(signer)
    }

    /// A new key for `service`, not yet in use: the caller records the rotation (sealed
    /// by the old key, see `EventStore::rotate_key`) and then [`Keys::install`]s it.
    pub fn prepare_rotation(&self, service: &str) -> Result<PendingRotation> {
        Ok(PendingRotation {
            old: self.signer(service)?,
            new: Signer::new(service, SigningKey::from_bytes(&random_seed()?)),
        })
    }

    /// Puts a prepared key in use (the old public key stays trusted and is kept as
    /// `<service>.<KEY_ID>.pub`, so old seals stay verifiable).
    pub fn install(&self, rotation: PendingRotation) -> Result<Arc<Signer>> {
        let PendingRotation { old, new } = rotation;
        let service = new.service.clone();
        if let Some(dir) = &self.dir {
            let retired = dir.join(format!("{service}.{}.pub", old.key_id()));
            std::fs::write(&retired, pub_line(&service, &old.public_key()) + "\n")
                .map_err(|e| key_error(&retired, e))?;
            let tmp = dir.join(format!("{service}.key.new"));
            let _ = std::fs::remove_file(&tmp);
            write_private(&tmp, &(hex::encode(new.key.to_bytes()) + "\n"))
                .map_err(|e| key_error(&tmp, e))?;
            let pubf = dir.join(format!("{service}.pub"));
            std::fs::write(&pubf, pub_line(&service, &new.public_key()) + "\n")
                .map_err(|e| key_error(&pubf, e))?;
            let keyf = dir.join(format!("{service}.key"));
            std::fs::rename(&tmp, &keyf).map_err(|e| key_error(&keyf, e))?;
        }
        let new = Arc::new(new);
        self.trust(&service, new.public_key());
        let mut signers = self.signers.lock().unwrap_or_else(|p| p.into_inner());
        signers.insert(service, new.clone());
        Ok(new)
    }

    /// Trusts the key a `SigningKeyRotated` event announces, when the event is sealed
    /// (`seal_key_id`) by a key already trusted for its service and the new key proves
    /// possession. The caller has checked the event's hash and the seal's signature.
    pub fn trust_rotation(
        &self,
        event: &crate::RecordedEvent,
        seal_key_id: &str,
    ) -> std::result::Result<(), String> {
        use prost::Message as _;
        let r = arbiter_proto::v1::SigningKeyRotated::decode(event.payload.as_slice())
            .map_err(|e| format!("undecodable SigningKeyRotated: {e}"))?;
        if r.service != event.service || event.stream != format!("keys-{}", r.service) {
            return Err(format!(
                "a key of {:?} announced by {:?} on {}",
                r.service, event.service, event.stream
            ));
        }
        match self.trusted(seal_key_id) {
            Some(t) if t.service == r.service => {}
            _ => {
                return Err(format!(
                    "sealed by {seal_key_id}, not a key of {}",
                    r.service
                ));
            }
        }
        let bytes: [u8; 32] = r
            .public_key
            .as_slice()
            .try_into()
            .map_err(|_| "the public key is not 32 bytes".to_owned())?;
        let key = VerifyingKey::from_bytes(&bytes).map_err(|e| e.to_string())?;
        if key_id(&key) != r.key_id {
            return Err("the key id does not match the key".into());
        }
        let sig = Signature::from_slice(&r.possession).map_err(|e| e.to_string())?;
        key.verify(&rotation_message(&r.service, &r.previous_key_id), &sig)
            .map_err(|_| "the new key's proof of possession does not verify".to_owned())?;
        self.trust(&r.service, key);
        Ok(())
    }

    /// Checks a signature of `message` made by `key_id` for `service`. An unknown key
    /// id makes the trusted keys be read again once.
    pub fn check(
        &self,
        service: &str,
        key_id: &str,
        message: &[u8],
        signature: &[u8],
    ) -> std::result::Result<(), SealFault> {
        if signature.is_empty() || key_id.is_empty() {
            return Err(SealFault::Missing);
        }
        let trusted = match self.trusted(key_id) {
            Some(t) => t,
            None => {
                let _ = self.reload_trusted();
                self.trusted(key_id)
                    .ok_or_else(|| SealFault::UnknownKey(key_id.to_owned()))?
            }
        };
        if trusted.service != service {
            return Err(SealFault::WrongService {
                key_id: key_id.to_owned(),
                key_service: trusted.service,
                claimed: service.to_owned(),
            });
        }
        let sig = Signature::from_slice(signature)
            .map_err(|_| SealFault::BadSignature(key_id.to_owned()))?;
        trusted
            .key
            .verify(message, &sig)
            .map_err(|_| SealFault::BadSignature(key_id.to_owned()))
    }
}

impl Keys {
    /// True when every `(service, key id, message, signature)` would pass [`Keys::check`],
    /// checked as one Ed25519 batch (about twice as fast as one by one: the check at
    /// start verifies one seal per append since the anchor, ADR platform-011). False
    /// says only that one of them fails: [`Keys::check`] then names which and why.
    pub(crate) fn check_all(&self, items: &[(&str, &str, &[u8], &[u8])]) -> bool {
        let mut keys = Vec::with_capacity(items.len());
        let mut signatures = Vec::with_capacity(items.len());
        for (service, key_id, _, signature) in items {
            let Some(trusted) = self.trusted(key_id) else {
                return false;
            };
            let Ok(sig) = Signature::from_slice(signature) else {
                return false;
            };
            if trusted.service != *service {
                return false;
            }
            keys.push(trusted.key);
            signatures.push(sig);
        }
        let messages: Vec<&[u8]> = items.iter().map(|i| i.2).collect();
        ed25519_dalek::verify_batch(&messages, &signatures, &keys).is_ok()
    }
}

fn load_or_make(dir: &Path, service: &str) -> Result<SigningKey> {
    let path = dir.join(format!("{service}.key"));
    let key = if path.exists() {
        let text = std::fs::read_to_string(&path).map_err(|e| key_error(&path, e))?;
        let seed: [u8; 32] = hex::decode(text.trim())
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| key_error(&path, "not 64 hex digits (an Ed25519 seed)"))?;
        SigningKey::from_bytes(&seed)
    } else {
        let key = SigningKey::from_bytes(&random_seed()?);
        write_private(&path, &(hex::encode(key.to_bytes()) + "\n"))
            .map_err(|e| key_error(&path, e))?;
        key
    };
    let pubf = dir.join(format!("{service}.pub"));
    let line = pub_line(service, &key.verifying_key()) + "\n";
    if std::fs::read_to_string(&pubf).ok().as_deref() != Some(line.as_str()) {
        std::fs::write(&pubf, line).map_err(|e| key_error(&pubf, e))?;
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_verifies_only_for_its_service_and_message() {
        let keys = Keys::ephemeral("log");
        let s = keys.signer("registry").unwrap();
        let msg = seal_message(&[7; 32]);
        let sig = s.sign(&msg);
        assert_eq!(keys.check("registry", s.key_id(), &msg, &sig), Ok(()));
        assert!(matches!(
            keys.check("results", s.key_id(), &msg, &sig),
            Err(SealFault::WrongService { .. })
        ));
        assert!(matches!(
            keys.check("registry", s.key_id(), &seal_message(&[8; 32]), &sig),
            Err(SealFault::BadSignature(_))
        ));
        assert_eq!(
            keys.check("registry", "0011223344556677", &msg, &sig),
            Err(SealFault::UnknownKey("0011223344556677".into()))
        );
        assert_eq!(
            keys.check("registry", s.key_id(), &msg, &[]),
            Err(SealFault::Missing)
        );
    }

    #[test]
    fn keys_in_a_dir_survive_and_rotation_keeps_old_keys_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let k1 = Keys::in_dir(dir.path(), "arbiterd", None).unwrap();
        let a = k1.signer("registry").unwrap();
        let k2 = Keys::in_dir(dir.path(), "arbiterd", None).unwrap();
        assert_eq!(k2.signer("registry").unwrap().key_id(), a.key_id());
        let pending = k2.prepare_rotation("registry").unwrap();
        let old = pending.old.clone();
        let new = k2.install(pending).unwrap();
        assert_eq!(old.key_id(), a.key_id());
        let k3 = Keys::in_dir(dir.path(), "arbiterd", None).unwrap();
        assert_eq!(k3.signer("registry").unwrap().key_id(), new.key_id());
        let msg = seal_message(&[1; 32]);
        assert_eq!(
            k3.check("registry", old.key_id(), &msg, &old.sign(&msg)),
            Ok(())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("registry.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_pub_line_with_a_wrong_id_is_refused() {
        let keys = Keys::ephemeral("x");
        let k = keys.signer("a").unwrap().public_key();
        let line = pub_line("a", &k);
        assert!(parse_pub_line(&line).unwrap().is_some());
        let bad = line.replacen(&key_id(&k), "0000000000000000", 1);
        assert!(parse_pub_line(&bad).is_err());
    }
}
