//! Rating over HTTP (issue 44; ADR http-007): submit a tournament run here for rating,
//! read a period, its list (FIDE TXT, FIDE XML or CSV), a player's individual calculation
//! and a tournament's part of the period. As every endpoint, a handler turns the request
//! into the `RatingService` RPC request (the bearer token as metadata) and calls the
//! service in process, so the one access table decides; the submission's command id is
//! the `Idempotency-Key` header, else a new one.
use std::pin::Pin;
use std::sync::Arc;

use arbiter_proto::v1 as pb;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tonic::Status;
use utoipa::ToSchema;

use crate::problem::{self, Problem};
use crate::server::{App, api_answer, grpc, json, query, st};
use crate::webhooks::{command_meta, created};

type AppState = State<Arc<App>>;

/// The stream `ExportList` answers (the rating service's own type).
pub type RatingExports =
    Pin<Box<dyn futures::Stream<Item = Result<pb::RatingListExportChunk, Status>> + Send>>;

/// The rating service as the HTTP listener calls it.
pub type RatingService =
    dyn pb::rating_service_server::RatingService<ExportListStream = RatingExports>;

/// Most bytes of a list this listener answers (the export is read whole first, for its
/// SHA-256 header): a national list of 100,000 players is about 45 MiB as FIDE XML (some
/// 470 bytes a player). A larger one is refused, pointing to the gRPC stream
/// (`arbiter rating export`).
pub const MAX_LIST_BYTES: usize = 64 * 1024 * 1024;

/// A submission for rating.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingSubmissionJson {
    /// `standard`, `rapid` or `blitz`: the list the games are rated for.
    pub kind: String,
    /// B.02 §7.1.3: an official FIDE event may end up to the day before the list date.
    #[serde(default)]
    pub official_fide_event: bool,
    /// B.02 §6: the event is a match (games after it was decided are not rated).
    #[serde(default)]
    pub match_event: bool,
    /// Games scheduled in the match (0: the tournament's rounds).
    #[serde(default)]
    pub match_games: u32,
    /// Why; required when the tournament was submitted before (a correction).
    #[serde(default)]
    pub reason: String,
}

/// A player whose rating changes (old → new).
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingChangeJson {
    pub fide_id: u32,
    pub name: String,
    /// standard, rapid, blitz.
    pub kind: String,
    /// 0: unrated.
    pub old_rating: u32,
    pub new_rating: u32,
}

/// A later period re-run because the list it starts from was revised (ADR elo-010).
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingRippleJson {
    pub period: String,
    pub revision: u32,
    /// computed or published.
    pub status: String,
    /// The re-run gave the same list: nothing written.
    pub unchanged: bool,
    pub diff: Vec<RatingChangeJson>,
}

/// A game not rated, and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkippedGameJson {
    pub round: u32,
    /// "Name (start rank)".
    pub white: String,
    pub black: String,
    /// The two sides' TRF codes, e.g. `+-`, `1-0`.
    pub result: String,
    pub reason: String,
}

/// What the rating service made of a submission.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingSubmittedJson {
    pub tournament_id: String,
    /// The list it goes on, `YYYY-MM`.
    pub period: String,
    pub rated_games: u32,
    pub skipped_games: u32,
    /// 1: the first submission; 2 and on: corrections.
    pub version: u32,
    /// The period's status now (open, closed, computed, published).
    pub period_status: String,
    pub notes: Vec<String>,
    /// The period's new revision when it was published (0: none), and its diff.
    pub revision: u32,
    pub diff: Vec<RatingChangeJson>,
    pub rippled: Vec<RatingRippleJson>,
    pub skipped: Vec<SkippedGameJson>,
    /// A retry of a submission already made with the same `Idempotency-Key`.
    pub replayed: bool,
}

