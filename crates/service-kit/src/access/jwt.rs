//! # Federation single sign-on: bearer JWTs (ADR platform-008)
//!
//! With `--jwt-issuer`, `--jwt-audience` and `--jwt-jwks FILE` a platform also accepts a
//! signed JWT as the bearer token. The JWKS file is read once at start; a token is
//! verified against the key its header names (`kid`), with the algorithm that key fixes
//! (the token's `alg` must equal it: `RS256`/`RS384`/`RS512`/`PS256`/`PS384`/`PS512` for
//! RSA keys of at least 2048 bits, `ES256` for P-256, `ES384` for P-384, `EdDSA` for
//! Ed25519; symmetric `oct` keys are refused at start).
//!
//! ## Claims
//! | claim | required | becomes |
//! |---|---|---|
//! | `iss` | yes | must equal `--jwt-issuer`; part of the principal id |
//! | `aud` | yes | must be (or contain) `--jwt-audience` |
//! | `exp` | yes | the token is refused after it (plus the leeway, default 60 s) |
//! | `nbf` | no | when present, refused before it (less the leeway) |
//! | `sub` | yes | principal id `jwt:<iss>#<sub>` |
//! | `name` | no | display name (else `sub`) |
//! | `jti` | no | token id `jwt <jti>` (else `jwt <first 12 hex of SHA-256(token)>`) |
//! | `arbiter_roles` | yes | the grants: an array of `"role"` (every tournament) or `"role:TOURNAMENT_ID"` |
//!
//! The actor recorded on events is `NAME (jwt:<iss>#<sub>; token jwt <id>)`, the same
//! form as an opaque token's (`super::actor`).
//!
//! ## Refusals
//! `UNAUTHENTICATED` when the token itself does not hold: malformed, unknown `kid`, wrong
//! `alg`, bad signature, expired, not yet valid, wrong issuer or audience, a required
//! claim missing. `PERMISSION_DENIED` when a verified token cannot be mapped to a
//! principal and grants: no `arbiter_roles` claim, a role name that is not a role, the
//! role `admin` (never granted by a JWT), a global-only role on one tournament, a `sub`
//! or `name` that could be mistaken for another actor. Each message names the principal.
//!
//! ## Revocation
//! Expiry only: a JWT is good until its `exp`. Verified tokens are kept in a bounded
//! cache until then, so a token sent with every request is checked once.
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, DecodingKeyKind, Header, Validation};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tonic::Status;

use super::Caller;
use super::roles::Role;

/// The claim that carries the grants.
pub const ROLES_CLAIM: &str = "arbiter_roles";
/// The largest JWKS file read at start.
pub const MAX_JWKS_BYTES: u64 = 1024 * 1024;
/// The longest bearer JWT accepted.
pub const MAX_TOKEN_BYTES: usize = 16 * 1024;
/// Most entries in `arbiter_roles`.
pub const MAX_ROLES: usize = 100;
/// The default leeway on `exp` and `nbf`, in seconds.
pub const DEFAULT_LEEWAY_SECONDS: u64 = 60;
/// The largest leeway accepted, in seconds.
pub const MAX_LEEWAY_SECONDS: u64 = 300;
/// Verified tokens kept (until their expiry) so a repeated token is checked once.
const CACHE_ENTRIES: usize = 4096;
/// Smallest RSA modulus accepted from the JWKS file.
const MIN_RSA_BITS: usize = 2048;

/// How federation JWTs are accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtConfig {
    /// The `iss` every token must carry.
    pub issuer: String,
    /// The `aud` every token must carry (or contain).
    pub audience: String,
    /// The JWKS file (`{"keys": [...]}`), read once at start.
    pub jwks: PathBuf,
    /// Seconds of clock skew allowed on `exp` and `nbf`.
    pub leeway_seconds: u64,
}

/// The flags that configure [`JwtConfig`] (shared by `arbiterd` and the standalone
/// services): all three of `--jwt-issuer`, `--jwt-audience`, `--jwt-jwks`, or none.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct JwtArgs {
    /// Accept federation bearer JWTs whose `iss` is ISSUER (with --jwt-audience and
    /// --jwt-jwks; ADR platform-008).
    #[arg(long, env = "ARBITER_JWT_ISSUER", value_name = "ISSUER")]
    pub jwt_issuer: Option<String>,
    /// The `aud` an accepted JWT must carry (with --jwt-issuer and --jwt-jwks).
    #[arg(long, env = "ARBITER_JWT_AUDIENCE", value_name = "AUDIENCE")]
    pub jwt_audience: Option<String>,
    /// The issuer's public keys, a JWKS file read once at start (with --jwt-issuer and
    /// --jwt-audience).
    #[arg(long, env = "ARBITER_JWT_JWKS", value_name = "FILE")]
    pub jwt_jwks: Option<PathBuf>,
    /// Seconds of clock skew allowed on a JWT's `exp` and `nbf` (at most 300).
    #[arg(long, env = "ARBITER_JWT_LEEWAY_SECONDS", value_name = "SECONDS", default_value_t = DEFAULT_LEEWAY_SECONDS, value_parser = clap::value_parser!(u64).range(0..=MAX_LEEWAY_SECONDS))]
    pub jwt_leeway_seconds: u64,
}

