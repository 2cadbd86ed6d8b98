//! The offline `arbiter` commands through the real binary, on real files (tests/data, see
//! PROVENANCE.md): `trf check|fmt|json`, `standings`, `rating calc`, `clock replay`, `pair`.
//! Exit codes: 0 ok, 1 the file has errors or the rules cannot be applied, 2 usage.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arbiter_tests::binary;
use serde_json::Value;

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

fn arbiter_path(args: &[&str], path: &Path) -> Output {
    let p = path.to_str().expect("utf-8 path");
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "FILE" { p } else { a })
        .collect();
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
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(o), stderr(o)))
}

fn write_temp(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Exact decimal text ("10.25", "31/3") to a comparable rational in 1/120000ths.
fn num(text: &str) -> i64 {
    if let Some((a, b)) = text.split_once('/') {
        return a.parse::<i64>().unwrap() * 120_000 / b.parse::<i64>().unwrap();
    }
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let neg = int.starts_with('-');
    let mut v = int.trim_start_matches('-').parse::<i64>().unwrap() * 120_000;
    let mut scale = 12_000;
    for c in frac.chars() {
        v += i64::from(c.to_digit(10).unwrap()) * scale;
        scale /= 10;
    }
    if neg { -v } else { v }
}

// ---------------------------------------------------------------------------------------
// trf

#[test]
fn trf_check_lists_findings_with_file_line_column() {
    let f = data("icu-gonzaga-classic-2008.trf");
    let o = arbiter_path(&["trf", "check", "FILE"], &f);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    // "0000 - =" is the old way of writing a half-point bye: a warning, at the result column
    assert!(
        out.contains(&format!(
            "{}:10:99: warning: 001: round 1: game result '=' without an opponent",
            f.display()
        )),
        "{out}"
    );
    assert!(out.contains("12 players, 5 rounds, 0 error(s)"), "{out}");

    let o = arbiter_path(&["--json", "trf", "check", "FILE"], &f);
    let v = json(&o);
    assert_eq!(v["errors"], 0);
    assert_eq!(v["players"], 12);
    assert!(v["warnings"].as_u64().unwrap() >= 3);
    let first_warning = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["severity"] == "Warning")
        .unwrap();
    assert_eq!(first_warning["line"], 10);
    assert_eq!(first_warning["column"], 99);
}

