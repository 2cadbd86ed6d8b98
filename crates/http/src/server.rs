//! The HTTP shell: axum routes that turn a request into the RPC request the services
//! already answer (the bearer token goes along as gRPC metadata, so each service's own
//! first line, `auth.authorize(&request, "Rpc", scope)`, decides by the one access table),
//! then shape the answer with the pure functions of [`crate::pages`] and [`crate::api`].
//! Nothing here decides who may read what (ADR http-001).
use std::net::SocketAddr;
use std::sync::Arc;

use arbiter_proto::v1 as pb;
use arbiter_proto::v1::pairing_service_server::PairingService;
use arbiter_proto::v1::registry_service_server::RegistryService;
use arbiter_proto::v1::results_service_server::ResultsService;
use arbiter_registry::projection::Tournaments;
use arbiter_service_kit::auth::{Auth, Scope};
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use tonic::Status;

use crate::api::{self, Paging, Query};
use crate::i18n::{Lang, word};
use crate::pages::{self, Site};
use crate::problem::{self, Problem};

/// What the HTTP listener serves from: the services of the process (their RPC
/// implementations, called in process), its access check and its shared read model.
pub struct App {
    /// The registry service.
    pub registry: Arc<dyn RegistryService>,
    /// The pairing service.
    pub pairing: Arc<dyn PairingService>,
    /// The results service.
    pub results: Arc<dyn ResultsService>,
    /// The access check of the platform (the same as the services').
    pub auth: Auth,
    /// The tournament record (headings and the entries' public fields of the pages).
    pub tournaments: Tournaments,
    /// Whether the projections have caught up with the log (else 503, as gRPC's
    /// `UNAVAILABLE` while starting).
    pub ready: Arc<dyn Fn() -> bool + Send + Sync>,
    /// The site's public address (`--http-public-url`), for the QR codes; else the
    /// request's `Host`, else the listen address.
    pub public_url: Option<String>,
    /// Where it listens.
    pub listen: SocketAddr,
    /// The event log (the event streams follow it).
    pub store: arbiter_eventlog::EventStore,
    /// Turns true when the process shuts down (open event streams end).
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// The webhook service (ADR http-002), where the process hosts it.
    pub webhooks: Option<Arc<dyn pb::webhook_service_server::WebhookService>>,
    /// Clock-telemetry's `GetClockState` (a round's PGN, the live boards), where the
    /// process hosts it.
    pub clock: Option<ClockStates>,
    /// Clock-telemetry's updates of a tournament's boards (the live boards, ADR
    /// http-009), where the process hosts it.
    pub live: Option<crate::live::LiveUpdates>,
    /// The rating service (ADR http-007), where the process hosts it.
    pub rating: Option<Arc<crate::rating::RatingService>>,
}

