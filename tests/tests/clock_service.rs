//! The clock-telemetry service through the real `arbiterd` (and `arbiter clock watch`):
//! a board device's bidirectional stream, the flag timer on the wall clock, malformed
//! telemetry refused without disturbing the other boards, a restart rebuilding the
//! boards from the log, NATS ingestion with `ResultReported` on the bus, and device stamps
//! bounded by arbiterd's clock (`--device-clock-tolerance-ms`).
use std::path::Path;
use std::process::Output;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::telemetry::Item;
use arbiter_proto::v1::telemetry_reply::Outcome;
use arbiter_proto::v1::{
    ClockStartedIn, ClockState, CommandMeta, GetClockStateRequest, MoveIn, OpenBoardRequest,
    ResultReported, Telemetry, TelemetryReply,
};
use arbiter_tests::{Proc, output_text, run_cli, start_arbiterd};
use prost::Message;
use tonic::codegen::tokio_stream::StreamExt;
use tonic::codegen::tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

fn arbiterd(data: &Path, port: u16, nats: Option<&str>) -> Proc {
    start_arbiterd(data, port, |c| {
        if let Some(url) = nats {
            c.args(["--nats-url", url]);
        }
    })
}

fn cli(data: &Path, port: u16, args: &[&str]) -> Output {
    run_cli(data, port, args)
}

