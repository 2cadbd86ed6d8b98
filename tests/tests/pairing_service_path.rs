//! Issue 41: pairing through the service as the engine pairs (ADR pairing-003).
//!
//! - The pairing `arbiterd` stores equals `arbiter-pairings -p` on the registry's export of
//!   the same record: 40 players (a generated Dutch history with forfeits, byes and
//!   retirements), 1,000 and 2,000 players (issue 9's histories, cut after round 6); the
//!   explanation, made after the pairing is stored (ADR pairing-004), is the engine's.
//! - The explanation follows the stored pairing: the pairing is answered and published
//!   before it, a discarded pairing gets none, a server stopped before writing it makes it
//!   when asked, the same text.
//! - A pairing whose deadline passes, or whose client goes away, stops the engine: the
//!   process's CPU (utime + stime of /proc/PID/stat) is back to idle within a second.
//! - One pairing per tournament at a time: a second request is told that the first is
//!   running, for which round and by whom.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter_tests::{Arbiter, Proc, binary, output_text};
use rand::SeedableRng;

/// The tests of this file one at a time: the CPU test reads its server's share of a core,
/// which a second engine on the machine's two cores would lower.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn scale(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/pairings-cli/tests/data/scale")
        .join(name)
}

/// `doc` as a file that ends after round `played` (points recomputed), written to `out`.
fn cut_after(doc: &trf::TrfDocument, played: usize, out: &Path) {
    let mut doc = doc.clone();
    let scoring = trf::ScoringSystem::from_document(&doc);
    for line in &mut doc.lines {
        if let trf::Record::Player(p) = &mut line.record {
            p.rounds.truncate(played);
            p.points = scoring
                .total(&p.rounds)
                .map_or(trf::Field::Empty, trf::Field::Value);
        }
    }
    std::fs::write(out, trf::write(&doc, trf::TrfVersion::Trf26)).unwrap();
}

fn server(dir: &Path, configure: impl FnOnce(&mut std::process::Command)) -> (Arbiter, Proc) {
    Arbiter::embedded(dir, configure)
}

fn import(a: &Arbiter, file: &Path) -> String {
    let t = a.json(&["tournament", "import", file.to_str().unwrap()]);
    t["tournament_id"].as_str().unwrap().to_owned()
}

/// The service's pairing of `round` (boards then the PAB as (tpn, 0)) and, when
/// `explained`, its explanation (made after the pairing is stored: ADR pairing-004).
fn service_pairs(a: &Arbiter, id: &str, round: u32, explained: bool) -> (Vec<(u64, u64)>, String) {
    let r = round.to_string();
    let v = a.json(&["round", "pair", id, &r]);
    assert_eq!(v["engine_made"], true, "{v}");
    let mut pairs: Vec<(u64, u64)> = v["boards"]
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
    if let Some(t) = v["bye_tpn"].as_u64().filter(|t| *t > 0) {
        pairs.push((t, 0));
    }
    if !explained {
        return (pairs, String::new());
    }
    let explained = a.ok(&["round", "explain", id, &r]);
    (pairs, explained)
}

fn same_as_the_engine(a: &Arbiter, dir: &Path, file: &Path, round: u32, explained: bool) {
    let id = import(a, file);
    let (service, explanation) = service_pairs(a, &id, round, explained);
    let mut engine = a.engine_pairs(dir, &id, round, &[]);
    // `-p` lists the PAB as a board against 0; the service beside its boards.
    let bye: Vec<(u64, u64)> = engine.iter().copied().filter(|p| p.1 == 0).collect();
    engine.retain(|p| p.1 != 0);
    engine.extend(bye);
    assert_eq!(
        service,
        engine,
        "{}: round {round} as stored by the service and as arbiter-pairings -p pairs the record",
        file.display()
    );
    assert!(
        !explained || explanation.contains("bracket score"),
        "the stored explanation is the engine's, bracket by bracket: {explanation}"
    );
}

#[test]
fn the_service_stores_the_pairing_of_arbiter_pairings_at_40_and_1000_players() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = server(dir.path(), |_| {});
    let forty = forty_players(dir.path());
    same_as_the_engine(&a, dir.path(), &forty, 7, true);
    issue_9_history(&a, dir.path(), 1000, true);
}

