//! `arbiter pair --system dutch|lim|italo-swiss|draughts-swiss --trf FILE`: the next round
//! of a TRF file through the real binary (tests/data, see PROVENANCE.md).
//! Exit codes: 0 paired, 1 no valid pairing (or nothing left to pair), 2 usage,
//! 3 invalid TRF (FILE:LINE:COL).
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arbiter_tests::binary;
use serde_json::Value;

/// A bbpPairings v6 (Dutch 2026) tournament of 13 players and 8 rounds, cut after round 4.
const AFTER_ROUND_4: &str = "s495997465796620-p13-r8-after-round4.trf";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn arbiter(args: &[&str]) -> Output {
    Command::new(binary("arbiter"))
        .args(args)
        .env_remove("ARBITER_SERVER")
        .output()
        .expect("run arbiter")
}

fn pair(system: &str, file: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "pair",
        "--system",
        system,
        "--trf",
        file.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    arbiter(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn json(o: &Output) -> Value {
    assert_eq!(code(o), 0, "{}", stderr(o));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(o), stderr(o)))
}

fn boards(v: &Value) -> Vec<(u64, u64)> {
    v["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
        .collect()
}

/// Games played over the board in the file (both orders), from the round blocks; a forfeit
/// (`+`/`-`) is not a game and does not prevent a new pairing (C.04.2 Art. 3.5).
fn played_pairs(file: &Path) -> BTreeSet<(u64, u64)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut set = BTreeSet::new();
    for line in text.lines().filter(|l| l.starts_with("001")) {
        let me: u64 = line[4..8].trim().parse().unwrap();
        let mut col = 91;
        while line.len() >= col + 8 {
            let block = &line[col..col + 8];
            if let Ok(opp) = block[0..4].trim().parse::<u64>()
                && opp > 0
                && matches!(&block[5..6], "w" | "b")
                && !matches!(&block[7..8], "+" | "-")
            {
                set.insert((me, opp));
                set.insert((opp, me));
            }
            col += 10;
        }
    }
    set
}

#[test]
fn dutch_pairs_round_5_as_the_reference_engine_did() {
    // The full file's round 5 (bbpPairings v6, FIDE Dutch 2026): 6-5, 4-12, 2-7, 3-1, 8-9,
    // 13-11, PAB 10 — in C.04.2 Art. 3.6 board order.
    let v = json(&pair("dutch", &data(AFTER_ROUND_4), &["--json"]));
    assert_eq!(v["system"], "dutch");
    assert_eq!(v["round"], 5);
    assert_eq!(v["edition"], "dutch-2026");
    assert_eq!(
        boards(&v),
        vec![(6, 5), (4, 12), (2, 7), (3, 1), (8, 9), (13, 11)]
    );
    assert_eq!(v["bye"], 10);
}

