//! Issue 39 parts 1, 2, 3 and 7 through the real binaries: forged envelopes on NATS are
//! refused (embedded `arbiterd --nats-url` and the distributed mirrors), a log tampered
//! with while the server was stopped is named by `arbiterd --check-log` and
//! `arbiter audit verify` and refuses every write, a command id is bound to its request,
//! and a restarted server serves nothing before its projections caught up.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_eventlog::hash_chain::event_hash;
use arbiter_eventlog::signing::{LOG_GENESIS, log_link};
use arbiter_proto::v1::EventEnvelope;
use arbiter_tests::{Arbiter, Proc, binary, output_text, start_arbiterd};
use prost::Message as _;
use sqlx::Row;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The registry's `GetServiceInfo` on `port`.
fn info(port: u16) -> arbiter_proto::v1::ServiceInfo {
    rt().block_on(async {
        let mut c = arbiter_proto::v1::registry_service_client::RegistryServiceClient::connect(
            format!("http://127.0.0.1:{port}"),
        )
        .await
        .unwrap();
        c.get_service_info(arbiter_proto::v1::GetServiceInfoRequest {})
            .await
            .unwrap()
            .into_inner()
    })
}

/// The pairing service's `GetServiceInfo` on `port`.
fn pairing_info(port: u16) -> arbiter_proto::v1::ServiceInfo {
    rt().block_on(async {
        let mut c = arbiter_proto::v1::pairing_service_client::PairingServiceClient::connect(
            format!("http://127.0.0.1:{port}"),
        )
        .await
        .unwrap();
        c.get_service_info(arbiter_proto::v1::GetServiceInfoRequest {})
            .await
            .unwrap()
            .into_inner()
    })
}