#[test]
fn trf_check_exits_1_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    // rating with letters (line 2, columns 49-52) and a pairing the opponent does not confirm
    let bad = write_temp(
        &dir,
        "bad.trf",
        "012 Bad\n\
001    1      Doe, John                         2100                             1.0    1     2 w 1\n\
001    2      Roe, Jane                         20x0                             0.0    2     3 b 0\n\
001    3      Poe, Jim                          1900                             0.0    3  0000 - Z\n",
    );
    let o = arbiter_path(&["trf", "check", "FILE"], &bad);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    let prefix = format!("{}:3:49: error: 001: ", bad.display());
    assert!(
        out.lines().any(|l| l.starts_with(&prefix)),
        "no {prefix} in\n{out}"
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.contains(": error: ")).collect();
    assert!(errors.len() >= 2, "{out}");
    assert!(stderr(&o).contains("error(s)"));
    // fmt and json still give their output (the file is kept as read), but exit 1
    let o = arbiter_path(&["trf", "json", "FILE"], &bad);
    assert_eq!(code(&o), 1);
    assert_eq!(json(&o)["lines"].as_array().unwrap().len(), 4);
    assert!(stderr(&o).contains(&prefix), "{}", stderr(&o));
    let o = arbiter_path(&["trf", "fmt", "FILE"], &bad);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("20x0"));

    // not a TRF at all
    let junk = write_temp(&dir, "junk.trf", "hello\nworld\n");
    let o = arbiter_path(&["trf", "check", "FILE"], &junk);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("junk.trf: not a TRF file"),
        "{}",
        stderr(&o)
    );
    // missing file
    let o = arbiter(&["trf", "check", "/nonexistent/x.trf"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("/nonexistent/x.trf"));
    // usage
    let o = arbiter(&["trf", "check"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn trf_fmt_is_canonical_and_lossless() {
    let f = data("icu-gonzaga-classic-2008.trf");
    let o = arbiter_path(&["trf", "fmt", "FILE", "--line-ending", "lf"], &f);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let once = stdout(&o);
    assert!(once.starts_with("012 Gonzaga Classic\n"), "{once}");
    assert!(!once.contains('\r'));
    let dir = tempfile::tempdir().unwrap();
    let again_file = write_temp(&dir, "again.trf", &once);
    // idempotent
    let twice = stdout(&arbiter_path(
        &["trf", "fmt", "FILE", "--line-ending", "lf"],
        &again_file,
    ));
    assert_eq!(once, twice);
    // lossless: the model read back is the same
    let a = json(&arbiter_path(&["trf", "json", "FILE"], &f));
    let b = json(&arbiter_path(&["trf", "json", "FILE"], &again_file));
    assert_eq!(a, b);
    // CRLF by default; TRF26 on request keeps every line
    let crlf = stdout(&arbiter_path(&["trf", "fmt", "FILE", "--to", "trf26"], &f));
    assert_eq!(crlf.replace("\r\n", "\n"), once);
    // a bad edition name is a usage error
    assert_eq!(
        code(&arbiter_path(&["trf", "fmt", "FILE", "--to", "trf99"], &f)),
        2
    );
}

#[test]
fn trf_json_is_the_typed_model() {
    let v = json(&arbiter_path(
        &["trf", "json", "FILE"],
        &data("icu-gonzaga-classic-2008.trf"),
    ));
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 21);
    let p1 = &lines[9]["record"]["Player"];
    assert_eq!(p1["name"], "Griffiths,Ryan Rhys");
    assert_eq!(p1["start_rank"]["Value"], 1);
    assert_eq!(p1["rounds"][1]["opponent"]["Player"], 3);
    assert_eq!(p1["rounds"][1]["result"], "Win");
    assert_eq!(p1["points"]["Value"], 40); // tenths
}

// ---------------------------------------------------------------------------------------
// standings

/// One standings row by TPN.
fn rows_by_tpn(v: &Value) -> BTreeMap<u64, Value> {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tpn"].as_u64().unwrap(), r.clone()))
        .collect()
}

/// Acceptance criterion of the standings issue: on the Irish files the points agree with the
/// file's points column, and each rank the file states lies in the band of places the
/// computed standings give to the participant's score group (the files do not say which
/// tie-breaks ordered players on equal points). A rank column that is not a ranking at all
/// (ranks not in score order) states no standings and is reported, not compared.
#[test]
fn standings_agree_with_the_irish_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/trf/tests/data/trf");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("icu-") && n.ends_with(".trf"))
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 9, "{files:?}");
    let mut ranks_compared = 0;
    let mut not_rankings = Vec::new();
    for f in &files {
        let o = arbiter_path(
            &[
                "--json",
                "standings",
                "--trf",
                "FILE",
                "--unpaired-rounds",
                "from-points",
            ],
            f,
        );
        assert_eq!(code(&o), 0, "{}: {}", f.display(), stderr(&o));
        let v = json(&o);
        let rows = v["rows"].as_array().unwrap();
        let mut stated_points = 0;
        for r in rows {
            if let Some(sp) = r["stated_points"].as_str() {
                stated_points += 1;
                assert_eq!(
                    num(r["points"].as_str().unwrap()),
                    num(sp),
                    "{}: participant {}",
                    f.display(),
                    r["tpn"]
                );
            }
        }
        assert_eq!(stated_points, rows.len(), "{}", f.display());
        // ranks
        let stated: Vec<(u64, i64)> = rows
            .iter()
            .filter_map(|r| {
                Some((
                    r["stated_rank"].as_u64()?,
                    num(r["points"].as_str().unwrap()),
                ))
            })
            .collect();
        if stated.is_empty() {
            continue;
        }
        let mut by_rank = stated.clone();
        by_rank.sort();
        if by_rank.windows(2).any(|w| w[0].1 < w[1].1) {
            not_rankings.push(f.file_name().unwrap().to_string_lossy().into_owned());
            continue;
        }
        // band of places per score: first place .. first place + size - 1
        let mut band: BTreeMap<i64, (u64, u64)> = BTreeMap::new();
        for r in rows {
            let pts = num(r["points"].as_str().unwrap());
            let rank = r["rank"].as_u64().unwrap();
            let e = band.entry(pts).or_insert((rank, rank - 1));
            e.0 = e.0.min(rank);
            e.1 += 1;
        }
        for r in rows {
            let Some(sr) = r["stated_rank"].as_u64() else {
                continue;
            };
            let (lo, hi) = band[&num(r["points"].as_str().unwrap())];
            assert!(
                (lo..=hi).contains(&sr),
                "{}: participant {} stated rank {sr}, computed places {lo}-{hi}",
                f.display(),
                r["tpn"]
            );
            ranks_compared += 1;
        }
    }
    // Only the Bunratty Minor's rank column is not in score order (rank 2 has 4 points,
    // rank 4 has 5).
    assert_eq!(not_rankings, ["icu-bunratty-minor-2011.trf"]);
    assert!(ranks_compared > 250, "{ranks_compared}");
}