fn text(o: &Output) -> String {
    output_text(o)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

fn token(data: &Path) -> String {
    let t = std::fs::read_to_string(data.join("admin.token")).unwrap();
    t.lines()
        .find_map(|l| l.strip_prefix("admin "))
        .unwrap()
        .trim()
        .to_owned()
}

fn authed<T>(token: &str, body: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

/// Reads need a principal too: every request carries the admin token unless it has one.
#[derive(Clone)]
struct Bearer(tonic::metadata::MetadataValue<tonic::metadata::Ascii>);

impl tonic::service::Interceptor for Bearer {
    fn call(&mut self, mut r: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if !r.metadata().contains_key("authorization") {
            r.metadata_mut().insert("authorization", self.0.clone());
        }
        Ok(r)
    }
}

type Clock = ClockServiceClient<tonic::service::interceptor::InterceptedService<Channel, Bearer>>;

async fn client(port: u16, data: &Path) -> Clock {
    let channel = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let bearer = Bearer(format!("Bearer {}", token(data)).parse().unwrap());
    ClockServiceClient::with_interceptor(channel, bearer)
}

/// Creates the tournament in the registry (OpenBoard refuses tournaments it does not
/// know) and returns its id.
fn create_tournament(data: &Path, port: u16) -> String {
    let o = cli(
        data,
        port,
        &[
            "tournament",
            "create",
            "--name",
            "Bunratty Masters",
            "--rounds",
            "6",
            "--federation",
            "IRL",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    out.split_whitespace()
        .last()
        .expect("created tournament ID")
        .to_owned()
}

async fn open(c: &mut Clock, token: &str, tid: &str, board: u32, tc: &str) {
    c.open_board(authed(
        token,
        OpenBoardRequest {
            meta: Some(CommandMeta {
                command_id: format!("open-{board}-{tc}"),
                ..Default::default()
            }),
            tournament_id: tid.into(),
            board,
            round: 1,
            time_control: tc.into(),
            white: "Ni Houlihan".into(),
            black: "Quinn".into(),
            laws_edition: "2023".into(),
            auto_apply_results: false,
            quickplay_guidelines: false,
            supervision: String::new(),
            variant: String::new(),
            start_position: String::new(),
            draw_by_lot: false,
        },
    ))
    .await
    .unwrap();
}

fn telemetry(tid: &str, board: u32, seq: u64, at: u64, item: Item) -> Telemetry {
    Telemetry {
        tournament_id: tid.into(),
        board,
        device_id: format!("dgt3000-{board}"),
        seq,
        at_ms: Some(at),
        white_ms: None,
        black_ms: None,
        item: Some(item),
    }
}

fn san(tid: &str, board: u32, seq: u64, at: u64, san: &[u8]) -> Telemetry {
    telemetry(
        tid,
        board,
        seq,
        at,
        Item::Move(MoveIn {
            san: san.to_vec(),
            uci: String::new(),
        }),
    )
}

async fn state(c: &mut Clock, tid: &str, board: u32) -> ClockState {
    c.get_clock_state(GetClockStateRequest {
        tournament_id: tid.into(),
        board,
    })
    .await
    .unwrap()
    .into_inner()
}

/// One device stream: send an item, read its reply.
struct Device {
    tx: tokio::sync::mpsc::Sender<Telemetry>,
    rx: tonic::Streaming<TelemetryReply>,
}

impl Device {
    async fn connect(c: &mut Clock, token: &str) -> Device {
        let (tx, items) = tokio::sync::mpsc::channel(16);
        let rx = c
            .board_telemetry(authed(token, ReceiverStream::new(items)))
            .await
            .unwrap()
            .into_inner();
        Device { tx, rx }
    }
    async fn send(&mut self, t: Telemetry) -> TelemetryReply {
        let seq = t.seq;
        self.tx.send(t).await.unwrap();
        let r = tokio::time::timeout(Duration::from_secs(10), self.rx.message())
            .await
            .expect("a reply within 10 s")
            .unwrap()
            .expect("stream open");
        assert_eq!(r.seq, seq, "replies carry the item's seq");
        r
    }
}

fn rejection(r: &TelemetryReply) -> (String, String) {
    match &r.outcome {
        Some(Outcome::Rejected(x)) => (x.code.clone(), x.message.clone()),
        other => panic!("expected a rejection, got {other:?}"),
    }
}

fn accepted(r: &TelemetryReply) -> &arbiter_proto::v1::TelemetryAccepted {
    match &r.outcome {
        Some(Outcome::Accepted(a)) => a,
        other => panic!("expected acceptance, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn device_stream_flag_timer_watch_and_restart_through_arbiterd() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let mut d = arbiterd(&data, port, None);
    let token = token(&data);
    let tid = create_tournament(&data, port);
    let mut c = client(port, &data).await;

    // Unauthenticated devices are refused.
    let (_tx, items) = tokio::sync::mpsc::channel::<Telemetry>(1);
    let err = ClockServiceClient::connect(format!("http://127.0.0.1:{port}"))
        .await
        .unwrap()
        .board_telemetry(ReceiverStream::new(items))
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::Unauthenticated);

    // OpenBoard refuses a tournament the registry does not know.
    let unknown = c
        .open_board(authed(
            &token,
            OpenBoardRequest {
                meta: Some(CommandMeta {
                    command_id: "open-unknown".into(),
                    ..Default::default()
                }),
                tournament_id: "bunratty-2026".into(),
                board: 1,
                round: 1,
                time_control: "5400+30".into(),
                ..Default::default()
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::NotFound, "{unknown:?}");
    assert!(
        unknown.message().starts_with("tournament_id: "),
        "{unknown:?}"
    );
    open(&mut c, &token, &tid, 1, "5400+30").await;
    open(&mut c, &token, &tid, 2, "5+0").await;
    let mut dev = Device::connect(&mut c, &token).await;
    // The items describe the last seconds: stamps behind the server's clock are used as
    // given (ahead of it beyond the tolerance they would be refused, ADR clock-007).
    let t0 = now_ms() - 20_000;
    accepted(
        &dev.send(telemetry(
            &tid,
            1,
            1,
            t0,
            Item::ClockStarted(ClockStartedIn {}),
        ))
        .await,
    );
    let mut e4 = san(&tid, 1, 2, t0 + 5_000, b"e4");
    e4.white_ms = Some(5_455_000); // 90 min + 30 s − 5 s, + 30 s for the next move
    e4.black_ms = Some(0); // a 0:00:00 display glitch
    let r = dev.send(e4).await;
    let a = accepted(&r);
    assert!(a.effects[0].contains("e4"), "{:?}", a.effects);
    assert_eq!(a.anomalies.len(), 1, "{:?}", a.anomalies);
    assert!(a.anomalies[0].contains("black reading 0:00:00"));

    // Malformed items on the same stream: each refused clearly, the stream goes on.
    let (code, msg) = rejection(&dev.send(san(&tid, 7, 3, t0 + 6_000, b"e5")).await);
    assert_eq!(code, "unknown_board");
    assert!(msg.starts_with("board: no board 7"), "{msg}");
    let (code, msg) = rejection(&dev.send(san(&tid, 1, 4, t0 + 6_000, b"e\xff5")).await);
    assert_eq!(code, "unreadable_move");
    assert!(msg.starts_with("move.san: not UTF-8"), "{msg}");
    let (code, _) = rejection(&dev.send(san(&tid, 1, 5, t0 + 1_000, b"e5")).await);
    assert_eq!(code, "time_went_backwards");
    let r = dev.send(san(&tid, 1, 6, t0 + 7_000, b"e5")).await;
    assert_eq!(accepted(&r).state.as_ref().unwrap().moves_san, ["e4", "e5"]);

    // Board 2, 5 s sudden death: after 1.e4 nobody moves; the service's timer records
    // Black's flag fall, and `arbiter clock watch` follows the board until the result.
    let t2 = now_ms();
    accepted(
        &dev.send(telemetry(
            &tid,
            2,
            1,
            t2,
            Item::ClockStarted(ClockStartedIn {}),
        ))
        .await,
    );
    accepted(&dev.send(san(&tid, 2, 2, t2 + 200, b"e4")).await);
    let watch_data = data.clone();
    let watch_tid = tid.clone();
    let watcher = tokio::task::spawn_blocking(move || {
        cli(&watch_data, port, &["clock", "watch", &watch_tid, "2"])
    });
    let out = tokio::time::timeout(Duration::from_secs(20), watcher)
        .await
        .expect("watch ends with the game")
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let shown = text(&out);
    assert!(shown.contains("Ni Houlihan – Quinn"), "{shown}");
    assert!(shown.contains("result 1-0 (FlagFall, Law 6.9)"), "{shown}");
    let s2 = state(&mut c, &tid, 2).await;
    assert_eq!((s2.result.as_str(), s2.black_ms), ("1-0", 0));
    // Late telemetry for the finished game is refused; board 1 is untouched.
    let (code, msg) = rejection(&dev.send(san(&tid, 2, 3, now_ms(), b"e5")).await);
    assert_eq!(code, "game_over");
    assert!(msg.contains("6.9"), "{msg}");
    let s1 = state(&mut c, &tid, 1).await;
    assert_eq!(s1.moves_san, ["e4", "e5"]);
    assert_eq!(s1.result, "");
    assert_eq!(s1.anomalies, 1);

    // JSON for scripts: the current state, one object per line.
    let j = cli(
        &data,
        port,
        &["--json", "clock", "watch", &tid, "1", "--updates", "1"],
    );
    assert!(j.status.success(), "{}", text(&j));
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(v["moves_san"], serde_json::json!(["e4", "e5"]));
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(v["rate"], "standard");
    let missing = cli(&data, port, &["clock", "watch", &tid, "9"]);
    assert_eq!(missing.status.code(), Some(1), "{}", text(&missing));
    assert!(
        text(&missing).contains("board: no board 9"),
        "{}",
        text(&missing)
    );

    // kill -9 and restart: both boards are rebuilt from the log.
    drop(dev);
    d.kill9();
    let _d = arbiterd(&data, port, None);
    let mut c = client(port, &data).await;
    let again = state(&mut c, &tid, 1).await;
    assert_eq!(again.moves_san, s1.moves_san);
    // White's clock runs (read at the server's time): the same flag instant is the same
    // clock; Black's stopped time is the same reading.
    assert_eq!(
        (again.flag_instant_ms, again.black_ms, again.stream_version),
        (s1.flag_instant_ms, s1.black_ms, s1.stream_version)
    );
    assert_eq!(state(&mut c, &tid, 2).await.termination, "FlagFall");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_telemetry_is_ingested_and_the_result_is_published_on_the_bus() {
    let nats = arbiter_testkit::NatsServer::start().expect("nats-server (make tools)");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let _d = arbiterd(&data, port, Some(nats.url()));
    let token = token(&data);
    let tid = create_tournament(&data, port);
    let mut c = client(port, &data).await;
    open(&mut c, &token, &tid, 4, "600+5").await;

    // Trusting arbiterd's public keys: only what it sealed is delivered.
    let keys = arbiter_eventlog::Keys::in_dir(&data.join("keys"), "test-consumer", None).unwrap();
    let bus = arbiter_bus::NatsBus::connect_with(nats.url(), keys)
        .await
        .unwrap();
    let mut results = arbiter_bus::Bus::Nats(Box::new(bus.clone()))
        .consumer("test-results", "arbiter.v1.clock.ResultReported")
        .await
        .unwrap();
    let nc = bus.client().clone();
    let subject = &format!("arbiter.v1.clock.in.{tid}.4");
    // The items describe the last seconds: stamps behind the server's clock are used as
    // given (ahead of it beyond the tolerance they would be refused, ADR clock-007).
    let t0 = now_ms() - 20_000;
    let mut items = vec![telemetry(
        &tid,
        4,
        1,
        t0,
        Item::ClockStarted(ClockStartedIn {}),
    )];
    for (i, m) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
        let mut t = san(
            &tid,
            4,
            2 + i as u64,
            t0 + 1_000 * (i as u64 + 1),
            m.as_bytes(),
        );
        // The subject names the board; the body may leave it out.
        t.tournament_id.clear();
        t.board = 0;
        items.push(t);
    }
    let bearer = || arbiter_clock_telemetry::nats_telemetry_headers(&token);
    // Telemetry without a token, or with a wrong one, is rejected and never applied:
    // had either been applied, white's first move would be e4 and f3 below illegal.
    let forged = telemetry(&tid, 4, 1, t0, Item::ClockStarted(ClockStartedIn {}));
    nc.publish(subject.to_string(), forged.encode_to_vec().into())
        .await
        .unwrap();
    let wrong = || arbiter_clock_telemetry::nats_telemetry_headers("arb_not-a-token");
    nc.publish_with_headers(
        subject.to_string(),
        wrong(),
        san(&tid, 4, 2, t0 + 500, b"e4").encode_to_vec().into(),
    )
    .await
    .unwrap();
    // A malformed message on another board's subject disturbs nothing.
    nc.publish_with_headers(
        format!("arbiter.v1.clock.in.{tid}.5"),
        bearer(),
        b"\xff\xff not protobuf".to_vec().into(),
    )
    .await
    .unwrap();
    for t in items {
        nc.publish_with_headers(subject.to_string(), bearer(), t.encode_to_vec().into())
            .await
            .unwrap();
    }
    nc.flush().await.unwrap();

    // A device that wants an answer sends a reply subject; the service's reply carries
    // the `Arbiter-Reply` header (JetStream acks the same inbox: the subjects are in ARBITER).
    let inbox = nc.new_inbox();
    let mut answers = nc.subscribe(inbox.clone()).await.unwrap();
    let mut ask = async |token: Option<&str>, t: Telemetry| {
        let body = t.encode_to_vec().into();
        match token {
            Some(token) => nc
                .publish_with_reply_and_headers(
                    subject.to_string(),
                    inbox.clone(),
                    arbiter_clock_telemetry::nats_telemetry_headers(token),
                    body,
                )
                .await
                .unwrap(),
            None => nc
                .publish_with_reply(subject.to_string(), inbox.clone(), body)
                .await
                .unwrap(),
        }
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), answers.next())
                .await
                .expect("a reply within 10 s")
                .unwrap();
            let ours = m
                .headers
                .as_ref()
                .and_then(|h| h.get("Arbiter-Reply"))
                .is_some();
            if ours {
                break TelemetryReply::decode(m.payload.as_ref()).unwrap();
            }
        }
    };
    let no_token = ask(None, san(&tid, 4, 8, t0 + 9_000, b"Nc6")).await;
    let (code, message) = rejection(&no_token);
    assert_eq!(code, "unauthenticated", "{no_token:?}");
    assert!(
        message.starts_with("authorization: ") && message.contains("Bearer"),
        "{message}"
    );
    let bad_token = ask(Some("arb_not-a-token"), san(&tid, 4, 8, t0 + 9_000, b"Nc6")).await;
    assert_eq!(
        rejection(&bad_token),
        (
            "unauthenticated".to_owned(),
            "authorization: unknown token".to_owned()
        )
    );
    let reply = ask(Some(&token), san(&tid, 4, 9, t0 + 10_000, b"Nc6")).await;
    assert_eq!(reply.seq, 9);
    assert_eq!(rejection(&reply).0, "game_over", "{reply:?}");

    let delivery = tokio::time::timeout(Duration::from_secs(20), results.next())
        .await
        .expect("ResultReported on the bus within 20 s")
        .unwrap();
    assert_eq!(delivery.event.event_type, "ResultReported");
    assert_eq!(delivery.event.stream, format!("board-{tid}-4"));
    let r = ResultReported::decode(delivery.event.payload.as_slice()).unwrap();
    assert_eq!(
        (
            r.result.as_str(),
            r.termination.as_str(),
            r.article.as_str()
        ),
        ("0-1", "Checkmate", "5.1.1")
    );
    assert_eq!(
        (r.white.as_str(), r.black.as_str(), r.plies),
        ("Ni Houlihan", "Quinn", 4)
    );
    assert!(
        !r.auto_apply,
        "this tournament confirms results by the arbiter"
    );
    delivery.ack().await.unwrap();
    let s = state(&mut c, &tid, 4).await;
    assert_eq!(s.moves_san, ["f3", "e5", "g4", "Qh4#"]);
}

/// Issue 39 part 6 (ADR clock-007) through the real `arbiterd` and a device stream: stamps
/// at 2^64 − 1, an hour ahead of the server's clock, or before the board's last event are
/// refused naming `at_ms`, the server's time and the tolerance given with
/// `--device-clock-tolerance-ms`; the clock is read back unchanged (remaining times, flag
/// instant, log version) and the next good move is applied normally. A tolerance beyond
/// the limit is refused at start (here from `ARBITER_DEVICE_CLOCK_TOLERANCE_MS`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn device_stamps_are_bounded_by_the_servers_clock_through_arbiterd() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let too_lax = std::process::Command::new(arbiter_tests::binary("arbiterd"))
        .arg("--data-dir")
        .arg(&data)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("ARBITER_DEVICE_CLOCK_TOLERANCE_MS", "3600000")
        .env_remove("ARBITER_NATS_URL")
        .output()
        .unwrap();
    assert_eq!(too_lax.status.code(), Some(2), "{}", text(&too_lax));
    assert!(
        text(&too_lax).contains("device-clock-tolerance-ms") && text(&too_lax).contains("60000 ms"),
        "{}",
        text(&too_lax)
    );

    let _d = start_arbiterd(&data, port, |c| {
        c.args(["--device-clock-tolerance-ms", "500"]);
    });
    let token = token(&data);
    let tid = create_tournament(&data, port);
    let mut c = client(port, &data).await;
    open(&mut c, &token, &tid, 1, "5400+30").await;
    let mut dev = Device::connect(&mut c, &token).await;
    let t0 = now_ms() - 20_000;
    accepted(
        &dev.send(telemetry(
            &tid,
            1,
            1,
            t0,
            Item::ClockStarted(ClockStartedIn {}),
        ))
        .await,
    );
    accepted(&dev.send(san(&tid, 1, 2, t0 + 5_000, b"e4")).await);
    let before = state(&mut c, &tid, 1).await;
    assert_eq!(before.white_ms, 5_455_000);
    assert_eq!(before.flag_instant_ms, Some(t0 + 5_000 + 5_430_000));
    let press = |seq, at| {
        telemetry(
            &tid,
            1,
            seq,
            at,
            Item::Press(arbiter_proto::v1::PressIn {
                side: "black".into(),
            }),
        )
    };
    for (seq, item) in [
        (3, san(&tid, 1, 3, u64::MAX, b"e5")),
        (4, press(4, u64::MAX)),
        (5, san(&tid, 1, 5, now_ms() + 3_600_000, b"e5")),
        (6, press(6, now_ms() + 3_600_000)),
    ] {
        let at = item.at_ms.unwrap();
        let r = dev.send(item).await;
        let (code, msg) = rejection(&r);
        assert_eq!(code, "ahead_of_server_time", "seq {seq}: {msg}");
        assert!(
            msg.starts_with(&format!("at_ms: {at} is "))
                && msg.contains("ahead of the server's time")
                && msg.contains("tolerance 500 ms"),
            "{msg}"
        );
    }
    let (code, msg) = rejection(&dev.send(san(&tid, 1, 7, t0 + 4_000, b"e5")).await);
    assert_eq!(code, "time_went_backwards");
    assert!(
        msg.starts_with("at_ms: ") && msg.contains("server time"),
        "{msg}"
    );

    let after = state(&mut c, &tid, 1).await;
    assert_eq!(
        (
            after.white_ms,
            after.flag_instant_ms,
            after.stream_version,
            after.moves_san.clone(),
            after.result.clone(),
        ),
        (
            before.white_ms,
            before.flag_instant_ms,
            before.stream_version,
            before.moves_san.clone(),
            before.result.clone(),
        )
    );

    // The board is not jammed: Black's next move is charged from e4 to its own stamp.
    let at = now_ms();
    let r = dev.send(san(&tid, 1, 8, at, b"e5")).await;
    let s = accepted(&r).state.clone().unwrap();
    assert_eq!(s.moves_san, ["e4", "e5"]);
    assert_eq!(s.black_ms, 5_430_000 + 30_000 - (at - (t0 + 5_000)));
    assert_eq!(s.result, "");
}
