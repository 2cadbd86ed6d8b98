//! The `AccessService`: principals, grants, tokens and public tournaments, each change
//! an event of the `access` stream, decided against the fold under one lock.
use std::sync::Arc;

use arbiter_eventlog::{AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::access_service_server::{AccessService, AccessServiceServer};
use arbiter_proto::v1::{
    AddPrincipalRequest, CommandAck, Grant, IssueTokenRequest, IssuedToken, ListPrincipalsRequest,
    ListPrincipalsResponse, ListTokensRequest, ListTokensResponse, Principal as PrincipalMsg,
    PrincipalAdded, RevokeTokenRequest, RoleGranted, RoleRequest, RoleRevoked,
    SetTournamentVisibilityRequest, TokenInfo, TokenIssued, TokenRevoked, TournamentVisibilitySet,
    WhoAmIRequest, WhoAmIResponse,
};
use tonic::{Request, Response, Status};

use super::roles::Role;
use super::state::{AccessState, Principal, SERVICE, STREAM, types};
use super::{Caller, Scope, event, tokens};
use crate::Platform;
use crate::limits;
use crate::status::{from_log, invalid, not_found};

/// The access service of a platform.
#[derive(Clone)]
pub struct AccessModule {
    platform: Platform,
    known_tournament: Option<KnownTournament>,
}

/// Whether a tournament id names a tournament of the registry.
type KnownTournament = Arc<dyn Fn(&str) -> bool + Send + Sync>;

impl AccessModule {
    /// On `platform` (its access fold is the platform's).
    pub fn new(platform: &Platform) -> AccessModule {
        AccessModule {
            platform: platform.clone(),
            known_tournament: None,
        }
    }

    /// Grants and the public flag may name only tournaments `known` says exist (the
    /// registry's projection: a grant on a mistyped id would otherwise be recorded and
    /// never apply).
    pub fn with_tournaments(
        mut self,
        known: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> AccessModule {
        self.known_tournament = Some(Arc::new(known));
        self
    }

    /// `NOT_FOUND` when a tournament is named that the registry does not have.
    fn check_tournament(&self, tournament: &str) -> Result<(), Status> {
        let t = tournament.trim();
        match &self.known_tournament {
            Some(known) if !t.is_empty() && !known(t) => Err(Status::not_found(format!(
                "tournament_id: no tournament {t} (see `arbiter tournament list`)"
            ))),
            _ => Ok(()),
        }
    }

    /// Decides with `decide` against the fold and appends its events under `caller`.
    async fn command<M: prost::Message>(
        &self,
        caller: &Caller,
        rpc: &str,
        request: &M,
        meta: Option<arbiter_proto::v1::CommandMeta>,
        decide: impl FnOnce(&AccessState) -> Result<Vec<NewEvent>, Status>,
    ) -> Result<CommandAck, Status> {
        let store = &self.platform.store;
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(store, rpc, request, meta)
            .await?;
        if let Some((stream, ack)) = store
            .find_command(&meta.command_id)
            .await
            .map_err(from_log)?
        {
            return Ok(CommandAck {
                stream,
                stream_version: ack.stream_version,
                first_position: ack.first_position,
                last_position: ack.last_position,
                replayed: true,
            });
        }
        let access = self.platform.auth.access().clone();
        let _writing = access.writing().lock().await;
        let state = access.snapshot();
        let events = decide(&state)?;
        let ack = store
            .append(AppendRequest {
                stream: STREAM.into(),
                expected_version: Some(state.version),
                events,
                context: CommandContext {
                    command_id: meta.command_id.clone(),
                    actor: caller.actor.clone(),
                    reason: meta.reason.clone(),
                    service: SERVICE.into(),
                    request_digest: meta.request_digest.clone(),
                    ..Default::default()
                },
            })
            .await
            .map_err(from_log)?;
        access.folded(ack.last_position).await;
        Ok(CommandAck {
            stream: STREAM.into(),
            stream_version: ack.stream_version,
            first_position: ack.first_position,
            last_position: ack.last_position,
            replayed: ack.replayed,
        })
    }
}

impl crate::ServiceModule for AccessModule {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.AccessService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(
            AccessServiceServer::new(*self)
                .max_decoding_message_size(crate::limits::service_max_message_bytes("access")),
        );
    }
}

fn text(field: &str, value: &str, max: usize) -> Result<(), Status> {
    limits::check_text(value, max).map_err(|m| invalid(field, m))
}

fn principal_msg(p: &Principal) -> PrincipalMsg {
    PrincipalMsg {
        principal_id: p.id.clone(),
        name: p.name.clone(),
        email: p.email.clone(),
        kind: p.kind.clone(),
        grants: p
            .grants
            .iter()
            .map(|(r, t)| Grant {
                role: r.name().into(),
                tournament_id: t.clone().unwrap_or_default(),
            })
            .collect(),
    }
}

fn find<'a>(s: &'a AccessState, who: &str) -> Result<&'a Principal, Status> {
    if who.trim().is_empty() {
        return Err(invalid(
            "principal",
            "must not be empty (a name or a p_ id)",
        ));
    }
    s.find(who)
        .ok_or_else(|| not_found("principal", format!("no principal {:?}", who.trim())))
}

