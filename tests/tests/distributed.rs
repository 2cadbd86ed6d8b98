//! Distributed mode: the registry as its own process against a real PostgreSQL and a
//! real `nats-server -js`, and a second process consuming its events. The relay is
//! killed between write and publish, and again between publish and outbox ack: the
//! consumer still sees `TournamentCreated` exactly once, in the trace of the command.
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{CommandMeta, CreateTournamentRequest};
use arbiter_tests::{Proc, binary};

const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

fn registry(
    db: &str,
    nats: &str,
    port: u16,
    tokens: &Path,
    relay: bool,
    abort_after_publish: bool,
) -> Proc {
    let mut cmd = Command::new(binary("arbiter-registry"));
    cmd.args([
        "--database-url",
        db,
        "--nats-url",
        nats,
        "--listen",
        &format!("127.0.0.1:{port}"),
    ])
    .arg("--token-file")
    .arg(tokens)
    .arg("--key-dir")
    .arg(tokens.with_file_name("keys"))
    .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
    .env("RUST_LOG", "warn");
    if !relay {
        cmd.arg("--no-relay");
    }
    if abort_after_publish {
        cmd.env("ARBITER_FAULT_RELAY_ABORT_AFTER_PUBLISH", "1");
    }
    let mut p = Proc::spawn(&mut cmd);
    // With the fault injected, the relay may publish and abort before the server has
    // even printed its address: the caller waits for the exit instead.
    if !abort_after_publish {
        p.wait_line("ready", 30);
    }
    p
}

fn lines(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn wait_until(what: &str, secs: u64, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

async fn create(port: u16, token: &str, name: &str) -> String {
    let mut client = RegistryServiceClient::connect(format!("http://127.0.0.1:{port}"))
        .await
        .unwrap();
    let mut req = tonic::Request::new(CreateTournamentRequest {
        meta: Some(CommandMeta {
            command_id: format!("create-{name}"),
            ..Default::default()
        }),
        name: name.into(),
        ..Default::default()
    });
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    req.metadata_mut().insert(
        "traceparent",
        format!("00-{TRACE_ID}-00f067aa0ba902b7-01")
            .parse()
            .unwrap(),
    );
    let r = client.create_tournament(req).await.unwrap().into_inner();
    r.tournament.unwrap().tournament_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_on_postgres_and_nats_delivers_exactly_once_across_relay_crashes() {
    let pg = tokio::task::spawn_blocking(arbiter_testkit::PgServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("PostgreSQL: {e}"));
    let nats = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("nats-server: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("consumed.txt");
    let tokens = dir.path().join("tokens");
    let port = arbiter_testkit::free_port();

    let mut consumer = Proc::spawn(
        Command::new(env!("CARGO_BIN_EXE_arbiter-test-consumer"))
            .args([
                nats.url(),
                "it-consumer",
                "arbiter.v1.registry.>",
                out.to_str().unwrap(),
            ])
            .env("ARBITER_KEY_DIR", tokens.with_file_name("keys")),
    );
    consumer.wait_line("ready", 30);

    // 1. Written, not published: the registry runs without its relay and is killed.
    let mut reg = registry(pg.url(), nats.url(), port, &tokens, false, false);
    let token = std::fs::read_to_string(&tokens)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("admin ").map(str::to_owned))
        .expect("admin token");
    let first = create(port, &token, "First Open").await;
    reg.kill9();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        lines(&out).is_empty(),
        "nothing published yet: {:?}",
        lines(&out)
    );

    // 2. The relay publishes, then dies before deleting the outbox row.
    let mut reg = registry(pg.url(), nats.url(), port, &tokens, true, true);
    let deadline = Instant::now() + Duration::from_secs(30);
    while reg.child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the fault-injected relay did not abort"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_until("the first event at the consumer", 30, || {
        lines(&out).len() == 1
    });

    // 3. Normal restart: the relay republishes the outbox row (a duplicate), then a
    //    new event; the consumer sees each once.
    let _reg = registry(pg.url(), nats.url(), port, &tokens, true, false);
    let second = create(port, &token, "Second Open").await;
    wait_until("the second event at the consumer", 30, || {
        lines(&out).len() >= 2
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = lines(&out);
    assert_eq!(got.len(), 2, "exactly once each: {got:?}");
    let f: Vec<&str> = got[0].split(' ').collect();
    assert_eq!(
        (f[1], f[2], f[3]),
        (
            format!("tournament-{first}").as_str(),
            "1",
            "TournamentCreated"
        )
    );
    assert!(got[1].contains(&format!("tournament-{second}")));
    for l in &got {
        let tp = l.split(' ').nth(4).unwrap_or("");
        assert!(
            tp.starts_with(&format!("00-{TRACE_ID}-")),
            "the command's trace continues in the consumer: {l}"
        );
    }
}
