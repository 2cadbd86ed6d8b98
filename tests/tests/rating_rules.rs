//! The rating rules end to end, through the real binaries (`arbiterd`, `arbiter`):
//! the rate of play the TRF states against the requested list (B.02 §1), matches
//! (B.02 §6: games after the decision, a match with an unrated player), §8.2.4 (a player
//! rated since the event counts as unrated for their opponents), and a revision of a
//! published period rippling into the next published period (ADR elo-010).
//!
//! Hand-worked numbers (Sept 2026 list, every player K 20):
//! - Limerick (period 2026-10): 1 (2000) beats 2 (1800): PD .76 → 1 +4.8, 2 −4.8;
//!   3 (1900) draws 4 (1700): PD .76 → 3 −5.2, 4 +5.2; 5 (1800 on the list, no rating in
//!   the file: §8.2.4) beats 1: for 5, PD .24 → +15.2; for 1 not rated (5 counts as
//!   unrated). October list: 1 2005, 2 1795, 3 1895, 4 1705, 5 1815 (without §8.2.4, 1
//!   would get 20 × (0.24 − 0.76) = −10.4 → 1990).
//! - the correction (3 beat 4): 3 +4.8 → 1905, 4 −4.8 → 1695; the second (4 beat 3):
//!   3 −15.2 → 1885, 4 +15.2 → 1715.
//! - the Cork match (period 2026-11, 4 games scheduled): 2 wins rounds 1–3 (decided, 3 of 4),
//!   4 wins round 4 (not rated). 1795 vs 1705: D 90, PD .62 → 2 +20 × 1.14 = +22.8 → 1818,
//!   4 → 1682. After the October correction 1795 vs 1695: D 100, PD .64 → 2 +21.6 → 1817,
//!   4 → 1673; after the second, 1795 vs 1715: D 80, PD .61 → 2 +23.4 → 1818, 4 → 1692.
use std::path::Path;
use std::process::Output;

use arbiter_tests::{output_text, run_cli, start_arbiterd};

fn text(o: &Output) -> String {
    output_text(o)
}

fn ok(data: &Path, port: u16, args: &[&str]) -> Output {
    let o = run_cli(data, port, args);
    assert!(o.status.success(), "arbiter {args:?}: {}", text(&o));
    o
}

fn json(data: &Path, port: u16, args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let o = ok(data, port, &a);
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("arbiter {args:?}: {e}: {}", text(&o)))
}

fn refused(data: &Path, port: u16, args: &[&str]) -> String {
    let o = run_cli(data, port, args);
    assert!(
        !o.status.success(),
        "arbiter {args:?} should fail: {}",
        text(&o)
    );
    text(&o)
}

fn player_line(
    rank: u16,
    name: &str,
    rating: u16,
    id: u32,
    points: &str,
    rounds: &[(u16, char, char)],
) -> String {
    let rating = if rating == 0 {
        String::new()
    } else {
        rating.to_string()
    };
    let mut s = format!(
        "001 {rank:>4} m    {name:<33} {rating:>4} IRL {id:>11} 1990/01/01 {points:>4} {rank:>4}"
    );
    for (opp, colour, result) in rounds {
        let opp = if *opp == 0 {
            "0000".to_owned()
        } else {
            format!("{opp:>4}")
        };
        s.push_str(&format!("  {opp} {colour} {result}"));
    }
    s
}

const H: (u16, char, char) = (0, '-', 'H');

/// Period 2026-10, standard (222: 90 min + 30 s = 120 min for 60 moves). Player 5 has no
/// rating in the file. `r2` is 3 (White) – 4 in round 2: `=`, then `1`, then `0` in the
/// corrections.
fn limerick(r2: char) -> String {
    let (p3, p4, black) = match r2 {
        '1' => ("2.0", "1.0", '0'),
        '0' => ("1.0", "2.0", '1'),
        _ => ("1.5", "1.5", '='),
    };
    [
        "012 Limerick Autumn Open".to_owned(),
        "052 2026/09/20".to_owned(),
        "222 5400+30".to_owned(),
        player_line(
            1,
            "Alpha, Ann",
            2000,
            1000001,
            "1.5",
            &[(2, 'w', '1'), H, (5, 'b', '0')],
        ),
        player_line(2, "Beta, Bob", 1800, 1000002, "1.0", &[(1, 'b', '0'), H, H]),
        player_line(3, "Gamma, Gia", 1900, 1000003, p3, &[H, (4, 'w', r2), H]),
        player_line(4, "Delta, Dan", 1700, 1000004, p4, &[H, (3, 'b', black), H]),
        player_line(5, "Epsilon, Eve", 0, 1000005, "2.0", &[H, H, (1, 'w', '1')]),
    ]
    .join("\n")
        + "\n"
}