/// A caller who is not an admin may only give tokens to, or take them from, principals
/// whose every grant is on a tournament it is chief arbiter of.
fn may_manage(caller: &Caller, target: &Principal) -> Result<(), Status> {
    if caller.is_admin() {
        return Ok(());
    }
    let chief_of = |t: &Option<String>| {
        caller
            .grants
            .iter()
            .any(|(r, on)| *r == Role::ChiefArbiter && (on.is_none() || on == t))
    };
    match target
        .grants
        .iter()
        .find(|(_, t)| t.is_none() || !chief_of(t))
    {
        None => Ok(()),
        Some((r, t)) => Err(Status::permission_denied(format!(
            "permission denied: {} ({}) may not manage the tokens of {} ({}), who has {} on {}: only an admin may",
            caller.name,
            caller.principal_id,
            target.name,
            target.id,
            r.name(),
            t.as_deref().unwrap_or("every tournament")
        ))),
    }
}

fn role_request(caller: &Caller, r: &RoleRequest) -> Result<Role, Status> {
    let role = Role::parse(&r.role).ok_or_else(|| {
        invalid(
            "role",
            format!(
                "{:?} is not a role; one of {}",
                r.role,
                Role::ALL.map(Role::name).join(", ")
            ),
        )
    })?;
    let t = r.tournament_id.trim();
    if !t.is_empty() && !role.per_tournament() {
        return Err(invalid(
            "tournament_id",
            format!("{} is granted on every tournament, not on one", role.name()),
        ));
    }
    if !t.is_empty() {
        text("tournament_id", t, 100)?;
    }
    if !caller.is_admin() {
        if t.is_empty() {
            return Err(Status::permission_denied(format!(
                "permission denied: {} ({}) may grant roles on its tournaments only (--tournament); on every tournament only an admin may",
                caller.name, caller.principal_id
            )));
        }
        if !matches!(
            role,
            Role::DeputyArbiter
                | Role::ResultsEntry
                | Role::ClockDevice
                | Role::Viewer
                | Role::TeamCaptain
        ) {
            return Err(Status::permission_denied(format!(
                "permission denied: {} ({}) may grant deputy-arbiter, results-entry, clock-device, viewer or team-captain on {t}; {} only an admin may grant",
                caller.name,
                caller.principal_id,
                role.name()
            )));
        }
    }
    Ok(role)
}

