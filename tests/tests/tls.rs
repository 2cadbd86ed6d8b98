//! TLS on the gRPC port, mTLS on the standalone services, NATS with TLS and a user per
//! service (ADR platform-009). Certificates are made at test time (`TestPki`, rcgen);
//! every process is real and on loopback.
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use arbiter_testkit::{NatsOptions, NatsServer, NatsTls, PgServer, TestPki, free_port};
use arbiter_tests::{Proc, binary, output_text, run_cli_at, start_arbiterd};

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The CLI's stderr, which must be exactly one line.
fn one_error_line(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    err
}

/// Runs `cmd` to its end (at most `secs`), killing it after that.
fn run_to_end(cmd: &mut Command, secs: u64) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!("still running after {secs} s: {}", output_text(&out));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn arbiterd_with_tls_serves_verified_clients_only_and_the_cli_never_downgrades() {
    let dir = tempfile::tempdir().unwrap();
    let pki = TestPki::new(&dir.path().join("pki")).unwrap();
    let stranger = TestPki::new(&dir.path().join("other-pki")).unwrap();
    let (cert, key) = pki.server();
    let data = dir.path().join("data");
    let port = free_port();
    let mut server = start_arbiterd(&data, port, |c| {
        c.arg("--tls-cert").arg(&cert).arg("--tls-key").arg(&key);
    });
    assert!(
        server
            .drain()
            .iter()
            .any(|l| l.starts_with("listening on") && l.ends_with("(TLS)")),
        "{:?}",
        server.seen
    );
    let https = format!("https://127.0.0.1:{port}");
    let ca = path(&pki.ca()).to_owned();

    // Verified against --ca-cert: health and a write work, by address and by name.
    let o = run_cli_at(&data, &https, &["--ca-cert", &ca, "health"]);
    assert!(o.status.success(), "{}", output_text(&o));
    let o = run_cli_at(
        &data,
        &https,
        &[
            "--ca-cert",
            &ca,
            "tournament",
            "create",
            "--name",
            "TLS Open",
            "--rounds",
            "5",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", output_text(&o));
    let t: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(t["tournament_id"].is_string(), "{t}");
    let o = run_cli_at(
        &data,
        &format!("https://localhost:{port}"),
        &["--ca-cert", &ca, "tournament", "list"],
    );
    assert!(o.status.success(), "{}", output_text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("TLS Open"));

    // An unverified certificate: the system's roots alone, or another CA.
    for args in [
        vec!["health"],
        vec!["--ca-cert", path(&stranger.ca()), "health"],
    ] {
        let o = run_cli_at(&data, &https, &args);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", output_text(&o));
        let err = one_error_line(&o);
        assert!(
            err.contains("not signed by a trusted CA") && err.contains("--ca-cert"),
            "{err}"
        );
    }

    // A plaintext client is refused by the TLS server.
    let http = format!("http://127.0.0.1:{port}");
    let o = run_cli_at(&data, &http, &["tournament", "list"]);
    assert!(!o.status.success(), "{}", output_text(&o));
    let err = one_error_line(&o);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("TLS Open"));
    assert!(err.contains("https://"), "{err}");
    // TLS flags with http:// are a mistake, refused before anything is sent.
    let o = run_cli_at(&data, &http, &["--ca-cert", &ca, "health"]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert!(one_error_line(&o).contains("use https://"));
    drop(server);

    // https:// against a plaintext server fails; it is not retried in plaintext.
    let plain_data = dir.path().join("plain");
    let plain_port = free_port();
    let _plain = start_arbiterd(&plain_data, plain_port, |_| {});
    let o = run_cli_at(
        &plain_data,
        &format!("https://127.0.0.1:{plain_port}"),
        &["--ca-cert", &ca, "health"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", output_text(&o));
    let err = one_error_line(&o);
    assert!(err.contains("TLS"), "{err}");
    let o = run_cli_at(
        &plain_data,
        &format!("http://127.0.0.1:{plain_port}"),
        &["health"],
    );
    assert!(o.status.success(), "{}", output_text(&o));
}

#[test]
fn arbiterd_refuses_plaintext_on_a_non_loopback_address_unless_told() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = free_port();
    let arbiterd = || {
        let mut cmd = Command::new(binary("arbiterd"));
        cmd.arg("--data-dir")
            .arg(&data)
            .args(["--listen", &format!("0.0.0.0:{port}")])
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env_remove("ARBITER_NATS_URL")
            .env_remove("ARBITER_TLS_CERT")
            .env_remove("ARBITER_TLS_KEY")
            .env_remove("ARBITER_ALLOW_PLAINTEXT_NON_LOOPBACK")
            .env("RUST_LOG", "warn");
        cmd
    };
    let o = run_to_end(&mut arbiterd(), 30);
    assert!(!o.status.success(), "{}", output_text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("refusing to serve plaintext gRPC on 0.0.0.0")
            && err.contains("--tls-cert")
            && err.contains("--allow-plaintext-non-loopback"),
        "{err}"
    );

    let mut cmd = arbiterd();
    cmd.arg("--allow-plaintext-non-loopback");
    let mut p = Proc::spawn(&mut cmd);
    p.wait_line("ready", 30);
    let o = run_cli_at(&data, &format!("http://127.0.0.1:{port}"), &["health"]);
    assert!(o.status.success(), "{}", output_text(&o));
}

/// A standalone service with mTLS on its gRPC port and NATS over TLS as its own user.
struct Cluster {
    pki: TestPki,
    nats: NatsServer,
    tokens: PathBuf,
}

impl Cluster {
    fn service(&self, name: &str, db: &str, port: u16, nats_password: &str) -> Command {
        let (cert, key) = self.pki.server();
        let (nats_cert, nats_key) = self.pki.client(&format!("nats-{name}")).unwrap();
        let mut cmd = Command::new(binary(&format!("arbiter-{name}")));
        cmd.args(["--database-url", db, "--nats-url", self.nats.url()])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .arg("--token-file")
            .arg(&self.tokens)
            .arg("--key-dir")
            .arg(self.tokens.with_file_name("keys"))
            .arg("--tls-cert")
            .arg(cert)
            .arg("--tls-key")
            .arg(key)
            .arg("--client-ca")
            .arg(self.pki.ca())
            .env("ARBITER_NATS_CA", self.pki.ca())
            .env("ARBITER_NATS_CERT", nats_cert)
            .env("ARBITER_NATS_KEY", nats_key)
            .env("ARBITER_NATS_USER", name)
            .env("ARBITER_NATS_PASSWORD", nats_password)
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env("RUST_LOG", "warn");
        cmd
    }
}

fn password(name: &str) -> String {
    format!("{name}-secret-{}", free_port())
}

#[test]
fn distributed_services_with_mtls_and_nats_tls_with_a_user_each() {
    let dir = tempfile::tempdir().unwrap();
    let pki = TestPki::new(&dir.path().join("pki")).unwrap();
    let stranger = TestPki::new(&dir.path().join("other-pki")).unwrap();
    let (nats_cert, nats_key) = pki.server();
    let names = ["registry", "pairing", "results"];
    let passwords: Vec<String> = names.iter().map(|n| password(n)).collect();
    let nats = NatsServer::start_with(&NatsOptions {
        tls: Some(NatsTls {
            cert: nats_cert,
            key: nats_key,
            verify_clients: Some(pki.ca()),
        }),
        users: names
            .iter()
            .zip(&passwords)
            .map(|(n, p)| ((*n).to_owned(), p.clone()))
            .collect(),
        ..Default::default()
    })
    .unwrap_or_else(|e| panic!("nats: {e}"));
    assert!(nats.url().starts_with("tls://"), "{}", nats.url());
    let pgs: Vec<PgServer> = (0..3)
        .map(|_| PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}")))
        .collect();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let cluster = Cluster {
        pki,
        nats,
        tokens: data.join("admin.token"),
    };

    // A wrong NATS password stops a service at start, saying so.
    let o = run_to_end(
        &mut cluster.service(
            "registry",
            &format!("sqlite://{}", dir.path().join("wrong.db").display()),
            free_port(),
            "not-the-password",
        ),
        30,
    );
    assert!(!o.status.success(), "{}", output_text(&o));
    let err = String::from_utf8_lossy(&o.stderr).to_lowercase();
    assert!(
        err.contains("nats") && err.contains("authorization"),
        "{err}"
    );

    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut procs = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut p = Proc::spawn(&mut cluster.service(name, pgs[i].url(), ports[i], &passwords[i]));
        p.wait_line("ready", 30);
        assert!(
            p.seen
                .iter()
                .any(|l| l.ends_with("(TLS, client certificate required)")),
            "{:?}",
            p.seen
        );
        procs.push(p);
    }
    let (reg, pair, res) = (ports[0], ports[1], ports[2]);
    let (cli_cert, cli_key) = cluster.pki.client("arbiter-cli").unwrap();
    let ca = path(&cluster.pki.ca()).to_owned();
    let with_cert: Vec<String> = [
        "--ca-cert",
        &ca,
        "--client-cert",
        path(&cli_cert),
        "--client-key",
        path(&cli_key),
    ]
    .map(str::to_owned)
    .to_vec();
    let cli = |port: u16, args: &[&str]| {
        let mut a: Vec<&str> = with_cert.iter().map(String::as_str).collect();
        a.extend_from_slice(args);
        run_cli_at(&data, &format!("https://127.0.0.1:{port}"), &a)
    };
    // Until it succeeds: the other services' events arrive over NATS.
    let eventually = |port: u16, args: &[&str]| -> serde_json::Value {
        let mut a = args.to_vec();
        a.push("--json");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let o = cli(port, &a);
            if o.status.success() {
                return serde_json::from_slice(&o.stdout).expect("JSON");
            }
            assert!(
                Instant::now() < deadline,
                "arbiter {args:?} never succeeded: {}",
                output_text(&o)
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };

    // Without a client certificate, or with one of another CA: refused by every service.
    let (odd_cert, odd_key) = stranger.client("intruder").unwrap();
    for port in [reg, pair, res] {
        let o = run_cli_at(
            &data,
            &format!("https://127.0.0.1:{port}"),
            &["--ca-cert", &ca, "tournament", "list"],
        );
        assert_eq!(o.status.code(), Some(3), "{}", output_text(&o));
        let err = one_error_line(&o);
        assert!(err.contains("--client-cert"), "{err}");
        let o = run_cli_at(
            &data,
            &format!("https://127.0.0.1:{port}"),
            &[
                "--ca-cert",
                &ca,
                "--client-cert",
                path(&odd_cert),
                "--client-key",
                path(&odd_key),
                "tournament",
                "list",
            ],
        );
        assert_eq!(o.status.code(), Some(3), "{}", output_text(&o));
        one_error_line(&o);
    }

    // With one: the registry's entries reach pairing, pairing's boards reach results.
    let t = eventually(
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "mTLS Open",
            "--rounds",
            "3",
        ],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (i, name) in ["A, a", "B, b", "C, c", "D, d"].iter().enumerate() {
        let rating = (2300 - 50 * i).to_string();
        eventually(
            reg,
            &["player", "add", &id, "--name", name, "--rating", &rating],
        );
    }
    let mut r1 = eventually(pair, &["round", "pair", &id, "1"]);
    while r1["boards"].as_array().unwrap().len() < 2 {
        std::thread::sleep(Duration::from_millis(300));
        r1 = eventually(pair, &["round", "repair", &id, "1"]);
    }
    eventually(pair, &["round", "publish", &id, "1"]);
    for (board, result) in [("1", "1-0"), ("2", "1/2")] {
        eventually(res, &["result", "set", &id, "1", board, result]);
    }
    eventually(res, &["round", "close", &id, "1"]);
    let s = eventually(res, &["standings", &id]);
    assert_eq!(s["after_round"], 1, "{s}");
    assert_eq!(s["rows"].as_array().unwrap().len(), 4, "{s}");
}
