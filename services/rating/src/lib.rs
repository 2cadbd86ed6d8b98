//! # The rating service: FIDE Elo per event and monthly rating lists
//!
//! State is events (service name `rating`):
//! - `rating-list-<YYYY-MM>`: [`StartingListImported`] chunks (≤ 5,000 players each) of a
//!   FIDE player list used as a starting list;
//! - `rating-tournament-<id>`: [`ExternalTournamentSubmitted`] (a TRF upload's rated games;
//!   a later version is a correction);
//! - `rating-period-<YYYY-MM>`: the period aggregate, open → closed → computed → published:
//!   `RatingPeriodOpened`, `RatingPeriodClosed` (at the closing date, by the scheduler in
//!   this service, or by `RunPeriod`), `RatingPeriodComputed` chunks, `RatingPeriodPublished`,
//!   then `RatingListRevised` chunks (revision N+1 with the diff) for late corrections.
//!
//! Handlers: auth → command meta → pure decision ([`intake`], [`compute`]) → append →
//! [`projection::Ratings`] folds → queries wait for `caught_up`.
pub mod calendar;
pub mod compute;
pub mod export;
pub mod intake;
pub mod projection;

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use arbiter_eventlog::{AppendAck, AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::rating_service_server::{RatingService, RatingServiceServer};
use arbiter_proto::v1::{
    CommandAck, ExportRatingListRequest, ExternalTournamentSubmitted, GetRatingPeriodRequest,
    GetRatingReportRequest, GetRatingTournamentReportRequest, GetServiceInfoRequest,
    ImportStartingListRequest, ImportStartingListResponse, PublishRatingPeriodRequest, RatingInput,
    RatingListExportChunk, RatingListRevised, RatingPeriodClosed, RatingPeriodComputed,
    RatingPeriodOpened, RatingPeriodPublished, RatingPeriodStatus, RatingPlayerReport,
    RatingRipple, RatingTournamentReport, RunRatingPeriodRequest, RunRatingPeriodResponse,
    ServiceInfo, StartingListImported, SubmitExternalTournamentRequest,
    SubmitExternalTournamentResponse,
};
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::status::{from_log, invalid, not_found};
use arbiter_service_kit::telemetry::current_traceparent;
use arbiter_service_kit::{Platform, ServiceModule};
use elo::rating_list_7::closing_date;
use elo::{CalendarDate, ListMonth};
use prost::Message;
use tokio::sync::Notify;
use tonic::{Request, Response, Status};

use calendar::{
    FieldError, KINDS, date_text, kind_from_number, list_stream, month_text, parse_date,
    parse_month, period_stream, tournament_stream,
};
use projection::{
    EXTERNAL_TOURNAMENT_SUBMITTED, RATING_LIST_REVISED, RATING_PERIOD_CLOSED,
    RATING_PERIOD_COMPUTED, RATING_PERIOD_OPENED, RATING_PERIOD_PUBLISHED, Ratings,
    STARTING_LIST_IMPORTED, Status as PeriodStatus,
};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "rating";
/// Players per list chunk (import requests and computed-list events): about 300 KB of
/// payload, well under NATS's default 1 MB message limit in distributed mode.
pub const CHUNK_PLAYERS: usize = 5_000;
/// Rule editions this service applies (default first).
pub const EDITIONS: &[&str] = &["fide-2026", "fide-2024", "fide-2014"];

/// Where the service reads today's date (UTC); injectable so tests drive the scheduler.
pub type Today = Arc<dyn Fn() -> CalendarDate + Send + Sync>;

/// Today from `ARBITER_RATING_TODAY` (YYYY-MM-DD, for tests and rehearsals), else the
/// system clock (UTC).
pub fn system_today() -> Today {
    Arc::new(|| {
        if let Ok(t) = std::env::var("ARBITER_RATING_TODAY")
            && let Ok(d) = parse_date("ARBITER_RATING_TODAY", &t)
        {
            return d;
        }
        let now = chrono::Utc::now().date_naive();
        use chrono::Datelike;
        CalendarDate::new(now.year(), now.month() as u8, now.day() as u8)
            .unwrap_or_else(|_| CalendarDate::new(2026, 1, 1).expect("valid date"))
    })
}

/// The rating gRPC service.
#[derive(Clone)]
pub struct Rating {
    platform: Platform,
    ratings: Ratings,
    /// Tournaments run here (the registry's record, folded from the shared log).
    tournaments: arbiter_registry::projection::Tournaments,
    today: Today,
    wake: Arc<Notify>,
}

impl Rating {
    /// The service on this platform, with the system date and a scheduler checking
    /// every minute (and whenever a period opens).
    pub fn start(platform: &Platform) -> Rating {
        Rating::start_with(platform, system_today(), Duration::from_secs(60))
    }

    /// The service with a date source and scheduler interval.
    pub fn start_with(platform: &Platform, today: Today, every: Duration) -> Rating {
        let tournaments = arbiter_registry::projection::Tournaments::start(platform.store.clone());
        Rating::start_sharing(platform, today, every, tournaments)
    }

    /// As [`Rating::start_with`], reading a tournament projection the process already keeps
    /// (`arbiterd`: one projection for every service).
    pub fn start_sharing(
        platform: &Platform,
        today: Today,
        every: Duration,
        tournaments: arbiter_registry::projection::Tournaments,
    ) -> Rating {
        platform.mirror(
            SERVICE,
            &[
                "arbiter.v1.registry.>",
                "arbiter.v1.pairing.>",
                "arbiter.v1.results.>",
            ],
        );
        let r = Rating {
            ratings: Ratings::start(platform.store.clone()),
            tournaments,
            platform: platform.clone(),
            today,
            wake: Arc::new(Notify::new()),
        };
        tokio::spawn(r.clone().scheduler(every));
        tokio::spawn(r.clone().submit_finished_tournaments());
        r
    }

    /// The read model.
    pub fn ratings(&self) -> &Ratings {
        &self.ratings
    }

    /// Closes every open period whose closing date has passed; returns those closed.
    pub async fn close_due_periods(&self) -> Vec<ListMonth> {
        let today = (self.today)();
        let due: Vec<(ListMonth, i64)> = self.ratings.read(|s| {
            s.periods
                .iter()
                .filter(|(m, p)| p.status == PeriodStatus::Open && closing_date(**m) < today)
                .map(|(m, p)| (*m, p.version))
                .collect()
        });
        let mut closed = Vec::new();
        for (m, version) in due {
            let ctx = self.context(
                "rating-scheduler".into(),
                &format!("close-{}", month_text(m)),
                "",
            );
            let r = self
                .append(
                    period_stream(m),
                    Some(version),
                    vec![event(
                        RATING_PERIOD_CLOSED,
                        &RatingPeriodClosed {
                            period: month_text(m),
                            closed_on: date_text(today),
                            automatic: true,
                        },
                    )],
                    ctx,
                )
                .await;
            match r {
                Ok(a) => {
                    self.ratings.caught_up(a.last_position).await;
                    tracing::info!(period = %month_text(m), "rating period closed");
                    closed.push(m);
                }
                Err(e) => tracing::warn!(error = %e, period = %month_text(m), "closing a period"),
            }
        }
        closed
    }

    async fn scheduler(self, every: Duration) {
        let mut shutdown = self.platform.shutdown.clone();
        // wait for the projection to rebuild before the first check
        let head = self.platform.store.head_position().await.unwrap_or(0);
        self.ratings.caught_up(head).await;
        loop {
            self.close_due_periods().await;
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = self.wake.notified() => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    fn context(&self, actor: String, command_id: &str, reason: &str) -> CommandContext {
        self.context_of(actor, command_id, reason, &[])
    }

    /// The context of a command whose request digest is `digest` (see
    /// `arbiter_service_kit::command`).
    fn context_of(
        &self,
        actor: String,
        command_id: &str,
        reason: &str,
        digest: &[u8],
    ) -> CommandContext {
        CommandContext {
            command_id: command_id.to_owned(),
            request_digest: digest.to_vec(),
            actor,
            reason: reason.to_owned(),
            rule_edition: EDITIONS[0].to_owned(),
            service: SERVICE.to_owned(),
            trace_parent: current_traceparent(),
            ..Default::default()
        }
    }

    async fn append(
        &self,
        stream: String,
        expected_version: Option<i64>,
        events: Vec<NewEvent>,
        context: CommandContext,
    ) -> Result<AppendAck, arbiter_eventlog::Error> {
        self.platform
            .store
            .append(AppendRequest {
                stream,
                expected_version,
                events,
                context,
            })
            .await
    }

    async fn caught_up(&self, position: i64) -> Result<(), Status> {
        if self.ratings.caught_up(position).await {
            Ok(())
        } else {
            Err(Status::unavailable(
                "rating projection is behind the log; retry",
            ))
        }
    }

    /// Waits until the projection has applied everything in the log now (reads after a
    /// restart or another process's writes see them).
    async fn fresh(&self) -> Result<(), Status> {
        let head = self
            .platform
            .store
            .head_position()
            .await
            .map_err(from_log)?;
        self.caught_up(head).await
    }

    fn status_of(&self, m: ListMonth) -> Option<RatingPeriodStatus> {
        self.ratings.read(|s| {
            let p = s.periods.get(&m)?;
            let last = p.revisions.last();
            let mut tournaments: Vec<String> = s
                .tournaments_of(m)
                .iter()
                .map(|(_, t)| t.tournament_id.clone())
                .collect();
            tournaments.sort();
            Some(RatingPeriodStatus {
                period: month_text(m),
                status: p.status.name().into(),
                closing_date: date_text(closing_date(m)),
                revision: last.map_or(0, |r| r.number),
                list_sha256: last.map(|r| r.sha256.clone()).unwrap_or_default(),
                tournaments,
                version: p.version,
                last_diff: last.map(|r| r.diff.clone()).unwrap_or_default(),
            })
        })
    }

    /// Opens a period (if new) and closes it when its closing date has passed.
    async fn open_and_close_if_due(
        &self,
        m: ListMonth,
        actor: &str,
        command_id: &str,
        close: bool,
    ) -> Result<(), Status> {
        let (exists, status, version) = self.ratings.read(|s| match s.periods.get(&m) {
            Some(p) => (true, Some(p.status), p.version),
            None => (false, None, 0),
        });
        let today = (self.today)();
        let due = closing_date(m) < today;
        let mut events = Vec::new();
        if !exists {
            events.push(event(
                RATING_PERIOD_OPENED,
                &RatingPeriodOpened {
                    period: month_text(m),
                    closing_date: date_text(closing_date(m)),
                },
            ));
        }
        if close && due && matches!(status, None | Some(PeriodStatus::Open)) {
            events.push(event(
                RATING_PERIOD_CLOSED,
                &RatingPeriodClosed {
                    period: month_text(m),
                    closed_on: date_text(today),
                    automatic: false,
                },
            ));
        }
        if events.is_empty() {
            return Ok(());
        }
        let ctx = self.context(actor.to_owned(), command_id, "");
        match self
            .append(period_stream(m), Some(version), events, ctx)
            .await
        {
            Ok(a) => self.caught_up(a.last_position).await,
            // someone else (the scheduler, a concurrent command) moved it first
            Err(arbiter_eventlog::Error::Conflict { .. }) => {
                let head = self
                    .platform
                    .store
                    .head_position()
                    .await
                    .map_err(from_log)?;
                self.caught_up(head).await
            }
            Err(e) => Err(from_log(e)),
        }
    }
}

impl ServiceModule for Rating {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.RatingService"
    }
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let t = self.ratings.clone();
        Some(std::sync::Arc::new(move || t.position()))
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        // TRF uploads may reach 16 MiB (trf::MAX_INPUT_BYTES); each RPC's own limit is
        // checked by the gate (ADR platform-010), this is the largest.
        routes.add_service(RatingServiceServer::new(*self).max_decoding_message_size(
            arbiter_service_kit::limits::service_max_message_bytes("rating"),
        ));
    }
}

fn field(e: FieldError) -> Status {
    invalid(&e.field, e.message)
}

fn event<M: Message>(event_type: &str, m: &M) -> NewEvent {
    NewEvent {
        event_type: event_type.into(),
        schema_version: 1,
        payload: m.encode_to_vec(),
    }
}

fn ack(stream: String, a: AppendAck) -> CommandAck {
    CommandAck {
        stream,
        stream_version: a.stream_version,
        first_position: a.first_position,
        last_position: a.last_position,
        replayed: a.replayed,
    }
}

type ExportStream =
    Pin<Box<dyn futures::Stream<Item = Result<RatingListExportChunk, Status>> + Send + 'static>>;

#[tonic::async_trait]
impl RatingService for Rating {
    async fn import_starting_list(
        &self,
        request: Request<ImportStartingListRequest>,
    ) -> Result<Response<ImportStartingListResponse>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "ImportStartingList", Scope::Global)?;
        self.fresh().await?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(
                &self.platform.store,
                "ImportStartingList",
                &r,
                r.meta.clone(),
            )
            .await?;
        let month = parse_month("list_month", &r.list_month).map_err(field)?;
        if r.chunk == 0 && r.last && r.players.is_empty() {
            return Err(invalid("players", "the list is empty"));
        }
        if r.players.len() > CHUNK_PLAYERS {
            return Err(invalid(
                "players",
                format!(
                    "{} players: at most {CHUNK_PLAYERS} per chunk",
                    r.players.len()
                ),
            ));
        }
        let stream = list_stream(month);
        if let Some((s, a)) = self
            .platform
            .store
            .find_command(&meta.command_id)
            .await
            .map_err(from_log)?
        {
            let (n, complete) = self.ratings.read(|st| {
                st.imported
                    .get(&month)
                    .map_or((0, false), |l| (l.players.len() as u64, l.complete))
            });
            return Ok(Response::new(ImportStartingListResponse {
                ack: Some(ack(s, a)),
                players_so_far: n,
                complete,
            }));
        }
        let (chunks, complete, seen) = self.ratings.read(|s| {
            s.imported
                .get(&month)
                .map_or((0, false, Default::default()), |l| {
                    (
                        l.chunks,
                        l.complete,
                        l.players
                            .keys()
                            .copied()
                            .collect::<std::collections::BTreeSet<u32>>(),
                    )
                })
        });
        if complete {
            return Err(Status::failed_precondition(format!(
                "list_month: the {} starting list is already imported",
                month_text(month)
            )));
        }
        if r.chunk != chunks {
            return Err(invalid(
                "chunk",
                format!(
                    "expected chunk {chunks} of the {} list, got {}",
                    month_text(month),
                    r.chunk
                ),
            ));
        }
        let mut players = Vec::with_capacity(r.players.len());
        let mut in_chunk = std::collections::BTreeSet::new();
        for (i, p) in r.players.into_iter().enumerate() {
            let p = compute::starting_player(month, i, p).map_err(field)?;
            if seen.contains(&p.fide_id) || !in_chunk.insert(p.fide_id) {
                return Err(invalid(
                    &format!("players[{i}].fide_id"),
                    format!("{} appears twice in the list", p.fide_id),
                ));
            }
            players.push(p);
        }
        let count = players.len() as u64;
        let ctx = self.context_of(actor, &meta.command_id, &meta.reason, &meta.request_digest);
        let a = self
            .append(
                stream.clone(),
                Some(chunks as i64),
                vec![event(
                    STARTING_LIST_IMPORTED,
                    &StartingListImported {
                        list_month: month_text(month),
                        chunk: r.chunk,
                        last: r.last,
                        players,
                        source_name: r.source_name,
                    },
                )],
                ctx,
            )
            .await
            .map_err(from_log)?;
        self.caught_up(a.last_position).await?;
        Ok(Response::new(ImportStartingListResponse {
            ack: Some(ack(stream, a)),
            players_so_far: seen.len() as u64 + count,
            complete: r.last,
        }))
    }

    async fn submit_tournament(
        &self,
        request: Request<arbiter_proto::v1::SubmitTournamentRequest>,
    ) -> Result<Response<SubmitExternalTournamentResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "SubmitTournament",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        // The record as rating sees it, written as TRF, then the same intake as a file.
        let r = request.into_inner();
        let (t, roster) = arbiter_registry::record_commands::load_latest(
            &self.platform,
            &self.tournaments,
            &r.tournament_id,
        )
        .await?;
        let (trf, _) = arbiter_registry::trf_export::export(
            &t,
            &roster.for_rating(),
            &arbiter_registry::trf_export::ExportOptions::default(),
        )
        .map_err(|e| invalid(e.field, e.message))?;
        let inner = SubmitExternalTournamentRequest {
            meta: r.meta,
            trf: trf.into_bytes(),
            kind: r.kind,
            tournament_id: t.tournament_id.clone(),
            end_date: t.end_date.clone(),
            official_fide_event: r.official_fide_event,
            match_event: r.match_event,
            match_games: r.match_games,
        };
        self.submit_as(actor, inner).await
    }

    async fn submit_external_tournament(
        &self,
        request: Request<SubmitExternalTournamentRequest>,
    ) -> Result<Response<SubmitExternalTournamentResponse>, Status> {
        let actor =
            self.platform
                .auth
                .actor(&request, "SubmitExternalTournament", Scope::Global)?;
        self.submit_as(actor, request.into_inner()).await
    }

    async fn run_period(
        &self,
        request: Request<RunRatingPeriodRequest>,
    ) -> Result<Response<RunRatingPeriodResponse>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "RunPeriod", Scope::Global)?;
        self.fresh().await?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "RunPeriod", &r, r.meta.clone())
            .await?;
        let m = parse_month("period", &r.period).map_err(field)?;
        let mut resp = self
            .run_inner(m, actor.clone(), &meta.command_id, &meta.reason, r.dry_run)
            .await?;
        if !r.dry_run {
            resp.rippled = self
                .ripple(m, &actor, &meta.command_id, &meta.reason)
                .await?;
        }
        Ok(Response::new(resp))
    }

    async fn publish_period(
        &self,
        request: Request<PublishRatingPeriodRequest>,
    ) -> Result<Response<RatingPeriodStatus>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "PublishPeriod", Scope::Global)?;
        self.fresh().await?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "PublishPeriod", &r, r.meta.clone())
            .await?;
        let m = parse_month("period", &r.period).map_err(field)?;
        let state = self.ratings.read(|s| {
            s.periods
                .get(&m)
                .map(|p| (p.status, p.version, p.revisions.last().cloned()))
        });
        let Some((status, version, latest)) = state else {
            return Err(not_found("period", format!("no period {}", month_text(m))));
        };
        match (status, latest) {
            (PeriodStatus::Published, _) => {}
            (PeriodStatus::Computed, Some(rev)) => {
                let ctx =
                    self.context_of(actor, &meta.command_id, &meta.reason, &meta.request_digest);
                let a = self
                    .append(
                        period_stream(m),
                        Some(version),
                        vec![event(
                            RATING_PERIOD_PUBLISHED,
                            &RatingPeriodPublished {
                                period: month_text(m),
                                revision: rev.number,
                                list_sha256: rev.sha256.clone(),
                            },
                        )],
                        ctx,
                    )
                    .await
                    .map_err(from_log)?;
                self.caught_up(a.last_position).await?;
            }
            (s, _) => {
                return Err(Status::failed_precondition(format!(
                    "period: {} is {}; run it first (arbiter rating run {})",
                    month_text(m),
                    s.name(),
                    month_text(m)
                )));
            }
        }
        self.status_of(m)
            .map(Response::new)
            .ok_or_else(|| not_found("period", month_text(m)))
    }

    async fn get_period(
        &self,
        request: Request<GetRatingPeriodRequest>,
    ) -> Result<Response<RatingPeriodStatus>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetPeriod", Scope::Global)?;
        let m = parse_month("period", &request.into_inner().period).map_err(field)?;
        self.fresh().await?;
        self.status_of(m)
            .map(Response::new)
            .ok_or_else(|| not_found("period", format!("no period {}", month_text(m))))
    }

    type ExportListStream = ExportStream;

    async fn export_list(
        &self,
        request: Request<ExportRatingListRequest>,
    ) -> Result<Response<Self::ExportListStream>, Status> {
        self.platform
            .auth
            .authorize(&request, "ExportList", Scope::Global)?;
        let r = request.into_inner();
        let m = parse_month("period", &r.period).map_err(field)?;
        let format = export::Format::parse(&r.format).map_err(field)?;
        self.fresh().await?;
        let rev = self.revision(m, r.revision)?;
        let number = rev.number;
        let bytes = tokio::task::spawn_blocking(move || export::export(&rev.players, format))
            .await
            .map_err(|e| Status::internal(e.to_string()))?
            .map_err(|e| Status::failed_precondition(format!("format: {e}")))?;
        let sha = {
            use sha2::Digest;
            hex::encode(sha2::Sha256::digest(&bytes))
        };
        let mut chunks: Vec<Result<RatingListExportChunk, Status>> = bytes
            .chunks(1 << 20)
            .map(|c| {
                Ok(RatingListExportChunk {
                    data: c.to_vec(),
                    revision: number,
                    sha256: String::new(),
                })
            })
            .collect();
        if chunks.is_empty() {
            chunks.push(Ok(RatingListExportChunk {
                data: Vec::new(),
                revision: number,
                sha256: String::new(),
            }));
        }
        if let Some(Ok(last)) = chunks.last_mut() {
            last.sha256 = sha;
        }
        Ok(Response::new(Box::pin(futures::stream::iter(chunks))))
    }

    async fn get_player_report(
        &self,
        request: Request<GetRatingReportRequest>,
    ) -> Result<Response<RatingPlayerReport>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetPlayerReport", Scope::Global)?;
        let r = request.into_inner();
        let m = parse_month("period", &r.period).map_err(field)?;
        self.fresh().await?;
        let rev = self.revision(m, r.revision)?;
        let (base, tournaments) = self
            .ratings
            .read(|s| (s.base_for(m), s.versions(&rev.inputs)));
        let (_, base) = base.map_err(|e| Status::failed_precondition(format!("period: {e}")))?;
        let player = rev
            .players
            .binary_search_by_key(&r.fide_id, |p| p.fide_id)
            .ok()
            .and_then(|i| rev.players.get(i))
            .ok_or_else(|| {
                not_found(
                    "fide_id",
                    format!("{} is not on the {} list", r.fide_id, month_text(m)),
                )
            })?
            .clone();
        let kinds: Vec<elo::RatingKind> = match kind_from_number(r.kind as u32) {
            Some(k) => vec![k],
            None => KINDS.to_vec(),
        };
        let refs: Vec<&ExternalTournamentSubmitted> =
            tournaments.iter().map(|t| t.as_ref()).collect();
        let lists = kinds
            .into_iter()
            .filter_map(|k| {
                compute::player_report(m, &base, &refs, r.fide_id, k, compute::entry(&player, k))
            })
            .collect();
        Ok(Response::new(RatingPlayerReport {
            period: month_text(m),
            fide_id: r.fide_id,
            name: player.name.clone(),
            revision: rev.number,
            lists,
        }))
    }

    async fn get_tournament_report(
        &self,
        request: Request<GetRatingTournamentReportRequest>,
    ) -> Result<Response<RatingTournamentReport>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetTournamentReport", Scope::Global)?;
        let r = request.into_inner();
        intake::check_id(&r.tournament_id).map_err(field)?;
        self.fresh().await?;
        let period = self
            .ratings
            .read(|s| {
                s.tournaments
                    .get(&r.tournament_id)
                    .and_then(|v| v.last())
                    .map(|(_, t)| t.period.clone())
            })
            .ok_or_else(|| {
                not_found(
                    "tournament_id",
                    format!("no tournament {:?}", r.tournament_id),
                )
            })?;
        let m = parse_month("period", &period).map_err(field)?;
        let rev = self.revision(m, r.revision)?;
        let Some(input) = rev
            .inputs
            .iter()
            .find(|i| i.tournament_id == r.tournament_id)
            .cloned()
        else {
            return Err(not_found(
                "tournament_id",
                format!(
                    "{} is not in revision {} of period {period}; run the period (arbiter rating run {period})",
                    r.tournament_id, rev.number
                ),
            ));
        };
        let (base, tournaments) = self
            .ratings
            .read(|s| (s.base_for(m), s.versions(&rev.inputs)));
        let (_, base) = base.map_err(|e| Status::failed_precondition(format!("period: {e}")))?;
        let refs: Vec<&ExternalTournamentSubmitted> =
            tournaments.iter().map(|t| t.as_ref()).collect();
        let t = refs
            .iter()
            .find(|t| t.tournament_id == r.tournament_id)
            .ok_or_else(|| Status::internal("tournament version missing"))?;
        let (name, kind) = (t.name.clone(), t.kind as i32);
        let players = rev.players.clone();
        let rows = compute::tournament_report(m, &base, &refs, &r.tournament_id, &players);
        Ok(Response::new(RatingTournamentReport {
            tournament_id: r.tournament_id,
            name,
            period,
            revision: rev.number,
            kind,
            tournament_version: input.version,
            rows,
        }))
    }

    async fn get_service_info(
        &self,
        request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetServiceInfo", Scope::Global)?;
        Ok(Response::new(ServiceInfo {
            service: SERVICE.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            rule_editions: EDITIONS.iter().map(|s| (*s).to_owned()).collect(),
            projected_position: self.ratings.position(),
            ..arbiter_service_kit::host::integrity_info(&self.platform)
        }))
    }
}

