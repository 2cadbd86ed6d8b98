//! # The pairing service (Swiss (Dutch), round robin)
//!
//! gRPC handler → auth → command meta → pure decision ([`round_pairing`]: the engine
//! input is the registry's TRF export of the tournament, paired by `swiss` or
//! `roundrobin`) → `RoundPaired` / `PairingsPublished` / `PairingDiscarded` /
//! `PairingsUnpublished` appended to `pairing-<tournament>`
//! → the tournament projection (`arbiter_registry::projection::Tournaments`, which folds
//! registry, pairing and results events) → queries read it. Service name in events and
//! NATS subjects: `pairing`.
pub mod explainer;
pub mod round_pairing;
pub mod team_round;

use arbiter_proto::v1::pairing_service_server::{PairingService, PairingServiceServer};
use arbiter_proto::v1::{
    DiscardPairingRequest, ExplainPairingResponse, GetPairingsRequest, GetServiceInfoRequest,
    PairRoundRequest, PairingResponse, PublishPairingsRequest, RoundPairingView, ServiceInfo,
    SetPairingsRequest, UnpublishPairingsRequest,
};
use arbiter_registry::projection::Tournaments;
use arbiter_registry::record_commands::{self, load_latest};
use arbiter_registry::roster::{Roster, RosterEvent, types};
use arbiter_registry::tournament::FieldError;
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::status::{invalid, not_found};
use arbiter_service_kit::{Platform, ServiceModule};
use tonic::{Request, Response, Status};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "pairing";

/// The stream of a tournament's pairings.
pub fn stream_of(tournament_id: &str) -> String {
    format!("pairing-{tournament_id}")
}

/// The pairing gRPC service.
#[derive(Clone)]
pub struct Pairing {
    platform: Platform,
    tournaments: Tournaments,
    /// The engine pairings running, one per tournament at a time (ADR pairing-003).
    running: Running,
    /// The explanations being made after their pairings were stored (ADR pairing-004).
    explainers: explainer::Explainers,
}

/// An engine pairing under way: who asked, for which round, since when.
#[derive(Debug, Clone)]
struct RunningPairing {
    actor: String,
    round: u32,
    since: std::time::SystemTime,
}

/// Tournament id → the engine pairing running for it (ADR pairing-003): a second request
/// is told who runs the first instead of stacking a second engine beside it.
#[derive(Clone, Default)]
struct Running(std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, RunningPairing>>>);

/// A tournament's place in [`Running`], held by the engine's thread until the engine
/// has ended (after a deadline or a client gone too, so that a new request waits for the
/// stopped engine to be gone, which takes milliseconds).
struct RunningClaim {
    running: Running,
    tournament_id: String,
}

impl Running {
    fn claim(&self, tournament_id: &str, round: u32, actor: &str) -> Result<RunningClaim, Status> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = map.get(tournament_id) {
            let since = chrono::DateTime::<chrono::Utc>::from(r.since);
            let secs = r.since.elapsed().map(|d| d.as_secs_f64()).unwrap_or(0.0);
            return Err(Status::aborted(format!(
                "round: round {} of {tournament_id} is being paired by {} since {} ({secs:.1} s): one pairing per tournament at a time; ask again when it has ended",
                r.round,
                r.actor,
                since.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            )));
        }
        map.insert(
            tournament_id.to_owned(),
            RunningPairing {
                actor: actor.to_owned(),
                round,
                since: std::time::SystemTime::now(),
            },
        );
        Ok(RunningClaim {
            running: self.clone(),
            tournament_id: tournament_id.to_owned(),
        })
    }
}

impl Drop for RunningClaim {
    fn drop(&mut self) {
        let mut map = self.running.0.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&self.tournament_id);
    }
}

