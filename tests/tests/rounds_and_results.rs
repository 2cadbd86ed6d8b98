//! Pairing and results services through the real binaries (`arbiterd` + `arbiter`):
//! a 10-player Dutch Swiss paired round by round by the service (each round identical to
//! `arbiter-pairings` on the registry's TRF export), results entered, a round-3 result
//! corrected after round 5 was paired and published (impact report, audit history, standings
//! as of before the correction, hash chain), and two arbiters correcting one board at once.
use std::path::{Path, PathBuf};

use arbiter_tests::{Arbiter, Proc, binary, output_text, start_arbiterd};

fn start(data: &Path, port: u16) -> Proc {
    start_arbiterd(data, port, |_| {})
}

const PLAYERS: [(&str, u32); 10] = [
    ("Alpha, Anna", 2400),
    ("Bravo, Ben", 2350),
    ("Charlie, Cid", 2300),
    ("Delta, Dora", 2250),
    ("Echo, Emil", 2200),
    ("Foxtrot, Fay", 2150),
    ("Golf, Gus", 2100),
    ("Hotel, Hana", 2050),
    ("India, Ivo", 2000),
    ("Juliet, Jo", 1950),
];

/// A deterministic result per board: 1-0, 1/2, 0-1, 1-0, …
fn result_for(round: u64, board: u64) -> &'static str {
    match (round + board) % 3 {
        0 => "1-0",
        1 => "1/2",
        _ => "0-1",
    }
}

fn pairs(v: &serde_json::Value) -> Vec<(u64, u64)> {
    v["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["white_tpn"].as_u64().unwrap(),
                b["black_tpn"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The same round paired by `arbiter-pairings` from the registry's TRF export.
fn reference_pairs(a: &Arbiter, dir: &Path, id: &str, round: u32) -> Vec<(u64, u64)> {
    reference_pairs_with(a, dir, id, round, &[])
}

fn reference_pairs_with(
    a: &Arbiter,
    dir: &Path,
    id: &str,
    round: u32,
    extra: &[&str],
) -> Vec<(u64, u64)> {
    let mut pairs = a.engine_pairs(dir, id, round, extra);
    pairs.retain(|(_, b)| *b != 0);
    pairs
}

fn setup(dir: &Path) -> (Arbiter, Proc, String) {
    let a = Arbiter {
        data: dir.join("data"),
        port: arbiter_testkit::free_port(),
    };
    let d = start(&a.data, a.port);
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Test Open",
        "--rounds",
        "7",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
        ]);
    }
    (a, d, id)
}

/// Pairs, publishes and (unless `leave_open`) enters every result and closes the round.
fn play_round(
    a: &Arbiter,
    dir: &Path,
    id: &str,
    round: u32,
    leave_open: bool,
) -> serde_json::Value {
    let r = round.to_string();
    let paired = a.json(&["round", "pair", id, &r]);
    assert_eq!(paired["engine_made"], true);
    assert_eq!(paired["edition"], "dutch-2026");
    assert_eq!(paired["boards"].as_array().unwrap().len(), 5);
    if round > 1 {
        assert_eq!(
            pairs(&paired),
            reference_pairs(a, dir, id, round),
            "round {round}: the service pairs exactly as arbiter-pairings on the same TRF"
        );
    }
    // No results before publication.
    let early = a.refused(&["result", "set", id, &r, "1", "1-0"]);
    assert!(early.contains("is not published"), "{early}");
    a.ok(&["round", "publish", id, &r]);
    if !leave_open {
        for board in 1..=5u64 {
            a.ok(&[
                "result",
                "set",
                id,
                &r,
                &board.to_string(),
                result_for(round.into(), board),
            ]);
        }
        a.ok(&["round", "close", id, &r]);
    }
    paired
}