impl JwtArgs {
    /// The configuration, `None` when no JWT flag is given, an error naming the missing
    /// flags when only some are.
    pub fn config(&self) -> anyhow::Result<Option<JwtConfig>> {
        fn text(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|s| !s.is_empty())
        }
        let issuer = text(&self.jwt_issuer);
        let audience = text(&self.jwt_audience);
        let jwks = self.jwt_jwks.as_ref().filter(|p| !p.as_os_str().is_empty());
        match (issuer, audience, jwks) {
            (None, None, None) => Ok(None),
            (Some(issuer), Some(audience), Some(jwks)) => Ok(Some(JwtConfig {
                issuer: issuer.to_owned(),
                audience: audience.to_owned(),
                jwks: jwks.clone(),
                leeway_seconds: self.jwt_leeway_seconds,
            })),
            (i, a, j) => {
                let missing = [
                    (i.is_none(), "--jwt-issuer (ARBITER_JWT_ISSUER)"),
                    (a.is_none(), "--jwt-audience (ARBITER_JWT_AUDIENCE)"),
                    (j.is_none(), "--jwt-jwks (ARBITER_JWT_JWKS)"),
                ]
                .into_iter()
                .filter_map(|(m, f)| m.then_some(f))
                .collect::<Vec<_>>()
                .join(", ");
                anyhow::bail!(
                    "JWT sign-on needs all three of --jwt-issuer, --jwt-audience and --jwt-jwks, or none; missing: {missing}"
                )
            }
        }
    }
}

struct Key {
    alg: Algorithm,
    key: DecodingKey,
    validation: Validation,
}

struct Cached {
    caller: Caller,
    /// The last second (`exp` + leeway) the token is good for.
    good_until: u64,
}

/// Verifies bearer JWTs against the keys of one JWKS file.
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    jwks: PathBuf,
    leeway: u64,
    keys: HashMap<String, Key>,
    cache: Mutex<HashMap<[u8; 32], Cached>>,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("jwks", &self.jwks)
            .field("keys", &self.key_ids())
            .finish_non_exhaustive()
    }
}

/// The claims read from a verified token (the spec claims are optional here so that
/// `jsonwebtoken`'s validation, not deserialisation, names a missing one).
#[derive(Deserialize)]
struct Claims {
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    exp: Option<serde_json::Value>,
    #[serde(default)]
    name: Option<serde_json::Value>,
    #[serde(default)]
    jti: Option<serde_json::Value>,
    #[serde(default, rename = "arbiter_roles")]
    roles: Option<serde_json::Value>,
}

/// Whether `token` has the shape of a compact JWS: three non-empty base64url parts
/// joined by dots (an `arb_` token never has a dot).
pub fn looks_like_jwt(token: &str) -> bool {
    let mut parts = 0;
    for part in token.split('.') {
        parts += 1;
        if parts > 3
            || part.is_empty()
            || !part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return false;
        }
    }
    parts == 3
}

/// The JOSE header of `token`, when it is a JWT.
pub fn header(token: &str) -> Option<Header> {
    if !looks_like_jwt(token) {
        return None;
    }
    jsonwebtoken::decode_header(token).ok()
}

fn unauthenticated(msg: impl std::fmt::Display) -> Status {
    Status::unauthenticated(format!("authorization: {msg}"))
}

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