/// Without `--unpaired-rounds from-points` a blank unpaired round is zero points (TRF: blank ≡
/// Z), so the Bunratty Masters' unmarked half-point byes make the totals differ; the inference
/// is reported line by line.
#[test]
fn unpaired_rounds_from_points_are_reported() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trf/tests/data/trf/icu-bunratty-masters-2011.trf");
    let zero = json(&arbiter_path(&["--json", "standings", "--trf", "FILE"], &f));
    let p16 = &rows_by_tpn(&zero)[&16];
    assert_eq!(p16["points"], "1.5");
    assert_eq!(p16["stated_points"], "2.5");
    let o = arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--unpaired-rounds",
            "from-points",
        ],
        &f,
    );
    assert_eq!(rows_by_tpn(&json(&o))[&16]["points"], "2.5");
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{}:29:129: round 4: unpaired round without a result read as a half-point bye",
            f.display()
        )),
        "{err}"
    );
    // --rounds cannot be combined with the final points column
    let o = arbiter_path(
        &[
            "standings",
            "--trf",
            "FILE",
            "--unpaired-rounds",
            "from-points",
            "--rounds",
            "3",
        ],
        &f,
    );
    assert_eq!(code(&o), 2);
}

/// Gonzaga Classic 2008, worked by hand: participant 1 (4 points) had a half-point bye in
/// round 1, then beat 3 (3 points), 8 (2), drew with 5 (3), beat 7 (2.5). The bye's dummy
/// (C.07 2026 Art. 16.4) has the score capped at ½ × 5 rounds = 2.5.
/// BH = 2.5 + 3 + 2 + 3 + 2.5 = 13; BH/C1 cuts the voluntary unplayed round first (16.5): 10.5;
/// SB = 2.5 × ½ + 3 + 2 + 3 × ½ + 2.5 = 10.25.
#[test]
fn standings_with_tiebreaks_and_their_working() {
    let f = data("icu-gonzaga-classic-2008.trf");
    let o = arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--tiebreaks",
            "BH/C1,BH,SB",
            "--explain",
            "1",
        ],
        &f,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["tie_breaks"], serde_json::json!(["BH/C1", "BH", "SB"]));
    assert_eq!(v["edition"], "C.07 (2026)");
    let first = &v["rows"][0];
    assert_eq!(first["tpn"], 1);
    assert_eq!(first["rank"], 1);
    assert_eq!(first["points"], "4");
    assert_eq!(first["values"], serde_json::json!(["10.5", "13", "10.25"]));
    let working = first["working"].as_array().unwrap();
    assert_eq!(working.len(), 3);
    // BH/C1: five contributions, the dummy of round 1 cut
    let bh_c1 = working[0]["working"]["contributions"].as_array().unwrap();
    assert_eq!(bh_c1.len(), 5);
    assert_eq!(bh_c1[0]["round"], 1);
    assert_eq!(bh_c1[0]["cut"], true);
    assert!(bh_c1[0]["source"].get("Dummy").is_some(), "{}", bh_c1[0]);
    // ranks follow points, then BH/C1: the four on 3 points are 3 (13.5), 5 (12.5), 4 (11.5), 6 (11)
    let order: Vec<u64> = v["rows"].as_array().unwrap()[2..6]
        .iter()
        .map(|r| r["tpn"].as_u64().unwrap())
        .collect();
    assert_eq!(order, [3, 5, 4, 6]);

    // the human table and the explanation
    let o = arbiter_path(
        &[
            "standings",
            "--trf",
            "FILE",
            "--tiebreaks",
            "BH/C1,BH,SB",
            "--explain",
            "1",
        ],
        &f,
    );
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("Rank  TPN  Name"), "{out}");
    assert!(out.contains("BH/C1 = 10.5"), "{out}");
    assert!(out.contains("cut"), "{out}");
    assert!(out.contains("opponent 3"), "{out}");

    // the 2024 edition: uncapped dummy = the participant's own score (4)
    let v = json(&arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--tiebreaks",
            "BH",
            "--edition",
            "c07-2024",
        ],
        &f,
    ));
    assert_eq!(rows_by_tpn(&v)[&1]["values"][0], "14.5");
}