#[test]
fn a_round_3_correction_after_round_5_was_paired_is_audited_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    let (a, mut d, id) = setup(dir.path());
    for round in 1..=4 {
        play_round(&a, dir.path(), &id, round, false);
    }
    play_round(&a, dir.path(), &id, 5, true);

    // Recording over an existing result is refused: a change is a correction.
    let over = a.refused(&["result", "set", &id, "3", "1", "0-1"]);
    assert!(over.contains("already has the result"), "{over}");
    // Round 6 cannot be paired while round 5 has no results.
    let early = a.refused(&["round", "pair", &id, "6"]);
    assert!(
        early.contains("round 5 has boards without a result"),
        "{early}"
    );

    let before = a.json(&["standings", &id]);
    let round3 = a.json(&["result", "show", &id, "3"]);
    let b1 = &round3["boards"][0];
    let old = b1["result"].as_str().unwrap().to_owned();
    let new = if old == "1-0" { "0-1" } else { "1-0" };
    // A correction needs a reason and the value being corrected.
    let no_reason = a.refused(&["result", "correct", &id, "3", "1", new, "--was", &old]);
    assert!(no_reason.contains("--reason"), "{no_reason}");
    let corrected = a.json(&[
        "result",
        "correct",
        &id,
        "3",
        "1",
        new,
        "--was",
        &old,
        "--reason",
        "result sheet signed 0-1 was entered wrongly",
    ]);
    assert_eq!(corrected["applies_to"], "standings-and-later-pairings");
    let published: Vec<u64> = corrected["published_rounds_with_old_result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    assert_eq!(
        published,
        vec![4, 5],
        "rounds 4 and 5 were paired with the old result"
    );
    let moves = corrected["rank_moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{corrected}");
    let white = b1["white"].as_str().unwrap();
    assert!(
        moves
            .iter()
            .any(|m| m["player_id"] == white && m["points_before"] != m["points_after"]),
        "the white player's points change: {corrected}"
    );
    assert!(
        moves.iter().any(|m| m["rank_before"] != m["rank_after"]),
        "someone's rank changes: {corrected}"
    );
    let position = corrected["position"].as_i64().unwrap();

    // The same impact from the log, later.
    let again = a.json(&["result", "impact", &id, "--position", &position.to_string()]);
    assert_eq!(again["rank_moves"], corrected["rank_moves"]);

    // The game's history: both values, the actor and the reason.
    let history = a.json(&["result", "history", &id, "--round", "3", "--board", "1"]);
    let h = history.as_array().unwrap();
    let rec = h.iter().find(|e| e["type"] == "ResultRecorded").unwrap();
    let cor = h.iter().find(|e| e["type"] == "ResultCorrected").unwrap();
    assert_eq!(rec["after"], old.as_str());
    assert_eq!(cor["before"], old.as_str());
    assert_eq!(cor["after"], new);
    assert!(
        cor["actor"].as_str().unwrap().starts_with("admin (p_"),
        "{}",
        cor["actor"]
    );
    assert_eq!(cor["reason"], "result sheet signed 0-1 was entered wrongly");

    // Standings as of before the correction are still those of before.
    let after = a.json(&["standings", &id]);
    assert_ne!(after["rows"], before["rows"]);
    let then = a.json(&["standings", &id, "--as-of", &(position - 1).to_string()]);
    assert_eq!(then["rows"], before["rows"]);
    // The published round-5 pairing is unchanged; round 5 can still be played and closed.
    for board in 1..=5u64 {
        a.ok(&[
            "result",
            "set",
            &id,
            "5",
            &board.to_string(),
            result_for(5, board),
        ]);
    }
    a.ok(&["round", "close", &id, "5"]);
    // Round 6 is paired from the corrected record.
    let r6 = a.json(&["round", "pair", &id, "6"]);
    assert_eq!(pairs(&r6), reference_pairs(&a, dir.path(), &id, 6));

    // The hash chain holds; the audit export has every event as one JSON line.
    let verify = a.json(&["audit", "verify", &id]);
    assert_eq!(verify["ok"], true);
    let jsonl = a.ok(&["audit", "export", &id]);
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|l| l["type"] == "ResultCorrected"
        && l["reason"] == "result sheet signed 0-1 was entered wrongly"
        && l["before"] == old.as_str()));
    assert_eq!(
        lines.len() as u64,
        verify["events_checked"].as_u64().unwrap()
    );

    // The crosstable and the working of one player's values.
    let ct = a.ok(&["standings", &id, "--format", "crosstable"]);
    assert!(ct.lines().next().unwrap().contains("R5"), "{ct}");
    assert_eq!(ct.lines().count(), 11, "{ct}");
    let explained = a.ok(&["standings", &id, "--explain", "1"]);
    assert!(explained.contains("TPN 1: place"), "{explained}");

    // After kill -9 the projection is rebuilt from the log with the same answers.
    let standings_now = a.ok(&["standings", &id, "--format", "csv"]);
    d.kill9();
    let _d = start(&a.data, a.port);
    assert_eq!(a.ok(&["standings", &id, "--format", "csv"]), standings_now);
    assert_eq!(
        pairs(&a.json(&["round", "show", &id, "6"])),
        pairs(&r6),
        "the round-6 pairing survives a restart"
    );
}

