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

/// Issue 44's acceptance: "a live board updates when a move is sent". A public event,
/// round 1 published, board 1 on a clock: the live page at 375 px shows the clock's
/// first move; a move sent by the board's device appears without a reload, the running
/// clock changes sides; board 2 has no clock and says so; axe-core finds no serious
/// violation on the live page.
#[test]
fn a_live_board_updates_when_a_move_is_sent() {
    use arbiter_proto::v1::clock_service_client::ClockServiceClient;
    use arbiter_proto::v1::telemetry::Item;
    use arbiter_proto::v1::{ClockStartedIn, CommandMeta, MoveIn, OpenBoardRequest, Telemetry};
    use tonic::codegen::tokio_stream::wrappers::ReceiverStream;

    let dir = tempfile::tempdir().unwrap();
    let (a, _server, http) = Arbiter::embedded_http(dir.path());
    let created = a.json(&[
        "tournament",
        "create",
        "--name",
        "Live Open",
        "--rounds",
        "3",
    ]);
    let id = created["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in &PLAYERS[..4] {
        a.ok(&["player", "add", &id, "--name", name, "--rating", rating]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    a.ok(&["access", "public", &id]);

    let token = std::fs::read_to_string(a.data.join("admin.token")).unwrap();
    let token = token
        .lines()
        .find_map(|l| l.strip_prefix("admin "))
        .unwrap()
        .trim()
        .to_owned();
    fn authed<T>(token: &str, body: T) -> tonic::Request<T> {
        let mut r = tonic::Request::new(body);
        r.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        r
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, mut replies) = rt.block_on(async {
        let mut clock = ClockServiceClient::connect(format!("http://127.0.0.1:{}", a.port))
            .await
            .unwrap();
        clock
            .open_board(authed(
                &token,
                OpenBoardRequest {
                    meta: Some(CommandMeta {
                        command_id: "open-1".into(),
                        ..Default::default()
                    }),
                    tournament_id: id.clone(),
                    board: 1,
                    round: 1,
                    time_control: "5400+30".into(),
                    laws_edition: "2023".into(),
                    ..Default::default()
                },
            ))
            .await
            .unwrap();
        let (tx, items) = tokio::sync::mpsc::channel(16);
        let replies = clock
            .board_telemetry(authed(&token, ReceiverStream::new(items)))
            .await
            .unwrap()
            .into_inner();
        (tx, replies)
    });
    let mut seq = 0;
    let mut send = |item: Item| {
        seq += 1;
        let t = Telemetry {
            tournament_id: id.clone(),
            board: 1,
            device_id: "dgt-1".into(),
            seq,
            item: Some(item),
            ..Default::default()
        };
        rt.block_on(async {
            tx.send(t).await.unwrap();
            let r = replies.message().await.unwrap().unwrap();
            assert!(
                matches!(
                    r.outcome,
                    Some(arbiter_proto::v1::telemetry_reply::Outcome::Accepted(_))
                ),
                "{r:?}"
            );
        });
    };
    let mv = |san: &str| {
        Item::Move(MoveIn {
            san: san.as_bytes().to_vec(),
            uci: String::new(),
        })
    };
    send(Item::ClockStarted(ClockStartedIn {}));
    send(mv("e4"));

    let axe = axe_source();
    let shots = artefacts();
    let wd = WebDriver::start();
    wd.window(375, 812);
    wd.goto(&format!("http://127.0.0.1:{http}/t/{id}/rounds/1/live"));
    let row = |wd: &WebDriver| {
        wd.execute(
            "return [...document.querySelectorAll('tr.live-board')].map(r => ({\
                board: Number(r.dataset.board), moves: r.dataset.moves, running: r.dataset.running,\
                last: r.querySelector('.last-move')?.textContent ?? '',\
                white: r.querySelector('.white-clock').textContent,\
                black: r.querySelector('.black-clock').textContent}));",
            json!([]),
        )
    };
    let first = row(&wd);
    assert_eq!(first[0]["moves"], "1", "{first}");
    assert_eq!(first[0]["last"], "1. e4", "{first}");
    assert_eq!(first[0]["running"], "black", "{first}");
    assert_eq!(first[1]["board"], 2);
    assert!(
        first[1]["white"].as_str().unwrap().contains("no clock"),
        "{first}"
    );
    // Connected to the stream before the next move.
    let mut connected = false;
    for _ in 0..100 {
        let s = wd.execute(
            "return document.getElementById('live-status').textContent;",
            json!([]),
        );
        if s.as_str().unwrap().starts_with("Live:") {
            connected = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(connected, "the page did not connect to its live stream");

    send(mv("e5"));
    let mut shown = Value::Null;
    for _ in 0..100 {
        shown = row(&wd);
        if shown[0]["moves"] == "2" {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        shown[0]["moves"], "2",
        "the move did not reach the page: {shown}"
    );
    assert_eq!(shown[0]["last"], "1… e5", "{shown}");
    assert_eq!(shown[0]["running"], "white", "{shown}");
    let widths = wd.execute(
        "return [document.documentElement.scrollWidth, window.innerWidth];",
        json!([]),
    );
    assert!(
        widths[0].as_u64().unwrap() <= widths[1].as_u64().unwrap(),
        "the live page is wider than the phone: {widths}"
    );
    wd.screenshot(&shots.join("live-375.png"));
    let v = serious_violations(&wd, &axe);
    assert!(
        v.is_empty(),
        "live: axe-core: {}",
        serde_json::to_string_pretty(&v).unwrap()
    );
}
