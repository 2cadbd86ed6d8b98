//! Team competitions through the real binaries (`arbiterd` + `arbiter`), issue 43 part 1
//! (ADR registry-008): a team Swiss with four teams of five players, 4 boards; rosters in
//! board order; line-ups by the arbiter and by a captain; refusals that write nothing (the
//! log's head unchanged): a wrong board order, another team's captain, a late captain, a
//! line-up of a withdrawn team; the TRF export with its team records, checked by
//! `arbiter trf check` and imported again into a team tournament with the same teams;
//! round 1 paired from the line-ups (Dublin's empty board 4 won by forfeit), published, a
//! line-up handed in then and the round re-paired board by board; once it has a result its
//! line-ups are fixed (tests/team_pairing.rs plays whole team events).
use std::path::Path;

use arbiter_tests::{Arbiter, Proc, binary, output_text, start_arbiterd};

fn start(dir: &Path) -> (Arbiter, Proc) {
    let a = Arbiter {
        data: dir.join("data"),
        port: arbiter_testkit::free_port(),
    };
    let d = start_arbiterd(&a.data, a.port, |_| {});
    (a, d)
}

/// The global position of the last event the registry has folded: after a CLI command,
/// the log's head (as in `guards.rs`).
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

/// The CLI as the holder of `token` (not the admin).
fn as_holder(a: &Arbiter, token: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary("arbiter"))
        .args(args)
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_TOKEN", token)
        .env_remove("ARBITER_DATA_DIR")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

/// A refusal (exit 1) whose message holds every needle, and nothing written.
fn refused_nothing_written(a: &Arbiter, token: Option<&str>, args: &[&str], needles: &[&str]) {
    let before = head(a);
    let o = match token {
        Some(t) => as_holder(a, t, args),
        None => a.run(args),
    };
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(1), "arbiter {args:?}: {text}");
    for n in needles {
        assert!(text.contains(n), "arbiter {args:?}: {n:?} not in {text}");
    }
    assert_eq!(head(a), before, "arbiter {args:?} wrote to the log: {text}");
}

/// A principal with the team-captain role on `t`: (principal id, token).
fn captain(a: &Arbiter, name: &str, t: &str) -> (String, String) {
    let p = a.json(&["access", "add", name]);
    a.ok(&[
        "access",
        "grant",
        name,
        "--role",
        "team-captain",
        "--tournament",
        t,
    ]);
    let token = a.json(&["access", "token", name])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    (p["principal_id"].as_str().unwrap().to_owned(), token)
}

const TEAMS: [&str; 4] = [
    "Dublin Knights",
    "Cork Rooks",
    "Galway Bishops",
    "Limerick Pawns",
];