/// A rating period.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPeriodJson {
    /// `YYYY-MM`: the list it produces.
    pub period: String,
    /// open, closed, computed, published.
    pub status: String,
    /// `YYYY-MM-DD`.
    pub closing_date: String,
    /// 0 before the first computation.
    pub revision: u32,
    pub list_sha256: String,
    pub tournaments: Vec<String>,
    /// The period stream's version.
    pub version: i64,
    /// The diff of the latest revision (revision 2 and on).
    pub last_diff: Vec<RatingChangeJson>,
}

/// One game of a player's calculation.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingReportGameJson {
    pub opponent_id: u32,
    pub opponent_name: String,
    /// 0: unrated.
    pub opponent_rating: u32,
    pub d_actual: i32,
    /// The difference used (the 400-point rule applied).
    pub d_used: i32,
    pub pd: String,
    pub score: String,
    pub delta: String,
    pub k: u32,
    pub k_delta: String,
    /// `rated`, or why not.
    pub status: String,
}

/// One tournament of a player's calculation.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingReportEventJson {
    pub tournament_id: String,
    pub name: String,
    pub k: u32,
    pub k_rule: String,
    pub games: Vec<RatingReportGameJson>,
    pub score: String,
    pub expected: String,
    pub sum_delta: String,
    /// K × ΣΔR.
    pub change: String,
}

/// A player's calculation on one list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingKindReportJson {
    /// standard, rapid, blitz.
    pub kind: String,
    pub edition: String,
    /// 0: unrated.
    pub rating_before: u32,
    pub events: Vec<RatingReportEventJson>,
    pub rated_games: u32,
    /// e.g. `-5.60`.
    pub change_unrounded: String,
    pub change: i64,
    /// 0: unrated (or dropped below the floor).
    pub rating_after: u32,
    pub note: String,
}

/// FIDE's "individual calculation" of a player in a period.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPlayerReportJson {
    pub period: String,
    pub fide_id: u32,
    pub name: String,
    pub revision: u32,
    pub lists: Vec<RatingKindReportJson>,
}

/// A player's part in one tournament of the period.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingTournamentRowJson {
    pub fide_id: u32,
    pub name: String,
    /// 0: unrated.
    pub rating: u32,
    /// Rated games in this tournament.
    pub games: u32,
    pub score: String,
    pub expected: String,
    pub k: u32,
    /// K × ΣΔR, before the period's rounding.
    pub change: String,
    pub note: String,
}

/// A tournament's part of its period.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingTournamentReportJson {
    pub tournament_id: String,
    pub name: String,
    pub period: String,
    pub revision: u32,
    /// standard, rapid, blitz.
    pub kind: String,
    /// The submission the revision used.
    pub tournament_version: i64,
    pub rows: Vec<RatingTournamentRowJson>,
}

/// Pure: the name of a `RatingListKind` number (empty when unspecified).
pub fn kind_name(kind: i32) -> String {
    match pb::RatingListKind::try_from(kind) {
        Ok(pb::RatingListKind::Standard) => "standard",
        Ok(pb::RatingListKind::Rapid) => "rapid",
        Ok(pb::RatingListKind::Blitz) => "blitz",
        _ => "",
    }
    .to_owned()
}

/// Pure: the `RatingListKind` of `standard`, `rapid` or `blitz` (`field` names the
/// request field in the problem).
pub fn parse_kind(field: &str, text: &str) -> Result<pb::RatingListKind, Problem> {
    match text {
        "standard" => Ok(pb::RatingListKind::Standard),
        "rapid" => Ok(pb::RatingListKind::Rapid),
        "blitz" => Ok(pb::RatingListKind::Blitz),
        other => Err(problem::invalid(
            field,
            format!(
                "{:?}: standard, rapid or blitz",
                other.chars().take(40).collect::<String>()
            ),
        )),
    }
}