/// Gives the engine's stop when dropped: when the request's future ends for any reason
/// (answered, timed out, or dropped by tonic because the client went away), an engine
/// still running stops (ADR pairing-003).
struct StopOnDrop(swiss::StopSignal);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl Pairing {
    /// The service on this platform (its tournament projection is rebuilt from the log).
    pub fn start(platform: &Platform) -> Pairing {
        Self::start_sharing(platform, Tournaments::start(platform.store.clone()))
    }

    /// The service reading a tournament projection the process already keeps
    /// (`arbiterd`: one projection for every service).
    pub fn start_sharing(platform: &Platform, tournaments: Tournaments) -> Pairing {
        platform.mirror(
            SERVICE,
            &[
                "arbiter.v1.registry.>",
                "arbiter.v1.results.>",
                // Guidelines I: an adjourned game is a draw for pairing (C.04.2 3.1)
                "arbiter.v1.clock.AdjournmentReported",
            ],
        );
        Pairing {
            tournaments,
            platform: platform.clone(),
            running: Running::default(),
            explainers: explainer::Explainers::default(),
        }
    }
}

impl ServiceModule for Pairing {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.PairingService"
    }
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let t = self.tournaments.clone();
        Some(std::sync::Arc::new(move || t.position()))
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(PairingServiceServer::new(*self).max_decoding_message_size(
            arbiter_service_kit::limits::service_max_message_bytes("pairing"),
        ));
    }
}

fn field(e: FieldError) -> Status {
    match e.field {
        "round" if e.message.contains("no pairing complies") => {
            Status::failed_precondition(format!("{}: {}", e.field, e.message))
        }
        _ => invalid(e.field, e.message),
    }
}

