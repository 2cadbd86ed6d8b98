//! # Registry service
//!
//! Owns tournaments (and, as they arrive, players, entries, absences). gRPC handler →
//! command → [`tournament`] decides (pure) → event appended to `tournament-<id>` →
//! [`projection::Tournaments`] folds it → queries read the projection.
pub mod bulk_entry;
pub mod event_index;
pub mod initial_ranking_c04_2_art2;
pub mod player_directory;
pub mod projection;
pub mod record_commands;
pub mod roster;
pub mod round_record;
pub mod team_commands;
pub mod teams;
pub mod tournament;
pub mod tournament_pages;
pub mod tournament_settings;
pub mod trf_export;
pub mod trf_import;
pub mod trf_teams;

use arbiter_eventlog::{AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::registry_service_server::{RegistryService, RegistryServiceServer};
use arbiter_proto::v1::{
    AddPlayerRequest, AddPlayerResponse, ByeRequest, CommandAck, CorrectPlayerRequest,
    CreateTournamentRequest, CreateTournamentResponse, ExportTrfRequest, ExportTrfResponse,
    GetServiceInfoRequest, GetTournamentRequest, ImportRatingListChunk, ImportRatingListResponse,
    ImportTrfRequest, ImportTrfResponse, ListPlayersRequest, ListPlayersResponse,
    ListTournamentsRequest, ListTournamentsResponse, LookupPlayersRequest, LookupPlayersResponse,
    Player, PlayerAdded, ProhibitPairingRequest, RequestByeRequest, ServiceInfo, Tournament,
    TournamentCreated, TournamentUpdated, TrfFinding, UpdateTournamentRequest,
    WithdrawPlayerRequest,
};
use arbiter_proto::v1::{
    AddTeamRequest, AddTeamResponse, ListTeamsRequest, ListTeamsResponse, SetTeamRosterRequest,
    SetTeamRulesRequest, SubmitLineupRequest, WithdrawTeamRequest,
};
use arbiter_proto::v1::{EntryRulesSet, SetEntryRulesRequest};
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::status::{from_log, invalid, not_found};
use arbiter_service_kit::telemetry::current_traceparent;
use arbiter_service_kit::{Platform, ServiceModule};
use prost::Message;
use tonic::{Request, Response, Status};

use projection::{TOURNAMENT_CREATED, TOURNAMENT_UPDATED, Tournaments, upcasters};
use roster::{Roster, RosterEvent};

/// Service name in events and NATS subjects.
pub const SERVICE: &str = "registry";

/// The registry gRPC service.
#[derive(Clone)]
pub struct Registry {
    platform: Platform,
    tournaments: Tournaments,
    directory: player_directory::Directory,
}

impl Registry {
    /// Starts the projection (rebuilt from the log) and returns the service.
    pub fn start(platform: &Platform) -> Registry {
        platform.mirror(
            SERVICE,
            &[
                "arbiter.v1.pairing.>",
                "arbiter.v1.results.>",
                "arbiter.v1.clock.AdjournmentReported",
            ],
        );
        Registry {
            tournaments: Tournaments::start(platform.store.clone()),
            platform: platform.clone(),
            directory: player_directory::Directory::in_memory(),
        }
    }

    /// Keeps the player directory's rating list under `path` (imports survive a
    /// restart) and restores the list stored there. Without it imports live in memory.
    pub fn with_player_directory(mut self, path: std::path::PathBuf) -> anyhow::Result<Registry> {
        let display = path.display().to_string();
        self.directory = player_directory::Directory::stored(path)
            .map_err(|e| anyhow::anyhow!("player directory {display}: {}", e.message))?;
        Ok(self)
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
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let t = self.tournaments.clone();
        Some(std::sync::Arc::new(move || t.position()))
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        // A whole TRF file travels in ImportTrf (up to trf::MAX_INPUT_BYTES); each RPC's
        // own limit is checked by the gate (ADR platform-010), this is the largest.
        routes.add_service(RegistryServiceServer::new(*self).max_decoding_message_size(
            arbiter_service_kit::limits::service_max_message_bytes("registry"),
        ));
    }
}

fn field(e: tournament::FieldError) -> Status {
    invalid(e.field, e.message)
}

use record_commands::ack;

impl Registry {
    fn context(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        edition: &str,
    ) -> CommandContext {
        CommandContext {
            command_id: meta.command_id.clone(),
            request_digest: meta.request_digest.clone(),
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

fn player_of(roster: &Roster, e: &roster::Entry) -> Player {
    Player {
        player_id: e.player_id.clone(),
        pairing_number: roster.pairing_number(&e.player_id),
        data: Some(e.data.clone()),
        joined_round: e.joined_round,
        withdrawn_from_round: e.withdrawn_from_round,
        byes: e
            .byes
            .iter()
            .map(|(round, kind)| ByeRequest {
                round: *round,
                kind: kind.clone(),
            })
            .collect(),
    }
}

fn finding(f: &trf::Finding) -> TrfFinding {
    TrfFinding {
        severity: match f.severity {
            trf::Severity::Info => "info",
            trf::Severity::Warning => "warning",
            trf::Severity::Error => "error",
        }
        .into(),
        line: u32::try_from(f.line).unwrap_or(u32::MAX),
        column: u32::try_from(f.column).unwrap_or(u32::MAX),
        record: f.record.clone(),
        message: f.message.clone(),
    }
}

/// At most this many findings are returned (the first ones, by line).
const MAX_FINDINGS: usize = 1000;

impl Registry {
    /// The tournament and its entries (NOT_FOUND naming `tournament_id`), once the
    /// projection has folded the whole log (the pairing and results services append to
    /// it too: a command is decided on the latest record).
    async fn load_latest(&self, id: &str) -> Result<(Tournament, Roster), Status> {
        record_commands::load_latest(&self.platform, &self.tournaments, id).await
    }

    /// A retried command id: the original acknowledgement, provided the id was used for
    /// the same kind of command (its first event is an `event_type`).
    async fn replayed(
        &self,
        meta: &arbiter_proto::v1::CommandMeta,
        event_type: &str,
    ) -> Result<Option<CommandAck>, Status> {
        record_commands::replayed(&self.platform, meta, &[event_type]).await
    }

    /// `AddPlayer` with `players` (or `dry_run`): the whole batch decided at once
    /// (`bulk_entry`), written by one append, or on a dry run only answered.
    async fn add_players(
        &self,
        actor: String,
        mut r: AddPlayerRequest,
    ) -> Result<AddPlayerResponse, Status> {
        if let Some(d) = r.data.take()
            && d != arbiter_proto::v1::PlayerData::default()
        {
            r.players.insert(0, d);
        }
        let limit = arbiter_service_kit::limits::MAX_PLAYERS;
        if r.players.len() > limit {
            return Err(invalid(
                "players",
                format!(
                    "{} players in one command, at most {limit} (the most a tournament holds)",
                    r.players.len()
                ),
            ));
        }
        let bulk = |index: usize, field: &str, message: &str| {
            invalid(&format!("players[{index}].{field}"), message)
        };
        let decide =
            |t: &Tournament, roster: &Roster, players: &[arbiter_proto::v1::PlayerData]| {
                let mut batch = Vec::with_capacity(players.len());
                for (i, d) in players.iter().enumerate() {
                    let data = self.filled_from_directory(d.clone()).map_err(|s| {
                        let m = s.message();
                        let (f, m) = m.split_once(": ").unwrap_or(("data", m));
                        bulk(i, f, m)
                    })?;
                    batch.push((uuid::Uuid::now_v7().to_string(), data));
                }
                bulk_entry::decide_add_players(roster, t.rounds, batch, &r.missed_rounds)
                    .map_err(|e| bulk(e.index, e.error.field, &e.error.message))
            };
        let added_ids = |events: &[RosterEvent]| -> Vec<String> {
            events
                .iter()
                .filter_map(|e| match e {
                    RosterEvent::PlayerAdded(p) => Some(p.player_id.clone()),
                    _ => None,
                })
                .collect()
        };
        let answer = |roster: &Roster, ids: &[String], ack: Option<CommandAck>| {
            let players: Vec<Player> = ids
                .iter()
                .filter_map(|id| roster.entry(id).map(|e| player_of(roster, e)))
                .collect();
            let warnings =
                bulk_entry::entry_warnings(players.iter().filter_map(|p| p.data.as_ref()));
            AddPlayerResponse {
                ack,
                player: players.first().cloned(),
                players,
                warnings,
            }
        };
        if r.dry_run {
            let (t, roster) = self.load_latest(&r.tournament_id).await?;
            let events = decide(&t, &roster, &r.players)?;
            let ids = added_ids(&events);
            let mut next = roster;
            for e in events {
                next.apply(e);
            }
            return Ok(answer(&next, &ids, None));
        }
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "AddPlayer", &r, r.meta.clone())
            .await?;
        let (a, ids) = if let Some(a) = self.replayed(&meta, roster::types::PLAYER_ADDED).await? {
            let mut ids = Vec::new();
            for position in a.first_position..=a.last_position {
                let Some(e) = self
                    .platform
                    .store
                    .read_at(position)
                    .await
                    .map_err(from_log)?
                else {
                    continue;
                };
                if e.event_type == roster::types::PLAYER_ADDED {
                    let p = PlayerAdded::decode(e.payload.as_slice())
                        .map_err(|e| Status::internal(e.to_string()))?;
                    ids.push(p.player_id);
                }
            }
            (a, ids)
        } else {
            let (t, roster) = self.load_latest(&r.tournament_id).await?;
            let events = decide(&t, &roster, &r.players)?;
            let ids = added_ids(&events);
            (self.append_roster(actor, &meta, &t, events).await?, ids)
        };
        let tid = a.stream.trim_start_matches("tournament-").to_owned();
        let roster = self.tournaments.roster(&tid).unwrap_or_default();
        Ok(answer(&roster, &ids, Some(a)))
    }

    /// Appends roster events decided against `t` (at `t.version` unless the client gave
    /// an expected version) and waits for the projection.
    async fn append_roster(
        &self,
        actor: String,
        meta: &arbiter_proto::v1::CommandMeta,
        t: &Tournament,
        events: Vec<RosterEvent>,
    ) -> Result<CommandAck, Status> {
        record_commands::append(
            &self.platform,
            &self.tournaments,
            SERVICE,
            actor,
            meta,
            &t.rule_edition,
            tournament::stream_of(&t.tournament_id),
            Some(meta.expected_version.unwrap_or(t.version)),
            &events,
        )
        .await
    }

    /// Common path of the roster commands: auth, meta, retry, decide, append.
    async fn roster_command<R: prost::Message>(
        &self,
        request: Request<R>,
        rpc: &str,
        tournament_id: impl Fn(&R) -> String,
        decide: impl FnOnce(
            &Tournament,
            &Roster,
            &R,
            &str,
        ) -> Result<Vec<RosterEvent>, tournament::FieldError>,
        meta_of: impl Fn(&R) -> Option<arbiter_proto::v1::CommandMeta>,
    ) -> Result<CommandAck, Status> {
        let tid = tournament_id(request.get_ref());
        let actor = self
            .platform
            .auth
            .actor(&request, rpc, Scope::Tournament(&tid))?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, rpc, &r, meta_of(&r))
            .await?;
        let event_type = match rpc {
            "CorrectPlayer" => roster::types::PLAYER_CORRECTED,
            "WithdrawPlayer" => roster::types::PLAYER_WITHDRAWN,
            "RequestBye" => roster::types::BYE_REQUESTED,
            "ProhibitPairing" => roster::types::PAIRING_PROHIBITED,
            "SetTournamentSettings" => roster::types::TOURNAMENT_SETTINGS_SET,
            "SetTeamRules" => teams::types::TEAM_RULES_SET,
            "SetTeamRoster" => teams::types::TEAM_ROSTER_SET,
            "WithdrawTeam" => teams::types::TEAM_WITHDRAWN,
            _ => roster::types::ENTRY_RULES_SET,
        };
        if let Some(a) = self.replayed(&meta, event_type).await? {
            return Ok(a);
        }
        let (t, roster) = self.load_latest(&tournament_id(&r)).await?;
        let events = decide(&t, &roster, &r, &meta.reason).map_err(field)?;
        self.append_roster(actor, &meta, &t, events).await
    }
}

#[tonic::async_trait]
impl RegistryService for Registry {
    async fn create_tournament(
        &self,
        request: Request<CreateTournamentRequest>,
    ) -> Result<Response<CreateTournamentResponse>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "CreateTournament", Scope::Global)?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "CreateTournament", &r, r.meta.clone())
            .await?;
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
        tournament::check_reason(&meta.reason).map_err(field)?;
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
                chief_arbiter: r.chief_arbiter,
                deputy_arbiters: r.deputy_arbiters,
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
        let actor = self.platform.auth.actor(
            &request,
            "UpdateTournament",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "UpdateTournament", &r, r.meta.clone())
            .await?;
        let current = self.tournaments.get(&r.tournament_id).ok_or_else(|| {
            not_found(
                "tournament_id",
                format!("no tournament {:?}", r.tournament_id),
            )
        })?;
        tournament::check_reason(&meta.reason).map_err(field)?;
        // Decided on the latest record (the rounds paired come from the pairing service).
        let (current, roster) = self.load_latest(&current.tournament_id).await?;
        let update = tournament::decide_update(
            &current,
            roster.paired_rounds,
            TournamentUpdated {
                name: r.name,
                place: r.place,
                federation: r.federation,
                start_date: r.start_date,
                end_date: r.end_date,
                rounds: r.rounds,
                time_control: r.time_control,
                chief_arbiter: r.chief_arbiter,
                deputy_arbiters: r.deputy_arbiters,
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
        self.platform.auth.authorize(
            &request,
            "GetTournament",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
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
        request: Request<ListTournamentsRequest>,
    ) -> Result<Response<ListTournamentsResponse>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "ListTournaments", Scope::Global)?;
        // A principal with roles on some tournaments only lists those (and the public
        // ones): a results helper of one open does not learn of every other.
        let access = self.platform.auth.access();
        let r = request.into_inner();
        let after = tournament_pages::parse_token(&r.page_token).map_err(field)?;
        let (tournaments, next_page_token) =
            self.tournaments
                .list_page(after, tournament_pages::page_size(r.page_size), |t| {
                    caller.sees(&t.tournament_id) || access.is_public(&t.tournament_id)
                });
        Ok(Response::new(ListTournamentsResponse {
            tournaments,
            next_page_token,
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
            rule_editions: Vec::new(),
            projected_position: self.tournaments.position(),
            ..arbiter_service_kit::host::integrity_info(&self.platform)
        }))
    }

    async fn add_player(
        &self,
        request: Request<AddPlayerRequest>,
    ) -> Result<Response<AddPlayerResponse>, Status> {
        let actor = self.platform.auth.actor(
            &request,
            "AddPlayer",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        if !r.players.is_empty() || r.dry_run {
            return self.add_players(actor, r).await.map(Response::new);
        }
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "AddPlayer", &r, r.meta.clone())
            .await?;
        let (a, player_id) = if let Some(a) =
            self.replayed(&meta, roster::types::PLAYER_ADDED).await?
        {
            let first = self
                .platform
                .store
                .read_at(a.first_position)
                .await
                .map_err(from_log)?
                .ok_or_else(|| Status::internal("replayed command has no event"))?;
            let p = PlayerAdded::decode(first.payload.as_slice())
                .map_err(|e| Status::internal(e.to_string()))?;
            (a, p.player_id)
        } else {
            let (t, roster) = self.load_latest(&r.tournament_id).await?;
            let id = uuid::Uuid::now_v7().to_string();
            let data = self.filled_from_directory(r.data.unwrap_or_default())?;
            let events = roster::decide_add_player(&roster, t.rounds, &id, data, &r.missed_rounds)
                .map_err(field)?;
            (self.append_roster(actor, &meta, &t, events).await?, id)
        };
        let tid = a.stream.trim_start_matches("tournament-").to_owned();
        let roster = self.tournaments.roster(&tid).unwrap_or_default();
        let player = roster.entry(&player_id).map(|e| player_of(&roster, e));
        let warnings = bulk_entry::entry_warnings(player.iter().filter_map(|p| p.data.as_ref()));
        Ok(Response::new(AddPlayerResponse {
            ack: Some(a),
            players: player.iter().cloned().collect(),
            player,
            warnings,
        }))
    }

    async fn correct_player(
        &self,
        request: Request<CorrectPlayerRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "CorrectPlayer",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "CorrectPlayer",
            |r| r.tournament_id.clone(),
            |_, roster, r, reason| {
                roster::decide_correct_player(
                    roster,
                    &r.player,
                    r.data.clone().unwrap_or_default(),
                    reason,
                )
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn withdraw_player(
        &self,
        request: Request<WithdrawPlayerRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "WithdrawPlayer",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "WithdrawPlayer",
            |r| r.tournament_id.clone(),
            |t, roster, r, _| {
                roster::decide_withdraw(roster, total_rounds(t, roster), &r.player, r.from_round)
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn request_bye(
        &self,
        request: Request<RequestByeRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "RequestBye",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "RequestBye",
            |r| r.tournament_id.clone(),
            |t, roster, r, _| {
                roster::decide_bye(roster, total_rounds(t, roster), &r.player, r.round, &r.kind)
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn prohibit_pairing(
        &self,
        request: Request<ProhibitPairingRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "ProhibitPairing",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "ProhibitPairing",
            |r| r.tournament_id.clone(),
            |t, roster, r, _| {
                roster::decide_prohibit(
                    roster,
                    total_rounds(t, roster),
                    &r.players,
                    r.first_round,
                    r.last_round,
                )
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn set_tournament_settings(
        &self,
        request: Request<arbiter_proto::v1::SetTournamentSettingsRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "SetTournamentSettings",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "SetTournamentSettings",
            |r| r.tournament_id.clone(),
            |_, roster, r, _| {
                tournament_settings::decide_settings(
                    &roster.settings,
                    roster.paired_rounds,
                    arbiter_proto::v1::TournamentSettingsSet {
                        scoring: r.scoring.clone(),
                        acceleration: r.acceleration.clone(),
                        tiebreaks: r.tiebreaks.clone(),
                        rating_list_date: r.rating_list_date.clone(),
                        knockout_games: r.knockout_games,
                        knockout_tie_breaks: r.knockout_tie_breaks.clone(),
                    },
                )
                .map(|e| vec![RosterEvent::TournamentSettingsSet(e)])
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn set_entry_rules(
        &self,
        request: Request<SetEntryRulesRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "SetEntryRules",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "SetEntryRules",
            |r| r.tournament_id.clone(),
            |_, roster, r, _| {
                roster::decide_entry_rules(
                    roster,
                    EntryRulesSet {
                        full_point_byes_allowed: r.full_point_byes_allowed,
                        late_entry_byes: r.late_entry_byes.clone(),
                        announced_criterion: r.announced_criterion.clone(),
                        rating: r.rating.clone(),
                    },
                )
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn set_team_rules(
        &self,
        request: Request<SetTeamRulesRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "SetTeamRules",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let mut deadlines = Vec::with_capacity(request.get_ref().deadlines.len().min(100));
        for d in request
            .get_ref()
            .deadlines
            .iter()
            .take(roster::MAX_ROUND as usize + 1)
        {
            let micros = if d.deadline.trim().is_empty() {
                0
            } else {
                teams::parse_deadline(&d.deadline).map_err(field)?
            };
            deadlines.push((d.round, micros));
        }
        if request.get_ref().deadlines.len() > deadlines.len() {
            deadlines.push((0, 0)); // refused by the guard with the count
        }
        self.roster_command(
            request,
            "SetTeamRules",
            |r| r.tournament_id.clone(),
            |t, roster, r, _| {
                teams::decide_team_rules(
                    &t.pairing_system,
                    total_rounds(t, roster),
                    roster.paired_rounds,
                    &roster.teams,
                    r.boards,
                    &deadlines,
                    teams::SwissTeamOptions {
                        colour_preferences: &r.colour_preferences,
                        primary_score: &r.primary_score,
                    },
                )
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn add_team(
        &self,
        request: Request<AddTeamRequest>,
    ) -> Result<Response<AddTeamResponse>, Status> {
        Registry::add_team(self, request).await.map(Response::new)
    }

    async fn set_team_roster(
        &self,
        request: Request<SetTeamRosterRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "SetTeamRoster",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "SetTeamRoster",
            |r| r.tournament_id.clone(),
            |_, roster, r, _| teams::decide_roster(roster, &r.team, &r.players),
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn submit_lineup(
        &self,
        request: Request<SubmitLineupRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        Registry::submit_lineup(self, request)
            .await
            .map(Response::new)
    }

    async fn withdraw_team(
        &self,
        request: Request<WithdrawTeamRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        self.platform.auth.authorize(
            &request,
            "WithdrawTeam",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        self.roster_command(
            request,
            "WithdrawTeam",
            |r| r.tournament_id.clone(),
            |t, roster, r, _| {
                teams::decide_withdraw_team(
                    &roster.teams,
                    total_rounds(t, roster),
                    &r.team,
                    r.from_round,
                )
            },
            |r| r.meta.clone(),
        )
        .await
        .map(Response::new)
    }

    async fn list_teams(
        &self,
        request: Request<ListTeamsRequest>,
    ) -> Result<Response<ListTeamsResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "ListTeams",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let (_, roster) = self
            .load_latest(&request.into_inner().tournament_id)
            .await?;
        Ok(Response::new(team_commands::list(&roster)))
    }

    async fn list_players(
        &self,
        request: Request<ListPlayersRequest>,
    ) -> Result<Response<ListPlayersResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "ListPlayers",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let (_, roster) = self
            .load_latest(&request.into_inner().tournament_id)
            .await?;
        let players = roster
            .order
            .iter()
            .filter_map(|id| roster.entry(id))
            .map(|e| player_of(&roster, e))
            .collect();
        Ok(Response::new(ListPlayersResponse { players }))
    }

    async fn import_trf(
        &self,
        request: Request<ImportTrfRequest>,
    ) -> Result<Response<ImportTrfResponse>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "ImportTrf", Scope::Global)?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "ImportTrf", &r, r.meta.clone())
            .await?;
        if let Some(v) = meta.expected_version
            && v != 0
        {
            return Err(invalid(
                "meta.expected_version",
                format!("a new tournament's stream is at version 0, not {v}"),
            ));
        }
        if let Some(a) = self.replayed(&meta, TOURNAMENT_CREATED).await? {
            let id = a.stream.trim_start_matches("tournament-").to_owned();
            let t = self.tournament_after(&id, a.last_position).await?;
            return Ok(Response::new(ImportTrfResponse {
                ack: Some(a),
                tournament: Some(t),
                findings: Vec::new(),
            }));
        }
        tournament::check_reason(&meta.reason).map_err(field)?;
        if !r.name.trim().is_empty() {
            tournament::check_free_text(
                "name",
                &r.name,
                arbiter_service_kit::limits::MAX_TOURNAMENT_NAME_CHARS,
            )
            .map_err(field)?;
        }
        let players_only;
        let input: &[u8] = if r.players_only {
            players_only = trf_import::players_only(&r.trf).map_err(|f| {
                invalid(
                    "trf",
                    format!(
                        "the file cannot be imported: {}; nothing was written",
                        f.first().map(ToString::to_string).unwrap_or_default()
                    ),
                )
            })?;
            &players_only
        } else {
            &r.trf
        };
        let plan =
            trf_import::plan_import(input, &r.name, &mut || uuid::Uuid::now_v7().to_string())
                .map_err(|findings| {
                    let shown: Vec<String> =
                        findings.iter().take(20).map(ToString::to_string).collect();
                    let more = findings.len().saturating_sub(shown.len());
                    invalid(
                        "trf",
                        format!(
                            "the file cannot be imported: {} error(s); nothing was written:\n{}{}",
                            findings.len(),
                            shown.join("\n"),
                            if more > 0 {
                                format!("\n… and {more} more")
                            } else {
                                String::new()
                            }
                        ),
                    )
                })?;
        let mut findings = plan.findings;
        let id = uuid::Uuid::now_v7().to_string();
        let mut draft = plan.draft;
        // Header values the registry cannot take are dropped (still exported verbatim).
        let created = loop {
            match tournament::decide_create(&id, draft.clone()) {
                Ok(c) => break c,
                Err(e) => {
                    findings.push(trf::Finding::new(
                        trf::Severity::Warning,
                        0,
                        0,
                        "",
                        format!("tournament {}: {}; left empty", e.field, e.message),
                    ));
                    match e.field {
                        "name" => draft.name = "Imported tournament".into(),
                        "federation" => draft.federation.clear(),
                        "start_date" | "end_date" => {
                            draft.start_date.clear();
                            draft.end_date.clear();
                        }
                        "rounds" => draft.rounds = 0,
                        "chief_arbiter" => draft.chief_arbiter.clear(),
                        "deputy_arbiters" => draft.deputy_arbiters.clear(),
                        "pairing_system" | "rule_edition" => {
                            draft.pairing_system.clear();
                            draft.rule_edition.clear();
                        }
                        _ => return Err(field(e)),
                    }
                }
            }
        };
        // The same file, or the same tournament, again: only when asked for (as_new).
        let head = self
            .platform
            .store
            .head_position()
            .await
            .map_err(from_log)?;
        if !self.tournaments.caught_up(head).await {
            return Err(Status::unavailable(
                "registry projection is behind the log; retry",
            ));
        }
        trf_import::check_duplicate(
            &self.tournaments.import_keys(),
            &created.name,
            &created.start_date,
            &created.end_date,
            &plan.sha256,
            r.as_new,
        )
        .map_err(field)?;
        let stream = tournament::stream_of(&id);
        let ctx = self.context(actor, &meta, &created.rule_edition);
        let mut events = vec![NewEvent {
            event_type: TOURNAMENT_CREATED.into(),
            schema_version: upcasters().current_version(TOURNAMENT_CREATED),
            payload: created.encode_to_vec(),
        }];
        events.extend(plan.events.iter().map(|e| {
            let (event_type, payload) = e.encode();
            NewEvent {
                event_type: event_type.into(),
                schema_version: 1,
                payload,
            }
        }));
        let a = self
            .platform
            .store
            .append(AppendRequest {
                stream: stream.clone(),
                expected_version: Some(0),
                events,
                context: ctx,
            })
            .await
            .map_err(from_log)?;
        let t = self.tournament_after(&id, a.last_position).await?;
        tracing::info!(tournament_id = %id, players = t.players, rounds = t.paired_rounds, "TRF imported");
        Ok(Response::new(ImportTrfResponse {
            ack: Some(ack(stream, a)),
            tournament: Some(t),
            findings: findings.iter().take(MAX_FINDINGS).map(finding).collect(),
        }))
    }

    async fn import_rating_list(
        &self,
        request: Request<tonic::Streaming<ImportRatingListChunk>>,
    ) -> Result<Response<ImportRatingListResponse>, Status> {
        let actor = self
            .platform
            .auth
            .actor(&request, "ImportRatingList", Scope::Global)?;
        let mut stream = request.into_inner();
        let first = stream
            .message()
            .await?
            .ok_or_else(|| invalid("data", "no chunk received: the list is empty"))?;
        let kind =
            player_directory::rating_kind(&first.plain_rating_kind).map_err(directory_status)?;
        let file_name = first.file_name.clone();
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, String>>(8);
        let directory = self.directory.clone();
        let (name, who) = (file_name.clone(), actor.clone());
        let parse =
            tokio::task::spawn_blocking(move || directory.import_blocking(rx, kind, &name, &who));
        let mut aborted = None;
        if tx.send(Ok(first.data)).await.is_ok() {
            loop {
                match stream.message().await {
                    Ok(Some(chunk)) => {
                        if tx.send(Ok(chunk.data)).await.is_err() {
                            break; // the parser stopped (its error is the answer)
                        }
                    }
                    Ok(None) => break,
                    Err(status) => {
                        let _ = tx
                            .send(Err(format!("upload interrupted: {}", status.message())))
                            .await;
                        aborted = Some(status);
                        break;
                    }
                }
            }
        }
        drop(tx);
        let result = parse
            .await
            .map_err(|e| Status::internal(format!("rating list import task: {e}")))?;
        if let Some(status) = aborted {
            return Err(status);
        }
        let response = result.map_err(directory_status)?;
        tracing::info!(
            players = response.players_loaded,
            errors = response.error_count,
            sha256 = %response.sha256,
            file_name = %file_name,
            "player directory imported"
        );
        Ok(Response::new(response))
    }

    async fn lookup_players(
        &self,
        request: Request<LookupPlayersRequest>,
    ) -> Result<Response<LookupPlayersResponse>, Status> {
        self.platform
            .auth
            .authorize(&request, "LookupPlayers", Scope::Global)?;
        let r = request.into_inner();
        let Some(loaded) = self.directory.current() else {
            return Err(Status::failed_precondition(
                "no player directory: import a FIDE rating list first (arbiter ratinglist import FILE)",
            ));
        };
        let players = player_directory::lookup(&loaded.directory, &r.query, r.limit)
            .map_err(directory_status)?;
        Ok(Response::new(LookupPlayersResponse {
            players,
            directory_size: loaded.directory.len() as u64,
            sha256: loaded.sha256.clone(),
        }))
    }

    async fn export_trf(
        &self,
        request: Request<ExportTrfRequest>,
    ) -> Result<Response<ExportTrfResponse>, Status> {
        self.platform.auth.authorize(
            &request,
            "ExportTrf",
            Scope::Tournament(&request.get_ref().tournament_id),
        )?;
        let r = request.into_inner();
        let (t, roster) = self.load_latest(&r.tournament_id).await?;
        let options = trf_export::ExportOptions {
            round: r.round,
            version: trf_export::version(&r.format).map_err(field)?,
            engine_lines: r.engine_lines,
        };
        // C.04.2 3.1: an adjourned game whose result is pending is a draw for pairing, in
        // the export as in the engine's input (ADR results-002)
        let (text, round) =
            trf_export::export(&t, &roster.for_pairing(), &options).map_err(field)?;
        Ok(Response::new(ExportTrfResponse { trf: text, round }))
    }
}

impl Registry {
    /// A player given by FIDE ID: the empty fields come from the player directory
    /// (explicit fields win). Without a name, the ID must be in the directory.
    fn filled_from_directory(
        &self,
        mut data: arbiter_proto::v1::PlayerData,
    ) -> Result<arbiter_proto::v1::PlayerData, Status> {
        if data.fide_id == 0 {
            return Ok(data);
        }
        let current = self.directory.current();
        let found = current.as_ref().and_then(|l| {
            u32::try_from(data.fide_id)
                .ok()
                .and_then(|id| l.directory.by_id(id))
                .map(|p| player_directory::player_data(&p))
        });
        match found {
            Some(from) => player_directory::fill(&mut data, &from),
            None if data.name.trim().is_empty() => {
                return Err(invalid(
                    "data.fide_id",
                    match current {
                        Some(l) => format!(
                            "{} is not in the player directory ({} players); give data.name",
                            data.fide_id,
                            l.directory.len()
                        ),
                        None => format!(
                            "{}: no rating list imported to fill the player from (arbiter ratinglist import FILE); give data.name",
                            data.fide_id
                        ),
                    },
                ));
            }
            None => {}
        }
        Ok(data)
    }
}

fn directory_status(e: player_directory::ImportError) -> Status {
    invalid(e.field, e.message)
}

/// Rounds of the tournament: the TRF's count for imports, else the tournament's.
fn total_rounds(t: &Tournament, roster: &Roster) -> u32 {
    roster
        .trf
        .as_ref()
        .map(|i| i.total_rounds)
        .filter(|r| *r > 0)
        .unwrap_or(t.rounds)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_whole_trf_file_fits_the_message_limit_of_its_rpcs() {
        use arbiter_service_kit::limits::max_message_bytes;
        for rpc in ["ImportTrf", "SubmitExternalTournament"] {
            assert!(
                max_message_bytes(rpc) >= trf::MAX_INPUT_BYTES + 1024,
                "{rpc}"
            );
        }
    }
}