impl JwtVerifier {
    /// Reads the JWKS file of `config` (at most [`MAX_JWKS_BYTES`]); every error names
    /// the file and the key.
    pub fn from_config(config: &JwtConfig) -> anyhow::Result<JwtVerifier> {
        let path = &config.jwks;
        let text = read_bounded(path)?;
        let keys =
            parse_jwks(&text).map_err(|e| anyhow::anyhow!("--jwt-jwks {}: {e}", path.display()))?;
        if config.leeway_seconds > MAX_LEEWAY_SECONDS {
            anyhow::bail!(
                "--jwt-leeway-seconds {}: at most {MAX_LEEWAY_SECONDS}",
                config.leeway_seconds
            );
        }
        let (issuer, audience) = (config.issuer.trim(), config.audience.trim());
        if issuer.is_empty() || audience.is_empty() {
            anyhow::bail!("--jwt-issuer and --jwt-audience must not be empty");
        }
        if let Err(e) = check_id_part(issuer) {
            anyhow::bail!("--jwt-issuer {issuer:?}: {e}");
        }
        let keys = keys
            .into_iter()
            .map(|(kid, alg, key)| {
                let mut v = Validation::new(alg);
                v.set_issuer(&[issuer]);
                v.set_audience(&[audience]);
                v.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
                v.leeway = config.leeway_seconds;
                v.validate_exp = true;
                v.validate_nbf = true;
                v.validate_aud = true;
                (
                    kid,
                    Key {
                        alg,
                        key,
                        validation: v,
                    },
                )
            })
            .collect();
        Ok(JwtVerifier {
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            jwks: path.clone(),
            leeway: config.leeway_seconds,
            keys,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The key ids of the JWKS file, sorted.
    pub fn key_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.keys.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids
    }

    /// The issuer accepted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The caller `token` stands for; `None` when `token` is not a JWT at all (its first
    /// part is not a JOSE header), so that it can be looked up as an opaque token.
    pub fn verify_if_jwt(&self, token: &str) -> Option<Result<Caller, Status>> {
        if !looks_like_jwt(token) {
            return None;
        }
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let now = now();
        if let Some(c) = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&digest)
            && now <= c.good_until
        {
            return Some(Ok(c.caller.clone()));
        }
        let header = jsonwebtoken::decode_header(token).ok()?;
        Some(
            self.verify_uncached(token, &header, &digest)
                .inspect(|(caller, good_until)| {
                    let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
                    if cache.len() >= CACHE_ENTRIES {
                        cache.retain(|_, c| now <= c.good_until);
                        if cache.len() >= CACHE_ENTRIES {
                            cache.clear();
                        }
                    }
                    cache.insert(
                        digest,
                        Cached {
                            caller: caller.clone(),
                            good_until: *good_until,
                        },
                    );
                })
                .map(|(caller, _)| caller),
        )
    }

    /// Verifies without the cache (every request pays the signature check): for the
    /// benchmark and tests.
    pub fn verify_once(&self, token: &str) -> Result<Caller, Status> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(unauthenticated(format!(
                "JWT of {} bytes; at most {MAX_TOKEN_BYTES}",
                token.len()
            )));
        }
        let header = header(token).ok_or_else(|| unauthenticated("not a JWT"))?;
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        self.verify_uncached(token, &header, &digest)
            .map(|(c, _)| c)
    }

    fn verify_uncached(
        &self,
        token: &str,
        header: &Header,
        digest: &[u8; 32],
    ) -> Result<(Caller, u64), Status> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(unauthenticated(format!(
                "JWT of {} bytes; at most {MAX_TOKEN_BYTES}",
                token.len()
            )));
        }
        let jwks = self.jwks.display();
        let kid = header.kid.as_deref().ok_or_else(|| {
            unauthenticated(format!(
                "JWT has no `kid` in its header; the keys of {jwks} are named {}",
                self.key_ids().join(", ")
            ))
        })?;
        let key = self.keys.get(kid).ok_or_else(|| {
            unauthenticated(format!(
                "JWT signed with key {kid:?}, which is not in the JWKS file {jwks} (its keys: {})",
                self.key_ids().join(", ")
            ))
        })?;
        if header.alg != key.alg {
            return Err(unauthenticated(format!(
                "JWT alg {:?} does not match key {kid:?} of {jwks} ({:?})",
                header.alg, key.alg
            )));
        }
        let claims = match jsonwebtoken::decode::<Claims>(token, &key.key, &key.validation) {
            Ok(d) => d.claims,
            Err(e) => return Err(self.refusal(token, kid, e.kind())),
        };
        let exp = claims
            .exp
            .as_ref()
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| unauthenticated("JWT claim `exp` is not a whole number of seconds"))?;
        let caller = map_claims(&self.issuer, &claims, digest)?;
        Ok((caller, exp.saturating_add(self.leeway)))
    }

    /// The `UNAUTHENTICATED` answer for a token `jsonwebtoken` refused.
    fn refusal(&self, token: &str, kid: &str, kind: &ErrorKind) -> Status {
        // Only reached after the signature verified (jsonwebtoken checks it first) for
        // the claim errors below: naming the subject and times is then safe.
        let peek = || {
            jsonwebtoken::dangerous::insecure_decode::<serde_json::Value>(token)
                .map(|d| d.claims)
                .unwrap_or_default()
        };
        let subject = |c: &serde_json::Value| {
            c.get("sub")
                .and_then(serde_json::Value::as_str)
                .map_or_else(|| "a subject".to_owned(), |s| format!("{s:?}"))
        };
        let (jwks, leeway) = (self.jwks.display(), self.leeway);
        match kind {
            ErrorKind::InvalidSignature => unauthenticated(format!(
                "JWT signature does not verify with key {kid:?} of {jwks} (signed by another key?)"
            )),
            ErrorKind::ExpiredSignature => {
                let c = peek();
                let exp = c
                    .get("exp")
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0);
                unauthenticated(format!(
                    "JWT of {} expired {} s ago (exp {exp} s after the Unix epoch; leeway {leeway} s)",
                    subject(&c),
                    now().saturating_sub(exp)
                ))
            }
            ErrorKind::ImmatureSignature => {
                let c = peek();
                let nbf = c
                    .get("nbf")
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0);
                unauthenticated(format!(
                    "JWT of {} is not valid before {nbf} s after the Unix epoch ({} s from now; leeway {leeway} s)",
                    subject(&c),
                    nbf.saturating_sub(now())
                ))
            }
            ErrorKind::InvalidIssuer => {
                let c = peek();
                unauthenticated(format!(
                    "JWT issuer {} is not {:?} (--jwt-issuer)",
                    c.get("iss").unwrap_or(&serde_json::Value::Null),
                    self.issuer
                ))
            }
            ErrorKind::InvalidAudience => {
                let c = peek();
                unauthenticated(format!(
                    "JWT audience {} does not include {:?} (--jwt-audience)",
                    c.get("aud").unwrap_or(&serde_json::Value::Null),
                    self.audience
                ))
            }
            ErrorKind::MissingRequiredClaim(claim) => unauthenticated(format!(
                "JWT has no `{claim}` claim (exp, iss, aud and sub are required)"
            )),
            ErrorKind::InvalidClaimFormat(claim) => {
                unauthenticated(format!("JWT claim `{claim}` has the wrong type"))
            }
            ErrorKind::InvalidAlgorithm => {
                unauthenticated(format!("JWT alg does not match key {kid:?} of {jwks}"))
            }
            ErrorKind::InvalidToken
            | ErrorKind::Base64(_)
            | ErrorKind::Json(_)
            | ErrorKind::Utf8(_) => unauthenticated(format!("JWT is malformed ({kind:?})")),
            other => unauthenticated(format!("JWT refused ({other:?})")),
        }
    }
}

