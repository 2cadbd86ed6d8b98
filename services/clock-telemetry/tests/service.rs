//! The service in process on a SQLite log, driven through its gRPC handlers and
//! [`ClockTelemetry::handle`], with a manual clock for the flag timer.
use std::time::Duration;

use arbiter_clock_telemetry::{ClockTelemetry, ManualClock, RegistryCheck, TimeSource};
use arbiter_eventlog::{AppendRequest, CommandContext, NewEvent};
use arbiter_proto::v1::clock_service_server::ClockService;
use arbiter_proto::v1::telemetry::Item;
use arbiter_proto::v1::telemetry_reply::Outcome;
use arbiter_proto::v1::{
    ClaimIn, ClockStartedIn, ClockState, CommandMeta, FlagIn, GetClockStateRequest, GlitchIn,
    MoveIn, MovePlayed, OpenBoardRequest, PressIn, ResignIn, ResultReported, Telemetry,
    TelemetryReply,
};
use arbiter_service_kit::Platform;
use arbiter_service_kit::auth::Auth;
use prost::Message;
use tonic::Request;

const T0: u64 = 1_800_000_000_000;

struct Env {
    _dir: tempfile::TempDir,
    url: String,
    tokens: std::path::PathBuf,
    platform: Platform,
    svc: ClockTelemetry,
    clock: ManualClock,
}

/// Records tournament `id` (9 rounds) as the registry does, in the same log:
/// `OpenBoard` refuses tournaments the registry does not know.
async fn register(platform: &Platform, id: &str) {
    platform
        .store
        .append(AppendRequest {
            stream: format!("tournament-{id}"),
            expected_version: Some(0),
            events: vec![NewEvent {
                event_type: "TournamentCreated".into(),
                schema_version: 2,
                payload: arbiter_proto::v1::TournamentCreated {
                    tournament_id: id.into(),
                    name: format!("Open {id}"),
                    rounds: 9,
                    ..Default::default()
                }
                .encode_to_vec(),
            }],
            context: CommandContext {
                command_id: format!("create-{id}"),
                actor: "admin".into(),
                service: "registry".into(),
                ..Default::default()
            },
        })
        .await
        .unwrap();
}

async fn env() -> Env {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let tokens = dir.path().join("tokens");
    let platform = Platform::open(&url, None, &tokens, false).await.unwrap();
    register(&platform, "t1").await;
    let clock = ManualClock::new(T0);
    let svc = ClockTelemetry::start_with_time(&platform, TimeSource::Manual(clock.clone()));
    Env {
        _dir: dir,
        url,
        tokens,
        platform,
        svc,
        clock,
    }
}

fn authed<T>(env: &Env, body: T) -> Request<T> {
    let token = Auth::read_token(&env.tokens, "admin").unwrap();
    let mut r = Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

async fn open(env: &Env, board: u32, tc: &str) {
    open_with(env, board, tc, "open").await.unwrap();
}

async fn open_with(env: &Env, board: u32, tc: &str, id: &str) -> Result<(), tonic::Status> {
    env.svc
        .open_board(authed(
            env,
            OpenBoardRequest {
                meta: Some(CommandMeta {
                    command_id: format!("{id}-{board}-{}", uuid_like()),
                    ..Default::default()
                }),
                tournament_id: "t1".into(),
                board,
                round: 3,
                time_control: tc.into(),
                white: "Carlsen".into(),
                black: "Caruana".into(),
                laws_edition: String::new(),
                auto_apply_results: true,
                quickplay_guidelines: false,
                supervision: String::new(),
                variant: String::new(),
                start_position: String::new(),
                draw_by_lot: false,
            },
        ))
        .await
        .map(|_| ())
}

fn uuid_like() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

fn item(board: u32, seq: u64, at: u64, item: Item) -> Telemetry {
    Telemetry {
        tournament_id: "t1".into(),
        board,
        device_id: format!("dgt-{board}"),
        seq,
        at_ms: Some(at),
        white_ms: None,
        black_ms: None,
        item: Some(item),
    }
}

fn mv(board: u32, seq: u64, at: u64, san: &str) -> Telemetry {
    item(
        board,
        seq,
        at,
        Item::Move(MoveIn {
            san: san.as_bytes().to_vec(),
            uci: String::new(),
        }),
    )
}

fn start(board: u32, seq: u64, at: u64) -> Telemetry {
    item(board, seq, at, Item::ClockStarted(ClockStartedIn {}))
}

/// Sends one item as a device whose clock agrees with the server's: the manual clock is
/// first brought to the item's stamp (it never goes back), as a real device stamps what
/// happens now.
async fn send(env: &Env, t: Telemetry) -> TelemetryReply {
    if let Some(at) = t.at_ms {
        env.clock.set(at);
    }
    env.svc.handle("dgt", t).await
}

fn accepted(r: &TelemetryReply) -> &arbiter_proto::v1::TelemetryAccepted {
    match &r.outcome {
        Some(Outcome::Accepted(a)) => a,
        other => panic!("expected acceptance, got {other:?}"),
    }
}

fn rejected(r: &TelemetryReply) -> &arbiter_proto::v1::TelemetryRejected {
    match &r.outcome {
        Some(Outcome::Rejected(a)) => a,
        other => panic!("expected rejection, got {other:?}"),
    }
}

async fn types(env: &Env, board: u32) -> Vec<String> {
    env.platform
        .store
        .read_stream(&format!("board-t1-{board}"), 1)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.event_type)
        .collect()
}

