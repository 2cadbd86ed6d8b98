//! Issue 42 (4, 8): a weekend open entered from the sample players' CSV (docs/samples) and
//! played from result sheets; its export submitted for rating lists every game not rated
//! with its reason and names the player without a FIDE ID; the period is rehearsed before
//! its closing date from the sample starting list (a period of 2100, so that its date never
//! passes) (ADRs registry-005, rating-001).
use std::path::{Path, PathBuf};

use arbiter_tests::{Arbiter, output_text};

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/samples")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn sheet(dir: &Path, a: &Arbiter, id: &str, round: u32, forfeit_on: Option<u64>) -> PathBuf {
    let paired = a.json(&["result", "show", id, &round.to_string()]);
    let mut text = format!("# round {round}\n");
    for b in paired["boards"].as_array().unwrap() {
        let board = b["board"].as_u64().unwrap();
        let result = if Some(board) == forfeit_on {
            "+-"
        } else if board % 3 == 0 {
            "½-½"
        } else {
            "1-0"
        };
        text.push_str(&format!("{board} {result}\n"));
    }
    let p = dir.join(format!("round-{round}.txt"));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_weekend_open_from_the_samples_to_a_rehearsed_period_with_every_skipped_game_named() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    let out = a.ok(&[
        "rating",
        "list-import",
        &sample("players_list_foa.txt"),
        "--month",
        "2099-12",
    ]);
    assert!(out.contains("40"), "the sample list's 40 players: {out}");

    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Winter Weekend Open",
        "--rounds",
        "2",
        "--federation",
        "IRL",
        "--start",
        "2099-12-19",
        "--end",
        "2099-12-20",
        "--time-control",
        "40/5400:1800+30",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let o = a.run(&["player", "import", &id, &sample("weekend-open-players.csv")]);
    assert!(o.status.success(), "{}", output_text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("warning: Newcomer, Nora has no FIDE ID: their games will not be rated"),
        "warned at entry: {}",
        output_text(&o)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("added 41 player(s)"));

    for round in 1..=2u32 {
        let r = round.to_string();
        a.ok(&["round", "pair", &id, &r]);
        a.ok(&["round", "publish", &id, &r]);
        let file = sheet(dir.path(), &a, &id, round, (round == 2).then_some(1));
        let out = a.ok(&["result", "set", &id, &r, "--file", file.to_str().unwrap()]);
        assert!(out.contains("result(s) of round"), "{out}");
        let closed = a.ok(&["round", "close", &id, &r]);
        // The close of the last round says where the tournament goes for rating.
        assert_eq!(
            closed.contains("submitted for rating, period 2100-01 (standard list)"),
            round == 2,
            "{closed}"
        );
    }
    let trf = dir.path().join("winter.trf");
    a.ok(&[
        "tournament",
        "export",
        &id,
        "--output",
        trf.to_str().unwrap(),
    ]);
    let check = a.ok(&["trf", "check", trf.to_str().unwrap()]);
    assert!(
        check.contains("0 error(s), 0 warning(s), 0 info"),
        "{check}"
    );

    let out = a.ok(&[
        "rating",
        "submit",
        trf.to_str().unwrap(),
        "--kind",
        "standard",
    ]);
    assert!(
        out.contains(
            "note: 1 player(s) without a FIDE ID, whose games are not rated: Newcomer, Nora"
        ),
        "{out}"
    );
    assert!(out.contains("not rated:"), "{out}");
    let skipped: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("not rated:"))
        .skip(2)
        .collect();
    // Newcomer played both rounds (or had the bye once); the forfeit of round 2 board 1.
    assert!(
        skipped
            .iter()
            .any(|l| l.contains("no FIDE ID: Newcomer, Nora")),
        "{out}"
    );
    assert!(
        skipped
            .iter()
            .any(|l| l.starts_with("2 ") && l.contains("+-") && l.contains("forfeit: not rated")),
        "{out}"
    );
    let count: usize = out
        .lines()
        .find_map(|l| l.split(" rated game(s), ").nth(1))
        .and_then(|x| x.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(skipped.len(), count, "every skipped game is listed: {out}");

    // The period is rehearsed before its closing date; a real run is refused, naming it.
    let refused = a.refused(&["rating", "run", "2100-01"]);
    assert!(
        refused.contains("`arbiter rating run 2100-01 --rehearse`"),
        "{refused}"
    );
    let out = a.ok(&["rating", "run", "2100-01", "--rehearse"]);
    assert!(
        out.contains("rehearsal (dry run): nothing written, nothing published"),
        "{out}"
    );
    let status = a.run(&["rating", "status", "2100-01"]);
    assert!(
        !String::from_utf8_lossy(&status.stdout).contains("published"),
        "{}",
        output_text(&status)
    );
}
