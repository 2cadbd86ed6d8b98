//! The fold of the `access` stream: principals, their grants, token digests, public
//! tournaments. Pure: [`AccessState::apply`] takes one recorded event.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use arbiter_eventlog::RecordedEvent;
use arbiter_proto::v1::{
    PrincipalAdded, RoleGranted, RoleRevoked, TokenIssued, TokenRevoked, TournamentVisibilitySet,
};
use prost::Message;

use super::roles::Role;

/// The access stream's name.
pub const STREAM: &str = "access";
/// The owning service in events.
pub const SERVICE: &str = "access";

/// Event type names.
pub mod types {
    /// `PrincipalAdded`.
    pub const PRINCIPAL_ADDED: &str = "PrincipalAdded";
    /// `RoleGranted`.
    pub const ROLE_GRANTED: &str = "RoleGranted";
    /// `RoleRevoked`.
    pub const ROLE_REVOKED: &str = "RoleRevoked";
    /// `TokenIssued`.
    pub const TOKEN_ISSUED: &str = "TokenIssued";
    /// `TokenRevoked`.
    pub const TOKEN_REVOKED: &str = "TokenRevoked";
    /// `TournamentVisibilitySet`.
    pub const VISIBILITY_SET: &str = "TournamentVisibilitySet";
}

/// A principal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// `p_…`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// E-mail (personal data).
    pub email: String,
    /// `person` or `system`.
    pub kind: String,
    /// (role, tournament; `None`: every tournament).
    pub grants: BTreeSet<(Role, Option<String>)>,
}

/// A token as recorded (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// `t_…`.
    pub id: String,
    /// Whose.
    pub principal_id: String,
    /// SHA-256 of the token.
    pub digest: [u8; 32],
    /// Free text.
    pub label: String,
    /// 0: never.
    pub expires_at_micros: i64,
    /// Revoked.
    pub revoked: bool,
    /// When it was issued.
    pub issued_at_micros: i64,
}

/// Everything the access stream says.
#[derive(Debug, Clone, Default)]
pub struct AccessState {
    /// By id.
    pub principals: BTreeMap<String, Principal>,
    /// By id.
    pub tokens: BTreeMap<String, Token>,
    /// Digest → token id.
    pub by_digest: HashMap<[u8; 32], String>,
    /// Public tournaments.
    pub public: BTreeSet<String>,
    /// Version of the access stream folded.
    pub version: i64,
    /// Global position of the last access event folded.
    pub position: i64,
}

fn scope(t: &str) -> Option<String> {
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

impl AccessState {
    /// Folds one event of the `access` stream (others are ignored). Undecodable
    /// payloads and unknown roles are skipped (the decide step never writes them).
    pub fn apply(&mut self, e: &RecordedEvent) {
        if e.stream != STREAM {
            return;
        }
        self.version = e.stream_version;
        self.position = self.position.max(e.global_position);
        let p = e.payload.as_slice();
        match e.event_type.as_str() {
            types::PRINCIPAL_ADDED => {
                if let Ok(m) = PrincipalAdded::decode(p) {
                    self.principals.insert(
                        m.principal_id.clone(),
                        Principal {
                            id: m.principal_id,
                            name: m.name,
                            email: m.email,
                            kind: m.kind,
                            grants: BTreeSet::new(),
                        },
                    );
                }
            }
            types::ROLE_GRANTED => {
                if let Ok(m) = RoleGranted::decode(p)
                    && let (Some(role), Some(pr)) = (
                        Role::parse(&m.role),
                        self.principals.get_mut(&m.principal_id),
                    )
                {
                    pr.grants.insert((role, scope(&m.tournament_id)));
                }
            }
            types::ROLE_REVOKED => {
                if let Ok(m) = RoleRevoked::decode(p)
                    && let (Some(role), Some(pr)) = (
                        Role::parse(&m.role),
                        self.principals.get_mut(&m.principal_id),
                    )
                {
                    pr.grants.remove(&(role, scope(&m.tournament_id)));
                }
            }
            types::TOKEN_ISSUED => {
                if let Ok(m) = TokenIssued::decode(p)
                    && let Ok(digest) = <[u8; 32]>::try_from(m.digest.as_slice())
                {
                    self.by_digest.insert(digest, m.token_id.clone());
                    self.tokens.insert(
                        m.token_id.clone(),
                        Token {
                            id: m.token_id,
                            principal_id: m.principal_id,
                            digest,
                            label: m.label,
                            expires_at_micros: m.expires_at_micros,
                            revoked: false,
                            issued_at_micros: e.recorded_at_micros,
                        },
                    );
                }
            }
            types::TOKEN_REVOKED => {
                if let Ok(m) = TokenRevoked::decode(p)
                    && let Some(t) = self.tokens.get_mut(&m.token_id)
                {
                    t.revoked = true;
                    self.by_digest.remove(&t.digest);
                }
            }
            types::VISIBILITY_SET => {
                if let Ok(m) = TournamentVisibilitySet::decode(p) {
                    let id = m.tournament_id.trim().to_owned();
                    if m.public {
                        self.public.insert(id);
                    } else {
                        self.public.remove(&id);
                    }
                }
            }
            _ => {}
        }
    }

    /// The principal named or with id `who` (names compare case-insensitively).
    pub fn find(&self, who: &str) -> Option<&Principal> {
        let who = who.trim();
        self.principals.get(who).or_else(|| {
            self.principals
                .values()
                .find(|p| p.name.eq_ignore_ascii_case(who))
        })
    }
}