#[test]
fn two_arbiters_correcting_one_board_at_once_one_wins_the_other_is_told_which_board() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d, id) = setup(dir.path());
    play_round(&a, dir.path(), &id, 1, false);
    let old = a.json(&["result", "show", &id, "1"])["boards"][1]["result"]
        .as_str()
        .unwrap()
        .to_owned();
    let spawn = |result: &str, who: &str| {
        std::process::Command::new(binary("arbiter"))
            .args([
                "result", "correct", &id, "1", "2", result, "--was", &old, "--reason", who,
            ])
            .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
            .env("ARBITER_DATA_DIR", &a.data)
            .env_remove("ARBITER_TOKEN")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let candidates = if old == "1-0" {
        ["0-1", "1/2-1/2"]
    } else {
        ["1-0", "0-1"]
    };
    let first = spawn(candidates[0], "arbiter one");
    let second = spawn(candidates[1], "arbiter two");
    let outs = [
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    ];
    let won: Vec<usize> = (0..2).filter(|i| outs[*i].status.success()).collect();
    assert_eq!(
        won.len(),
        1,
        "exactly one correction wins: {:?}",
        outs.iter().map(output_text).collect::<Vec<_>>()
    );
    let lost = &outs[1 - won[0]];
    assert_eq!(lost.status.code(), Some(1));
    assert!(
        output_text(lost).contains("board 1.2"),
        "{}",
        output_text(lost)
    );
    // No result is lost: the board has the winner's value, its history both events of it.
    let now = a.json(&["result", "show", &id, "1"]);
    assert_eq!(now["boards"][1]["result"], candidates[won[0]]);
    assert_eq!(now["boards"][1]["corrections"], 1);
    let h = a.json(&["result", "history", &id, "--round", "1", "--board", "2"]);
    let corrections: Vec<_> = h
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "ResultCorrected")
        .collect();
    assert_eq!(corrections.len(), 1);
    assert_eq!(corrections[0]["before"], old.as_str());
}

/// Corrections of five boards sent at once: each answer's impact is that correction's alone
/// (the same as the impact read back from the log at its position, which is the record just
/// before it and with it), and the standings served afterwards (the service keeps its last
/// tables, ADR results-003) are those a restarted server computes from the log.
#[test]
fn corrections_sent_at_once_each_report_their_own_impact() {
    let dir = tempfile::tempdir().unwrap();
    let (a, mut d, id) = setup(dir.path());
    for round in 1..=2 {
        play_round(&a, dir.path(), &id, round, false);
    }
    let before = a.ok(&["standings", &id, "--format", "csv"]);
    let boards = a.json(&["result", "show", &id, "2"])["boards"].clone();
    let spawn = |board: usize| {
        let old = boards[board]["result"].as_str().unwrap().to_owned();
        let new = if old == "1-0" { "0-1" } else { "1-0" };
        std::process::Command::new(binary("arbiter"))
            .args([
                "result",
                "correct",
                &id,
                "2",
                &(board + 1).to_string(),
                new,
                "--was",
                &old,
                "--reason",
                "sheets re-read",
                "--json",
            ])
            .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
            .env("ARBITER_DATA_DIR", &a.data)
            .env_remove("ARBITER_TOKEN")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<_> = (0..5).map(spawn).collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", output_text(&out));
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let position = answer["position"].as_i64().unwrap();
        let from_log = a.json(&["result", "impact", &id, "--position", &position.to_string()]);
        assert_eq!(
            answer["rank_moves"], from_log["rank_moves"],
            "the impact answered at position {position} is the one the log gives"
        );
        assert_eq!(answer["summary"], from_log["summary"]);
    }
    let served = a.ok(&["standings", &id, "--format", "csv"]);
    assert_ne!(served, before, "five results changed");
    d.kill9();
    let _d = start(&a.data, a.port);
    assert_eq!(a.ok(&["standings", &id, "--format", "csv"]), served);
}

#[test]
fn pairings_set_by_hand_byes_and_bad_input_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d, id) = setup(dir.path());
    // A pairing set by hand needs a reason, every player at most once.
    let twice = a.refused(&[
        "round", "set", &id, "1", "--board", "1-2", "--board", "2-3", "--reason", "test",
    ]);
    assert!(twice.contains("paired twice"), "{twice}");
    let no_reason = a.refused(&["round", "set", &id, "1", "--board", "1-2"]);
    assert!(no_reason.contains("--reason"), "{no_reason}");
    let set = a.json(&[
        "round",
        "set",
        &id,
        "1",
        "--board",
        "1-6",
        "--board",
        "7-2",
        "--board",
        "3-8",
        "--board",
        "9-4",
        "--reason",
        "organiser's schedule",
    ]);
    assert_eq!(set["engine_made"], false);
    assert_eq!(set["absent"].as_array().unwrap().len(), 2);
    // The engine may re-pair an unpublished round.
    let repaired = a.json(&["round", "repair", &id, "1"]);
    assert_eq!(repaired["engine_made"], true);
    assert_eq!(repaired["times_paired"], 2);
    let explained = a.ok(&["round", "explain", &id, "1"]);
    assert!(explained.contains("bracket score"), "{explained}");
    a.ok(&["round", "publish", &id, "1"]);
    let again = a.refused(&["round", "repair", &id, "1"]);
    assert!(again.contains("published"), "{again}");
    // Result notation errors name the field; boards must exist.
    let bad = a.refused(&["result", "set", &id, "1", "1", "2-0"]);
    assert!(bad.contains("result:"), "{bad}");
    let nob = a.refused(&["result", "set", &id, "1", "9", "1-0"]);
    assert!(nob.contains("board:"), "{nob}");
    // A game of less than one move, an unequal arbiter-assigned score, forfeits.
    for (board, result) in [(1, "W-L"), (2, "1-1/2"), (3, "-+"), (5, "0-0")] {
        a.ok(&["result", "set", &id, "1", &board.to_string(), result]);
    }
    // "--" ends the options: a double forfeit is written after it (or as -:-).
    a.ok(&["result", "set", &id, "1", "4", "--", "--"]);
    let shown = a.json(&["result", "show", &id, "1"]);
    let results: Vec<&str> = shown["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["W-L", "1-1/2", "-+", "--", "0-0"]);
    a.ok(&["round", "close", &id, "1"]);
    // The standings count them as the FIDE scoring does; the TRF export carries the codes.
    let trf = a.ok(&["standings", &id, "--format", "trf"]);
    assert!(
        trf.lines().filter(|l| l.starts_with("001")).count() == 10,
        "{trf}"
    );
    for code in [" w W", " b L", " w -", " b +", " b =", " w 0"] {
        assert!(trf.contains(code), "{code:?} in {trf}");
    }

    // A correction before round 2 is published: the pairing made with the old result
    // cannot be published; re-paired, it can.
    a.ok(&["round", "pair", &id, "2"]);
    let c = a.json(&[
        "result",
        "correct",
        &id,
        "1",
        "5",
        "1/2",
        "--was",
        "0-0",
        "--reason",
        "appeal upheld",
        "--claim",
    ]);
    assert_eq!(c["applies_to"], "standings-and-next-pairing");
    assert_eq!(c["unpublished_rounds_to_repair"], serde_json::json!([2]));
    let stale = a.refused(&["round", "publish", &id, "2"]);
    assert!(stale.contains("re-pair it"), "{stale}");
    a.ok(&["round", "repair", &id, "2"]);
    a.ok(&["round", "publish", &id, "2"]);
}