#[tokio::test]
async fn flag_timer_records_the_fall_at_its_exact_instant_and_reports_the_result() {
    let env = env().await;
    open(&env, 1, "60+0").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    accepted(&send(&env, mv(1, 2, T0 + 1_500, "e4")).await);
    let flag_at = T0 + 1_500 + 60_000;
    let st = env.svc.clock_state("t1", 1).await.unwrap();
    assert_eq!(st.flag_instant_ms, Some(flag_at));
    assert_eq!(st.side_to_move, "black");

    // Just before the instant nothing happens.
    env.clock.set(flag_at - 1);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(env.svc.clock_state("t1", 1).await.unwrap().result, "");

    env.clock.set(flag_at + 5);
    let mut st = env.svc.clock_state("t1", 1).await.unwrap();
    for _ in 0..50 {
        if !st.result.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        st = env.svc.clock_state("t1", 1).await.unwrap();
    }
    assert_eq!(st.result, "1-0");
    assert_eq!(st.termination, "FlagFall");
    assert_eq!(st.article, "6.9");
    assert_eq!(st.black_ms, 0);
    assert_eq!(
        types(&env, 1).await,
        [
            "BoardOpened",
            "ClockStarted",
            "MovePlayed",
            "FlagFell",
            "GameEnded",
            "ResultReported"
        ]
    );
    let events = env
        .platform
        .store
        .read_stream("board-t1-1", 1)
        .await
        .unwrap();
    let flag = arbiter_proto::v1::FlagFell::decode(events[3].payload.as_slice()).unwrap();
    assert_eq!(
        flag.at_ms, flag_at,
        "the exact instant, not when the timer woke"
    );
    assert_eq!(flag.side, "black");
    let r = ResultReported::decode(events[5].payload.as_slice()).unwrap();
    assert_eq!(
        (r.result.as_str(), r.article.as_str(), r.round, r.auto_apply),
        ("1-0", "6.9", 3, true)
    );
    assert_eq!(events[5].service, "clock");
    assert_eq!(events[5].subject(), "arbiter.v1.clock.ResultReported");

    // A move after the end is refused with a clear reason.
    let late = send(&env, mv(1, 3, flag_at + 10, "e5")).await;
    let r = rejected(&late);
    assert_eq!(r.code, "game_over");
    assert!(r.message.contains("6.9"), "{}", r.message);
}

