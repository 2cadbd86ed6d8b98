//! Issue 39 parts 4 and 5 through the real binaries (`arbiterd` + `arbiter`): every guard
//! refuses with its reason and writes nothing — the log's head (the registry's
//! `GetServiceInfo` projected position, which folds every event of the shared log) is the
//! same before and after the refusal.
use std::path::{Path, PathBuf};

use arbiter_tests::{Arbiter, Proc, start_arbiterd};

fn start(dir: &Path) -> (Arbiter, Proc) {
    let a = Arbiter {
        data: dir.join("data"),
        port: arbiter_testkit::free_port(),
    };
    let d = start_arbiterd(&a.data, a.port, |_| {});
    (a, d)
}

/// The global position of the last event the registry has folded (every command answers
/// after its events are folded, so after a CLI command this is the log's head).
fn head(a: &Arbiter) -> i64 {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut c = arbiter_proto::v1::registry_service_client::RegistryServiceClient::connect(
            format!("http://127.0.0.1:{}", a.port),
        )
        .await
        .unwrap();
        c.get_service_info(arbiter_proto::v1::GetServiceInfoRequest {})
            .await
            .unwrap()
            .into_inner()
            .projected_position
    })
}

/// Runs a command the server must refuse; asserts the message holds every one of
/// `needles` and that nothing was written. Returns the message.
fn refused_unwritten(a: &Arbiter, args: &[&str], needles: &[&str]) -> String {
    let before = head(a);
    let m = a.refused(args);
    for n in needles {
        assert!(m.contains(n), "arbiter {args:?}: {n:?} not in {m}");
    }
    assert_eq!(head(a), before, "arbiter {args:?} wrote to the log: {m}");
    m
}

fn trf_data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trf/tests/data")
        .join(dir)
        .join(name)
}

/// Pairs `round` and waits for its explanation (made after the pairing, ADR
/// pairing-004), so that the refusals that follow see a log that moves only by them.
fn pair(a: &Arbiter, id: &str, round: &str) {
    a.ok(&["round", "pair", id, round]);
    a.ok(&["round", "explain", id, round]);
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn new_tournament(a: &Arbiter, rounds: &str, players: usize) -> String {
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        &format!("Guard Open {rounds}"),
        "--rounds",
        rounds,
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for i in 1..=players {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            &format!("Player, No{i}"),
            "--rating",
            &(2400 - i * 10).to_string(),
        ]);
    }
    id
}

#[test]
fn rounds_beyond_the_announced_ones_and_fewer_rounds_than_paired_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());

    // A 1-round tournament: round 1 is played, round 2 is refused.
    let id = new_tournament(&a, "1", 2);
    pair(&a, &id, "1");
    a.ok(&["round", "publish", &id, "1"]);
    a.ok(&["result", "set", &id, "1", "1", "1-0"]);
    refused_unwritten(
        &a,
        &["round", "pair", &id, "2"],
        &["round: the tournament has 1 round(s): round 2 is beyond the announced rounds"],
    );
    refused_unwritten(
        &a,
        &["round", "set", &id, "2", "--board", "1-2", "--reason", "x"],
        &["beyond the announced rounds"],
    );
    refused_unwritten(
        &a,
        &["tournament", "update", &id, "--rounds", "0"],
        &["rounds: 0 is not a number of rounds"],
    );

    // Seven rounds paired (imported): fewer rounds refused, round 8 refused.
    let file = trf_data("pairing", "s14891904432047-p13-r7.trf");
    let t = a.json(&["tournament", "import", path(&file)]);
    assert_eq!(t["paired_rounds"], 7);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    refused_unwritten(
        &a,
        &["tournament", "update", &id, "--rounds", "5"],
        &["rounds: 5 is fewer than the 7 round(s) already paired"],
    );
    refused_unwritten(
        &a,
        &["round", "pair", &id, "8"],
        &["number of rounds is not set"],
    );
    a.ok(&["tournament", "update", &id, "--rounds", "7"]);
    refused_unwritten(
        &a,
        &["round", "pair", &id, "8"],
        &["the tournament has 7 round(s): round 8 is beyond the announced rounds"],
    );
}