#[test]
fn settings_scoring_acceleration_and_tiebreaks_reach_pairing_and_standings() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d, id) = setup(dir.path());
    let bad = a.refused(&["tournament", "settings", &id, "--scoring", "W=1 D=2"]);
    assert!(bad.contains("scoring:"), "{bad}");
    a.ok(&[
        "tournament",
        "settings",
        &id,
        "--scoring",
        "W=3 D=1 FW=3 PAB=3",
        "--tiebreaks",
        "BH,SB",
        "--rating-list-date",
        "2026-11-01",
    ]);
    // C.04.7 art. 1.1: Baku acceleration needs a win worth two draws.
    let baku = a.refused(&["tournament", "settings", &id, "--acceleration", "baku"]);
    assert!(baku.contains("C.04.7 art. 1.1"), "{baku}");
    let t = a.json(&["tournament", "show", &id]);
    assert_eq!(t["scoring"], "W=3 D=1 FW=3 PAB=3");
    assert_eq!(t["acceleration"], "");
    assert_eq!(t["tiebreaks"], "BH,SB");
    assert_eq!(t["rating_list_date"], "2026-11-01");
    let trf = a.ok(&["tournament", "export", &id]);
    assert!(
        trf.lines()
            .any(|l| l.starts_with("XXS") && l.contains("W=3")),
        "{trf}"
    );
    assert!(
        trf.lines()
            .any(|l| l.starts_with("202") && l.contains("BH")),
        "{trf}"
    );
    play_round(&a, dir.path(), &id, 1, false);
    play_round(&a, dir.path(), &id, 2, false);
    // Standings in 3/1/0 with the announced list.
    let s = a.json(&["standings", &id, "--round", "1"]);
    assert_eq!(s["tiebreaks"], serde_json::json!(["BH", "SB"]));
    let mut points: Vec<&str> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_str().unwrap())
        .collect();
    points.sort();
    // Round 1: boards 1..5 → 0-1, 1-0, 1/2, 0-1, 1-0 (result_for): four wins, one draw.
    assert_eq!(
        points,
        ["0", "0", "0", "0", "1", "1", "3", "3", "3", "3"],
        "{s}"
    );

    // A Baku-accelerated event (FIDE scoring): round 2 is paired as
    // `arbiter-pairings --acceleration baku` pairs the same file.
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Accelerated Open",
        "--rounds",
        "7",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
        ]);
    }
    a.ok(&["tournament", "settings", &id, "--acceleration", "baku"]);
    let r = "1";
    a.ok(&["round", "pair", &id, r]);
    a.ok(&["round", "publish", &id, r]);
    for board in 1..=5u64 {
        a.ok(&[
            "result",
            "set",
            &id,
            r,
            &board.to_string(),
            result_for(1, board),
        ]);
    }
    a.ok(&["round", "close", &id, r]);
    let r2 = a.json(&["round", "pair", &id, "2"]);
    let with = reference_pairs_with(&a, dir.path(), &id, 2, &["--acceleration", "baku"]);
    assert_eq!(pairs(&r2), with);
    // The export declares it (record 192, ETT26): arbiter-pairings applies Baku by itself.
    assert_eq!(reference_pairs(&a, dir.path(), &id, 2), with);
    let input = dir.path().join(format!("{id}-before-2.trf"));
    let text = std::fs::read_to_string(&input).unwrap();
    assert!(text.contains("192 FIDE_DUTCH_2026_BAKU"), "{text}");
    // Without the virtual points the round is paired differently.
    let plain = a.json(&[
        "pair",
        "--system",
        "dutch",
        "--trf",
        input.to_str().unwrap(),
    ]);
    let plain: Vec<(u64, u64)> = plain["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
        .collect();
    assert_ne!(
        with, plain,
        "the virtual points change this round's pairing"
    );
}