#[tokio::test]
async fn checkmate_ends_the_game_and_a_restart_rebuilds_every_board_from_the_log() {
    let env = env().await;
    open(&env, 1, "40/5400+30:1800+30").await;
    open(&env, 2, "180+2").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    for (i, san) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let r = send(&env, mv(1, 2 + i as u64, T0 + 1_000 * (i as u64 + 1), san)).await;
        accepted(&r);
    }
    let st = env.svc.clock_state("t1", 1).await.unwrap();
    assert_eq!((st.result.as_str(), st.article.as_str()), ("0-1", "5.1.1"));
    assert_eq!(st.moves_san, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(st.rate, "standard");

    accepted(&send(&env, start(2, 1, T0)).await);
    accepted(&send(&env, mv(2, 2, T0 + 3_000, "d4")).await);
    let before = env.svc.clock_state("t1", 2).await.unwrap();
    // 3 min + 2 s, increment credited as each move's clock starts (ADR clock-001):
    // 180 + 2 − 3 s for d4, + 2 s for White's next move.
    assert_eq!(before.white_ms, 181_000);

    let again = Platform::open(&env.url, None, &env.tokens, false)
        .await
        .unwrap();
    // Rebuilt at the same server time (board 1's moves brought it to T0 + 4 s).
    let rebuilt = ClockTelemetry::start_with_time(
        &again,
        TimeSource::Manual(ManualClock::new(env.clock.now())),
    );
    let st1 = rebuilt.clock_state("t1", 1).await.unwrap();
    assert_eq!(
        (st1.result.as_str(), st1.termination.as_str()),
        ("0-1", "Checkmate")
    );
    let st2 = rebuilt.clock_state("t1", 2).await.unwrap();
    assert_eq!(st2.moves_san, ["d4"]);
    assert_eq!(
        (st2.white_ms, st2.black_ms),
        (before.white_ms, before.black_ms)
    );
    assert_eq!(st2.stream_version, before.stream_version);
}

#[tokio::test]
async fn malformed_telemetry_is_rejected_clearly_and_other_boards_are_undisturbed() {
    let env = env().await;
    open(&env, 1, "600+5").await;
    open(&env, 2, "600+5").await;
    for b in [1, 2] {
        accepted(&send(&env, start(b, 1, T0)).await);
        accepted(&send(&env, mv(b, 2, T0 + 2_000, "e4")).await);
    }
    let board2 = env.svc.clock_state("t1", 2).await.unwrap();

    // Unknown board.
    let r = send(&env, mv(9, 1, T0 + 3_000, "e5")).await;
    let r = rejected(&r);
    assert_eq!(
        (r.code.as_str(), r.field.as_str()),
        ("unknown_board", "board")
    );
    assert!(r.message.contains("OpenBoard"), "{}", r.message);

    // Non-UTF-8 SAN.
    let mut bad = mv(1, 3, T0 + 3_000, "e5");
    bad.item = Some(Item::Move(MoveIn {
        san: vec![0x65, 0xff, 0x35],
        uci: String::new(),
    }));
    let r = send(&env, bad).await;
    let r = rejected(&r);
    assert_eq!(
        (r.code.as_str(), r.field.as_str()),
        ("unreadable_move", "move.san")
    );
    assert!(r.message.contains("UTF-8"), "{}", r.message);

    // Timestamps going backwards.
    let r = send(&env, mv(1, 4, T0 + 1_000, "e5")).await;
    let r = rejected(&r);
    assert_eq!(
        (r.code.as_str(), r.field.as_str()),
        ("time_went_backwards", "at_ms")
    );

    // An illegal move.
    let r = send(&env, mv(1, 5, T0 + 3_000, "Ke2")).await;
    assert_eq!(rejected(&r).code, "illegal_move");

    // A move in a finished game.
    accepted(
        &send(
            &env,
            item(
                1,
                6,
                T0 + 4_000,
                Item::Resign(ResignIn {
                    side: "black".into(),
                }),
            ),
        )
        .await,
    );
    let r = send(&env, mv(1, 7, T0 + 5_000, "e5")).await;
    assert_eq!(rejected(&r).code, "game_over");

    // Board 2 is exactly as it was, and still takes moves.
    assert_eq!(
        env.svc.clock_state("t1", 2).await.unwrap().stream_version,
        board2.stream_version
    );
    let ok = send(&env, mv(2, 3, T0 + 5_000, "e5")).await;
    assert_eq!(
        accepted(&ok).state.as_ref().unwrap().moves_san,
        ["e4", "e5"]
    );
    assert_eq!(
        types(&env, 1).await,
        [
            "BoardOpened",
            "ClockStarted",
            "MovePlayed",
            "PlayerResigned",
            "GameEnded",
            "ResultReported"
        ],
        "rejected items write nothing"
    );
}

