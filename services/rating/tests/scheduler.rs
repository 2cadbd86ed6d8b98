//! The period aggregate in process, with an injected date: the scheduler closes a
//! period only once its closing date has passed; before that, RunPeriod refuses.
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_proto::v1::rating_service_server::RatingService;
use arbiter_proto::v1::{
    CommandMeta, GetRatingPeriodRequest, ImportStartingListRequest, RatingListEntry,
    RatingListPlayer, RunRatingPeriodRequest, SubmitExternalTournamentRequest,
};
use arbiter_rating::Rating;
use arbiter_service_kit::Platform;
use arbiter_service_kit::auth::Auth;
use elo::CalendarDate;
use tonic::Request;

fn authed<T>(token: &str, body: T) -> Request<T> {
    let mut r = Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn meta(id: &str) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: id.into(),
        expected_version: None,
        reason: String::new(),
        request_digest: Vec::new(),
    })
}

fn line(
    rank: u16,
    name: &str,
    id: u32,
    points: &str,
    opp: u16,
    colour: char,
    result: char,
) -> String {
    format!(
        "001 {rank:>4} m    {name:<33} 2000 IRL {id:>11} 1990/01/01 {points:>4} {rank:>4}  {opp:>4} {colour} {result}"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduler_closes_at_the_closing_date_from_the_injected_clock() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let tokens = dir.path().join("tokens");
    let platform = Platform::open(&url, None, &tokens, false).await.unwrap();
    let token = Auth::read_token(&tokens, "admin").unwrap();
    let today = Arc::new(Mutex::new(CalendarDate::new(2026, 11, 27).unwrap()));
    let t = today.clone();
    let svc = Rating::start_with(
        &platform,
        Arc::new(move || *t.lock().unwrap()),
        Duration::from_millis(50),
    );

    let players = [1u32, 2]
        .iter()
        .map(|&id| RatingListPlayer {
            fide_id: id,
            name: format!("Player {id}"),
            standard: Some(RatingListEntry {
                rating: 2000,
                k: 20,
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let empty = svc
        .import_starting_list(authed(
            &token,
            ImportStartingListRequest {
                meta: meta("import-empty"),
                list_month: "2026-11".into(),
                chunk: 0,
                last: true,
                players: vec![],
                source_name: String::new(),
            },
        ))
        .await
        .unwrap_err();
    assert!(empty.message().starts_with("players:"), "{empty:?}");
    svc.import_starting_list(authed(
        &token,
        ImportStartingListRequest {
            meta: meta("import"),
            list_month: "2026-11".into(),
            chunk: 0,
            last: true,
            players,
            source_name: "test".into(),
        },
    ))
    .await
    .unwrap();

    let trf = [
        "012 Late November".to_owned(),
        "052 2026/11/25".to_owned(),
        line(1, "Player 1", 1, "1.0", 2, 'w', '1'),
        line(2, "Player 2", 2, "0.0", 1, 'b', '0'),
    ]
    .join("\n");
    let s = svc
        .submit_external_tournament(authed(
            &token,
            SubmitExternalTournamentRequest {
                meta: meta("submit"),
                trf: trf.into_bytes(),
                kind: 1,
                ..Default::default()
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(s.period, "2026-12");
    assert_eq!(s.period_status, "open");

    let status = |svc: Rating| {
        let token = token.clone();
        async move {
            svc.get_period(authed(
                &token,
                GetRatingPeriodRequest {
                    period: "2026-12".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .status
        }
    };
    // 27 Nov, then 28 Nov (the closing date itself): still open
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(status(svc.clone()).await, "open");
    *today.lock().unwrap() = CalendarDate::new(2026, 11, 28).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(status(svc.clone()).await, "open");
    let early = svc
        .run_period(authed(
            &token,
            RunRatingPeriodRequest {
                meta: meta("run-early"),
                period: "2026-12".into(),
                dry_run: false,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(early.code(), tonic::Code::FailedPrecondition);
    // a dry run previews without writing
    let dry = svc
        .run_period(authed(
            &token,
            RunRatingPeriodRequest {
                meta: meta("run-dry"),
                period: "2026-12".into(),
                dry_run: true,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(dry.ack.is_none());
    assert_eq!(dry.diff.len(), 2, "{dry:?}");

    // 29 Nov: the scheduler closes it
    *today.lock().unwrap() = CalendarDate::new(2026, 11, 29).unwrap();
    let mut closed = false;
    for _ in 0..100 {
        if status(svc.clone()).await == "closed" {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(closed, "the scheduler did not close the period");
    let run = svc
        .run_period(authed(
            &token,
            RunRatingPeriodRequest {
                meta: meta("run"),
                period: "2026-12".into(),
                dry_run: false,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(run.status.unwrap().status, "computed");
    // a retried command id writes nothing new
    let retry = svc
        .run_period(authed(
            &token,
            RunRatingPeriodRequest {
                meta: meta("run"),
                period: "2026-12".into(),
                dry_run: false,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(retry.ack.unwrap().replayed);
}
