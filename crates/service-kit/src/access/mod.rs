//! # Principals, roles and tokens (ADR platform-007)
//!
//! - [`roles`]: the one table of role × RPC ([`roles::RULES`]), its Markdown rendering.
//! - [`state`]: the fold of the `access` stream (principals, grants, token digests,
//!   public tournaments).
//! - [`tokens`]: the token form, its id and digest.
//! - [`service`]: the `AccessService` (commands that append to the `access` stream).
//! - [`jwt`]: federation single sign-on, bearer JWTs of one configured issuer (ADR
//!   platform-008).
//!
//! [`Access`] keeps the fold live (every access event of the log is applied as soon
//! as it is committed) and answers [`Access::authorize`]: every handler's first line,
//! through [`crate::auth::Auth::authorize`]. A revoked or expired token is refused by
//! the first request after its event is folded. A bearer JWT is verified by the
//! [`jwt::JwtVerifier`] given to [`Access::accept_jwts`] (refused when there is none).
pub mod jwt;
pub mod roles;
pub mod service;
pub mod state;
pub mod tokens;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};
use arbiter_proto::v1::{PrincipalAdded, RoleGranted, TokenIssued};
use prost::Message;
use tokio::sync::watch;
use tonic::{Request, Status};

use roles::{Anonymous, Role, Rule, ScopeKind};
pub use state::AccessState;

/// What a request is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope<'a> {
    /// The tournament the request names.
    Tournament(&'a str),
    /// No one tournament.
    Global,
}

impl<'a> Scope<'a> {
    /// `Tournament(id)`, or `Global` when `id` is empty (`VerifyLog`, grants).
    pub fn tournament_or_global(id: &'a str) -> Scope<'a> {
        if id.trim().is_empty() {
            Scope::Global
        } else {
            Scope::Tournament(id)
        }
    }
}

/// Who called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// What events record: `NAME (PRINCIPAL_ID; token TOKEN_ID)`; `anonymous` when
    /// no token was sent (only public reads).
    pub actor: String,
    /// `p_…`, or `jwt:<iss>#<sub>` for a federation JWT (empty: anonymous).
    pub principal_id: String,
    /// Display name.
    pub name: String,
    /// `t_…`, or `jwt <jti>` for a federation JWT (empty: anonymous).
    pub token_id: String,
    /// The principal's grants when it called.
    pub grants: Vec<(Role, Option<String>)>,
}

impl Caller {
    /// Whether it called without a token.
    pub fn is_anonymous(&self) -> bool {
        self.principal_id.is_empty()
    }

    /// Whether it holds `role` on every tournament.
    pub fn is_admin(&self) -> bool {
        self.grants
            .iter()
            .any(|(r, t)| *r == Role::Admin && t.is_none())
    }

    /// Whether a list shows it `tournament`: it holds a role on every tournament, or
    /// one on this one (what else it could read there, its roles decide per RPC).
    pub fn sees(&self, tournament: &str) -> bool {
        self.grants
            .iter()
            .any(|(_, on)| on.as_deref().is_none_or(|on| on == tournament))
    }

    /// Whether it may call `rpc` on `scope` only through the rule's `own` roles (a
    /// captain, not an arbiter): the command must then concern its own subject.
    pub fn only_as_own(&self, rpc: &str, scope: Scope<'_>) -> bool {
        let Some(rule) = roles::rule_of(rpc) else {
            return true;
        };
        if rule.own.is_empty() || rule.any_principal {
            return false;
        }
        !self
            .grants
            .iter()
            .any(|g| rule.roles.contains(&g.0) && grant_fits(rule, g, scope))
    }

    fn anonymous() -> Caller {
        Caller {
            actor: "anonymous".into(),
            principal_id: String::new(),
            name: "anonymous".into(),
            token_id: String::new(),
            grants: Vec::new(),
        }
    }
}

/// The actor string of a principal calling with a token.
pub fn actor(name: &str, principal_id: &str, token_id: &str) -> String {
    format!("{name} ({principal_id}; token {token_id})")
}

/// The display name in an actor string (`Anna (p_…; token t_…)` → `Anna`, also
/// `Anna (jwt:…; token jwt …)` → `Anna`).
pub fn actor_name(actor: &str) -> &str {
    [" (p_", " (jwt:"]
        .into_iter()
        .filter_map(|m| actor.rfind(m))
        .max()
        .map_or(actor, |i| &actor[..i])
}