#[tokio::test]
async fn contradicting_device_readings_are_flagged_but_never_decide_a_result() {
    let env = env().await;
    open(&env, 1, "300+0").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    // A 0:00:00 display glitch on White's side.
    let mut m = mv(1, 2, T0 + 10_000, "e4");
    m.white_ms = Some(0);
    m.black_ms = Some(300_000);
    let r = send(&env, m).await;
    let a = accepted(&r);
    assert_eq!(a.anomalies.len(), 1, "{:?}", a.anomalies);
    assert!(a.anomalies[0].contains("0:00:00"), "{:?}", a.anomalies);
    // The device shows Black's flag down while Black has almost five minutes.
    let r = send(
        &env,
        item(
            1,
            3,
            T0 + 12_000,
            Item::Flag(FlagIn {
                side: "black".into(),
            }),
        ),
    )
    .await;
    let a = accepted(&r);
    assert!(
        a.effects.iter().any(|e| e.contains("not a flag fall")),
        "{:?}",
        a.effects
    );
    // A device fault report, and a missing timestamp.
    let mut g = item(
        1,
        4,
        0,
        Item::Glitch(GlitchIn {
            description: "display reset".into(),
        }),
    );
    g.at_ms = None;
    env.clock.set(T0 + 13_000);
    let a = send(&env, g).await;
    assert!(
        accepted(&a)
            .anomalies
            .iter()
            .any(|x| x.contains("no device timestamp"))
    );
    let st = env.svc.clock_state("t1", 1).await.unwrap();
    assert_eq!(st.result, "", "readings decide nothing");
    assert_eq!(st.anomalies, 4);
    assert_eq!(
        types(&env, 1).await,
        [
            "BoardOpened",
            "ClockStarted",
            "MovePlayed",
            "DeviceGlitch",
            "DeviceGlitch"
        ]
    );
    // An incorrect threefold claim costs time (9.5.3) and does not end the game.
    let r = send(
        &env,
        item(
            1,
            5,
            T0 + 14_000,
            Item::Claim(ClaimIn {
                side: "black".into(),
                rule: "threefold".into(),
                intended_move: String::new(),
            }),
        ),
    )
    .await;
    let a = accepted(&r);
    assert!(
        a.effects.iter().any(|e| e.contains("9.5.3")),
        "{:?}",
        a.effects
    );
    assert_eq!(a.state.as_ref().unwrap().result, "");
}

#[tokio::test]
async fn a_resent_item_is_written_once_and_a_game_in_progress_cannot_be_reopened() {
    let env = env().await;
    open(&env, 1, "300+0").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    let first = send(&env, mv(1, 2, T0 + 1_000, "e4")).await;
    assert!(!accepted(&first).ack.as_ref().unwrap().replayed);
    let again = send(&env, mv(1, 2, T0 + 1_000, "e4")).await;
    // A device resend after its reply was lost: answered as a replay, written once.
    let a = accepted(&again);
    assert!(a.ack.as_ref().unwrap().replayed);
    assert_eq!(a.state.as_ref().unwrap().moves_san, ["e4"]);
    assert_eq!(types(&env, 1).await.len(), 3);

    let err = open_with(&env, 1, "300+0", "reopen").await.unwrap_err();
    assert_eq!(err.code(), tonic::Code::FailedPrecondition);
    let bad = open_with(&env, 3, "forty moves", "bad").await.unwrap_err();
    assert!(
        bad.message().starts_with("time_control:"),
        "{}",
        bad.message()
    );

    // After the game ends, the board opens for the next game.
    accepted(
        &send(
            &env,
            item(
                1,
                3,
                T0 + 2_000,
                Item::Resign(ResignIn {
                    side: "black".into(),
                }),
            ),
        )
        .await,
    );
    open_with(&env, 1, "300+0", "next").await.unwrap();
    let st = env.svc.clock_state("t1", 1).await.unwrap();
    assert_eq!(
        (st.game_number, st.started, st.moves_san.len()),
        (2, false, 0)
    );
}

