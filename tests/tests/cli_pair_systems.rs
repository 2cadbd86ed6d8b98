//! `arbiter pair --system dutch|lim|italo-swiss|draughts-swiss|knockout --trf FILE`: the next round
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

/// A knockout as TRF: `n` players seeded by pairing number, `rounds[r]` the games of TRF
/// round r+1 as (white, black, white's result `1 = 0 + -`); players without a game that
/// round get `0000 - Z`.
fn knockout_trf(n: u32, rounds: &[&[(u32, u32, char)]]) -> String {
    let mut blocks: Vec<String> = vec![String::new(); n as usize + 1];
    let mut halves = vec![0u32; n as usize + 1];
    for games in rounds {
        let mut on = std::collections::BTreeMap::new();
        for &(w, b, r) in *games {
            let mirror = match r {
                '1' => '0',
                '0' => '1',
                '+' => '-',
                '-' => '+',
                other => other,
            };
            on.insert(w, (b, 'w', r));
            on.insert(b, (w, 'b', mirror));
        }
        for t in 1..=n {
            match on.get(&t) {
                Some(&(o, c, r)) => {
                    halves[t as usize] += match r {
                        '1' | '+' => 2,
                        '=' => 1,
                        _ => 0,
                    };
                    blocks[t as usize].push_str(&format!("  {o:>4} {c} {r}"));
                }
                None => blocks[t as usize].push_str("  0000 - Z"),
            }
        }
    }
    let mut out = String::from("012 Test Cup\n");
    for t in 1..=n {
        let name = format!("Player, {t}");
        let points = format!(
            "{}.{}",
            halves[t as usize] / 2,
            5 * (halves[t as usize] % 2)
        );
        out.push_str(&format!(
            "001 {t:>4} m    {name:<33} {:>4} IRL {:>11} {:10} {points:>4} {t:>4}{}\n",
            2700 - 10 * t,
            "",
            "",
            blocks[t as usize]
        ));
    }
    out
}

/// Issue 8 item 7: `arbiter pair --system knockout --trf` pairs a cup from its history —
/// 1–4 and 2–3 with the better seed White; after two games 1½–½ and 1–1 only the tied match
/// goes on, with its rapid tie-break; then the final between the winners; then the champion.
#[test]
fn knockout_from_a_trf_goes_to_tie_breaks_then_the_final_then_names_the_champion() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let start = file("start.trf", knockout_trf(4, &[]));
    let v = json(&pair("knockout", &start, &["--json"]));
    assert_eq!(boards(&v), [(1, 4), (2, 3)]);
    assert_eq!(
        (v["round"].as_u64(), v["bracket_round"].as_u64()),
        (Some(1), Some(1))
    );

    let r1: &[(u32, u32, char)] = &[(1, 4, '1'), (2, 3, '1')];
    let r2: &[(u32, u32, char)] = &[(4, 1, '='), (3, 2, '1')];
    let tied = file("tied.trf", knockout_trf(4, &[r1, r2]));
    let v = json(&pair("knockout", &tied, &["--json"]));
    assert_eq!(boards(&v), [(2, 3)], "only the tied match plays");
    assert_eq!(v["games"][0]["stage"], "rapid");
    assert_eq!(v["games"][0]["match"], "R1.2");
    assert_eq!(v["exempt"], serde_json::json!([1]));
    assert!(v["bye"].is_null(), "a waiting player is not given a bye");
    let human = pair("knockout", &tied, &[]);
    assert_eq!(code(&human), 0, "{}", stderr(&human));
    assert!(
        stdout(&human).contains("exempt (no game this round): 1"),
        "{}",
        stdout(&human)
    );

    // With three regular games, the 1–1 match is not tied yet: game 3 for both matches.
    let v = json(&pair("knockout", &tied, &["--json", "--games", "3"]));
    assert_eq!(boards(&v), [(1, 4), (2, 3)]);
    assert_eq!(v["games"][1]["stage"], "standard");

    let r3: &[(u32, u32, char)] = &[(2, 3, '=')];
    let r4: &[(u32, u32, char)] = &[(3, 2, '1')];
    let semis = file("semis.trf", knockout_trf(4, &[r1, r2, r3, r4]));
    let v = json(&pair("knockout", &semis, &["--json"]));
    assert_eq!(
        boards(&v),
        [(1, 3)],
        "final: the winners, the better seed White"
    );
    assert_eq!(v["games"][0]["match"], "R2.1");

    let r5: &[(u32, u32, char)] = &[(1, 3, '0')];
    let r6: &[(u32, u32, char)] = &[(3, 1, '1')];
    let over = file("over.trf", knockout_trf(4, &[r1, r2, r3, r4, r5, r6]));
    let o = pair("knockout", &over, &[]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pairing number 3 won the final (decided in round 6)"),
        "{}",
        stderr(&o)
    );
}

/// Seed 000, "Systèmes K.O.": 47 players — 17 exempt from the first round, 15 matches.
#[test]
fn knockout_of_47_from_a_trf_starts_with_the_seeds_preliminary_round() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("47.trf");
    std::fs::write(&f, knockout_trf(47, &[])).unwrap();
    let v = json(&pair("knockout", &f, &["--json"]));
    let got = boards(&v);
    assert_eq!(got.len(), 15);
    assert_eq!(got[0], (18, 47));
    assert_eq!(got[14], (32, 33));
    assert_eq!(v["preliminary"], true);
    assert_eq!(
        v["exempt"],
        serde_json::json!((1..=17).collect::<Vec<u32>>())
    );
}

#[test]
fn knockout_history_against_the_bracket_exits_3_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("wrong.trf");
    // Round 1 pairs 1–2 and 3–4: the bracket says 1–4 and 2–3.
    let r1: &[(u32, u32, char)] = &[(1, 2, '1'), (3, 4, '1')];
    std::fs::write(&f, knockout_trf(4, &[r1])).unwrap();
    let o = pair("knockout", &f, &[]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 2, column 92: round 1")
            && stderr(&o).contains("its match is against 4"),
        "{}",
        stderr(&o)
    );
    let o = pair("knockout", &f, &["--tie-breaks", "rapid"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = arbiter(&["pair", "--system", "lim", "--trf", "x.trf", "--games", "2"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}