impl Rating {
    /// RunPeriod: compute, compare with the current revision, write revision 1
    /// (before publication) or N+1 with the diff (after). Also used when a correction
    /// reaches a published period.
    async fn run_inner(
        &self,
        m: ListMonth,
        actor: String,
        command_id: &str,
        reason: &str,
        dry_run: bool,
    ) -> Result<RunRatingPeriodResponse, Status> {
        if !dry_run
            && let Some((stream, a)) = self
                .platform
                .store
                .find_command(command_id)
                .await
                .map_err(from_log)?
        {
            self.caught_up(a.last_position).await?;
            let status = self.status_of(m);
            return Ok(RunRatingPeriodResponse {
                ack: Some(ack(stream, a)),
                list_sha256: status
                    .as_ref()
                    .map(|s| s.list_sha256.clone())
                    .unwrap_or_default(),
                status,
                unchanged: true,
                ..Default::default()
            });
        }
        if !dry_run {
            let open = self
                .ratings
                .read(|s| s.periods.get(&m).map(|p| p.status))
                .is_none_or(|s| s == PeriodStatus::Open);
            if open && closing_date(m) >= (self.today)() {
                return Err(Status::failed_precondition(format!(
                    "period: {} is open until its closing date {} (rehearse it now, writing and publishing nothing: `arbiter rating run {} --rehearse`)",
                    month_text(m),
                    date_text(closing_date(m)),
                    month_text(m)
                )));
            }
            self.open_and_close_if_due(m, &actor, &format!("{command_id}-close"), true)
                .await?;
        }
        // gather the inputs
        let (base, tournaments, latest, status, version) = self.ratings.read(|s| {
            let base = s.base_for(m);
            let ts = s.tournaments_of(m);
            let p = s.periods.get(&m);
            (
                base,
                ts,
                p.and_then(|p| p.revisions.last().cloned()),
                p.map(|p| p.status),
                p.map_or(0, |p| p.version),
            )
        });
        let (base_name, base) =
            base.map_err(|e| Status::failed_precondition(format!("period: {e}")))?;
        let inputs: Vec<RatingInput> = {
            let mut v: Vec<RatingInput> = tournaments
                .iter()
                .map(|(ver, t)| RatingInput {
                    tournament_id: t.tournament_id.clone(),
                    version: *ver,
                })
                .collect();
            v.sort_by(|a, b| a.tournament_id.cmp(&b.tournament_id));
            v
        };
        let base_for_diff = base.clone();
        let computed = tokio::task::spawn_blocking(move || {
            let refs: Vec<&ExternalTournamentSubmitted> =
                tournaments.iter().map(|(_, t)| t.as_ref()).collect();
            compute::compute(m, &base, &refs)
        })
        .await
        .map_err(|e| Status::internal(e.to_string()))?
        .map_err(|e| Status::failed_precondition(format!("period: {e}")))?;
        let diff = match &latest {
            Some(rev) => compute::diff(&rev.players, &computed.players),
            None => compute::diff(
                &base_for_diff.into_values().collect::<Vec<_>>(),
                &computed.players,
            ),
        };
        let mut resp = RunRatingPeriodResponse {
            list_sha256: computed.sha256.clone(),
            players: computed.players.len() as u32,
            games: computed.games,
            tournaments: inputs.len() as u32,
            ..Default::default()
        };
        if latest.as_ref().is_some_and(|l| l.sha256 == computed.sha256) {
            resp.unchanged = true;
            resp.status = self.status_of(m);
            return Ok(resp);
        }
        resp.diff = diff.clone();
        if dry_run {
            resp.status = self.status_of(m);
            return Ok(resp);
        }
        let published = status == Some(PeriodStatus::Published);
        let revision = if published {
            latest.as_ref().map_or(1, |l| l.number + 1)
        } else {
            1
        };
        let chunks: Vec<&[arbiter_proto::v1::RatingListPlayer]> = if computed.players.is_empty() {
            vec![&[]]
        } else {
            computed.players.chunks(CHUNK_PLAYERS).collect()
        };
        let n = chunks.len();
        let events: Vec<NewEvent> = chunks
            .into_iter()
            .enumerate()
            .map(|(i, players)| {
                let last = i + 1 == n;
                if published {
                    event(
                        RATING_LIST_REVISED,
                        &RatingListRevised {
                            period: month_text(m),
                            revision,
                            chunk: i as u32,
                            last,
                            inputs: if i == 0 { inputs.clone() } else { Vec::new() },
                            players: players.to_vec(),
                            list_sha256: if last {
                                computed.sha256.clone()
                            } else {
                                String::new()
                            },
                            diff: if i == 0 { diff.clone() } else { Vec::new() },
                            games: computed.games,
                        },
                    )
                } else {
                    event(
                        RATING_PERIOD_COMPUTED,
                        &RatingPeriodComputed {
                            period: month_text(m),
                            revision,
                            chunk: i as u32,
                            last,
                            base_list: base_name.clone(),
                            inputs: if i == 0 { inputs.clone() } else { Vec::new() },
                            players: players.to_vec(),
                            list_sha256: if last {
                                computed.sha256.clone()
                            } else {
                                String::new()
                            },
                            games: computed.games,
                        },
                    )
                }
            })
            .collect();
        let stream = period_stream(m);
        let ctx = self.context(actor, command_id, reason);
        let a = self
            .append(stream.clone(), Some(version), events, ctx)
            .await
            .map_err(from_log)?;
        self.caught_up(a.last_position).await?;
        tracing::info!(period = %month_text(m), revision, "rating period computed");
        resp.ack = Some(ack(stream, a));
        resp.status = self.status_of(m);
        Ok(resp)
    }