/// How long an engine pairing may take before the request is answered with
/// DEADLINE_EXCEEDED (env `ARBITER_PAIRING_TIMEOUT_SECS`, default 120 s): an arbiter never
/// waits minutes without knowing why. Nothing is written for a pairing that timed out, and
/// the engine stops within milliseconds (`swiss::pair_stoppable`, ADR pairing-003).
pub fn pairing_timeout() -> std::time::Duration {
    // Milliseconds, for tests (0: every pairing times out).
    if let Some(ms) = std::env::var("ARBITER_PAIRING_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        return std::time::Duration::from_millis(ms);
    }
    let secs = std::env::var("ARBITER_PAIRING_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| *s > 0)
        .unwrap_or(120);
    std::time::Duration::from_secs(secs)
}

/// Where the engine's pairing leaves what its explanation needs (ADR pairing-004).
type JobSlot = std::sync::Arc<std::sync::Mutex<Option<round_pairing::ExplainJob>>>;

/// Runs the engine off the async runtime, within [`pairing_timeout`], once per
/// tournament at a time (`running`; ADR pairing-003).
async fn engine_pairing(
    running: Running,
    actor: String,
    t: arbiter_proto::v1::Tournament,
    roster: Roster,
    round: u32,
    repair: bool,
    slot: JobSlot,
) -> Result<RosterEvent, Status> {
    let limit = pairing_timeout();
    let players = roster.entries.len();
    let too_long = |limit: std::time::Duration| {
        Status::deadline_exceeded(format!(
            "round: pairing round {round} of {players} players did not finish within {:.3} s (ARBITER_PAIRING_TIMEOUT_SECS); nothing was written and the engine was stopped",
            limit.as_secs_f64()
        ))
    };
    if limit.is_zero() {
        return Err(too_long(limit));
    }
    let claim = running.claim(&t.tournament_id, round, &actor)?;
    // Given when this future ends, whatever ends it: the engine then stops instead of
    // running on in the background (a deadline passed, a client gone).
    let stop = StopOnDrop(swiss::StopSignal::new());
    let signal = stop.0.clone();
    let job = tokio::task::spawn_blocking(move || {
        let paired =
            round_pairing::pair_round(&t, &roster, round, repair, &signal).map(|(paired, job)| {
                *slot.lock().unwrap_or_else(|e| e.into_inner()) = job;
                RosterEvent::RoundPaired(paired)
            });
        // The tournament is free once the engine has ended, not before.
        drop(claim);
        paired
    });
    match tokio::time::timeout(limit, job).await {
        Ok(Ok(r)) => r.map_err(field),
        Ok(Err(e)) => Err(Status::internal(format!(
            "round: the pairing engine failed: {e}"
        ))),
        Err(_) => {
            drop(stop);
            Err(too_long(limit))
        }
    }
}

/// A round's explanation as recorded, who paired it and the pairing explained.
type RoundExplanation = (
    Option<Result<String, String>>,
    arbiter_registry::round_record::EventMeta,
    arbiter_proto::v1::RoundPaired,
);

/// The view of round `round` of a tournament record.
pub fn view(tournament_id: &str, roster: &Roster, round: u32) -> Option<RoundPairingView> {
    let p = roster.record.pairings.get(&round)?;
    let e = &p.event;
    Some(RoundPairingView {
        tournament_id: tournament_id.to_owned(),
        round,
        boards: e.boards.clone(),
        bye_player_id: e.bye_player_id.clone(),
        bye_tpn: if e.bye_player_id.is_empty() {
            0
        } else {
            roster.pairing_number(&e.bye_player_id)
        },
        absent_player_ids: e.absent_player_ids.clone(),
        published: p.published,
        engine_made: e.engine_made,
        system: e.system.clone(),
        edition: e.edition.clone(),
        engine_version: e.engine_version.clone(),
        input_sha256: e.input_sha256.clone(),
        paired_by: p.paired.actor.clone(),
        paired_at_micros: p.paired.recorded_at_micros,
        position: p.paired.position,
        times_paired: p.times_paired,
        reason: p.paired.reason.clone(),
        matches: e.matches.clone(),
        bye_team_id: e.bye_team_id.clone(),
    })
}

impl Pairing {
    /// `PairRound` (`repair` false) and `RepairRound`: the engine pairs the round, the
    /// pairing is stored, its explanation follows (ADR pairing-004).
    async fn engine_round(
        &self,
        request: Request<PairRoundRequest>,
        rpc: &'static str,
        repair: bool,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            rpc,
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, rpc, &r, r.meta.clone())
            .await?;
        let round = r.round;
        let (running, who) = (self.running.clone(), actor.clone());
        let slot = JobSlot::default();
        let job = slot.clone();
        let answer = self
            .command(
                actor.clone(),
                &meta,
                &r.tournament_id,
                round,
                move |t, roster| engine_pairing(running, who, t, roster, round, repair, job),
            )
            .await?;
        self.explain_after(&answer, slot, actor);
        Ok(answer)
    }

    /// Starts the explanation of the pairing just stored, off the critical path (ADR
    /// pairing-004).
    fn explain_after(&self, answer: &Response<PairingResponse>, slot: JobSlot, actor: String) {
        let job = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        let (Some(job), Some(ack), Some(view)) =
            (job, &answer.get_ref().ack, &answer.get_ref().pairing)
        else {
            return;
        };
        if ack.replayed {
            return;
        }
        self.explainers.start(
            &self.platform,
            &self.tournaments,
            job,
            explainer::Stored {
                tournament_id: view.tournament_id.clone(),
                paired_position: ack.first_position,
                input_sha256: view.input_sha256.clone(),
                actor,
                rule_edition: view.edition.clone(),
            },
        );
    }

    async fn command<Fut>(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        tournament_id: &str,
        round: u32,
        decide: impl FnOnce(arbiter_proto::v1::Tournament, Roster) -> Fut,
    ) -> Result<Response<PairingResponse>, Status>
    where
        Fut: std::future::Future<Output = Result<RosterEvent, Status>>,
    {
        let tournament_id = tournament_id.trim();
        // The reason is recorded free text: checked before any engine work.
        arbiter_registry::tournament::check_reason(&meta.reason).map_err(field)?;
        if let Some(ack) = record_commands::replayed(
            &self.platform,
            meta,
            &[
                types::ROUND_PAIRED,
                types::PAIRINGS_PUBLISHED,
                types::PAIRING_DISCARDED,
                types::PAIRINGS_UNPUBLISHED,
            ],
        )
        .await?
        {
            self.tournaments.caught_up(ack.last_position).await;
            let (_, roster) = load_latest(&self.platform, &self.tournaments, tournament_id).await?;
            return Ok(Response::new(PairingResponse {
                ack: Some(ack),
                pairing: view(tournament_id, &roster, round),
            }));
        }
        let (t, roster) = load_latest(&self.platform, &self.tournaments, tournament_id).await?;
        // Decided on the current record; the append checks the pairing stream's version
        // so two pairings of the same round cannot both be written.
        let version = self
            .platform
            .store
            .stream_version(&stream_of(&t.tournament_id))
            .await
            .map_err(arbiter_service_kit::status::from_log)?;
        let event = decide(t.clone(), roster).await?;
        let edition = match &event {
            RosterEvent::RoundPaired(p) => p.edition.clone(),
            _ => t.rule_edition.clone(),
        };
        let ack = record_commands::append(
            &self.platform,
            &self.tournaments,
            SERVICE,
            actor,
            meta,
            &edition,
            stream_of(&t.tournament_id),
            Some(meta.expected_version.unwrap_or(version)),
            &[event],
        )
        .await?;
        let (_, roster) = load_latest(&self.platform, &self.tournaments, &t.tournament_id).await?;
        Ok(Response::new(PairingResponse {
            ack: Some(ack),
            pairing: view(&t.tournament_id, &roster, round),
        }))
    }

    async fn round_view(
        &self,
        r: &GetPairingsRequest,
    ) -> Result<(RoundPairingView, Option<RoundExplanation>), Status> {
        let (t, roster) = load_latest(&self.platform, &self.tournaments, &r.tournament_id).await?;
        let round = if r.round == 0 {
            roster
                .record
                .pairings
                .keys()
                .next_back()
                .copied()
                .unwrap_or(0)
        } else {
            r.round
        };
        let explanation = roster
            .record
            .pairings
            .get(&round)
            .map(|p| (p.explanation.clone(), p.paired.clone(), p.event.clone()));
        let v = view(&t.tournament_id, &roster, round)
            .ok_or_else(|| not_found("round", format!("round {round} has not been paired here")))?;
        Ok((v, explanation))
    }

    /// The explanation of a round's pairing, or that it is being made (ADR pairing-004):
    /// one not being made (the server stopped before it was written) is started again
    /// from the record as it stood before the pairing.
    async fn explanation(&self, r: &GetPairingsRequest) -> Result<ExplainPairingResponse, Status> {
        let (v, found) = self.round_view(r).await?;
        let Some((explanation, paired, event)) = found else {
            return Err(not_found("round", "not paired here"));
        };
        let round = v.round;
        match explanation {
            Some(Ok(text)) => Ok(ExplainPairingResponse {
                pairing: Some(v),
                explanation: text,
                pending: false,
            }),
            Some(Err(e)) => Err(Status::failed_precondition(format!(
                "round: the engine could not explain round {round}: {e}"
            ))),
            None => {
                let id = v.tournament_id.clone();
                if !self.explainers.making(&id, round, paired.position) {
                    let (t, before) = self
                        .tournaments
                        .as_of(&self.platform.store, &id, paired.position - 1)
                        .await?
                        .ok_or_else(|| {
                            not_found("tournament_id", format!("no tournament {id:?}"))
                        })?;
                    let job = round_pairing::explain_job_of(&t, &before, &event).map_err(field)?;
                    self.explainers.start(
                        &self.platform,
                        &self.tournaments,
                        job,
                        explainer::Stored {
                            tournament_id: id.clone(),
                            paired_position: paired.position,
                            input_sha256: event.input_sha256.clone(),
                            actor: paired.actor.clone(),
                            rule_edition: event.edition.clone(),
                        },
                    );
                }
                Ok(ExplainPairingResponse {
                    pairing: Some(v),
                    explanation: String::new(),
                    pending: true,
                })
            }
        }
    }
}