#[test]
fn a_team_swiss_registers_teams_rosters_and_line_ups_and_exports_them() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Irish Team Cup",
        "--rounds",
        "5",
        "--system",
        "swiss-team",
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    // An individual tournament takes no teams: refused naming the field.
    let solo = a.json(&["tournament", "create", "--name", "Solo Open"])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    refused_nothing_written(
        &a,
        None,
        &["team", "add", &solo, "Nobody"],
        &["tournament_id", "not a team tournament", "swiss-team"],
    );

    // 20 players, pairing numbers 1–20 by rating.
    for i in 0..20u32 {
        a.ok(&[
            "player",
            "add",
            &t,
            "--name",
            &format!("Player{i:02}, Anne"),
            "--rating",
            &(2400 - i * 20).to_string(),
            "--federation",
            "IRL",
        ]);
    }
    let (anna_id, anna) = captain(&a, "Anna Captain", &t);
    let (_cara_id, cara) = captain(&a, "Cara Captain", &t);
    for (k, name) in TEAMS.iter().enumerate() {
        let mut add = vec![
            "team",
            "add",
            &t,
            name,
            "--federation",
            "IRL",
            "--club",
            "Club",
        ];
        let principal;
        if k == 0 {
            principal = anna_id.clone();
            add.extend([
                "--captain",
                "Anna Captain",
                "--captain-principal",
                &principal,
            ]);
        }
        let out = a.ok(&add);
        assert!(out.contains(&format!("as team number {}", k + 1)), "{out}");
        // Team k: players k+1, k+5, k+9, k+13 on boards, k+17 reserve.
        let players: Vec<String> = (0..5).map(|j| (k + 1 + 4 * j).to_string()).collect();
        let mut roster = vec!["team", "roster", &t, name];
        roster.extend(players.iter().map(String::as_str));
        a.ok(&roster);
    }
    refused_nothing_written(
        &a,
        None,
        &["team", "add", &t, "dublin knights"],
        &["name", "already called \"Dublin Knights\""],
    );
    refused_nothing_written(
        &a,
        None,
        &["team", "roster", &t, "Cork Rooks", "2", "1"],
        &["players", "plays for team \"Dublin Knights\""],
    );

    // Round 2's line-ups were due an hour ago (captains); round 1 has no deadline.
    let past = chrono::Utc::now() - chrono::Duration::hours(1);
    let deadline = format!("2={}", past.format("%Y-%m-%dT%H:%M:%SZ"));
    a.ok(&[
        "team",
        "rules",
        &t,
        "--boards",
        "4",
        "--deadline",
        &deadline,
    ]);

    // The arbiter: Cork with its reserve (18) in place of 10.
    a.ok(&[
        "team", "lineup", &t, "2", "--round", "1", "2", "6", "14", "18",
    ]);
    // The captain of Dublin: its own team, a forfeited board 4.
    let o = as_holder(
        &a,
        &anna,
        &[
            "team",
            "lineup",
            &t,
            "Dublin Knights",
            "--round",
            "1",
            "1",
            "5",
            "9",
            "-",
        ],
    );
    assert!(o.status.success(), "{}", output_text(&o));
    // Board order: 9 (roster place 3) above 5 (place 2) is refused, naming both.
    refused_nothing_written(
        &a,
        None,
        &[
            "team", "lineup", &t, "3", "--round", "1", "11", "3", "7", "15",
        ],
        &[
            "boards",
            "board order",
            "may not play on board 2",
            "roster place",
        ],
    );
    // A captain submits its own team's line-up only …
    refused_nothing_written(
        &a,
        Some(&anna),
        &[
            "team",
            "lineup",
            &t,
            "Cork Rooks",
            "--round",
            "1",
            "2",
            "6",
            "10",
            "14",
        ],
        &["PermissionDenied", "not the captain of \"Cork Rooks\""],
    );
    // … a captain of no team none …
    refused_nothing_written(
        &a,
        Some(&cara),
        &[
            "team",
            "lineup",
            &t,
            "Galway Bishops",
            "--round",
            "1",
            "3",
            "7",
            "11",
            "15",
        ],
        &["PermissionDenied", "not the captain"],
    );
    // … and not after the round's deadline (the arbiter still may).
    refused_nothing_written(
        &a,
        Some(&anna),
        &[
            "team", "lineup", &t, "1", "--round", "2", "1", "5", "9", "13",
        ],
        &["FailedPrecondition", "deadline of round 2"],
    );
    a.ok(&[
        "team", "lineup", &t, "1", "--round", "2", "1", "5", "9", "13",
    ]);
    // Not on the roster, too few boards.
    refused_nothing_written(
        &a,
        None,
        &[
            "team", "lineup", &t, "4", "--round", "1", "4", "8", "12", "1",
        ],
        &[
            "boards",
            "board 4",
            "not on the roster of \"Limerick Pawns\"",
        ],
    );
    refused_nothing_written(
        &a,
        None,
        &["team", "lineup", &t, "4", "--round", "1", "4", "8"],
        &["boards", "2 boards given, a match is played on 4"],
    );
    // A withdrawn team submits nothing from its withdrawal on.
    a.ok(&[
        "team",
        "withdraw",
        &t,
        "Limerick Pawns",
        "--from-round",
        "3",
    ]);
    refused_nothing_written(
        &a,
        None,
        &[
            "team", "lineup", &t, "4", "--round", "3", "4", "8", "12", "16",
        ],
        &["team", "withdrew from round 3"],
    );

    // The list names players, not ids.
    let list = a.ok(&["team", "list", &t]);
    for needle in [
        "4 teams, 4 boards per match",
        "1  Dublin Knights (IRL, Club), captain Anna Captain",
        "board 1  Player00, Anne (1)",
        "reserve  Player16, Anne (17)",
        "round 1 line-up (by the captain):",
        "board 4 — (forfeited board)",
        "Limerick Pawns (IRL, Club), withdrawn from round 3",
    ] {
        assert!(list.contains(needle), "{needle:?} not in\n{list}");
    }
    let cork = a.ok(&["team", "list", &t, "--round", "1"]);
    assert!(cork.contains("board 4 Player17, Anne (18)"), "{cork}");
    let json = a.json(&["team", "list", &t]);
    assert_eq!(
        json["teams"][1]["lineups"][0]["boards"][3]["pairing_number"],
        18
    );

    // TRF26: one 310 per team, members in roster order; `trf check` passes; imported
    // again it is a team Swiss with the same teams and rosters. TRF16: 013.
    let file = dir.path().join("teams.trf");
    a.ok(&[
        "tournament",
        "export",
        &t,
        "--output",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let r310: Vec<&str> = text.lines().filter(|l| l.starts_with("310")).collect();
    assert_eq!(r310.len(), 4, "{text}");
    assert!(r310[0].starts_with("310   1 Dublin Knights"), "{}", r310[0]);
    assert!(r310[0].ends_with("   1    5    9   13   17"), "{}", r310[0]);
    let check = a.run(&["trf", "check", file.to_str().unwrap()]);
    assert!(check.status.success(), "{}", output_text(&check));
    let again = a.json(&[
        "tournament",
        "import",
        file.to_str().unwrap(),
        "--as-new",
        "--name",
        "Irish Team Cup again",
    ]);
    let u = again["tournament_id"].as_str().unwrap().to_owned();
    let back = a.json(&["team", "list", &u]);
    for k in 0..4 {
        assert_eq!(back["teams"][k]["name"], json["teams"][k]["name"]);
        let names = |v: &serde_json::Value| -> Vec<String> {
            v["roster"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names(&back["teams"][k]), names(&json["teams"][k]));
    }
    let file16 = dir.path().join("teams16.trf");
    a.ok(&[
        "tournament",
        "export",
        &t,
        "--to",
        "trf16",
        "--output",
        file16.to_str().unwrap(),
    ]);
    let text16 = std::fs::read_to_string(&file16).unwrap();
    assert_eq!(
        text16.lines().filter(|l| l.starts_with("013")).count(),
        4,
        "{text16}"
    );
    let check = a.run(&["trf", "check", file16.to_str().unwrap()]);
    assert!(check.status.success(), "{}", output_text(&check));

    // Round 1 paired from the line-ups (ADR pairing-005): two matches; Dublin left board 4
    // empty, so its opponent's board-4 player wins by forfeit.
    a.ok(&["round", "pair", &t, "1"]);
    let p = a.json(&["round", "show", &t, "1"]);
    assert_eq!(p["matches"].as_array().unwrap().len(), 2, "{p}");
    let shown = a.ok(&["round", "show", &t, "1"]);
    assert!(shown.contains("Dublin Knights (1)"), "{shown}");
    assert!(shown.contains("board 4 unopposed"), "{shown}");
    assert!(
        shown.contains("not in the line-up"),
        "the reserves: {shown}"
    );
    // The team pairing published, Cork's captain… here the arbiter, hands in a line-up with
    // its reserve (18) on board 4; the round re-paired takes it on the boards and keeps the
    // published team pairing (ADR pairing-005).
    let before = a.json(&["round", "show", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    a.ok(&[
        "team", "lineup", &t, "2", "--round", "1", "2", "6", "10", "18",
    ]);
    a.ok(&["round", "repair", &t, "1"]);
    let after = a.json(&["round", "show", &t, "1"]);
    let teams_of = |v: &serde_json::Value| -> Vec<(u64, u64)> {
        v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["first_team"]["number"].as_u64().unwrap(),
                    m["second_team"]["number"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(teams_of(&after), teams_of(&before), "{after}");
    // Changed boards are published again, as any pairing changed after publication.
    assert_eq!(after["published"], false, "{after}");
    assert_eq!(after["times_paired"], 2, "{after}");
    a.ok(&["round", "publish", &t, "1"]);
    let tpns: Vec<u64> = after["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| {
            [
                b["white_tpn"].as_u64().unwrap(),
                b["black_tpn"].as_u64().unwrap(),
            ]
        })
        .collect();
    assert!(tpns.contains(&18) && !tpns.contains(&14), "{after}");
    // Once the round has a result its line-ups are fixed.
    let first_board = after["boards"][0]["board"].as_u64().unwrap().to_string();
    a.ok(&["result", "set", &t, "1", &first_board, "1-0"]);
    refused_nothing_written(
        &a,
        None,
        &[
            "team", "lineup", &t, "2", "--round", "1", "2", "6", "10", "14",
        ],
        &["FailedPrecondition", "round 1 has results"],
    );
}

/// Issue 43 part 4: the results service's team standings of a team TRF imported into a
/// team tournament are the offline `standings --trf FILE --teams` of the same file (the
/// heltour Crete Friendship Cup 2024: 15 teams, whose places, MP and GP the offline path
/// already matches with the organiser's table).
#[test]
fn the_servers_team_standings_of_an_imported_team_event_are_the_offline_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = start(dir.path());
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/tiebreak/tests/fixtures/heltour-crete-friendship-cup-2024-team.trf");
    let file = file.to_str().unwrap();
    let imported = a.json(&["tournament", "import", file]);
    let id = imported["tournament_id"].as_str().unwrap().to_owned();
    let teams = a.json(&["team", "list", &id]);
    assert_eq!(teams["teams"].as_array().unwrap().len(), 15);

    let offline = a.json(&["standings", "--trf", file, "--teams"]);
    let served = a.json(&["standings", &id, "--teams"]);
    assert_eq!(
        served["rows"], offline["rows"],
        "server:\n{served}\noffline:\n{offline}"
    );
    assert_eq!(served["tie_breaks"], offline["tie_breaks"]);
    assert_eq!(served["primary"], "MP");
    let by_gp = a.json(&["standings", &id, "--teams", "--primary", "gp"]);
    let offline_gp = a.json(&["standings", "--trf", file, "--teams", "--primary", "gp"]);
    assert_eq!(by_gp["rows"], offline_gp["rows"]);

    // Human output: team names, MP and GP, the working of one team.
    let first = offline["rows"][0]["name"].as_str().unwrap().to_owned();
    let text = a.ok(&["standings", &id, "--teams", "--explain", "1"]);
    assert!(text.contains(&first), "{text}");
    assert!(text.contains("15 teams, 6 boards"), "{text}");
    assert!(
        text.contains("team 1 (ΓΑΖΙ 1): place 4, 9 MP, 25 GP"),
        "{text}"
    );
    assert!(text.contains("R1 opponent 8"), "{text}");

    // Board prizes need the board of each game, which only rounds paired here record: a
    // file offline is refused as a usage error, an imported event by the server.
    let o = a.run(&["standings", "--trf", file, "--teams", "--boards"]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert!(output_text(&o).contains("--boards is for a team tournament on the server"));
    let o = a.refused(&["standings", &id, "--teams", "--boards"]);
    assert!(
        o.contains("board_prizes")
            && o.contains("no team round of this tournament was paired here"),
        "{o}"
    );

    // An individual tournament has no team standings: refused naming the field.
    let solo = a.json(&["tournament", "create", "--name", "Solo Open"])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let o = a.refused(&["standings", &solo, "--teams"]);
    assert!(o.contains("has no teams"), "{o}");
}
