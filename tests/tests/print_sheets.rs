//! Names first and printable sheets through the real binaries (`arbiterd` + `arbiter`),
//! and the HTML pages in headless Chromium (issue 42, deliverables 1 and 3): an 11-player
//! open (one name that is markup, a pairing-allocated bye, a half-point bye, a withdrawal)
//! paired and played over two rounds; the human pairing lists every board with both names
//! and the unpaired with their kind, the history reads as words, the impact's rating lines
//! and the audit export name the players; the HTML pairing and standings pages are loaded
//! in Chromium (`--dump-dom`, `--screenshot`), whose DOM must hold every board and every
//! player. Chromium missing fails the test (install it with tests/install-deps.sh).
use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_tests::{Arbiter, Proc, binary, output_text, start_arbiterd};

const HOSTILE: &str = "<script>alert(1)</script>";

const PLAYERS: [(&str, &str, u32, &str, &str); 11] = [
    ("Short, Nigel", "GM", 2658, "ENG", "m"),
    ("Baburin, Alex", "GM", 2410, "IRL", "m"),
    ("Ćirić, Dragoljub", "IM", 2350, "SRB", "m"),
    ("O'Brien, \"Tom\"", "", 2200, "IRL", "m"),
    (HOSTILE, "", 2100, "IRL", "w"),
    ("Doyle, Ann", "WIM", 2050, "IRL", "w"),
    ("Zeller, Anna", "", 1990, "AUT", "w"),
    ("Murphy, Seán", "", 1900, "IRL", "m"),
    ("Kelly, Ruth", "", 1850, "IRL", "w"),
    ("Byrne, Pat", "", 1800, "IRL", "m"),
    ("Walsh, Eoin", "", 1700, "IRL", "m"),
];

fn start(data: &Path, port: u16) -> Proc {
    start_arbiterd(data, port, |_| {})
}

/// `&`, `<`, `>` as a DOM serialiser writes them in text.
fn dom_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn artefacts() -> PathBuf {
    let exe = binary("arbiter");
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
    let dir = target.join("test-artefacts").join("print_sheets");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser"] {
        for dir in std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default()
        {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "chromium is not installed: this test loads the HTML pages in headless Chromium; \
         run tests/install-deps.sh (as root it runs `apt-get install -y chromium`)"
    );
}

