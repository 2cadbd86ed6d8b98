//! The write endpoints an integrator needs (issue 44; ADR http-006): create a tournament,
//! import a TRF file, export one. As every endpoint, a handler turns the request into the
//! RPC request (the bearer token as metadata) and calls the service in process, so the one
//! access table decides; a write's command id is the `Idempotency-Key` header (a retry with
//! the same key is answered as the first), else a new one.
use arbiter_proto::v1 as pb;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::TournamentJson;
use crate::problem::{self, Problem};
use crate::server::{App, api_answer, grpc, query, st};
use crate::webhooks::{command_meta, created};

type AppState = State<std::sync::Arc<App>>;

/// A new tournament.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTournamentJson {
    /// Name (required).
    pub name: String,
    #[serde(default)]
    pub place: String,
    /// Three-letter FIDE code.
    #[serde(default)]
    pub federation: String,
    /// `YYYY-MM-DD`.
    #[serde(default)]
    pub start_date: String,
    /// `YYYY-MM-DD`, not before the start.
    #[serde(default)]
    pub end_date: String,
    /// Announced rounds (0 = not decided).
    #[serde(default)]
    pub rounds: u32,
    #[serde(default)]
    pub time_control: String,
    /// `dutch` (default), `round-robin`, `swiss-team`, …
    #[serde(default)]
    pub pairing_system: String,
    /// `dutch-2026` (default), …
    #[serde(default)]
    pub rule_edition: String,
    /// TRF 102.
    #[serde(default)]
    pub chief_arbiter: String,
    /// TRF 112.
    #[serde(default)]
    pub deputy_arbiters: Vec<String>,
    /// Why (recorded with the event).
    #[serde(default)]
    pub reason: String,
}

/// A problem found in an imported file that did not stop the import.
#[derive(Debug, Serialize, ToSchema)]
pub struct FindingJson {
    /// `info` or `warning`.
    pub severity: String,
    pub line: u32,
    pub column: u32,
    pub record: String,
    pub message: String,
}

/// An imported tournament.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedJson {
    pub tournament: TournamentJson,
    pub findings: Vec<FindingJson>,
}

/// Creates a tournament (`CreateTournament`).
#[utoipa::path(post, path = "/api/v1/tournaments", tag = "tournaments",
    request_body = NewTournamentJson,
    params(("Idempotency-Key" = Option<String>, Header, description = "the command id: a retry with the same key is answered as the first")),
    responses((status = 201, body = TournamentJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_create_tournament(
    State(app): AppState,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let r = async {
        let b: NewTournamentJson = serde_json::from_slice(&body).map_err(|e| {
            problem::invalid(
                "body",
                format!("not a tournament ({e}): give {{\"name\": …, \"rounds\": …}}"),
            )
        })?;
        let meta = command_meta(&headers, &b.reason)?;
        let t = app
            .registry
            .create_tournament(grpc(
                &headers,
                pb::CreateTournamentRequest {
                    meta: Some(meta),
                    name: b.name,
                    place: b.place,
                    federation: b.federation,
                    start_date: b.start_date,
                    end_date: b.end_date,
                    rounds: b.rounds,
                    time_control: b.time_control,
                    pairing_system: b.pairing_system,
                    rule_edition: b.rule_edition,
                    chief_arbiter: b.chief_arbiter,
                    deputy_arbiters: b.deputy_arbiters,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(created(&TournamentJson::from(
            &t.tournament.unwrap_or_default(),
        )))
    }
    .await;
    api_answer(r)
}

fn flag(q: &crate::api::Query, name: &str) -> Result<bool, Problem> {
    match q.get(name) {
        None | Some("false" | "0") => Ok(false),
        Some("" | "true" | "1") => Ok(true),
        Some(other) => Err(problem::invalid(name, format!("{other:?}: true or false"))),
    }
}

/// Imports a TRF16/TRF26 file, sent as the body, as a tournament (`ImportTrf`): refused
/// whole, with every fault as `LINE:COLUMN`, when the checker finds an error.
#[utoipa::path(post, path = "/api/v1/tournaments/import", tag = "tournaments",
    request_body(content = String, content_type = "text/plain", description = "the TRF file (at most 16 MiB)"),
    params(("name" = Option<String>, Query, description = "the tournament's name (default: record 012)"),
           ("as_new" = Option<bool>, Query, description = "import although the same file or tournament is already here"),
           ("players_only" = Option<bool>, Query, description = "the tournament and its players only, no rounds"),
           ("Idempotency-Key" = Option<String>, Header, description = "the command id")),
    responses((status = 201, body = ImportedJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 409, body = Problem, content_type = "application/problem+json"),
              (status = 413, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_import_tournament(
    State(app): AppState,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
    body: axum::body::Bytes,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["name", "as_new", "players_only"])?;
        if body.is_empty() {
            return Err(problem::invalid(
                "body",
                "empty: send the TRF file as the body",
            ));
        }
        let meta = command_meta(&headers, "")?;
        let a = app
            .registry
            .import_trf(grpc(
                &headers,
                pb::ImportTrfRequest {
                    meta: Some(meta),
                    trf: body.to_vec(),
                    name: q.get("name").unwrap_or_default().to_owned(),
                    as_new: flag(&q, "as_new")?,
                    players_only: flag(&q, "players_only")?,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(created(&ImportedJson {
            tournament: TournamentJson::from(&a.tournament.unwrap_or_default()),
            findings: a
                .findings
                .iter()
                .map(|f| FindingJson {
                    severity: f.severity.clone(),
                    line: f.line,
                    column: f.column,
                    record: f.record.clone(),
                    message: f.message.clone(),
                })
                .collect(),
        }))
    }
    .await;
    api_answer(r)
}

/// The tournament as a TRF file (`ExportTrf`), TRF26 unless `format=trf16`.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/export", tag = "tournaments",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = Option<u32>, Query, description = "as of this round (default: every paired round)"),
           ("format" = Option<String>, Query, description = "trf26 (default) or trf16")),
    responses((status = 200, body = String, content_type = "text/plain"),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
pub async fn api_export_tournament(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["round", "format"])?;
        let round: u32 = q.number("round")?;
        let e = app
            .registry
            .export_trf(grpc(
                &headers,
                pb::ExportTrfRequest {
                    tournament_id: id,
                    round,
                    format: q.get("format").unwrap_or_default().to_owned(),
                    engine_lines: false,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok((
            [(
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8",
            )],
            e.trf,
        )
            .into_response())
    }
    .await;
    api_answer(r)
}