#[test]
fn standings_default_to_record_202() {
    let text = std::fs::read_to_string(data("icu-gonzaga-classic-2008.trf")).unwrap();
    let with_202 = text.replacen("092 Swiss\n", "092 Swiss\n202 BH/C1,BH,SB\n", 1);
    assert_ne!(with_202, text);
    let dir = tempfile::tempdir().unwrap();
    let f = write_temp(&dir, "g202.trf", &with_202);
    let v = json(&arbiter_path(&["--json", "standings", "--trf", "FILE"], &f));
    assert_eq!(v["tie_breaks"], serde_json::json!(["BH/C1", "BH", "SB"]));
    assert_eq!(
        v["rows"][0]["values"],
        serde_json::json!(["10.5", "13", "10.25"])
    );
    // a bad code in 202 is an error of the file (exit 1), naming the line
    let bad = write_temp(
        &dir,
        "bad202.trf",
        &text.replacen("092 Swiss\n", "092 Swiss\n202 BH,NOPE\n", 1),
    );
    let o = arbiter_path(&["standings", "--trf", "FILE"], &bad);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{}:8: record 202", bad.display())),
        "{}",
        stderr(&o)
    );
    // the same bad code on the command line is a usage error
    let o = arbiter_path(
        &["standings", "--trf", "FILE", "--tiebreaks", "BH,NOPE"],
        &f,
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("NOPE"), "{}", stderr(&o));
    // --explain of a participant who does not exist
    let o = arbiter_path(&["standings", "--trf", "FILE", "--explain", "99"], &f);
    assert_eq!(code(&o), 2);
}

/// Record 162 (3/1/0): the points column of the generated file (bbpPairings) is reproduced.
#[test]
fn standings_follow_the_declared_scoring_system() {
    let v = json(&arbiter_path(
        &["--json", "standings", "--trf", "FILE", "--tiebreaks", "BH"],
        &data("s456006487535817-p10-r7.trf"),
    ));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    for r in rows {
        assert_eq!(
            num(r["points"].as_str().unwrap()),
            num(r["stated_points"].as_str().unwrap()),
            "{r}"
        );
    }
    // 3/1/0 totals exceed the number of rounds
    assert!(num(rows[0]["points"].as_str().unwrap()) > num("7"));
    // standings after round 3
    let v = json(&arbiter_path(
        &["--json", "standings", "--trf", "FILE", "--rounds", "3"],
        &data("s456006487535817-p10-r7.trf"),
    ));
    assert_eq!(v["rounds"], 3);
    assert!(num(v["rows"][0]["points"].as_str().unwrap()) <= num("9"));
}

#[test]
fn standings_refuse_a_file_with_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write_temp(
        &dir,
        "asym.trf",
        "001    1      Doe, John                         2100                             1.0    1     2 w 1\n\
001    2      Roe, Jane                         2000                             1.0    2     1 b 1\n",
    );
    let o = arbiter_path(&["standings", "--trf", "FILE"], &bad);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:1:", bad.display()))
            || err.contains(&format!("{}:2:", bad.display())),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// rating