fn now_micros() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

fn fmt_micros(us: i64) -> String {
    let secs = us / 1_000_000;
    format!("{secs} s after the Unix epoch")
}

struct Inner {
    state: RwLock<AccessState>,
    folded: watch::Sender<i64>,
    /// Tokens of a token file, used only when the log failed its check at start and
    /// has no access stream (nothing can be written then): `admin` for every line.
    fallback: HashMap<[u8; 32], String>,
    /// Serialises access commands of this process (decide, then append).
    pub(crate) writing: tokio::sync::Mutex<()>,
    /// Federation JWTs, when configured (set once at start).
    jwt: OnceLock<jwt::JwtVerifier>,
}

/// The live fold of the access stream, shared by every service of the process.
#[derive(Clone)]
pub struct Access {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access").finish_non_exhaustive()
    }
}

impl Default for Access {
    fn default() -> Self {
        Access::new(AccessState::default(), HashMap::new())
    }
}

impl Access {
    fn new(state: AccessState, fallback: HashMap<[u8; 32], String>) -> Access {
        let position = state.position;
        Access {
            inner: Arc::new(Inner {
                state: RwLock::new(state),
                folded: watch::channel(position).0,
                fallback,
                writing: tokio::sync::Mutex::new(()),
                jwt: OnceLock::new(),
            }),
        }
    }

    /// Folds the access stream of `store` as it is now.
    pub async fn load(store: &EventStore) -> arbiter_eventlog::Result<Access> {
        let mut s = AccessState::default();
        for e in store.read_stream(state::STREAM, 1).await? {
            s.apply(&e);
        }
        Ok(Access::new(s, HashMap::new()))
    }

    /// Keeps folding the access events `store` commits from now on, until `shutdown`.
    pub fn follow(&self, store: EventStore, mut shutdown: watch::Receiver<bool>) {
        let access = self.clone();
        let from = store_head_hint(&access);
        tokio::spawn(async move {
            let mut sub = store.subscribe(from);
            loop {
                let e = tokio::select! {
                    e = sub.next() => e,
                    _ = shutdown.changed() => return,
                };
                match e {
                    Ok(e) => access.apply(&e, e.global_position),
                    Err(err) => {
                        tracing::warn!(%err, "access: log read failed; retrying");
                        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    }
                }
            }
        });
    }

    fn apply(&self, e: &arbiter_eventlog::RecordedEvent, position: i64) {
        if e.stream == state::STREAM {
            let mut s = self.inner.state.write().unwrap_or_else(|p| p.into_inner());
            if e.stream_version > s.version {
                s.apply(e);
            }
        }
        self.inner.folded.send_if_modified(|p| {
            let changed = position > *p;
            *p = (*p).max(position);
            changed
        });
    }

    /// Waits until every event up to `position` is folded.
    pub async fn folded(&self, position: i64) {
        let mut rx = self.inner.folded.subscribe();
        let _ = rx.wait_for(|p| *p >= position).await;
    }