#[tonic::async_trait]
impl AccessService for AccessModule {
    async fn add_principal(
        &self,
        request: Request<AddPrincipalRequest>,
    ) -> Result<Response<PrincipalMsg>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "AddPrincipal", Scope::Global)?;
        let r = request.into_inner();
        let name = r.name.trim().to_owned();
        if name.is_empty() {
            return Err(invalid("name", "must not be empty"));
        }
        text("name", &name, 200)?;
        text("email", &r.email, 200)?;
        if name.starts_with("p_")
            || name.contains(" (p_")
            || name.starts_with("jwt:")
            || name.contains(" (jwt:")
        {
            return Err(invalid("name", "must not look like a principal id"));
        }
        let kind = match r.kind.trim() {
            "" | "person" => "person",
            "system" => "system",
            k => return Err(invalid("kind", format!("{k:?}: person or system"))),
        };
        let id = tokens::new_principal_id();
        let (email, pid) = (r.email.trim().to_owned(), id.clone());
        self.command(&caller, "AddPrincipal", &r, r.meta.clone(), |s| {
            if let Some(p) = s.find(&name) {
                return Err(Status::already_exists(format!(
                    "name: {} is already principal {}",
                    p.name, p.id
                )));
            }
            Ok(vec![event(
                types::PRINCIPAL_ADDED,
                PrincipalAdded {
                    principal_id: pid,
                    name: name.clone(),
                    email,
                    kind: kind.into(),
                },
            )])
        })
        .await?;
        let s = self.platform.auth.access().snapshot();
        let p = s
            .find(&name)
            .ok_or_else(|| Status::internal("principal not folded"))?;
        Ok(Response::new(principal_msg(p)))
    }

    async fn list_principals(
        &self,
        request: Request<ListPrincipalsRequest>,
    ) -> Result<Response<ListPrincipalsResponse>, Status> {
        self.platform
            .auth
            .authorize(&request, "ListPrincipals", Scope::Global)?;
        let s = self.platform.auth.access().snapshot();
        Ok(Response::new(ListPrincipalsResponse {
            principals: s.principals.values().map(principal_msg).collect(),
        }))
    }

    async fn grant_role(
        &self,
        request: Request<RoleRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let caller = self.platform.auth.authorize(
            &request,
            "GrantRole",
            Scope::tournament_or_global(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let role = role_request(&caller, &r)?;
        self.check_tournament(&r.tournament_id)?;
        let ack = self
            .command(&caller, "GrantRole", &r, r.meta.clone(), |s| {
                let p = find(s, &r.principal)?;
                let t = r.tournament_id.trim();
                Ok(vec![event(
                    types::ROLE_GRANTED,
                    RoleGranted {
                        principal_id: p.id.clone(),
                        role: role.name().into(),
                        tournament_id: t.into(),
                    },
                )])
            })
            .await?;
        Ok(Response::new(ack))
    }

    async fn revoke_role(
        &self,
        request: Request<RoleRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let caller = self.platform.auth.authorize(
            &request,
            "RevokeRole",
            Scope::tournament_or_global(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let role = role_request(&caller, &r)?;
        let ack = self
            .command(&caller, "RevokeRole", &r, r.meta.clone(), |s| {
                let p = find(s, &r.principal)?;
                let t = r.tournament_id.trim();
                let on = (!t.is_empty()).then(|| t.to_owned());
                if !p.grants.contains(&(role, on)) {
                    return Err(Status::failed_precondition(format!(
                        "role: {} does not have {} on {}",
                        p.name,
                        role.name(),
                        if t.is_empty() { "every tournament" } else { t }
                    )));
                }
                Ok(vec![event(
                    types::ROLE_REVOKED,
                    RoleRevoked {
                        principal_id: p.id.clone(),
                        role: role.name().into(),
                        tournament_id: t.into(),
                    },
                )])
            })
            .await?;
        Ok(Response::new(ack))
    }

    async fn issue_token(
        &self,
        request: Request<IssueTokenRequest>,
    ) -> Result<Response<IssuedToken>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "IssueToken", Scope::Global)?;
        let r = request.into_inner();
        if r.expires_in_seconds < 0 {
            return Err(invalid("expires_in_seconds", "must be 0 (never) or more"));
        }
        text("label", &r.label, 200)?;
        let (token_id, token) = tokens::new_token();
        let expires_at_micros = if r.expires_in_seconds > 0 {
            super::now_micros().saturating_add(r.expires_in_seconds.saturating_mul(1_000_000))
        } else {
            0
        };
        let (tid, digest) = (token_id.clone(), tokens::digest(&token).to_vec());
        let ack = self
            .command(&caller, "IssueToken", &r, r.meta.clone(), |s| {
                let p = find(s, &r.principal)?;
                may_manage(&caller, p)?;
                Ok(vec![event(
                    types::TOKEN_ISSUED,
                    TokenIssued {
                        token_id: tid,
                        principal_id: p.id.clone(),
                        digest,
                        label: r.label.trim().into(),
                        expires_at_micros,
                    },
                )])
            })
            .await?;
        if ack.replayed {
            return Err(Status::already_exists(format!(
                "meta.command_id: this token was issued by an earlier request (positions {}..{}); a token is shown only once — issue a new one with a new command id",
                ack.first_position, ack.last_position
            )));
        }
        Ok(Response::new(IssuedToken {
            token_id,
            token,
            expires_at_micros,
            ack: Some(ack),
        }))
    }

    async fn list_tokens(
        &self,
        request: Request<ListTokensRequest>,
    ) -> Result<Response<ListTokensResponse>, Status> {
        self.platform
            .auth
            .authorize(&request, "ListTokens", Scope::Global)?;
        let r = request.into_inner();
        let s = self.platform.auth.access().snapshot();
        let only = if r.principal.trim().is_empty() {
            None
        } else {
            Some(find(&s, &r.principal)?.id.clone())
        };
        Ok(Response::new(ListTokensResponse {
            tokens: s
                .tokens
                .values()
                .filter(|t| only.as_ref().is_none_or(|p| *p == t.principal_id))
                .map(|t| TokenInfo {
                    token_id: t.id.clone(),
                    principal_id: t.principal_id.clone(),
                    principal_name: s
                        .principals
                        .get(&t.principal_id)
                        .map(|p| p.name.clone())
                        .unwrap_or_default(),
                    label: t.label.clone(),
                    expires_at_micros: t.expires_at_micros,
                    revoked: t.revoked,
                    issued_at_micros: t.issued_at_micros,
                })
                .collect(),
        }))
    }

    async fn revoke_token(
        &self,
        request: Request<RevokeTokenRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "RevokeToken", Scope::Global)?;
        let r = request.into_inner();
        let id = r.token_id.trim().to_owned();
        let ack = self
            .command(&caller, "RevokeToken", &r, r.meta.clone(), |s| {
                let t = s
                    .tokens
                    .get(&id)
                    .ok_or_else(|| not_found("token_id", format!("no token {id:?}")))?;
                if t.revoked {
                    return Err(Status::failed_precondition(format!(
                        "token_id: {id} is already revoked"
                    )));
                }
                if let Some(p) = s.principals.get(&t.principal_id) {
                    may_manage(&caller, p)?;
                }
                Ok(vec![event(
                    types::TOKEN_REVOKED,
                    TokenRevoked {
                        token_id: id.clone(),
                    },
                )])
            })
            .await?;
        Ok(Response::new(ack))
    }

    async fn set_tournament_visibility(
        &self,
        request: Request<SetTournamentVisibilityRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let caller = self.platform.auth.authorize(
            &request,
            "SetTournamentVisibility",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let t = r.tournament_id.trim().to_owned();
        if t.is_empty() {
            return Err(invalid("tournament_id", "must not be empty"));
        }
        text("tournament_id", &t, 100)?;
        self.check_tournament(&t)?;
        let ack = self
            .command(
                &caller,
                "SetTournamentVisibility",
                &r,
                r.meta.clone(),
                |_| {
                    Ok(vec![event(
                        types::VISIBILITY_SET,
                        TournamentVisibilitySet {
                            tournament_id: t.clone(),
                            public: r.public,
                        },
                    )])
                },
            )
            .await?;
        Ok(Response::new(ack))
    }

    async fn who_am_i(
        &self,
        request: Request<WhoAmIRequest>,
    ) -> Result<Response<WhoAmIResponse>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "WhoAmI", Scope::Global)?;
        let s = self.platform.auth.access().snapshot();
        Ok(Response::new(WhoAmIResponse {
            principal: s
                .principals
                .get(&caller.principal_id)
                .map(principal_msg)
                .or(Some(PrincipalMsg {
                    principal_id: caller.principal_id.clone(),
                    name: caller.name.clone(),
                    grants: caller
                        .grants
                        .iter()
                        .map(|(r, t)| Grant {
                            role: r.name().into(),
                            tournament_id: t.clone().unwrap_or_default(),
                        })
                        .collect(),
                    ..Default::default()
                })),
            token_id: caller.token_id,
        }))
    }
}
