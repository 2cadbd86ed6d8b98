//! `arbiter access …` and `arbiter whoami`: principals, roles, tokens and public
//! tournaments (ADR platform-007).
use arbiter_proto::v1::access_service_client::AccessServiceClient;
use arbiter_proto::v1::{
    AddPrincipalRequest, CommandAck, CommandMeta, IssueTokenRequest, ListPrincipalsRequest,
    ListTokensRequest, Principal, RevokeTokenRequest, RoleRequest, SetTournamentVisibilityRequest,
    WhoAmIRequest,
};
use clap::Subcommand;
use serde_json::json;

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

/// `arbiter access …`.
#[derive(Subcommand)]
pub enum AccessCommand {
    /// Adds a principal (a person, or with --system a system).
    Add {
        name: String,
        #[arg(long, default_value = "")]
        email: String,
        /// A system (a federation's server, a clock), not a person.
        #[arg(long)]
        system: bool,
    },
    /// Every principal with its roles.
    List,
    /// Grants a role (on one tournament with --tournament, else on every tournament).
    Grant {
        name: String,
        #[arg(long)]
        role: String,
        #[arg(long, default_value = "")]
        tournament: String,
    },
    /// Takes a granted role back.
    RevokeGrant {
        name: String,
        #[arg(long)]
        role: String,
        #[arg(long, default_value = "")]
        tournament: String,
    },
    /// Issues a token to a principal; it is printed once (only its digest is kept).
    Token {
        name: String,
        /// Lifetime: 30d, 12h, 90m, 3600s (default: no expiry).
        #[arg(long)]
        expires: Option<String>,
        #[arg(long, default_value = "")]
        label: String,
    },
    /// The tokens (ids, never the tokens), of one principal or of all.
    Tokens { name: Option<String> },
    /// Revokes a token by its id (t_…): refused from the next request on.
    Revoke { token_id: String },
    /// Marks a tournament public (pairings, results and standings readable without a
    /// token), or private again with --off.
    Public {
        tournament: String,
        #[arg(long)]
        off: bool,
    },
}

fn meta() -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: uuid::Uuid::now_v7().to_string(),
        ..Default::default()
    })
}

/// Seconds of `30d`, `12h`, `90m`, `3600s` or `3600`.
pub fn parse_duration(s: &str) -> Result<i64, Failure> {
    let s = s.trim();
    let (n, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c),
        _ => (s, 's'),
    };
    let n: i64 = n.parse().ok().filter(|n| *n > 0).ok_or_else(|| Failure {
        code: 2,
        message: format!("--expires {s:?}: expected a positive number with d, h, m or s"),
    })?;
    let mult = match unit {
        'd' => 86_400,
        'h' => 3_600,
        'm' => 60,
        's' => 1,
        _ => {
            return Err(Failure {
                code: 2,
                message: format!("--expires {s:?}: the unit is d, h, m or s"),
            });
        }
    };
    Ok(n.saturating_mul(mult))
}

