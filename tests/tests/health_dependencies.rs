//! Health that tells the truth (ADR platform-014), through the real binaries: the
//! standalone registry on PostgreSQL answers NOT_SERVING naming `database` while its
//! PostgreSQL is down (fast and immediate shutdown), refuses writes with `Unavailable`
//! (retryable) and never a wrong answer, comes back to SERVING by itself, and a command
//! retried with the same id after the restart is written exactly once. With NATS gone it
//! says `nats`. Liveness stays SERVING throughout.
use std::path::Path;
use std::time::{Duration, Instant};

use arbiter_testkit::{NatsServer, PgServer, PgShutdown};
use arbiter_tests::{output_text, run_cli, start_service};

/// `arbiter health --json` against the registry: (registry's status, what is down).
fn health(data: &Path, port: u16) -> (String, Option<String>) {
    let o = run_cli(data, port, &["health", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|_| panic!("health --json: {}", output_text(&o)));
    let registry = v["services"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["service"] == "arbiter.v1.RegistryService")
        .map(|s| s["status"].as_str().unwrap().to_owned())
        .unwrap();
    (registry, v["down"].as_str().map(str::to_owned))
}

/// Waits (30 s at most) until the registry's health is `status`; returns what is down.
fn wait_health(data: &Path, port: u16, status: &str) -> Option<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (now, down) = health(data, port);
        if now == status {
            return down;
        }
        assert!(
            Instant::now() < deadline,
            "the registry never became {status} (is {now}, down: {down:?})"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The liveness service answers SERVING (asked with grpc's health protocol).
fn alive(port: u16) -> bool {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let channel = tonic::transport::Channel::from_shared(format!("http://127.0.0.1:{port}"))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut client = tonic_health::pb::health_client::HealthClient::new(channel);
        let r = client
            .check(tonic_health::pb::HealthCheckRequest {
                service: "arbiter.v1.Liveness".into(),
            })
            .await
            .unwrap();
        r.into_inner().status
            == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    })
}

fn tournaments(data: &Path, port: u16) -> Vec<String> {
    let o = run_cli(data, port, &["tournament", "list", "--json"]);
    assert!(o.status.success(), "{}", output_text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let list = v
        .as_array()
        .or_else(|| v["tournaments"].as_array())
        .unwrap();
    list.iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_lost_database_is_named_refused_as_unavailable_and_recovered_with_exactly_once_retries() {
    let mut pg = PgServer::start_restartable().unwrap_or_else(|e| panic!("PostgreSQL: {e}"));
    let nats = NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let tokens = data.join("admin.token");
    let port = arbiter_testkit::free_port();
    let _registry = {
        // Probe every 100 ms so the test is short; the same code path as the 1 s default.
        unsafe { std::env::set_var("ARBITER_HEALTH_PROBE_MS", "100") };
        start_service("registry", pg.url(), nats.url(), port, &tokens)
    };
    assert_eq!(wait_health(&data, port, "SERVING"), None);

    let mut expected = Vec::new();
    for (i, mode) in [PgShutdown::Fast, PgShutdown::Immediate]
        .into_iter()
        .enumerate()
    {
        let before = format!("Before {mode:?}");
        let o = run_cli(
            &data,
            port,
            &["tournament", "create", "--name", &before, "--rounds", "5"],
        );
        assert!(o.status.success(), "{}", output_text(&o));
        expected.push(before);

        pg.stop(mode);
        eprintln!("injected: PostgreSQL {mode:?} shutdown");
        let down = wait_health(&data, port, "NOT_SERVING").expect("what is down is named");
        assert!(down.starts_with("database: "), "{down}");
        assert!(
            alive(port),
            "liveness stays SERVING while a dependency is down"
        );

        // A write while the database is down: Unavailable (exit 3), never a wrong answer.
        let id = format!("during-outage-{i}");
        let during = format!("During {mode:?}");
        let args = [
            "tournament",
            "create",
            "--name",
            &during,
            "--rounds",
            "5",
            "--command-id",
            &id,
        ];
        let o = run_cli(&data, port, &args);
        assert_eq!(o.status.code(), Some(3), "{}", output_text(&o));
        assert!(
            output_text(&o).contains("Unavailable"),
            "{}",
            output_text(&o)
        );
        // The projection still answers reads with what was committed.
        assert_eq!(tournaments(&data, port), expected);

        pg.start_again()
            .unwrap_or_else(|e| panic!("PostgreSQL again: {e}"));
        eprintln!("injected: PostgreSQL started again");
        assert_eq!(
            wait_health(&data, port, "SERVING"),
            None,
            "recovered by itself"
        );
        // The client retries with the same command id: written once, replayed after.
        let first = run_cli(&data, port, &[&args[..], &["--json"]].concat());
        assert!(first.status.success(), "{}", output_text(&first));
        let again = run_cli(&data, port, &[&args[..], &["--json"]].concat());
        assert!(again.status.success(), "{}", output_text(&again));
        let id_of = |o: &std::process::Output| {
            serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["tournament_id"].clone()
        };
        assert_eq!(
            id_of(&first),
            id_of(&again),
            "the retry is the same command"
        );
        expected.push(during);
        assert_eq!(
            tournaments(&data, port),
            expected,
            "each command exactly once"
        );
    }

    // NATS gone: `nats` is named; back when it is.
    drop(nats);
    eprintln!("injected: NATS stopped");
    let down = wait_health(&data, port, "NOT_SERVING").expect("what is down is named");
    assert!(down.contains("nats: "), "{down}");
}