/// `GetClockState` of the clock-telemetry service, as the API calls it.
pub type ClockStates = Arc<
    dyn Fn(
            tonic::Request<pb::GetClockStateRequest>,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<pb::ClockState, Status>> + Send>,
        > + Send
        + Sync,
>;

/// The `GetClockState` of a clock-telemetry service hosted in the process.
pub fn clock_states<C>(clock: C) -> ClockStates
where
    C: pb::clock_service_server::ClockService + Clone,
{
    Arc::new(move |req| {
        let clock = clock.clone();
        Box::pin(async move {
            clock
                .get_clock_state(req)
                .await
                .map(tonic::Response::into_inner)
        })
    })
}

/// Most bytes of a request body (the API's reads take none; anything larger is refused
/// with 413 before it is read), except a TRF file to import
/// (`arbiter_service_kit::limits::TRF_MESSAGE_BYTES`).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page_list))
        .route("/t/{id}", get(page_tournament))
        .route("/t/{id}/qr.svg", get(page_qr))
        .route("/t/{id}/rounds/{round}", get(page_round))
        .route("/t/{id}/rounds/{round}/by-name", get(page_by_name))
        .route("/t/{id}/rounds/{round}/live", get(crate::live::page_live))
        .route("/static/live.js", get(crate::live::live_js))
        .route("/t/{id}/standings", get(page_standings))
        .route("/t/{id}/crosstable", get(page_crosstable))
        .route("/t/{id}/players/{tpn}", get(page_player))
        .route("/api/v1/openapi.json", get(api_openapi))
        .route(
            "/api/v1/tournaments",
            get(api_tournaments).post(crate::writes::api_create_tournament),
        )
        .route(
            "/api/v1/tournaments/import",
            axum::routing::post(crate::writes::api_import_tournament).layer(
                axum::extract::DefaultBodyLimit::max(
                    arbiter_service_kit::limits::TRF_MESSAGE_BYTES,
                ),
            ),
        )
        .route("/api/v1/tournaments/{id}", get(api_tournament))
        .route(
            "/api/v1/tournaments/{id}/export",
            get(crate::writes::api_export_tournament),
        )
        .route("/api/v1/tournaments/{id}/players", get(api_players))
        .route(
            "/api/v1/tournaments/{id}/rounds/{round}/pairings",
            get(api_pairings),
        )
        .route(
            "/api/v1/tournaments/{id}/rounds/{round}/results",
            get(api_results),
        )
        .route("/api/v1/tournaments/{id}/standings", get(api_standings))
        .route(
            "/api/v1/tournaments/{id}/rounds/{round}/pgn",
            get(api_round_pgn),
        )
        .route(
            "/api/v1/tournaments/{id}/rounds/{round}/live",
            get(crate::live::api_live),
        )
        .route("/api/v1/tournaments/{id}/history", get(api_history))
        .route("/api/v1/tournaments/{id}/events", get(api_events))
        .route(
            "/api/v1/tournaments/{id}/rating-submission",
            axum::routing::post(crate::rating::api_submit),
        )
        .route(
            "/api/v1/tournaments/{id}/rating-report",
            get(crate::rating::api_tournament_report),
        )
        .route(
            "/api/v1/rating/periods/{period}",
            get(crate::rating::api_period),
        )
        .route(
            "/api/v1/rating/periods/{period}/list",
            get(crate::rating::api_list),
        )
        .route(
            "/api/v1/rating/periods/{period}/players/{fide_id}",
            get(crate::rating::api_player_report),
        )
        .route(
            "/api/v1/webhooks",
            get(crate::webhooks::api_list_webhooks).post(crate::webhooks::api_add_webhook),
        )
        .route(
            "/api/v1/webhooks/{webhook_id}",
            get(crate::webhooks::api_get_webhook).delete(crate::webhooks::api_remove_webhook),
        )
        .route(
            "/api/v1/webhooks/{webhook_id}/deliveries",
            get(crate::webhooks::api_deliveries),
        )
        .route(
            "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}",
            get(crate::webhooks::api_delivery),
        )
        .route(
            "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
            axum::routing::post(crate::webhooks::api_redeliver),
        )
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(app.clone(), starting))
        .with_state(app)
}

/// Serves `router` on `listener` until `shutdown` turns true.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<()> {
    axum::serve(listener, router(app))
        .with_graceful_shutdown(async move {
            let _ = shutdown.wait_for(|s| *s).await;
        })
        .await?;
    Ok(())
}

type AppState = State<Arc<App>>;

async fn starting(
    State(app): AppState,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !(app.ready)() {
        let mut r = problem_response(&problem::from_status(&Status::unavailable(
            "the service is starting (its projections are folding the log); retry in 1 s",
        )));
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return r;
    }
    next.run(request).await
}

async fn not_found(uri: axum::http::Uri) -> Response {
    let p = problem::from_status(&Status::not_found(format!(
        "path: nothing at {:?}",
        uri.path().chars().take(200).collect::<String>()
    )));
    problem_response(&p)
}

