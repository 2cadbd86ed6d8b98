//! # The results service (results, corrections, standings, audit)
//!
//! gRPC handler → auth → command meta → pure decision ([`result_entry`]) → event
//! appended to the board's own stream (`results-<tournament>-r<round>-b<board>`, so two
//! arbiters correcting one board conflict on its version) → the tournament projection
//! (`arbiter_registry::projection::Tournaments`, which folds registry, pairing and results
//! events) → queries: standings ([`standings_projection`], also as of any earlier log
//! position), correction impact ([`correction_impact`]), history and audit export
//! ([`audit`]), the hash chain's verification. Service name in events: `results`.
pub mod audit;
pub mod board_prizes;
pub mod correction_impact;
pub mod record_crosstable;
pub mod result_entry;
pub mod result_sheet;
pub mod standings_cache;
pub mod standings_projection;
pub mod team_standings;

use arbiter_eventlog::EventStore;
use arbiter_proto::v1::results_service_server::{ResultsService, ResultsServiceServer};
use arbiter_proto::v1::{
    BoardResult, CloseRoundRequest, CorrectResultRequest, CorrectResultResponse, CorrectionImpact,
    ExportAuditRequest, ExportAuditResponse, GetCorrectionImpactRequest, GetHistoryRequest,
    GetRoundResultsRequest, GetServiceInfoRequest, GetStandingsRequest, History, RecordByeRequest,
    RecordResultRequest, ResultAck, ResultCorrected, RoundResults, ServiceInfo, Standings,
    Tournament, VerifyLogRequest, VerifyLogResponse,
};
use arbiter_registry::projection::Tournaments;
use arbiter_registry::record_commands::{self, load_latest, load_latest_revision};
use arbiter_registry::roster::{Roster, RosterEvent, types};
use arbiter_registry::tournament::FieldError;
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::status::{from_log, invalid, not_found};
use arbiter_service_kit::{Platform, ServiceModule};
use prost::Message;
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "results";

/// The results gRPC service.
#[derive(Clone)]
pub struct Results {
    platform: Platform,
    tournaments: Tournaments,
    /// The last standings computed, by the record's revision.
    standings: standings_cache::StandingsCache,
}

impl Results {
    /// The service on this platform (its tournament projection is rebuilt from the log).
    pub fn start(platform: &Platform) -> Results {
        Self::start_sharing(platform, Tournaments::start(platform.store.clone()))
    }

    /// The service reading a tournament projection the process already keeps
    /// (`arbiterd`: one projection for every service).
    pub fn start_sharing(platform: &Platform, tournaments: Tournaments) -> Results {
        platform.mirror(
            SERVICE,
            &[
                "arbiter.v1.registry.>",
                "arbiter.v1.pairing.>",
                "arbiter.v1.clock.ResultReported",
                "arbiter.v1.clock.AdjournmentReported",
            ],
        );
        let r = Results {
            tournaments,
            platform: platform.clone(),
            standings: standings_cache::StandingsCache::default(),
        };
        tokio::spawn(r.clone().apply_clock_results());
        r
    }

    /// Results reported by a board opened with `auto_apply_results` (clock-telemetry
    /// `ResultReported` with `auto_apply`) are recorded without confirmation, as
    /// `source = "clock"`, once the round is published and the board has no result.
    /// Idempotent across restarts: the command id is the report's event id.
    async fn apply_clock_results(self) {
        let (mut cursor, from) = arbiter_service_kit::cursor::Cursor::open(
            &self.platform.store,
            "results-clock-reports",
        )
        .await;
        let mut sub = self.platform.store.subscribe(from);
        let mut last = from - 1;
        loop {
            // Everything before the event read next has been handled.
            cursor.handled(last).await;
            let e = match sub.next().await {
                Ok(e) => e,
                Err(err) => {
                    tracing::warn!(%err, "results: clock reports: log read failed; retrying");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    continue;
                }
            };
            last = e.global_position;
            if e.event_type != types::RESULT_REPORTED || !e.stream.starts_with("board-") {
                continue;
            }
            let Ok(rep) = arbiter_proto::v1::ResultReported::decode(e.payload.as_slice()) else {
                continue;
            };
            if !rep.auto_apply || !self.tournaments.caught_up(e.global_position).await {
                continue;
            }
            let Ok((t, roster)) = record_commands::load(&self.tournaments, &rep.tournament_id)
            else {
                continue;
            };
            let Ok(ev) =
                result_entry::decide_confirm_reported(&t, &roster, rep.round, rep.board, "")
            else {
                continue;
            };
            let meta = arbiter_proto::v1::CommandMeta {
                command_id: format!("clock-result:{}", e.event_id),
                expected_version: Some(0),
                reason: format!("reported by the clock ({})", rep.termination),
                request_digest: Vec::new(),
            };
            let stream = result_entry::board_stream(&t.tournament_id, rep.round, rep.board);
            if let Err(s) = self
                .write(
                    "clock-telemetry".into(),
                    &meta,
                    &t,
                    stream,
                    0,
                    RosterEvent::ResultRecorded(ev),
                )
                .await
            {
                tracing::info!(status = %s, "results: clock report not applied");
            }
        }
    }
}

