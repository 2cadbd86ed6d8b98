//! The rating service end to end, through the real binaries (`arbiterd`, `arbiter`):
//! a starting list imported from a FIDE XML file, a TRF submitted, the period closed
//! automatically by the service's scheduler, run twice → byte-identical exports, the
//! per-player report, publication, then a late correction → revision 2 whose diff names
//! exactly the players whose rating changes.
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use arbiter_tests::{Proc, output_text, run_cli, start_arbiterd};

fn start(data: &Path, port: u16) -> Proc {
    // The rating service's date source: after the 2026-10 closing date (28 Sept), before
    // the 2026-12 one (28 Nov).
    start_arbiterd(data, port, |c| {
        c.env("ARBITER_RATING_TODAY", "2026-11-20");
    })
}

fn cli(data: &Path, port: u16, args: &[&str]) -> Output {
    run_cli(data, port, args)
}

fn text(o: &Output) -> String {
    output_text(o)
}

fn ok(data: &Path, port: u16, args: &[&str]) -> Output {
    let o = cli(data, port, args);
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

/// One `001` line in the TRF columns.
#[allow(clippy::too_many_arguments)]
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

/// Five players, three rounds; player 5 is not on the list (unrated). `r1` is the result
/// of 3 (White) – 4 in round 1: `=` first, `1` in the correction.
fn trf(r1: char) -> String {
    let (p3, p4, r1_black) = match r1 {
        '1' => ("2.5", "1.5", '0'),
        _ => ("2.0", "2.0", '='),
    };
    [
        "012 Limerick Autumn Open".to_owned(),
        "052 2026/09/20".to_owned(),
        player_line(
            1,
            "Alpha, Ann",
            2000,
            1000001,
            "2.5",
            &[(2, 'w', '1'), (3, 'w', '='), (5, 'b', '1')],
        ),
        player_line(
            2,
            "Beta, Bob",
            1800,
            1000002,
            "0.0",
            &[(1, 'b', '0'), (4, 'w', '0'), (3, 'b', '0')],
        ),
        player_line(
            3,
            "Gamma, Gia",
            1900,
            1000003,
            p3,
            &[(4, 'w', r1), (1, 'b', '='), (2, 'w', '1')],
        ),
        player_line(
            4,
            "Delta, Dan",
            1700,
            1000004,
            p4,
            &[(3, 'b', r1_black), (2, 'b', '1'), (0, '-', 'H')],
        ),
        player_line(
            5,
            "Epsilon, Eve",
            0,
            1000005,
            "1.0",
            &[(0, '-', 'H'), (0, '-', 'H'), (1, 'w', '0')],
        ),
    ]
    .join("\n")
        + "\n"
}

fn xml_player(id: u32, name: &str, rating: u32, k: u32, birth: u32) -> String {
    format!(
        "<player><fideid>{id}</fideid><name>{name}</name><country>IRL</country><sex>M</sex>\
         <title></title><w_title></w_title><o_title></o_title><foa_title></foa_title>\
         <rating>{rating}</rating><games>0</games><k>{k}</k><rapid_rating></rapid_rating>\
         <rapid_games></rapid_games><rapid_k></rapid_k><blitz_rating></blitz_rating>\
         <blitz_games></blitz_games><blitz_k></blitz_k><birthday>{birth}</birthday><flag></flag></player>\n"
    )
}

fn export(data: &Path, port: u16, period: &str, format: &str, revision: &str) -> Vec<u8> {
    ok(
        data,
        port,
        &[
            "rating",
            "export",
            period,
            "--format",
            format,
            "--revision",
            revision,
        ],
    )
    .stdout
}

fn changed_ids(diff: &serde_json::Value) -> Vec<(u64, u64, u64)> {
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

/// Players on the starting list who play no game here.
const FILLER: u32 = 11_000;

#[test]
fn monthly_period_runs_deterministically_and_corrections_revise_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let mut d = start(&data, port);

    // 1. starting list (the September 2026 list)
    let list = dir.path().join("players_list_xml_foa.xml");
    std::fs::write(
        &list,
        format!(
            "<playerslist>\n{}{}{}{}{}</playerslist>\n",
            xml_player(1000001, "Alpha, Ann", 2000, 20, 1990),
            xml_player(1000002, "Beta, Bob", 1800, 20, 1990),
            xml_player(1000003, "Gamma, Gia", 1900, 20, 1990),
            xml_player(1000004, "Delta, Dan", 1700, 20, 1990),
            // enough players for several chunks (5,000 per request and per event)
            (0..FILLER)
                .map(|i| xml_player(
                    3_000_000 + i,
                    &format!("Filler, No {i}"),
                    1500 + i % 1000,
                    20,
                    1980
                ))
                .collect::<String>(),
        ),
    )
    .unwrap();
    let imported = json(
        &data,
        port,
        &[
            "rating",
            "list-import",
            list.to_str().unwrap(),
            "--month",
            "2026-09",
        ],
    );
    assert_eq!(imported["players"], 4 + FILLER as u64, "{imported}");
    assert_eq!(imported["chunks"], 3, "{imported}");
    let again = cli(
        &data,
        port,
        &[
            "rating",
            "list-import",
            list.to_str().unwrap(),
            "--month",
            "2026-09",
        ],
    );
    assert!(
        text(&again).contains("already imported"),
        "{}",
        text(&again)
    );

    // 2. a TRF: rated games go to the 2026-10 list (ends 20 Sept, closing date 28 Sept)
    let file = dir.path().join("limerick.trf");
    std::fs::write(&file, trf('=')).unwrap();
    let s = json(
        &data,
        port,
        &[
            "rating",
            "submit",
            file.to_str().unwrap(),
            "--kind",
            "standard",
        ],
    );
    assert_eq!(s["period"], "2026-10", "{s}");
    assert_eq!(s["rated_games"], 6, "{s}");
    assert_eq!(s["version"], 1);
    let tid = s["tournament_id"].as_str().unwrap().to_owned();
    assert_eq!(tid, "limerick-autumn-open-2026-09-20");

    // 3. the scheduler closes the period by itself (its closing date has passed)
    let t0 = Instant::now();
    loop {
        let st = json(&data, port, &["rating", "status", "2026-10"]);
        if st["status"] == "closed" {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "not closed: {st}");
        std::thread::sleep(Duration::from_millis(200));
    }

    // a period whose closing date is still ahead cannot be run (only previewed)
    let early = cli(&data, port, &["rating", "run", "2026-12"]);
    assert_eq!(early.status.code(), Some(1));
    assert!(
        text(&early).contains("period: 2026-12 is open until its closing date 2026-11-28"),
        "{}",
        text(&early)
    );

    // 4. run twice: same list, byte-identical exports
    let r1 = json(&data, port, &["rating", "run", "2026-10"]);
    assert_eq!(r1["status"]["status"], "computed", "{r1}");
    assert_eq!(r1["status"]["revision"], 1);
    assert_eq!(r1["games"], 6);
    let first: Vec<Vec<u8>> = ["txt", "xml", "csv"]
        .iter()
        .map(|f| export(&data, port, "2026-10", f, "0"))
        .collect();
    let r2 = json(&data, port, &["rating", "run", "2026-10"]);
    assert_eq!(r2["unchanged"], true, "{r2}");
    assert_eq!(r2["written"], false);
    assert_eq!(r2["list_sha256"], r1["list_sha256"]);
    for (f, before) in ["txt", "xml", "csv"].iter().zip(&first) {
        assert_eq!(&export(&data, port, "2026-10", f, "0"), before, "{f}");
    }
    let csv = String::from_utf8(first[2].clone()).unwrap();
    // 2000: beat 1800 (PD .76), drew 1900 (PD .64): K 20 × (0.24 − 0.14) = +2 → 2002
    assert!(
        csv.contains("1000001,\"Alpha, Ann\",IRL,M,,,1990,,2002,2,20"),
        "{csv}"
    );
    // the unrated player is listed (no rating yet) with the game pooled for later
    assert!(csv.contains("1000005,\"Epsilon, Eve\""), "{csv}");
    let txt = String::from_utf8(first[0].clone()).unwrap();
    assert!(txt.starts_with("ID Number"));
    assert_eq!(
        txt.lines().count(),
        1 + 5 + FILLER as usize,
        "header + every player"
    );
    assert!(txt.contains("3000999        Filler, No 999"));
    assert!(
        String::from_utf8(first[1].clone())
            .unwrap()
            .starts_with("<playerslist>")
    );

    // 5. the individual calculation matches the list
    let rep = json(&data, port, &["rating", "report", "1000001", "2026-10"]);
    let std = &rep["lists"][0];
    assert_eq!(std["kind"], "standard", "{rep}");
    assert_eq!(std["rating_before"], 2000);
    assert_eq!(
        std["rated_games"], 2,
        "the game against the unrated player is not rated"
    );
    let games = std["events"][0]["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["pd"], "0.76");
    assert_eq!(games[0]["delta"], "0.24");
    assert_eq!(games[0]["k"], 20);
    assert!(
        games[2]["status"].as_str().unwrap().contains("not rated"),
        "{rep}"
    );
    assert_eq!(std["change_unrounded"], "2.00");
    assert_eq!(std["rating_after"], 2002);
    let human = ok(&data, port, &["rating", "report", "1000001", "2026-10"]);
    assert!(text(&human).contains("OPPONENT"), "{}", text(&human));

    // the tournament's report: each player's part, K × ΣΔR
    let tr = json(&data, port, &["rating", "tournament-report", &tid]);
    let rows = tr["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "{tr}");
    assert_eq!(rows[0]["fide_id"], 1000001);
    assert_eq!(rows[0]["games"], 2);
    assert_eq!(rows[0]["change"], "2.00");
    assert_eq!(rows[4]["rating"], 0, "the unrated player: {tr}");

    // 6. publish
    let p = json(&data, port, &["rating", "publish", "2026-10"]);
    assert_eq!(p["status"], "published", "{p}");

    // 7. a correction after publication: 3–4 in round 1 was a win for 3, not a draw
    std::fs::write(&file, trf('1')).unwrap();
    let no_reason = cli(
        &data,
        port,
        &[
            "rating",
            "submit",
            file.to_str().unwrap(),
            "--kind",
            "standard",
        ],
    );
    assert!(
        text(&no_reason).contains("--reason"),
        "{}",
        text(&no_reason)
    );
    let c = json(
        &data,
        port,
        &[
            "rating",
            "submit",
            file.to_str().unwrap(),
            "--kind",
            "standard",
            "--reason",
            "round 1 board 2 result corrected by the chief arbiter",
        ],
    );
    assert_eq!(c["version"], 2, "{c}");
    assert_eq!(c["period_status"], "published");
    // the published period is revised at once: revision 2, and the diff names exactly
    // the players whose rating changes
    assert_eq!(c["revision"], 2, "{c}");
    let diff = changed_ids(&c["diff"]);
    assert_eq!(
        diff.iter().map(|d| d.0).collect::<Vec<_>>(),
        vec![1000003, 1000004],
        "exactly the players whose rating changes: {c}"
    );
    for (_, old, new) in &diff {
        assert_ne!(old, new);
    }
    // 1900 vs 1700: PD .76; a draw (−0.26) became a win (+0.24): +10 for 3, −10 for 4
    assert_eq!(diff[0].2 as i64 - diff[0].1 as i64, 10, "{diff:?}");
    assert_eq!(diff[1].2 as i64 - diff[1].1 as i64, -10, "{diff:?}");

    // a dry run or a run now finds nothing more to change
    let dry = json(&data, port, &["rating", "run", "2026-10", "--dry-run"]);
    assert_eq!(dry["unchanged"], true, "{dry}");
    assert_eq!(dry["written"], false, "{dry}");
    let rev = json(&data, port, &["rating", "run", "2026-10"]);
    assert_eq!(rev["unchanged"], true, "{rev}");
    assert_eq!(rev["status"]["revision"], 2, "{rev}");
    assert_eq!(rev["status"]["status"], "published");
    let st = json(&data, port, &["rating", "status", "2026-10"]);
    assert_eq!(changed_ids(&st["last_diff"]), diff);

    // revision 1 is still exported as it was; revision 2 differs
    assert_eq!(export(&data, port, "2026-10", "csv", "1"), first[2]);
    assert_ne!(export(&data, port, "2026-10", "csv", "0"), first[2]);
    // the individual calculation of each revision uses that revision's games
    let rep1 = json(
        &data,
        port,
        &["rating", "report", "1000003", "2026-10", "--revision", "1"],
    );
    let rep2 = json(&data, port, &["rating", "report", "1000003", "2026-10"]);
    assert_eq!(rep1["lists"][0]["rating_after"].as_u64(), Some(diff[0].1));
    assert_eq!(rep2["lists"][0]["rating_after"].as_u64(), Some(diff[0].2));
    assert_eq!(rep2["lists"][0]["events"][0]["games"][0]["score"], "1");

    // 8. after kill -9 the service rebuilds everything from the log
    let latest = export(&data, port, "2026-10", "txt", "0");
    d.kill9();
    let _d = start(&data, port);
    assert_eq!(export(&data, port, "2026-10", "txt", "0"), latest);
    assert_eq!(export(&data, port, "2026-10", "csv", "1"), first[2]);
    let st = json(&data, port, &["rating", "status", "2026-10"]);
    assert_eq!(st["status"], "published", "{st}");
    assert_eq!(changed_ids(&st["last_diff"]), diff);
    let after = json(&data, port, &["rating", "run", "2026-10"]);
    assert_eq!(after["unchanged"], true, "{after}");
}