    /// A copy of the state (for lists and decisions).
    pub fn snapshot(&self) -> AccessState {
        self.inner
            .state
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Whether `tournament` is public.
    pub fn is_public(&self, tournament: &str) -> bool {
        self.inner
            .state
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .public
            .contains(tournament.trim())
    }

    /// Accepts bearer JWTs verified by `verifier` from now on (once per process; a
    /// second call is an error).
    pub fn accept_jwts(&self, verifier: jwt::JwtVerifier) -> anyhow::Result<()> {
        self.inner
            .jwt
            .set(verifier)
            .map_err(|_| anyhow::anyhow!("JWT sign-on is already configured"))
    }

    /// The JWT verifier, when JWTs are accepted.
    pub fn jwt(&self) -> Option<&jwt::JwtVerifier> {
        self.inner.jwt.get()
    }

    pub(crate) fn writing(&self) -> &tokio::sync::Mutex<()> {
        &self.inner.writing
    }

    /// The caller of `request` for `rpc` on `scope`, or `UNAUTHENTICATED` (no, unknown,
    /// revoked or expired token) or `PERMISSION_DENIED` naming the principal, the
    /// roles `rpc` needs and the tournament. The rule comes from [`roles::RULES`].
    pub fn authorize<T>(
        &self,
        request: &Request<T>,
        rpc: &str,
        scope: Scope<'_>,
    ) -> Result<Caller, Status> {
        let rule = roles::rule_of(rpc)
            .ok_or_else(|| Status::internal(format!("{rpc}: no access rule (fail closed)")))?;
        let Some(header) = request.metadata().get("authorization") else {
            let public = match (rule.anonymous, scope) {
                (Anonymous::Always, _) => true,
                (Anonymous::IfPublic, Scope::Tournament(t)) => self.is_public(t),
                _ => false,
            };
            if public {
                return Ok(Caller::anonymous());
            }
            let why = match (rule.anonymous, scope) {
                (Anonymous::IfPublic, Scope::Tournament(t)) => {
                    format!(" (tournament {:?} is not public)", t.trim())
                }
                _ => String::new(),
            };
            return Err(Status::unauthenticated(format!(
                "authorization: {rpc} needs a bearer token (ARBITER_TOKEN){why}"
            )));
        };
        let header = header
            .to_str()
            .map_err(|_| Status::unauthenticated("authorization: not ASCII"))?;
        let token = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .ok_or_else(|| Status::unauthenticated("authorization: expected `Bearer <token>`"))?;
        let caller = self.caller(token)?;
        check(rule, &caller, scope)?;
        Ok(caller)
    }

    /// The caller a token stands for: a JWT (three base64url parts, the first a JOSE
    /// header) goes to the JWT verifier, any other token is looked up in the fold.
    pub fn caller(&self, token: &str) -> Result<Caller, Status> {
        if jwt::looks_like_jwt(token) {
            match self.inner.jwt.get() {
                Some(v) => {
                    if let Some(r) = v.verify_if_jwt(token) {
                        return r;
                    }
                }
                None if jwt::header(token).is_some() => {
                    return Err(Status::unauthenticated(
                        "authorization: JWT not accepted: no issuer configured (--jwt-issuer, --jwt-audience and --jwt-jwks)",
                    ));
                }
                None => {}
            }
        }
        let digest = tokens::digest(token);
        let s = self.inner.state.read().unwrap_or_else(|p| p.into_inner());
        let Some(t) = s.by_digest.get(&digest).and_then(|id| s.tokens.get(id)) else {
            // The token file stands in only while there is no access stream at all (a
            // log that failed its check, or a follower the owner's stream has not yet
            // reached): once the stream is there, it alone decides.
            if s.version == 0
                && let Some(name) = self.inner.fallback.get(&digest)
            {
                let principal_id = tokens::file_principal_id(name);
                let token_id = tokens::token_id(token)
                    .map_or_else(|| tokens::file_token_id(token), str::to_owned);
                return Ok(Caller {
                    actor: actor(name, &principal_id, &token_id),
                    principal_id,
                    name: name.clone(),
                    token_id,
                    grants: vec![(Role::Admin, None)],
                });
            }
            let why = match tokens::token_id(token).and_then(|id| s.tokens.get(id)) {
                Some(t) if t.revoked && t.digest == digest => {
                    format!("token {} was revoked", t.id)
                }
                _ => "unknown token".to_owned(),
            };
            return Err(Status::unauthenticated(format!("authorization: {why}")));
        };
        if t.expires_at_micros > 0 && now_micros() >= t.expires_at_micros {
            return Err(Status::unauthenticated(format!(
                "authorization: token {} expired ({})",
                t.id,
                fmt_micros(t.expires_at_micros)
            )));
        }
        let p = s.principals.get(&t.principal_id).ok_or_else(|| {
            Status::unauthenticated(format!("authorization: token {} names no principal", t.id))
        })?;
        Ok(Caller {
            actor: actor(&p.name, &p.id, &t.id),
            principal_id: p.id.clone(),
            name: p.name.clone(),
            token_id: t.id.clone(),
            grants: p.grants.iter().cloned().collect(),
        })
    }

    /// For streams whose messages name their tournament (`BoardTelemetry`): whether
    /// `caller` may send `rpc` for `tournament`.
    pub fn check_message(caller: &Caller, rpc: &str, tournament: &str) -> Result<(), Status> {
        let rule = roles::rule_of(rpc)
            .ok_or_else(|| Status::internal(format!("{rpc}: no access rule (fail closed)")))?;
        check(rule, caller, Scope::Tournament(tournament))
    }
}

fn store_head_hint(access: &Access) -> i64 {
    // The fold was loaded from the access stream only: start after its last event.
    // Positions of other streams before it are skipped cheaply by `apply`.
    *access.inner.folded.borrow() + 1
}

/// Whether the grant `(role, on)` reaches `scope` under `rule` (whatever its role).
fn grant_fits(rule: &Rule, (_, on): &(Role, Option<String>), scope: Scope<'_>) -> bool {
    match (scope, rule.scope) {
        (_, ScopeKind::Global) | (Scope::Global, _) => true,
        (Scope::Tournament(t), _) => on.as_deref().is_none_or(|on| on == t.trim()),
    }
}

/// Whether `caller` may call `rule` on `scope` (`PERMISSION_DENIED` when not).
fn check(rule: &Rule, caller: &Caller, scope: Scope<'_>) -> Result<(), Status> {
    if rule.any_principal {
        return Ok(());
    }
    if caller
        .grants
        .iter()
        .any(|g| rule.allows(g.0) && grant_fits(rule, g, scope))
    {
        return Ok(());
    }
    let needs = rule
        .roles
        .iter()
        .chain(rule.own)
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(" or ");
    let on = match scope {
        Scope::Tournament(t) if rule.scope != ScopeKind::Global => {
            format!(" on tournament {}", t.trim())
        }
        _ => String::new(),
    };
    let has = if caller.grants.is_empty() {
        "no role".to_owned()
    } else {
        caller
            .grants
            .iter()
            .map(|(r, t)| match t {
                Some(t) => format!("{} on {t}", r.name()),
                None => format!("{} on every tournament", r.name()),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    Err(Status::permission_denied(format!(
        "permission denied: {} ({}) may not call {}{on}: it needs the role {needs}{on}; {} has {has}",
        caller.name, caller.principal_id, rule.rpc, caller.name
    )))
}

/// What [`bootstrap`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bootstrap {
    /// The access stream was there.
    Loaded,
    /// A new admin principal with a new token (show it once), stored in the file.
    Created {
        /// The token file.
        path: std::path::PathBuf,
        /// The token.
        token: String,
    },
    /// The token file's lines were recorded as admin principals (a log from before
    /// the access stream, or a standalone service given a shared token file).
    Imported(usize),
    /// The log failed its check: nothing written; the token file's tokens are admins
    /// in memory only.
    Fallback,
    /// Another service owns the access stream (distributed mode: the registry); this
    /// one folds the copies its mirror brings and writes nothing. Until the first one
    /// arrives, the token file's tokens are admins in memory, with the ids the owner
    /// records for them.
    Following,
}

/// Folds the access stream another service owns (copied into `store` by a mirror,
/// ADR platform-007); writes nothing. The token file, when there is one, stands in
/// until the stream's first event is here.
pub async fn follow_owner(
    store: &EventStore,
    token_file: &std::path::Path,
) -> anyhow::Result<(Access, Bootstrap)> {
    let mut state = AccessState::default();
    for e in store.read_stream(state::STREAM, 1).await? {
        state.apply(&e);
    }
    let fallback = if token_file.exists() {
        read_token_file(token_file)?
            .into_iter()
            .map(|(name, token)| (tokens::digest(&token), name))
            .collect()
    } else {
        HashMap::new()
    };
    Ok((Access::new(state, fallback), Bootstrap::Following))
}

/// Folds the access stream of `store`; when it has none, records the first admin:
/// the token file's lines when the file exists (each `NAME TOKEN` an admin principal,
/// tokens shorter than 32 characters refused), else a new `admin` principal whose new
/// token is written to `token_file` (mode 0600) as `admin TOKEN`.
pub async fn bootstrap(
    store: &EventStore,
    token_file: &std::path::Path,
    writable: bool,
) -> anyhow::Result<(Access, Bootstrap)> {
    let access = Access::load(store).await?;
    if access.inner.state.read().unwrap().version > 0 {
        return Ok((access, Bootstrap::Loaded));
    }
    let lines = if token_file.exists() {
        Some(read_token_file(token_file)?)
    } else {
        None
    };
    if !writable {
        let fallback = lines
            .unwrap_or_default()
            .into_iter()
            .map(|(name, token)| (tokens::digest(&token), name))
            .collect();
        return Ok((
            Access::new(AccessState::default(), fallback),
            Bootstrap::Fallback,
        ));
    }
    let (entries, outcome) = match lines {
        Some(lines) => {
            let n = lines.len();
            let entries = lines
                .into_iter()
                .map(|(name, token)| {
                    (
                        tokens::file_principal_id(&name),
                        name,
                        tokens::file_token_id(&token),
                        token,
                        "token file",
                    )
                })
                .collect::<Vec<_>>();
            (entries, Bootstrap::Imported(n))
        }
        None => {
            let (id, token) = tokens::new_token();
            write_new_token_file(token_file, &token)?;
            (
                // The first admin's id is derived from its name, as for a token file's
                // lines, so a follower that reads this file before the owner's stream
                // reaches it names the same principal.
                vec![(
                    tokens::file_principal_id("admin"),
                    "admin".to_owned(),
                    id,
                    token.clone(),
                    "first start",
                )],
                Bootstrap::Created {
                    path: token_file.to_owned(),
                    token,
                },
            )
        }
    };
    let mut events = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (pid, name, tid, token, label) in &entries {
        if seen.insert(pid.clone()) {
            events.push(event(
                state::types::PRINCIPAL_ADDED,
                PrincipalAdded {
                    principal_id: pid.clone(),
                    name: name.clone(),
                    email: String::new(),
                    kind: "person".into(),
                },
            ));
            events.push(event(
                state::types::ROLE_GRANTED,
                RoleGranted {
                    principal_id: pid.clone(),
                    role: Role::Admin.name().into(),
                    tournament_id: String::new(),
                },
            ));
        }
        events.push(event(
            state::types::TOKEN_ISSUED,
            TokenIssued {
                token_id: tid.clone(),
                principal_id: pid.clone(),
                digest: tokens::digest(token).to_vec(),
                label: (*label).to_owned(),
                expires_at_micros: 0,
            },
        ));
    }
    if !events.is_empty() {
        store
            .append(AppendRequest {
                stream: state::STREAM.into(),
                expected_version: Some(0),
                events,
                context: CommandContext {
                    command_id: format!("access-bootstrap-{}", uuid::Uuid::new_v4()),
                    actor: "arbiter (first start)".into(),
                    reason: format!("first admin from {}", token_file.display()),
                    service: state::SERVICE.into(),
                    ..Default::default()
                },
            })
            .await?;
    }
    Ok((Access::load(store).await?, outcome))
}

/// An event of the access stream.
pub fn event(event_type: &str, payload: impl Message) -> NewEvent {
    NewEvent {
        event_type: event_type.to_owned(),
        schema_version: 1,
        payload: payload.encode_to_vec(),
    }
}

/// `NAME TOKEN` lines (`#` comments); tokens shorter than
/// [`tokens::MIN_FILE_TOKEN_LEN`] are refused.
pub fn read_token_file(path: &std::path::Path) -> anyhow::Result<Vec<(String, String)>> {
    use anyhow::Context as _;
    // The io::Error stays the cause: a start-up error says what to do about it (ADR cli-003).
    let text =
        std::fs::read_to_string(path).with_context(|| format!("token file {}", path.display()))?;
    let mut pairs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (Some(name), Some(token), None) => {
                if token.len() < tokens::MIN_FILE_TOKEN_LEN {
                    anyhow::bail!(
                        "{}:{}: the token of {name} has {} characters; at least {} are needed (make one with `arbiter access token`)",
                        path.display(),
                        n + 1,
                        token.len(),
                        tokens::MIN_FILE_TOKEN_LEN
                    );
                }
                pairs.push((name.to_owned(), token.to_owned()));
            }
            _ => anyhow::bail!(
                "{}:{}: expected `NAME TOKEN`, found {line:?}",
                path.display(),
                n + 1
            ),
        }
    }
    Ok(pairs)
}

fn write_new_token_file(path: &std::path::Path, token: &str) -> anyhow::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut f = opts.open(path)?;
    writeln!(
        f,
        "# The first admin's token (ADR platform-007). More principals and tokens:\n# `arbiter access add`, `arbiter access token`.\nadmin {token}"
    )?;
    f.sync_all()?;
    Ok(())
}
