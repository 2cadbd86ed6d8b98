//! The HTTP listener in the standalone service hosts (issue 44 part 1; ADR http-010): the
//! registry, pairing and results services as separate processes, each on its own
//! PostgreSQL database, linked by NATS. The registry's host serves the pages and the API
//! with `--pairing-url`/`--results-url`: a public round's page has every board with both
//! names, the standings equal the results service's own; the results host, told where the
//! registry and pairing run, serves the same pairing; a host not told where a service
//! runs answers that it was not, naming the flag; a bad peer address stops the start.
use std::path::Path;
use std::time::{Duration, Instant};

use arbiter_tests::http::get;
use arbiter_tests::{binary, start_service_with};

fn eventually(data: &Path, port: u16, args: &[&str]) -> serde_json::Value {
    arbiter_tests::run_cli_until_ok(data, port, args, Duration::from_secs(30))
}

/// GETs `path` until it answers 200 (the record reaches each host over NATS).
fn get_200(port: u16, path: &str) -> arbiter_tests::http::Answer {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let a = get(port, path, &[]);
        if a.status == 200 || Instant::now() > deadline {
            assert_eq!(a.status, 200, "{path}: {}", a.text());
            return a;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn standalone_hosts_serve_the_pages_and_the_api_reaching_the_other_services() {
    let pgs: Vec<arbiter_testkit::PgServer> = (0..3)
        .map(|_| arbiter_testkit::PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}")))
        .collect();
    let nats = arbiter_testkit::NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let tokens = data.join("admin.token");
    let ports: Vec<u16> = (0..6).map(|_| arbiter_testkit::free_port()).collect();
    let (reg, pair, res) = (ports[0], ports[1], ports[2]);
    let (reg_http, pair_http, res_http) = (ports[3], ports[4], ports[5]);
    let url = |p: u16| format!("http://127.0.0.1:{p}");
    let listen = |p: u16| format!("127.0.0.1:{p}");
    let (pair_url, res_url, reg_url) = (url(pair), url(res), url(reg));
    let (reg_listen, pair_listen, res_listen) =
        (listen(reg_http), listen(pair_http), listen(res_http));
    let _registry = start_service_with(
        "registry",
        pgs[0].url(),
        nats.url(),
        reg,
        &tokens,
        &[
            "--http-listen",
            &reg_listen,
            "--pairing-url",
            &pair_url,
            "--results-url",
            &res_url,
        ],
    );
    // The pairing host is told of the registry only.
    let _pairing = start_service_with(
        "pairing",
        pgs[1].url(),
        nats.url(),
        pair,
        &tokens,
        &["--http-listen", &pair_listen, "--registry-url", &reg_url],
    );
    let _results = start_service_with(
        "results",
        pgs[2].url(),
        nats.url(),
        res,
        &tokens,
        &[
            "--http-listen",
            &res_listen,
            "--registry-url",
            &reg_url,
            "--pairing-url",
            &pair_url,
        ],
    );

    let t = eventually(
        &data,
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "Hosts Open",
            "--rounds",
            "5",
        ],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let names = ["Adams, Ann", "Brown, Bob", "Clark, Cy", "Dunne, Di"];
    for (i, name) in names.iter().enumerate() {
        let rating = (2300 - 50 * i).to_string();
        eventually(
            &data,
            reg,
            &["player", "add", &id, "--name", name, "--rating", &rating],
        );
    }
    let mut r1 = eventually(&data, pair, &["round", "pair", &id, "1"]);
    while r1["boards"].as_array().unwrap().len() < 2 {
        std::thread::sleep(Duration::from_millis(300));
        r1 = eventually(&data, pair, &["round", "repair", &id, "1"]);
    }
    eventually(&data, pair, &["round", "publish", &id, "1"]);
    eventually(&data, res, &["result", "set", &id, "1", "1", "1-0"]);
    eventually(&data, res, &["result", "set", &id, "1", "2", "1/2"]);
    eventually(&data, res, &["round", "close", &id, "1"]);
    eventually(&data, reg, &["access", "public", &id]);

    // The registry's host: the round's page (pairing from the pairing host) and the
    // standings (from the results host), without a token.
    let page = get_200(reg_http, &format!("/t/{id}/rounds/1"));
    let html = page.text();
    assert_eq!(html.matches("<tr class=\"board\"").count(), 2, "{html}");
    for n in names {
        assert!(html.contains(n), "{n} not on the round's page: {html}");
    }
    let served = get_200(reg_http, &format!("/api/v1/tournaments/{id}/standings")).json();
    let own = eventually(&data, res, &["standings", &id]);
    let points = |v: &serde_json::Value, list: &str, key: &str| -> Vec<String> {
        v[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{}", r[key]))
            .collect()
    };
    assert_eq!(points(&served, "items", "points").len(), 4, "{served}");
    assert_eq!(
        points(&served, "items", "name"),
        points(&own, "rows", "name"),
        "{served}\n{own}"
    );
    get_200(reg_http, &format!("/t/{id}/standings"));

    // The results host serves the same pairing (its registry and pairing are remote).
    let from_reg = get_200(
        reg_http,
        &format!("/api/v1/tournaments/{id}/rounds/1/pairings"),
    )
    .json();
    let from_res = get_200(
        res_http,
        &format!("/api/v1/tournaments/{id}/rounds/1/pairings"),
    )
    .json();
    assert_eq!(from_reg["boards"], from_res["boards"]);

    // The pairing host was not told where the results service runs.
    let a = get(
        pair_http,
        &format!("/api/v1/tournaments/{id}/standings"),
        &[],
    );
    assert_eq!(
        a.header("content-type"),
        Some("application/problem+json"),
        "{}",
        a.text()
    );
    assert!(
        a.status >= 400 && a.status < 500,
        "{} {}",
        a.status,
        a.text()
    );
    assert!(a.text().contains("--results-url"), "{}", a.text());

    // A bad peer address stops the start, naming the flag, before the log is opened
    // (the database named here does not exist).
    let o = std::process::Command::new(binary("arbiter-pairing"))
        .args([
            "--database-url",
            "postgres://127.0.0.1:1/none",
            "--listen",
            "127.0.0.1:1",
        ])
        .args(["--http-listen", "127.0.0.1:0", "--results-url", "ftp://x"])
        .arg("--token-file")
        .arg(&tokens)
        .arg("--key-dir")
        .arg(tokens.with_file_name("keys"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--results-url"), "{err}");
}