#[test]
fn dutch_human_output_is_a_board_table_with_the_bye() {
    let o = pair("dutch", &data(AFTER_ROUND_4), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Round 5 (FIDE (Dutch) system, C.04.3; edition dutch-2026)\n"));
    assert!(
        out.contains("Board  White  Black\n1      6      5\n"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("bye: 10"), "{out}");
}

#[test]
fn every_system_pairs_every_present_player_once_without_rematch() {
    let file = data(AFTER_ROUND_4);
    let met = played_pairs(&file);
    for system in ["dutch", "lim", "italo-swiss", "draughts-swiss"] {
        let v = json(&pair(system, &file, &["--json"]));
        assert_eq!(v["system"], system);
        assert_eq!(v["round"], 5, "{system}");
        let b = boards(&v);
        assert_eq!(b.len(), 6, "{system}: 13 players → 6 boards and a bye");
        let mut seen = BTreeSet::new();
        for &(w, bl) in &b {
            assert!(seen.insert(w) && seen.insert(bl), "{system}: {b:?}");
            assert!(!met.contains(&(w, bl)), "{system}: rematch {w}-{bl}");
        }
        let bye = v["bye"].as_u64().expect("a bye");
        assert!(seen.insert(bye), "{system}: bye {bye} also paired");
        assert_eq!(seen, (1..=13).collect::<BTreeSet<u64>>(), "{system}");
        // Nobody who already had a PAB (9, 11, 12, 13 in rounds 1–4) gets it again.
        assert!(![9, 11, 12, 13].contains(&bye), "{system}: bye {bye}");
    }
}

#[test]
fn dutch_baku_acceleration_equals_explicit_xxa_records() {
    let computed = json(&pair(
        "dutch",
        &data("p12-r9-before-round4.trf"),
        &["--acceleration", "baku", "--json"],
    ));
    let explicit = json(&pair(
        "dutch",
        &data("p12-r9-before-round4-xxa.trf"),
        &["--json"],
    ));
    assert_eq!(boards(&computed), boards(&explicit));
    assert_eq!(computed["acceleration"], "baku");
    // And differs from the unaccelerated pairing.
    let plain = json(&pair(
        "dutch",
        &data("p12-r9-before-round4.trf"),
        &["--json"],
    ));
    assert_ne!(boards(&computed), boards(&plain));
    // Both the flag and XXA records: refused as invalid input.
    let o = pair(
        "dutch",
        &data("p12-r9-before-round4-xxa.trf"),
        &["--acceleration", "baku"],
    );
    assert_eq!(code(&o), 3);
    assert!(stderr(&o).contains("both given"), "{}", stderr(&o));
}

#[test]
fn dutch_2017_edition_is_selectable() {
    let v = json(&pair(
        "dutch",
        &data(AFTER_ROUND_4),
        &["--edition", "dutch-2017", "--json"],
    ));
    assert_eq!(v["edition"], "dutch-2017");
    assert_eq!(boards(&v).len(), 6);
}

#[test]
fn no_valid_pairing_exits_1() {
    // Two players who have already met: no round 2 under any system.
    for system in ["dutch", "lim", "italo-swiss", "draughts-swiss"] {
        let o = pair(system, &data("p2-r3-only-a-rematch-left.trf"), &[]);
        assert_eq!(code(&o), 1, "{system}: {}", stderr(&o));
        assert!(stderr(&o).contains("round 2"), "{system}: {}", stderr(&o));
    }
}

#[test]
fn invalid_trf_exits_3_with_file_line_column() {
    let dir = tempfile::tempdir().unwrap();
    // Player 3 names an opponent that does not exist (line 5, column 92).
    let text = std::fs::read_to_string(data(AFTER_ROUND_4))
        .unwrap()
        .replace(
            "001    3      Test0003 Player0003               2445                             2.0    1     9 w =",
            "001    3      Test0003 Player0003               2445                             2.0    1    99 w =",
        );
    let bad = dir.path().join("bad.trf");
    std::fs::write(&bad, text).unwrap();
    for system in ["dutch", "lim", "italo-swiss", "draughts-swiss"] {
        let o = pair(system, &bad, &[]);
        assert_eq!(code(&o), 3, "{system}");
        assert!(
            stderr(&o).contains(&format!("{}:5:92: error", bad.display())),
            "{system}: {}",
            stderr(&o)
        );
    }
    let not_trf = dir.path().join("not.trf");
    std::fs::write(&not_trf, "hello\n").unwrap();
    assert_eq!(code(&pair("lim", &not_trf, &[])), 3);
}

#[test]
fn usage_errors_exit_2() {
    // A Swiss system without --trf.
    let o = arbiter(&["pair", "--system", "lim", "--players", "10"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--trf FILE"));
    // Dutch options on another system.
    let o = pair("lim", &data(AFTER_ROUND_4), &["--edition", "dutch-2017"]);
    assert_eq!(code(&o), 2);
    let o = pair(
        "italo-swiss",
        &data(AFTER_ROUND_4),
        &["--acceleration", "baku"],
    );
    assert_eq!(code(&o), 2);
    // An unknown acceleration.
    let o = pair("dutch", &data(AFTER_ROUND_4), &["--acceleration", "warp"]);
    assert_eq!(code(&o), 2);
    // A round robin still needs --players and takes no --trf.
    assert_eq!(code(&arbiter(&["pair", "--system", "round-robin"])), 2);
    let o = arbiter(&[
        "pair",
        "--system",
        "round-robin",
        "--players",
        "4",
        "--trf",
        data(AFTER_ROUND_4).to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn lim_italo_and_draughts_refuse_a_scoring_other_than_1_half_0() {
    // Record 162: 3/1/0 (the Dutch system accepts it; the others count in half-points).
    let file = data("s456006487535817-p10-r7.trf");
    for system in ["lim", "italo-swiss", "draughts-swiss"] {
        let o = pair(system, &file, &[]);
        assert_eq!(code(&o), 3, "{system}");
        assert!(
            stderr(&o).contains("scores 1/½/0"),
            "{system}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn nothing_left_to_pair_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data(AFTER_ROUND_4))
        .unwrap()
        .replace("XXR 8", "XXR 4");
    let done = dir.path().join("done.trf");
    std::fs::write(&done, text).unwrap();
    let o = pair("dutch", &done, &[]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("all 4 declared rounds are already paired"));
}