/// Headless Chromium on `page` with the flags that keep it off the network; `extra` adds
/// `--dump-dom` or `--screenshot=…`. Returns stdout.
fn headless(page: &Path, profile: &Path, extra: &[&str]) -> String {
    let o = Command::new("timeout")
        .arg("300")
        .arg(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        o.status.success(),
        "chromium on {}: {}",
        page.display(),
        output_text(&o)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn screenshot(page: &Path, profile: &Path, png: &Path, size: &str) {
    let _ = std::fs::remove_file(png);
    headless(
        page,
        profile,
        &[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={size}"),
        ],
    );
    let bytes = std::fs::read(png).unwrap_or_default();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 5_000,
        "no screenshot of {} at {} ({} bytes)",
        page.display(),
        png.display(),
        bytes.len()
    );
    println!("screenshot kept: {}", png.display());
}

/// Sets up the tournament and plays round 1; returns its id.
fn open(a: &Arbiter) -> String {
    let created = a.json(&[
        "tournament",
        "create",
        "--name",
        "Print & Post Open",
        "--rounds",
        "5",
        "--federation",
        "IRL",
        "--start",
        "2026-02-20",
        "--end",
        "2026-02-22",
    ]);
    let id = created["tournament_id"].as_str().unwrap().to_owned();
    for (name, title, rating, fed, sex) in PLAYERS {
        let rating = rating.to_string();
        let mut args = vec![
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating,
            "--federation",
            fed,
            "--sex",
            sex,
        ];
        if !title.is_empty() {
            args.extend(["--title", title]);
        }
        if name == HOSTILE {
            args.extend(["--birth", "2012/05/01"]);
        }
        a.ok(&args);
    }
    id
}

fn names_in(line: &str) -> usize {
    PLAYERS.iter().filter(|p| line.contains(p.0)).count()
}

#[test]
fn names_first_and_printed_sheets_checked_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _server = start(&a.data, a.port);
    let id = open(&a);

    // Round 1: 11 players, five boards and the pairing-allocated bye.
    let paired = a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    let shown = a.ok(&["round", "show", &id, "1"]);
    let r1 = a.json(&["round", "show", &id, "1"]);
    let boards = r1["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 5, "{r1}");
    for b in boards {
        let n = b["board"].as_u64().unwrap();
        let line = shown
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&n.to_string()))
            .unwrap_or_else(|| panic!("board {n} missing: {shown}"));
        assert_eq!(names_in(line), 2, "board {n} without both names: {line}");
    }
    assert!(
        !shown.contains(r1["boards"][0]["white"].as_str().unwrap()),
        "ids stay in --json: {shown}"
    );
    let bye_line = shown
        .lines()
        .find(|l| l.contains("pairing-allocated bye"))
        .unwrap_or_else(|| panic!("no bye line: {shown}"));
    assert_eq!(names_in(bye_line), 1, "{bye_line}");
    assert!(paired.contains("Round 1 pairings"), "{paired}");
    assert_eq!(
        paired.lines().filter(|l| names_in(l) == 2).count(),
        5,
        "round pair prints the boards with names: {paired}"
    );

    for b in 1..=5 {
        a.ok(&["result", "set", &id, "1", &b.to_string(), "1-0"]);
    }
    a.ok(&["round", "close", &id, "1"]);

    // Round 2: a withdrawal and a half-point bye, both listed with their kind.
    a.ok(&["player", "withdraw", &id, "11", "--from-round", "2"]);
    a.ok(&["player", "bye", &id, "9", "--round", "2"]);
    a.ok(&["round", "pair", &id, "2"]);
    a.ok(&["round", "publish", &id, "2"]);
    let shown = a.ok(&["round", "show", &id, "2"]);
    let walsh = shown.lines().find(|l| l.contains("Walsh, Eoin")).unwrap();
    assert!(walsh.ends_with("withdrawn"), "{shown}");
    let kelly = shown.lines().find(|l| l.contains("Kelly, Ruth")).unwrap();
    assert!(kelly.ends_with("half-point bye"), "{shown}");
    // Points before round 2 beside the names: the five winners have 1.
    let r2 = a.json(&["round", "show", &id, "2"]);
    let r2_boards = r2["boards"].as_array().unwrap().len();
    let results_sheet = a.ok(&["result", "show", &id, "2"]);
    assert!(results_sheet.contains("Round 2 results"), "{results_sheet}");
    for b in 1..=r2_boards {
        a.ok(&["result", "set", &id, "2", &b.to_string(), "1/2"]);
    }
    a.ok(&["round", "close", &id, "2"]);

    // The impact of a correction names the players of its rating lines.
    let corrected = a.ok(&[
        "result",
        "correct",
        &id,
        "1",
        "1",
        "0-1",
        "--was",
        "1-0",
        "--reason",
        "sheet says 0-1",
    ]);
    let rating_lines: Vec<&str> = corrected
        .lines()
        .filter(|l| l.starts_with("rating:"))
        .collect();
    assert!(!rating_lines.is_empty(), "{corrected}");
    for l in &rating_lines {
        assert_eq!(names_in(l), 2, "rating line without names: {l}");
    }

    // The whole history reads as words: no debug dumps, the players named.
    let history = a.ok(&["result", "history", &id]);
    assert!(
        !history.contains('{') && !history.contains("Some("),
        "{history}"
    );
    for needle in [
        "player entered: Short, Nigel, GM, 2658, ENG",
        "player withdrawn: Walsh, Eoin (11) from round 2",
        "bye requested: half-point bye for Kelly, Ruth (9) in round 2",
        "tournament created: Print & Post Open, 5 rounds",
    ] {
        assert!(history.contains(needle), "{needle:?} not in {history}");
    }
    let recorded = history
        .lines()
        .find(|l| l.contains("ResultRecorded"))
        .unwrap();
    assert_eq!(names_in(recorded), 2, "{recorded}");

    // The audit export: names beside the ids.
    let audit = a.ok(&["audit", "export", &id]);
    let line: serde_json::Value = audit
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["type"] == "PlayerWithdrawn")
        .unwrap();
    assert_eq!(line["players"][0]["name"], "Walsh, Eoin", "{line}");
    assert_eq!(line["players"][0]["tpn"], 11, "{line}");
    assert!(line["players"][0]["id"].as_str().unwrap().len() > 30);

    // Printed sheets: HTML pages, checked in Chromium; CSV and the wall list.
    let out = artefacts();
    let pairings = out.join("pairings-round-2.html");
    let standings = out.join("standings.html");
    let crosstable = out.join("crosstable.html");
    for (args, file) in [
        (vec!["print", "pairings", &id, "2"], &pairings),
        (vec!["print", "standings", &id], &standings),
        (vec!["print", "crosstable", &id], &crosstable),
    ] {
        let mut args = args.clone();
        args.extend(["--format", "html", "--output", file.to_str().unwrap()]);
        a.ok(&args);
    }
    let html = std::fs::read_to_string(&pairings).unwrap();
    assert!(html.contains("@media print"), "{html}");
    assert!(!html.contains(HOSTILE), "the name must be escaped: {html}");

    let profile = dir.path().join("chromium-profile");
    let dom = headless(&pairings, &profile, &["--dump-dom"]);
    for b in 1..=r2_boards {
        assert!(
            dom.contains(&format!("<tr class=\"board\" data-board=\"{b}\">")),
            "board {b} not in the DOM: {dom}"
        );
    }
    assert_eq!(
        dom.matches("<tr class=\"board\"").count(),
        r2_boards,
        "{dom}"
    );
    for p in PLAYERS {
        assert!(
            dom.contains(&dom_text(p.0)),
            "{} not in the pairing DOM: {dom}",
            p.0
        );
    }
    assert!(
        !dom.contains("<script>"),
        "a name became a script element: {dom}"
    );
    screenshot(
        &pairings,
        &profile,
        &out.join("pairings-round-2.png"),
        "1280,900",
    );

    let dom = headless(&standings, &profile, &["--dump-dom"]);
    assert_eq!(
        dom.matches("<tr class=\"player\"").count(),
        PLAYERS.len(),
        "{dom}"
    );
    for p in PLAYERS {
        assert!(
            dom.contains(&dom_text(p.0)),
            "{} not in the standings DOM: {dom}",
            p.0
        );
    }
    assert!(dom.contains("Standings after round 2"), "{dom}");
    assert!(!dom.contains("<script>"), "{dom}");
    screenshot(
        &standings,
        &profile,
        &out.join("standings.png"),
        "1280,1000",
    );

    let dom = headless(&crosstable, &profile, &["--dump-dom"]);
    assert_eq!(
        dom.matches("<td class=\"cell\" data-round=\"2\">").count(),
        PLAYERS.len(),
        "{dom}"
    );

    // The wall list as a page: every player once.
    let wall_page = out.join("pairings-round-2-by-name.html");
    a.ok(&[
        "print",
        "pairings",
        &id,
        "2",
        "--by",
        "name",
        "--format",
        "html",
        "--output",
        wall_page.to_str().unwrap(),
    ]);
    let dom = headless(&wall_page, &profile, &["--dump-dom"]);
    assert_eq!(
        dom.matches("<tr class=\"player\"").count(),
        PLAYERS.len(),
        "{dom}"
    );

    // The wall list and CSV: every player once, alphabetically.
    let wall = a.ok(&["print", "pairings", &id, "2", "--by", "name"]);
    let order: Vec<usize> = PLAYERS
        .iter()
        .map(|p| {
            wall.find(p.0)
                .unwrap_or_else(|| panic!("{} not in {wall}", p.0))
        })
        .collect();
    assert!(order.iter().all(|&i| i > 0));
    let baburin = wall.find("Baburin, Alex").unwrap();
    let zeller = wall.find("Zeller, Anna").unwrap();
    assert!(baburin < zeller, "{wall}");
    let csv = a.ok(&["print", "standings", &id, "--format", "csv"]);
    assert_eq!(csv.lines().count(), PLAYERS.len() + 1, "{csv}");
    assert!(csv.contains("\"O'Brien, \"\"Tom\"\"\""), "{csv}");

    // Categories: the women's list and an age group (needs the tournament's year).
    let w = a.ok(&[
        "print",
        "standings",
        &id,
        "--category",
        "W",
        "--category",
        "U16",
    ]);
    assert!(w.contains("Category W (4 player(s))"), "{w}");
    assert!(w.contains("Category U16 (1 player(s))"), "{w}");

    // A results-entry helper may not list the players: the names come from the
    // standings (no titles), with a note, and the pairing still prints.
    a.ok(&["access", "add", "Hugo Helper"]);
    a.ok(&[
        "access",
        "grant",
        "Hugo Helper",
        "--role",
        "results-entry",
        "--tournament",
        &id,
    ]);
    let token: serde_json::Value = a.json(&["access", "token", "Hugo Helper", "--expires", "1d"]);
    let o = Command::new(binary("arbiter"))
        .args(["round", "show", &id, "2"])
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_TOKEN", token["token"].as_str().unwrap())
        .env_remove("ARBITER_DATA_DIR")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = output_text(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("note: names from the standings"), "{text}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        stdout.lines().filter(|l| names_in(l) == 2).count(),
        r2_boards,
        "{stdout}"
    );

    // Bad flags are refused before the server is asked, naming the flag; no file written.
    let bad = out.join("never.html");
    let o = a.run(&[
        "print",
        "standings",
        &id,
        "--category",
        "U180",
        "--output",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert!(
        output_text(&o).contains("--category \"U180\""),
        "{}",
        output_text(&o)
    );
    assert!(!bad.exists());
    let o = a.run(&["print", "standings", &id, "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert!(output_text(&o).contains("--format text|csv|html"));
    let o = a.run(&["print", "pairings", &id, "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        output_text(&o).contains("--format: \"pdf\" is not a format: text, csv or html"),
        "{}",
        output_text(&o)
    );
}