/// The RPC request of an HTTP request: its bearer token (and trace context) as gRPC
/// metadata. A token header that is not ASCII is refused, never dropped (that would
/// make the request anonymous).
pub(crate) fn grpc<T>(headers: &HeaderMap, msg: T) -> Result<tonic::Request<T>, Problem> {
    let mut r = tonic::Request::new(msg);
    for name in ["authorization", "traceparent"] {
        for v in headers.get_all(name) {
            let v = tonic::metadata::MetadataValue::try_from(v.as_bytes()).map_err(|_| {
                problem::from_status(&Status::unauthenticated(format!("{name}: not ASCII")))
            })?;
            r.metadata_mut().append(name, v);
        }
    }
    Ok(r)
}

fn problem_response(p: &Problem) -> Response {
    let body = serde_json::to_vec(p).unwrap_or_default();
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = StatusCode::from_u16(p.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    if p.status == 401 {
        h.insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"arbiter\""),
        );
    }
    r
}

/// A body with its ETag; 304 when the request's `If-None-Match` has it.
fn tagged(
    request: &HeaderMap,
    status: StatusCode,
    content_type: &'static str,
    body: Vec<u8>,
) -> Response {
    let tag = api::etag(&body);
    let matched = status.is_success()
        && request
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| api::none_match(v, &tag));
    let mut r = if matched {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(Body::from(body));
        *r.status_mut() = status;
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        r
    };
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&tag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::VARY,
        HeaderValue::from_static("Authorization, Accept-Language"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

pub(crate) fn json<T: Serialize>(request: &HeaderMap, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => tagged(request, StatusCode::OK, "application/json", body),
        Err(e) => problem_response(&problem::from_status(&Status::internal(format!(
            "answer as JSON: {e}"
        )))),
    }
}

type ApiResult = Result<Response, Problem>;

pub(crate) fn api_answer(r: ApiResult) -> Response {
    r.unwrap_or_else(|p| problem_response(&p))
}

pub(crate) fn st(s: Status) -> Problem {
    problem::from_status(&s)
}

// ---- pages ----------------------------------------------------------------------