#[test]
fn a_pairing_is_discarded_or_unpublished_only_before_its_results_and_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let id = new_tournament(&a, "3", 4);
    pair(&a, &id, "1");
    refused_unwritten(
        &a,
        &["round", "discard", &id, "1"],
        &["--reason: discarding a pairing needs a reason"],
    );
    let out = a.ok(&[
        "round",
        "discard",
        &id,
        "1",
        "--reason",
        "two entries were missing",
    ]);
    assert!(out.contains("round 1: pairing discarded"), "{out}");
    a.refused(&["round", "show", &id, "1"]);
    let t = a.json(&["tournament", "show", &id]);
    assert_eq!(t["paired_rounds"], 0, "the discarded round is unpaired");
    let history = a.ok(&["result", "history", &id]);
    assert!(
        history.contains("round 1 pairing discarded") && history.contains("two entries"),
        "{history}"
    );

    // Paired again, published: discard refused, unpublish needs a reason.
    pair(&a, &id, "1");
    a.ok(&["round", "publish", &id, "1"]);
    refused_unwritten(
        &a,
        &["round", "discard", &id, "1", "--reason", "x"],
        &["round 1 is published: unpublish it first"],
    );
    refused_unwritten(
        &a,
        &["round", "unpublish", &id, "1"],
        &["--reason: unpublishing a pairing needs a reason"],
    );
    let v = a.json(&[
        "round",
        "unpublish",
        &id,
        "1",
        "--reason",
        "board order announced wrongly",
    ]);
    assert_eq!(v["published"], false);
    a.ok(&["round", "publish", &id, "1"]);
    a.ok(&["result", "set", &id, "1", "1", "1-0"]);
    refused_unwritten(
        &a,
        &["round", "unpublish", &id, "1", "--reason", "too late"],
        &["round 1 already has results"],
    );
    // A reason is free text: control characters are refused.
    refused_unwritten(
        &a,
        &["round", "unpublish", &id, "1", "--reason", "evil\u{1b}[2J"],
        &["--reason: control character U+001B at character 5"],
    );
}

#[test]
fn free_text_and_lists_are_bounded_and_control_characters_refused_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    for (name, needle) in [
        // (NUL cannot travel in a process argument; the unit tests give it.)
        ("Open\u{7}", "name: control character U+0007 at character 5"),
        (
            "\u{1b}[31mRed Open",
            "name: control character U+001B at character 1",
        ),
        ("Open\r\nX", "name: control character U+000D at character 5"),
    ] {
        refused_unwritten(&a, &["tournament", "create", "--name", name], &[needle]);
    }
    let long = "x".repeat(201);
    refused_unwritten(
        &a,
        &["tournament", "create", "--name", &long],
        &["name: at most 200 characters, got 201"],
    );
    let tc = "9".repeat(101);
    refused_unwritten(
        &a,
        &["tournament", "create", "--name", "A", "--time-control", &tc],
        &["--time-control: at most 100 characters, got 101"],
    );
    let id = new_tournament(&a, "5", 2);
    refused_unwritten(
        &a,
        &[
            "player",
            "add",
            &id,
            "--name",
            "Doe,\u{1b}]0;pwned\u{7} John",
        ],
        &["--name: control character U+001B at character 5"],
    );
    let reason = "r".repeat(1001);
    refused_unwritten(
        &a,
        &[
            "tournament",
            "update",
            &id,
            "--rounds",
            "6",
            "--reason",
            &reason,
        ],
        &["--reason: at most 1000 characters, got 1001"],
    );
    let tiebreaks = vec!["BH"; 21].join(",");
    refused_unwritten(
        &a,
        &["tournament", "settings", &id, "--tiebreaks", &tiebreaks],
        &["tiebreaks: at most 20 tie-breaks, got 21"],
    );

    // Data quoted back by the server is printed with its control characters escaped.
    let file = dir.path().join("esc.trf");
    let good = std::fs::read_to_string(trf_data("pairing", "s456006487535817-p10-r7.trf")).unwrap();
    let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
    lines[1].replace_range(48..52, "2\u{1b}c0");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let m = refused_unwritten(
        &a,
        &["tournament", "import", path(&file)],
        &["letters in the rating column: '2\\u{1b}c0'"],
    );
    assert!(!m.contains('\u{1b}'), "the ESC reached the terminal: {m:?}");
}

