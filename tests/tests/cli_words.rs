//! Issue 42 (2, 5, 6) through the real binaries (`arbiterd` + `arbiter`): short ids and
//! the default tournament (`arbiter use`), the officials (TRF 102/112 in and out), the
//! server's hints in the CLI's words, `tournament list` across pages, and start-up
//! errors of `arbiterd` as one line.
use std::path::Path;

use arbiter_tests::{Arbiter, Proc, output_text, start_arbiterd};

fn start(dir: &Path) -> (Arbiter, Proc) {
    let a = Arbiter {
        data: dir.join("data"),
        port: arbiter_testkit::free_port(),
    };
    let d = start_arbiterd(&a.data, a.port, |_| {});
    (a, d)
}

fn create(a: &Arbiter, name: &str) -> String {
    let t = a.json(&["tournament", "create", "--name", name, "--rounds", "5"]);
    t["tournament_id"].as_str().unwrap().to_owned()
}

/// The shortest prefix of `id` (at least 4 characters) that no id of `others` starts with.
fn unique_prefix(id: &str, others: &[&str]) -> String {
    (4..=id.len())
        .map(|n| &id[..n])
        .find(|p| !others.iter().any(|o| o.starts_with(p)))
        .unwrap()
        .to_owned()
}

#[test]
fn short_ids_and_the_default_tournament_are_taken_wherever_a_tournament_is() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let first = create(&a, "Bunratty Masters");
    let second = create(&a, "Spring Open");

    // Ids made a moment apart share their first characters (UUID v7): ambiguous.
    let common: String = first
        .chars()
        .zip(second.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect();
    assert!(common.len() >= 4, "{first} {second}");
    let amb = a.refused(&["tournament", "show", &common[..4]]);
    assert!(amb.contains("is ambiguous"), "{amb}");
    for t in [&first, &second] {
        assert!(amb.contains(t.as_str()), "{amb}");
    }
    assert!(amb.contains("Bunratty Masters") && amb.contains("Spring Open"));
    let none = a.refused(&["tournament", "show", "ffffffff"]);
    assert!(
        none.contains("no tournament starts with \"ffffffff\""),
        "{none}"
    );
    let short = a.run(&["tournament", "show", "01"]);
    assert_eq!(short.status.code(), Some(2), "{}", output_text(&short));
    assert!(output_text(&short).contains("at least 4 characters"));

    // A unique prefix, in upper case, names the tournament.
    let p = unique_prefix(&first, &[&second]).to_ascii_uppercase();
    let shown = a.json(&["tournament", "show", &p]);
    assert_eq!(shown["tournament_id"], first.as_str());

    // No tournament given and no default: say how to give one.
    for args in [
        &["player", "list"][..],
        &["round", "show"][..],
        &["round", "pair", "1"][..],
    ] {
        let o = a.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", output_text(&o));
        assert!(
            output_text(&o).contains("no tournament given: pass ID or run `arbiter use ID`"),
            "{args:?}: {}",
            output_text(&o)
        );
    }
    // `arbiter standings` without an id is the server's, not a demand for --trf.
    let st = a.run(&["standings"]);
    let st_text = output_text(&st);
    assert!(!st_text.contains("required arguments"), "{st_text}");
    assert!(st_text.contains("`arbiter use ID`"), "{st_text}");
    assert!(st_text.contains("--trf FILE"), "{st_text}");
    // The offline --rounds given to the server's standings: the server's flag is --round.
    let o = a.run(&["standings", &first, "--rounds", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert!(output_text(&o).contains("--round 1"), "{}", output_text(&o));

    // `arbiter use PREFIX` sets the default; `arbiter use` shows it.
    let set = a.ok(&["use", &p]);
    assert!(
        set.contains(&first) && set.contains("Bunratty Masters"),
        "{set}"
    );
    assert!(a.ok(&["use"]).contains(&first));
    assert!(a.data.join("cli-defaults.json").is_file());
    for (name, rating) in [("Short, Nigel", "2658"), ("Baburin, Alex", "2410")] {
        a.ok(&["player", "add", "--name", name, "--rating", rating]);
    }
    let players = a.json(&["player", "list"]);
    assert_eq!(players.as_array().unwrap().len(), 2);
    assert_eq!(a.json(&["player", "list", &second]), serde_json::json!([]));
    // A player by a prefix of its id.
    let baburin = players[1]["player_id"].as_str().unwrap().to_owned();
    let nigel = players[0]["player_id"].as_str().unwrap().to_owned();
    let pp = unique_prefix(&baburin, &[&nigel]);
    a.ok(&[
        "player", "correct", &pp, "--rating", "2420", "--reason", "May list",
    ]);
    let again = a.json(&["player", "list"]);
    assert_eq!(again[1]["rating_standard"], 2420);
    // `player prohibit` on the default: every argument a player (by pairing number).
    let forbidden = a.run(&[
        "player",
        "prohibit",
        "1",
        "2",
        "--from-round",
        "4",
        "--reason",
        "same club",
    ]);
    assert!(forbidden.status.success(), "{}", output_text(&forbidden));
    assert!(
        String::from_utf8_lossy(&forbidden.stdout).contains("players 1, 2 may not be paired"),
        "{}",
        output_text(&forbidden)
    );
    // Rounds and results on the default; a board set by hand with an id prefix.
    a.ok(&["round", "pair", "1"]);
    let by_hand = format!("{}-1", pp.replace('-', ""));
    let set = a.json(&[
        "round", "set", "1", "--board", &by_hand, "--reason", "by hand",
    ]);
    assert_eq!(set["boards"][0]["white"], baburin.as_str(), "{set}");
    assert_eq!(set["boards"][0]["black"], nigel.as_str(), "{set}");
    a.ok(&["round", "publish", "1"]);
    let shown = a.json(&["round", "show", "1"]);
    assert_eq!(shown["boards"].as_array().unwrap().len(), 1);
    a.ok(&["result", "set", "1", "1", "1-0"]);
    a.ok(&["round", "close", "1"]);
    assert!(a.ok(&["standings"]).contains("Short, Nigel"));
    // The other tournament by its prefix, the default untouched.
    let p2 = unique_prefix(&second, &[&first]);
    a.ok(&["player", "add", &p2, "--name", "Kelly, Joe"]);
    assert_eq!(
        a.json(&["player", "list", &p2]).as_array().unwrap().len(),
        1
    );
    assert!(a.ok(&["use"]).contains(&first));

    // --clear forgets it.
    assert!(a.ok(&["use", "--clear"]).contains("cleared"));
    assert!(a.ok(&["use"]).contains("no default tournament"));
    let o = a.run(&["player", "list"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn chief_and_deputy_arbiters_are_recorded_shown_and_written_as_trf_102_and_112() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Cork Open",
        "--chief-arbiter",
        "IA Murphy, Sean",
        "--deputy-arbiter",
        "FA Byrne, Ann",
        "--deputy-arbiter",
        "NA Kelly, Joe",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    assert_eq!(t["chief_arbiter"], "IA Murphy, Sean");
    let show = a.ok(&["tournament", "show", &id]);
    assert!(
        show.contains("chief arbiter") && show.contains("IA Murphy, Sean"),
        "{show}"
    );
    assert!(show.contains("FA Byrne, Ann; NA Kelly, Joe"), "{show}");
    let trf = a.ok(&["tournament", "export", &id]);
    let lines = |trf: &str, code: &str| -> Vec<String> {
        trf.lines()
            .filter(|l| l.starts_with(code))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(lines(&trf, "102 "), ["102 IA Murphy, Sean"]);
    assert_eq!(
        lines(&trf, "112 "),
        ["112 FA Byrne, Ann", "112 NA Kelly, Joe"]
    );
    // Changed by update (recorded as an event), the list replaced, then emptied.
    a.ok(&[
        "tournament",
        "update",
        &id,
        "--deputy-arbiter",
        "FA Walsh, Mary",
        "--reason",
        "Ann is ill",
    ]);
    let trf = a.ok(&["tournament", "export", &id]);
    assert_eq!(lines(&trf, "112 "), ["112 FA Walsh, Mary"]);
    assert_eq!(lines(&trf, "102 "), ["102 IA Murphy, Sean"]);
    a.ok(&["tournament", "update", &id, "--no-deputy-arbiters"]);
    let t = a.json(&["tournament", "show", &id]);
    assert_eq!(t["deputy_arbiters"], serde_json::json!([]));
    let history = a.json(&["result", "history", &id]);
    let updates = history
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "TournamentUpdated")
        .count();
    assert_eq!(updates, 2, "{history}");
    // A bad name is refused naming the field and the limit, and nothing changes.
    let long = "x".repeat(101);
    let m = a.refused(&["tournament", "update", &id, "--chief-arbiter", &long]);
    assert!(m.contains("--chief-arbiter: at most 100 characters"), "{m}");

    // Imported: 102/112 read into the record and written back once, as changed.
    let file = dir.path().join("with-officials.trf");
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../crates/trf/tests/data/pairing/s14891904432047-p13-r7.trf"),
    )
    .unwrap();
    let with = source.replacen(
        '\n',
        "\n102 IA Quinn, Pat\n112 FA Ryan, Liz\n112 NA Doyle, Tom\n",
        1,
    );
    std::fs::write(&file, with).unwrap();
    let imported = a.json(&["tournament", "import", file.to_str().unwrap()]);
    let iid = imported["tournament_id"].as_str().unwrap().to_owned();
    let t = a.json(&["tournament", "show", &iid]);
    assert_eq!(t["chief_arbiter"], "IA Quinn, Pat");
    assert_eq!(
        t["deputy_arbiters"],
        serde_json::json!(["FA Ryan, Liz", "NA Doyle, Tom"])
    );
    a.ok(&[
        "tournament",
        "update",
        &iid,
        "--chief-arbiter",
        "IA Nolan, Rose",
    ]);
    let trf = a.ok(&["tournament", "export", &iid]);
    assert_eq!(lines(&trf, "102 "), ["102 IA Nolan, Rose"]);
    assert_eq!(
        lines(&trf, "112 "),
        ["112 FA Ryan, Liz", "112 NA Doyle, Tom"]
    );
    let out = dir.path().join("out.trf");
    std::fs::write(&out, &trf).unwrap();
    let check = a.run(&["trf", "check", out.to_str().unwrap()]);
    assert!(check.status.success(), "{}", output_text(&check));
}

#[test]
fn the_servers_hints_name_the_cli_command_or_flag() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let id = create(&a, "Hint Open");
    for name in ["A, One", "B, Two", "C, Three", "D, Four"] {
        a.ok(&["player", "add", &id, "--name", name]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    // meta.reason → --reason.
    let m = a.refused(&["round", "discard", &id, "1"]);
    assert!(
        m.contains("--reason: discarding a pairing needs a reason"),
        "{m}"
    );
    assert!(!m.contains("meta."), "{m}");
    a.ok(&["round", "publish", &id, "1"]);
    // SetPairings → `arbiter round set`.
    let m = a.refused(&["round", "repair", &id, "1"]);
    assert!(
        m.contains("use `arbiter round set` for an allowed change"),
        "{m}"
    );
    assert!(!m.contains("SetPairings"), "{m}");
    // previous_result / meta.expected_version → --was / --expected-version.
    a.ok(&["result", "set", &id, "1", "1", "1-0"]);
    let m = a.refused(&[
        "result", "correct", &id, "1", "1", "0-1", "--reason", "sheet",
    ]);
    assert!(
        m.contains("--was: say which result you are correcting"),
        "{m}"
    );
    assert!(m.contains("or give --expected-version"), "{m}");
    assert!(
        !m.contains("meta.") && !m.contains("previous_result"),
        "{m}"
    );
    // meta.command_id → --command-id.
    a.ok(&[
        "result",
        "set",
        &id,
        "1",
        "2",
        "1/2",
        "--command-id",
        "c-42",
    ]);
    let m = a.refused(&[
        "result",
        "set",
        &id,
        "1",
        "2",
        "0-1",
        "--command-id",
        "c-42",
    ]);
    assert!(m.contains("--command-id: c-42 was already used"), "{m}");
    // Player and tournament fields → their flags.
    let m = a.refused(&["player", "add", &id, "--title", "GM"]);
    assert!(m.contains("--name"), "{m}");
    assert!(!m.contains("data."), "{m}");
    let m = a.refused(&[
        "tournament",
        "create",
        "--name",
        "Backwards",
        "--start",
        "2026-05-02",
        "--end",
        "2026-05-01",
    ]);
    assert!(
        m.contains("--end: 2026-05-01 is before --start 2026-05-02"),
        "{m}"
    );
    // expected_version (the log's conflict) → --expected-version.
    let m = a.refused(&[
        "tournament",
        "update",
        &id,
        "--place",
        "Ennis",
        "--expected-version",
        "1",
    ]);
    assert!(m.contains("--expected-version"), "{m}");
    assert!(
        !m.contains("meta.") && !m.contains(" expected_version"),
        "{m}"
    );
}

#[test]
fn tournament_list_fetches_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let ids: Vec<String> = (1..=7).map(|i| create(&a, &format!("Open {i}"))).collect();
    let listed = a.json(&["tournament", "list", "--page-size", "2"]);
    let got: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tournament_id"].as_str().unwrap())
        .collect();
    assert_eq!(got, ids.iter().map(String::as_str).collect::<Vec<_>>());
    let text = a.ok(&["tournament", "list", "--page-size", "3"]);
    for i in 1..=7 {
        assert!(text.contains(&format!("Open {i}")), "{text}");
    }

    // The RPC itself: a page and the token of the next; a bad token names the field.
    let token =
        arbiter_service_kit::auth::Auth::read_token(&a.data.join("admin.token"), "admin").unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use arbiter_proto::v1::ListTournamentsRequest;
        use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
        let ch = tonic::transport::Channel::from_shared(format!("http://127.0.0.1:{}", a.port))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut c = RegistryServiceClient::new(ch);
        let ask = |page_size: u32, page_token: &str| {
            let mut r = tonic::Request::new(ListTournamentsRequest {
                page_size,
                page_token: page_token.to_owned(),
            });
            r.metadata_mut()
                .insert("authorization", format!("Bearer {token}").parse().unwrap());
            r
        };
        let first = c.list_tournaments(ask(5, "")).await.unwrap().into_inner();
        assert_eq!(first.tournaments.len(), 5);
        assert!(!first.next_page_token.is_empty());
        let rest = c
            .list_tournaments(ask(5, &first.next_page_token))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(rest.tournaments.len(), 2);
        assert_eq!(rest.tournaments[1].tournament_id, ids[6]);
        assert!(rest.next_page_token.is_empty(), "the last page");
        let bad = c.list_tournaments(ask(5, "page-2")).await.unwrap_err();
        assert_eq!(bad.code(), tonic::Code::InvalidArgument);
        assert!(
            bad.message().starts_with("page_token: "),
            "{}",
            bad.message()
        );
    });
}

#[test]
fn arbiterd_that_cannot_start_says_so_in_one_line_without_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let not_a_dir = dir.path().join("a-file");
    std::fs::write(&not_a_dir, "x").unwrap();
    // An unreadable token file (here a directory where admin.token goes).
    let bad_token = dir.path().join("d3");
    std::fs::create_dir_all(bad_token.join("admin.token")).unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "--data-dir".into(),
                dir.path().join("d1").display().to_string(),
                "--listen".into(),
                addr.clone(),
            ],
            "give --listen with a free port",
        ),
        (
            vec![
                "--data-dir".into(),
                not_a_dir.display().to_string(),
                "--listen".into(),
                "127.0.0.1:0".into(),
            ],
            "not a directory",
        ),
        (
            vec![
                "--data-dir".into(),
                bad_token.display().to_string(),
                "--listen".into(),
                "127.0.0.1:0".into(),
            ],
            "token file",
        ),
        (
            vec![
                "--data-dir".into(),
                dir.path().join("d2").display().to_string(),
                "--listen".into(),
                "127.0.0.1:0".into(),
                "--tls-cert".into(),
                dir.path().join("missing.pem").display().to_string(),
                "--tls-key".into(),
                dir.path().join("missing.key").display().to_string(),
            ],
            "--tls-cert",
        ),
    ];
    for (args, says) in cases {
        let o = std::process::Command::new(arbiter_tests::binary("arbiterd"))
            .args(&args)
            .env("RUST_BACKTRACE", "1")
            .env("RUST_LOG", "warn")
            .env_remove("ARBITER_TLS_CERT")
            .env_remove("ARBITER_TLS_KEY")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", output_text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| l.starts_with("arbiterd: error:"))
            .collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        assert!(lines[0].contains(says), "{args:?}: {err}");
        assert!(
            !err.contains("backtrace") && !err.contains("Backtrace") && !err.contains(" at "),
            "{args:?}: {err}"
        );
    }
    drop(taken);
}