impl App {
    fn site(&self, headers: &HeaderMap, q: &Query, path: &str) -> Site {
        let explicit = q.get("lang").and_then(Lang::parse);
        let lang = Lang::negotiate(
            q.get("lang"),
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok()),
        );
        Site {
            lang,
            explicit: explicit.is_some(),
            path: path.to_owned(),
            base_url: self.base_url(headers),
        }
    }

    /// `--http-public-url`, else `http://` + the request's `Host` when it is a plain
    /// host[:port], else the listen address.
    fn base_url(&self, headers: &HeaderMap) -> String {
        if let Some(u) = &self.public_url {
            return u.trim_end_matches('/').to_owned();
        }
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .filter(|h| {
                !h.is_empty()
                    && h.len() <= 255
                    && h.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')
                    })
            });
        match host {
            Some(h) => format!("http://{h}"),
            None => format!("http://{}", self.listen),
        }
    }

    /// A tournament's heading, for a caller who may read its pairings (the rule of
    /// `GetPairings`: its roles, or anybody when the tournament is public).
    pub(crate) fn heading(&self, headers: &HeaderMap, id: &str) -> Result<pb::Tournament, Problem> {
        let req = grpc(headers, ())?;
        self.auth
            .authorize(&req, "GetPairings", Scope::Tournament(id))
            .map_err(st)?;
        self.tournaments.get(id.trim()).ok_or_else(|| {
            st(Status::not_found(format!(
                "tournament_id: no tournament {:?}",
                id.trim()
            )))
        })
    }

    pub(crate) fn players(&self, id: &str) -> pages::Players {
        self.tournaments
            .roster(id.trim())
            .map(|r| pages::public_players(&r))
            .unwrap_or_default()
    }

    /// A published round's pairing and results (a page shows only what is published).
    pub(crate) async fn published_round(
        &self,
        headers: &HeaderMap,
        t: &pb::Tournament,
        round: &str,
    ) -> Result<(pb::RoundPairingView, Option<pb::RoundResults>), Problem> {
        let max = t.paired_rounds.max(1);
        let round = api::path_number("round", round, max.max(t.rounds))?;
        if round > t.paired_rounds {
            return Err(st(Status::not_found(format!(
                "round: round {round} is not paired (rounds paired: {})",
                t.paired_rounds
            ))));
        }
        let view = self
            .pairing
            .get_pairings(grpc(
                headers,
                pb::GetPairingsRequest {
                    tournament_id: t.tournament_id.clone(),
                    round,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        if !view.published {
            return Err(st(Status::not_found(format!(
                "round: round {round} is not published yet"
            ))));
        }
        let results = self
            .results
            .get_round_results(grpc(
                headers,
                pb::GetRoundResultsRequest {
                    tournament_id: t.tournament_id.clone(),
                    round,
                },
            )?)
            .await
            .ok()
            .map(tonic::Response::into_inner);
        Ok((view, results))
    }

    async fn standings(
        &self,
        headers: &HeaderMap,
        id: &str,
        round: u32,
        format: &str,
    ) -> Result<pb::Standings, Status> {
        self.standings_of(headers, id, round, format, false).await
    }

    /// `GetStandings` of the players, or (`teams`) of the teams of a team tournament.
    async fn standings_of(
        &self,
        headers: &HeaderMap,
        id: &str,
        round: u32,
        format: &str,
        teams: bool,
    ) -> Result<pb::Standings, Status> {
        let req = grpc(
            headers,
            pb::GetStandingsRequest {
                tournament_id: id.to_owned(),
                round,
                format: format.to_owned(),
                teams,
                ..Default::default()
            },
        )
        .map_err(|p| Status::unauthenticated(p.detail))?;
        self.results
            .get_standings(req)
            .await
            .map(tonic::Response::into_inner)
    }

    /// Points of every player (by id) before `round` ("" for all when they cannot be
    /// computed; none needed before round 1).
    async fn points_before(
        &self,
        headers: &HeaderMap,
        id: &str,
        round: u32,
    ) -> std::collections::HashMap<String, String> {
        if round <= 1 {
            return Default::default();
        }
        self.standings(headers, id, round - 1, "")
            .await
            .map(|s| {
                s.rows
                    .into_iter()
                    .map(|r| (r.player_id, r.points))
                    .collect()
            })
            .unwrap_or_default()
    }
}

pub(crate) fn html_page(headers: &HeaderMap, site: &Site, r: Result<String, Problem>) -> Response {
    match r {
        Ok(body) => tagged(
            headers,
            StatusCode::OK,
            "text/html; charset=utf-8",
            body.into_bytes(),
        ),
        Err(p) => {
            let title = word(site.lang, "error");
            let body = pages::error_page(site, title, &p.detail).unwrap_or_else(|e| e.0);
            let mut r = tagged(
                headers,
                StatusCode::from_u16(p.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                "text/html; charset=utf-8",
                body.into_bytes(),
            );
            if p.status == 401 {
                r.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"arbiter\""),
                );
            }
            r
        }
    }
}

pub(crate) fn rendered(r: Result<String, pages::PageError>) -> Result<String, Problem> {
    r.map_err(|e| st(Status::internal(e.0)))
}

/// The page's query (only `lang`) and its site; a bad query is the page's error.
pub(crate) fn page_query(
    app: &App,
    headers: &HeaderMap,
    raw: Option<&str>,
    path: &str,
) -> (Site, Result<(), Problem>) {
    match Query::parse(raw) {
        Ok(q) => {
            let site = app.site(headers, &q, path);
            (site, q.only(&["lang"]))
        }
        Err(p) => (app.site(headers, &Query::default(), path), Err(p)),
    }
}

async fn page_list(State(app): AppState, headers: HeaderMap, RawQuery(raw): RawQuery) -> Response {
    let (site, ok) = page_query(&app, &headers, raw.as_deref(), "/");
    let r = (|| {
        ok?;
        let req = grpc(&headers, ())?;
        if headers.contains_key(header::AUTHORIZATION) {
            // A token that is not valid is said so, not shown an empty list.
            app.auth
                .authorize(&req, "WhoAmI", Scope::Global)
                .map_err(st)?;
        }
        let list: Vec<pb::Tournament> = app
            .tournaments
            .list()
            .into_iter()
            .filter(|t| {
                app.auth
                    .authorize(&req, "GetPairings", Scope::Tournament(&t.tournament_id))
                    .is_ok()
            })
            .collect();
        rendered(pages::list_page(&site, &list))
    })();
    html_page(&headers, &site, r)
}

async fn page_tournament(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let (site, ok) = page_query(&app, &headers, raw.as_deref(), &format!("/t/{id}"));
    let r = async {
        ok?;
        let t = app.heading(&headers, &id)?;
        let mut published = Vec::new();
        for round in 1..=t.paired_rounds {
            let v = app
                .pairing
                .get_pairings(grpc(
                    &headers,
                    pb::GetPairingsRequest {
                        tournament_id: t.tournament_id.clone(),
                        round,
                    },
                )?)
                .await;
            if v.is_ok_and(|v| v.get_ref().published) {
                published.push(round);
            }
        }
        rendered(pages::tournament_page(&site, &t, &published))
    }
    .await;
    html_page(&headers, &site, r)
}

async fn page_qr(State(app): AppState, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let site = app.site(&headers, &Query::default(), "");
    let r = app.heading(&headers, &id).and_then(|t| {
        pages::qr_svg(&pages::tournament_url(&site, &t.tournament_id))
            .map_err(|e| st(Status::internal(e.0)))
    });
    match r {
        Ok(svg) => tagged(&headers, StatusCode::OK, "image/svg+xml", svg.into_bytes()),
        Err(p) => problem_response(&p),
    }
}

async fn page_round(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    round_like(app, headers, id, round, raw, false).await
}

async fn page_by_name(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    round_like(app, headers, id, round, raw, true).await
}

async fn round_like(
    app: Arc<App>,
    headers: HeaderMap,
    id: String,
    round: String,
    raw: Option<String>,
    by_name: bool,
) -> Response {
    let path = if by_name {
        format!("/t/{id}/rounds/{round}/by-name")
    } else {
        format!("/t/{id}/rounds/{round}")
    };
    let (site, ok) = page_query(&app, &headers, raw.as_deref(), &path);
    let r = async {
        ok?;
        let t = app.heading(&headers, &id)?;
        let (view, results) = app.published_round(&headers, &t, &round).await?;
        let points = app
            .points_before(&headers, &t.tournament_id, view.round)
            .await;
        let players = app.players(&id);
        rendered(if by_name {
            pages::by_name_page(&site, &t, &view, results.as_ref(), &players, &points)
        } else {
            pages::round_page(&site, &t, &view, results.as_ref(), &players, &points)
        })
    }
    .await;
    html_page(&headers, &site, r)
}

async fn page_standings(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    standings_like(app, headers, id, raw, false).await
}

async fn page_crosstable(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    standings_like(app, headers, id, raw, true).await
}

async fn standings_like(
    app: Arc<App>,
    headers: HeaderMap,
    id: String,
    raw: Option<String>,
    crosstable: bool,
) -> Response {
    let path = if crosstable {
        format!("/t/{id}/crosstable")
    } else {
        format!("/t/{id}/standings")
    };
    let (site, ok) = page_query(&app, &headers, raw.as_deref(), &path);
    let r = async {
        ok?;
        let t = app.heading(&headers, &id)?;
        let players = app.players(&id);
        // A team tournament's standings page ranks its teams (ADR pairing-005).
        if !crosstable && !players.teams.is_empty() {
            let s = app
                .standings_of(&headers, &t.tournament_id, 0, "", true)
                .await
                .map_err(st)?;
            return rendered(pages::team_standings_page(&site, &t, &s));
        }
        let s = app
            .standings(
                &headers,
                &t.tournament_id,
                0,
                if crosstable { "json" } else { "" },
            )
            .await
            .map_err(st)?;
        rendered(if crosstable {
            pages::crosstable_page(&site, &t, &s, &players)
        } else {
            pages::standings_page(&site, &t, &s, &players)
        })
    }
    .await;
    html_page(&headers, &site, r)
}

async fn page_player(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, tpn)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let (site, ok) = page_query(
        &app,
        &headers,
        raw.as_deref(),
        &format!("/t/{id}/players/{tpn}"),
    );
    let r = async {
        ok?;
        let t = app.heading(&headers, &id)?;
        let n = api::path_number("tpn", &tpn, arbiter_service_kit::limits::MAX_PLAYERS as u32)?;
        let s = app
            .standings(&headers, &t.tournament_id, 0, "json")
            .await
            .map_err(st)?;
        let players = app.players(&id);
        match pages::player_page(&site, &t, &s, &players, n) {
            Some(page) => rendered(page),
            None => Err(st(Status::not_found(format!(
                "tpn: no player with pairing number {n}"
            )))),
        }
    }
    .await;
    html_page(&headers, &site, r)
}