fn wait_until(what: &str, secs: u64, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Publishes `envelope` on `subject` as anybody with access to NATS could.
fn publish_raw(url: &str, subject: &str, envelope: &EventEnvelope) {
    rt().block_on(async {
        let client = async_nats::connect(url).await.unwrap();
        let js = async_nats::jetstream::new(client);
        js.publish(subject.to_owned(), envelope.encode_to_vec().into())
            .await
            .unwrap()
            .await
            .unwrap();
    })
}

/// A forged `TournamentUpdated` renaming tournament `id` (at stream version 2, as the
/// real next event would be), its hash computed right, signed by `key` or unsigned.
fn forged_rename(id: &str, key: Option<&arbiter_eventlog::signing::Signer>) -> EventEnvelope {
    forged(id, 2, "TournamentUpdated", "admin", key)
}

/// A forged event of tournament `id`'s stream at `version`, hashed right, signed by
/// `key` (its own seal) or unsigned.
fn forged(
    id: &str,
    version: i64,
    event_type: &str,
    actor: &str,
    key: Option<&arbiter_eventlog::signing::Signer>,
) -> EventEnvelope {
    let payload = arbiter_proto::v1::TournamentUpdated {
        name: Some("Renamed by mallory".into()),
        ..Default::default()
    }
    .encode_to_vec();
    let mut e = EventEnvelope {
        event_id: uuid::Uuid::now_v7().to_string(),
        stream: format!("tournament-{id}"),
        stream_version: version,
        global_position: 99,
        event_type: event_type.into(),
        schema_version: 1,
        payload,
        recorded_at_micros: 1,
        actor: actor.into(),
        command_id: "forged".into(),
        service: "registry".into(),
        prev_hash: vec![0; 32],
        ..Default::default()
    };
    let r = arbiter_eventlog::RecordedEvent::from_envelope(e.clone(), String::new());
    e.hash = event_hash(&r).to_vec();
    if let Some(k) = key {
        e.seal_version = version;
        e.seal_key_id = k.key_id().to_owned();
        e.seal_signature = k.sign(&arbiter_eventlog::signing::seal_message(&e.hash));
    }
    e
}

fn stderr_file(dir: &Path, name: &str) -> (PathBuf, std::fs::File) {
    let p = dir.join(name);
    let f = std::fs::File::create(&p).unwrap();
    (p, f)
}

#[test]
fn forged_envelopes_on_nats_are_refused_by_arbiterd() {
    let nats = arbiter_testkit::NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let (log, err) = stderr_file(dir.path(), "arbiterd.stderr");
    let _d = start_arbiterd(&a.data, a.port, |c| {
        c.args(["--nats-url", nats.url()])
            .env("RUST_LOG", "error")
            .stderr(err);
    });
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Real Open",
        "--rounds",
        "5",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let before = info(a.port);

    // Unsigned; signed by a key nobody trusts; and a forged creation of a new tournament.
    publish_raw(
        nats.url(),
        "arbiter.v1.registry.TournamentUpdated",
        &forged_rename(&id, None),
    );
    let mallory = arbiter_eventlog::Keys::ephemeral("mallory");
    let key = mallory.signer("registry").unwrap();
    publish_raw(
        nats.url(),
        "arbiter.v1.registry.TournamentUpdated",
        &forged_rename(&id, Some(&key)),
    );
    let created = forged(
        &uuid::Uuid::now_v7().to_string(),
        1,
        "TournamentCreated",
        "mallory",
        Some(&key),
    );
    publish_raw(
        nats.url(),
        "arbiter.v1.registry.TournamentCreated",
        &created,
    );

    let deadline = Instant::now() + Duration::from_secs(20);
    while info(a.port).rejected_events < before.rejected_events + 3 {
        assert!(
            Instant::now() < deadline,
            "three refusals: {:?}; arbiterd said: {}",
            info(a.port),
            std::fs::read_to_string(&log).unwrap()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let after = info(a.port);
    assert_eq!(after.rejected_events, before.rejected_events + 3);
    assert_eq!(
        after.projected_position, before.projected_position,
        "nothing applied"
    );
    let list = a.json(&["tournament", "list"]);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Real Open"]);
    let verify = a.json(&["audit", "verify"]);
    assert_eq!(verify["ok"], true, "{verify}");
    let logged = std::fs::read_to_string(&log).unwrap();
    for subject in [
        "arbiter.v1.registry.TournamentUpdated",
        "arbiter.v1.registry.TournamentCreated",
    ] {
        assert!(
            logged.contains(subject) && logged.contains("refused"),
            "{subject} not logged: {logged}"
        );
    }
}

#[test]
fn forged_envelopes_are_refused_by_the_distributed_mirrors() {
    let pgs: Vec<arbiter_testkit::PgServer> = (0..2)
        .map(|_| arbiter_testkit::PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}")))
        .collect();
    let nats = arbiter_testkit::NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let tokens = data.join("admin.token");
    let (reg, pair) = (arbiter_testkit::free_port(), arbiter_testkit::free_port());
    let service = |name: &str, db: &str, port: u16| {
        let mut cmd = Command::new(binary(&format!("arbiter-{name}")));
        cmd.args(["--database-url", db, "--nats-url", nats.url()])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .arg("--token-file")
            .arg(&tokens)
            .arg("--key-dir")
            .arg(data.join("keys"))
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env("RUST_LOG", "error");
        let mut p = Proc::spawn(&mut cmd);
        p.wait_line("ready", 30);
        p
    };
    let _registry = service("registry", pgs[0].url(), reg);
    let _pairing = service("pairing", pgs[1].url(), pair);
    let a = Arbiter {
        data: data.clone(),
        port: reg,
    };
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Real Open",
        "--rounds",
        "5",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    wait_until("the pairing service's copy", 30, || {
        pairing_info(pair).projected_position >= 1
    });
    let before = settled(|| pairing_info(pair));
    let mallory = arbiter_eventlog::Keys::ephemeral("mallory");
    let key = mallory.signer("registry").unwrap();
    publish_raw(
        nats.url(),
        "arbiter.v1.registry.TournamentUpdated",
        &forged_rename(&id, None),
    );
    publish_raw(
        nats.url(),
        "arbiter.v1.registry.TournamentUpdated",
        &forged_rename(&id, Some(&key)),
    );
    wait_until("two refusals at the pairing service", 30, || {
        pairing_info(pair).rejected_events >= before.rejected_events + 2
    });
    // A genuine change still arrives after the forgeries.
    a.ok(&[
        "tournament",
        "update",
        &id,
        "--name",
        "Real Open 2026",
        "--expected-version",
        "1",
    ]);
    wait_until("the genuine update at the pairing service", 30, || {
        pairing_info(pair).projected_position > before.projected_position
    });
    let after = settled(|| pairing_info(pair));
    assert_eq!(
        after.projected_position,
        before.projected_position + 1,
        "only the genuine event was copied"
    );
    assert_eq!(after.rejected_events, before.rejected_events + 2);
}

/// The service info once its log has not moved for 1.5 s (copies of earlier events,
/// e.g. the registry's first access events, may still be arriving).
fn settled(info: impl Fn() -> arbiter_proto::v1::ServiceInfo) -> arbiter_proto::v1::ServiceInfo {
    let mut last = info();
    let mut since = Instant::now();
    let deadline = Instant::now() + Duration::from_secs(30);
    while since.elapsed() < Duration::from_millis(1500) {
        assert!(Instant::now() < deadline, "the log never settled: {last:?}");
        std::thread::sleep(Duration::from_millis(100));
        let now = info();
        if now.projected_position != last.projected_position {
            since = Instant::now();
        }
        last = now;
    }
    last
}

/// SIGTERM and wait: a clean stop writes the anchor.
fn stop(mut p: Proc) {
    let pid = p.child.id().to_string();
    let st = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(st.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    while p.child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "arbiterd did not stop");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A tournament of `players` players with round 1 paired and published.
fn paired_tournament(a: &Arbiter, name: &str, players: usize) -> String {
    let t = a.json(&["tournament", "create", "--name", name, "--rounds", "3"]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for i in 1..=players {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            &format!("Player, No{i}"),
            "--rating",
            &(2300 - 10 * i).to_string(),
        ]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    id
}

/// A small tournament with a paired, published round and two results; stopped.
fn recorded_tournament(data: &Path) -> String {
    let port = arbiter_testkit::free_port();
    let d = start_arbiterd(data, port, |_| {});
    let a = Arbiter {
        data: data.to_owned(),
        port,
    };
    let id = paired_tournament(&a, "Tamper Open", 4);
    a.ok(&["result", "set", &id, "1", "1", "1-0"]);
    a.ok(&["result", "set", &id, "1", "2", "1/2"]);
    stop(d);
    assert!(data.join("log.anchor").is_file(), "anchor written at stop");
    id
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Runs `tamper` on the SQLite log of `data` (the server is stopped).
fn tamper(data: &Path, tamper: impl AsyncFnOnce(&mut sqlx::SqliteConnection)) {
    use sqlx::Connection as _;
    rt().block_on(async {
        let url = format!("sqlite://{}", data.join("arbiter.db").display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        tamper(&mut c).await;
        c.close().await.unwrap();
    });
}

/// Every event, in position order, decoded as the log stores it.
async fn events(c: &mut sqlx::SqliteConnection) -> Vec<arbiter_eventlog::RecordedEvent> {
    sqlx::query(
        "SELECT global_position, event_id, stream, stream_version, event_type, schema_version, \
         payload, recorded_at, actor, command_id, correlation_id, causation_id, reason, \
         rule_edition, service, prev_hash, hash, trace_parent FROM events ORDER BY global_position",
    )
    .fetch_all(&mut *c)
    .await
    .unwrap()
    .iter()
    .map(|r| arbiter_eventlog::RecordedEvent {
        global_position: r.get(0),
        event_id: r.get(1),
        stream: r.get(2),
        stream_version: r.get(3),
        event_type: r.get(4),
        schema_version: r.get::<i64, _>(5) as u32,
        payload: r.get(6),
        recorded_at_micros: r.get(7),
        actor: r.get(8),
        command_id: r.get(9),
        correlation_id: r.get(10),
        causation_id: r.get(11),
        reason: r.get(12),
        rule_edition: r.get(13),
        service: r.get(14),
        prev_hash: r.get(15),
        hash: r.get(16),
        trace_parent: r.get(17),
    })
    .collect()
}

/// What an attacker without the keys can still do after editing rows: make every hash,
/// every stream head and the log head's chain hash consistent again.
async fn rehash_everything(c: &mut sqlx::SqliteConnection) {
    let mut prev: std::collections::HashMap<String, Vec<u8>> = Default::default();
    let mut log = LOG_GENESIS.to_vec();
    let mut last = 0;
    for mut e in events(c).await {
        e.prev_hash = prev.get(&e.stream).cloned().unwrap_or_else(|| vec![0; 32]);
        e.hash = event_hash(&e).to_vec();
        sqlx::query("UPDATE events SET prev_hash = ?, hash = ? WHERE global_position = ?")
            .bind(&e.prev_hash)
            .bind(&e.hash)
            .bind(e.global_position)
            .execute(&mut *c)
            .await
            .unwrap();
        sqlx::query("UPDATE streams SET version = ?, head_hash = ? WHERE stream = ?")
            .bind(e.stream_version)
            .bind(&e.hash)
            .bind(&e.stream)
            .execute(&mut *c)
            .await
            .unwrap();
        log = log_link(&log, e.global_position, &e.hash).to_vec();
        prev.insert(e.stream.clone(), e.hash.clone());
        last = e.global_position;
    }
    sqlx::query("UPDATE log_head SET position = ?, log_hash = ? WHERE id = 1")
        .bind(last)
        .bind(log)
        .execute(&mut *c)
        .await
        .unwrap();
}

/// `arbiterd --check-log`: its exit code and output.
fn check_log(data: &Path) -> (Option<i32>, String) {
    let o = Command::new(binary("arbiterd"))
        .arg("--data-dir")
        .arg(data)
        .arg("--check-log")
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    (o.status.code(), output_text(&o))
}

/// The damaged log is named by `--check-log`, by `audit verify` (whole log and this
/// tournament), and the server started on it refuses writes and is not SERVING.
/// `needle` is what the check at start and every check name; `full` what the full check
/// (every signature: `--check-log`, `audit verify`) names besides.
fn assert_named_and_refused(data: &Path, id: &str, needle: &str, full: &str) {
    let (code, out) = check_log(data);
    assert_eq!(code, Some(1), "{out}");
    for n in [needle, full] {
        assert!(out.contains(n), "--check-log does not name {n:?}: {out}");
    }
    let port = arbiter_testkit::free_port();
    let _d = start_arbiterd(data, port, |c| {
        c.env("RUST_LOG", "error");
    });
    let a = Arbiter {
        data: data.to_owned(),
        port,
    };
    let head = info(port);
    assert!(!head.log_verified);
    assert!(
        head.log_problems.iter().any(|p| p.contains(needle)),
        "{:?}",
        head.log_problems
    );
    let refused = a.refused(&["tournament", "create", "--name", "After Tampering"]);
    assert!(
        refused.contains("failed its check at start"),
        "writes are refused: {refused}"
    );
    assert_eq!(info(port).projected_position, head.projected_position);
    let health = a.run(&["health"]);
    assert!(!health.status.success(), "{}", output_text(&health));
    for args in [vec!["audit", "verify"], vec!["audit", "verify", id]] {
        let o = a.run(&[&args[..], &["--json"]].concat());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|_| panic!("audit verify: {}", output_text(&o)));
        assert_eq!(v["ok"], false, "{args:?}: {v}");
        assert!(
            v["problems"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p.as_str().unwrap().contains(needle)),
            "{args:?} does not name {needle:?}: {v}"
        );
    }
}

#[test]
fn a_log_tampered_with_while_stopped_is_named_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean");
    let id = recorded_tournament(&clean);
    let (code, out) = check_log(&clean);
    assert_eq!(code, Some(0), "the untouched log verifies: {out}");

    // 1. A result's payload edited, every hash recomputed.
    let edited = dir.path().join("edited");
    copy_dir(&clean, &edited);
    tamper(&edited, async |c| {
        let e = events(c)
            .await
            .into_iter()
            .find(|e| e.event_type == "ResultRecorded")
            .unwrap();
        let mut payload = e.payload.clone();
        let last = payload.len() - 1;
        payload[last] ^= 1;
        sqlx::query("UPDATE events SET payload = ? WHERE global_position = ?")
            .bind(payload)
            .bind(e.global_position)
            .execute(&mut *c)
            .await
            .unwrap();
        rehash_everything(c).await;
    });
    assert_named_and_refused(
        &edited,
        &id,
        "the log chain at position",
        "the seal of positions",
    );

    // 2. The last events cut off at a commit, heads made consistent.
    let truncated = dir.path().join("truncated");
    copy_dir(&clean, &truncated);
    tamper(&truncated, async |c| {
        let head: i64 = sqlx::query_scalar("SELECT position FROM log_head")
            .fetch_one(&mut *c)
            .await
            .unwrap();
        let cut: i64 =
            sqlx::query_scalar("SELECT MAX(position) FROM log_seals WHERE position < ? - 1")
                .bind(head)
                .fetch_one(&mut *c)
                .await
                .unwrap();
        for table in [
            "events WHERE global_position",
            "seals WHERE last_position",
            "log_seals WHERE position",
            "outbox WHERE global_position",
        ] {
            sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} > ?")))
                .bind(cut)
                .execute(&mut *c)
                .await
                .unwrap();
        }
        sqlx::query("DELETE FROM streams WHERE stream NOT IN (SELECT stream FROM events)")
            .execute(&mut *c)
            .await
            .unwrap();
        rehash_everything(c).await;
    });
    assert_named_and_refused(
        &truncated,
        &id,
        "the anchor says the log reached position",
        "were removed",
    );

    // 3. Two adjacent positions of different streams swapped.
    let swapped = dir.path().join("swapped");
    copy_dir(&clean, &swapped);
    tamper(&swapped, async |c| {
        let all = events(c).await;
        let i = (1..all.len())
            .find(|&i| all[i].stream != all[i - 1].stream && all[i].global_position > 2)
            .unwrap();
        let (p, q) = (all[i - 1].global_position, all[i].global_position);
        for (from, to) in [(p, -1), (q, p), (-1, q)] {
            sqlx::query("UPDATE events SET global_position = ? WHERE global_position = ?")
                .bind(to)
                .bind(from)
                .execute(&mut *c)
                .await
                .unwrap();
        }
        rehash_everything(c).await;
    });
    assert_named_and_refused(&swapped, &id, "the log chain at position", "swapped");

    // 4. A board's only event deleted, later positions renumbered to hide the gap.
    let deleted = dir.path().join("deleted");
    copy_dir(&clean, &deleted);
    tamper(&deleted, async |c| {
        let e = events(c)
            .await
            .into_iter()
            .find(|e| e.event_type == "ResultRecorded" && e.stream.ends_with("-b1"))
            .unwrap();
        let p = e.global_position;
        sqlx::query("DELETE FROM events WHERE global_position = ?")
            .bind(p)
            .execute(&mut *c)
            .await
            .unwrap();
        sqlx::query("DELETE FROM streams WHERE stream = ?")
            .bind(&e.stream)
            .execute(&mut *c)
            .await
            .unwrap();
        sqlx::query("DELETE FROM seals WHERE last_position = ?")
            .bind(p)
            .execute(&mut *c)
            .await
            .unwrap();
        let later: Vec<i64> = sqlx::query_scalar(
            "SELECT global_position FROM events WHERE global_position > ? ORDER BY global_position",
        )
        .bind(p)
        .fetch_all(&mut *c)
        .await
        .unwrap();
        for pos in later {
            sqlx::query("UPDATE events SET global_position = ? WHERE global_position = ?")
                .bind(pos - 1)
                .bind(pos)
                .execute(&mut *c)
                .await
                .unwrap();
            sqlx::query(
                "UPDATE seals SET last_position = ?, first_position = first_position - 1 \
                 WHERE last_position = ?",
            )
            .bind(pos - 1)
            .bind(pos)
            .execute(&mut *c)
            .await
            .unwrap();
        }
        rehash_everything(c).await;
    });
    assert_named_and_refused(&deleted, &id, "the log chain at position", "removed");
}

#[test]
fn a_command_id_is_bound_to_its_request() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let _d = start_arbiterd(&data, port, |_| {});
    let a = Arbiter {
        data: data.clone(),
        port,
    };
    let id = paired_tournament(&a, "Retry Open", 20);

    // Sequential: the same request again is the original answer, nothing written.
    let first = a.json(&["result", "set", &id, "1", "1", "1-0", "--command-id", "X"]);
    let head = info(port).projected_position;
    let again = a.json(&["result", "set", &id, "1", "1", "1-0", "--command-id", "X"]);
    assert_eq!(first["position"], again["position"]);
    assert_eq!(
        (&first["replayed"], &again["replayed"]),
        (&false.into(), &true.into())
    );
    assert_eq!(info(port).projected_position, head);
    // The same id with another request is refused, naming the id and the earlier command.
    let other = a.refused(&["result", "set", &id, "1", "2", "0-1", "--command-id", "X"]);
    assert!(
        other.contains("X was already used by another request")
            && other.contains(&format!("results-{id}-r1-b1")),
        "{other}"
    );
    assert_eq!(
        info(port).projected_position,
        head,
        "nothing written: board 2 stays empty"
    );

    // Concurrent: 8 retries of one new request, one write, every caller the same answer.
    let children: Vec<_> = (0..8)
        .map(|_| {
            Command::new(binary("arbiter"))
                .args([
                    "result",
                    "set",
                    &id,
                    "1",
                    "3",
                    "1/2",
                    "--command-id",
                    "Y",
                    "--json",
                ])
                .env("ARBITER_SERVER", format!("http://127.0.0.1:{port}"))
                .env("ARBITER_DATA_DIR", &data)
                .env_remove("ARBITER_TOKEN")
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let answers: Vec<serde_json::Value> = children
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", output_text(&o));
            serde_json::from_slice(&o.stdout).unwrap()
        })
        .collect();
    assert!(
        answers
            .iter()
            .all(|v| v["position"] == answers[0]["position"]),
        "{answers:?}"
    );
    assert_eq!(
        answers.iter().filter(|v| v["replayed"] == false).count(),
        1,
        "{answers:?}"
    );
    assert_eq!(info(port).projected_position, head + 1, "one write");
}

#[test]
fn a_restarted_server_is_ready_only_when_its_projections_caught_up() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let d = start_arbiterd(&data, port, |_| {});
    let a = Arbiter {
        data: data.clone(),
        port,
    };
    for i in 0..30 {
        a.ok(&["tournament", "create", "--name", &format!("Open {i}")]);
    }
    let head = info(port).projected_position;
    stop(d);
    // Started again: every answer before "ready" is UNAVAILABLE with a retry hint or a
    // complete list, never a partial one.
    let mut cmd = Command::new(binary("arbiterd"));
    cmd.arg("--data-dir")
        .arg(&data)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("RUST_LOG", "error");
    let mut p = Proc::spawn(&mut cmd);
    p.wait_line("listening on", 30);
    let mut answered = 0;
    for _ in 0..50 {
        let o = a.run(&["tournament", "list", "--json"]);
        if o.status.success() {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v.as_array().unwrap().len(), 30, "a partial read");
            answered += 1;
        } else {
            let m = output_text(&o);
            assert!(m.contains("Unavailable") && m.contains("retry"), "{m}");
        }
    }
    assert!(answered > 0);
    p.wait_line("ready", 30);
    assert_eq!(info(port).projected_position, head);
}

#[test]
fn a_rotated_key_keeps_the_log_verifiable() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let d = start_arbiterd(&data, port, |_| {});
    let a = Arbiter {
        data: data.clone(),
        port,
    };
    a.ok(&["tournament", "create", "--name", "Before Rotation"]);
    stop(d);
    let mut d = start_arbiterd(&data, port, |c| {
        c.args([
            "--rotate-signing-key",
            "registry",
            "--rotate-signing-key",
            "arbiterd",
        ]);
    });
    assert!(
        d.seen
            .iter()
            .any(|l| l.starts_with("rotated the signing key of registry")),
        "{:?}",
        d.drain()
    );
    a.ok(&["tournament", "create", "--name", "After Rotation"]);
    let v = a.json(&["audit", "verify"]);
    assert_eq!(v["ok"], true, "{v}");
    stop(d);
    let (code, out) = check_log(&data);
    assert_eq!(code, Some(0), "{out}");
    let retired = std::fs::read_dir(data.join("keys"))
        .unwrap()
        .filter(|e| {
            let n = e.as_ref().unwrap().file_name();
            let n = n.to_string_lossy();
            n.starts_with("registry.") && n.ends_with(".pub") && n != "registry.pub"
        })
        .count();
    assert_eq!(retired, 1, "the old public key is kept");
}

#[test]
fn every_services_reason_and_the_standings_tie_break_list_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let _d = start_arbiterd(&data, port, |_| {});
    let a = Arbiter {
        data: data.clone(),
        port,
    };
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Bounded Open",
        "--rounds",
        "3",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let head = info(port).projected_position;
    let long = "BH,".repeat(1_000);
    let m = a.refused(&["standings", &id, "--tiebreaks", &long]);
    assert!(m.contains("tiebreaks: at most 200 characters"), "{m}");
    let reason = "x".repeat(1_001);
    let m = a.refused(&["round", "pair", &id, "1", "--reason", &reason]);
    assert!(m.contains("--reason: at most 1000 characters"), "{m}");
    assert_eq!(info(port).projected_position, head, "nothing written");
}
