//! Issue 42 (4): bulk entry through `arbiterd` + `arbiter`, all or nothing with a preview.
//! `player import` of a CSV (a bad row names FILE:LINE:COLUMN and writes nothing; a server
//! refusal is mapped back to the file's line; `--dry-run` shows the pairing numbers and
//! writes nothing; then one command enters everybody), of a TRF's player lines, and
//! `tournament import --players-only` (ADR registry-005).
use std::path::Path;

use arbiter_tests::{Arbiter, output_text};

fn version(a: &Arbiter, id: &str) -> u64 {
    a.json(&["tournament", "show", id])["version"]
        .as_u64()
        .unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_owned()
}

#[test]
fn players_from_a_csv_or_a_trf_all_or_nothing_with_a_preview() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Bulk Open",
        "--rounds",
        "5",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let v0 = version(&a, &id);

    // A typo in row 3's rating: the file's line and column, nothing written.
    let bad = write(
        dir.path(),
        "bad.csv",
        "Name,Title,Rating,Federation,FIDE ID,Birth date,Sex\n\
\"Short, Nigel\",GM,2658,ENG,400025,1965,m\n\
\"Baburin, Alex\",GM,24l0,IRL,2500035,1967,m\n",
    );
    let o = a.run(&["player", "import", &id, &bad]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    let msg = output_text(&o);
    assert!(msg.contains("bad.csv:3:3: rating: \"24l0\""), "{msg}");
    assert!(msg.contains("nothing written"), "{msg}");
    assert_eq!(version(&a, &id), v0);

    // What only the server knows (a FIDE ID twice): mapped back to the file's line.
    let twice = write(
        dir.path(),
        "twice.csv",
        "name,rating,fide id\n\"A, A\",2000,1001\n\"B, B\",1900,1002\n\"C, C\",1800,1001\n",
    );
    let msg = a.refused(&["player", "import", &id, &twice]);
    assert!(
        msg.contains("twice.csv:4:3: data.fide_id: 1001 is already entered as \"A, A\""),
        "{msg}"
    );
    assert!(
        msg.contains("player 3 of the file; nothing written"),
        "{msg}"
    );
    assert_eq!(version(&a, &id), v0, "nothing of the batch was written");

    let good = write(
        dir.path(),
        "players.csv",
        "Name,Title,Rating,Federation,FIDE ID,Birth date,Sex\n\
\"Baburin, Alex\",GM,2410,IRL,2500035,1967,m\n\
\"Short, Nigel\",GM,2658,ENG,400025,1965,m\n\
\"Quinn, Rory\",,1850,IRL,,1990/04/02,m\n",
    );
    // The preview: pairing numbers as they would be, warnings, nothing written.
    let o = a.run(&["player", "import", &id, &good, "--dry-run"]);
    assert!(o.status.success(), "{}", output_text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(out.contains("dry run: 3 player(s) would be added"), "{out}");
    let short = out.lines().find(|l| l.contains("Short, Nigel")).unwrap();
    assert!(
        short.split_whitespace().take(2).collect::<Vec<_>>() == ["3", "1"],
        "line 3, pairing number 1: {out}"
    );
    assert!(
        err.contains("warning: Quinn, Rory has no FIDE ID: their games will not be rated"),
        "{err}"
    );
    assert_eq!(version(&a, &id), v0);
    assert!(
        a.json(&["player", "list", &id])
            .as_array()
            .unwrap()
            .is_empty()
    );

    // The import: every player in one command (one version step).
    let out = a.ok(&["player", "import", &id, &good, "--command-id", "bulk-1"]);
    assert!(out.contains("added 3 player(s)"), "{out}");
    let v1 = version(&a, &id);
    assert_eq!(
        v1,
        v0 + 4,
        "one entry per player and one numbering for the whole file"
    );
    let listed = a.json(&["player", "list", &id]);
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Short, Nigel", "Baburin, Alex", "Quinn, Rory"]);
    // A retry with the same command id writes nothing again.
    let again = a.ok(&["player", "import", &id, &good, "--command-id", "bulk-1"]);
    assert!(again.contains("replayed"), "{again}");
    assert_eq!(version(&a, &id), v1);

    // The player lines of a TRF (its rounds are not read).
    let trf = write(
        dir.path(),
        "more.trf",
        "012 Elsewhere\n\
001    1 m IM Kilo, Kim                         2300 IRL     2500100 1980/00/00  1.0    1     2 w 1\n\
001    2 w    Lima, Lee                         2100 IRL     2500101             0.0    2     1 b 0\n",
    );
    let out = a.ok(&["player", "import", &id, &trf]);
    assert!(out.contains("added 2 player(s)"), "{out}");
    assert_eq!(
        a.json(&["player", "list", &id]).as_array().unwrap().len(),
        5
    );

    // A TRF as a new tournament, players only: no rounds come with it.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/icu-gonzaga-classic-2008.trf");
    let full = a.json(&["tournament", "import", fixture.to_str().unwrap()]);
    assert!(full["paired_rounds"].as_u64().unwrap() > 0, "{full}");
    let only = a.json(&[
        "tournament",
        "import",
        fixture.to_str().unwrap(),
        "--players-only",
        "--as-new",
    ]);
    assert_eq!(only["paired_rounds"], 0, "{only}");
    assert_eq!(only["players"], full["players"], "{only}");
    let exported = a.ok(&[
        "tournament",
        "export",
        only["tournament_id"].as_str().unwrap(),
    ]);
    let first = exported.lines().find(|l| l.starts_with("001")).unwrap();
    assert!(first.trim_end().len() <= 89, "no round blocks: {first}");
}

/// `result set ID ROUND --file`: a round's result sheet, all or nothing with a preview.
#[test]
fn a_result_sheet_is_recorded_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Sheet Open",
        "--rounds",
        "3",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let players = write(
        dir.path(),
        "p.csv",
        "name,rating,fide id\n\"A, A\",2200,11\n\"B, B\",2100,12\n\"C, C\",2000,13\n\"D, D\",1900,14\n\"E, E\",1800,15\n\"F, F\",1700,16\n",
    );
    a.ok(&["player", "import", &id, &players]);
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    let recorded = |a: &Arbiter| {
        a.json(&["result", "show", &id, "1"])["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["result"].as_str().unwrap_or("").is_empty())
            .count()
    };

    // A syntax fault: its line and column, nothing sent.
    let bad = write(dir.path(), "bad.txt", "1 1-0\n2 1-0 0-1\n3 +-\n");
    let msg = a.refused(&["result", "set", &id, "1", "--file", &bad]);
    assert!(
        msg.contains("bad.txt:2:7: \"0-1\": one board and one result a line"),
        "{msg}"
    );
    // A board the round does not have: only the server knows; its line, nothing recorded.
    let no_board = write(dir.path(), "nine.txt", "1 1-0\n9 0-1\n3 +-\n");
    let msg = a.refused(&["result", "set", &id, "1", "--file", &no_board]);
    assert!(msg.contains("nine.txt:2:1: board:"), "{msg}");
    assert!(msg.contains("nothing recorded"), "{msg}");
    assert_eq!(recorded(&a), 0, "nothing of the sheet was recorded");

    let sheet = write(dir.path(), "r1.txt", "# round 1\n1 1-0\n2 ½-½\n3 +-\n");
    let out = a.ok(&["result", "set", &id, "1", "--file", &sheet, "--dry-run"]);
    assert!(
        out.contains("dry run: 3 result(s) of round 1 would be recorded"),
        "{out}"
    );
    assert_eq!(recorded(&a), 0);
    let out = a.ok(&[
        "result",
        "set",
        &id,
        "1",
        "--file",
        &sheet,
        "--command-id",
        "sheet-1",
    ]);
    assert!(out.contains("recorded 3 result(s) of round 1"), "{out}");
    let shown = a.json(&["result", "show", &id, "1"]);
    let results: Vec<&str> = shown["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["1-0", "1/2-1/2", "+-"], "{shown}");
    let again = a.ok(&[
        "result",
        "set",
        &id,
        "1",
        "--file",
        &sheet,
        "--command-id",
        "sheet-1",
    ]);
    assert!(again.contains("(replayed)"), "{again}");
    // Recording over a result: refused at its line, nothing recorded.
    let over = write(dir.path(), "over.txt", "3 -+\n");
    let msg = a.refused(&["result", "set", &id, "1", "--file", &over]);
    assert!(
        msg.contains("over.txt:1:1: board: board 1.3 already has the result"),
        "{msg}"
    );
    a.ok(&["round", "close", &id, "1"]);
}