#[tokio::test]
async fn on_the_wall_clock_the_flag_is_recorded_promptly_after_its_instant() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let platform = Platform::open(&url, None, &dir.path().join("tokens"), false)
        .await
        .unwrap();
    register(&platform, "t1").await;
    let svc = ClockTelemetry::start_with_time(&platform, TimeSource::System);
    let token_path = dir.path().join("tokens");
    let token = Auth::read_token(&token_path, "admin").unwrap();
    let mut r = Request::new(OpenBoardRequest {
        meta: Some(CommandMeta {
            command_id: "wall-open".into(),
            ..Default::default()
        }),
        tournament_id: "t1".into(),
        board: 1,
        time_control: "1+0".into(),
        ..Default::default()
    });
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    svc.open_board(r).await.unwrap();
    let now = TimeSource::System.now_ms();
    accepted(&svc.handle("dgt", start(1, 1, now)).await);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let events = platform.store.read_stream("board-t1-1", 1).await.unwrap();
    let flag = events
        .iter()
        .find(|e| e.event_type == "FlagFell")
        .expect("FlagFell recorded");
    let at = arbiter_proto::v1::FlagFell::decode(flag.payload.as_slice())
        .unwrap()
        .at_ms;
    assert_eq!(at, now + 1_000);
    let late_ms = flag.recorded_at_micros / 1_000 - at as i64;
    eprintln!("FlagFell recorded {late_ms} ms after the flag instant");
    assert!((0..250).contains(&late_ms), "{late_ms} ms late");
}

#[tokio::test]
async fn with_a_flag_grace_a_press_stamped_in_time_but_delayed_in_transit_still_counts() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let tokens = dir.path().join("tokens");
    let platform = Platform::open(&url, None, &tokens, false).await.unwrap();
    register(&platform, "t1").await;
    let clock = ManualClock::new(T0);
    let svc = ClockTelemetry::start_with(&platform, TimeSource::Manual(clock.clone()), 500);
    let env = Env {
        _dir: dir,
        url,
        tokens,
        platform,
        svc,
        clock,
    };
    open(&env, 1, "60+0").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    let flag_at = T0 + 60_000;
    // The flag instant has passed on the service's clock, the grace has not.
    env.clock.set(flag_at + 300);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(env.svc.clock_state("t1", 1).await.unwrap().result, "");
    // White's move, stamped 1 ms before the fall, arrives now: it counts.
    let r = send(&env, mv(1, 2, flag_at - 1, "e4")).await;
    assert_eq!(accepted(&r).state.as_ref().unwrap().moves_san, ["e4"]);
    // Black then runs out; recorded after the grace at the exact instant.
    let black_flag = flag_at - 1 + 60_000;
    env.clock.set(black_flag + 499);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(env.svc.clock_state("t1", 1).await.unwrap().result, "");
    env.clock.set(black_flag + 500);
    let mut st = env.svc.clock_state("t1", 1).await.unwrap();
    for _ in 0..50 {
        if !st.result.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        st = env.svc.clock_state("t1", 1).await.unwrap();
    }
    assert_eq!((st.result.as_str(), st.article.as_str()), ("1-0", "6.9"));
    let events = env
        .platform
        .store
        .read_stream("board-t1-1", 1)
        .await
        .unwrap();
    let flag = events.iter().find(|e| e.event_type == "FlagFell").unwrap();
    let flag = arbiter_proto::v1::FlagFell::decode(flag.payload.as_slice()).unwrap();
    assert_eq!(flag.at_ms, black_flag);
}

fn open_request(tournament: &str, round: u32, board: u32) -> OpenBoardRequest {
    OpenBoardRequest {
        meta: Some(CommandMeta {
            command_id: format!("open-{tournament}-{round}-{board}-{}", uuid_like()),
            ..Default::default()
        }),
        tournament_id: tournament.into(),
        board,
        round,
        time_control: "5400+30".into(),
        white: "Carlsen".into(),
        black: "Caruana".into(),
        ..Default::default()
    }
}

