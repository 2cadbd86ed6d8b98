//! The public pages in headless Chromium over WebDriver (issue 44, acceptance): a public
//! twelve-player open, round 1 played and closed, round 2 published. Without a token, at
//! 375 px: the pairing page shows every board with both names, the standings page holds
//! what `GetStandings` answers (read through the API, the same RPC) line by line, no page
//! is wider than the phone, and axe-core (npm, injected into each page) finds no serious
//! or critical violation, in English and French. Screenshots are kept in
//! `target/test-artefacts/http_browser/`. Chromium, chromedriver or axe-core missing
//! fails the test, naming tests/install-deps.sh.
use std::path::{Path, PathBuf};

use arbiter_tests::Arbiter;
use arbiter_tests::http::{WebDriver, get};
use serde_json::{Value, json};

fn artefacts() -> PathBuf {
    let exe = arbiter_tests::binary("arbiter");
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf);
    let dir = target.join("test-artefacts").join("http_browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn axe_source() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../.tools/npm/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "axe-core is missing ({}: {e}): run tests/install-deps.sh (npm install axe-core into .tools/npm)",
            p.display()
        )
    })
}

const PLAYERS: [(&str, &str); 12] = [
    ("Short, Nigel", "2658"),
    ("Baburin, Alex", "2410"),
    ("Ćirić, Dragoljub", "2350"),
    ("O'Brien, \"Tom\"", "2200"),
    ("<b>Bold</b>, Bob", "2100"),
    ("Doyle, Ann", "2050"),
    ("Zeller, Anna", "1990"),
    ("Murphy, Seán", "1900"),
    ("Kelly, Ruth", "1850"),
    ("Byrne, Pat", "1800"),
    ("Walsh, Eoin", "1700"),
    ("Lefèvre, Élodie", "1650"),
];

/// Runs axe-core on the loaded page; returns the serious and critical violations.
fn serious_violations(wd: &WebDriver, axe: &str) -> Vec<Value> {
    wd.execute(&format!("{axe}\n;return typeof axe;"), json!([]));
    let r = wd.execute_async(
        "const done = arguments[arguments.length - 1];\
         axe.run(document, {resultTypes: ['violations']})\
           .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,\
              nodes: v.nodes.map(n => n.html).slice(0, 3)}))))\
           .catch(e => done({error: String(e)}));",
        json!([]),
    );
    assert!(r.get("error").is_none(), "axe failed: {r}");
    r.as_array()
        .unwrap()
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .cloned()
        .collect()
}

#[test]
fn public_pages_in_headless_chromium_at_phone_width_with_axe() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _server, http) = Arbiter::embedded_http(dir.path());
    let created = a.json(&[
        "tournament",
        "create",
        "--name",
        "Page Test Open",
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
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            rating,
            "--federation",
            "IRL",
        ]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    for b in 1..=6 {
        a.ok(&[
            "result",
            "set",
            &id,
            "1",
            &b.to_string(),
            if b % 3 == 0 { "1/2" } else { "1-0" },
        ]);
    }
    a.ok(&["round", "close", &id, "1"]);
    a.ok(&["round", "pair", &id, "2"]);
    a.ok(&["round", "publish", &id, "2"]);
    a.ok(&["access", "public", &id]);

    let axe = axe_source();
    let shots = artefacts();
    let wd = WebDriver::start();
    wd.window(375, 812);
    let base = format!("http://127.0.0.1:{http}");

    // The pairing page of round 2: every board with both names.
    wd.goto(&format!("{base}/t/{id}/rounds/2"));
    let pairing = get(
        http,
        &format!("/api/v1/tournaments/{id}/rounds/2/pairings"),
        &[],
    )
    .json();
    let boards = wd.execute(
        "return [...document.querySelectorAll('tr.board')].map(r => ({\
            board: Number(r.dataset.board),\
            white: r.querySelector('td.white a')?.textContent ?? '',\
            black: r.querySelector('td.black a')?.textContent ?? ''}));",
        json!([]),
    );
    let boards = boards.as_array().unwrap();
    assert_eq!(
        boards.len(),
        pairing["boards"].as_array().unwrap().len(),
        "{boards:?}"
    );
    assert_eq!(boards.len(), 6);
    let names: Vec<&str> = PLAYERS.iter().map(|p| p.0).collect();
    for b in boards {
        for side in ["white", "black"] {
            let n = b[side].as_str().unwrap();
            assert!(names.contains(&n), "board {}: {side} is {n:?}", b["board"]);
        }
    }
    let bold = wd.execute(
        "return document.querySelectorAll('main b').length;",
        json!([]),
    );
    assert_eq!(bold, 0, "a name's markup became markup");

    // The standings page holds GetStandings' answer, line by line.
    wd.goto(&format!("{base}/t/{id}/standings"));
    let shown = wd.execute(
        "return [...document.querySelectorAll('#standings tbody tr')].map(r => ({\
            tpn: Number(r.dataset.tpn),\
            rank: r.querySelector('td.rank').textContent,\
            name: r.querySelector('th.name a').textContent,\
            points: r.querySelector('td.points').textContent,\
            tiebreaks: [...r.querySelectorAll('td.tb')].map(c => c.textContent)}));",
        json!([]),
    );
    let api = get(http, &format!("/api/v1/tournaments/{id}/standings"), &[]).json();
    let expected: Vec<Value> = api["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!({
                "tpn": r["tpn"],
                "rank": format!("{}{}", r["rank"], if r["shared"].as_bool().unwrap() { "=" } else { "" }),
                "name": r["name"],
                "points": r["points"],
                "tiebreaks": r["tiebreaks"],
            })
        })
        .collect();
    assert_eq!(shown, Value::Array(expected));

    // Every page at 375 px: no wider than the phone, no serious accessibility violation.
    for (name, path) in [
        ("list", "/".to_owned()),
        ("tournament", format!("/t/{id}")),
        ("round-2", format!("/t/{id}/rounds/2")),
        ("round-1-by-name", format!("/t/{id}/rounds/1/by-name")),
        ("standings", format!("/t/{id}/standings")),
        ("crosstable", format!("/t/{id}/crosstable")),
        ("player-1", format!("/t/{id}/players/1")),
        ("round-2-fr", format!("/t/{id}/rounds/2?lang=fr")),
        ("standings-fr", format!("/t/{id}/standings?lang=fr")),
    ] {
        wd.goto(&format!("{base}{path}"));
        let widths = wd.execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            json!([]),
        );
        let (page, view) = (widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap());
        assert!(
            page <= view,
            "{name}: the page is {page} px wide at a {view} px window"
        );
        wd.screenshot(&shots.join(format!("{name}-375.png")));
        let v = serious_violations(&wd, &axe);
        assert!(
            v.is_empty(),
            "{name}: axe-core: {}",
            serde_json::to_string_pretty(&v).unwrap()
        );
    }
    wd.window(1280, 900);
    wd.goto(&format!("{base}/t/{id}/crosstable"));
    wd.screenshot(&shots.join("crosstable-1280.png"));
    println!("screenshots kept in {}", shots.display());
}