    /// ADR elo-010: the list of `from` changed (or may have): every later period computed
    /// from it is re-run in turn, from the latest list of the period before it: a computed
    /// period gets a new revision 1, a published one revision N+1 with its own diff. Stops
    /// at the first period that is not computed yet or whose list comes out unchanged.
    /// Command ids are derived from `command_id`, so a retried command finishes the chain
    /// without writing twice.
    async fn ripple(
        &self,
        from: ListMonth,
        actor: &str,
        command_id: &str,
        reason: &str,
    ) -> Result<Vec<RatingRipple>, Status> {
        let mut out = Vec::new();
        let mut m = from;
        // at most ten years ahead: a chain cannot outrun the periods that exist
        for _ in 0..120 {
            let next = m.next();
            let due = self.ratings.read(|s| {
                s.periods
                    .get(&m)
                    .is_some_and(|p| p.status == PeriodStatus::Published)
                    && s.periods
                        .get(&next)
                        .is_some_and(|p| !p.revisions.is_empty())
            });
            if !due {
                break;
            }
            let why = if reason.trim().is_empty() {
                format!("starting list changed: period {} revised", month_text(m))
            } else {
                format!(
                    "starting list changed: period {} revised ({})",
                    month_text(m),
                    reason.trim()
                )
            };
            let run = self
                .run_inner(
                    next,
                    actor.to_owned(),
                    &format!("{command_id}-ripple-{}", month_text(next)),
                    &why,
                    false,
                )
                .await?;
            let replayed = run.ack.as_ref().is_some_and(|a| a.replayed);
            let status = run.status.clone().unwrap_or_default();
            let unchanged = run.unchanged && !replayed;
            if !unchanged {
                tracing::info!(period = %month_text(next), revision = status.revision, "rating period re-run: its starting list changed");
            }
            out.push(RatingRipple {
                period: month_text(next),
                revision: status.revision,
                status: status.status,
                unchanged,
                diff: run.diff,
            });
            if unchanged {
                break;
            }
            m = next;
        }
        Ok(out)
    }