/// Pure: a submission from a request body (at most the listener's 64 KiB).
pub fn submission(body: &[u8]) -> Result<RatingSubmissionJson, Problem> {
    let b: RatingSubmissionJson = serde_json::from_slice(body).map_err(|e| {
        problem::invalid(
            "body",
            format!("not a submission ({e}): give {{\"kind\": \"standard\"}}"),
        )
    })?;
    parse_kind("kind", &b.kind)?;
    Ok(b)
}

fn change_json(c: &pb::RatingChange) -> RatingChangeJson {
    RatingChangeJson {
        fide_id: c.fide_id,
        name: c.name.clone(),
        kind: kind_name(c.kind as i32),
        old_rating: c.old_rating,
        new_rating: c.new_rating,
    }
}

fn changes(diff: &[pb::RatingChange]) -> Vec<RatingChangeJson> {
    diff.iter().map(change_json).collect()
}

/// Pure: the JSON of a submission's answer.
pub fn submitted_json(r: &pb::SubmitExternalTournamentResponse) -> RatingSubmittedJson {
    RatingSubmittedJson {
        tournament_id: r.tournament_id.clone(),
        period: r.period.clone(),
        rated_games: r.rated_games,
        skipped_games: r.skipped_games,
        version: r.version,
        period_status: r.period_status.clone(),
        notes: r.notes.clone(),
        revision: r.revision,
        diff: changes(&r.diff),
        rippled: r
            .rippled
            .iter()
            .map(|p| RatingRippleJson {
                period: p.period.clone(),
                revision: p.revision,
                status: p.status.clone(),
                unchanged: p.unchanged,
                diff: changes(&p.diff),
            })
            .collect(),
        skipped: r
            .skipped
            .iter()
            .map(|g| SkippedGameJson {
                round: g.round,
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.clone(),
                reason: g.reason.clone(),
            })
            .collect(),
        replayed: r.ack.as_ref().is_some_and(|a| a.replayed),
    }
}

/// Pure: the JSON of a period.
pub fn period_json(p: &pb::RatingPeriodStatus) -> RatingPeriodJson {
    RatingPeriodJson {
        period: p.period.clone(),
        status: p.status.clone(),
        closing_date: p.closing_date.clone(),
        revision: p.revision,
        list_sha256: p.list_sha256.clone(),
        tournaments: p.tournaments.clone(),
        version: p.version,
        last_diff: changes(&p.last_diff),
    }
}

/// Pure: the JSON of a player's calculation.
pub fn player_report_json(r: &pb::RatingPlayerReport) -> RatingPlayerReportJson {
    RatingPlayerReportJson {
        period: r.period.clone(),
        fide_id: r.fide_id,
        name: r.name.clone(),
        revision: r.revision,
        lists: r
            .lists
            .iter()
            .map(|l| RatingKindReportJson {
                kind: kind_name(l.kind),
                edition: l.edition.clone(),
                rating_before: l.rating_before,
                events: l
                    .events
                    .iter()
                    .map(|e| RatingReportEventJson {
                        tournament_id: e.tournament_id.clone(),
                        name: e.name.clone(),
                        k: e.k,
                        k_rule: e.k_rule.clone(),
                        games: e
                            .games
                            .iter()
                            .map(|g| RatingReportGameJson {
                                opponent_id: g.opponent_id,
                                opponent_name: g.opponent_name.clone(),
                                opponent_rating: g.opponent_rating,
                                d_actual: g.d_actual,
                                d_used: g.d_used,
                                pd: g.pd.clone(),
                                score: g.score.clone(),
                                delta: g.delta.clone(),
                                k: g.k,
                                k_delta: g.k_delta.clone(),
                                status: g.status.clone(),
                            })
                            .collect(),
                        score: e.score.clone(),
                        expected: e.expected.clone(),
                        sum_delta: e.sum_delta.clone(),
                        change: e.change.clone(),
                    })
                    .collect(),
                rated_games: l.rated_games,
                change_unrounded: l.change_unrounded.clone(),
                change: l.change,
                rating_after: l.rating_after,
                note: l.note.clone(),
            })
            .collect(),
    }
}