/// Issue 9's `players`-player history cut after round 6, round 7 paired by the service.
fn issue_9_history(a: &Arbiter, dir: &Path, players: usize, explained: bool) {
    let history = std::fs::read(scale(&format!("h{players}-played9-seed1.trf"))).unwrap();
    let doc = trf::parse(&history).unwrap().doc;
    let file = dir.join(format!("h{players}-played6.trf"));
    cut_after(&doc, 6, &file);
    same_as_the_engine(a, dir, &file, 7, explained);
}

/// 2,000 players: the pairing only (its explanation takes minutes with debug binaries;
/// the 40 and 1,000-player cases wait for theirs).
#[test]
fn the_service_stores_the_pairing_of_arbiter_pairings_at_2000_players() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = server(dir.path(), |c| {
        c.env("ARBITER_PAIRING_TIMEOUT_SECS", "1800");
        // The explanation is not asked for here: held back, it leaves the cores to the
        // comparison with `arbiter-pairings`.
        c.env("ARBITER_EXPLAIN_DELAY_MS", "3600000");
    });
    issue_9_history(&a, dir.path(), 2000, false);
}

/// CPU seconds (user + system) the process `pid` has used.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // USER_HZ is 100 on Linux.
    ticks / 100.0
}

/// The CPU share `pid` used over `over` (1.0 = one core busy).
fn cpu_share(pid: u32, over: Duration) -> f64 {
    let before = cpu_seconds(pid);
    std::thread::sleep(over);
    (cpu_seconds(pid) - before) / over.as_secs_f64()
}

/// Waits until the server's engine has ended: its CPU is back to idle (below 20 % of a
/// core over half a second), or panics after `within`.
fn back_to_idle(pid: u32, within: Duration, what: &str) -> Duration {
    let start = Instant::now();
    loop {
        let share = cpu_share(pid, Duration::from_millis(500));
        if share < 0.2 {
            let took = start.elapsed();
            eprintln!("{what}: the server was idle again within {took:?}");
            return took;
        }
        assert!(
            start.elapsed() < within,
            "{what}: the server still uses {:.0} % of a core",
            share * 100.0
        );
    }
}

#[test]
fn a_pairing_stopped_by_its_deadline_or_its_client_stops_the_engine_and_one_runs_at_a_time() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    // Round 2 of 2,000 players: its top bracket's partner search takes far longer than
    // the deadline in a debug build (and seconds in release).
    let (a, d) = server(dir.path(), |c| {
        c.env("ARBITER_PAIRING_TIMEOUT_MS", "4000");
    });
    let pid = d.child.id();
    let id = import(&a, &scale("h1999-played1-seed1.trf"));
    let idle = cpu_share(pid, Duration::from_millis(500));
    assert!(idle < 0.2, "idle before pairing: {:.0} %", idle * 100.0);

    // 1. The deadline passes: DEADLINE_EXCEEDED, and the engine stops.
    let first = {
        let (data, port, id) = (a.data.clone(), a.port, id.clone());
        std::thread::spawn(move || {
            let started = Instant::now();
            let o = arbiter_tests::run_cli(&data, port, &["round", "pair", &id, "2"]);
            (o, started.elapsed())
        })
    };
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        cpu_share(pid, Duration::from_millis(500)) > 0.3,
        "the engine is pairing"
    );
    // 2. A second request meanwhile is told who pairs which round.
    let second = a.refused(&["round", "pair", &id, "2"]);
    assert!(
        second.contains("Aborted")
            && second.contains(&format!("round 2 of {id} is being paired by "))
            && second.contains(" since "),
        "{second}"
    );
    let (o, took) = first.join().unwrap();
    let text = output_text(&o);
    assert!(
        text.contains("DeadlineExceeded") && text.contains("did not finish within"),
        "{text}"
    );
    assert!(
        took < Duration::from_secs(10),
        "answered at the deadline: {took:?}"
    );
    // The bound is the engine's own work (far beyond the deadline in a debug build), not a
    // speed target: a loaded 2-core CI machine needs a few half-second samples to see idle.
    back_to_idle(pid, Duration::from_secs(8), "after the deadline");
    let none = a.run(&["round", "show", &id, "2"]);
    assert_eq!(none.status.code(), Some(1), "nothing was written");

    // 3. The client goes away: the engine stops too, and the tournament is free again.
    let mut client = std::process::Command::new(binary("arbiter"))
        .args(["round", "pair", &id, "2"])
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_DATA_DIR", &a.data)
        .env_remove("ARBITER_TOKEN")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        cpu_share(pid, Duration::from_millis(500)) > 0.3,
        "the engine is pairing for the client"
    );
    client.kill().unwrap();
    client.wait().unwrap();
    back_to_idle(pid, Duration::from_secs(8), "after the client went away");
    let again = a.refused(&["round", "pair", &id, "2"]);
    assert!(
        again.contains("DeadlineExceeded") && !again.contains("is being paired by"),
        "the stopped engine let the tournament go: {again}"
    );
}

