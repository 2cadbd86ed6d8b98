//! arbiterd's HTTP listener through the real binaries (issue 44, deliverables 1–3): a
//! six-player open, round 1 played and closed, round 2 paired and published. Before the
//! tournament is public nothing of it is readable without a token, pages and API alike;
//! once public, the pages (list, tournament with its QR code, round by board and by name,
//! standings, crosstable, player card) answer without one, in English and French, with
//! nothing personal on them; the JSON API answers every path its OpenAPI document names,
//! with ETags, paging and problem+json errors mapped from the gRPC codes.
use arbiter_tests::Arbiter;
use arbiter_tests::http::{Answer, get, request};

const HOSTILE: &str = "<script>alert(1)</script>";

struct Open {
    a: Arbiter,
    http: u16,
    id: String,
    token: String,
    _server: arbiter_tests::Proc,
    _dir: tempfile::TempDir,
}

fn open() -> Open {
    let dir = tempfile::tempdir().unwrap();
    let (a, server, http) = Arbiter::embedded_http(dir.path());
    let created = a.json(&[
        "tournament",
        "create",
        "--name",
        "Ennis Open",
        "--rounds",
        "5",
        "--federation",
        "IRL",
        "--start",
        "2026-02-20",
        "--end",
        "2026-02-22",
        "--chief-arbiter",
        "IA Murphy, Sean",
    ]);
    let id = created["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating, extra) in [
        ("Short, Nigel", "2658", vec!["--title", "GM"]),
        ("Baburin, Alex", "2410", vec!["--title", "GM"]),
        ("Ćirić, Dragoljub", "2350", vec![]),
        (HOSTILE, "2100", vec!["--birth", "2012/05/01"]),
        ("Doyle, Ann", "2050", vec!["--club", "Secret Chess Club"]),
        ("Zeller, Anna", "1990", vec![]),
    ] {
        let mut args = vec![
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            rating,
            "--federation",
            "IRL",
        ];
        args.extend(extra);
        a.ok(&args);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    for (b, r) in [(1, "1-0"), (2, "1/2"), (3, "0-1")] {
        a.ok(&["result", "set", &id, "1", &b.to_string(), r]);
    }
    a.ok(&["round", "close", &id, "1"]);
    a.ok(&["round", "pair", &id, "2"]);
    a.ok(&["round", "publish", &id, "2"]);
    let token =
        arbiter_service_kit::auth::Auth::read_token(&a.data.join("admin.token"), "admin").unwrap();
    Open {
        a,
        http,
        id,
        token,
        _server: server,
        _dir: dir,
    }
}

fn problem(a: &Answer, status: u16, code: &str) -> serde_json::Value {
    assert_eq!(a.status, status, "{}", a.text());
    assert_eq!(
        a.header("content-type"),
        Some("application/problem+json"),
        "{}",
        a.text()
    );
    let p = a.json();
    assert_eq!(p["status"], status, "{p}");
    assert_eq!(p["code"], code, "{p}");
    assert!(!p["detail"].as_str().unwrap().is_empty(), "{p}");
    p
}

fn names() -> [&'static str; 6] {
    [
        "Short, Nigel",
        "Baburin, Alex",
        "Ćirić, Dragoljub",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "Doyle, Ann",
        "Zeller, Anna",
    ]
}

#[test]
fn pages_and_the_json_api_over_http() {
    let o = open();
    let (http, id) = (o.http, o.id.as_str());
    let bearer = format!("Bearer {}", o.token);
    let admin = [("Authorization", bearer.as_str())];

    // Not public yet: nothing without a token, pages and API alike.
    for path in [
        format!("/t/{id}"),
        format!("/t/{id}/rounds/1"),
        format!("/t/{id}/standings"),
        format!("/t/{id}/qr.svg"),
    ] {
        let a = get(http, &path, &[]);
        assert_eq!(a.status, 401, "{path}: {}", a.text());
        assert!(a.header("www-authenticate").is_some(), "{path}");
        assert!(!a.text().contains("Short, Nigel"), "{path}");
    }
    let p = problem(
        &get(
            http,
            &format!("/api/v1/tournaments/{id}/rounds/1/pairings"),
            &[],
        ),
        401,
        "UNAUTHENTICATED",
    );
    assert_eq!(p["field"], "authorization", "{p}");
    assert!(
        p["detail"].as_str().unwrap().contains("is not public"),
        "{p}"
    );
    let list = get(http, "/", &[]);
    assert_eq!(list.status, 200);
    assert!(
        !list.text().contains("Ennis Open"),
        "a private tournament is listed"
    );
    // With the admin token the pages answer.
    let page = get(http, &format!("/t/{id}/rounds/1"), &admin);
    assert_eq!(page.status, 200, "{}", page.text());
    let bad = get(http, "/", &[("Authorization", "Bearer arb_nonsense")]);
    assert_eq!(bad.status, 401, "{}", bad.text());

    o.a.ok(&["access", "public", id]);

    // Public: the list, the tournament with its QR code.
    let list = get(http, "/", &[]).text();
    assert!(
        list.contains("Ennis Open") && list.contains(&format!("/t/{id}")),
        "{list}"
    );
    let home = get(http, &format!("/t/{id}"), &[]);
    assert_eq!(home.status, 200, "{}", home.text());
    let home = home.text();
    assert!(home.contains("IA Murphy, Sean"), "{home}");
    assert!(
        home.contains(&format!("http://127.0.0.1:{http}/t/{id}")),
        "{home}"
    );
    assert!(
        home.contains(&format!("/t/{id}/rounds/1")) && home.contains(&format!("/t/{id}/rounds/2"))
    );
    let qr = get(http, &format!("/t/{id}/qr.svg"), &[]);
    assert_eq!(qr.header("content-type"), Some("image/svg+xml"));
    assert!(qr.text().contains("<svg"), "{}", qr.text());

    // Round 1 by board: every board with both names and its result; by name: everyone.
    let pairing = get(
        http,
        &format!("/api/v1/tournaments/{id}/rounds/1/pairings"),
        &[],
    )
    .json();
    let boards = pairing["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3, "{pairing}");
    let round1 = get(http, &format!("/t/{id}/rounds/1"), &[]).text();
    assert_eq!(round1.matches("<tr class=\"board\"").count(), 3, "{round1}");
    for b in 1..=3 {
        let row_start = round1.find(&format!("data-board=\"{b}\"")).unwrap();
        let row = &round1[row_start..row_start + round1[row_start..].find("</tr>").unwrap()];
        assert_eq!(
            names().iter().filter(|n| row.contains(*n)).count(),
            2,
            "board {b}: {row}"
        );
    }
    assert!(
        round1.contains("1-0") && round1.contains("½-½") && round1.contains("0-1"),
        "{round1}"
    );
    assert!(!round1.contains(HOSTILE), "markup from data: {round1}");
    let wall = get(http, &format!("/t/{id}/rounds/2/by-name"), &[]).text();
    assert_eq!(wall.matches("<tr class=\"player\"").count(), 6, "{wall}");
    for n in names() {
        assert!(wall.contains(n), "{n} missing from the wall list");
    }

    // The standings page is GetStandings: the API's answer (the same RPC), line by line.
    let api = get(http, &format!("/api/v1/tournaments/{id}/standings"), &[]).json();
    let page = get(http, &format!("/t/{id}/standings"), &[]).text();
    let rows = api["items"].as_array().unwrap();
    assert_eq!(rows.len(), 6, "{api}");
    assert_eq!(page.matches("<tr class=\"player\"").count(), 6);
    let mut at = 0;
    for r in rows {
        let tpn = r["tpn"].as_u64().unwrap();
        let start = page[at..]
            .find(&format!("<tr class=\"player\" data-tpn=\"{tpn}\">"))
            .map(|i| i + at)
            .unwrap_or_else(|| panic!("tpn {tpn} not next in the page: {page}"));
        let row = &page[start..start + page[start..].find("</tr>").unwrap()];
        let rank = format!(
            ">{}{}<",
            r["rank"],
            if r["shared"].as_bool().unwrap() {
                "="
            } else {
                ""
            }
        );
        assert!(row.contains(&rank), "{rank} in {row}");
        assert!(
            row.contains(&format!(
                "class=\"num points\">{}<",
                r["points"].as_str().unwrap()
            )),
            "{row}"
        );
        for v in r["tiebreaks"].as_array().unwrap() {
            assert!(
                row.contains(&format!(">{}<", v.as_str().unwrap())),
                "{v} in {row}"
            );
        }
        at = start + 1;
    }
    for tb in api["tiebreaks"].as_array().unwrap() {
        assert!(page.contains(tb.as_str().unwrap()), "{tb}");
    }
    let ct = get(http, &format!("/t/{id}/crosstable"), &[]).text();
    assert_eq!(
        ct.matches("<td class=\"cell\" data-round=\"1\">").count(),
        6,
        "{ct}"
    );
    let card = get(http, &format!("/t/{id}/players/1"), &[]).text();
    assert!(
        card.contains("Short, Nigel") && card.contains("data-round=\"1\""),
        "{card}"
    );
    // A page's error is a page, with the status and the services' words.
    let zero = get(http, &format!("/t/{id}/players/0"), &[]);
    assert_eq!(zero.status, 400);
    assert!(
        zero.text()
            .contains("tpn: &quot;0&quot;: a number from 1 to 9999"),
        "{}",
        zero.text()
    );
    assert_eq!(get(http, &format!("/t/{id}/players/77"), &[]).status, 404);

    // Nothing personal on any page (birth date, club).
    for page in [&list, &home, &round1, &wall, &page, &ct, &card] {
        assert!(!page.contains("2012/05/01") && !page.contains("Secret Chess Club"));
    }

    // French: by the query (kept in the links) or by Accept-Language.
    let fr = get(http, &format!("/t/{id}/standings?lang=fr"), &[]).text();
    assert!(
        fr.contains("<html lang=\"fr\">") && fr.contains("Classement"),
        "{fr}"
    );
    assert!(fr.contains(&format!("/t/{id}/players/1?lang=fr")));
    let fr = get(
        http,
        &format!("/t/{id}/rounds/1"),
        &[("Accept-Language", "fr-FR,en;q=0.5")],
    )
    .text();
    assert!(fr.contains("Appariements et résultats, ronde 1"), "{fr}");
    let odd = get(http, &format!("/t/{id}?color=red"), &[]);
    assert_eq!(odd.status, 400);
    assert!(
        odd.text().contains("color: unknown query parameter"),
        "{}",
        odd.text()
    );

    // GetTournament is public on a public tournament (the table: "if public").
    let heading = get(http, &format!("/api/v1/tournaments/{id}"), &[]);
    assert_eq!(heading.status, 200, "{}", heading.text());
    assert_eq!(heading.json()["name"], "Ennis Open", "{}", heading.text());

    // Every path of the OpenAPI document answers (with the admin token).
    let doc = get(http, "/api/v1/openapi.json", &[]).json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{doc}");
    validate_openapi(&doc);
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 8, "{doc}");
    for p in paths.keys() {
        if p.starts_with("/api/v1/webhooks") {
            // writes and reads of registrations: exercised by tests/tests/webhooks.rs
            continue;
        }
        if p.starts_with("/api/v1/rating/") || p.ends_with("/rating-report") {
            // a period's reads and a rated tournament's report: exercised (each path of
            // the document) by tests/tests/http_rating.rs
            continue;
        }
        if doc["paths"][p].get("get").is_none() {
            // A write only (the TRF import): exercised below.
            continue;
        }
        let path = p.replace("{id}", id).replace("{round}", "1");
        if path.ends_with("/export") {
            let a = get(http, &path, &admin);
            assert_eq!(a.status, 200, "{path}: {}", a.text());
            assert_eq!(a.header("content-type"), Some("text/plain; charset=utf-8"));
            assert!(a.text().contains("012 Ennis Open"), "{}", a.text());
            continue;
        }
        if path.ends_with("/events") {
            // Server-sent events from the first position, three of them; then resumed
            // after the second by Last-Event-ID: the third again, nothing twice.
            let a = get(http, &format!("{path}?from_position=1&limit=3"), &admin);
            assert_eq!(a.status, 200, "{path}: {}", a.text());
            assert_eq!(a.header("content-type"), Some("text/event-stream"));
            let ids: Vec<String> = a
                .text()
                .lines()
                .filter_map(|l| l.strip_prefix("id: ").map(str::to_owned))
                .collect();
            assert_eq!(ids.len(), 3, "{}", a.text());
            assert!(
                a.text().contains("event: TournamentCreated"),
                "{}",
                a.text()
            );
            let b = get(
                http,
                &format!("{path}?limit=1"),
                &[admin[0], ("Last-Event-ID", &ids[1])],
            );
            let text = b.text();
            let again: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("id: "))
                .collect();
            assert_eq!(again, [ids[2].as_str()], "{text}");
            problem(&get(http, &path, &[]), 401, "UNAUTHENTICATED");
            let p = problem(
                &get(http, &path, &[admin[0], ("Last-Event-ID", "x")]),
                400,
                "INVALID_ARGUMENT",
            );
            assert_eq!(p["field"], "Last-Event-ID");
            continue;
        }
        if path.ends_with("/live") {
            // A round's live boards (SSE): no clock in this event, so nothing to send;
            // exercised with clocks by tests/tests/clock_to_results.rs and in Chromium
            // by tests/tests/http_browser.rs. A round not paired is refused before any
            // stream opens:
            let a = get(http, &p.replace("{id}", id).replace("{round}", "9"), &admin);
            assert!(a.status == 400 || a.status == 404, "{path}: {}", a.text());
            continue;
        }
        if path.ends_with("/pgn") {
            // No clock in this event: every board of the round with its tags and result;
            // the games with clock moves: tests/tests/clock_to_results.rs.
            let a = get(http, &path, &admin);
            assert_eq!(a.status, 200, "{path}: {}", a.text());
            assert_eq!(
                a.header("content-type"),
                Some("application/x-chess-pgn; charset=utf-8")
            );
            let text = a.text();
            assert_eq!(text.matches("[Event \"Ennis Open\"]").count(), 3, "{text}");
            assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
            continue;
        }
        let a = get(http, &path, &admin);
        assert_eq!(a.status, 200, "{path}: {}", a.text());
        assert_eq!(a.header("content-type"), Some("application/json"), "{path}");
        let tag = a
            .header("etag")
            .unwrap_or_else(|| panic!("{path}: no ETag"))
            .to_owned();
        let again = get(http, &path, &[admin[0], ("If-None-Match", &tag)]);
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
    }
    let t = get(http, &format!("/api/v1/tournaments/{id}"), &admin).json();
    assert_eq!(
        (t["name"].as_str(), t["paired_rounds"].as_u64()),
        (Some("Ennis Open"), Some(2)),
        "{t}"
    );
    writes(http, id, &admin);

    // Paging: two at a time, every player once.
    let mut seen = Vec::new();
    let mut next = String::new();
    loop {
        let path = format!("/api/v1/tournaments/{id}/players?page_size=2&page_token={next}");
        let page = get(http, &path, &admin).json();
        let items = page["items"].as_array().unwrap();
        assert!(items.len() <= 2);
        seen.extend(items.iter().map(|p| p["tpn"].as_u64().unwrap()));
        match page["next_page_token"].as_str() {
            Some(t) => next = t.to_owned(),
            None => break,
        }
    }
    assert_eq!(seen, [1, 2, 3, 4, 5, 6]);
    let players = get(http, &format!("/api/v1/tournaments/{id}/players"), &[]);
    problem(&players, 401, "UNAUTHENTICATED");

    // Bad input: the field named, never a panic.
    let p = problem(
        &get(
            http,
            &format!("/api/v1/tournaments/{id}/rounds/x/pairings"),
            &[],
        ),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "round");
    let p = problem(
        &get(
            http,
            &format!("/api/v1/tournaments/{id}/standings?tiebreaks=NOPE"),
            &[],
        ),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "tiebreaks", "{p}");
    let p = problem(
        &get(
            http,
            &format!("/api/v1/tournaments/{id}/players?page_token=zz"),
            &admin,
        ),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "page_token");
    let p = problem(
        &get(http, &format!("/api/v1/tournaments/{id}?x=1"), &admin),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "x");
    let long = "a".repeat(300);
    let p = problem(
        &get(http, &format!("/api/v1/tournaments/{long}"), &admin),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "tournament_id", "{p}");
    problem(
        &get(http, "/api/v1/tournaments/0000-none", &admin),
        404,
        "NOT_FOUND",
    );
    problem(&get(http, "/api/v1/nothing-here", &[]), 404, "NOT_FOUND");
    let big = vec![b'x'; 200_000];
    let a = request(http, "POST", "/api/v1/tournaments", &[], &big);
    assert!(
        a.status == 405 || a.status == 413,
        "{} {}",
        a.status,
        a.text()
    );
    // The server is still there.
    assert_eq!(get(http, "/api/v1/openapi.json", &[]).status, 200);
}

