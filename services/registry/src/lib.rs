//! # Registry service
//!
//! Owns tournaments (and, as they arrive, players, entries, absences). gRPC handler →
//! command → [`tournament`] decides (pure) → event appended to `tournament-<id>` →
//! [`projection::Tournaments`] folds it → queries read the projection.
pub mod projection;
pub mod tournament;

use arbiter_eventlog::{AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::registry_service_server::{RegistryService, RegistryServiceServer};
use arbiter_proto::v1::{
    CommandAck, CreateTournamentRequest, CreateTournamentResponse, GetServiceInfoRequest,
    GetTournamentRequest, ListTournamentsRequest, ListTournamentsResponse, ServiceInfo, Tournament,
    TournamentCreated, TournamentUpdated, UpdateTournamentRequest,
};
use arbiter_service_kit::status::{command_meta, from_log, invalid, not_found};
use arbiter_service_kit::telemetry::current_traceparent;
use arbiter_service_kit::{Platform, ServiceModule};
use prost::Message;
use tonic::{Request, Response, Status};

use projection::{TOURNAMENT_CREATED, TOURNAMENT_UPDATED, Tournaments, upcasters};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "registry";

/// The registry gRPC service.
#[derive(Clone)]
pub struct Registry {
    platform: Platform,
    tournaments: Tournaments,
}

impl Registry {
    /// Starts the projection (rebuilt from the log) and returns the service.
    pub fn start(platform: &Platform) -> Registry {
        Registry {
            tournaments: Tournaments::start(platform.store.clone()),
            platform: platform.clone(),
        }
    }

    /// The read model (for tests and embedding).
    pub fn tournaments(&self) -> &Tournaments {
        &self.tournaments
    }
}

impl ServiceModule for Registry {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.RegistryService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(RegistryServiceServer::new(*self));
    }
}

fn field(e: tournament::FieldError) -> Status {
    invalid(e.field, e.message)
}

fn ack(stream: String, a: arbiter_eventlog::AppendAck) -> CommandAck {
    CommandAck {
        stream,
        stream_version: a.stream_version,
        first_position: a.first_position,
        last_position: a.last_position,
        replayed: a.replayed,
    }
}

impl Registry {
    fn context(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        edition: &str,
    ) -> CommandContext {
        CommandContext {
            command_id: meta.command_id.clone(),
            actor,
            reason: meta.reason.clone(),
            rule_edition: edition.to_owned(),
            service: SERVICE.to_owned(),
            trace_parent: current_traceparent(),
            ..Default::default()
        }
    }

    async fn replayed_create(
        &self,
        stream: String,
        a: arbiter_eventlog::AppendAck,
    ) -> Result<Response<CreateTournamentResponse>, Status> {
        let first = self
            .platform
            .store
            .read_at(a.first_position)
            .await
            .map_err(from_log)?
            .ok_or_else(|| Status::internal("replayed command has no event"))?;
        if first.event_type != TOURNAMENT_CREATED {
            return Err(invalid(
                "meta.command_id",
                format!("already used for a {} command", first.event_type),
            ));
        }
        let e = upcasters().upcast(first).map_err(from_log)?;
        let c = TournamentCreated::decode(e.payload.as_slice())
            .map_err(|e| Status::internal(e.to_string()))?;
        let t = self
            .tournament_after(&c.tournament_id, a.last_position)
            .await?;
        Ok(Response::new(CreateTournamentResponse {
            ack: Some(ack(stream, a)),
            tournament: Some(t),
        }))
    }

    async fn tournament_after(&self, id: &str, position: i64) -> Result<Tournament, Status> {
        if !self.tournaments.caught_up(position).await {
            return Err(Status::unavailable(
                "registry projection is behind the log; retry",
            ));
        }
        self.tournaments
            .get(id)
            .ok_or_else(|| not_found("tournament_id", format!("no tournament {id}")))
    }
}