/// A two-player match: `a` against `b`, `results` from a's side, `a` White in odd rounds.
fn match_file(
    name: &str,
    scheduled: u16,
    a: (&str, u16, u32),
    b: (&str, u16, u32),
    results: &[char],
) -> String {
    let flip = |c: char| match c {
        '1' => '0',
        '0' => '1',
        c => c,
    };
    let score = |mine: &dyn Fn(char) -> char| {
        let halves: u32 = results
            .iter()
            .map(|&c| match mine(c) {
                '1' => 2,
                '=' => 1,
                _ => 0,
            })
            .sum();
        format!("{:.1}", halves as f64 / 2.0)
    };
    let ra: Vec<(u16, char, char)> = results
        .iter()
        .enumerate()
        .map(|(i, &c)| (2, if i % 2 == 0 { 'w' } else { 'b' }, c))
        .collect();
    let rb: Vec<(u16, char, char)> = results
        .iter()
        .enumerate()
        .map(|(i, &c)| (1, if i % 2 == 0 { 'b' } else { 'w' }, flip(c)))
        .collect();
    [
        format!("012 {name}"),
        "052 2026/10/10".to_owned(),
        format!("XXR {scheduled}"),
        player_line(1, a.0, a.1, a.2, &score(&|c| c), &ra),
        player_line(2, b.0, b.1, b.2, &score(&flip), &rb),
    ]
    .join("\n")
        + "\n"
}

fn xml_player(id: u32, name: &str, rating: u32) -> String {
    format!(
        "<player><fideid>{id}</fideid><name>{name}</name><country>IRL</country><sex>M</sex>\
         <title></title><w_title></w_title><o_title></o_title><foa_title></foa_title>\
         <rating>{rating}</rating><games>0</games><k>20</k><rapid_rating></rapid_rating>\
         <rapid_games></rapid_games><rapid_k></rapid_k><blitz_rating></blitz_rating>\
         <blitz_games></blitz_games><blitz_k></blitz_k><birthday>1990</birthday><flag></flag></player>\n"
    )
}