    fn revision(&self, m: ListMonth, number: u32) -> Result<projection::Revision, Status> {
        self.ratings
            .read(|s| {
                let p = s.periods.get(&m)?;
                if number == 0 {
                    p.revisions.last().cloned()
                } else {
                    p.revisions.iter().find(|r| r.number == number).cloned()
                }
            })
            .ok_or_else(|| {
                if number == 0 {
                    not_found(
                        "period",
                        format!("{} has no computed list; run it first", month_text(m)),
                    )
                } else {
                    not_found(
                        "revision",
                        format!("{} has no revision {number}", month_text(m)),
                    )
                }
            })
    }
}

impl Rating {
    /// A tournament run here is submitted by itself when its last round closes, and
    /// again (a revision, with the correction's reason) when a result of it is corrected
    /// afterwards: the results service's events are consumed as they are logged. The
    /// list comes from the tournament's time control (B.02 §1); a tournament without a
    /// readable, ratable time control is left to `SubmitTournament`. Idempotent across
    /// restarts: each submission's command id is the triggering event's id.
    async fn submit_finished_tournaments(self) {
        use arbiter_proto::v1::{ResultCorrected, RoundClosed};
        let (mut cursor, from) =
            arbiter_service_kit::cursor::Cursor::open(&self.platform.store, "rating-intake").await;
        let mut sub = self.platform.store.subscribe(from);
        let mut last = from - 1;
        loop {
            // Everything before the event read next has been handled.
            cursor.handled(last).await;
            let e = match sub.next().await {
                Ok(e) => e,
                Err(err) => {
                    tracing::warn!(%err, "rating: results intake: log read failed; retrying");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            last = e.global_position;
            if !e.stream.starts_with("results-") {
                continue;
            }
            let (tid, reason) = match e.event_type.as_str() {
                "RoundClosed" => match RoundClosed::decode(e.payload.as_slice()) {
                    Ok(c) => (c.tournament_id, String::new()),
                    Err(_) => continue,
                },
                "ResultCorrected" => match ResultCorrected::decode(e.payload.as_slice()) {
                    Ok(c) => (
                        c.tournament_id,
                        format!(
                            "round {} board {}: {} corrected to {} ({})",
                            c.round, c.board, c.previous_result, c.result, e.reason
                        ),
                    ),
                    Err(_) => continue,
                },
                _ => continue,
            };
            if !self.tournaments.caught_up(e.global_position).await {
                continue;
            }
            let Some((t, roster)) = self.tournaments.with_roster(&tid) else {
                continue;
            };
            if t.rounds == 0 || !roster.record.closed.contains(&t.rounds) {
                continue;
            }
            // Already submitted for this event (a restart replays the log): nothing to
            // export or decide again.
            let command_id = format!("rating-intake:{}", e.event_id);
            if let Ok(Some(_)) = self.platform.store.find_command(&command_id).await {
                continue;
            }
            // The same decision the close of the last round announces (results service).
            let kind = match intake::automatic_submission(
                &t.tournament_id,
                &t.time_control,
                &t.end_date,
            ) {
                Ok((kind, _)) => kind,
                Err(why) => {
                    tracing::info!(tournament = %tid, time_control = %t.time_control, "rating: {why}");
                    continue;
                }
            };
            let Ok((trf, _)) = arbiter_registry::trf_export::export(
                &t,
                &roster.for_rating(),
                &arbiter_registry::trf_export::ExportOptions::default(),
            ) else {
                continue;
            };
            let req = SubmitExternalTournamentRequest {
                meta: Some(arbiter_proto::v1::CommandMeta {
                    command_id,
                    expected_version: None,
                    reason,
                    request_digest: Vec::new(),
                }),
                trf: trf.into_bytes(),
                kind: crate::calendar::kind_number(kind) as i32,
                tournament_id: t.tournament_id.clone(),
                end_date: t.end_date.clone(),
                official_fide_event: false,
                ..Default::default()
            };
            if let Err(s) = self.submit_as("rating-intake".into(), req).await {
                tracing::info!(tournament = %tid, status = %s, "rating: tournament not submitted by itself");
            }
        }
    }

    async fn submit_as(
        &self,
        actor: String,
        r: SubmitExternalTournamentRequest,
    ) -> Result<Response<SubmitExternalTournamentResponse>, Status> {
        self.fresh().await?;
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(
                &self.platform.store,
                "SubmitExternalTournament",
                &r,
                r.meta.clone(),
            )
            .await?;
        let decided = intake::decide_submission(&intake::Submission {
            trf: &r.trf,
            kind: kind_from_number(r.kind as u32),
            tournament_id: &r.tournament_id,
            end_date: &r.end_date,
            official_fide_event: r.official_fide_event,
            match_event: r.match_event,
            match_games: r.match_games,
        })
        .map_err(field)?;
        let t = decided.event;
        let skipped: Vec<arbiter_proto::v1::SkippedGame> = decided
            .skipped
            .into_iter()
            .map(|g| arbiter_proto::v1::SkippedGame {
                round: g.round,
                white: g.white,
                black: g.black,
                result: g.result,
                reason: g.reason,
            })
            .collect();
        let stream = tournament_stream(&t.tournament_id);
        let replay = self
            .platform
            .store
            .find_command(&meta.command_id)
            .await
            .map_err(from_log)?;
        let mut moved_from: Option<String> = None;
        let a = match replay {
            Some((_, a)) => a,
            None => {
                let (current, old_period) = self.ratings.read(|s| {
                    s.tournaments
                        .get(&t.tournament_id)
                        .and_then(|v| v.last())
                        .map_or((0, None), |(v, t)| (*v, Some(t.period.clone())))
                });
                moved_from = old_period.filter(|p| *p != t.period);
                if current > 0 && meta.reason.trim().is_empty() {
                    return Err(invalid(
                        "meta.reason",
                        format!(
                            "tournament {} was submitted before: a correction needs a reason",
                            t.tournament_id
                        ),
                    ));
                }
                let expected = meta.expected_version.unwrap_or(current);
                let ctx = self.context_of(
                    actor.clone(),
                    &meta.command_id,
                    &meta.reason,
                    &meta.request_digest,
                );
                self.append(
                    stream.clone(),
                    Some(expected),
                    vec![event(EXTERNAL_TOURNAMENT_SUBMITTED, &t)],
                    ctx,
                )
                .await
                .map_err(from_log)?
            }
        };
        self.caught_up(a.last_position).await?;
        let period = parse_month("period", &t.period).map_err(field)?;
        self.open_and_close_if_due(
            period,
            &actor,
            &format!("{}-open-period", meta.command_id),
            false,
        )
        .await?;
        self.wake.notify_one();
        // a published period is revised at once (and the one a correction left)
        let mut notes = decided.notes;
        let (mut revision, mut diff) = (0, Vec::new());
        let mut rippled = Vec::new();
        let mut touched = vec![period];
        if let Some(p) = moved_from
            .as_deref()
            .and_then(|p| parse_month("period", p).ok())
        {
            touched.push(p);
        }
        for p in touched {
            if self.status_of(p).is_some_and(|s| s.status == "published") {
                let run = self
                    .run_inner(
                        p,
                        actor.clone(),
                        &format!("{}-revise-{}", meta.command_id, month_text(p)),
                        &meta.reason,
                        false,
                    )
                    .await?;
                let rev = run.status.as_ref().map_or(0, |s| s.revision);
                if run.unchanged {
                    notes.push(format!(
                        "period {} stays at revision {rev}: no list entry changes",
                        month_text(p)
                    ));
                } else {
                    notes.push(format!(
                        "period {} revised: revision {rev}, {} rating change(s)",
                        month_text(p),
                        run.diff.len()
                    ));
                }
                if p == period {
                    revision = rev;
                }
                diff.extend(run.diff);
                for r in self
                    .ripple(p, &actor, &meta.command_id, &meta.reason)
                    .await?
                {
                    notes.push(if r.unchanged {
                        format!(
                            "period {} re-run from the revised {} list: unchanged (revision {})",
                            r.period,
                            month_text(p),
                            r.revision
                        )
                    } else {
                        format!(
                            "period {} re-run from the revised previous list: {} revision {}, {} rating change(s)",
                            r.period,
                            r.status,
                            r.revision,
                            r.diff.len()
                        )
                    });
                    rippled.push(r);
                }
            }
        }
        let status = self.status_of(period).map(|s| s.status).unwrap_or_default();
        Ok(Response::new(SubmitExternalTournamentResponse {
            ack: Some(ack(stream, a)),
            tournament_id: t.tournament_id.clone(),
            period: t.period.clone(),
            rated_games: t.games.len() as u32,
            skipped_games: t.skipped_games,
            version: a.stream_version as u32,
            period_status: status,
            notes,
            revision,
            diff,
            rippled,
            skipped,
        }))
    }
}