/// Issue acceptance: an imported tournament's standings have the file's points, and each
/// stated place is within the places of its score group (the Irish files announce no
/// tie-breaks; the Bunratty Minor's rank column is not in score order).
#[test]
fn imported_tournaments_have_the_files_points_and_places() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/trf/tests/data/trf");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            (n.starts_with("icu-") || n.starts_with("lichess-")) && !n.contains("minor")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 10);
    let mut compared = 0;
    for f in &files {
        // The Bunratty sections share their 012 name and dates: each is imported under
        // its section's name (the same name and dates again would need --as-new).
        let section = f.file_stem().unwrap().to_string_lossy().into_owned();
        let imported = a.json(&[
            "tournament",
            "import",
            f.to_str().unwrap(),
            "--name",
            &section,
        ]);
        let id = imported["tournament_id"].as_str().unwrap();
        let s = a.json(&["standings", id]);
        // Columns by byte: some files are Latin-1.
        let bytes = std::fs::read(f).unwrap();
        let col = |l: &[u8], a: usize, b: usize| {
            String::from_utf8_lossy(&l[a..b.min(l.len())])
                .trim()
                .to_owned()
        };
        let stated: std::collections::BTreeMap<u64, (String, String)> = bytes
            .split(|b| *b == b'\n')
            .filter(|l| l.starts_with(b"001") && l.len() >= 84)
            .map(|l| {
                (
                    col(l, 4, 8).parse().unwrap(),
                    (
                        col(l, 80, 84),
                        if l.len() > 85 {
                            col(l, 85, 89)
                        } else {
                            String::new()
                        },
                    ),
                )
            })
            .collect();
        let rows = s["rows"].as_array().unwrap();
        let mut band: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
        for r in rows {
            let e = band
                .entry(r["points"].as_str().unwrap().to_owned())
                .or_insert((u64::MAX, 0));
            e.0 = e.0.min(r["rank"].as_u64().unwrap());
            e.1 += 1;
        }
        for r in rows {
            let (points, rank) = &stated[&r["tpn"].as_u64().unwrap()];
            let got: f64 = r["points"].as_str().unwrap().parse().unwrap();
            assert_eq!(got, points.parse::<f64>().unwrap(), "{}: {r}", f.display());
            if let Ok(rank) = rank.parse::<u64>() {
                let (lo, n) = band[r["points"].as_str().unwrap()];
                assert!(
                    (lo..lo + n).contains(&rank),
                    "{}: stated place {rank}, score group places {lo}-{}: {r}",
                    f.display(),
                    lo + n - 1
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 250, "{compared}");
}

/// Issue 6 link: a tournament run here goes to the rating service with its results as
/// rating sees them; a player's claim after the next round ended (rating only) changes the
/// rated game, not the standings, and re-submitting it is a revision.
#[test]
fn a_tournament_run_here_is_rated_with_its_rating_only_corrections() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Rated Open",
        "--rounds",
        "3",
        "--start",
        "2026-10-10",
        "--end",
        "2026-10-12",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (i, (name, rating)) in PLAYERS.iter().enumerate() {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
            "--fide-id",
            &(2_000_000 + i).to_string(),
        ]);
    }
    for round in 1..=2 {
        play_round(&a, dir.path(), &id, round, false);
    }
    let first = a.json(&["rating", "submit-tournament", &id, "--kind", "standard"]);
    assert_eq!(first["rated_games"], 10, "{first}");
    assert_eq!(first["version"], 1);

    // A claim about round 1 after round 2 ended: rating only.
    let b1 = a.json(&["result", "show", &id, "1"])["boards"][0].clone();
    let old = b1["result"].as_str().unwrap().to_owned();
    let new = if old == "1-0" { "0-1" } else { "1-0" };
    let standings = a.ok(&["standings", &id, "--format", "csv"]);
    let c = a.json(&[
        "result",
        "correct",
        &id,
        "1",
        "1",
        new,
        "--was",
        &old,
        "--claim",
        "--reason",
        "late claim, accepted for rating",
    ]);
    assert_eq!(c["applies_to"], "rating-only");
    assert_eq!(c["rank_moves"], serde_json::json!([]));
    assert_eq!(c["rating_changes"].as_array().unwrap().len(), 2, "{c}");
    assert_eq!(a.ok(&["standings", &id, "--format", "csv"]), standings);
    let shown = a.json(&["result", "show", &id, "1"]);
    assert_eq!(shown["boards"][0]["result"], old.as_str());
    assert_eq!(shown["boards"][0]["rating_result"], new);

    // Re-submitted: a revision, with a reason.
    let again = a.refused(&["rating", "submit-tournament", &id, "--kind", "standard"]);
    assert!(again.contains("--reason"), "{again}");
    let second = a.json(&[
        "rating",
        "submit-tournament",
        &id,
        "--kind",
        "standard",
        "--reason",
        "claim on round 1",
    ]);
    assert_eq!(second["version"], 2, "{second}");
    assert_eq!(second["rated_games"], 10);
}