fn read_bounded(path: &Path) -> anyhow::Result<String> {
    use std::io::Read;
    let f = std::fs::File::open(path)
        .map_err(|e| anyhow::anyhow!("--jwt-jwks {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    f.take(MAX_JWKS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("--jwt-jwks {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_JWKS_BYTES {
        anyhow::bail!(
            "--jwt-jwks {}: larger than {MAX_JWKS_BYTES} bytes; a JWKS file holds public keys only",
            path.display()
        );
    }
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("--jwt-jwks {}: not UTF-8 text", path.display()))
}

/// The signing keys of a JWKS document: `(kid, algorithm, key)`. Keys marked
/// `"use": "enc"` are skipped; everything else must be a usable signing key.
fn parse_jwks(text: &str) -> Result<Vec<(String, Algorithm, DecodingKey)>, String> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let list = doc
        .get("keys")
        .and_then(serde_json::Value::as_array)
        .ok_or("expected a JWKS document, {\"keys\": [...]}")?;
    let mut out: Vec<(String, Algorithm, DecodingKey)> = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let kid = v.get("kid").and_then(serde_json::Value::as_str);
        let at = match kid {
            Some(k) => format!("key {} (kid {k:?})", i + 1),
            None => format!("key {}", i + 1),
        };
        let jwk: Jwk = serde_json::from_value(v.clone())
            .map_err(|e| format!("{at}: not a supported JWK ({e})"))?;
        if jwk.common.public_key_use == Some(PublicKeyUse::Encryption) {
            continue;
        }
        let kid = kid
            .filter(|k| !k.trim().is_empty())
            .ok_or(format!("{at}: has no `kid`; every key must be named"))?;
        if out.iter().any(|(k, _, _)| k == kid) {
            return Err(format!("{at}: the kid {kid:?} is used twice"));
        }
        let alg = key_algorithm(&jwk).map_err(|e| format!("{at}: {e}"))?;
        let key = DecodingKey::from_jwk(&jwk).map_err(|e| format!("{at}: {e}"))?;
        // A probe: an unusable key (a point off the curve, a bad modulus) fails here,
        // at start, instead of answering every token with "signature does not verify".
        jsonwebtoken::crypto::verify("AA", b"probe", &key, alg)
            .map_err(|e| format!("{at}: not a usable {alg:?} key ({e})"))?;
        out.push((kid.to_owned(), alg, key));
    }
    if out.is_empty() {
        return Err("no signing key".into());
    }
    Ok(out)
}

/// The one algorithm a key verifies: its `alg` when given, else the usual one of its type.
fn key_algorithm(jwk: &Jwk) -> Result<Algorithm, String> {
    use KeyAlgorithm as K;
    let named = jwk.common.key_algorithm;
    match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => {
            let key = DecodingKey::from_jwk(jwk).map_err(|e| e.to_string())?;
            if let DecodingKeyKind::RsaModulusExponent { n, .. } = key.kind() {
                let bits = n.iter().skip_while(|b| **b == 0).count() * 8;
                if bits < MIN_RSA_BITS {
                    return Err(format!(
                        "an RSA key of about {bits} bits; at least {MIN_RSA_BITS} are needed"
                    ));
                }
            }
            match named {
                None | Some(K::RS256) => Ok(Algorithm::RS256),
                Some(K::RS384) => Ok(Algorithm::RS384),
                Some(K::RS512) => Ok(Algorithm::RS512),
                Some(K::PS256) => Ok(Algorithm::PS256),
                Some(K::PS384) => Ok(Algorithm::PS384),
                Some(K::PS512) => Ok(Algorithm::PS512),
                Some(a) => Err(format!(
                    "alg {a} is not a signature algorithm of an RSA key"
                )),
            }
        }
        AlgorithmParameters::EllipticCurve(ec) => match (&ec.curve, named) {
            (EllipticCurve::P256, None | Some(K::ES256)) => Ok(Algorithm::ES256),
            (EllipticCurve::P384, None | Some(K::ES384)) => Ok(Algorithm::ES384),
            (EllipticCurve::P256 | EllipticCurve::P384, Some(a)) => {
                Err(format!("alg {a} does not fit its curve"))
            }
            (c, _) => Err(format!(
                "curve {c:?} is not supported for EC keys (P-256 and P-384 are)"
            )),
        },
        AlgorithmParameters::OctetKeyPair(okp) => match (&okp.curve, named) {
            (EllipticCurve::Ed25519, None | Some(K::EdDSA)) => Ok(Algorithm::EdDSA),
            (EllipticCurve::Ed25519, Some(a)) => Err(format!("alg {a} does not fit Ed25519")),
            (c, _) => Err(format!(
                "curve {c:?} is not supported for OKP keys (Ed25519 is)"
            )),
        },
        AlgorithmParameters::OctetKey(_) => Err(
            "a symmetric (oct) key: shared secrets are not accepted, only an issuer's public keys"
                .into(),
        ),
    }
}