// ---- JSON API -------------------------------------------------------------------

pub(crate) fn query(raw: Option<&str>, known: &[&str]) -> Result<Query, Problem> {
    let q = Query::parse(raw)?;
    q.only(known)?;
    Ok(q)
}

/// The OpenAPI 3 document of this API.
#[utoipa::path(get, path = "/api/v1/openapi.json", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document (application/json)")))]
async fn api_openapi(headers: HeaderMap) -> Response {
    json(&headers, &crate::openapi::document_json())
}

/// The tournaments the caller may list (`ListTournaments`), in creation order.
#[utoipa::path(get, path = "/api/v1/tournaments", tag = "tournaments",
    params(("page_size" = Option<u32>, Query, description = "1…1,000 (default 100)"),
           ("page_token" = Option<String>, Query, description = "next_page_token of the page before")),
    responses((status = 200, body = api::TournamentPage),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
async fn api_tournaments(
    State(app): AppState,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["page_size", "page_token"])?;
        let page_size: u32 = q.number("page_size")?;
        let r = app
            .registry
            .list_tournaments(grpc(
                &headers,
                pb::ListTournamentsRequest {
                    page_size,
                    page_token: q.get("page_token").unwrap_or_default().to_owned(),
                },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::tournament_page(r.get_ref())))
    }
    .await;
    api_answer(r)
}