#[tonic::async_trait]
impl RegistryService for Registry {
    async fn create_tournament(
        &self,
        request: Request<CreateTournamentRequest>,
    ) -> Result<Response<CreateTournamentResponse>, Status> {
        let actor = self.platform.auth.actor(&request, "CreateTournament")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta)?;
        if let Some(v) = meta.expected_version
            && v != 0
        {
            return Err(invalid(
                "meta.expected_version",
                format!("a new tournament's stream is at version 0, not {v}"),
            ));
        }
        // A retried command id: answer with the tournament it created the first time.
        if let Some((stream, a)) = self
            .platform
            .store
            .find_command(&meta.command_id)
            .await
            .map_err(from_log)?
        {
            return self.replayed_create(stream, a).await;
        }
        let id = uuid::Uuid::now_v7().to_string();
        let event = tournament::decide_create(
            &id,
            tournament::Draft {
                name: r.name,
                place: r.place,
                federation: r.federation,
                start_date: r.start_date,
                end_date: r.end_date,
                rounds: r.rounds,
                time_control: r.time_control,
                pairing_system: r.pairing_system,
                rule_edition: r.rule_edition,
            },
        )
        .map_err(field)?;
        let stream = tournament::stream_of(&id);
        let ctx = self.context(actor, &meta, &event.rule_edition);
        let appended = self
            .platform
            .store
            .append(AppendRequest {
                stream: stream.clone(),
                expected_version: Some(0),
                events: vec![NewEvent {
                    event_type: TOURNAMENT_CREATED.into(),
                    schema_version: upcasters().current_version(TOURNAMENT_CREATED),
                    payload: event.encode_to_vec(),
                }],
                context: ctx,
            })
            .await;
        let a = match appended {
            Ok(a) => a,
            // The same command id raced in concurrently and won: answer as a retry.
            Err(arbiter_eventlog::Error::CommandIdReused {
                original_stream, ..
            }) => {
                let (_, a) = self
                    .platform
                    .store
                    .find_command(&meta.command_id)
                    .await
                    .map_err(from_log)?
                    .ok_or_else(|| Status::internal("command id vanished"))?;
                return self.replayed_create(original_stream, a).await;
            }
            Err(e) => return Err(from_log(e)),
        };
        let t = self.tournament_after(&id, a.last_position).await?;
        tracing::info!(tournament_id = %id, "tournament created");
        Ok(Response::new(CreateTournamentResponse {
            ack: Some(ack(stream, a)),
            tournament: Some(t),
        }))
    }

    async fn update_tournament(
        &self,
        request: Request<UpdateTournamentRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let actor = self.platform.auth.actor(&request, "UpdateTournament")?;
        let r = request.into_inner();
        let meta = command_meta(r.meta)?;
        let current = self.tournaments.get(&r.tournament_id).ok_or_else(|| {
            not_found(
                "tournament_id",
                format!("no tournament {:?}", r.tournament_id),
            )
        })?;
        let update = tournament::decide_update(
            &current,
            TournamentUpdated {
                name: r.name,
                place: r.place,
                federation: r.federation,
                start_date: r.start_date,
                end_date: r.end_date,
                rounds: r.rounds,
                time_control: r.time_control,
            },
        )
        .map_err(field)?;
        let stream = tournament::stream_of(&r.tournament_id);
        let ctx = self.context(actor, &meta, &current.rule_edition);
        let a = self
            .platform
            .store
            .append(AppendRequest {
                stream: stream.clone(),
                expected_version: meta.expected_version,
                events: vec![NewEvent {
                    event_type: TOURNAMENT_UPDATED.into(),
                    schema_version: 1,
                    payload: update.encode_to_vec(),
                }],
                context: ctx,
            })
            .await
            .map_err(from_log)?;
        self.tournament_after(&r.tournament_id, a.last_position)
            .await?;
        Ok(Response::new(ack(stream, a)))
    }

    async fn get_tournament(
        &self,
        request: Request<GetTournamentRequest>,
    ) -> Result<Response<Tournament>, Status> {
        let id = request.into_inner().tournament_id;
        if id.trim().is_empty() {
            return Err(invalid("tournament_id", "must not be empty"));
        }
        self.tournaments
            .get(&id)
            .map(Response::new)
            .ok_or_else(|| not_found("tournament_id", format!("no tournament {id:?}")))
    }

    async fn list_tournaments(
        &self,
        _request: Request<ListTournamentsRequest>,
    ) -> Result<Response<ListTournamentsResponse>, Status> {
        Ok(Response::new(ListTournamentsResponse {
            tournaments: self.tournaments.list(),
        }))
    }

    async fn get_service_info(
        &self,
        _request: Request<GetServiceInfoRequest>,
    ) -> Result<Response<ServiceInfo>, Status> {
        Ok(Response::new(ServiceInfo {
            service: SERVICE.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            rule_editions: Vec::new(),
            projected_position: self.tournaments.position(),
        }))
    }
}
