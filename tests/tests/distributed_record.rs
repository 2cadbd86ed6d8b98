//! Distributed mode with the tournament record: the registry, pairing and results
//! services as separate processes, each with its own PostgreSQL database, linked only by
//! NATS JetStream. Each keeps copies of the other services' events in its own log
//! (`arbiter_bus::mirror`), so a round is paired from the registry's entries, results are
//! entered for the pairing service's boards, and standings, the next pairing and the
//! registry's TRF export all see the same history.
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_tests::{binary, output_text, run_cli, start_service};

/// Runs until the command succeeds (the other services' events arrive over NATS).
fn eventually(data: &Path, port: u16, args: &[&str]) -> serde_json::Value {
    arbiter_tests::run_cli_until_ok(data, port, args, Duration::from_secs(30))
}

#[test]
fn registry_pairing_and_results_on_their_own_databases_share_the_record_over_nats() {
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

    let t = eventually(
        &data,
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "Distributed Open",
            "--rounds",
            "5",
        ],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (i, name) in ["A, a", "B, b", "C, c", "D, d", "E, e", "F, f"]
        .iter()
        .enumerate()
    {
        let rating = (2300 - 50 * i).to_string();
        eventually(
            &data,
            reg,
            &["player", "add", &id, "--name", name, "--rating", &rating],
        );
    }
    // The pairing service pairs from its copy of the registry's events.
    let mut r1 = eventually(&data, pair, &["round", "pair", &id, "1"]);
    while r1["boards"].as_array().unwrap().len() < 3 {
        // Paired before the last entries arrived: re-pair the unpublished round.
        std::thread::sleep(Duration::from_millis(300));
        r1 = eventually(&data, pair, &["round", "repair", &id, "1"]);
    }
    eventually(&data, pair, &["round", "publish", &id, "1"]);
    for (board, result) in [("1", "1-0"), ("2", "1/2"), ("3", "0-1")] {
        eventually(&data, res, &["result", "set", &id, "1", board, result]);
    }
    eventually(&data, res, &["round", "close", &id, "1"]);
    let s = eventually(&data, res, &["standings", &id]);
    assert_eq!(s["after_round"], 1, "{s}");
    assert_eq!(s["rows"].as_array().unwrap().len(), 6);

    // Round 2 is paired from the results the pairing service copied, exactly as the
    // reference adapter pairs the registry's TRF export (which has the copies too).
    let r2 = eventually(&data, pair, &["round", "pair", &id, "2"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let input = dir.path().join("before-round-2.trf");
    loop {
        let o = run_cli(
            &data,
            reg,
            &[
                "tournament",
                "export",
                &id,
                "--round",
                "1",
                "--engine-lines",
                "--output",
                input.to_str().unwrap(),
            ],
        );
        if o.status.success() {
            break;
        }
        assert!(Instant::now() < deadline, "{}", output_text(&o));
        std::thread::sleep(Duration::from_millis(200));
    }
    let out = dir.path().join("round-2.pairs");
    let o = Command::new(binary("arbiter-pairings"))
        .args([
            "--dutch",
            input.to_str().unwrap(),
            "-p",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", output_text(&o));
    let want: Vec<(u64, u64)> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    let got: Vec<(u64, u64)> = r2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["white_tpn"].as_u64().unwrap(),
                b["black_tpn"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, want);
    // The results service's log (its own events and its copies) is intact.
    let o = run_cli(&data, res, &["audit", "verify"]);
    assert!(o.status.success(), "{}", output_text(&o));
}