fn grants(p: &Principal) -> String {
    if p.grants.is_empty() {
        return "-".into();
    }
    p.grants
        .iter()
        .map(|g| {
            if g.tournament_id.is_empty() {
                g.role.clone()
            } else {
                format!("{}@{}", g.role, g.tournament_id)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn principal_json(p: &Principal) -> serde_json::Value {
    json!({
        "principal_id": p.principal_id, "name": p.name, "email": p.email, "kind": p.kind,
        "grants": p.grants.iter().map(|g| json!({"role": g.role, "tournament_id": g.tournament_id})).collect::<Vec<_>>(),
    })
}

fn ack(cli: &Cli, what: &str, a: &CommandAck) {
    if cli.json {
        output::json(
            &json!({"stream": a.stream, "version": a.stream_version, "replayed": a.replayed}),
        );
    } else {
        println!("{what} (access version {})", a.stream_version);
    }
}

fn when(us: i64) -> String {
    if us == 0 {
        return "never".into();
    }
    let secs = us / 1_000_000;
    format!("{secs} (unix seconds)")
}

/// `arbiter access …`.
pub async fn run(cli: &Cli, cmd: &AccessCommand) -> Result<(), Failure> {
    let mut c = AccessServiceClient::new(connect(cli).await?);
    match cmd {
        AccessCommand::Add {
            name,
            email,
            system,
        } => {
            let p = c
                .add_principal(authed(
                    &token(cli)?,
                    AddPrincipalRequest {
                        meta: meta(),
                        name: name.clone(),
                        email: email.clone(),
                        kind: if *system { "system" } else { "person" }.into(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&principal_json(&p));
            } else {
                println!("added {} ({})", p.name, p.principal_id);
            }
        }
        AccessCommand::List => {
            let l = c
                .list_principals(authed(&token(cli)?, ListPrincipalsRequest {})?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!(
                    l.principals.iter().map(principal_json).collect::<Vec<_>>()
                ));
            } else {
                let rows: Vec<Vec<String>> = l
                    .principals
                    .iter()
                    .map(|p| {
                        vec![
                            p.principal_id.clone(),
                            p.name.clone(),
                            p.kind.clone(),
                            grants(p),
                        ]
                    })
                    .collect();
                output::table(&["ID", "NAME", "KIND", "ROLES"], &rows);
            }
        }
        AccessCommand::Grant {
            name,
            role,
            tournament,
        }
        | AccessCommand::RevokeGrant {
            name,
            role,
            tournament,
        } => {
            // A tournament given by a prefix (none: every tournament).
            let tournament = &if tournament.is_empty() {
                String::new()
            } else {
                crate::resolve::tournament(cli, &connect(cli).await?, tournament).await?
            };
            let req = authed(
                &token(cli)?,
                RoleRequest {
                    meta: meta(),
                    principal: name.clone(),
                    role: role.clone(),
                    tournament_id: tournament.clone(),
                },
            )?;
            let on = if tournament.is_empty() {
                "every tournament".to_owned()
            } else {
                tournament.clone()
            };
            if matches!(cmd, AccessCommand::Grant { .. }) {
                let a = c.grant_role(req).await?.into_inner();
                ack(cli, &format!("granted {role} on {on} to {name}"), &a);
            } else {
                let a = c.revoke_role(req).await?.into_inner();
                ack(cli, &format!("revoked {role} on {on} from {name}"), &a);
            }
        }
        AccessCommand::Token {
            name,
            expires,
            label,
        } => {
            let secs = expires
                .as_deref()
                .map(parse_duration)
                .transpose()?
                .unwrap_or(0);
            let t = c
                .issue_token(authed(
                    &token(cli)?,
                    IssueTokenRequest {
                        meta: meta(),
                        principal: name.clone(),
                        expires_in_seconds: secs,
                        label: label.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(
                    &json!({"token_id": t.token_id, "token": t.token, "expires_at_micros": t.expires_at_micros}),
                );
            } else {
                println!(
                    "token {} for {name} (expires: {}); it is shown only this once:",
                    t.token_id,
                    when(t.expires_at_micros)
                );
                println!("ARBITER_TOKEN={}", t.token);
            }
        }
        AccessCommand::Tokens { name } => {
            let l = c
                .list_tokens(authed(
                    &token(cli)?,
                    ListTokensRequest {
                        principal: name.clone().unwrap_or_default(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!(l.tokens.iter().map(|t| json!({
                    "token_id": t.token_id, "principal_id": t.principal_id, "name": t.principal_name,
                    "label": t.label, "expires_at_micros": t.expires_at_micros, "revoked": t.revoked,
                    "issued_at_micros": t.issued_at_micros,
                })).collect::<Vec<_>>()));
            } else {
                let rows: Vec<Vec<String>> = l
                    .tokens
                    .iter()
                    .map(|t| {
                        vec![
                            t.token_id.clone(),
                            t.principal_name.clone(),
                            t.label.clone(),
                            when(t.expires_at_micros),
                            if t.revoked { "revoked" } else { "active" }.into(),
                        ]
                    })
                    .collect();
                output::table(&["TOKEN", "PRINCIPAL", "LABEL", "EXPIRES", "STATE"], &rows);
            }
        }
        AccessCommand::Revoke { token_id } => {
            let a = c
                .revoke_token(authed(
                    &token(cli)?,
                    RevokeTokenRequest {
                        meta: meta(),
                        token_id: token_id.clone(),
                    },
                )?)
                .await?
                .into_inner();
            ack(cli, &format!("revoked token {token_id}"), &a);
        }
        AccessCommand::Public { tournament, off } => {
            let tournament =
                &crate::resolve::tournament(cli, &connect(cli).await?, tournament).await?;
            let a = c
                .set_tournament_visibility(authed(
                    &token(cli)?,
                    SetTournamentVisibilityRequest {
                        meta: meta(),
                        tournament_id: tournament.clone(),
                        public: !off,
                    },
                )?)
                .await?
                .into_inner();
            let what = if *off { "private" } else { "public" };
            ack(cli, &format!("tournament {tournament} is {what}"), &a);
        }
    }
    Ok(())
}

/// `arbiter whoami`.
pub async fn whoami(cli: &Cli) -> Result<(), Failure> {
    let mut c = AccessServiceClient::new(connect(cli).await?);
    let w = c
        .who_am_i(authed(&token(cli)?, WhoAmIRequest {})?)
        .await?
        .into_inner();
    let p = w.principal.unwrap_or_default();
    if cli.json {
        let mut v = principal_json(&p);
        v["token_id"] = json!(w.token_id);
        output::json(&v);
    } else {
        println!(
            "{} ({}; token {}): {}",
            p.name,
            p.principal_id,
            w.token_id,
            grants(&p)
        );
    }
    Ok(())
}