/// 40 players: a history the engine paired itself, with forfeits, half-point byes and
/// retirements (the project's generator), six rounds of nine, written in `dir`.
fn forty_players(dir: &Path) -> PathBuf {
    let config = pairings::generator::GeneratorConfig {
        players: 40,
        rounds: 9,
        ..Default::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    let doc =
        pairings::generator::generate_until(&config, swiss::Edition::Dutch2026, &mut rng, 41, 6)
            .expect("generate");
    let forty = dir.join("g40-played6.trf");
    cut_after(&doc, 6, &forty);
    forty
}

/// The `PairingExplained` events of tournament `id`'s history.
fn explained_events(a: &Arbiter, id: &str) -> Vec<serde_json::Value> {
    a.json(&["result", "history", id])
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "PairingExplained")
        .cloned()
        .collect()
}

/// ADR pairing-004: `round pair` answers with the stored pairing before its explanation
/// is made, and the pairing can be published meanwhile; a pairing discarded before its
/// explanation was made never gets one; a server stopped before the explanation was
/// written makes it when asked, the same text as one made right after the pairing.
#[test]
fn the_explanation_follows_the_stored_pairing_and_survives_a_restart() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let forty = forty_players(dir.path());
    let id = {
        // Explanations held back an hour: never made by this server.
        let (a, _d) = server(dir.path(), |c| {
            c.env("ARBITER_EXPLAIN_DELAY_MS", "3600000");
        });
        let id = import(&a, &forty);
        let v = a.json(&["round", "pair", &id, "7"]);
        assert_eq!(v["boards"].as_array().unwrap().len(), 20, "{v}");
        a.ok(&["round", "publish", &id, "7"]);
        let shown = a.json(&["round", "show", &id, "7"]);
        assert_eq!(shown["published"], true, "{shown}");
        assert!(explained_events(&a, &id).is_empty());
        id
    };
    // The same data directory, explanations made at once.
    let (a, _d) = server(dir.path(), |_| {});
    let late = a.ok(&["round", "explain", &id, "7"]);
    assert!(late.contains("bracket score"), "{late}");
    let events = explained_events(&a, &id);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["stream"], format!("pairing-{id}-explanations"));
    // The same record paired by this server: the explanation made right after the
    // pairing is the one made late.
    let again = a.json(&["tournament", "import", forty.to_str().unwrap(), "--as-new"]);
    let again = again["tournament_id"].as_str().unwrap();
    a.ok(&["round", "pair", again, "7"]);
    let made = a.ok(&["round", "explain", again, "7"]);
    let body = |s: &str| {
        s.lines()
            .skip_while(|l| !l.starts_with("bracket score"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(!body(&made).is_empty(), "{made}");
    assert_eq!(body(&late), body(&made));
}

#[test]
fn a_pairing_discarded_before_its_explanation_gets_none() {
    let _one = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let forty = forty_players(dir.path());
    let (a, _d) = server(dir.path(), |c| {
        c.env("ARBITER_EXPLAIN_DELAY_MS", "5000");
    });
    let id = import(&a, &forty);
    a.ok(&["round", "pair", &id, "7"]);
    a.ok(&["round", "discard", &id, "7", "--reason", "wrong withdrawal"]);
    a.ok(&["round", "pair", &id, "7"]);
    let explained = a.ok(&["round", "explain", &id, "7"]);
    assert!(explained.contains("bracket score"), "{explained}");
    // The discarded pairing's explainer was stopped: one explanation, of the pairing
    // that stands.
    let events = explained_events(&a, &id);
    assert_eq!(events.len(), 1, "{events:?}");
    let shown = a.json(&["round", "show", &id, "7"]);
    assert!(
        events[0]["summary"]
            .as_str()
            .unwrap()
            .contains("round 7 explained"),
        "{events:?} {shown}"
    );
}
