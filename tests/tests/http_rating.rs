//! Rating over HTTP (issue 44; ADR http-007) through the real binaries: a tournament run
//! here (four players, one round, played and closed) is submitted for rating over HTTP,
//! the period is run with the CLI (gRPC), then read over HTTP: the period, its list in
//! each format (the same bytes as the gRPC `ExportList`, their SHA-256 in the headers),
//! a player's calculation and the tournament's report. The access table decides (a viewer
//! may read but not submit), bad input is a 400 naming the field, and every rating path
//! of the OpenAPI document is one of those exercised here.
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use arbiter_tests::Arbiter;
use arbiter_tests::http::{Answer, get, request};
use sha2::Digest;

const PLAYERS: [(&str, u32, u32); 4] = [
    ("Alpha, Ann", 2000, 1000001),
    ("Beta, Bob", 1900, 1000002),
    ("Gamma, Gia", 1800, 1000003),
    ("Delta, Dan", 1700, 1000004),
];

fn xml_player(id: u32, name: &str, rating: u32) -> String {
    format!(
        "<player><fideid>{id}</fideid><name>{name}</name><country>IRL</country><sex>M</sex>\
         <title></title><w_title></w_title><o_title></o_title><foa_title></foa_title>\
         <rating>{rating}</rating><games>0</games><k>20</k><rapid_rating></rapid_rating>\
         <rapid_games></rapid_games><rapid_k></rapid_k><blitz_rating></blitz_rating>\
         <blitz_games></blitz_games><blitz_k></blitz_k><birthday>1990</birthday><flag></flag></player>\n"
    )
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
    assert_eq!(p["code"], code, "{p}");
    p
}

