//! # The pairing service (Swiss (Dutch), round robin)
//!
//! gRPC handler → auth → command meta → pure decision ([`round_pairing`]: the engine
//! input is the registry's TRF export of the tournament, paired by `swiss` or
//! `roundrobin`) → `RoundPaired` / `PairingsPublished` appended to `pairing-<tournament>`
//! → the tournament projection (`arbiter_registry::projection::Tournaments`, which folds
//! registry, pairing and results events) → queries read it. Service name in events and
//! NATS subjects: `pairing`.
pub mod round_pairing;

use arbiter_proto::v1::pairing_service_server::{PairingService, PairingServiceServer};
use arbiter_proto::v1::{
    ExplainPairingResponse, GetPairingsRequest, GetServiceInfoRequest, PairRoundRequest,
    PairingResponse, PublishPairingsRequest, RoundPairingView, ServiceInfo, SetPairingsRequest,
};
use arbiter_registry::projection::Tournaments;
use arbiter_registry::record_commands::{self, load_latest};
use arbiter_registry::roster::{Roster, RosterEvent, types};
use arbiter_registry::tournament::FieldError;
use arbiter_service_kit::host::service_info;
use arbiter_service_kit::status::{command_meta, invalid, not_found};
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
}

impl Pairing {
    /// The service on this platform (its tournament projection is rebuilt from the log).
    pub fn start(platform: &Platform) -> Pairing {
        platform.mirror(SERVICE, &["arbiter.v1.registry.>", "arbiter.v1.results.>"]);
        Pairing {
            tournaments: Tournaments::start(platform.store.clone()),
            platform: platform.clone(),
        }
    }
}

impl ServiceModule for Pairing {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.PairingService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(PairingServiceServer::new(*self));
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
    })
}

impl Pairing {
    async fn command(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        tournament_id: &str,
        round: u32,
        decide: impl FnOnce(&arbiter_proto::v1::Tournament, &Roster) -> Result<RosterEvent, FieldError>,
    ) -> Result<Response<PairingResponse>, Status> {
        let tournament_id = tournament_id.trim();
        if let Some(ack) = record_commands::replayed(
            &self.platform,
            meta,
            &[types::ROUND_PAIRED, types::PAIRINGS_PUBLISHED],
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
        let event = decide(&t, &roster).map_err(field)?;
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
    ) -> Result<(RoundPairingView, String), Status> {
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
            .map(|p| p.event.explanation.clone())
            .unwrap_or_default();
        view(&t.tournament_id, &roster, round)
            .map(|v| (v, explanation))
            .ok_or_else(|| not_found("round", format!("round {round} has not been paired here")))
    }
}

#[tonic::async_trait]
impl PairingService for Pairing {
    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        service_info(&self.platform, SERVICE, &["dutch-2026", "dutch-2017"])
            .await
            .map(Response::new)
    }

    async fn pair_round(
        &self,
        request: Request<PairRoundRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(&request, "PairRound")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta)?;
        self.command(actor, &meta, &r.tournament_id, r.round, |t, roster| {
            round_pairing::pair_round(t, roster, r.round, false).map(RosterEvent::RoundPaired)
        })
        .await
    }

    async fn repair_round(
        &self,
        request: Request<PairRoundRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(&request, "RepairRound")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta)?;
        self.command(actor, &meta, &r.tournament_id, r.round, |t, roster| {
            round_pairing::pair_round(t, roster, r.round, true).map(RosterEvent::RoundPaired)
        })
        .await
    }

    async fn set_pairings(
        &self,
        request: Request<SetPairingsRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(&request, "SetPairings")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta.clone())?;
        let reason = meta.reason.clone();
        self.command(actor, &meta, &r.tournament_id, r.round, |t, roster| {
            round_pairing::decide_set_pairings(
                t,
                roster,
                r.round,
                &r.boards,
                &r.bye_player_id,
                &reason,
            )
            .map(RosterEvent::RoundPaired)
        })
        .await
    }

    async fn publish_pairings(
        &self,
        request: Request<PublishPairingsRequest>,
    ) -> Result<Response<PairingResponse>, Status> {
        let actor = self.platform.auth.actor(&request, "PublishPairings")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta)?;
        self.command(actor, &meta, &r.tournament_id, r.round, |t, roster| {
            round_pairing::decide_publish(t, roster, r.round).map(RosterEvent::PairingsPublished)
        })
        .await
    }

    async fn get_pairings(
        &self,
        request: Request<GetPairingsRequest>,
    ) -> Result<Response<RoundPairingView>, Status> {
        self.round_view(request.get_ref())
            .await
            .map(|(v, _)| Response::new(v))
    }

    async fn explain_pairing(
        &self,
        request: Request<GetPairingsRequest>,
    ) -> Result<Response<ExplainPairingResponse>, Status> {
        self.round_view(request.get_ref())
            .await
            .map(|(v, explanation)| {
                Response::new(ExplainPairingResponse {
                    pairing: Some(v),
                    explanation,
                })
            })
    }
}