/// A part of a principal id (`iss`, `sub`): no white space, control characters or
/// `;()` (the actor string's separators), at most 200 characters.
fn check_id_part(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Err("is empty".into());
    }
    if s.chars().count() > 200 {
        return Err("is longer than 200 characters".into());
    }
    if let Some(c) = s
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | '(' | ')'))
    {
        return Err(format!(
            "contains {c:?} (white space, control characters and `;()` are not allowed)"
        ));
    }
    Ok(())
}

/// The principal id of a federation subject: `jwt:<iss>#<sub>`.
pub fn principal_id(issuer: &str, subject: &str) -> String {
    format!("jwt:{issuer}#{subject}")
}

/// Maps verified claims to a caller (the claim names are in the module docs).
fn map_claims(issuer: &str, claims: &Claims, digest: &[u8; 32]) -> Result<Caller, Status> {
    let sub = claims.sub.as_deref().unwrap_or_default();
    let denied = |who: &str, msg: String| {
        Status::permission_denied(format!("permission denied: JWT of {who}: {msg}"))
    };
    check_id_part(sub).map_err(|e| denied(&format!("sub {sub:?}"), format!("`sub` {e}")))?;
    let principal_id = principal_id(issuer, sub);
    let name = match &claims.name {
        None | Some(serde_json::Value::Null) => sub.to_owned(),
        Some(serde_json::Value::String(n)) if n.trim().is_empty() => sub.to_owned(),
        Some(serde_json::Value::String(n)) => n.trim().to_owned(),
        Some(_) => return Err(denied(&principal_id, "`name` is not a string".into())),
    };
    if let Err(e) = crate::limits::check_text(&name, 200) {
        return Err(denied(&principal_id, format!("`name` {name:?}: {e}")));
    }
    if name.starts_with("p_")
        || name.starts_with("jwt:")
        || name.contains(" (p_")
        || name.contains(" (jwt:")
    {
        return Err(denied(
            &principal_id,
            format!("`name` {name:?} looks like a principal id"),
        ));
    }
    let who = format!("{name} ({principal_id})");
    let roles = match &claims.roles {
        None | Some(serde_json::Value::Null) => {
            return Err(denied(
                &who,
                format!(
                    "carries no {ROLES_CLAIM} claim; the identity provider must send the caller's roles (ADR platform-008)"
                ),
            ));
        }
        Some(serde_json::Value::Array(a)) => a,
        Some(_) => {
            return Err(denied(
                &who,
                format!("{ROLES_CLAIM} must be an array of strings like \"chief-arbiter:T_ID\""),
            ));
        }
    };
    let grants = parse_roles(roles).map_err(|e| denied(&who, e))?;
    let token_id = format!(
        "jwt {}",
        claims
            .jti
            .as_ref()
            .and_then(serde_json::Value::as_str)
            .filter(|j| {
                !j.is_empty()
                    && j.len() <= 64
                    && j.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')
                    })
            })
            .map_or_else(|| hex::encode(&digest[..6]), str::to_owned)
    );
    Ok(Caller {
        actor: super::actor(&name, &principal_id, &token_id),
        principal_id,
        name,
        token_id,
        grants,
    })
}