#[tokio::test]
async fn open_board_needs_a_tournament_of_the_registry_and_a_board_of_the_paired_round() {
    let env = env().await;
    // A tournament the registry does not know.
    let e = env
        .svc
        .open_board(authed(&env, open_request("nowhere", 1, 1)))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::NotFound, "{e:?}");
    assert!(
        e.message().starts_with("tournament_id: ") && e.message().contains("\"nowhere\""),
        "{}",
        e.message()
    );
    let written = env.platform.store.read_stream("board-nowhere-1", 1).await;
    assert!(written.unwrap().is_empty(), "nothing written");
    // A round the tournament does not have.
    let e = env
        .svc
        .open_board(authed(&env, open_request("t1", 10, 1)))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert!(e.message().starts_with("round: "), "{}", e.message());
    // Round 2 paired on two boards (the pairing service's event, same log).
    let paired = arbiter_proto::v1::RoundPaired {
        tournament_id: "t1".into(),
        round: 2,
        boards: (1..=2)
            .map(|b| arbiter_proto::v1::PairedBoard {
                board: b,
                white_tpn: 2 * b - 1,
                black_tpn: 2 * b,
                ..Default::default()
            })
            .collect(),
        system: "dutch".into(),
        ..Default::default()
    };
    env.platform
        .store
        .append(AppendRequest {
            stream: "pairing-t1".into(),
            expected_version: None,
            events: vec![NewEvent {
                event_type: "RoundPaired".into(),
                schema_version: 1,
                payload: paired.encode_to_vec(),
            }],
            context: CommandContext {
                command_id: "pair-2".into(),
                actor: "admin".into(),
                service: "pairing".into(),
                ..Default::default()
            },
        })
        .await
        .unwrap();
    let e = env
        .svc
        .open_board(authed(&env, open_request("t1", 2, 3)))
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert!(
        e.message().starts_with("board: ") && e.message().contains("no board 3"),
        "{}",
        e.message()
    );
    // A board of the paired round, and any board of a round not paired yet.
    env.svc
        .open_board(authed(&env, open_request("t1", 2, 2)))
        .await
        .unwrap();
    env.svc
        .open_board(authed(&env, open_request("t1", 3, 40)))
        .await
        .unwrap();
    assert_eq!(types(&env, 40).await, ["BoardOpened"]);
}

/// The board as `GetClockState` answers it.
async fn get_state(env: &Env, board: u32) -> ClockState {
    env.svc
        .get_clock_state(authed(
            env,
            GetClockStateRequest {
                tournament_id: "t1".into(),
                board,
            },
        ))
        .await
        .unwrap()
        .into_inner()
}

/// What a refused stamp must leave as it was.
fn clock_of(s: &ClockState) -> (u64, u64, i64, Vec<String>, String, Option<u64>, u32) {
    (
        s.white_ms,
        s.black_ms,
        s.stream_version,
        s.moves_san.clone(),
        s.result.clone(),
        s.flag_instant_ms,
        s.anomalies,
    )
}

