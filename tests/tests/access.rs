//! Issue 40: every RPC called with every role, and with none, on the tournament of the
//! grant and on another, against the one table (`access::roles::RULES`, which also
//! renders ARCHITECTURE.md's table); then the whole flow through the CLI.
use arbiter_proto::v1::access_service_client::AccessServiceClient;
use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::pairing_service_client::PairingServiceClient;
use arbiter_proto::v1::rating_service_client::RatingServiceClient;
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::webhook_service_client::WebhookServiceClient;
use arbiter_proto::v1::*;
use arbiter_service_kit::access::roles::{Anonymous, RULES, Role, ScopeKind};
use arbiter_tests::{Arbiter, output_text, start_arbiterd};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

fn req<T>(body: T, token: Option<&str>) -> Request<T> {
    let mut r = Request::new(body);
    if let Some(t) = token {
        r.metadata_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    r
}

/// Calls `rpc` about tournament `t` (requests without command metadata: a write that
/// passes the access check is refused by validation and writes nothing).
async fn call(ch: &Channel, rpc: &str, t: &str, token: Option<&str>) -> Vec<Result<(), Status>> {
    let t = t.to_owned();
    let mut reg = RegistryServiceClient::new(ch.clone());
    let mut pair = PairingServiceClient::new(ch.clone());
    let mut res = ResultsServiceClient::new(ch.clone());
    let mut rat = RatingServiceClient::new(ch.clone());
    let mut clk = ClockServiceClient::new(ch.clone());
    let mut acc = AccessServiceClient::new(ch.clone());
    let mut hooks = WebhookServiceClient::new(ch.clone());
    macro_rules! c {
        ($client:ident . $m:ident ( $body:expr )) => {
            vec![$client.$m(req($body, token)).await.map(|_| ())]
        };
    }
    macro_rules! tr {
        ($ty:ident) => {
            #[allow(clippy::needless_update)]
            $ty {
                tournament_id: t.clone(),
                ..Default::default()
            }
        };
    }
    match rpc {
        "GetServiceInfo" => vec![
            reg.get_service_info(req(GetServiceInfoRequest {}, token))
                .await
                .map(|_| ()),
            pair.get_service_info(req(GetServiceInfoRequest {}, token))
                .await
                .map(|_| ()),
            res.get_service_info(req(GetServiceInfoRequest {}, token))
                .await
                .map(|_| ()),
            rat.get_service_info(req(GetServiceInfoRequest {}, token))
                .await
                .map(|_| ()),
            clk.get_service_info(req(GetServiceInfoRequest {}, token))
                .await
                .map(|_| ()),
        ],
        "CreateTournament" => c!(reg.create_tournament(CreateTournamentRequest::default())),
        "UpdateTournament" => c!(reg.update_tournament(tr!(UpdateTournamentRequest))),
        "GetTournament" => c!(reg.get_tournament(tr!(GetTournamentRequest))),
        "ListTournaments" => c!(reg.list_tournaments(ListTournamentsRequest::default())),
        "AddPlayer" => c!(reg.add_player(tr!(AddPlayerRequest))),
        "CorrectPlayer" => c!(reg.correct_player(tr!(CorrectPlayerRequest))),
        "WithdrawPlayer" => c!(reg.withdraw_player(tr!(WithdrawPlayerRequest))),
        "RequestBye" => c!(reg.request_bye(tr!(RequestByeRequest))),
        "ProhibitPairing" => c!(reg.prohibit_pairing(tr!(ProhibitPairingRequest))),
        "ListPlayers" => c!(reg.list_players(tr!(ListPlayersRequest))),
        "SetTeamRules" => c!(reg.set_team_rules(tr!(SetTeamRulesRequest))),
        "AddTeam" => c!(reg.add_team(tr!(AddTeamRequest))),
        "SetTeamRoster" => c!(reg.set_team_roster(tr!(SetTeamRosterRequest))),
        "SubmitLineup" => c!(reg.submit_lineup(tr!(SubmitLineupRequest))),
        "WithdrawTeam" => c!(reg.withdraw_team(tr!(WithdrawTeamRequest))),
        "ListTeams" => c!(reg.list_teams(tr!(ListTeamsRequest))),
        "SetEntryRules" => c!(reg.set_entry_rules(tr!(SetEntryRulesRequest))),
        "SetTournamentSettings" => {
            c!(reg.set_tournament_settings(tr!(SetTournamentSettingsRequest)))
        }
        "ImportTrf" => c!(reg.import_trf(ImportTrfRequest::default())),
        "ExportTrf" => c!(reg.export_trf(tr!(ExportTrfRequest))),
        "ImportRatingList" => {
            let body = futures::stream::iter(Vec::<ImportRatingListChunk>::new());
            vec![reg.import_rating_list(req(body, token)).await.map(|_| ())]
        }
        "LookupPlayers" => c!(reg.lookup_players(LookupPlayersRequest::default())),
        "PairRound" => c!(pair.pair_round(tr!(PairRoundRequest))),
        "RepairRound" => c!(pair.repair_round(tr!(PairRoundRequest))),
        "SetPairings" => c!(pair.set_pairings(tr!(SetPairingsRequest))),
        "PublishPairings" => c!(pair.publish_pairings(tr!(PublishPairingsRequest))),
        "DiscardPairing" => c!(pair.discard_pairing(tr!(DiscardPairingRequest))),
        "UnpublishPairings" => c!(pair.unpublish_pairings(tr!(UnpublishPairingsRequest))),
        "GetPairings" => c!(pair.get_pairings(tr!(GetPairingsRequest))),
        "ExplainPairing" => c!(pair.explain_pairing(tr!(GetPairingsRequest))),
        "RecordResult" => c!(res.record_result(tr!(RecordResultRequest))),
        "CorrectResult" => c!(res.correct_result(tr!(CorrectResultRequest))),
        "RecordBye" => c!(res.record_bye(tr!(RecordByeRequest))),
        "CloseRound" => c!(res.close_round(tr!(CloseRoundRequest))),
        "GetRoundResults" => c!(res.get_round_results(tr!(GetRoundResultsRequest))),
        "GetStandings" => c!(res.get_standings(tr!(GetStandingsRequest))),
        "GetCorrectionImpact" => c!(res.get_correction_impact(tr!(GetCorrectionImpactRequest))),
        "GetHistory" => c!(res.get_history(tr!(GetHistoryRequest))),
        "VerifyLog" => c!(res.verify_log(tr!(VerifyLogRequest))),
        "ExportAudit" => c!(res.export_audit(tr!(ExportAuditRequest))),
        "ImportStartingList" => c!(rat.import_starting_list(ImportStartingListRequest::default())),
        "SubmitExternalTournament" => {
            c!(rat.submit_external_tournament(SubmitExternalTournamentRequest::default()))
        }
        "SubmitTournament" => c!(rat.submit_tournament(tr!(SubmitTournamentRequest))),
        "RunPeriod" => c!(rat.run_period(RunRatingPeriodRequest::default())),
        "PublishPeriod" => c!(rat.publish_period(PublishRatingPeriodRequest::default())),
        "GetPeriod" => c!(rat.get_period(GetRatingPeriodRequest::default())),
        "ExportList" => c!(rat.export_list(ExportRatingListRequest::default())),
        "GetPlayerReport" => c!(rat.get_player_report(GetRatingReportRequest::default())),
        "GetTournamentReport" => {
            c!(rat.get_tournament_report(GetRatingTournamentReportRequest::default()))
        }
        "OpenBoard" => c!(clk.open_board(tr!(OpenBoardRequest))),
        "BoardTelemetry" => {
            let item = Telemetry {
                tournament_id: t.clone(),
                board: 1,
                ..Default::default()
            };
            let body = futures::stream::iter(vec![item]);
            vec![match clk.board_telemetry(req(body, token)).await {
                Err(s) => Err(s),
                Ok(r) => {
                    let reply = r.into_inner().message().await.unwrap().unwrap();
                    match reply.outcome {
                        Some(telemetry_reply::Outcome::Rejected(r))
                            if r.code == "permission_denied" =>
                        {
                            Err(Status::permission_denied(r.message))
                        }
                        _ => Ok(()),
                    }
                }
            }]
        }
        "GetClockState" => c!(clk.get_clock_state(tr!(GetClockStateRequest))),
        "WatchBoard" => c!(clk.watch_board(tr!(WatchBoardRequest))),
        "AdjournGame" => c!(clk.adjourn_game(tr!(AdjournGameRequest))),
        "ResumeGame" => c!(clk.resume_game(tr!(ResumeGameRequest))),
        "GetSealedMove" => c!(clk.get_sealed_move(tr!(GetSealedMoveRequest))),
        "AddPrincipal" => c!(acc.add_principal(AddPrincipalRequest::default())),
        "ListPrincipals" => c!(acc.list_principals(ListPrincipalsRequest {})),
        "GrantRole" => c!(acc.grant_role(tr!(RoleRequest))),
        "RevokeRole" => c!(acc.revoke_role(tr!(RoleRequest))),
        "IssueToken" => c!(acc.issue_token(IssueTokenRequest::default())),
        "ListTokens" => c!(acc.list_tokens(ListTokensRequest::default())),
        "RevokeToken" => c!(acc.revoke_token(RevokeTokenRequest::default())),
        "SetTournamentVisibility" => {
            c!(acc.set_tournament_visibility(tr!(SetTournamentVisibilityRequest)))
        }
        "WhoAmI" => c!(acc.who_am_i(WhoAmIRequest {})),
        "AddWebhook" => c!(hooks.add_webhook(AddWebhookRequest::default())),
        "ListWebhooks" => c!(hooks.list_webhooks(ListWebhooksRequest {})),
        "GetWebhook" => c!(hooks.get_webhook(GetWebhookRequest::default())),
        "RemoveWebhook" => c!(hooks.remove_webhook(RemoveWebhookRequest::default())),
        "ListDeliveries" => c!(hooks.list_deliveries(ListDeliveriesRequest::default())),
        "Redeliver" => c!(hooks.redeliver(RedeliverRequest::default())),
        "GetDelivery" => c!(hooks.get_delivery(GetDeliveryRequest::default())),
        other => panic!("{other}: the table has an RPC this test cannot call; add it"),
    }
}

fn new_tournament(a: &Arbiter, name: &str) -> String {
    a.json(&["tournament", "create", "--name", name])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn token_of(a: &Arbiter, name: &str) -> String {
    a.json(&["access", "token", name])["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rpc_with_every_role_in_and_out_of_scope_follows_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let t = new_tournament(&a, "Scoped Open");
    let u = new_tournament(&a, "Other Open");
    let mut callers: Vec<(Option<Role>, Option<String>)> = vec![(None, None)];
    for role in Role::ALL {
        let name = format!("as-{}", role.name());
        a.ok(&["access", "add", &name]);
        let mut grant = vec!["access", "grant", &name, "--role", role.name()];
        if role.per_tournament() {
            grant.extend(["--tournament", &t]);
        }
        a.ok(&grant);
        callers.push((Some(role), Some(token_of(&a, &name))));
    }
    let ch = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{}", a.port))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for rule in RULES {
        for (role, token) in &callers {
            for on in [&t, &u] {
                let expected = match role {
                    None => rule.anonymous == Anonymous::Always,
                    Some(role) => {
                        rule.allows(*role)
                            && (rule.any_principal
                                || rule.scope == ScopeKind::Global
                                || !role.per_tournament()
                                || on == &t)
                    }
                };
                for got in call(&ch, rule.rpc, on, token.as_deref()).await {
                    checked += 1;
                    let code = got.as_ref().err().map(Status::code);
                    let allowed =
                        !matches!(code, Some(Code::PermissionDenied | Code::Unauthenticated));
                    let refusal_fits = match (role, code) {
                        (None, Some(c)) if !allowed => c == Code::Unauthenticated,
                        (Some(_), Some(c)) if !allowed => c == Code::PermissionDenied,
                        _ => true,
                    };
                    if allowed != expected || !refusal_fits {
                        wrong.push(format!(
                            "{} as {} on {}: expected {}, got {:?}",
                            rule.rpc,
                            role.map_or("nobody", Role::name),
                            if on == &t { "T" } else { "U" },
                            if expected { "allowed" } else { "refused" },
                            got.as_ref().err()
                        ));
                    }
                    if let (Some(role), Err(s)) = (role, &got)
                        && s.code() == Code::PermissionDenied
                        && !s.message().contains(&format!("as-{}", role.name()))
                    {
                        wrong.push(format!(
                            "{}: the refusal names nobody: {}",
                            rule.rpc,
                            s.message()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} calls differ from the table:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked > RULES.len() * 9 * 2);
}

/// The CLI as `token`'s holder (no admin token file fallback).
fn as_holder(a: &Arbiter, token: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(arbiter_tests::binary("arbiter"))
        .args(args)
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_TOKEN", token)
        .env_remove("ARBITER_DATA_DIR")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

fn holder_ok(a: &Arbiter, token: &str, args: &[&str]) -> String {
    let o = as_holder(a, token, args);
    assert!(
        o.status.success(),
        "arbiter {args:?}: {}",
        arbiter_tests::output_text(&o)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn holder_refused(a: &Arbiter, token: &str, args: &[&str], needle: &str) {
    let o = as_holder(a, token, args);
    let text = arbiter_tests::output_text(&o);
    assert_eq!(o.status.code(), Some(1), "arbiter {args:?}: {text}");
    assert!(
        text.contains(needle),
        "arbiter {args:?}: {needle:?} not in {text}"
    );
}

#[test]
fn a_chief_arbiter_and_a_helper_through_the_cli_and_the_audit_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Access Open",
        "--rounds",
        "5",
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let u = new_tournament(&a, "Other Open");
    for i in 1..=4 {
        a.ok(&[
            "player",
            "add",
            &t,
            "--name",
            &format!("Player, No{i}"),
            "--rating",
            &(2300 - 10 * i).to_string(),
        ]);
    }
    // Admin: a chief arbiter for T.
    a.ok(&[
        "access",
        "add",
        "Anna Arbiter",
        "--email",
        "anna@example.org",
    ]);
    a.ok(&[
        "access",
        "grant",
        "Anna Arbiter",
        "--role",
        "chief-arbiter",
        "--tournament",
        &t,
    ]);
    // A grant names a tournament the registry has.
    let o = a.run(&[
        "access",
        "grant",
        "Anna Arbiter",
        "--role",
        "chief-arbiter",
        "--tournament",
        "T-mistyped",
    ]);
    assert!(
        !o.status.success()
            && output_text(&o).contains("NotFound: tournament_id: no tournament T-mistyped"),
        "{}",
        output_text(&o)
    );
    let anna = token_of(&a, "Anna Arbiter");
    assert!(holder_ok(&a, &anna, &["whoami"]).contains("Anna Arbiter"));
    // The chief arbiter grants a helper results-entry on T.
    holder_ok(&a, &anna, &["access", "add", "Hugo Helper"]);
    holder_ok(
        &a,
        &anna,
        &[
            "access",
            "grant",
            "Hugo Helper",
            "--role",
            "results-entry",
            "--tournament",
            &t,
        ],
    );
    let hugo_json: serde_json::Value = serde_json::from_str(&holder_ok(
        &a,
        &anna,
        &[
            "access",
            "token",
            "Hugo Helper",
            "--expires",
            "3d",
            "--json",
        ],
    ))
    .unwrap();
    let hugo = hugo_json["token"].as_str().unwrap().to_owned();
    let hugo_id = hugo_json["token_id"].as_str().unwrap().to_owned();
    // A helper of T lists T only; the admin lists both.
    let listed = holder_ok(&a, &hugo, &["tournament", "list", "--json"]);
    assert!(listed.contains(&t) && !listed.contains(&u), "{listed}");
    let listed = a.json(&["tournament", "list"]).to_string();
    assert!(listed.contains(&t) && listed.contains(&u), "{listed}");
    holder_ok(&a, &anna, &["round", "pair", &t, "1"]);
    holder_ok(&a, &anna, &["round", "publish", &t, "1"]);
    // The helper records, but cannot correct, pair or touch U.
    holder_ok(&a, &hugo, &["result", "set", &t, "1", "1", "1-0"]);
    holder_refused(
        &a,
        &hugo,
        &[
            "result", "correct", &t, "1", "1", "0-1", "--was", "1-0", "--reason", "sheet",
        ],
        "PermissionDenied",
    );
    holder_refused(&a, &hugo, &["round", "pair", &t, "2"], "PermissionDenied");
    holder_refused(
        &a,
        &hugo,
        &[
            "player",
            "add",
            &u,
            "--name",
            "Intruder, Ivo",
            "--rating",
            "2000",
        ],
        "PermissionDenied",
    );
    // The chief arbiter corrects; the history names each person.
    holder_ok(
        &a,
        &anna,
        &[
            "result",
            "correct",
            &t,
            "1",
            "1",
            "0-1",
            "--was",
            "1-0",
            "--reason",
            "sheet signed 0-1",
        ],
    );
    let history = holder_ok(
        &a,
        &anna,
        &["result", "history", &t, "--round", "1", "--board", "1"],
    );
    assert!(
        history.contains("Hugo Helper") && history.contains("Anna Arbiter"),
        "{history}"
    );
    // Revoked: refused at once.
    holder_ok(&a, &anna, &["access", "revoke", &hugo_id]);
    holder_refused(
        &a,
        &hugo,
        &["result", "set", &t, "1", "2", "1/2"],
        "Unauthenticated",
    );
}

/// A public tournament's standings are readable by anybody, but their TRF document is
/// the export (birth dates and sex on the 001 lines): it needs the `ExportTrf` rule (a
/// results-entry operator reads the standings, not the export).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_trf_document_of_public_standings_is_not_given_to_anybody() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let t = new_tournament(&a, "Public Open");
    a.ok(&[
        "player",
        "add",
        &t,
        "--name",
        "Short, Nigel",
        "--rating",
        "2658",
        "--sex",
        "m",
    ]);
    a.ok(&[
        "player",
        "add",
        &t,
        "--name",
        "Baburin, Alex",
        "--rating",
        "2410",
    ]);
    a.ok(&["access", "public", &t]);
    a.ok(&["access", "add", "watcher"]);
    a.ok(&[
        "access",
        "grant",
        "watcher",
        "--role",
        "results-entry",
        "--tournament",
        &t,
    ]);
    let entry = token_of(&a, "watcher");
    let ch = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{}", a.port))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut res = ResultsServiceClient::new(ch);
    let standings = |format: &str| GetStandingsRequest {
        tournament_id: t.clone(),
        format: format.into(),
        ..Default::default()
    };
    // The table, without a token, is public.
    res.get_standings(req(standings("text"), None))
        .await
        .expect("public standings without a token");
    let refused = res
        .get_standings(req(standings("TRF"), None))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let refused = res
        .get_standings(req(standings("trf"), Some(&entry)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    assert!(refused.message().contains("ExportTrf"), "{refused:?}");
    let admin =
        arbiter_service_kit::auth::Auth::read_token(&a.data.join("admin.token"), "admin").unwrap();
    let doc = res
        .get_standings(req(standings("trf"), Some(&admin)))
        .await
        .expect("the admin reads the TRF document")
        .into_inner()
        .document;
    assert!(doc.contains("012 Public Open"), "{doc}");
}