#[test]
fn a_tournament_is_submitted_and_its_period_read_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let http = arbiter_testkit::free_port();
    // The rating service's date: after the 2026-10 closing date (28 Sept).
    let (a, _server) = Arbiter::embedded(dir.path(), |c| {
        c.args(["--http-listen", &format!("127.0.0.1:{http}")])
            .env("ARBITER_RATING_TODAY", "2026-11-20");
    });
    let token =
        arbiter_service_kit::auth::Auth::read_token(&a.data.join("admin.token"), "admin").unwrap();
    let bearer = format!("Bearer {token}");
    let admin = [("Authorization", bearer.as_str())];

    // The September 2026 list the October period starts from.
    let list = dir.path().join("players_list_xml_foa.xml");
    std::fs::write(
        &list,
        format!(
            "<playerslist>\n{}</playerslist>\n",
            PLAYERS
                .iter()
                .map(|(n, r, id)| xml_player(*id, n, *r))
                .collect::<String>()
        ),
    )
    .unwrap();
    a.ok(&[
        "rating",
        "list-import",
        list.to_str().unwrap(),
        "--month",
        "2026-09",
    ]);

    // A one-round tournament run here, ended 20 Sept: the 2026-10 list. No time control,
    // so the rating service does not submit it by itself.
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Cork Rated",
        "--rounds",
        "1",
        "--start",
        "2026-09-19",
        "--end",
        "2026-09-20",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating, fide) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
            "--fide-id",
            &fide.to_string(),
        ]);
    }
    a.ok(&["round", "pair", &id, "1"]);
    a.ok(&["round", "publish", &id, "1"]);
    a.ok(&["result", "set", &id, "1", "1", "1-0"]);
    a.ok(&["result", "set", &id, "1", "2", "1/2"]);
    a.ok(&["round", "close", &id, "1"]);

    // Submitted over HTTP: 201, a retry with the same key answered as the first.
    let post = |path: &str, headers: &[(&str, &str)], body: &[u8]| {
        request(http, "POST", path, headers, body)
    };
    let submit = format!("/api/v1/tournaments/{id}/rating-submission");
    let mut keyed = admin.to_vec();
    keyed.push(("Idempotency-Key", "rate-cork-1"));
    keyed.push(("Content-Type", "application/json"));
    let body = br#"{"kind": "standard"}"#;
    let s = post(&submit, &keyed, body);
    assert_eq!(s.status, 201, "{}", s.text());
    let s = s.json();
    assert_eq!(s["period"], "2026-10", "{s}");
    assert_eq!(s["rated_games"], 2, "{s}");
    assert_eq!(s["version"], 1, "{s}");
    assert_eq!(s["replayed"], false, "{s}");
    let again = post(&submit, &keyed, body);
    assert_eq!(again.status, 201, "{}", again.text());
    assert_eq!(again.json()["replayed"], true, "{}", again.text());
    assert_eq!(again.json()["version"], 1);

    // A viewer reads the rating (the table's RATING_R) but may not submit; no token: 401.
    a.ok(&["access", "add", "watcher"]);
    a.ok(&["access", "grant", "watcher", "--role", "viewer"]);
    let viewer = a.json(&["access", "token", "watcher"])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let viewer = format!("Bearer {viewer}");
    let as_viewer = [("Authorization", viewer.as_str())];
    let p = problem(&post(&submit, &as_viewer, body), 403, "PERMISSION_DENIED");
    assert!(
        p["detail"].as_str().unwrap().contains("SubmitTournament"),
        "{p}"
    );
    problem(&post(&submit, &[], body), 401, "UNAUTHENTICATED");
    let p = problem(
        &post(&submit, &admin, br#"{"kind": "bullet"}"#),
        400,
        "INVALID_ARGUMENT",
    );
    assert_eq!(p["field"], "kind", "{p}");

    // The period closes by itself (its closing date has passed); run it (gRPC, the CLI).
    let t0 = Instant::now();
    loop {
        let p = get(http, "/api/v1/rating/periods/2026-10", &admin);
        assert_eq!(p.status, 200, "{}", p.text());
        if p.json()["status"] == "closed" {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(15), "{}", p.text());
        std::thread::sleep(Duration::from_millis(200));
    }
    let run = a.json(&["rating", "run", "2026-10"]);
    assert_eq!(run["status"]["status"], "computed", "{run}");

    let mut exercised = BTreeSet::new();
    let period = get(http, "/api/v1/rating/periods/2026-10", &as_viewer);
    assert_eq!(period.status, 200, "{}", period.text());
    assert_eq!(period.header("content-type"), Some("application/json"));
    let period = period.json();
    assert_eq!(
        (
            period["status"].as_str(),
            period["revision"].as_u64(),
            period["closing_date"].as_str()
        ),
        (Some("computed"), Some(1), Some("2026-09-28")),
        "{period}"
    );
    assert_eq!(period["tournaments"], serde_json::json!([id]), "{period}");
    assert_eq!(period["list_sha256"], run["list_sha256"], "{period}");
    exercised.insert("/api/v1/rating/periods/{period}");
    exercised.insert("/api/v1/tournaments/{id}/rating-submission");

    // The list in each format: the bytes of the gRPC ExportList (the CLI writes them).
    for (format, content_type) in [
        ("txt", "text/plain; charset=utf-8"),
        ("xml", "application/xml"),
        ("csv", "text/csv; charset=utf-8"),
    ] {
        let path = format!("/api/v1/rating/periods/2026-10/list?format={format}&revision=1");
        let l = get(http, &path, &admin);
        assert_eq!(l.status, 200, "{path}: {}", l.text());
        assert_eq!(l.header("content-type"), Some(content_type), "{path}");
        let o = a.run(&[
            "rating",
            "export",
            "2026-10",
            "--format",
            format,
            "--revision",
            "0",
        ]);
        assert!(o.status.success(), "{}", arbiter_tests::output_text(&o));
        assert_eq!(l.body, o.stdout, "{format}: HTTP and gRPC differ");
        let sha = hex::encode(sha2::Sha256::digest(&l.body));
        assert_eq!(l.header("etag"), Some(format!("\"{sha}\"").as_str()));
        assert!(
            l.header("repr-digest").unwrap().starts_with("sha-256=:"),
            "{:?}",
            l.header("repr-digest")
        );
        assert_eq!(l.header("arbiter-rating-revision"), Some("1"));
        let again = get(
            http,
            &path,
            &[admin[0], ("If-None-Match", &format!("\"{sha}\""))],
        );
        assert_eq!(again.status, 304, "{path}");
    }
    let txt = get(http, "/api/v1/rating/periods/2026-10/list", &as_viewer);
    assert_eq!(txt.status, 200, "{}", txt.text());
    assert!(txt.text().starts_with("ID Number"), "{}", txt.text());
    exercised.insert("/api/v1/rating/periods/{period}/list");

    // A player's calculation: the one game, against the tournament.
    let r = get(
        http,
        "/api/v1/rating/periods/2026-10/players/1000001?kind=standard",
        &as_viewer,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = r.json();
    assert_eq!(r["name"], "Alpha, Ann", "{r}");
    let lists = r["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 1, "{r}");
    assert_eq!(lists[0]["kind"], "standard", "{r}");
    assert_eq!(lists[0]["rated_games"], 1, "{r}");
    assert_eq!(lists[0]["events"][0]["tournament_id"], id.as_str(), "{r}");
    assert_eq!(lists[0]["events"][0]["games"].as_array().unwrap().len(), 1);
    let all = get(
        http,
        "/api/v1/rating/periods/2026-10/players/1000001?revision=1",
        &admin,
    );
    assert_eq!(all.status, 200, "{}", all.text());
    assert_eq!(all.json()["lists"], r["lists"]);
    exercised.insert("/api/v1/rating/periods/{period}/players/{fide_id}");

    // The tournament's part of the period: every player, one rated game each.
    let rep = get(
        http,
        &format!("/api/v1/tournaments/{id}/rating-report"),
        &admin,
    );
    assert_eq!(rep.status, 200, "{}", rep.text());
    let tag = rep.header("etag").unwrap().to_owned();
    let rep = rep.json();
    assert_eq!(
        (rep["period"].as_str(), rep["kind"].as_str()),
        (Some("2026-10"), Some("standard")),
        "{rep}"
    );
    let rows = rep["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{rep}");
    assert!(rows.iter().all(|r| r["games"] == 1), "{rep}");
    let again = get(
        http,
        &format!("/api/v1/tournaments/{id}/rating-report?revision=1"),
        &[admin[0], ("If-None-Match", &tag)],
    );
    assert_eq!(again.status, 304);
    exercised.insert("/api/v1/tournaments/{id}/rating-report");

    // Bad input: the field named.
    for (path, field) in [
        ("/api/v1/rating/periods/2026-13".to_owned(), "period"),
        ("/api/v1/rating/periods/nope/list".to_owned(), "period"),
        (
            "/api/v1/rating/periods/2026-10/list?format=pdf".to_owned(),
            "format",
        ),
        (
            "/api/v1/rating/periods/2026-10/list?revision=x".to_owned(),
            "revision",
        ),
        (
            "/api/v1/rating/periods/2026-10/players/x".to_owned(),
            "fide_id",
        ),
        (
            "/api/v1/rating/periods/2026-10/players/1000001?kind=bullet".to_owned(),
            "kind",
        ),
        ("/api/v1/rating/periods/2026-10?x=1".to_owned(), "x"),
    ] {
        let p = problem(&get(http, &path, &admin), 400, "INVALID_ARGUMENT");
        assert_eq!(p["field"], field, "{path}: {p}");
    }
    let p = problem(
        &get(
            http,
            "/api/v1/rating/periods/2026-10/players/9999999",
            &admin,
        ),
        404,
        "NOT_FOUND",
    );
    assert_eq!(p["field"], "fide_id", "{p}");
    problem(
        &get(http, "/api/v1/rating/periods/2026-10", &[]),
        401,
        "UNAUTHENTICATED",
    );

    // Published with the CLI: the period reads so.
    a.ok(&["rating", "publish", "2026-10"]);
    let p = get(http, "/api/v1/rating/periods/2026-10", &admin).json();
    assert_eq!(p["status"], "published", "{p}");

    // Every rating path the OpenAPI document names is exercised above.
    let doc = get(http, "/api/v1/openapi.json", &[]).json();
    let documented: BTreeSet<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|p| p.contains("/rating"))
        .collect();
    assert_eq!(documented, exercised);
}
