//! Issue 42 (7): the registry's export passes the project's own checkers. A 7-round,
//! 11-player Swiss run through `arbiterd` + `arbiter` — titled players, a birth year
//! alone, a half-point bye, a withdrawal from round 5 and a round-2 result corrected after
//! round 3 was paired — is exported; `arbiter trf check` finds nothing and
//! `arbiter-pairings --dutch -c` re-pairs every round as recorded, naming round 3 as paired
//! before a correction (ADR trf-005); and `-c` on a file with such a note names the round
//! it would otherwise count.
use std::path::Path;

use arbiter_tests::{Arbiter, binary, output_text};

const PLAYERS: [(&str, &str, u32, u64); 11] = [
    ("Alpha, Anna", "GM", 2500, 100_001),
    ("Bravo, Ben", "IM", 2420, 100_002),
    ("Charlie, Cid", "WGM", 2350, 100_003),
    ("Delta, Dora", "FM", 2300, 100_004),
    ("Echo, Emil", "WIM", 2250, 100_005),
    ("Foxtrot, Fay", "CM", 2200, 100_006),
    ("Golf, Gus", "WFM", 2150, 100_007),
    ("Hotel, Hana", "WCM", 2100, 100_008),
    ("India, Ivo", "", 2050, 100_009),
    ("Juliet, Jo", "", 2000, 100_010),
    ("Kilo, Kim", "", 1950, 100_011),
];

fn result_for(round: u32, board: u64) -> &'static str {
    match (u64::from(round) * 7 + board) % 3 {
        0 => "1-0",
        1 => "1/2",
        _ => "0-1",
    }
}

fn play(a: &Arbiter, id: &str, round: u32) {
    let r = round.to_string();
    let paired = a.json(&["round", "pair", id, &r]);
    a.ok(&["round", "publish", id, &r]);
    let boards = paired["boards"].as_array().unwrap().len() as u64;
    for board in 1..=boards {
        a.ok(&[
            "result",
            "set",
            id,
            &r,
            &board.to_string(),
            result_for(round, board),
        ]);
    }
    a.ok(&["round", "close", id, &r]);
}

fn export(a: &Arbiter, dir: &Path, id: &str, engine_lines: bool) -> (String, std::path::PathBuf) {
    let file = dir.join(if engine_lines {
        "final-engine.trf"
    } else {
        "final.trf"
    });
    let mut args = vec![
        "tournament",
        "export",
        id,
        "--output",
        file.to_str().unwrap(),
    ];
    if engine_lines {
        args.push("--engine-lines");
    }
    a.ok(&args);
    (std::fs::read_to_string(&file).unwrap(), file)
}