/// The grants of an `arbiter_roles` array.
fn parse_roles(roles: &[serde_json::Value]) -> Result<Vec<(Role, Option<String>)>, String> {
    if roles.len() > MAX_ROLES {
        return Err(format!(
            "{ROLES_CLAIM} has {} entries; at most {MAX_ROLES}",
            roles.len()
        ));
    }
    let mut grants: Vec<(Role, Option<String>)> = Vec::new();
    for (i, v) in roles.iter().enumerate() {
        let at = format!("{ROLES_CLAIM}[{i}]");
        let s = v
            .as_str()
            .ok_or_else(|| format!("{at} is not a string"))?
            .trim();
        let (name, on) = match s.split_once(':') {
            Some((r, t)) => (r.trim(), Some(t.trim())),
            None => (s, None),
        };
        let role = Role::parse(name).ok_or_else(|| {
            format!(
                "{at} {s:?}: {name:?} is not a role; one of {}",
                Role::ALL
                    .iter()
                    .filter(|r| **r != Role::Admin)
                    .map(|r| r.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        if role == Role::Admin {
            return Err(format!(
                "{at} {s:?}: admin is never granted by a JWT (use an admin token of the access stream)"
            ));
        }
        let on = match on {
            None => None,
            Some("") => return Err(format!("{at} {s:?}: no tournament id after `:`")),
            Some(t) => {
                if !role.per_tournament() {
                    return Err(format!(
                        "{at} {s:?}: {} is granted on every tournament, not on one",
                        role.name()
                    ));
                }
                crate::limits::check_text(t, 100).map_err(|e| format!("{at} {s:?}: {e}"))?;
                Some(t.to_owned())
            }
        };
        if !grants.contains(&(role, on.clone())) {
            grants.push((role, on));
        }
    }
    Ok(grants)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(v: serde_json::Value) -> Claims {
        serde_json::from_value(v).unwrap()
    }

    fn map(v: serde_json::Value) -> Result<Caller, Status> {
        map_claims("https://sso.example.org", &claims(v), &[0xab; 32])
    }

    #[test]
    fn claims_map_to_a_principal_its_grants_and_an_actor() {
        let c = map(json!({
            "sub": "fide-4100018",
            "name": "Anna Arbiter",
            "jti": "abc-123",
            "arbiter_roles": ["chief-arbiter:T1", "viewer", "integrator", "viewer"],
        }))
        .unwrap();
        assert_eq!(c.principal_id, "jwt:https://sso.example.org#fide-4100018");
        assert_eq!(c.name, "Anna Arbiter");
        assert_eq!(c.token_id, "jwt abc-123");
        assert_eq!(
            c.grants,
            vec![
                (Role::ChiefArbiter, Some("T1".into())),
                (Role::Viewer, None),
                (Role::Integrator, None)
            ]
        );
        assert_eq!(
            c.actor,
            "Anna Arbiter (jwt:https://sso.example.org#fide-4100018; token jwt abc-123)"
        );
        assert_eq!(super::super::actor_name(&c.actor), "Anna Arbiter");
        assert!(!c.is_admin() && !c.is_anonymous());
    }

    #[test]
    fn the_name_falls_back_to_sub_and_the_token_id_to_the_digest() {
        let c = map(json!({"sub": "u1", "arbiter_roles": []})).unwrap();
        assert_eq!(c.name, "u1");
        assert_eq!(c.token_id, "jwt abababababab");
        assert!(c.grants.is_empty());
        let c = map(json!({"sub": "u1", "name": " ", "jti": "has space", "arbiter_roles": []}))
            .unwrap();
        assert_eq!(
            (c.name.as_str(), c.token_id.as_str()),
            ("u1", "jwt abababababab")
        );
    }

    #[test]
    fn a_missing_role_claim_is_refused_naming_the_principal() {
        let e = map(json!({"sub": "u1", "name": "Hugo"})).unwrap_err();
        assert_eq!(e.code(), tonic::Code::PermissionDenied);
        assert!(
            e.message()
                .contains("JWT of Hugo (jwt:https://sso.example.org#u1)")
                && e.message().contains("carries no arbiter_roles claim"),
            "{}",
            e.message()
        );
        let e = map(json!({"sub": "u1", "arbiter_roles": "viewer"})).unwrap_err();
        assert!(e.message().contains("must be an array"), "{}", e.message());
    }

    #[test]
    fn unknown_admin_and_misscoped_roles_are_refused() {
        for (roles, needle) in [
            (json!(["superuser"]), "\"superuser\" is not a role"),
            (json!(["admin"]), "admin is never granted by a JWT"),
            (
                json!(["integrator:T1"]),
                "integrator is granted on every tournament",
            ),
            (json!(["chief-arbiter:"]), "no tournament id"),
            (json!([7]), "arbiter_roles[0] is not a string"),
            (json!(["viewer:T\u{7}"]), "control character"),
        ] {
            let e = map(json!({"sub": "u1", "arbiter_roles": roles})).unwrap_err();
            assert_eq!(e.code(), tonic::Code::PermissionDenied);
            assert!(e.message().contains(needle), "{needle}: {}", e.message());
        }
        let many: Vec<_> = (0..=MAX_ROLES).map(|i| format!("viewer:T{i}")).collect();
        let e = map(json!({"sub": "u1", "arbiter_roles": many})).unwrap_err();
        assert!(e.message().contains("at most 100"), "{}", e.message());
    }

    #[test]
    fn subjects_and_names_that_could_pass_for_another_actor_are_refused() {
        for sub in ["a b", "x;y", "p)", ""] {
            let e = map(json!({"sub": sub, "arbiter_roles": []})).unwrap_err();
            assert_eq!(e.code(), tonic::Code::PermissionDenied, "{sub:?}");
        }
        for name in [
            "Eve (p_123; token t_1)",
            "p_0123",
            "jwt:x#y",
            "Eve\u{1b}[31m",
        ] {
            let e = map(json!({"sub": "u1", "name": name, "arbiter_roles": []})).unwrap_err();
            assert_eq!(e.code(), tonic::Code::PermissionDenied, "{name:?}");
        }
    }

    #[test]
    fn only_compact_jws_shapes_look_like_jwts() {
        assert!(looks_like_jwt("eyJh.eyJz.c2ln"));
        assert!(!looks_like_jwt("arb_t_0123456789ab_00ff"));
        assert!(!looks_like_jwt("a.b"));
        assert!(!looks_like_jwt("a.b.c.d"));
        assert!(!looks_like_jwt("a..c"));
        assert!(!looks_like_jwt("a.b=.c"));
        assert!(header("abc.def.ghi").is_none());
    }

    #[test]
    fn the_flags_go_together() {
        let none = JwtArgs::default();
        assert_eq!(none.config().unwrap(), None);
        let some = JwtArgs {
            jwt_issuer: Some("https://sso.example.org".into()),
            jwt_audience: Some("arbiter".into()),
            ..Default::default()
        };
        let e = some.config().unwrap_err().to_string();
        assert!(e.contains("missing: --jwt-jwks"), "{e}");
        let all = JwtArgs {
            jwt_jwks: Some("keys.json".into()),
            ..some
        };
        assert_eq!(
            all.config().unwrap().unwrap().jwks,
            PathBuf::from("keys.json")
        );
    }

    #[test]
    fn bad_jwks_files_are_refused_naming_the_file_and_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = |text: &str| {
            let path = dir.path().join("jwks.json");
            std::fs::write(&path, text).unwrap();
            JwtVerifier::from_config(&JwtConfig {
                issuer: "https://sso.example.org".into(),
                audience: "arbiter".into(),
                jwks: path,
                leeway_seconds: 0,
            })
            .map(|_| ())
            .unwrap_err()
            .to_string()
        };
        let e = cfg("nope");
        assert!(e.contains("jwks.json") && e.contains("not JSON"), "{e}");
        let e = cfg(r#"{"keys": []}"#);
        assert!(e.contains("no signing key"), "{e}");
        let e = cfg(r#"{"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "s"}]}"#);
        assert!(
            e.contains("key 1 (kid \"s\")") && e.contains("symmetric"),
            "{e}"
        );
        let e = cfg(r#"{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB", "kid": "r"}]}"#);
        assert!(e.contains("at least 2048"), "{e}");
        let e = cfg(r#"{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "AAAA"}]}"#);
        assert!(e.contains("has no `kid`"), "{e}");
        let big = format!(
            "{{\"keys\": [], \"pad\": \"{}\"}}",
            "x".repeat(MAX_JWKS_BYTES as usize)
        );
        assert!(cfg(&big).contains("larger than"));
        let missing = JwtVerifier::from_config(&JwtConfig {
            issuer: "i".into(),
            audience: "a".into(),
            jwks: dir.path().join("absent.json"),
            leeway_seconds: 0,
        })
        .unwrap_err()
        .to_string();
        assert!(missing.contains("absent.json"), "{missing}");
    }

    // Tokens signed with keys made here, verified through a JWKS file.

    use base64::Engine as _;
    use jsonwebtoken::{EncodingKey, jwk::JwkSet};
    use p256::pkcs8::EncodePrivateKey as _;
    use rand_core::{OsRng, RngCore};

    const ISS: &str = "https://sso.example.org";

    struct Signer {
        kid: &'static str,
        alg: Algorithm,
        key: EncodingKey,
        jwk: Jwk,
    }

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    fn es256(kid: &'static str) -> Signer {
        let sk = p256::SecretKey::random(&mut OsRng);
        let key = EncodingKey::from_ec_der(sk.to_pkcs8_der().unwrap().as_bytes());
        let mut jwk = Jwk::from_encoding_key(&key, Algorithm::ES256).unwrap();
        jwk.common.key_id = Some(kid.into());
        Signer {
            kid,
            alg: Algorithm::ES256,
            key,
            jwk,
        }
    }

    fn eddsa(kid: &'static str) -> Signer {
        let mut seed = [0u8; 32];
        OsRng.fill_bytes(&mut seed);
        let sk = ed25519_dalek::SigningKey::from_bytes(&seed);
        let der = ed25519_dalek::pkcs8::EncodePrivateKey::to_pkcs8_der(&sk).unwrap();
        let jwk: Jwk = serde_json::from_value(json!({
            "kty": "OKP", "crv": "Ed25519", "kid": kid, "use": "sig",
            "x": b64(sk.verifying_key().as_bytes()),
        }))
        .unwrap();
        Signer {
            kid,
            alg: Algorithm::EdDSA,
            key: EncodingKey::from_ed_der(der.as_bytes()),
            jwk,
        }
    }

    fn rs256(kid: &'static str) -> Signer {
        use rsa::pkcs1::EncodeRsaPrivateKey as _;
        let sk = rsa::RsaPrivateKey::new(&mut OsRng, 2048).unwrap();
        let key = EncodingKey::from_rsa_der(sk.to_pkcs1_der().unwrap().as_bytes());
        let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).unwrap();
        jwk.common.key_id = Some(kid.into());
        Signer {
            kid,
            alg: Algorithm::RS256,
            key,
            jwk,
        }
    }

    impl Signer {
        fn sign(&self, claims: &serde_json::Value) -> String {
            let mut h = Header::new(self.alg);
            h.kid = Some(self.kid.into());
            jsonwebtoken::encode(&h, claims, &self.key).unwrap()
        }
    }

    fn verifier(dir: &Path, keys: &[&Signer]) -> JwtVerifier {
        let path = dir.join("jwks.json");
        let set = JwkSet {
            keys: keys.iter().map(|k| k.jwk.clone()).collect(),
        };
        std::fs::write(&path, serde_json::to_string(&set).unwrap()).unwrap();
        JwtVerifier::from_config(&JwtConfig {
            issuer: ISS.into(),
            audience: "arbiter".into(),
            jwks: path,
            leeway_seconds: 5,
        })
        .unwrap()
    }

    fn good(extra: serde_json::Value) -> serde_json::Value {
        let mut c = json!({
            "iss": ISS, "aud": "arbiter", "sub": "u1", "name": "Anna Arbiter",
            "exp": now() + 600, "arbiter_roles": ["chief-arbiter:T1"],
        });
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                c.as_object_mut().unwrap().remove(k);
            } else {
                c[k] = v.clone();
            }
        }
        c
    }

    fn refused(v: &JwtVerifier, token: &str) -> Status {
        match v.verify_if_jwt(token) {
            Some(Err(s)) => s,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn es256_eddsa_and_rs256_tokens_verify_by_kid_and_the_rest_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (ec, ed, rs) = (es256("ec-1"), eddsa("ed-1"), rs256("rsa-1"));
        let v = verifier(dir.path(), &[&ec, &ed, &rs]);
        assert_eq!(v.key_ids(), vec!["ec-1", "ed-1", "rsa-1"]);
        for s in [&ec, &ed, &rs] {
            let c = v.verify_if_jwt(&s.sign(&good(json!({})))).unwrap().unwrap();
            assert_eq!(c.principal_id, format!("jwt:{ISS}#u1"), "{:?}", s.alg);
            assert_eq!(c.grants, vec![(Role::ChiefArbiter, Some("T1".into()))]);
            assert_eq!(v.verify_once(&s.sign(&good(json!({})))).unwrap(), c);
        }

        // Expired (beyond the leeway), not yet valid.
        let e = refused(&v, &ec.sign(&good(json!({"exp": now() - 60}))));
        assert_eq!(e.code(), tonic::Code::Unauthenticated);
        assert!(
            e.message().contains("JWT of \"u1\" expired"),
            "{}",
            e.message()
        );
        assert!(
            v.verify_if_jwt(&ec.sign(&good(json!({"exp": now() - 2}))))
                .unwrap()
                .is_ok()
        );
        let e = refused(&v, &ec.sign(&good(json!({"nbf": now() + 600}))));
        assert!(e.message().contains("not valid before"), "{}", e.message());

        // Wrong audience, wrong issuer, a required claim missing.
        let e = refused(&v, &ed.sign(&good(json!({"aud": "other-app"}))));
        assert_eq!(e.code(), tonic::Code::Unauthenticated);
        assert!(
            e.message()
                .contains("audience \"other-app\" does not include \"arbiter\""),
            "{}",
            e.message()
        );
        let e = refused(&v, &ed.sign(&good(json!({"aud": ["a", "b"]}))));
        assert!(e.message().contains("does not include"), "{}", e.message());
        assert!(
            v.verify_if_jwt(&ed.sign(&good(json!({"aud": ["a", "arbiter"]}))))
                .unwrap()
                .is_ok()
        );
        let e = refused(&v, &ed.sign(&good(json!({"iss": "https://evil.example"}))));
        assert!(
            e.message()
                .contains("issuer \"https://evil.example\" is not"),
            "{}",
            e.message()
        );
        for claim in ["exp", "sub", "aud", "iss"] {
            let e = refused(&v, &ed.sign(&good(json!({ claim: null }))));
            assert!(
                e.message().contains(&format!("no `{claim}` claim")),
                "{claim}: {}",
                e.message()
            );
        }

        // Wrong key: one not in the file, or another key under a kid of the file.
        let stranger = es256("ec-9");
        let e = refused(&v, &stranger.sign(&good(json!({}))));
        assert!(
            e.message()
                .contains("\"ec-9\", which is not in the JWKS file"),
            "{}",
            e.message()
        );
        let forger = Signer {
            kid: "ec-1",
            ..es256("x")
        };
        let e = refused(&v, &forger.sign(&good(json!({}))));
        assert!(
            e.message()
                .contains("signature does not verify with key \"ec-1\""),
            "{}",
            e.message()
        );

        // The algorithm is the key's, whatever the header says.
        let confused = Signer {
            kid: "rsa-1",
            ..eddsa("x")
        };
        let e = refused(&v, &confused.sign(&good(json!({}))));
        assert!(
            e.message().contains("does not match key \"rsa-1\""),
            "{}",
            e.message()
        );
        let hmac = jsonwebtoken::encode(
            &Header {
                kid: Some("ec-1".into()),
                ..Header::new(Algorithm::HS256)
            },
            &good(json!({})),
            &EncodingKey::from_secret(b"guess"),
        )
        .unwrap();
        assert_eq!(refused(&v, &hmac).code(), tonic::Code::Unauthenticated);

        // No role claim: authenticated, but nothing it may do.
        let e = refused(&v, &ec.sign(&good(json!({"arbiter_roles": null}))));
        assert_eq!(e.code(), tonic::Code::PermissionDenied);
        assert!(
            e.message().contains("carries no arbiter_roles claim"),
            "{}",
            e.message()
        );

        // Not a JWT at all: left to the opaque-token lookup.
        assert!(v.verify_if_jwt("arb_t_0123456789ab_ff").is_none());
        assert!(v.verify_if_jwt("abc.def.ghi").is_none());
    }

    #[test]
    fn a_verified_token_is_cached_until_it_expires() {
        let dir = tempfile::tempdir().unwrap();
        let ec = es256("ec-1");
        let v = verifier(dir.path(), &[&ec]);
        let t = ec.sign(&good(json!({"exp": now() + 600})));
        let first = v.verify_if_jwt(&t).unwrap().unwrap();
        assert_eq!(v.cache.lock().unwrap().len(), 1);
        assert_eq!(v.verify_if_jwt(&t).unwrap().unwrap(), first);
        // An entry past its time is not served: the token is checked again, and refused.
        let old = ec.sign(&good(json!({"exp": now() - 60})));
        let digest: [u8; 32] = Sha256::digest(old.as_bytes()).into();
        v.cache.lock().unwrap().insert(
            digest,
            Cached {
                caller: first,
                good_until: now() - 1,
            },
        );
        assert!(refused(&v, &old).message().contains("expired"));
    }
}