/// Issue 8: the seeds' other Swiss systems are reachable from the pairing service, and
/// pair as `arbiter pair --system …` pairs the registry's TRF export.
#[test]
fn lim_italo_swiss_and_draughts_swiss_are_paired_by_the_service() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    for system in ["lim", "italo-swiss", "draughts-swiss"] {
        let t = a.json(&[
            "tournament",
            "create",
            "--name",
            system,
            "--rounds",
            "5",
            "--system",
            system,
        ]);
        let id = t["tournament_id"].as_str().unwrap().to_owned();
        for (name, rating) in PLAYERS {
            a.ok(&[
                "player",
                "add",
                &id,
                "--name",
                name,
                "--rating",
                &rating.to_string(),
            ]);
        }
        let mut met = std::collections::BTreeSet::new();
        for round in 1..=3u32 {
            let r = round.to_string();
            let paired = a.json(&["round", "pair", &id, &r]);
            assert_eq!(paired["system"], system);
            let got = pairs(&paired);
            let mut seen = std::collections::BTreeSet::new();
            for (w, b) in &got {
                assert!(
                    seen.insert(*w) && seen.insert(*b),
                    "{system} round {round}: {got:?}"
                );
                assert!(
                    met.insert((*w.min(b), *w.max(b))),
                    "{system}: rematch {w}-{b}"
                );
            }
            assert_eq!(seen.len() + usize::from(paired["bye_tpn"] != 0), 10);
            if round > 1 {
                let input = dir.path().join(format!("{system}-{round}.trf"));
                a.ok(&[
                    "tournament",
                    "export",
                    &id,
                    "--round",
                    &(round - 1).to_string(),
                    "--engine-lines",
                    "--output",
                    input.to_str().unwrap(),
                ]);
                let offline =
                    a.json(&["pair", "--system", system, "--trf", input.to_str().unwrap()]);
                let want: Vec<(u64, u64)> = offline["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
                    .collect();
                assert_eq!(got, want, "{system} round {round}");
            }
            a.ok(&["round", "publish", &id, &r]);
            for board in 1..=got.len() as u64 {
                a.ok(&[
                    "result",
                    "set",
                    &id,
                    &r,
                    &board.to_string(),
                    result_for(round.into(), board),
                ]);
            }
            a.ok(&["round", "close", &id, &r]);
        }
    }
}

/// Issue 9: an arbiter never waits minutes without knowing why — a pairing that does not
/// finish in time is answered with the reason, and nothing is written.
#[test]
fn a_pairing_that_takes_too_long_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = arbiter_tests::start_arbiterd(&a.data, a.port, |c| {
        c.env("ARBITER_PAIRING_TIMEOUT_MS", "0");
    });
    let t = a.json(&["tournament", "create", "--name", "Slow", "--rounds", "5"]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
        ]);
    }
    let slow = a.refused(&["round", "pair", &id, "1"]);
    assert!(
        slow.contains("DeadlineExceeded") && slow.contains("did not finish within"),
        "{slow}"
    );
    let none = a.run(&["round", "show", &id, "1"]);
    assert_eq!(none.status.code(), Some(1), "nothing was written");
}

/// Issue 8: a round robin declared by the tournament is paired by the service from the
/// Berger tables, as `arbiter pair --system round-robin --trf` pairs its export.
#[test]
fn a_round_robin_is_paired_from_the_berger_tables() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Closed",
        "--rounds",
        "9",
        "--system",
        "round-robin",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
        ]);
    }
    let export = a.ok(&["tournament", "export", &id]);
    assert!(export.contains("192 FIDE_ROUNDROBIN"), "{export}");
    for round in 1..=3u32 {
        let r = round.to_string();
        let paired = a.json(&["round", "pair", &id, &r]);
        assert_eq!(paired["system"], "round-robin");
        let got = pairs(&paired);
        assert_eq!(got.len(), 5);
        if round > 1 {
            let input = dir.path().join(format!("rr-{round}.trf"));
            a.ok(&[
                "tournament",
                "export",
                &id,
                "--round",
                &(round - 1).to_string(),
                "--output",
                input.to_str().unwrap(),
            ]);
            let offline = a.json(&[
                "pair",
                "--system",
                "round-robin",
                "--trf",
                input.to_str().unwrap(),
            ]);
            let want: Vec<(u64, u64)> = offline["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
                .collect();
            assert_eq!(got, want, "round {round}");
        }
        a.ok(&["round", "publish", &id, &r]);
        for board in 1..=5u64 {
            a.ok(&[
                "result",
                "set",
                &id,
                &r,
                &board.to_string(),
                result_for(round.into(), board),
            ]);
        }
        a.ok(&["round", "close", &id, &r]);
    }
    // Berger round 1 for 10 players: 1-10, 2-9, 3-8, 4-7, 5-6 (C.05 Annex 1).
    let r1 = pairs(&a.json(&["round", "show", &id, "1"]));
    assert_eq!(r1, [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)]);
}