#[tonic::async_trait]
impl PairingService for Pairing {
    async fn get_service_info(
        &self,
        request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        self.platform
            .auth
            .authorize(&request, "GetServiceInfo", Scope::Global)?;
        service_info(&self.platform, SERVICE, &["dutch-2026", "dutch-2017"])
            .await
            .map(Response::new)
    }

    async fn pair_round(
        &self,
        request: Request<PairRoundRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        self.engine_round(request, "PairRound", false).await
    }

    async fn repair_round(
        &self,
        request: Request<PairRoundRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        self.engine_round(request, "RepairRound", true).await
    }

    async fn set_pairings(
        &self,
        request: Request<SetPairingsRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "SetPairings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "SetPairings", &r, r.meta.clone())
            .await?;
        let reason = meta.reason.clone();
        self.command(
            actor,
            &meta,
            &r.tournament_id,
            r.round,
            |t, roster| async move {
                round_pairing::decide_set_pairings(
                    &t,
                    &roster,
                    r.round,
                    &r.boards,
                    &r.bye_player_id,
                    &reason,
                )
                .map(RosterEvent::RoundPaired)
                .map_err(field)
            },
        )
        .await
        .inspect(|_| self.explainers.stop(&r.tournament_id, r.round))
    }

    async fn publish_pairings(
        &self,
        request: Request<PublishPairingsRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "PublishPairings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "PublishPairings", &r, r.meta.clone())
            .await?;
        let round = r.round;
        self.command(
            actor,
            &meta,
            &r.tournament_id,
            round,
            move |t, roster| async move {
                round_pairing::decide_publish(&t, &roster, round)
                    .map(RosterEvent::PairingsPublished)
                    .map_err(field)
            },
        )
        .await
    }