/// The published case "chesselo-fide-db-2017-06" (FIDE individual calculation, June 2017):
/// 1922, K 40, against 1798 (win), 1801 (loss), 1897 (win): ΔR 0.33, −0.66, 0.47,
/// K × ΔR 13.2, −26.4, 18.8, change 5.6, Rc 1832.
#[test]
fn rating_calc_reproduces_a_published_calculation() {
    let fixtures: Value =
        serde_json::from_str(&std::fs::read_to_string(data("fide-rating-examples.json")).unwrap())
            .unwrap();
    for id in [
        "chesselo-fide-db-2017-06",
        "cpan-100",
        "cpan-111-shirov-event44463",
    ] {
        let case = fixtures["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap();
        let games: Vec<String> = case["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .zip(case["results"].as_array().unwrap())
            .map(|(o, r)| format!("{}:{}", o, r.as_str().unwrap()))
            .collect();
        let rating = case["rating"].to_string();
        let k = case["k"].to_string();
        let games = games.join(",");
        let o = arbiter(&[
            "--json",
            "rating",
            "calc",
            "--rating",
            &rating,
            "--k",
            &k,
            "--games",
            &games,
            "--edition",
            "fide2014",
            "--period",
            "2017-06",
        ]);
        assert_eq!(code(&o), 0, "{id}: {}", stderr(&o));
        let v = json(&o);
        let exp = &case["expected"];
        let hundredths = |x: &Value| (x.as_f64().unwrap() * 100.0).round() as i64;
        let event = &v["working"]["events"][0];
        if let Some(c) = exp.get("rating_change") {
            assert_eq!(event["change"].as_i64().unwrap(), hundredths(c), "{id}");
        }
        if let Some(p) = exp.get("points_expected") {
            assert_eq!(event["expected"].as_i64().unwrap(), hundredths(p), "{id}");
        }
        if let Some(per) = exp.get("per_game_change") {
            let got: Vec<i64> = event["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["delta"].as_i64().unwrap())
                .collect();
            let want: Vec<i64> = per.as_array().unwrap().iter().map(hundredths).collect();
            assert_eq!(got, want, "{id}");
        }
        if let Some(rc) = exp.get("Rc") {
            assert_eq!(event["average_opponent_rating"], *rc, "{id}");
        }
    }
    // the rounded change and the human working
    let o = arbiter(&[
        "rating",
        "calc",
        "--rating",
        "1922",
        "--k",
        "40",
        "--games",
        "1798:W,1801:L,1897:W",
        "--period",
        "2017-06",
    ]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("5.60 → +6"), "{out}");
    assert!(out.contains("rating 1922 → 1928"), "{out}");
    assert!(out.contains("-26.40"), "{out}");
}

/// K from B.02 §8.3.3: a junior (born 2010, list of March 2026) under 2300 has K = 40; an
/// adult with 30 games and under 2400 has K = 20; K × n ≤ 700.
#[test]
fn rating_calc_determines_k() {
    let k_of = |args: &[&str]| -> Value {
        let mut all = vec![
            "--json",
            "rating",
            "calc",
            "--rating",
            "1922",
            "--games",
            "1798:1,1801:0,1897:1",
            "--period",
            "2026-03",
        ];
        all.extend_from_slice(args);
        let o = arbiter(&all);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        json(&o)["working"]["events"][0]["k_working"].clone()
    };
    let kw = k_of(&["--games-before", "100", "--born", "2010"]);
    assert_eq!(
        (kw["k"].as_u64(), kw["rule"].as_str()),
        (Some(40), Some("Junior"))
    );
    let kw = k_of(&["--games-before", "100", "--born", "1980"]);
    assert_eq!(
        (kw["k"].as_u64(), kw["rule"].as_str()),
        (Some(20), Some("Below2400"))
    );
    let kw = k_of(&["--games-before", "5"]);
    assert_eq!(
        (kw["k"].as_u64(), kw["rule"].as_str()),
        (Some(40), Some("NewPlayer"))
    );
    let kw = k_of(&["--games-before", "100", "--ever-2400"]);
    assert_eq!(kw["k"], 10);

    // usage errors: no way to know K, a bad game, a bad period, K given twice
    for args in [
        vec!["rating", "calc", "--rating", "1922", "--games", "1798:1"],
        vec![
            "rating", "calc", "--rating", "1922", "--k", "20", "--games", "1798:X",
        ],
        vec![
            "rating", "calc", "--rating", "1922", "--k", "20", "--games", "1798:1", "--period",
            "2026-13",
        ],
        vec![
            "rating",
            "calc",
            "--rating",
            "1922",
            "--k",
            "20",
            "--games-before",
            "3",
            "--games",
            "1798:1",
        ],
    ] {
        let o = arbiter(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
    }
    let o = arbiter(&[
        "rating",
        "calc",
        "--rating",
        "1922",
        "--k",
        "20",
        "--games",
        "1798:1,abc:0",
    ]);
    assert!(stderr(&o).contains("game 2"), "{}", stderr(&o));
}

// ---------------------------------------------------------------------------------------
// clock

#[test]
fn clock_replay_reports_each_game() {
    let f = data("dgt-livechess-sotra-2023-round1-clk-emt.pgn");
    let o = arbiter_path(&["--json", "clock", "replay", "FILE"], &f);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v = json(&o);
    let games = v["games"].as_array().unwrap();
    assert!(games.len() >= 9, "{}", games.len());
    // game 2 (Solvag - Lonning) ends in checkmate by the Laws, as reported
    let g = &games[1];
    assert_eq!(g["white"], "Solvag, S");
    assert_eq!(g["laws_end"]["termination"], "Checkmate");
    assert_eq!(g["laws_end"]["article"], "5.1.1");
    assert_eq!(g["result_tag"], "0-1");
    assert_eq!(g["result_agrees"], true);
    assert_eq!(g["plies"], g["moves"].as_array().unwrap().len());
    assert!(g["max_deviation_ms"].as_u64().is_some());
    // the human table
    let o = arbiter_path(&["clock", "replay", "FILE"], &f);
    let out = stdout(&o);
    assert!(out.contains("Checkmate (art. 5.1.1)"), "{out}");
    assert!(out.contains("Solvag, S - Lonning, H"), "{out}");
}

/// The Saric - Vachier-Lagrave blitz (lichess pgn-viewer demo) holds an impossible 63. Kd4:
/// the file has an error (exit 1), named by game and ply; the clocks replayed before it agree
/// with the recorded ones to the second under 5+2.
#[test]
fn clock_replay_exits_1_on_an_illegal_move() {
    let f = data("superunited-croatia-2022-saric-mvl-clk.pgn");
    let o = arbiter_path(
        &[
            "--json",
            "clock",
            "replay",
            "FILE",
            "--time-control",
            "300+2",
        ],
        &f,
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("game 1, ply 124: move Kd4 cannot be played"),
        "{}",
        stderr(&o)
    );
    let v = json(&o);
    let g = &v["games"][0];
    assert_eq!(g["time_control_source"], "Override");
    assert_eq!(g["plies"], 124);
    let flagged: BTreeSet<u64> = g["anomalies"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_object()?.values().next()?["ply"].as_u64())
        .collect();
    for m in g["moves"].as_array().unwrap() {
        let ply = m["ply"].as_u64().unwrap();
        if !flagged.contains(&ply) {
            assert!(
                m["deviation_ms"].as_u64().unwrap_or(0) <= 1_000,
                "ply {ply}"
            );
        }
    }
    // usage: an unreadable time control; a file without games
    assert_eq!(
        code(&arbiter_path(
            &["clock", "replay", "FILE", "--time-control", "soon"],
            &f
        )),
        2
    );
    let o = arbiter_path(&["clock", "replay", "FILE"], &data("PROVENANCE.md"));
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("no game found"));
}

// ---------------------------------------------------------------------------------------
// pair

fn pairs(rounds: &Value) -> Vec<(u64, u64)> {
    rounds
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap().clone())
        .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
        .collect()
}

#[test]
fn pair_round_robin_prints_the_berger_schedule() {
    let v = json(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "round-robin",
        "--players",
        "6",
    ]));
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 5);
    // C.05 Annex 1, 5-6 players, round 1: 1-6, 2-5, 3-4
    let r1: Vec<(u64, u64)> = pairs(&serde_json::json!([rounds[0]]));
    assert_eq!(r1, [(1, 6), (2, 5), (3, 4)]);
    // every pair meets once
    let mut met = BTreeSet::new();
    for (w, b) in pairs(&v["rounds"]) {
        assert!(met.insert((w.min(b), w.max(b))));
    }
    assert_eq!(met.len(), 15);

    // odd: the player facing the phantom has the bye
    let v = json(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "round-robin",
        "--players",
        "5",
    ]));
    assert_eq!(v["rounds"][0]["bye"], 1);

    // double: every pair twice, once with each colour
    let v = json(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "double-round-robin",
        "--players",
        "4",
    ]));
    assert_eq!(v["rounds"].as_array().unwrap().len(), 6);
    let all = pairs(&v["rounds"]);
    assert_eq!(all.len(), 12);
    let set: BTreeSet<(u64, u64)> = all.iter().copied().collect();
    assert_eq!(set.len(), 12);
    for (w, b) in &all {
        assert!(set.contains(&(*b, *w)));
    }

    // drawing of lots: reproducible from the seed, a permutation of the players
    let a = stdout(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "round-robin",
        "--players",
        "8",
        "--seed",
        "42",
    ]));
    let b = stdout(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "round-robin",
        "--players",
        "8",
        "--seed",
        "42",
    ]));
    assert_eq!(a, b);
    let v: Value = serde_json::from_str(&a).unwrap();
    let mut numbers: Vec<u64> = v["pairing_numbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_ne!(numbers, (1..=8).collect::<Vec<u64>>());
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<u64>>());
    assert_eq!(v["seed"].as_str().unwrap().len(), 64);

    // human output
    let out = stdout(&arbiter(&[
        "pair",
        "--system",
        "round-robin",
        "--players",
        "4",
    ]));
    assert!(out.contains("Round 3"), "{out}");
    assert!(out.contains("Board  White  Black"), "{out}");
}