/// Issue 6: the rating service consumes the results service's events — a tournament
/// whose last round closes is submitted by itself (its list from its time control).
#[test]
fn a_finished_tournament_reaches_the_rating_service_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Autumn Open",
        "--rounds",
        "2",
        "--start",
        "2026-10-10",
        "--end",
        "2026-10-11",
        "--time-control",
        "5400+30",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (i, (name, rating)) in PLAYERS.iter().enumerate() {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
            "--fide-id",
            &(3_000_000 + i).to_string(),
        ]);
    }
    play_round(&a, dir.path(), &id, 1, false);
    let listed = |a: &Arbiter| {
        ["2026-11", "2026-12"].iter().any(|p| {
            let o = a.run(&["rating", "status", p, "--json"]);
            o.status.success()
                && serde_json::from_slice::<serde_json::Value>(&o.stdout)
                    .ok()
                    .and_then(|v| v["tournaments"].as_array().cloned())
                    .is_some_and(|ts| ts.iter().any(|t| t.as_str() == Some(id.as_str())))
        })
    };
    assert!(!listed(&a), "not before the last round closes");
    play_round(&a, dir.path(), &id, 2, false);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !listed(&a) {
        assert!(
            std::time::Instant::now() < deadline,
            "the tournament was never submitted"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Submitting it by hand now is a revision: it needs a reason.
    let again = a.refused(&["rating", "submit-tournament", &id, "--kind", "standard"]);
    assert!(again.contains("--reason"), "{again}");
}

/// A knockout tournament with the first four of [`PLAYERS`]; returns its id.
fn knockout_cup(a: &Arbiter, name: &str) -> String {
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        name,
        "--system",
        "knockout",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in &PLAYERS[..4] {
        let rating = rating.to_string();
        a.ok(&["player", "add", &id, "--name", name, "--rating", &rating]);
    }
    id
}

/// `arbiter pair --system knockout --trf` (with `format`) on the registry's export as of
/// `round - 1`: the (White, Black) pairing numbers of each game.
fn offline_knockout(
    a: &Arbiter,
    dir: &Path,
    id: &str,
    round: u32,
    format: &[&str],
) -> Vec<(u64, u64)> {
    let input = dir.join(format!("ko-{round}.trf"));
    let input = input.to_str().unwrap();
    let before = (round - 1).to_string();
    a.ok(&[
        "tournament",
        "export",
        id,
        "--round",
        &before,
        "--engine-lines",
        "--output",
        input,
    ]);
    let mut args = vec!["pair", "--system", "knockout", "--trf", input];
    args.extend_from_slice(format);
    a.json(&args)["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
        .collect()
}

/// Publishes round `r`, records `results` board by board and closes the round.
fn play_knockout_round(a: &Arbiter, id: &str, r: &str, results: &[&str]) {
    a.ok(&["round", "publish", id, r]);
    for (board, result) in results.iter().enumerate() {
        a.ok(&["result", "set", id, r, &(board + 1).to_string(), result]);
    }
    a.ok(&["round", "close", id, r]);
}

/// Issue 8 item 7: a knockout declared by the tournament is paired by the service, one round
/// per game — four players, 2-game matches: semi-finals 1–4 and 2–3, the 1–1 match alone to
/// its rapid tie-break, the final between the winners, then "the knockout is over". Every
/// round equals `arbiter pair --system knockout --trf` on the registry's export.
#[test]
fn a_knockout_is_paired_game_by_game_to_its_final() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let id = knockout_cup(&a, "Cup");
    let export = a.ok(&["tournament", "export", &id]);
    assert!(export.contains("192 CUSTOM_KNOCKOUT"), "{export}");
    // (expected White–Black by pairing number, result per board) round by round.
    type Round = (&'static [(u64, u64)], &'static [&'static str]);
    let plan: [Round; 6] = [
        (&[(1, 4), (2, 3)], &["1-0", "1-0"]),
        (&[(4, 1), (3, 2)], &["1/2", "1-0"]), // 1–4: 1½–½; 2–3: 1–1
        (&[(2, 3)], &["1/2"]),                // rapid tie-break, game 1
        (&[(3, 2)], &["1-0"]),                // 3 wins the rapid 1½–½
        (&[(1, 3)], &["0-1"]),                // final, game 1
        (&[(3, 1)], &["1-0"]),                // 3 wins the final 2–0
    ];
    for (i, (want, results)) in plan.iter().enumerate() {
        let round = u32::try_from(i + 1).unwrap();
        let r = round.to_string();
        let paired = a.json(&["round", "pair", &id, &r]);
        assert_eq!(paired["system"], "knockout");
        assert_eq!(paired["edition"], "seed-000");
        assert_eq!(pairs(&paired), *want, "round {round}");
        assert_eq!(paired["bye_tpn"], 0, "round {round}: no bye in a knockout");
        if round > 1 {
            let offline = offline_knockout(&a, dir.path(), &id, round, &[]);
            assert_eq!(offline, *want, "round {round}: offline = service");
        }
        play_knockout_round(&a, &id, &r, results);
    }
    let over = a.refused(&["round", "pair", &id, "7"]);
    assert!(
        over.contains("the knockout is over: pairing number 3") && over.contains("round 6"),
        "{over}"
    );
}

/// Issue 8 item 2: a knockout's match format is a tournament setting. A 4-player cup of
/// 1-game matches decided by Armageddon: the drawn semi-final 2–3 goes straight to the
/// Armageddon game (a draw wins for Black: 2), the final 1–2 is one game. Every round equals
/// `arbiter pair --system knockout --games 1 --tie-breaks armageddon` on the registry's
/// export; once round 1 is paired the match format can no longer change (ADR knockout-005).
#[test]
fn a_knockouts_match_format_is_a_tournament_setting_fixed_once_round_1_is_paired() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);
    let id = knockout_cup(&a, "Armageddon Cup");
    let bad = a.refused(&["tournament", "settings", &id, "--knockout-games", "0"]);
    assert!(bad.contains("--knockout-games"), "{bad}");
    let bad = a.refused(&[
        "tournament",
        "settings",
        &id,
        "--knockout-tie-breaks",
        "rapid:2,bullet:1",
    ]);
    assert!(
        bad.contains("--knockout-tie-breaks") && bad.contains("bullet"),
        "{bad}"
    );
    a.ok(&[
        "tournament",
        "settings",
        &id,
        "--knockout-games",
        "1",
        "--knockout-tie-breaks",
        "Armageddon",
    ]);
    let shown = a.json(&["tournament", "show", &id]);
    assert_eq!(shown["knockout_games"], 1, "{shown}");
    assert_eq!(shown["knockout_tie_breaks"], "armageddon", "{shown}");
    let table = a.ok(&["tournament", "show", &id]);
    assert!(table.contains("1 games, then armageddon"), "{table}");
    type Round = (&'static [(u64, u64)], &'static [&'static str]);
    let plan: [Round; 3] = [
        (&[(1, 4), (2, 3)], &["1-0", "1/2"]), // 1 wins; 2–3 drawn: Armageddon
        (&[(3, 2)], &["1/2"]),                // Armageddon: the draw wins for Black, 2
        (&[(1, 2)], &["1-0"]),                // final: one game, 1 wins
    ];
    for (i, (want, results)) in plan.iter().enumerate() {
        let round = u32::try_from(i + 1).unwrap();
        let r = round.to_string();
        let paired = a.json(&["round", "pair", &id, &r]);
        assert_eq!(paired["system"], "knockout");
        assert_eq!(pairs(&paired), *want, "round {round}");
        if round == 1 {
            // The match format is fixed from now on; the value it has is still accepted.
            for (flag, value) in [
                ("--knockout-games", "2"),
                ("--knockout-tie-breaks", "rapid:2,armageddon"),
            ] {
                let refused = a.refused(&["tournament", "settings", &id, flag, value]);
                assert!(
                    refused.contains(&format!("{flag}: "))
                        && refused.contains("round 1 is already paired"),
                    "{refused}"
                );
            }
            a.ok(&["tournament", "settings", &id, "--knockout-games", "1"]);
            let shown = a.json(&["tournament", "show", &id]);
            assert_eq!(shown["knockout_games"], 1, "{shown}");
            assert_eq!(shown["knockout_tie_breaks"], "armageddon", "{shown}");
        } else {
            let format = ["--games", "1", "--tie-breaks", "armageddon"];
            let offline = offline_knockout(&a, dir.path(), &id, round, &format);
            assert_eq!(offline, *want, "round {round}: offline = service");
            if round == 2 {
                // With the default format both semi-finals would play their second game.
                let default = offline_knockout(&a, dir.path(), &id, round, &[]);
                assert_eq!(default, [(4, 1), (3, 2)], "the default format");
            }
        }
        play_knockout_round(&a, &id, &r, results);
    }
    let over = a.refused(&["round", "pair", &id, "4"]);
    assert!(
        over.contains("the knockout is over: pairing number 1") && over.contains("round 3"),
        "{over}"
    );
}