    async fn discard_pairing(
        &self,
        request: Request<DiscardPairingRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "DiscardPairing",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "DiscardPairing", &r, r.meta.clone())
            .await?;
        let round = r.round;
        let reason = meta.reason.clone();
        self.command(
            actor,
            &meta,
            &r.tournament_id,
            round,
            move |t, roster| async move {
                round_pairing::decide_discard(&t, &roster, round, &reason)
                    .map(RosterEvent::PairingDiscarded)
                    .map_err(field)
            },
        )
        .await
        .inspect(|_| self.explainers.stop(&r.tournament_id, round))
    }

    async fn unpublish_pairings(
        &self,
        request: Request<UnpublishPairingsRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "UnpublishPairings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(
                &self.platform.store,
                "UnpublishPairings",
                &r,
                r.meta.clone(),
            )
            .await?;
        let round = r.round;
        let reason = meta.reason.clone();
        self.command(
            actor,
            &meta,
            &r.tournament_id,
            round,
            move |t, roster| async move {
                round_pairing::decide_unpublish(&t, &roster, round, &reason)
                    .map(RosterEvent::PairingsUnpublished)
                    .map_err(field)
            },
        )
        .await
    }

    async fn get_pairings(
        &self,
        request: Request<GetPairingsRequest>,
    ) -> Result<Response<RoundPairingView>, Status> {
        self.platform.auth.authorize(
            &request,
            "GetPairings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.round_view(request.get_ref())
            .await
            .map(|(v, _)| Response::new(v))
    }

    async fn explain_pairing(
        &self,
        request: Request<GetPairingsRequest>,
    ) -> Result<Response<ExplainPairingResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "ExplainPairing",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.explanation(request.get_ref()).await.map(Response::new)
    }
}