/// Pure: the JSON of a tournament's part of its period.
pub fn tournament_report_json(r: &pb::RatingTournamentReport) -> RatingTournamentReportJson {
    RatingTournamentReportJson {
        tournament_id: r.tournament_id.clone(),
        name: r.name.clone(),
        period: r.period.clone(),
        revision: r.revision,
        kind: kind_name(r.kind),
        tournament_version: r.tournament_version,
        rows: r
            .rows
            .iter()
            .map(|row| RatingTournamentRowJson {
                fide_id: row.fide_id,
                name: row.name.clone(),
                rating: row.rating,
                games: row.games,
                score: row.score.clone(),
                expected: row.expected.clone(),
                k: row.k,
                change: row.change.clone(),
                note: row.note.clone(),
            })
            .collect(),
    }
}

/// Pure: the content type of an export format (`txt`, `xml`, `csv`, any case; the
/// service refuses any other).
pub fn list_content_type(format: &str) -> &'static str {
    match format.trim().to_ascii_lowercase().as_str() {
        "xml" => "application/xml",
        "csv" => "text/csv; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

/// The export's chunks, read whole as long as they stay within `limit` bytes; the
/// bytes, the revision and the SHA-256 the last chunk carries (checked against the
/// bytes).
pub async fn collect_list(
    mut chunks: RatingExports,
    limit: usize,
) -> Result<(Vec<u8>, u32, String), Problem> {
    let mut bytes = Vec::new();
    let (mut revision, mut sha) = (0, String::new());
    while let Some(c) = chunks.next().await {
        let c = c.map_err(st)?;
        if bytes.len() + c.data.len() > limit {
            return Err(st(Status::out_of_range(format!(
                "list: over {} MiB, the most this endpoint answers; export it with `arbiter rating export` (gRPC ExportList streams it)",
                limit / (1024 * 1024)
            ))));
        }
        bytes.extend_from_slice(&c.data);
        revision = c.revision;
        if !c.sha256.is_empty() {
            sha = c.sha256;
        }
    }
    let ours = hex::encode(Sha256::digest(&bytes));
    if sha != ours {
        return Err(st(Status::internal(format!(
            "the export's SHA-256 {sha:?} is not that of its {} bytes",
            bytes.len()
        ))));
    }
    Ok((bytes, revision, sha))
}

fn service(app: &App) -> Result<&Arc<RatingService>, Problem> {
    app.rating.as_ref().ok_or_else(|| {
        st(Status::not_found(
            "path: rating is not served by this process",
        ))
    })
}

/// Submits a tournament run here for rating (`SubmitTournament`): its record as rating
/// sees it goes through the same intake as a TRF file. Submitting it again is a
/// correction (a reason required).
#[utoipa::path(post, path = "/api/v1/tournaments/{id}/rating-submission", tag = "rating",
    request_body = RatingSubmissionJson,
    params(("id" = String, Path, description = "tournament id"),
           ("Idempotency-Key" = Option<String>, Header, description = "the command id: a retry with the same key is answered as the first")),
    responses((status = 201, body = RatingSubmittedJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_submit(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Response {
    let r = async {
        let b = submission(&body)?;
        let kind = parse_kind("kind", &b.kind)?;
        let meta = command_meta(&headers, &b.reason)?;
        let a = service(&app)?
            .submit_tournament(grpc(
                &headers,
                pb::SubmitTournamentRequest {
                    meta: Some(meta),
                    tournament_id: id,
                    kind: kind as i32,
                    official_fide_event: b.official_fide_event,
                    match_event: b.match_event,
                    match_games: b.match_games,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(created(&submitted_json(&a)))
    }
    .await;
    api_answer(r)
}

/// A rating period (`GetPeriod`): its status, closing date, revision and tournaments.
#[utoipa::path(get, path = "/api/v1/rating/periods/{period}", tag = "rating",
    params(("period" = String, Path, description = "YYYY-MM: the list the period produces")),
    responses((status = 200, body = RatingPeriodJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_period(
    State(app): AppState,
    headers: HeaderMap,
    Path(period): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        query(raw.as_deref(), &[])?;
        let p = service(&app)?
            .get_period(grpc(&headers, pb::GetRatingPeriodRequest { period })?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(&headers, &period_json(&p)))
    }
    .await;
    api_answer(r)
}

/// A period's list (`ExportList`) as FIDE TXT, FIDE XML or CSV: the bytes the gRPC
/// stream carries, read whole (at most 64 MiB), their SHA-256 as the `ETag` and in
/// `Repr-Digest`, the revision in `Arbiter-Rating-Revision`.
#[utoipa::path(get, path = "/api/v1/rating/periods/{period}/list", tag = "rating",
    params(("period" = String, Path, description = "YYYY-MM"),
           ("format" = Option<String>, Query, description = "txt (default), xml or csv"),
           ("revision" = Option<u32>, Query, description = "the period's revision (default: the latest)")),
    responses((status = 200, description = "the list (text/plain, application/xml or text/csv)",
               headers(("ETag" = String, description = "the export's SHA-256, hex, quoted"),
                       ("Repr-Digest" = String, description = "sha-256=:BASE64: (RFC 9530)"),
                       ("Arbiter-Rating-Revision" = u32, description = "the revision exported"))),
              (status = 304, description = "If-None-Match has the list's ETag"),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_list(
    State(app): AppState,
    headers: HeaderMap,
    Path(period): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["format", "revision"])?;
        let revision: u32 = q.number("revision")?;
        let format = q.get("format").unwrap_or("txt").to_owned();
        let chunks = service(&app)?
            .export_list(grpc(
                &headers,
                pb::ExportRatingListRequest {
                    period,
                    format: format.clone(),
                    revision,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        let (bytes, revision, sha) = collect_list(chunks, MAX_LIST_BYTES).await?;
        Ok(list_response(
            &headers,
            list_content_type(&format),
            bytes,
            revision,
            &sha,
        ))
    }
    .await;
    api_answer(r)
}

fn list_response(
    request: &HeaderMap,
    content_type: &'static str,
    bytes: Vec<u8>,
    revision: u32,
    sha_hex: &str,
) -> Response {
    use base64::Engine as _;
    let tag = format!("\"{sha_hex}\"");
    let matched = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| crate::api::none_match(v, &tag));
    let digest = hex::decode(sha_hex)
        .map(|d| {
            format!(
                "sha-256=:{}:",
                base64::engine::general_purpose::STANDARD.encode(d)
            )
        })
        .unwrap_or_default();
    let mut r = if matched {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(Body::from(bytes));
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        r
    };
    let h = r.headers_mut();
    for (name, value) in [
        (header::ETAG.as_str(), tag),
        ("repr-digest", digest),
        ("arbiter-rating-revision", revision.to_string()),
    ] {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::VARY, HeaderValue::from_static("Authorization"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// FIDE's "individual calculation" of a player in a period (`GetPlayerReport`): every
/// game with opponent, rating, D, PD, score, ΔR, K, and the totals.
#[utoipa::path(get, path = "/api/v1/rating/periods/{period}/players/{fide_id}", tag = "rating",
    params(("period" = String, Path, description = "YYYY-MM"),
           ("fide_id" = u32, Path, description = "the player's FIDE id"),
           ("kind" = Option<String>, Query, description = "standard, rapid or blitz (default: every list the player has games on)"),
           ("revision" = Option<u32>, Query, description = "the period's revision (default: the latest)")),
    responses((status = 200, body = RatingPlayerReportJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_player_report(
    State(app): AppState,
    headers: HeaderMap,
    Path((period, fide_id)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["kind", "revision"])?;
        let fide_id = crate::api::path_number("fide_id", &fide_id, u32::MAX)?;
        let revision: u32 = q.number("revision")?;
        let kind = match q.get("kind") {
            None | Some("") => pb::RatingListKind::Unspecified,
            Some(k) => parse_kind("kind", k)?,
        };
        let p = service(&app)?
            .get_player_report(grpc(
                &headers,
                pb::GetRatingReportRequest {
                    period,
                    fide_id,
                    kind: kind as i32,
                    revision,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(&headers, &player_report_json(&p)))
    }
    .await;
    api_answer(r)
}

/// A tournament's part of its period (`GetTournamentReport`): per player, rated games,
/// score, expected score, K and K × ΣΔR.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rating-report", tag = "rating",
    params(("id" = String, Path, description = "tournament id"),
           ("revision" = Option<u32>, Query, description = "the revision of the tournament's period (default: the latest)")),
    responses((status = 200, body = RatingTournamentReportJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_tournament_report(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["revision"])?;
        let revision: u32 = q.number("revision")?;
        let t = service(&app)?
            .get_tournament_report(grpc(
                &headers,
                pb::GetRatingTournamentReportRequest {
                    tournament_id: id,
                    revision,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(&headers, &tournament_report_json(&t)))
    }
    .await;
    api_answer(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_body_is_read_strictly_and_names_the_kind() {
        let ok = submission(br#"{"kind": "rapid", "match_games": 4}"#).unwrap();
        assert_eq!((ok.kind.as_str(), ok.match_games), ("rapid", 4));
        assert!(!ok.official_fide_event && ok.reason.is_empty());
        let p = submission(br#"{"kind": "bullet"}"#).unwrap_err();
        assert_eq!((p.status, p.field.as_deref()), (400, Some("kind")));
        assert!(p.detail.contains("standard, rapid or blitz"), "{p:?}");
        for bad in [&b"{}"[..], b"nope", br#"{"kind": "standard", "extra": 1}"#] {
            let p = submission(bad).unwrap_err();
            assert_eq!((p.status, p.field.as_deref()), (400, Some("body")));
        }
    }

    #[test]
    fn kinds_and_content_types_by_name() {
        assert_eq!(kind_name(pb::RatingListKind::Blitz as i32), "blitz");
        assert_eq!(kind_name(0), "");
        assert_eq!(kind_name(99), "");
        assert_eq!(list_content_type("XML"), "application/xml");
        assert_eq!(list_content_type("csv"), "text/csv; charset=utf-8");
        assert_eq!(list_content_type("txt"), "text/plain; charset=utf-8");
    }

    fn chunks(parts: &[&[u8]], sha: &str) -> RatingExports {
        let n = parts.len();
        let v: Vec<Result<pb::RatingListExportChunk, Status>> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                Ok(pb::RatingListExportChunk {
                    data: p.to_vec(),
                    revision: 2,
                    sha256: if i + 1 == n {
                        sha.to_owned()
                    } else {
                        String::new()
                    },
                })
            })
            .collect();
        Box::pin(futures::stream::iter(v))
    }

    #[tokio::test]
    async fn a_list_is_read_whole_within_its_bound_and_its_digest_checked() {
        let sha = hex::encode(Sha256::digest(b"abcdef"));
        let (bytes, rev, got) = collect_list(chunks(&[b"abc", b"def"], &sha), 6)
            .await
            .unwrap();
        assert_eq!(
            (bytes.as_slice(), rev, got.as_str()),
            (&b"abcdef"[..], 2, sha.as_str())
        );
        let p = collect_list(chunks(&[b"abc", b"def"], &sha), 5)
            .await
            .unwrap_err();
        assert_eq!((p.status, p.field.as_deref()), (400, Some("list")));
        assert!(p.detail.contains("arbiter rating export"), "{p:?}");
        let p = collect_list(chunks(&[b"abc", b"deX"], &sha), 6)
            .await
            .unwrap_err();
        assert_eq!(p.status, 500);
    }
}