impl ServiceModule for Results {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.ResultsService"
    }
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let t = self.tournaments.clone();
        Some(std::sync::Arc::new(move || t.position()))
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(
            ResultsServiceServer::new(*self)
                .max_encoding_message_size(256 << 20)
                .max_decoding_message_size(arbiter_service_kit::limits::service_max_message_bytes(
                    "results",
                )),
        );
    }
}

/// The tie-break list and the edition of a standings request, within their limits
/// (cheap: the message limit bounds the text).
fn check_list_fields(list: &str, edition: &str) -> Result<(), Status> {
    arbiter_service_kit::limits::check_tiebreak_list(list).map_err(|m| invalid("tiebreaks", m))?;
    arbiter_service_kit::limits::check_text(edition, 50).map_err(|m| invalid("edition", m))
}

fn field(e: FieldError) -> Status {
    if e.message.contains("changed meanwhile") || e.message.contains("already has the result") {
        Status::failed_precondition(format!("{}: {}", e.field, e.message))
    } else {
        invalid(e.field, e.message)
    }
}

/// A concurrency conflict on a board's stream names the board.
fn board_conflict(round: u32, board: u32, s: Status) -> Status {
    if s.code() == tonic::Code::Aborted {
        Status::aborted(format!(
            "board {round}.{board}: changed by another command at the same time; read it again ({})",
            s.message()
        ))
    } else {
        s
    }
}

async fn store_as_of(
    tournaments: &Tournaments,
    store: &EventStore,
    id: &str,
    position: i64,
) -> Result<(Tournament, Roster), Status> {
    tournaments
        .as_of(store, id, position)
        .await?
        .ok_or_else(|| {
            not_found(
                "as_of_position",
                format!("tournament {id} did not exist at position {position}"),
            )
        })
}

impl Results {
    #[allow(clippy::too_many_arguments)]
    async fn write(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        t: &Tournament,
        stream: String,
        expected: i64,
        event: RosterEvent,
    ) -> Result<arbiter_proto::v1::CommandAck, Status> {
        record_commands::append(
            &self.platform,
            &self.tournaments,
            SERVICE,
            actor,
            meta,
            &t.rule_edition,
            stream,
            Some(meta.expected_version.unwrap_or(expected)),
            &[event],
        )
        .await
    }

