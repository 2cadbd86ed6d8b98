//! Players, entries and TRF through the real binaries (`arbiterd` + `arbiter`):
//! a tournament imported after round 5 and continued here exports its first five rounds
//! unchanged; the initial ranking (C.04.2 art. 2), a late entry (pairing numbers
//! re-derived), a withdrawal and a requested half-point bye are each checked in the
//! exported TRF.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use arbiter_tests::{Arbiter, Proc, output_text, start_arbiterd};

fn start(data: &Path, port: u16) -> Proc {
    start_arbiterd(data, port, |_| {})
}

fn text(o: &Output) -> String {
    output_text(o)
}

/// A `001` line in the TRF column layout.
fn player_line(tpn: u16, name: &str, rating: u16, blocks: &[(u16, char, char)]) -> String {
    let mut s = format!(
        "001 {tpn:>4}  {:<3} {name:<33} {rating:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
        "", "IRL", "", "", "0.0", tpn
    );
    for (opp, colour, result) in blocks {
        s.push_str(&format!("  {opp:>4} {colour} {result}"));
    }
    s
}

/// The `001` records of a TRF text: pairing number → (name, round blocks as text).
fn players(trf: &str) -> BTreeMap<u16, (String, Vec<String>)> {
    trf.lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let cut = |a: usize, b: usize| -> String {
                chars
                    .get(a - 1..b.min(chars.len()))
                    .map(|c| c.iter().collect())
                    .unwrap_or_default()
            };
            let tpn: u16 = cut(5, 8).trim().parse().expect("pairing number");
            let name = cut(15, 47).trim().to_owned();
            let mut blocks = Vec::new();
            let mut col = 92;
            while col <= chars.len() {
                blocks.push(cut(col, col + 7));
                col += 10;
            }
            (tpn, (name, blocks))
        })
        .collect()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trf/tests/data/pairing")
        .join(name)
}

#[test]
fn imported_after_round_5_and_continued_here_exports_the_first_five_rounds_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let mut d = start(&a.data, a.port);
    let full = fixture("s14891904432047-p13-r7.trf");
    let original = std::fs::read_to_string(&full).unwrap();

    // The TRF "after round 5": the 7-round file imported, exported as of round 5.
    let imported = a.json(&["tournament", "import", full.to_str().unwrap()]);
    assert_eq!(imported["players"], 13);
    assert_eq!(imported["paired_rounds"], 7);
    let id = imported["tournament_id"].as_str().unwrap().to_owned();
    let after5 = dir.path().join("after-round-5.trf");
    a.ok(&[
        "tournament",
        "export",
        &id,
        "--round",
        "5",
        "--output",
        after5.to_str().unwrap(),
    ]);

    // Imported elsewhere after round 5, continued here.
    let t = a.json(&["tournament", "import", after5.to_str().unwrap()]);
    assert_eq!(t["paired_rounds"], 5);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    a.ok(&["tournament", "update", &id, "--rounds", "7"]);
    let late = a.json(&[
        "player",
        "add",
        &id,
        "--name",
        "Late, Comer",
        "--rating",
        "2700",
    ]);
    assert_eq!(
        late["pairing_number"], 14,
        "after round 4 a late entry takes the next number"
    );
    assert_eq!(late["joined_round"], 6);
    a.ok(&["player", "bye", &id, "3", "--round", "6", "--kind", "half"]);
    a.ok(&["player", "withdraw", &id, "13", "--from-round", "7"]);
    // Full-point byes only where the event allows them.
    let full = ["player", "bye", &id, "1", "--round", "7", "--kind", "full"];
    let refused = a.run(&full);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused).contains("kind: this tournament does not allow full-point byes"),
        "{}",
        text(&refused)
    );
    a.ok(&["tournament", "rules", &id, "--full-point-byes", "true"]);
    a.ok(&full);
    // A correction after round 4 is recorded but does not renumber.
    a.ok(&[
        "player",
        "correct",
        &id,
        "13",
        "--rating",
        "2800",
        "--reason",
        "rating list",
    ]);

    let exported = a.ok(&["tournament", "export", &id]);
    let want = players(&original);
    let got = players(&exported);
    for (tpn, (name, blocks)) in &want {
        assert_eq!(&got[tpn].0, name, "pairing number {tpn} keeps its player");
        assert_eq!(
            got[tpn].1[..5],
            blocks[..5],
            "rounds 1-5 of pairing number {tpn}"
        );
    }
    assert_eq!(got[&14].0, "Late, Comer");
    assert_eq!(
        got[&14].1,
        vec!["0000 - Z"; 5],
        "missed rounds: zero-point byes"
    );
    assert!(exported.contains("240 H   6    3"), "{exported}");
    assert!(exported.contains("240 Z   7   13"), "{exported}");
    assert!(exported.contains("240 F   7    1"), "{exported}");

    // TRF16 carries the byes in the round columns; engine lines name the absentees.
    let t16 = a.ok(&[
        "tournament",
        "export",
        &id,
        "--to",
        "trf16",
        "--engine-lines",
    ]);
    let p16 = players(&t16);
    assert_eq!(p16[&3].1[5], "0000 - H", "{t16}");
    assert_eq!(p16[&13].1[6], "0000 - Z", "{t16}");
    assert!(
        t16.lines().any(|l| l.starts_with("XXR") && l.contains('7')),
        "{t16}"
    );
    assert!(!t16.contains("240 "), "TRF16 has no 240 records: {t16}");

    // Everything is in the event log: after kill -9 the projection is rebuilt the same.
    d.kill9();
    let _d = start(&a.data, a.port);
    assert_eq!(a.ok(&["tournament", "export", &id]), exported);
}