/// One tournament (`GetTournament`).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "tournament id")),
    responses((status = 200, body = api::TournamentJson),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
async fn api_tournament(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        query(raw.as_deref(), &[])?;
        let t = app
            .registry
            .get_tournament(grpc(
                &headers,
                pb::GetTournamentRequest { tournament_id: id },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::TournamentJson::from(t.get_ref())))
    }
    .await;
    api_answer(r)
}

/// The players as the caller may see them (`ListPlayers`: personal data, for the roles
/// that may list players), by pairing number.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/players", tag = "players",
    params(("id" = String, Path, description = "tournament id"),
           ("page_size" = Option<u32>, Query, description = "1…1,000 (default 100)"),
           ("page_token" = Option<String>, Query, description = "next_page_token of the page before")),
    responses((status = 200, body = api::PlayerPage),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
async fn api_players(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["page_size", "page_token"])?;
        let paging = Paging::from_query(&q)?;
        let r = app
            .registry
            .list_players(grpc(
                &headers,
                pb::ListPlayersRequest { tournament_id: id },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::player_page(r.get_ref(), paging)))
    }
    .await;
    api_answer(r)
}

/// A round's pairing (`GetPairings`; without a token when the tournament is public).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rounds/{round}/pairings", tag = "rounds",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = u32, Path, description = "round (1…)")),
    responses((status = 200, body = api::PairingJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
async fn api_pairings(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        query(raw.as_deref(), &[])?;
        let round = api::path_number("round", &round, u32::MAX)?;
        let v = app
            .pairing
            .get_pairings(grpc(
                &headers,
                pb::GetPairingsRequest {
                    tournament_id: id,
                    round,
                },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::PairingJson::from(v.get_ref())))
    }
    .await;
    api_answer(r)
}

/// A round's results (`GetRoundResults`; without a token when the tournament is public).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rounds/{round}/results", tag = "rounds",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = u32, Path, description = "round (1…)")),
    responses((status = 200, body = api::ResultsJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
async fn api_results(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        query(raw.as_deref(), &[])?;
        let round = api::path_number("round", &round, u32::MAX)?;
        let v = app
            .results
            .get_round_results(grpc(
                &headers,
                pb::GetRoundResultsRequest {
                    tournament_id: id,
                    round,
                },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::ResultsJson::from(v.get_ref())))
    }
    .await;
    api_answer(r)
}

/// A round's games as PGN, as live broadcasts read them (lichess): one game per board of
/// the published pairing, from clock-telemetry — its moves with a `[%clk]` comment after
/// each (the mover's remaining time) and its result — or, for a board without a clock game
/// of that round, the headers and the result recorded (`*` while none). Without a token
/// when the tournament is public.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/rounds/{round}/pgn", tag = "rounds",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = u32, Path, description = "round (1…)")),
    responses((status = 200, body = String, content_type = "application/x-chess-pgn"),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
async fn api_round_pgn(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, round)): Path<(String, String)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        query(raw.as_deref(), &[])?;
        let t = app.heading(&headers, &id)?;
        // The round's published pairing and its results, as the round's page reads them.
        let (pairing, results) = app.published_round(&headers, &t, &round).await?;
        let round = pairing.round;
        let players = app.players(&t.tournament_id);
        let mut games = Vec::with_capacity(pairing.boards.len());
        for b in &pairing.boards {
            let state = match &app.clock {
                Some(clock) => clock(grpc(
                    &headers,
                    pb::GetClockStateRequest {
                        tournament_id: t.tournament_id.clone(),
                        board: b.board,
                    },
                )?)
                .await
                .ok()
                .filter(|s| s.round == round && !s.pgn.is_empty()),
                None => None,
            };
            let recorded = results
                .as_ref()
                .and_then(|r| r.boards.iter().find(|x| x.board == b.board))
                .map(|x| x.result.clone())
                .unwrap_or_default();
            games.push(crate::pgn::round_game(
                &t,
                round,
                b,
                &players,
                state.as_ref().map(|s| s.pgn.as_str()),
                &recorded,
            ));
        }
        Ok(pgn_answer(games.join("\n")))
    }
    .await;
    api_answer(r)
}