/// The document validated by `openapi-spec-validator` (PyPI, installed into .tools/python
/// by tests/install-deps.sh; missing fails the test).
/// The write endpoints (ADR http-006): a tournament created (a retry with the same
/// Idempotency-Key answers the same one), the open exported as TRF and imported again as a
/// new tournament, a broken file refused naming the line, a file over the 64 KiB of other
/// bodies not refused for its size, and nothing written without a token.
fn writes(http: u16, id: &str, admin: &[(&str, &str)]) {
    let post = |path: &str, headers: &[(&str, &str)], body: &[u8]| {
        arbiter_tests::http::request(http, "POST", path, headers, body)
    };
    let mut with_key = admin.to_vec();
    with_key.push(("Idempotency-Key", "create-galway-1"));
    with_key.push(("Content-Type", "application/json"));
    let body =
        br#"{"name": "Galway Open", "rounds": 7, "federation": "IRL", "start_date": "2026-03-01"}"#;
    let a = post("/api/v1/tournaments", &with_key, body);
    assert_eq!(a.status, 201, "{}", a.text());
    let created = a.json();
    assert_eq!(created["name"], "Galway Open", "{created}");
    assert_eq!(created["rounds"], 7);
    let again = post("/api/v1/tournaments", &with_key, body);
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(
        again.json()["id"],
        created["id"],
        "a retry creates nothing new"
    );
    problem(
        &post("/api/v1/tournaments", &[], body),
        401,
        "UNAUTHENTICATED",
    );
    let p = problem(
        &post("/api/v1/tournaments", admin, b"{\"nom\": 1}"),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "body", "{p}");

    let trf = get(http, &format!("/api/v1/tournaments/{id}/export"), admin).text();
    let a = post(
        "/api/v1/tournaments/import?as_new=true&name=Ennis%20Open%20copy",
        admin,
        trf.as_bytes(),
    );
    assert_eq!(a.status, 201, "{}", a.text());
    let imported = a.json();
    assert_eq!(
        imported["tournament"]["name"], "Ennis Open copy",
        "{imported}"
    );
    assert_eq!(imported["tournament"]["players"], 6, "{imported}");
    let copy = imported["tournament"]["id"].as_str().unwrap();
    let back = get(http, &format!("/api/v1/tournaments/{copy}/export"), admin).text();
    let players = |t: &str| t.lines().filter(|l| l.starts_with("001")).count();
    assert_eq!(players(&back), players(&trf), "{back}");

    let broken = trf.replacen("001    1", "001    x", 1);
    let p = problem(
        &post(
            "/api/v1/tournaments/import?as_new=true",
            admin,
            broken.as_bytes(),
        ),
        400,
        "INVALID_ARGUMENT",
    );
    assert!(p["detail"].as_str().unwrap().contains(':'), "{p}");
    // Over 64 KiB (the limit of other bodies): read, and refused for what it holds.
    let big = format!(
        "{trf}{}",
        "### a comment line of the file, for its size\n".repeat(2_000)
    );
    assert!(big.len() > 64 * 1024);
    let a = post(
        "/api/v1/tournaments/import?as_new=true",
        admin,
        big.as_bytes(),
    );
    assert_ne!(a.status, 413, "{}", a.text());
}

fn validate_openapi(doc: &serde_json::Value) {
    let tools = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.tools/python");
    assert!(
        tools.join("openapi_spec_validator").is_dir(),
        "openapi-spec-validator is missing from {}: run tests/install-deps.sh",
        tools.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openapi.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let o = std::process::Command::new("python3")
        .env("PYTHONPATH", &tools)
        .args([
            "-c",
            "import json, sys\nfrom openapi_spec_validator import validate\nvalidate(json.load(open(sys.argv[1])))\nprint('valid')",
        ])
        .arg(&file)
        .output()
        .expect("run python3");
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("valid"),
        "the OpenAPI document does not validate: {}",
        arbiter_tests::output_text(&o)
    );
}
