//! Access in the distributed mode (ADR platform-007): the registry owns the access
//! stream and hosts the `AccessService`; the pairing and results services, each on its
//! own PostgreSQL database, follow it through their mirrors. A chief arbiter made on
//! the registry pairs on the pairing service and corrects on the results service; the
//! helper she grants `results-entry` records results but cannot correct, pair or touch
//! another tournament; revoking the helper's token on the registry is refused by the
//! results service as soon as its copy arrives.
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use arbiter_tests::{binary, output_text, start_service};

/// The CLI against the service on `port`, as the holder of `token` (`None`: the admin
/// token of the token file in `data`).
fn cli(data: &Path, port: u16, token: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = Command::new(binary("arbiter"));
    cmd.args(args)
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{port}"))
        .env("ARBITER_DATA_DIR", data)
        .env_remove("ARBITER_TOKEN");
    if let Some(t) = token {
        cmd.env("ARBITER_TOKEN", t);
    }
    cmd.output().expect("run arbiter")
}

/// Runs until the command succeeds (the registry's events, access included, reach the
/// other services over NATS), and returns its JSON.
fn eventually(data: &Path, port: u16, token: Option<&str>, args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let o = cli(data, port, token, &a);
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
}

fn refused(data: &Path, port: u16, token: &str, args: &[&str], code: &str) -> String {
    let o = cli(data, port, Some(token), args);
    let text = output_text(&o);
    assert!(
        !o.status.success() && text.contains(code),
        "arbiter {args:?}: expected {code}, got: {text}"
    );
    text
}

#[test]
fn a_chief_arbiter_and_a_helper_made_on_the_registry_act_and_are_revoked_on_every_service() {
    let pgs: Vec<arbiter_testkit::PgServer> = (0..3)
        .map(|_| arbiter_testkit::PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}")))
        .collect();
    let nats = arbiter_testkit::NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let tokens = data.join("admin.token");
    let ports: Vec<u16> = (0..3).map(|_| arbiter_testkit::free_port()).collect();
    let (reg, pair, res) = (ports[0], ports[1], ports[2]);
    let _registry = start_service("registry", pgs[0].url(), nats.url(), reg, &tokens);
    let _pairing = start_service("pairing", pgs[1].url(), nats.url(), pair, &tokens);
    let _results = start_service("results", pgs[2].url(), nats.url(), res, &tokens);

    let create = |name: &str| {
        eventually(
            &data,
            reg,
            None,
            &["tournament", "create", "--name", name, "--rounds", "5"],
        )["tournament_id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let t = create("Access Distributed Open");
    let u = create("Other Distributed Open");
    for (i, name) in ["A, a", "B, b", "C, c", "D, d"].iter().enumerate() {
        let rating = (2300 - 50 * i).to_string();
        eventually(
            &data,
            reg,
            None,
            &["player", "add", &t, "--name", name, "--rating", &rating],
        );
    }

    // The access service is the registry's; the others do not host it.
    let o = cli(&data, res, None, &["access", "list"]);
    assert!(!o.status.success(), "{}", output_text(&o));

    // Admin, on the registry: a chief arbiter for T. A grant must name a tournament
    // the registry has.
    eventually(&data, reg, None, &["access", "add", "Anna Arbiter"]);
    let o = cli(
        &data,
        reg,
        None,
        &[
            "access",
            "grant",
            "Anna Arbiter",
            "--role",
            "chief-arbiter",
            "--tournament",
            "no-such-tournament",
        ],
    );
    assert!(
        !o.status.success() && output_text(&o).contains("no tournament no-such-tournament"),
        "{}",
        output_text(&o)
    );
    eventually(
        &data,
        reg,
        None,
        &[
            "access",
            "grant",
            "Anna Arbiter",
            "--role",
            "chief-arbiter",
            "--tournament",
            &t,
        ],
    );
    let anna = eventually(&data, reg, None, &["access", "token", "Anna Arbiter"])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    // The chief arbiter, on the registry: a helper who may only enter results of T.
    eventually(&data, reg, Some(&anna), &["access", "add", "Hugo Helper"]);
    eventually(
        &data,
        reg,
        Some(&anna),
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
    let hugo_json = eventually(&data, reg, Some(&anna), &["access", "token", "Hugo Helper"]);
    let hugo = hugo_json["token"].as_str().unwrap().to_owned();
    let hugo_id = hugo_json["token_id"].as_str().unwrap().to_owned();

    // She pairs on the pairing service (once her grant's copy is there).
    let mut r1 = eventually(&data, pair, Some(&anna), &["round", "pair", &t, "1"]);
    while r1["boards"].as_array().unwrap().len() < 2 {
        std::thread::sleep(Duration::from_millis(300));
        r1 = eventually(&data, pair, Some(&anna), &["round", "repair", &t, "1"]);
    }
    eventually(&data, pair, Some(&anna), &["round", "publish", &t, "1"]);

    // The helper records on the results service, but cannot correct, pair or touch U.
    eventually(
        &data,
        res,
        Some(&hugo),
        &["result", "set", &t, "1", "1", "1-0"],
    );
    refused(
        &data,
        res,
        &hugo,
        &[
            "result", "correct", &t, "1", "1", "0-1", "--was", "1-0", "--reason", "sheet",
        ],
        "PermissionDenied",
    );
    refused(
        &data,
        pair,
        &hugo,
        &["round", "pair", &t, "2"],
        "PermissionDenied",
    );
    refused(
        &data,
        reg,
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

    // The chief arbiter corrects on the results service; its history names both.
    eventually(
        &data,
        res,
        Some(&anna),
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
    let o = cli(
        &data,
        res,
        Some(&anna),
        &["result", "history", &t, "--round", "1", "--board", "1"],
    );
    let history = output_text(&o);
    assert!(
        o.status.success() && history.contains("Hugo Helper") && history.contains("Anna Arbiter"),
        "{history}"
    );

    // Revoked on the registry: refused there at once, and by the results service as
    // soon as the revocation's copy arrives.
    eventually(&data, reg, Some(&anna), &["access", "revoke", &hugo_id]);
    refused(
        &data,
        reg,
        &hugo,
        &["player", "list", &t],
        "Unauthenticated",
    );
    let revoked = Instant::now();
    loop {
        let o = cli(&data, res, Some(&hugo), &["standings", &t]);
        let text = output_text(&o);
        if !o.status.success() && text.contains("revoked") {
            break;
        }
        assert!(o.status.success(), "{text}");
        assert!(
            revoked.elapsed() < Duration::from_secs(10),
            "the results service still accepts the revoked token: {text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "revocation refused by the results service {} ms after the registry recorded it",
        revoked.elapsed().as_millis()
    );
    // The results service's log holds the access stream's copies and verifies.
    let o = cli(&data, res, None, &["audit", "verify"]);
    assert!(o.status.success(), "{}", output_text(&o));
}