    /// `RecordResult` with `results` (or `dry_run`): a round's result sheet, every board
    /// decided before anything is written (`result_sheet`), then one batch append; each
    /// board's command id is the command's with `/b<board>` (ADR registry-005).
    async fn record_sheet(
        &self,
        actor: String,
        r: arbiter_proto::v1::RecordResultRequest,
    ) -> Result<ResultAck, Status> {
        if r.confirm_reported {
            return Err(invalid(
                "confirm_reported",
                "a result sheet records results; confirm reported results board by board",
            ));
        }
        if r.results.len() > 5_000 {
            return Err(invalid(
                "results",
                format!("{} results in one command, at most 5000", r.results.len()),
            ));
        }
        let sheet: Vec<(u32, String)> = r
            .results
            .iter()
            .map(|b| (b.board, b.result.clone()))
            .collect();
        let decide = |t: &Tournament, roster: &_| {
            result_sheet::decide_sheet(t, roster, r.round, &sheet)
                .map_err(|(i, e)| invalid(&format!("results[{i}].{}", e.field), e.message))
        };
        let boards_of = |events: &[arbiter_proto::v1::ResultRecorded],
                         acks: Vec<Option<arbiter_proto::v1::CommandAck>>| {
            events
                .iter()
                .zip(acks)
                .map(|(e, ack)| arbiter_proto::v1::RecordedBoard {
                    board: e.board,
                    result: e.result.clone(),
                    ack,
                })
                .collect::<Vec<_>>()
        };
        if r.dry_run {
            let (t, roster) =
                load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
            let events = decide(&t, &roster)?;
            let none = vec![None; events.len()];
            return Ok(ResultAck {
                ack: None,
                boards: boards_of(&events, none),
                ..Default::default()
            });
        }
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "RecordResult", &r, r.meta.clone())
            .await?;
        let board_id = |board: u32| format!("{}/b{board}", meta.command_id);
        // A retry: every board's append is found by its command id.
        if let Some((first, _)) = sheet.first()
            && self
                .platform
                .store
                .find_command(&board_id(*first))
                .await
                .map_err(from_log)?
                .is_some()
        {
            let mut boards = Vec::new();
            for (board, _) in &sheet {
                let mut m = meta.clone();
                m.command_id = board_id(*board);
                let ack = self.replayed(&m, &[types::RESULT_RECORDED]).await?;
                let (_, roster) =
                    load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
                boards.push(arbiter_proto::v1::RecordedBoard {
                    board: *board,
                    result: roster
                        .record
                        .boards
                        .get(&(r.round, *board))
                        .map(|b| b.result.clone())
                        .unwrap_or_default(),
                    ack,
                });
            }
            return Ok(ResultAck {
                ack: boards.first().and_then(|b| b.ack.clone()),
                boards,
                ..Default::default()
            });
        }
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let events = decide(&t, &roster)?;
        let items = events
            .iter()
            .map(|e| {
                (
                    result_entry::board_stream(&t.tournament_id, r.round, e.board),
                    Some(0),
                    vec![RosterEvent::ResultRecorded(e.clone())],
                    board_id(e.board),
                )
            })
            .collect();
        let outcomes = arbiter_registry::record_commands::append_many(
            &self.platform,
            &self.tournaments,
            SERVICE,
            actor,
            &meta,
            &t.rule_edition,
            items,
        )
        .await?;
        let mut acks = Vec::with_capacity(outcomes.len());
        let mut raced = Vec::new();
        for (o, e) in outcomes.into_iter().zip(&events) {
            match o {
                Ok(a) => acks.push(Some(a)),
                // Not written because another board was refused (all or nothing).
                Err(s) if s.message().starts_with("not written") => acks.push(None),
                Err(_) => {
                    raced.push(e.board.to_string());
                    acks.push(None);
                }
            }
        }
        if !raced.is_empty() || acks.iter().any(Option::is_none) {
            return Err(Status::failed_precondition(format!(
                "results: board(s) {} of round {} were recorded by another command at the same time; nothing of the sheet was recorded: see `arbiter result show`, then send the sheet again without them",
                raced.join(", "),
                r.round
            )));
        }
        Ok(ResultAck {
            ack: acks.first().cloned().flatten(),
            boards: boards_of(&events, acks),
            ..Default::default()
        })
    }

    async fn replayed(
        &self,
        meta: &arbiter_proto::v1::CommandMeta,
        types: &[&str],
    ) -> Result<Option<arbiter_proto::v1::CommandAck>, Status> {
        let a = record_commands::replayed(&self.platform, meta, types).await?;
        if let Some(a) = &a {
            self.tournaments.caught_up(a.last_position).await;
        }
        Ok(a)
    }

    fn tiebreaks(
        &self,
        list: &str,
        edition: &str,
        roster: &Roster,
    ) -> Result<(Vec<tiebreak::TieBreak>, tiebreak::Edition), Status> {
        check_list_fields(list, edition)?;
        let e = standings_projection::edition(edition).map_err(field)?;
        let l = standings_projection::tiebreak_list(list, e, roster).map_err(field)?;
        Ok((l, e))
    }

    /// The cache key of the table after `round` (0: every complete round) of the record at
    /// `revision`.
    fn table_key(
        &self,
        t: &Tournament,
        roster: &Roster,
        revision: u64,
        round: u32,
        list: &[tiebreak::TieBreak],
        edition: tiebreak::Edition,
    ) -> standings_cache::Key {
        standings_cache::Key {
            tournament_id: t.tournament_id.clone(),
            revision,
            round: if round == 0 {
                standings_projection::complete_rounds(roster)
            } else {
                round
            },
            list: list.to_vec(),
            edition,
        }
    }

    /// The records just before and with the correction `e` (appended at `position`),
    /// and the projection revisions they are (when both are recent folds).
    async fn records_around_correction(
        &self,
        t: &Tournament,
        before: Roster,
        revision: u64,
        e: &ResultCorrected,
        position: i64,
    ) -> Result<(Roster, Roster, Option<(u64, u64)>), Status> {
        // The impact is the log's: the record just before this correction's position and
        // the record with it, as `GetCorrectionImpact` of the position reads them later.
        // Another board's result may have been folded between this command's read and its
        // append; those events are folded onto `before` (or, past the recent folds, both
        // records are read from the log).
        let made = self
            .tournaments
            .revision_made_by(&t.tournament_id, position);
        // The record just before the correction, when the projection's recent folds
        // give it, with the revisions of both records.
        let folded = match made {
            Some(m) if m == revision + 1 => Some((before, (revision, m))),
            Some(m) if m > revision + 1 => self
                .tournaments
                .advance(
                    &self.platform.store,
                    &t.tournament_id,
                    (t.clone(), before),
                    revision,
                    m - 1,
                )
                .await?
                .map(|(_, b)| (b, (m - 1, m))),
            _ => None,
        };
        Ok(match folded {
            Some((before, revisions)) => {
                let mut after = before.clone();
                after.apply(RosterEvent::ResultCorrected(e.clone()));
                (before, after, Some(revisions))
            }
            None => {
                let (b, a) = self.around(&t.tournament_id, position).await?;
                (b, a, None)
            }
        })
    }

    /// The records of tournament `id` just before `position` and with it, from the log.
    async fn around(&self, id: &str, position: i64) -> Result<(Roster, Roster), Status> {
        let (_, before) =
            store_as_of(&self.tournaments, &self.platform.store, id, position - 1).await?;
        let (_, after) = store_as_of(&self.tournaments, &self.platform.store, id, position).await?;
        Ok((before, after))
    }

    /// Impact of the correction recorded at `position`.
    async fn recorded_impact(
        &self,
        id: &str,
        position: i64,
        list: &str,
        edition: &str,
    ) -> Result<CorrectionImpact, Status> {
        let e = self
            .platform
            .store
            .read_at(position)
            .await
            .map_err(from_log)?
            .filter(|e| e.event_type == types::RESULT_CORRECTED)
            .ok_or_else(|| {
                not_found(
                    "correction_position",
                    format!("no ResultCorrected at position {position}"),
                )
            })?;
        let c = ResultCorrected::decode(e.payload.as_slice())
            .map_err(|e| Status::internal(e.to_string()))?;
        if c.tournament_id != id {
            return Err(invalid(
                "correction_position",
                format!("position {position} is a correction of another tournament"),
            ));
        }
        let (t, before) =
            store_as_of(&self.tournaments, &self.platform.store, id, position - 1).await?;
        let (_, after) = store_as_of(&self.tournaments, &self.platform.store, id, position).await?;
        let (l, ed) = self.tiebreaks(list, edition, &before)?;
        correction_impact::impact(&t, &before, &after, &correction_of(&c), &l, ed).map_err(field)
    }
}