/// Seed 000, "Systèmes K.O.": 47 players → (47 − 32) × 2 = 30 play a preliminary round,
/// 17 are exempt.
#[test]
fn pair_knockout_prints_the_bracket() {
    let v = json(&arbiter(&[
        "--json",
        "pair",
        "--system",
        "knockout",
        "--players",
        "47",
    ]));
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds[0]["preliminary"], true);
    assert_eq!(rounds[0]["matches"].as_array().unwrap().len(), 15);
    assert_eq!(rounds[0]["byes"].as_array().unwrap().len(), 17);
    assert_eq!(rounds.len(), 6); // preliminary, 32, 16, 8, 4, final
    assert_eq!(
        rounds.last().unwrap()["matches"].as_array().unwrap().len(),
        1
    );
    let out = stdout(&arbiter(&[
        "pair",
        "--system",
        "knockout",
        "--players",
        "6",
    ]));
    assert!(out.contains("Round 1 (preliminary)"), "{out}");
    assert!(out.contains("seed 3  seed 6"), "{out}");
    assert_eq!(
        code(&arbiter(&[
            "pair",
            "--system",
            "knockout",
            "--players",
            "1"
        ])),
        2
    );
}

#[test]
fn a_swiss_is_paired_from_a_trf_not_from_a_player_count() {
    let o = arbiter(&["pair", "--system", "dutch", "--players", "10"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("give --trf FILE"), "{}", stderr(&o));
    assert_eq!(
        code(&arbiter(&["pair", "--system", "monrad", "--players", "10"])),
        2
    );
}

/// `arbiter … | head`: a reader that stops early is not an error of the command, and the
/// command never panics on it.
#[test]
fn a_closed_stdout_is_not_a_panic() {
    let big = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trf/tests/data/trf/icu-armstrong-2011.trf");
    let big = big.to_str().unwrap();
    for args in [
        vec!["trf", "json", big],
        vec!["trf", "fmt", big],
        vec!["standings", "--trf", big, "--tiebreaks", "BH,SB"],
        vec!["pair", "--system", "round-robin", "--players", "400"],
    ] {
        let mut child = Command::new(binary("arbiter"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away at once
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code(&o), 0, "{args:?}: {err}");
    }
    assert_eq!(
        code(&arbiter(&[
            "pair",
            "--system",
            "knockout",
            "--players",
            "8",
            "--seed",
            "1"
        ])),
        2
    );
}

/// A four-player round robin (record 092): everyone on 2 points except player 4, all
/// mutual games drawn, so SB and DE leave 1–3 tied; lots then decide, reproducibly.
const ROUND_ROBIN: &str = "012 Four\n092 Round Robin\n\
001    1      Alpha, A                          2200                             2.0    1     4 w 1     2 w =     3 b =\n\
001    2      Beta, B                           2100                             2.0    2     3 w =     1 b =     4 w 1\n\
001    3      Gamma, C                          2000                             2.0    3     2 b =     4 b 1     1 w =\n\
001    4      Delta, D                          1900                             0.0    4     1 b 0     3 w 0     2 b 0\n";

#[test]
fn standings_of_a_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_temp(&dir, "rr.trf", ROUND_ROBIN);
    // C.07 (2026) Art. 8 note: no Buchholz in a round robin; a usage error
    let o = arbiter_path(&["standings", "--trf", "FILE", "--tiebreaks", "BH"], &f);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("round robin"), "{}", stderr(&o));
    // ... unless the event is declared a Swiss
    let o = arbiter_path(
        &[
            "standings",
            "--trf",
            "FILE",
            "--tiebreaks",
            "BH",
            "--kind",
            "swiss",
        ],
        &f,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // SB = 2 for each of 1-3 (½ × 2 + ½ × 2 + 1 × 0), DE = 1: they share first place
    let v = json(&arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--tiebreaks",
            "SB,DE",
        ],
        &f,
    ));
    let rows = rows_by_tpn(&v);
    for t in 1..=3 {
        assert_eq!(rows[&t]["rank"], 1);
        assert_eq!(rows[&t]["values"], serde_json::json!(["2", "1"]));
    }
    assert_eq!(rows[&4]["rank"], 4);
    // drawing of lots, reproducible from the seed
    let lots = |seed: &str| {
        json(&arbiter_path(
            &[
                "--json",
                "standings",
                "--trf",
                "FILE",
                "--tiebreaks",
                "SB",
                "--lot-seed",
                seed,
            ],
            &f,
        ))
    };
    let a = lots("77");
    assert_eq!(a, lots("77"));
    assert_eq!(a["lot_seed"], 77);
    let ranks: BTreeSet<u64> = a["rows"].as_array().unwrap()[..3]
        .iter()
        .map(|r| {
            assert_eq!(r["by_lot"], true);
            r["rank"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(ranks, BTreeSet::from([1, 2, 3]));
}

// team standings

/// The Crete friendship cup 2024 (crates/tiebreak/tests/fixtures, see README.md there): a
/// real 15-team, 6-board, 7-round team Swiss with `013` team records, and the organiser's
/// standings (name, wins, draws, losses, MP, GP, EGGSB, BH:MP) as Python tuples.
fn crete(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/tiebreak/tests/fixtures")
        .join(name)
}

/// (name, MP, GP, EGGSB, BH:MP) of each expected tuple, in place order.
fn crete_expected() -> Vec<(String, String, String, String, String)> {
    let text =
        std::fs::read_to_string(crete("heltour-crete-friendship-cup-2024-team.expected")).unwrap();
    let body: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let body = &body[body.find('[').unwrap() + 1..body.rfind(']').unwrap()];
    body.split(')')
        .filter_map(|t| {
            let t = t.trim().trim_start_matches(',').trim().strip_prefix('(')?;
            let f: Vec<&str> = t
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            Some((
                f[0].trim_matches('"').to_string(),
                f[4].to_string(),
                f[5].to_string(),
                f[6].to_string(),
                f[7].to_string(),
            ))
        })
        .collect()
}

#[test]
fn team_standings_of_a_real_team_swiss_reproduce_the_organisers_table() {
    let f = crete("heltour-crete-friendship-cup-2024-team.trf");
    // Played in November 2024: C.07 of 1 August 2024. The file writes one board won by
    // forfeit as a double forfeit and counts it in the points column only.
    let o = arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--teams",
            "--edition",
            "c07-2024",
            "--forfeits-from-points",
        ],
        &f,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("double forfeit read as a forfeit win for player 41"),
        "the inference is reported: {}",
        stderr(&o)
    );
    let v = json(&o);
    // No record 202: this project's default list.
    assert_eq!(
        v["tie_breaks"],
        serde_json::json!(["MPvGP", "EGGSB", "BH:MP"])
    );
    assert_eq!(
        (v["boards"].as_u64(), v["rounds"].as_u64()),
        (Some(6), Some(7))
    );
    let rows = v["rows"].as_array().unwrap();
    let expected = crete_expected();
    assert_eq!(rows.len(), 15);
    assert_eq!(expected.len(), 15);
    for (place, (r, (name, mp, gp, eggsb, bh))) in rows.iter().zip(&expected).enumerate() {
        assert_eq!(
            r["name"].as_str(),
            Some(name.as_str()),
            "place {}",
            place + 1
        );
        assert_eq!(r["rank"].as_u64(), Some(place as u64 + 1), "{name}");
        assert_eq!(
            num(r["match_points"].as_str().unwrap()),
            num(mp),
            "{name} MP"
        );
        assert_eq!(
            num(r["game_points"].as_str().unwrap()),
            num(gp),
            "{name} GP"
        );
        assert_eq!(
            num(r["values"][1].as_str().unwrap()),
            num(eggsb),
            "{name} EGGSB"
        );
        assert_eq!(
            num(r["values"][2].as_str().unwrap()),
            num(bh),
            "{name} BH:MP"
        );
    }
    // Without the option the board stays a double forfeit: the last team has a game point
    // less.
    let v = json(&arbiter_path(
        &[
            "--json",
            "standings",
            "--trf",
            "FILE",
            "--teams",
            "--edition",
            "c07-2024",
        ],
        &f,
    ));
    let last = v["rows"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["name"].as_str(), Some("Α.Σ.ΗΡΟΔΟΤΟΣ"));
    assert_eq!(num(last["game_points"].as_str().unwrap()), num("13.5"));
    // The working of a team's value, by team number.
    let o = arbiter_path(
        &[
            "standings",
            "--trf",
            "FILE",
            "--teams",
            "--tiebreaks",
            "EGGSB",
            "--explain",
            "3",
        ],
        &f,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Team 3 (ΟΑΑΗ): rank 1, 11 match points"),
        "{out}"
    );
    assert!(out.contains("EGGSB = 547.75"), "{out}");
    assert!(out.contains("team 10"), "each round's opponent team: {out}");
}

