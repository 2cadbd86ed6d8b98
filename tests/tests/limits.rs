//! Issue 40, part 6 (ADR platform-010): request limits on a real `arbiterd`: message
//! sizes per RPC, field bounds checked before authorisation, per-principal and
//! per-address rate limits, the connection cap and the idle timeout; the files' modes
//! and tokens kept out of the debug log. Timings here are sanity bounds only; the
//! measured figures are the `limits` rows of BENCHMARKS.md.
use std::io::Read;
use std::time::{Duration, Instant};

use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::*;
use arbiter_service_kit::auth::Auth;
use arbiter_tests::{Arbiter, start_arbiterd};
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

async fn channel(port: u16) -> Channel {
    tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .unwrap()
        .connect()
        .await
        .unwrap()
}

fn arbiter(dir: &tempfile::TempDir) -> Arbiter {
    Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    }
}

fn admin_token(a: &Arbiter) -> String {
    Auth::read_token(&a.data.join("admin.token"), "admin").expect("admin token")
}

fn new_tournament(a: &Arbiter, name: &str) -> String {
    a.json(&["tournament", "create", "--name", name])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn add_player(t: &str, name: &str) -> AddPlayerRequest {
    AddPlayerRequest {
        meta: Some(CommandMeta {
            command_id: uuid::Uuid::new_v4().to_string(),
            ..Default::default()
        }),
        tournament_id: t.to_owned(),
        data: Some(PlayerData {
            name: name.to_owned(),
            rating_standard: 2000,
            ..Default::default()
        }),
        missed_rounds: String::new(),
        ..Default::default()
    }
}

fn standings(t: &str, tiebreaks: String) -> GetStandingsRequest {
    GetStandingsRequest {
        tournament_id: t.to_owned(),
        tiebreaks,
        ..Default::default()
    }
}

fn refused(r: Result<impl Sized, Status>, code: Code, needles: &[&str]) -> Status {
    let s = match r {
        Ok(_) => panic!("expected {code:?} naming {needles:?}, got an answer"),
        Err(s) => s,
    };
    assert_eq!(s.code(), code, "{s:?}");
    for n in needles {
        assert!(s.message().contains(n), "{n:?} not in {:?}", s.message());
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_3_mb_tiebreak_request_is_refused_at_once_naming_the_limit_and_writes_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let t = new_tournament(&a, "Limits Open");
    let admin = admin_token(&a);
    let ch = channel(a.port).await;
    let mut results = ResultsServiceClient::new(ch.clone());
    let mut registry = RegistryServiceClient::new(ch.clone());

    // The finding: one GetStandings with a 3 MB tie-break list (anonymous or not).
    let big = "BH,".repeat(1_000_000);
    for token in [None, Some(admin.as_str())] {
        let started = Instant::now();
        let r = results
            .get_standings(req(standings(&t, big.clone()), token))
            .await;
        let took = started.elapsed();
        refused(
            r,
            Code::ResourceExhausted,
            &[
                "message size: GetStandings",
                "the limit is 65536 bytes",
                "ADR platform-010",
            ],
        );
        // A sanity bound, not the measurement (the bench row has it).
        assert!(took < Duration::from_secs(5), "took {took:?}");
        // The server goes on serving writes at once.
        registry
            .add_player(req(add_player(&t, "Player, After"), Some(&admin)))
            .await
            .unwrap();
    }

    // Within the message limit, the list's own bounds refuse it before authorisation:
    // an anonymous caller of a private tournament hears about the list, not its token.
    for token in [None, Some(admin.as_str())] {
        let r = results
            .get_standings(req(standings(&t, "BH,".repeat(10_000)), token))
            .await;
        refused(
            r,
            Code::InvalidArgument,
            &["tiebreaks: at most 200 characters, got 30000"],
        );
        let r = results
            .get_standings(req(standings(&t, "B,".repeat(30)), token))
            .await;
        refused(
            r,
            Code::InvalidArgument,
            &["tiebreaks: 31 entries; the limit is 20 (ADR platform-010)"],
        );
    }
    // Ids are bounded before anything is looked up.
    let r = results
        .get_standings(req(standings(&"x".repeat(100), String::new()), None))
        .await;
    refused(
        r,
        Code::InvalidArgument,
        &["tournament_id: 100 characters; the limit is 64 (ADR platform-010)"],
    );
    // An ordinary request is answered.
    results
        .get_standings(req(standings(&t, "BH,SB".into()), Some(&admin)))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_beyond_their_rpcs_limit_are_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let t = new_tournament(&a, "Sizes Open");
    let admin = admin_token(&a);
    let mut registry = RegistryServiceClient::new(channel(a.port).await);

    // 64 KiB for an ordinary write.
    let r = registry
        .add_player(req(add_player(&t, &"N".repeat(100_000)), Some(&admin)))
        .await;
    refused(
        r,
        Code::ResourceExhausted,
        &["message size: AddPlayer", "the limit is 65536 bytes"],
    );
    // Imports: a TRF file's size, and only with a valid token before the body is read.
    let trf = |n: usize| ImportTrfRequest {
        meta: Some(CommandMeta {
            command_id: uuid::Uuid::new_v4().to_string(),
            ..Default::default()
        }),
        trf: vec![b'x'; n],
        ..Default::default()
    };
    let r = registry.import_trf(req(trf(1 << 20), None)).await;
    refused(
        r,
        Code::Unauthenticated,
        &[
            "ImportTrf needs a valid bearer token",
            "before its body is read",
        ],
    );
    let r = registry
        .import_trf(req(trf(1 << 20), Some("arb_t_0000_not_a_token")))
        .await;
    refused(r, Code::Unauthenticated, &["before its body is read"]);
    let r = registry.import_trf(req(trf(20 << 20), Some(&admin))).await;
    refused(
        r,
        Code::ResourceExhausted,
        &["message size: ImportTrf", "the limit is 16842752 bytes"],
    );
    // A 1 MiB file passes the size check and reaches the TRF parser.
    let r = registry.import_trf(req(trf(1 << 20), Some(&admin))).await;
    let s = r.expect_err("garbage is not a TRF file");
    assert_ne!(s.code(), Code::ResourceExhausted, "{s:?}");
    // Still serving.
    registry
        .add_player(req(add_player(&t, "Player, Fine"), Some(&admin)))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_flood_from_one_principal_is_throttled_while_anothers_writes_go_through() {
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    let _d = start_arbiterd(&a.data, a.port, |c| {
        c.args(["--rate-writes-per-second", "1", "--rate-writes-burst", "20"]);
    });
    let t = new_tournament(&a, "Flood Open");
    let mut tokens = Vec::new();
    for name in ["Flood A", "Steady B"] {
        a.ok(&["access", "add", name]);
        a.ok(&[
            "access",
            "grant",
            name,
            "--role",
            "chief-arbiter",
            "--tournament",
            &t,
        ]);
        tokens.push(
            a.json(&["access", "token", name])["token"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let (flood, steady) = (&tokens[0], &tokens[1]);
    let ch = channel(a.port).await;
    let mut registry = RegistryServiceClient::new(ch.clone());

    let mut ok = 0;
    let mut throttled = None;
    for i in 0..40 {
        match registry
            .add_player(req(add_player(&t, &format!("Flood, No{i}")), Some(flood)))
            .await
        {
            Ok(_) => ok += 1,
            Err(s) => {
                throttled = Some(s);
                break;
            }
        }
    }
    let s = throttled.expect("the flood was never throttled");
    assert!((20..=30).contains(&ok), "{ok} writes before the refusal");
    assert_eq!(s.code(), Code::ResourceExhausted, "{s:?}");
    for n in [
        "rate limit: AddPlayer",
        "Flood A (p_",
        "1 per second (burst 20",
        "--rate-writes-per-second",
        "retry in",
    ] {
        assert!(s.message().contains(n), "{n:?} not in {:?}", s.message());
    }
    assert!(s.metadata().get("retry-after").is_some(), "{s:?}");
    assert!(
        s.metadata().get("grpc-retry-pushback-ms").is_some(),
        "{s:?}"
    );
    // Throttled again at once: the bucket is empty.
    let r = registry
        .add_player(req(add_player(&t, "Flood, Again"), Some(flood)))
        .await;
    refused(r, Code::ResourceExhausted, &["Flood A"]);
    // The other principal's writes go through meanwhile.
    for i in 0..10 {
        registry
            .add_player(req(add_player(&t, &format!("Steady, No{i}")), Some(steady)))
            .await
            .unwrap_or_else(|s| panic!("B's write {i} refused: {s:?}"));
    }
    // A's reads are not writes: they are served.
    ResultsServiceClient::new(ch.clone())
        .get_standings(req(standings(&t, String::new()), Some(flood)))
        .await
        .unwrap();
    // Without a valid token, the address is the caller.
    let mut throttled = None;
    for _ in 0..40 {
        match registry
            .create_tournament(req(CreateTournamentRequest::default(), None))
            .await
        {
            Err(s) if s.code() == Code::Unauthenticated => {}
            Err(s) => {
                throttled = Some(s);
                break;
            }
            Ok(_) => panic!("an anonymous write was accepted"),
        }
    }
    let s = throttled.expect("anonymous writes were never throttled");
    assert_eq!(s.code(), Code::ResourceExhausted, "{s:?}");
    assert!(
        s.message().contains("address 127.0.0.1 (no valid token)"),
        "{}",
        s.message()
    );
}

/// Reads until end of file (the server closed) or `limit`; how long it took.
fn until_closed(s: &mut std::net::TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
                ) =>
            {
                return Some(started.elapsed());
            }
            Err(_) => return None,
        }
        if started.elapsed() > limit {
            return None;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_cap_are_refused_and_idle_ones_closed() {
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    let _d = start_arbiterd(&a.data, a.port, |c| {
        c.args(["--max-connections", "3", "--idle-timeout-secs", "2"]);
    });
    let admin = admin_token(&a);
    let info = |ch: Channel| async move {
        RegistryServiceClient::new(ch)
            .get_service_info(GetServiceInfoRequest {})
            .await
    };
    // The cap: three open connections (raw TCP, nothing sent), the fourth refused.
    let held: Vec<_> = (0..3)
        .map(|_| std::net::TcpStream::connect(("127.0.0.1", a.port)).unwrap())
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    refused(
        info(channel(a.port).await).await,
        Code::ResourceExhausted,
        &["connections: 3 are open", "--max-connections"],
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ch = channel(a.port).await;
    info(ch.clone()).await.unwrap();

    // Idle: a connection that sends nothing is closed after the timeout.
    let mut idle = std::net::TcpStream::connect(("127.0.0.1", a.port)).unwrap();
    let took =
        tokio::task::spawn_blocking(move || until_closed(&mut idle, Duration::from_secs(15)))
            .await
            .unwrap()
            .expect("the idle connection stayed open");
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(10),
        "closed after {took:?}"
    );
    // The channel's connection was idle too; a client simply reconnects.
    let mut answered = false;
    for _ in 0..3 {
        if info(ch.clone()).await.is_ok() {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(answered, "no answer after the idle connection was closed");

    // A request in flight keeps its connection, however quiet: a rating list stream
    // that sends its chunk only after three idle seconds.
    let (tx, rx) = futures::channel::mpsc::unbounded::<ImportRatingListChunk>();
    let mut registry = RegistryServiceClient::new(channel(a.port).await);
    let call =
        tokio::spawn(async move { registry.import_rating_list(req(rx, Some(&admin))).await });
    tokio::time::sleep(Duration::from_secs(3)).await;
    tx.unbounded_send(ImportRatingListChunk {
        data: b"not a rating list\n".to_vec(),
        ..Default::default()
    })
    .unwrap();
    drop(tx);
    let r = tokio::time::timeout(Duration::from_secs(20), call)
        .await
        .expect("no answer")
        .unwrap();
    if let Err(s) = &r {
        assert!(
            !matches!(
                s.code(),
                Code::Unavailable | Code::Unknown | Code::Cancelled
            ),
            "the connection was closed under its request: {s:?}"
        );
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_files_are_private_and_no_token_reaches_the_debug_log() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    let log_path = dir.path().join("arbiterd.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut d = start_arbiterd(&a.data, a.port, |c| {
        c.env("RUST_LOG", "debug").stderr(log);
    });
    let t = new_tournament(&a, "Private Open");
    a.ok(&["access", "add", "Vera Viewer"]);
    a.ok(&["access", "grant", "Vera Viewer", "--role", "viewer"]);
    let vera = a.json(&["access", "token", "Vera Viewer"])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let admin = admin_token(&a);
    let bogus = "arb_t_00000000_this-token-does-not-exist-anywhere".to_owned();
    let ch = channel(a.port).await;
    let mut results = ResultsServiceClient::new(ch.clone());
    for token in [&admin, &vera, &bogus] {
        let _ = results
            .get_standings(req(standings(&t, String::new()), Some(token)))
            .await;
        let _ = RegistryServiceClient::new(ch.clone())
            .add_player(req(add_player(&t, "Player, Logged"), Some(token)))
            .await;
    }

    let mode = |p: &std::path::Path| {
        std::fs::metadata(p)
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(&a.data), 0o700, "data dir");
    assert_eq!(mode(&a.data.join("keys")), 0o700, "key dir");
    for f in [
        "arbiter.db",
        "arbiter.db-wal",
        "arbiter.db-shm",
        "admin.token",
    ] {
        assert_eq!(mode(&a.data.join(f)), 0o600, "{f}");
    }
    let mut keys = 0;
    for e in std::fs::read_dir(a.data.join("keys")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "key") {
            assert_eq!(mode(&p), 0o600, "{}", p.display());
            keys += 1;
        }
    }
    assert!(keys > 0, "no private key in the key dir");
    // The anchor is written within a second of a write.
    let anchor = a.data.join("log.anchor");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !anchor.exists() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(mode(&anchor), 0o600, "log.anchor");

    d.kill9();
    let mut text = String::new();
    std::fs::File::open(&log_path)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(
        text.contains("DEBUG") && text.contains("GetStandings"),
        "the debug log has no request lines:\n{}",
        &text[..text.len().min(2000)]
    );
    for (who, token) in [("admin", &admin), ("viewer", &vera), ("bogus", &bogus)] {
        assert!(
            !text.contains(token.as_str()),
            "the {who} token is in the log"
        );
        // Nor its secret part on its own.
        let secret = token.rsplit('_').next().unwrap();
        assert!(
            !text.contains(secret),
            "the {who} token's secret is in the log"
        );
    }
    assert!(
        !text.to_lowercase().contains("bearer "),
        "an authorization header is in the log"
    );
}

#[test]
fn a_connection_that_sends_nothing_does_not_hold_the_shutdown_up() {
    let dir = tempfile::tempdir().unwrap();
    let a = arbiter(&dir);
    // The idle timeout is far away: only the shutdown may end the silent connection.
    let mut d = start_arbiterd(&a.data, a.port, |_| {});
    let silent = std::net::TcpStream::connect(("127.0.0.1", a.port)).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let pid = d.child.id().to_string();
    let st = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(st.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    while d.child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "arbiterd did not stop while a silent connection was open"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(d.child.wait().unwrap().success());
    drop(silent);
}