fn correction_of(c: &ResultCorrected) -> correction_impact::Correction<'_> {
    correction_impact::Correction {
        round: c.round,
        players: (&c.white_id, &c.black_id),
        before: &c.previous_result,
        after: &c.result,
        applies_to: &c.applies_to,
        published: c.published_rounds_with_old_result.clone(),
        unpublished: c.unpublished_rounds_to_repair.clone(),
    }
}

#[tonic::async_trait]
impl ResultsService for Results {
    async fn get_service_info(
        &self,
        request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetServiceInfo", Scope::Global)?;
        service_info(&self.platform, SERVICE, &["c07-2026", "c07-2024", "seed"])
            .await
            .map(Response::new)
    }

    async fn record_result(
        &self,
        request: Request<RecordResultRequest>,
    ) -> Result<Response<ResultAck>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "RecordResult",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        if !r.results.is_empty() || r.dry_run {
            return self.record_sheet(actor, r).await.map(Response::new);
        }
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "RecordResult", &r, r.meta.clone())
            .await?;
        if let Some(ack) = self.replayed(&meta, &[types::RESULT_RECORDED]).await? {
            return Ok(Response::new(ResultAck {
                ack: Some(ack),
                ..Default::default()
            }));
        }
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let e = if r.confirm_reported {
            result_entry::decide_confirm_reported(&t, &roster, r.round, r.board, &r.result)
        } else {
            result_entry::decide_record(&t, &roster, r.round, r.board, &r.result)
        }
        .map_err(field)?;
        // Let go of the record before the append: the projection folding this result then
        // changes its own copy in place instead of copying what this command still held.
        drop(roster);
        let stream = result_entry::board_stream(&t.tournament_id, r.round, r.board);
        let ack = self
            .write(actor, &meta, &t, stream, 0, RosterEvent::ResultRecorded(e))
            .await
            .map_err(|s| match s.code() {
                tonic::Code::Aborted => Status::failed_precondition(format!(
                    "board {}.{}: a result was recorded by another command at the same time; a change is a correction",
                    r.round, r.board
                )),
                _ => s,
            })?;
        Ok(Response::new(ResultAck {
            ack: Some(ack),
            ..Default::default()
        }))
    }

    async fn correct_result(
        &self,
        request: Request<CorrectResultRequest>,
    ) -> Result<Response<CorrectResultResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "CorrectResult",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "CorrectResult", &r, r.meta.clone())
            .await?;
        if let Some(ack) = self.replayed(&meta, &[types::RESULT_CORRECTED]).await? {
            let impact = self
                .recorded_impact(&r.tournament_id, ack.first_position, "", "")
                .await
                .ok();
            return Ok(Response::new(CorrectResultResponse {
                applies_to: impact
                    .as_ref()
                    .map(|i| i.applies_to.clone())
                    .unwrap_or_default(),
                ack: Some(ack),
                impact,
            }));
        }
        let (t, before, revision) =
            load_latest_revision(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let e = result_entry::decide_correct(
            &t,
            &before,
            &result_entry::CorrectionRequest {
                round: r.round,
                board: r.board,
                result: &r.result,
                previous: &r.previous_result,
                reason: &meta.reason,
                has_expected_version: meta.expected_version.is_some(),
                basis: &r.basis,
            },
        )
        .map_err(field)?;
        let version = before
            .record
            .boards
            .get(&(r.round, r.board))
            .map_or(0, |b| b.version);
        let stream = result_entry::board_stream(&t.tournament_id, r.round, r.board);
        let ack = self
            .write(
                actor,
                &meta,
                &t,
                stream,
                version,
                RosterEvent::ResultCorrected(e.clone()),
            )
            .await
            .map_err(|s| board_conflict(r.round, r.board, s))?;
        let (before, after, revisions) = self
            .records_around_correction(&t, before, revision, &e, ack.first_position)
            .await?;
        let (l, ed) = self.tiebreaks("", "", &before)?;
        let impact = correction_impact::impact_with(
            &before,
            &after,
            &correction_of(&e),
            |side, roster, round| {
                let compute = || standings_projection::compute(&t, roster, round, &l, ed, false);
                let revision = revisions.map(|(b, a)| match side {
                    correction_impact::Side::Before => b,
                    correction_impact::Side::After => a,
                });
                match revision {
                    Some(rev) => self
                        .standings
                        .get_or_compute(self.table_key(&t, roster, rev, round, &l, ed), compute),
                    None => compute().map(std::sync::Arc::new),
                }
            },
        )
        .map_err(field)?;
        Ok(Response::new(CorrectResultResponse {
            ack: Some(ack),
            applies_to: e.applies_to,
            impact: Some(impact),
        }))
    }

    async fn record_bye(
        &self,
        request: Request<RecordByeRequest>,
    ) -> Result<Response<ResultAck>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "RecordBye",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "RecordBye", &r, r.meta.clone())
            .await?;
        if let Some(ack) = self.replayed(&meta, &[types::BYE_RECORDED]).await? {
            return Ok(Response::new(ResultAck {
                ack: Some(ack),
                ..Default::default()
            }));
        }
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let (e, tpn) =
            result_entry::decide_bye(&t, &roster, r.round, &r.player, &r.kind).map_err(field)?;
        let version = roster
            .record
            .byes
            .get(&(r.round, e.player_id.clone()))
            .map_or(0, |b| b.version);
        let stream = result_entry::player_stream(&t.tournament_id, r.round, tpn);
        let ack = self
            .write(
                actor,
                &meta,
                &t,
                stream,
                version,
                RosterEvent::ByeRecorded(e),
            )
            .await?;
        Ok(Response::new(ResultAck {
            ack: Some(ack),
            ..Default::default()
        }))
    }

    async fn close_round(
        &self,
        request: Request<CloseRoundRequest>,
    ) -> Result<Response<ResultAck>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "CloseRound",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "CloseRound", &r, r.meta.clone())
            .await?;
        if let Some(ack) = self.replayed(&meta, &[types::ROUND_CLOSED]).await? {
            return Ok(Response::new(ResultAck {
                ack: Some(ack),
                ..Default::default()
            }));
        }
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let e = result_entry::decide_close(&t, &roster, r.round).map_err(field)?;
        let stream = result_entry::tournament_stream(&t.tournament_id);
        let version = self
            .platform
            .store
            .stream_version(&stream)
            .await
            .map_err(from_log)?;
        let ack = self
            .write(
                actor,
                &meta,
                &t,
                stream,
                version,
                RosterEvent::RoundClosed(e),
            )
            .await?;
        // The last round closed: say where the tournament goes for rating (ADR rating-001).
        let (mut rating_period, mut rating_list, mut rating_note) =
            (String::new(), String::new(), String::new());
        if t.rounds != 0 && r.round == t.rounds {
            match arbiter_rating::intake::automatic_submission(
                &t.tournament_id,
                &t.time_control,
                &t.end_date,
            ) {
                Ok((kind, period)) => {
                    rating_list = arbiter_rating::calendar::kind_name(kind).to_owned();
                    rating_note =
                        format!("submitted for rating, period {period} ({rating_list} list)");
                    rating_period = period;
                }
                Err(why) => rating_note = why,
            }
        }
        Ok(Response::new(ResultAck {
            ack: Some(ack),
            rating_period,
            rating_list,
            rating_note,
            ..Default::default()
        }))
    }

    async fn get_round_results(
        &self,
        request: Request<GetRoundResultsRequest>,
    ) -> Result<Response<RoundResults>, Status> {
        self.platform.auth.authorize(
            &request,
            "GetRoundResults",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let p = roster.record.pairings.get(&r.round).ok_or_else(|| {
            not_found(
                "round",
                format!("round {} has not been paired here", r.round),
            )
        })?;
        let boards = p
            .event
            .boards
            .iter()
            .map(|b| {
                let st = roster.record.boards.get(&(r.round, b.board));
                let rep = roster.record.reported.get(&(r.round, b.board));
                BoardResult {
                    board: b.board,
                    white_id: b.white_id.clone(),
                    black_id: b.black_id.clone(),
                    white_tpn: roster.pairing_number(&b.white_id),
                    black_tpn: roster.pairing_number(&b.black_id),
                    result: st.map(|s| s.result.clone()).unwrap_or_default(),
                    corrections: st.map_or(0, |s| s.corrections),
                    version: st.map_or(0, |s| s.version),
                    rating_result: st.map(|s| s.rating_result.clone()).unwrap_or_default(),
                    reported_result: rep.map(|x| x.result.clone()).unwrap_or_default(),
                    reported_termination: rep.map(|x| x.termination.clone()).unwrap_or_default(),
                    source: st.map(|s| s.source.clone()).unwrap_or_default(),
                    adjourned: st.is_none()
                        && roster.record.adjourned.contains_key(&(r.round, b.board)),
                }
            })
            .collect();
        Ok(Response::new(RoundResults {
            tournament_id: t.tournament_id,
            round: r.round,
            boards,
            closed: roster.record.closed.contains(&r.round),
            published: p.published,
        }))
    }

    async fn get_standings(
        &self,
        request: Request<GetStandingsRequest>,
    ) -> Result<Response<Standings>, Status> {
        // Bounded before anything is authorised or loaded (ADR platform-010).
        check_list_fields(&request.get_ref().tiebreaks, &request.get_ref().edition)?;
        self.platform.auth.authorize(
            &request,
            "GetStandings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        // The TRF document of the standings is the tournament's export (001 lines carry
        // birth dates and sex): it is read by the `ExportTrf` rule, never anonymously.
        if request.get_ref().format.trim().eq_ignore_ascii_case("trf") {
            self.platform.auth.authorize(
                &request,
                "ExportTrf",
                Scope::Tournament(&request.get_ref().tournament_id),
            )?;
        }
        let r = request.into_inner();
        if r.as_of_position < 0 || r.as_of_micros < 0 {
            return Err(invalid(
                "as_of_position",
                "must be 0 (now) or a log position",
            ));
        }
        let position = if r.as_of_micros > 0 {
            let id = r.tournament_id.trim();
            let events = self.tournaments.events_of(&self.platform.store, id).await?;
            events
                .iter()
                .take_while(|e| e.recorded_at_micros <= r.as_of_micros)
                .last()
                .map(|e| e.global_position)
                .ok_or_else(|| {
                    not_found("as_of_micros", "the tournament did not exist at that time")
                })?
        } else {
            r.as_of_position
        };
        let (t, roster, revision) = if position > 0 {
            let (t, roster) = store_as_of(
                &self.tournaments,
                &self.platform.store,
                r.tournament_id.trim(),
                position,
            )
            .await?;
            (t, roster, None)
        } else {
            let (t, roster, revision) =
                load_latest_revision(&self.platform, &self.tournaments, &r.tournament_id).await?;
            (t, roster, Some(revision))
        };
        if r.teams {
            // Team standings (team_standings.rs; standings_projection.rs is the
            // individual ones').
            let ed = standings_projection::edition(&r.edition).map_err(field)?;
            // The request's, else the tournament's announced primary score (C.04.6 1.2).
            let asked = if r.primary.trim().is_empty() {
                roster.teams.primary_score.as_str()
            } else {
                r.primary.as_str()
            };
            let primary = team_standings::primary(asked).map_err(field)?;
            let a = team_standings::compute(
                &t,
                &roster,
                &team_standings::TeamQuery {
                    round: r.round,
                    list: &r.tiebreaks,
                    edition: ed,
                    primary,
                    explain_team: &r.explain_player,
                    board_prizes: r.board_prizes.then_some(r.board_prizes_min_games),
                },
            )
            .map_err(field)?;
            return Ok(Response::new(Standings {
                tournament_id: t.tournament_id.clone(),
                after_round: a.after_round,
                tiebreaks: a.tiebreaks,
                rows: a.rows,
                as_of_position: if position > 0 {
                    position
                } else {
                    self.tournaments.position()
                },
                document: a.document,
                explanation: a.explanation,
            }));
        }
        let (l, ed) = self.tiebreaks(&r.tiebreaks, &r.edition, &roster)?;
        let explain = !r.explain_player.trim().is_empty();
        let compute = || standings_projection::compute(&t, &roster, r.round, &l, ed, explain);
        let c = match revision {
            // The working is not kept; a table as of an earlier position is rarely asked twice.
            Some(revision) if !explain => self
                .standings
                .get_or_compute(
                    self.table_key(&t, &roster, revision, r.round, &l, ed),
                    compute,
                )
                .map_err(field)?,
            _ => std::sync::Arc::new(compute().map_err(field)?),
        };
        let note = standings_projection::announced_list_note(&r.tiebreaks, ed, &roster)
            .unwrap_or_default();
        let explanation = if explain {
            let e = roster
                .resolve(&r.explain_player)
                .map_err(|e| invalid("explain_player", e.message))?;
            c.standings
                .explain(roster.pairing_number(&e.player_id))
                .unwrap_or_default()
        } else {
            String::new()
        };
        let explanation = note + &explanation;
        Ok(Response::new(Standings {
            tournament_id: t.tournament_id.clone(),
            after_round: c.after_round,
            tiebreaks: c.names(),
            rows: c.rows(&roster),
            as_of_position: if position > 0 {
                position
            } else {
                self.tournaments.position()
            },
            document: c.render(&t, &roster, &r.format).map_err(field)?,
            explanation,
        }))
    }

    async fn get_correction_impact(
        &self,
        request: Request<GetCorrectionImpactRequest>,
    ) -> Result<Response<CorrectionImpact>, Status> {
        // Bounded before anything is authorised or loaded (ADR platform-010).
        check_list_fields(&request.get_ref().tiebreaks, &request.get_ref().edition)?;
        self.platform.auth.authorize(
            &request,
            "GetCorrectionImpact",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        if r.correction_position > 0 {
            return self
                .recorded_impact(
                    r.tournament_id.trim(),
                    r.correction_position,
                    &r.tiebreaks,
                    &r.edition,
                )
                .await
                .map(Response::new);
        }
        // A proposed correction: decided and folded on a copy; nothing is written.
        let (t, before) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let e = result_entry::decide_correct(
            &t,
            &before,
            &result_entry::CorrectionRequest {
                round: r.round,
                board: r.board,
                result: &r.result,
                previous: "",
                reason: "proposed",
                has_expected_version: true,
                basis: "",
            },
        )
        .map_err(field)?;
        let mut after = before.clone();
        after.apply(RosterEvent::ResultCorrected(e.clone()));
        let (l, ed) = self.tiebreaks(&r.tiebreaks, &r.edition, &before)?;
        correction_impact::impact(&t, &before, &after, &correction_of(&e), &l, ed)
            .map(Response::new)
            .map_err(field)
    }

    async fn get_history(
        &self,
        request: Request<GetHistoryRequest>,
    ) -> Result<Response<History>, Status> {
        self.platform.auth.authorize(
            &request,
            "GetHistory",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let subject = if !r.player.trim().is_empty() {
            let e = roster
                .resolve(&r.player)
                .map_err(|e| invalid("player", e.message))?;
            audit::Subject::Player(e.player_id.clone())
        } else if r.round > 0 || r.board > 0 {
            if r.round == 0 || r.board == 0 {
                return Err(invalid("board", "a game is a round and a board (both > 0)"));
            }
            audit::Subject::Game(r.round, r.board)
        } else {
            audit::Subject::Tournament
        };
        let events = match subject {
            // One game: its round's pairing events and its results, by position.
            audit::Subject::Game(round, board) => {
                self.tournaments
                    .game_events(&self.platform.store, &t.tournament_id, round, board)
                    .await?
            }
            _ => {
                self.tournaments
                    .events_of(&self.platform.store, &t.tournament_id)
                    .await?
            }
        };
        Ok(Response::new(History {
            entries: events
                .iter()
                .filter(|e| audit::touches(e, &subject))
                .map(|e| audit::entry(e, &audit::Names(&roster)))
                .collect(),
        }))
    }

    async fn verify_log(
        &self,
        request: Request<VerifyLogRequest>,
    ) -> Result<Response<VerifyLogResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "VerifyLog",
            Scope::tournament_or_global(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let id = r.tournament_id.trim().to_owned();
        let options = self
            .platform
            .verify_options()
            .map_err(|e| Status::failed_precondition(format!("anchor: {e}")))?;
        let report = self
            .platform
            .store
            .verify_with(&options)
            .await
            .map_err(from_log)?;
        let (checked, problems): (u64, Vec<String>) = if id.is_empty() {
            (
                report.events,
                report.problems.iter().map(ToString::to_string).collect(),
            )
        } else {
            load_latest(&self.platform, &self.tournaments, &id).await?;
            let events = self
                .tournaments
                .events_of(&self.platform.store, &id)
                .await?;
            let streams: std::collections::BTreeSet<&str> =
                events.iter().map(|e| e.stream.as_str()).collect();
            (
                u64::try_from(events.len()).unwrap_or(u64::MAX),
                report
                    .problems
                    .iter()
                    .filter(|p| {
                        p.log_wide
                            || p.stream.contains(id.as_str())
                            || streams.contains(p.stream.as_str())
                    })
                    .map(ToString::to_string)
                    .collect(),
            )
        };
        Ok(Response::new(VerifyLogResponse {
            ok: problems.is_empty(),
            events_checked: checked,
            problems,
        }))
    }

    async fn export_audit(
        &self,
        request: Request<ExportAuditRequest>,
    ) -> Result<Response<ExportAuditResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "ExportAudit",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let events = self
            .tournaments
            .events_of(&self.platform.store, &t.tournament_id)
            .await?;
        let names = audit::Names(&roster);
        let mut jsonl = String::new();
        for e in &events {
            jsonl.push_str(&audit::json_line(e, &names));
            jsonl.push('\n');
        }
        Ok(Response::new(ExportAuditResponse { jsonl }))
    }
}