#[test]
fn team_standings_refuse_what_they_cannot_rank_and_say_why() {
    let individual = data("icu-gonzaga-classic-2008.trf");
    let team = crete("heltour-crete-friendship-cup-2024-team.trf");
    // A file without team records (exit 1, naming the file and the records).
    let o = arbiter_path(&["standings", "--trf", "FILE", "--teams"], &individual);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains(&format!(
            "{}: the file has no team record (013 or 310)",
            individual.display()
        )),
        "{}",
        stderr(&o)
    );
    // A team tie-break in individual standings points at --teams (usage, exit 2).
    let o = arbiter_path(
        &["standings", "--trf", "FILE", "--tiebreaks", "EGGSB"],
        &individual,
    );
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("--teams gives the team standings"),
        "{}",
        stderr(&o)
    );
    // A rating tie-break has no meaning for teams.
    let o = arbiter_path(
        &[
            "standings",
            "--trf",
            "FILE",
            "--teams",
            "--tiebreaks",
            "ARO",
        ],
        &team,
    );
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("not defined for team events"),
        "{}",
        stderr(&o)
    );
    // --explain of a team that does not exist.
    let o = arbiter_path(
        &["standings", "--trf", "FILE", "--teams", "--explain", "99"],
        &team,
    );
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no team has number 99"),
        "{}",
        stderr(&o)
    );
    // The team options need --teams; reading forfeits from the points column needs a file
    // (a tournament on the server has its own record: `--teams` alone asks the server).
    let o = arbiter_path(&["standings", "--trf", "FILE", "--primary", "gp"], &team);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = arbiter(&[
        "standings",
        "some-tournament",
        "--teams",
        "--forfeits-from-points",
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("--forfeits-from-points is for --trf FILE"),
        "{}",
        stderr(&o)
    );
}