fn changes(diff: &serde_json::Value) -> Vec<(u64, u64, u64)> {
    let mut v: Vec<(u64, u64, u64)> = diff
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["fide_id"].as_u64().unwrap(),
                c["old"].as_u64().unwrap(),
                c["new"].as_u64().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn rating_in(csv: &str, id: u32) -> String {
    csv.lines()
        .find(|l| l.starts_with(&format!("{id},")))
        .unwrap_or_else(|| panic!("{id} not in {csv}"))
        .to_owned()
}

#[test]
fn rate_of_play_matches_late_ratings_and_rippling_revisions() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    // after the 2026-10 and 2026-11 closing dates (28 Sept, 29 Oct)
    let _d = start_arbiterd(&data, port, |c| {
        c.env("ARBITER_RATING_TODAY", "2026-11-20");
    });
    let (d, p) = (data.as_path(), port);

    // the September 2026 list: Epsilon is rated 1800 on it
    let list = dir.path().join("players_list_xml_foa.xml");
    std::fs::write(
        &list,
        format!(
            "<playerslist>\n{}{}{}{}{}</playerslist>\n",
            xml_player(1000001, "Alpha, Ann", 2000),
            xml_player(1000002, "Beta, Bob", 1800),
            xml_player(1000003, "Gamma, Gia", 1900),
            xml_player(1000004, "Delta, Dan", 1700),
            xml_player(1000005, "Epsilon, Eve", 1800),
        ),
    )
    .unwrap();
    let list = list.to_str().unwrap();
    json(d, p, &["rating", "list-import", list, "--month", "2026-09"]);

    // 1. rate of play: the file says standard (222 5400+30); a rapid submission is refused
    let file = dir.path().join("limerick.trf");
    std::fs::write(&file, limerick('=')).unwrap();
    let f = file.to_str().unwrap();
    let e = refused(d, p, &["rating", "submit", f, "--kind", "rapid"]);
    assert!(
        e.contains("kind") && e.contains("record 222 (trf line 3)") && e.contains("standard"),
        "{e}"
    );
    // Armageddon-like unequal times are not rated at all
    let arm = dir.path().join("armageddon.trf");
    std::fs::write(&arm, limerick('=').replace("222 5400+30", "222 W300-B240")).unwrap();
    let e = refused(
        d,
        p,
        &["rating", "submit", arm.to_str().unwrap(), "--kind", "blitz"],
    );
    assert!(
        e.contains("trf line 3") && e.contains("different times"),
        "{e}"
    );
    let s = json(d, p, &["rating", "submit", f, "--kind", "standard"]);
    assert_eq!(s["period"], "2026-10", "{s}");
    assert_eq!(s["rated_games"], 3, "{s}");
    assert_eq!(s["notes"], serde_json::json!([]), "{s}");

    // 2. matches (period 2026-11)
    let cork = dir.path().join("cork.trf");
    std::fs::write(
        &cork,
        match_file(
            "Cork Match",
            4,
            ("Beta, Bob", 1800, 1000002),
            ("Delta, Dan", 1700, 1000004),
            &['1', '1', '1', '0'],
        ),
    )
    .unwrap();
    let m = json(
        d,
        p,
        &[
            "rating",
            "submit",
            cork.to_str().unwrap(),
            "--kind",
            "standard",
        ],
    );
    assert_eq!(m["period"], "2026-11", "{m}");
    assert_eq!(
        (m["rated_games"].as_u64(), m["skipped_games"].as_u64()),
        (Some(3), Some(1)),
        "{m}"
    );
    let notes = m["notes"].to_string();
    assert!(
        notes.contains("match of 4 games decided after round 3")
            && notes.contains("round(s) 4 not rated"),
        "{notes}"
    );
    assert!(notes.contains("states no time control"), "{notes}");
    let human = ok(
        d,
        p,
        &[
            "rating",
            "submit",
            cork.to_str().unwrap(),
            "--kind",
            "standard",
            "--tournament-id",
            "cork-copy",
            "--end-date",
            "2026-12-10",
            "--match-games",
            "6",
        ],
    );
    assert!(
        text(&human).contains("4 rated game(s), 0 skipped"),
        "6 scheduled: 3 of 6 does not decide it: {}",
        text(&human)
    );
    // (that copy goes to the 2027-01 list, which this test never runs)
    let unrated = dir.path().join("unrated.trf");
    std::fs::write(
        &unrated,
        match_file(
            "Kerry Match",
            2,
            ("Alpha, Ann", 2000, 1000001),
            ("Zeta, Zoe", 0, 1000006),
            &['1', '='],
        ),
    )
    .unwrap();
    let u = json(
        d,
        p,
        &[
            "rating",
            "submit",
            unrated.to_str().unwrap(),
            "--kind",
            "standard",
        ],
    );
    assert_eq!(
        (u["rated_games"].as_u64(), u["skipped_games"].as_u64()),
        (Some(0), Some(2)),
        "{u}"
    );
    assert!(
        u["notes"]
            .to_string()
            .contains("unrated player (Zeta, Zoe)"),
        "{u}"
    );
    let three = refused(
        d,
        p,
        &[
            "rating",
            "submit",
            f,
            "--kind",
            "standard",
            "--tournament-id",
            "x",
            "--match",
        ],
    );
    assert!(three.contains("match_event"), "{three}");

    // 3. October: §8.2.4 (Epsilon rated with 1800, counted unrated by Alpha)
    let r = json(d, p, &["rating", "run", "2026-10"]);
    assert_eq!(r["status"]["revision"], 1, "{r}");
    let oct =
        String::from_utf8(ok(d, p, &["rating", "export", "2026-10", "--format", "csv"]).stdout)
            .unwrap();
    for (id, rating) in [
        (1000001, ",2005,"),
        (1000002, ",1795,"),
        (1000003, ",1895,"),
        (1000004, ",1705,"),
        (1000005, ",1815,"),
    ] {
        assert!(rating_in(&oct, id).contains(rating), "{id}: {oct}");
    }
    let rep = json(d, p, &["rating", "report", "1000001", "2026-10"]);
    let games = rep["lists"][0]["events"][0]["games"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(games[1]["opponent_id"], 1000005, "{rep}");
    assert_eq!(games[1]["opponent_rating"], 0, "counted unrated: {rep}");
    assert!(
        games[1]["status"].as_str().unwrap().contains("§8.2.4"),
        "{rep}"
    );
    assert_eq!(rep["lists"][0]["rated_games"], 1, "{rep}");
    let rep5 = json(d, p, &["rating", "report", "1000005", "2026-10"]);
    assert_eq!(rep5["lists"][0]["rating_before"], 1800, "{rep5}");
    assert_eq!(rep5["lists"][0]["change_unrounded"], "15.20", "{rep5}");
    assert!(
        rep5["lists"][0]["note"]
            .as_str()
            .unwrap()
            .contains("§8.2.4"),
        "{rep5}"
    );
    json(d, p, &["rating", "publish", "2026-10"]);

    // 4. November from the published October list (computed, not published yet)
    let r = json(d, p, &["rating", "run", "2026-11"]);
    assert_eq!(r["status"]["revision"], 1, "{r}");
    let nov =
        String::from_utf8(ok(d, p, &["rating", "export", "2026-11", "--format", "csv"]).stdout)
            .unwrap();
    assert!(rating_in(&nov, 1000002).contains(",1818,"), "{nov}");
    assert!(rating_in(&nov, 1000004).contains(",1682,"), "{nov}");
    assert!(
        rating_in(&nov, 1000001).contains(",2005,"),
        "the unrated match: {nov}"
    );

    // 5. a correction to October: October revision 2; November, computed from it and not
    //    published, is re-run: its revision 1 is replaced
    std::fs::write(&file, limerick('1')).unwrap();
    let c = json(
        d,
        p,
        &[
            "rating",
            "submit",
            f,
            "--kind",
            "standard",
            "--reason",
            "round 2 board 2: 1-0, not a draw",
        ],
    );
    assert_eq!(c["revision"], 2, "{c}");
    assert_eq!(
        changes(&c["diff"]),
        vec![(1000003, 1895, 1905), (1000004, 1705, 1695)],
        "{c}"
    );
    let rippled = c["rippled"].as_array().unwrap();
    assert_eq!(rippled.len(), 1, "{c}");
    assert_eq!(
        (
            rippled[0]["period"].as_str(),
            rippled[0]["status"].as_str(),
            rippled[0]["revision"].as_u64(),
            rippled[0]["unchanged"].as_bool()
        ),
        (Some("2026-11"), Some("computed"), Some(1), Some(false)),
        "{c}"
    );
    assert_eq!(
        changes(&rippled[0]["diff"]),
        vec![
            (1000002, 1818, 1817),
            (1000003, 1895, 1905),
            (1000004, 1682, 1673)
        ],
        "{c}"
    );
    assert!(
        c["notes"].to_string().contains("period 2026-11 re-run"),
        "{c}"
    );
    json(d, p, &["rating", "publish", "2026-11"]);
    let nov1 = ok(d, p, &["rating", "export", "2026-11", "--format", "csv"]).stdout;
    assert!(String::from_utf8(nov1.clone()).unwrap().contains(",1817,"));

    // 6. a second correction to October (4 won, after all): October revision 3, and the
    //    published November gets revision 2 with its own diff. 1900 loses to 1700: −15.2;
    //    November: 1795 vs 1715, D 80, PD .61: Beta +23.4 → 1818, Delta 1715 − 23 = 1692.
    std::fs::write(&file, limerick('0')).unwrap();
    let c = json(
        d,
        p,
        &[
            "rating",
            "submit",
            f,
            "--kind",
            "standard",
            "--reason",
            "round 2 board 2: 0-1 on appeal",
        ],
    );
    assert_eq!(c["revision"], 3, "{c}");
    assert_eq!(
        changes(&c["diff"]),
        vec![(1000003, 1905, 1885), (1000004, 1695, 1715)],
        "{c}"
    );
    let rippled = c["rippled"].as_array().unwrap();
    assert_eq!(rippled.len(), 1, "{c}");
    assert_eq!(
        (
            rippled[0]["period"].as_str(),
            rippled[0]["status"].as_str(),
            rippled[0]["revision"].as_u64(),
            rippled[0]["unchanged"].as_bool()
        ),
        (Some("2026-11"), Some("published"), Some(2), Some(false)),
        "{c}"
    );
    assert_eq!(
        changes(&rippled[0]["diff"]),
        vec![
            (1000002, 1817, 1818),
            (1000003, 1905, 1885),
            (1000004, 1673, 1692)
        ],
        "{c}"
    );
    let st = json(d, p, &["rating", "status", "2026-11"]);
    assert_eq!(
        (st["status"].as_str(), st["revision"].as_u64()),
        (Some("published"), Some(2)),
        "{st}"
    );
    assert_eq!(changes(&st["last_diff"]), changes(&rippled[0]["diff"]));
    // the published revision 1 stays as it was
    assert_eq!(
        ok(
            d,
            p,
            &[
                "rating",
                "export",
                "2026-11",
                "--format",
                "csv",
                "--revision",
                "1"
            ]
        )
        .stdout,
        nov1
    );
    // running October again changes nothing and re-checks November: unchanged
    let again = json(d, p, &["rating", "run", "2026-10"]);
    assert_eq!(again["unchanged"], true, "{again}");
    assert_eq!(again["rippled"][0]["period"], "2026-11", "{again}");
    assert_eq!(again["rippled"][0]["unchanged"], true, "{again}");
    let human = ok(d, p, &["rating", "run", "2026-10"]);
    assert!(
        text(&human)
            .contains("period 2026-11 re-run from the revised list: unchanged (revision 2)"),
        "{}",
        text(&human)
    );
}