#[test]
fn a_finished_events_export_passes_trf_check_and_the_pairing_checker() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Checker Open",
        "--rounds",
        "7",
        "--federation",
        "IRL",
        "--start",
        "2026-03-06",
        "--end",
        "2026-03-08",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, title, rating, fide_id) in PLAYERS {
        let mut args = vec![
            "player".to_owned(),
            "add".into(),
            id.clone(),
            "--name".into(),
            name.into(),
            "--rating".into(),
            rating.to_string(),
            "--fide-id".into(),
            fide_id.to_string(),
            "--federation".into(),
            "IRL".into(),
            "--sex".into(),
            "m".into(),
            // A year alone, as the FIDE rating list gives it.
            "--birth".into(),
            "1975".into(),
        ];
        if !title.is_empty() {
            args.extend(["--title".into(), title.into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        a.ok(&args);
    }
    a.ok(&["player", "bye", &id, "9", "--round", "3"]);
    play(&a, &id, 1);
    play(&a, &id, 2);
    a.ok(&["round", "pair", &id, "3"]);
    a.ok(&["round", "publish", &id, "3"]);
    // Round 2 board 1 corrected after round 3 was paired on the old result.
    let round2 = a.json(&["result", "show", &id, "2"]);
    let old = round2["boards"][0]["result"].as_str().unwrap().to_owned();
    let new = if old == "1-0" { "0-1" } else { "1-0" };
    a.ok(&[
        "result",
        "correct",
        &id,
        "2",
        "1",
        new,
        "--was",
        &old,
        "--reason",
        "the scoresheets say otherwise",
    ]);
    let boards = a.json(&["result", "show", &id, "3"])["boards"]
        .as_array()
        .unwrap()
        .len() as u64;
    for board in 1..=boards {
        a.ok(&[
            "result",
            "set",
            &id,
            "3",
            &board.to_string(),
            result_for(3, board),
        ]);
    }
    a.ok(&["round", "close", &id, "3"]);
    play(&a, &id, 4);
    a.ok(&["player", "withdraw", &id, "5", "--from-round", "5"]);
    for round in 5..=6 {
        play(&a, &id, round);
    }
    // The last round: no time control, so the close says it is not submitted for rating
    // and which command fixes it.
    a.ok(&["round", "pair", &id, "7"]);
    a.ok(&["round", "publish", &id, "7"]);
    let boards = a.json(&["result", "show", &id, "7"])["boards"]
        .as_array()
        .unwrap()
        .len() as u64;
    for board in 1..=boards {
        a.ok(&[
            "result",
            "set",
            &id,
            "7",
            &board.to_string(),
            result_for(7, board),
        ]);
    }
    let closed = a.ok(&["round", "close", &id, "7"]);
    assert!(
        closed.contains("not submitted for rating by itself: the time control \"\"")
            && closed.contains(&format!("`arbiter tournament update {id} --time-control")),
        "{closed}"
    );

    for engine_lines in [false, true] {
        let (text, file) = export(&a, dir.path(), &id, engine_lines);
        // Titles as the TRF text spells them; a birth year alone as YYYY/00/00.
        let first = text.lines().find(|l| l.starts_with("001    1")).unwrap();
        assert_eq!(&first[10..13], " GM", "{first}");
        assert_eq!(&first[69..79], "1975/00/00", "{first}");
        // The withdrawn player: a zero-point bye in rounds 5-7, no 240 beyond round 7.
        let five = text.lines().find(|l| l.starts_with("001    5")).unwrap();
        for r in 5..=7usize {
            let at = 91 + 10 * (r - 1);
            assert_eq!(&five[at..at + 8], "0000 - Z", "round {r}: {five}");
        }
        assert!(
            !text.lines().any(|l| l.starts_with("240 Z   8")),
            "no bye in a round the event does not have: {text}"
        );
        assert!(
            !text.contains("XXZ"),
            "nobody is absent from a next round: {text}"
        );
        assert!(
            text.contains("### paired before a correction: round 3 (corrected: round 2)"),
            "{text}"
        );

        let check = a.ok(&["trf", "check", file.to_str().unwrap()]);
        assert!(
            check
                .trim_end()
                .ends_with("0 error(s), 0 warning(s), 0 info"),
            "the export has findings: {check}"
        );
        assert_eq!(check.lines().count(), 1, "{check}");

        let o = std::process::Command::new(binary("arbiter-pairings"))
            .args(["--dutch", file.to_str().unwrap(), "-c"])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "engine lines {engine_lines}: {}",
            output_text(&o)
        );
        for line in out.lines().filter(|l| l.contains("Round #")) {
            assert!(
                line.ends_with("Round #3 paired before a correction of round 2 (not counted)"),
                "only round 3 may differ, and named so: {}",
                output_text(&o)
            );
        }
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("rounds 7, different 0"),
            "{}",
            output_text(&o)
        );
    }
}

/// `-c` names a round paired before a correction (the export's `###` note) instead of
/// counting it: a complete 10-player file whose round-4 draw 2–4 became a win for 2 after
/// round 5 was paired re-pairs round 5 differently.
#[test]
fn the_pairing_checker_names_a_round_paired_before_a_correction() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/s456006487535817-p10-r7.trf"),
    )
    .unwrap();
    // Round 4's result column (99 + 10 × 3, 1-based) of players 2 and 4.
    let corrected: Vec<String> = original
        .lines()
        .map(|l| {
            let code = match l.get(..8) {
                Some("001    2") => '1',
                Some("001    4") => '0',
                _ => return l.to_owned(),
            };
            let mut chars: Vec<char> = l.chars().collect();
            chars[128] = code;
            chars.into_iter().collect()
        })
        .collect();
    let run = |name: &str, note: bool| {
        let mut text = corrected.join("\n");
        if note {
            text.push_str("\n### paired before a correction: round 5 (corrected: round 4)\n");
        }
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        std::process::Command::new(binary("arbiter-pairings"))
            .args(["--dutch", file.to_str().unwrap(), "-c"])
            .output()
            .unwrap()
    };
    let plain = run("plain.trf", false);
    assert_eq!(plain.status.code(), Some(1), "{}", output_text(&plain));
    assert!(
        String::from_utf8_lossy(&plain.stdout).contains("plain: Round #5\n"),
        "{}",
        output_text(&plain)
    );
    let noted = run("noted.trf", true);
    assert!(noted.status.success(), "{}", output_text(&noted));
    assert!(
        String::from_utf8_lossy(&noted.stdout)
            .contains("noted: Round #5 paired before a correction of round 4 (not counted)"),
        "{}",
        output_text(&noted)
    );
    assert!(
        String::from_utf8_lossy(&noted.stderr)
            .contains("rounds 7, different 0, paired before a correction 1"),
        "{}",
        output_text(&noted)
    );
}