#[test]
fn no_10000th_player_by_file_or_by_entry() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let mut text = String::from("012 Huge Open\n");
    for tpn in 1..=10_000u32 {
        let name = format!("Player, {tpn}");
        text.push_str(&format!("001 {tpn:>4}      {name:<33} 1500\n"));
    }
    let big = dir.path().join("10000.trf");
    std::fs::write(&big, &text).unwrap();
    refused_unwritten(
        &a,
        &["tournament", "import", path(&big)],
        &["10001:5: error", "at most 9999 players", "four digits"],
    );
    let most: String = text
        .lines()
        .take(10_000)
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.path().join("9999.trf");
    std::fs::write(&file, most).unwrap();
    let t = a.json(&["tournament", "import", path(&file)]);
    assert_eq!(t["players"], 9_999);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    refused_unwritten(
        &a,
        &["player", "add", &id, "--name", "Late, Comer"],
        &["the tournament has 9999 players", "four digits"],
    );
}

#[test]
fn files_with_error_findings_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let errors = trf_data("errors", "");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&errors)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 7);
    for f in &files {
        let m = refused_unwritten(
            &a,
            &["tournament", "import", path(f)],
            &[
                "trf: the file cannot be imported",
                "nothing was written",
                ": error",
            ],
        );
        if f.ends_with("shifted-columns.trf") {
            // The root cause first, its cascade folded into it.
            let first = m.lines().find(|l| l.contains(": error")).unwrap();
            assert!(
                first.contains("4:9: error")
                    && first.contains("shifted")
                    && first.contains("that follow from it"),
                "{m}"
            );
        }
    }
    assert_eq!(
        a.json(&["tournament", "list"]).as_array().unwrap().len(),
        0,
        "no tournament from a refused file"
    );

    // A file with warnings only imports and lists them.
    let warned = trf_data("trf", "icu-bunratty-challengers-2011.trf");
    let out = a.ok(&["tournament", "import", path(&warned)]);
    assert!(out.starts_with("imported tournament "), "{out}");
    assert!(out.contains(": warning"), "{out}");
    let id = out.split_whitespace().nth(2).unwrap().to_owned();

    // The same file again, or the same name and dates: only with --as-new.
    refused_unwritten(
        &a,
        &["tournament", "import", path(&warned)],
        &[
            "this file (SHA-256",
            &format!("is already tournament {id}"),
            "--as-new",
        ],
    );
    let masters = trf_data("trf", "icu-bunratty-masters-2011.trf");
    refused_unwritten(
        &a,
        &["tournament", "import", path(&masters)],
        &[
            "a tournament named \"Bunratty 2011\" from 2011-02-25 to 2011-02-27",
            &format!("is already tournament {id}"),
        ],
    );
    a.ok(&[
        "tournament",
        "import",
        path(&masters),
        "--name",
        "Bunratty Masters 2011",
    ]);
    let again = a.json(&["tournament", "import", path(&warned), "--as-new"]);
    assert_ne!(again["tournament_id"].as_str(), Some(id.as_str()));
    assert_eq!(a.json(&["tournament", "list"]).as_array().unwrap().len(), 3);
}