/// Issue 39 part 6 (ADR clock-007): stamps at the end of time (2^64 − 1), past i64, an hour
/// ahead of the server's clock, or before the board's last event are refused naming
/// `at_ms`, the server's time and the tolerance, for moves, presses and glitches alike;
/// the clock's remaining times, the log and the flag instant stay as they were; later good
/// items are accepted normally (the board is not jammed).
#[tokio::test]
async fn device_stamps_ahead_of_the_servers_clock_or_before_the_last_event_never_move_the_clock() {
    let env = env().await;
    open(&env, 1, "5400+30").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    accepted(&send(&env, mv(1, 2, T0 + 5_000, "e4")).await);
    let now = env.clock.now();
    assert_eq!(now, T0 + 5_000);
    let before = get_state(&env, 1).await;
    let logged = types(&env, 1).await;
    let press = |seq, at| {
        item(
            1,
            seq,
            at,
            Item::Press(PressIn {
                side: "black".into(),
            }),
        )
    };
    let glitch = |seq, at| {
        item(
            1,
            seq,
            at,
            Item::Glitch(GlitchIn {
                description: "display flicker".into(),
            }),
        )
    };
    let mut seq = 10;
    for at in [u64::MAX, i64::MAX as u64 + 1, now + 3_600_000, now + 2_001] {
        for t in [
            mv(1, seq, at, "e5"),
            press(seq + 1, at),
            glitch(seq + 2, at),
        ] {
            // Straight to the service: the server's clock stays where it is.
            let r = env.svc.handle("dgt", t).await;
            let r = rejected(&r);
            assert_eq!(
                (r.code.as_str(), r.field.as_str()),
                ("ahead_of_server_time", "at_ms")
            );
            assert!(
                r.message.starts_with(&format!("at_ms: {at} is "))
                    && r.message.contains(&format!("server's time {now}"))
                    && r.message.contains("tolerance 2000 ms"),
                "{}",
                r.message
            );
            assert_eq!(clock_of(&get_state(&env, 1).await), clock_of(&before));
        }
        seq += 3;
    }
    let r = env.svc.handle("dgt", mv(1, seq, T0 + 4_999, "e5")).await;
    let r = rejected(&r);
    assert_eq!(
        (r.code.as_str(), r.field.as_str()),
        ("time_went_backwards", "at_ms")
    );
    assert!(
        r.message.contains(&format!("server time {now}")),
        "{}",
        r.message
    );
    assert_eq!(clock_of(&get_state(&env, 1).await), clock_of(&before));
    assert_eq!(types(&env, 1).await, logged, "nothing was written");

    // The next good item is applied as usual: Black used 3 s.
    let r = send(&env, mv(1, seq + 1, T0 + 8_000, "e5")).await;
    let after = accepted(&r).state.clone().unwrap();
    assert_eq!(after.moves_san, ["e4", "e5"]);
    assert_eq!(
        (after.white_ms, after.black_ms),
        (5_455_000, 5_430_000 - 3_000 + 30_000)
    );
    assert_eq!(after.result, "");
    accepted(&send(&env, press(seq + 2, T0 + 8_100)).await);
}

/// A stamp ahead of the server's clock within the tolerance is applied at the server's time
/// (the device's stamp kept on the event); the tolerance is the service's setting.
#[tokio::test]
async fn a_stamp_ahead_within_the_tolerance_is_applied_at_the_servers_time() {
    let env = env().await;
    open(&env, 1, "300+0").await;
    accepted(&send(&env, start(1, 1, T0)).await);
    env.clock.set(T0 + 4_000);
    let r = env.svc.handle("dgt", mv(1, 2, T0 + 5_500, "e4")).await;
    let a = accepted(&r);
    assert!(
        a.effects.iter().any(|e| e.contains("1500 ms ahead")),
        "{:?}",
        a.effects
    );
    // White is charged the 4 s the server saw, not the device's 5.5 s.
    assert_eq!(a.state.as_ref().unwrap().white_ms, 296_000);
    let events = env
        .platform
        .store
        .read_stream("board-t1-1", 1)
        .await
        .unwrap();
    let played = events
        .iter()
        .find(|e| e.event_type == "MovePlayed")
        .unwrap();
    let played = MovePlayed::decode(played.payload.as_slice()).unwrap();
    assert_eq!(played.at_ms, T0 + 4_000);
    assert_eq!(played.device.unwrap().device_at_ms, Some(T0 + 5_500));

    // With a tolerance of 0 the same stamp is refused.
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let tokens = dir.path().join("tokens");
    let platform = Platform::open(&url, None, &tokens, false).await.unwrap();
    register(&platform, "t1").await;
    let clock = ManualClock::new(T0);
    let svc = ClockTelemetry::start_configured(
        &platform,
        TimeSource::Manual(clock.clone()),
        0,
        RegistryCheck::SameLog,
        0,
    );
    let strict = Env {
        _dir: dir,
        url,
        tokens,
        platform,
        svc,
        clock,
    };
    open(&strict, 1, "300+0").await;
    accepted(&send(&strict, start(1, 1, T0)).await);
    let r = strict.svc.handle("dgt", mv(1, 2, T0 + 1, "e4")).await;
    let r = rejected(&r);
    assert!(r.message.contains("tolerance 0 ms"), "{}", r.message);
    accepted(&strict.svc.handle("dgt", mv(1, 3, T0, "e4")).await);
}
