//! The services a standalone host does not run, reached over gRPC (ADR http-010): the
//! HTTP listener of a host answers from the service implementations it holds, and
//! [`Remote`] is such an implementation that forwards each call, with the caller's
//! metadata (its bearer token), to the host that runs the service. The service there
//! decides access by the one access table, exactly as in process.
use arbiter_proto::v1 as pb;
use arbiter_proto::v1::pairing_service_client::PairingServiceClient;
use arbiter_proto::v1::pairing_service_server::PairingService;
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::registry_service_server::RegistryService;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::results_service_server::ResultsService;
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

/// Most bytes of one answer read from a peer (a 20,000-player pairing, standings or
/// TRF export fits).
pub const MAX_PEER_ANSWER_BYTES: usize = 64 << 20;

/// A service at another host: its address (for the errors) and a channel to it, or the
/// flag that would name it when none was given.
#[derive(Clone)]
pub struct Remote {
    service: &'static str,
    target: Result<(String, Channel), &'static str>,
}

impl Remote {
    /// The `service` at `url` (the channel connects on first use and reconnects).
    pub fn at(service: &'static str, url: String, channel: Channel) -> Remote {
        Remote {
            service,
            target: Ok((url, channel)),
        }
    }

    /// No host given for `service` (`flag` is the option that gives one): every call
    /// answers `FAILED_PRECONDITION` naming it.
    pub fn absent(service: &'static str, flag: &'static str) -> Remote {
        Remote {
            service,
            target: Err(flag),
        }
    }

    fn channel(&self) -> Result<Channel, Status> {
        match &self.target {
            Ok((_, c)) => Ok(c.clone()),
            Err(flag) => Err(Status::failed_precondition(format!(
                "this host does not run the {} service and was not told where it runs (give {flag})",
                self.service
            ))),
        }
    }

    /// A peer that cannot be reached is `UNAVAILABLE` naming it (retryable).
    fn peer(&self, s: Status) -> Status {
        match (&self.target, s.code()) {
            (Ok((url, _)), tonic::Code::Unavailable) => Status::unavailable(format!(
                "the {} service at {url} is unreachable: {}",
                self.service,
                s.message()
            )),
            _ => s,
        }
    }
}

macro_rules! forward {
    ($trait:ident, $client:ident, { $($method:ident($req:ident) -> $resp:ident;)* } $($extra:item)*) => {
        #[tonic::async_trait]
        impl $trait for Remote {
            $(
                async fn $method(&self, request: Request<pb::$req>) -> Result<Response<pb::$resp>, Status> {
                    let mut c = $client::new(self.channel()?)
                        .max_decoding_message_size(MAX_PEER_ANSWER_BYTES)
                        .max_encoding_message_size(MAX_PEER_ANSWER_BYTES);
                    c.$method(request).await.map_err(|s| self.peer(s))
                }
            )*
            $($extra)*
        }
    };
}

forward!(RegistryService, RegistryServiceClient, {
        create_tournament(CreateTournamentRequest) -> CreateTournamentResponse;
        update_tournament(UpdateTournamentRequest) -> CommandAck;
        get_tournament(GetTournamentRequest) -> Tournament;
        list_tournaments(ListTournamentsRequest) -> ListTournamentsResponse;
        get_service_info(GetServiceInfoRequest) -> ServiceInfo;
        add_player(AddPlayerRequest) -> AddPlayerResponse;
        correct_player(CorrectPlayerRequest) -> CommandAck;
        withdraw_player(WithdrawPlayerRequest) -> CommandAck;
        request_bye(RequestByeRequest) -> CommandAck;
        prohibit_pairing(ProhibitPairingRequest) -> CommandAck;
        list_players(ListPlayersRequest) -> ListPlayersResponse;
        set_entry_rules(SetEntryRulesRequest) -> CommandAck;
        set_tournament_settings(SetTournamentSettingsRequest) -> CommandAck;
        import_trf(ImportTrfRequest) -> ImportTrfResponse;
        export_trf(ExportTrfRequest) -> ExportTrfResponse;
        lookup_players(LookupPlayersRequest) -> LookupPlayersResponse;
        set_team_rules(SetTeamRulesRequest) -> CommandAck;
        add_team(AddTeamRequest) -> AddTeamResponse;
        set_team_roster(SetTeamRosterRequest) -> CommandAck;
        submit_lineup(SubmitLineupRequest) -> CommandAck;
        withdraw_team(WithdrawTeamRequest) -> CommandAck;
        list_teams(ListTeamsRequest) -> ListTeamsResponse;
}
    async fn import_rating_list(
        &self,
        _request: Request<tonic::Streaming<pb::ImportRatingListChunk>>,
    ) -> Result<Response<pb::ImportRatingListResponse>, Status> {
        Err(Status::unimplemented(
            "ImportRatingList is not forwarded: send it to the registry's host",
        ))
    }
);

forward!(PairingService, PairingServiceClient, {
        get_service_info(GetServiceInfoRequest) -> ServiceInfo;
        pair_round(PairRoundRequest) -> PairingResponse;
        repair_round(PairRoundRequest) -> PairingResponse;
        set_pairings(SetPairingsRequest) -> PairingResponse;
        publish_pairings(PublishPairingsRequest) -> PairingResponse;
        discard_pairing(DiscardPairingRequest) -> PairingResponse;
        unpublish_pairings(UnpublishPairingsRequest) -> PairingResponse;
        get_pairings(GetPairingsRequest) -> RoundPairingView;
        explain_pairing(GetPairingsRequest) -> ExplainPairingResponse;
});

forward!(ResultsService, ResultsServiceClient, {
        get_service_info(GetServiceInfoRequest) -> ServiceInfo;
        record_result(RecordResultRequest) -> ResultAck;
        correct_result(CorrectResultRequest) -> CorrectResultResponse;
        record_bye(RecordByeRequest) -> ResultAck;
        close_round(CloseRoundRequest) -> ResultAck;
        get_round_results(GetRoundResultsRequest) -> RoundResults;
        get_standings(GetStandingsRequest) -> Standings;
        get_correction_impact(GetCorrectionImpactRequest) -> CorrectionImpact;
        get_history(GetHistoryRequest) -> History;
        verify_log(VerifyLogRequest) -> VerifyLogResponse;
        export_audit(ExportAuditRequest) -> ExportAuditResponse;
});

/// `GetClockState` of the clock-telemetry service at another host.
pub fn clock_states(remote: Remote) -> crate::server::ClockStates {
    std::sync::Arc::new(move |req| {
        let remote = remote.clone();
        Box::pin(async move {
            let mut c = pb::clock_service_client::ClockServiceClient::new(remote.channel()?);
            c.get_clock_state(req)
                .await
                .map(Response::into_inner)
                .map_err(|s| remote.peer(s))
        })
    })
}