#[test]
fn initial_ranking_late_entry_withdrawal_and_half_point_bye_in_the_exported_trf() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start(&a.data, a.port);

    // Initial ranking, C.04.2 art. 2: rating, then title GM IM …, then name.
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Spring Open",
        "--rounds",
        "5",
    ]);
    let open = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating, title) in [
        ("Bbb, Equal", "2400", ""),
        ("Zed, Unrated", "0", ""),
        ("Im, Equal", "2400", "IM"),
        ("Top, Rated", "2500", ""),
        ("Aaa, Equal", "2400", ""),
        ("Gm, Equal", "2400", "GM"),
    ] {
        a.ok(&[
            "player", "add", &open, "--name", name, "--rating", rating, "--title", title,
        ]);
    }
    let exported = a.ok(&["tournament", "export", &open]);
    let names: Vec<String> = players(&exported).into_values().map(|p| p.0).collect();
    assert_eq!(
        names,
        [
            "Top, Rated",
            "Gm, Equal",
            "Im, Equal",
            "Aaa, Equal",
            "Bbb, Equal",
            "Zed, Unrated"
        ],
        "{exported}"
    );
    let gm = exported.lines().find(|l| l.contains("Gm, Equal")).unwrap();
    assert_eq!(
        gm.get(10..13).map(str::trim),
        Some("GM"),
        "the title as TRF16/TRF26 spell it (ADR trf-005): {gm}"
    );
    let bad = a.run(&["player", "add", &open, "--name", "X", "--title", "GMX"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad).contains("--title"), "{}", text(&bad));

    // A tournament paired elsewhere up to round 2.
    let trf = [
        "012 Club Championship".to_owned(),
        "062 6".to_owned(),
        player_line(1, "Able, Ann", 2400, &[(4, 'w', '1'), (2, 'b', '=')]),
        player_line(2, "Baker, Bob", 2300, &[(5, 'b', '1'), (1, 'w', '=')]),
        player_line(3, "Cole, Cy", 2200, &[(6, 'w', '='), (4, 'b', '1')]),
        player_line(4, "Dunn, Di", 2100, &[(1, 'b', '0'), (3, 'w', '0')]),
        player_line(5, "Egan, Ed", 2000, &[(2, 'w', '0'), (6, 'b', '0')]),
        player_line(6, "Fox, Flo", 1900, &[(3, 'b', '='), (5, 'w', '1')]),
        "XXR 5".to_owned(),
    ]
    .join("\n");
    let file = dir.path().join("club.trf");
    std::fs::write(&file, trf + "\n").unwrap();
    let t = a.json(&["tournament", "import", file.to_str().unwrap()]);
    let club = t["tournament_id"].as_str().unwrap().to_owned();
    assert_eq!(t["paired_rounds"], 2);

    // Late entry: joins in round 3, placed by rating, pairing numbers re-derived.
    let late = a.json(&[
        "player",
        "add",
        &club,
        "--name",
        "Late, Lou",
        "--rating",
        "2250",
        "--command-id",
        "late-entry-lou",
    ]);
    assert_eq!(
        (late["pairing_number"].clone(), late["joined_round"].clone()),
        (3.into(), 3.into())
    );
    // A retried command (same id) answers with the same player and writes nothing.
    let again = a.json(&[
        "player",
        "add",
        &club,
        "--name",
        "Late, Lou",
        "--rating",
        "2250",
        "--command-id",
        "late-entry-lou",
    ]);
    assert_eq!(again["player_id"], late["player_id"]);
    assert_eq!(
        a.json(&["player", "list", &club]).as_array().unwrap().len(),
        7
    );
    // Withdrawal (Dunn, now number 5) and a half-point bye (Baker, number 2).
    a.ok(&["player", "withdraw", &club, "5", "--from-round", "3"]);
    a.ok(&["player", "bye", &club, "2", "--round", "3"]);
    let refused = a.run(&["player", "bye", &club, "2", "--round", "2"]);
    assert!(
        text(&refused).contains("round: round 2 has already been paired"),
        "{}",
        text(&refused)
    );

    // Same club: Able (1) and Fox (7) may not meet from round 3 on.
    a.ok(&["player", "prohibit", &club, "1", "7", "--from-round", "3"]);
    let exported = a.ok(&["tournament", "export", &club]);
    assert!(
        exported
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["260", "3", "5", "1", "7"]),
        "{exported}"
    );
    let p = players(&exported);
    let by_name = |n: &str| p.values().find(|(name, _)| name == n).unwrap().1.clone();
    let order: Vec<&str> = p.values().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        order,
        [
            "Able, Ann",
            "Baker, Bob",
            "Late, Lou",
            "Cole, Cy",
            "Dunn, Di",
            "Egan, Ed",
            "Fox, Flo"
        ]
    );
    assert_eq!(by_name("Late, Lou"), ["0000 - Z", "0000 - Z"]);
    assert!(
        exported.lines().any(|l| l == "062 7"),
        "062 counts the late entry: {exported}"
    );
    // History follows the players to their new numbers: Cole met Fox (now 7) and Dunn (now 5).
    assert_eq!(by_name("Cole, Cy"), ["   7 w =", "   5 b 1"]);
    assert_eq!(by_name("Able, Ann"), ["   5 w 1", "   2 b ="]);
    assert!(exported.contains("240 H   3    2"), "{exported}");
    for round in 3..=5 {
        assert!(
            exported.contains(&format!("240 Z   {round}    5")),
            "withdrawn from round 3: zero-point byes in round {round}: {exported}"
        );
    }
    let engine = a.ok(&[
        "tournament",
        "export",
        &club,
        "--engine-lines",
        "--to",
        "trf16",
    ]);
    let p16 = players(&engine);
    assert_eq!(
        p16[&2].1.get(2).map(String::as_str),
        Some("0000 - H"),
        "{engine}"
    );
    assert!(
        engine
            .lines()
            .any(|l| l.starts_with("XXZ") && l[3..].trim() == "5"),
        "{engine}"
    );
    assert!(
        engine
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["XXP", "1", "7"]),
        "{engine}"
    );
    let listed = a.json(&["player", "list", &club]);
    assert_eq!(listed[4]["withdrawn_from_round"], 3);
    assert_eq!(listed[1]["byes"][0]["kind"], "half");

    // An unusable file: refused with line:column, nothing imported.
    let broken = dir.path().join("broken.trf");
    std::fs::write(
        &broken,
        format!(
            "{}\n{}\n",
            player_line(1, "Able, Ann", 2400, &[(9, 'w', '1')]),
            player_line(2, "Baker, Bob", 2300, &[(1, 'b', '0')])
        ),
    )
    .unwrap();
    let before = a.json(&["tournament", "list"]).as_array().unwrap().len();
    let r = a.run(&["tournament", "import", broken.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r).contains("1:92: error"), "{}", text(&r));
    assert_eq!(
        a.json(&["tournament", "list"]).as_array().unwrap().len(),
        before
    );
}