fn pgn_answer(body: String) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        body,
    )
        .into_response()
}

/// The standings with tie-breaks and each line's rounds (`GetStandings`; without a token
/// when the tournament is public).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/standings", tag = "standings",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = Option<u32>, Query, description = "after this round (default: every complete round)"),
           ("tiebreaks" = Option<String>, Query, description = "e.g. BH/C1,BH,SB"),
           ("edition" = Option<String>, Query, description = "c07-2026 (default), c07-2024, seed"),
           ("as_of_position" = Option<i64>, Query, description = "as the log stood at this position"),
           ("page_size" = Option<u32>, Query, description = "1…1,000 (default 100)"),
           ("page_token" = Option<String>, Query, description = "next_page_token of the page before")),
    responses((status = 200, body = api::StandingsJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
async fn api_standings(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(
            raw.as_deref(),
            &[
                "round",
                "tiebreaks",
                "edition",
                "as_of_position",
                "page_size",
                "page_token",
            ],
        )?;
        let paging = Paging::from_query(&q)?;
        let s = app
            .results
            .get_standings(grpc(
                &headers,
                pb::GetStandingsRequest {
                    tournament_id: id,
                    round: q.number("round")?,
                    as_of_position: q.number("as_of_position")?,
                    tiebreaks: q.get("tiebreaks").unwrap_or_default().to_owned(),
                    edition: q.get("edition").unwrap_or_default().to_owned(),
                    format: "json".into(),
                    ..Default::default()
                },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::standings(s.get_ref(), paging)))
    }
    .await;
    api_answer(r)
}

/// The tournament's history, oldest first (`GetHistory`).
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/history", tag = "history",
    params(("id" = String, Path, description = "tournament id"),
           ("round" = Option<u32>, Query, description = "with board: one game"),
           ("board" = Option<u32>, Query, description = "board"),
           ("player" = Option<String>, Query, description = "id or pairing number"),
           ("page_size" = Option<u32>, Query, description = "1…1,000 (default 100)"),
           ("page_token" = Option<String>, Query, description = "next_page_token of the page before")),
    responses((status = 200, body = api::HistoryPage),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
async fn api_history(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(
            raw.as_deref(),
            &["round", "board", "player", "page_size", "page_token"],
        )?;
        let paging = Paging::from_query(&q)?;
        let h = app
            .results
            .get_history(grpc(
                &headers,
                pb::GetHistoryRequest {
                    tournament_id: id,
                    round: q.number("round")?,
                    board: q.number("board")?,
                    player: q.get("player").unwrap_or_default().to_owned(),
                },
            )?)
            .await
            .map_err(st)?;
        Ok(json(&headers, &api::history(h.get_ref(), paging)))
    }
    .await;
    api_answer(r)
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        problem_response(&self)
    }
}

/// The tournament's events as server-sent events, from `Last-Event-ID` + 1 (or
/// `from_position`, or what comes next); `limit` ends the stream after that many events
/// (0: follows the log until the client goes). Access: the rule of `GetHistory`.
#[utoipa::path(get, path = "/api/v1/tournaments/{id}/events", tag = "history",
    params(("id" = String, Path, description = "tournament id"),
           ("Last-Event-ID" = Option<i64>, Header, description = "the last id received: the stream resumes after it"),
           ("from_position" = Option<i64>, Query, description = "start at this log position (default: the next event)"),
           ("limit" = Option<u32>, Query, description = "end after this many events (default: never)")),
    responses((status = 200, description = "text/event-stream: `id` the log position, `event` the event type, `data` the event (JSON)", body = crate::events::EventJson, content_type = "text/event-stream"),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
async fn api_events(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["from_position", "limit"])?;
        let req = grpc(&headers, ())?;
        app.auth
            .authorize(&req, "GetHistory", Scope::Tournament(&id))
            .map_err(st)?;
        let id = id.trim().to_owned();
        if !app.tournaments.contains(&id) {
            return Err(st(Status::not_found(format!(
                "tournament_id: no tournament {id:?}"
            ))));
        }
        let head = app
            .store
            .head_position()
            .await
            .map_err(|e| st(Status::internal(format!("event log: {e}"))))?;
        let last = headers
            .get("last-event-id")
            .map(|v| v.to_str().unwrap_or("?"));
        let from = crate::events::start(last, q.number("from_position")?, head)?;
        let limit: u64 = q.number("limit")?;
        let sub = app.store.subscribe(from);
        let shutdown = app.shutdown.clone();
        let stream = futures::stream::unfold(
            (sub, id, shutdown, 0u64),
            move |(mut sub, id, mut shutdown, sent)| async move {
                if (limit > 0 && sent >= limit) || *shutdown.borrow() {
                    return None;
                }
                loop {
                    tokio::select! {
                        e = sub.next() => match e {
                            Ok(e) => {
                                if arbiter_registry::event_index::tournament_of_stream(&e) == Some(id.as_str()) {
                                    let frame = axum::body::Bytes::from(crate::events::frame(&e));
                                    return Some((Ok::<_, std::io::Error>(frame), (sub, id, shutdown, sent + 1)));
                                }
                            }
                            Err(_) => return None,
                        },
                        _ = tokio::time::sleep(std::time::Duration::from_secs(15)) => {
                            let ping = axum::body::Bytes::from_static(b": keep-alive\n\n");
                            return Some((Ok(ping), (sub, id, shutdown, sent)));
                        }
                        _ = shutdown.changed() => return None,
                    }
                }
            },
        );
        let mut r = Response::new(Body::from_stream(stream));
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Ok(r)
    }
    .await;
    api_answer(r)
}
