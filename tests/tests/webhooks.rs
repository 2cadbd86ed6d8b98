//! Webhooks (issue 44 part 4, ADR http-002) against a real arbiterd and a real HTTP
//! receiver on loopback in this process: signed deliveries of a round's publication and
//! of results, a receiver that fails twice and then answers (three attempts kept, one
//! success, one event id), a receiver that is down for a while and across a restart of
//! arbiterd gets everything after it returns, redelivery by hand, wrong roles and bad
//! addresses refused; the body's content (version 2) and each integrator reaching its
//! own webhooks only (ADR http-003).
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter_proto::v1::webhook_service_client::WebhookServiceClient;
use arbiter_proto::v1::*;
use arbiter_tests::{Arbiter, Proc, start_arbiterd};
use hmac::{Hmac, Mac};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Got {
    event_id: String,
    delivery_id: String,
    signature: String,
    /// `Arbiter-Body-Version`.
    body_version: String,
    body: Vec<u8>,
    answered: u16,
}

#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<Got>>>,
    /// Answer 500 to this many requests of each event id first.
    fail_first: Arc<AtomicU32>,
}

impl Receiver {
    fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }
}

async fn hook(
    axum::extract::State(r): axum::extract::State<Receiver>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> axum::http::StatusCode {
    let h = |n: &str| {
        headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let event_id = h("arbiter-event-id");
    let mut got = r.got.lock().unwrap();
    let before = got.iter().filter(|g| g.event_id == event_id).count();
    let fail = before < r.fail_first.load(Ordering::SeqCst) as usize;
    let answered = if fail { 500 } else { 200 };
    got.push(Got {
        event_id,
        delivery_id: h("arbiter-delivery-id"),
        signature: h("arbiter-signature"),
        body_version: h("arbiter-body-version"),
        body: body.to_vec(),
        answered,
    });
    axum::http::StatusCode::from_u16(answered).unwrap()
}

/// Serves the receiver on `port` until the sender is dropped.
async fn serve(r: Receiver, port: u16) -> tokio::sync::oneshot::Sender<()> {
    let app = axum::Router::new()
        .route("/hook", axum::routing::post(hook))
        .with_state(r);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await
            .unwrap();
    });
    tx
}

/// What a receiver does with `Arbiter-Signature: t=…,v1=…`: HMAC-SHA256 of
/// `t + "." + body` under the secret, compared in constant time, `t` within 5 minutes.
fn verifies(secret_hex: &str, header: &str, body: &[u8]) -> bool {
    let secret = hex::decode(secret_hex).unwrap();
    let (mut t, mut v1) = (None, None);
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.parse::<i64>().ok(),
            Some(("v1", v)) => v1 = hex::decode(v).ok(),
            _ => {}
        }
    }
    let (Some(t), Some(v1)) = (t, v1) else {
        return false;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    if (now - t).abs() > 300 {
        return false;
    }
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&secret).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    mac.verify_slice(&v1).is_ok()
}

fn req<T>(body: T, token: &str) -> Request<T> {
    let mut r = Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

fn meta(id: &str) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: id.into(),
        reason: "integration".into(),
        ..Default::default()
    })
}

fn admin_token(a: &Arbiter) -> String {
    arbiter_service_kit::auth::Auth::read_token(&a.data.join("admin.token"), "admin").unwrap()
}

async fn client(a: &Arbiter) -> WebhookServiceClient<Channel> {
    let ch = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{}", a.port))
        .unwrap()
        .connect()
        .await
        .unwrap();
    WebhookServiceClient::new(ch)
}

/// A short backoff so retries come within seconds (the schedule is the real one).
fn fast(c: &mut std::process::Command) {
    c.env("ARBITER_WEBHOOK_BACKOFF_BASE_MS", "300")
        .env("ARBITER_WEBHOOK_BACKOFF_MAX_MS", "1500")
        .env("ARBITER_WEBHOOK_TIMEOUT_MS", "2000");
}

fn tournament_with_players(a: &Arbiter, n: u32) -> String {
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Hook Open",
        "--rounds",
        "3",
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 1..=n {
        a.ok(&[
            "player",
            "add",
            &t,
            "--name",
            &format!("Player, No{i}"),
            "--rating",
            &(2400 - i * 10).to_string(),
        ]);
    }
    t
}

fn wait_until(what: &str, within: Duration, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ok() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

async fn deliveries(
    c: &mut WebhookServiceClient<Channel>,
    token: &str,
    hook: &str,
) -> Vec<Delivery> {
    c.list_deliveries(req(
        ListDeliveriesRequest {
            webhook_id: hook.into(),
            limit: 0,
        },
        token,
    ))
    .await
    .unwrap()
    .into_inner()
    .deliveries
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_are_signed_retried_until_answered_and_redelivered_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), fast);
    let token = admin_token(&a);
    let mut c = client(&a).await;
    let receiver = Receiver::default();
    receiver.fail_first.store(2, Ordering::SeqCst);
    let port = arbiter_testkit::free_port();
    let _server = serve(receiver.clone(), port).await;
    let t = tournament_with_players(&a, 4);

    let added = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("add-1"),
                url: format!("http://127.0.0.1:{port}/hook"),
                event_types: vec!["round.published".into(), "result.recorded".into()],
                tournament_id: t.clone(),
                description: "federation site".into(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    let hook = added.webhook.clone().unwrap().webhook_id;
    assert_eq!(added.secret.len(), 64);

    // The CLI's round pairing and publication, one result.
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    a.ok(&["result", "set", &t, "1", "1", "1-0"]);

    wait_until(
        "the publication and the result are answered 200",
        Duration::from_secs(30),
        || receiver.got().iter().filter(|g| g.answered == 200).count() >= 2,
    );
    let got = receiver.got();
    for g in &got {
        assert!(
            verifies(&added.secret, &g.signature, &g.body),
            "signature {:?} does not verify",
            g.signature
        );
        assert!(!verifies(&"00".repeat(32), &g.signature, &g.body));
    }
    // Each event (the publication, the result) was answered 500, 500, then 200: three
    // attempts of one delivery, one event id. The two deliveries run side by side, so
    // under load either may reach the receiver first: the publication is found by its body.
    let first = got
        .iter()
        .find(|g| {
            serde_json::from_slice::<serde_json::Value>(&g.body)
                .is_ok_and(|b| b["event_types"] == serde_json::json!(["round.published"]))
        })
        .expect("the publication's delivery");
    let events: BTreeSet<&str> = got.iter().map(|g| g.event_id.as_str()).collect();
    assert_eq!(events.len(), 2, "{got:#?}");
    for id in events {
        let same: Vec<&Got> = got.iter().filter(|g| g.event_id == id).collect();
        assert_eq!(
            same.iter().map(|g| g.answered).collect::<Vec<_>>(),
            vec![500, 500, 200],
            "{got:#?}"
        );
        assert!(same.iter().all(|g| g.delivery_id == same[0].delivery_id));
    }
    let body: serde_json::Value = serde_json::from_slice(&first.body).unwrap();
    assert_eq!(body["event_types"], serde_json::json!(["round.published"]));
    assert_eq!(body["tournament_id"], serde_json::json!(t));
    assert_eq!(body["event_id"], serde_json::json!(first.event_id));
    let result = got
        .iter()
        .find(|g| g.event_id != first.event_id)
        .expect("the result's delivery");
    let rb: serde_json::Value = serde_json::from_slice(&result.body).unwrap();
    assert_eq!(rb["event_types"], serde_json::json!(["result.recorded"]));
    assert_eq!(rb["log_event_type"], "ResultRecorded");

    // Every attempt is kept: three for the publication, one success (recorded right
    // after the receiver answered).
    let deadline = Instant::now() + Duration::from_secs(10);
    let ds = loop {
        let ds = deliveries(&mut c, &token, &hook).await;
        if ds.iter().all(|d| d.state == "delivered") || Instant::now() > deadline {
            break ds;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(ds.len(), 2, "{ds:#?}");
    let pubd = ds.iter().find(|d| d.event_id == first.event_id).unwrap();
    assert_eq!(pubd.state, "delivered");
    assert_eq!(
        pubd.attempts.iter().map(|x| x.status).collect::<Vec<_>>(),
        vec![500, 500, 200]
    );
    assert!(pubd.attempts[0].next_attempt_at_micros > pubd.attempts[0].at_micros);
    assert_eq!(pubd.attempts[2].next_attempt_at_micros, 0);
    assert_eq!(pubd.attempts[0].error, "HTTP 500");

    // Redelivered by hand: the same event id, a new delivery id.
    let again = c
        .redeliver(req(
            RedeliverRequest {
                meta: meta("redeliver-1"),
                webhook_id: hook.clone(),
                delivery_id: pubd.delivery_id.clone(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(again.delivery_id, pubd.delivery_id);
    wait_until("the redelivery", Duration::from_secs(10), || {
        receiver
            .got()
            .iter()
            .any(|g| g.delivery_id == again.delivery_id && g.answered == 200)
    });
    let r = receiver.got();
    let g = r
        .iter()
        .find(|g| g.delivery_id == again.delivery_id)
        .unwrap();
    assert_eq!(g.event_id, first.event_id);
    assert!(verifies(&added.secret, &g.signature, &g.body));

    // List, show, remove.
    let list = c
        .list_webhooks(req(ListWebhooksRequest {}, &token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.webhooks.len(), 1);
    assert_eq!(
        list.webhooks[0].url,
        format!("http://127.0.0.1:{port}/hook")
    );
    assert!(list.webhooks[0].added_by.contains("admin"));

    // A viewer may not register; nobody without a token either.
    a.ok(&["access", "add", "watcher"]);
    a.ok(&["access", "grant", "watcher", "--role", "viewer"]);
    let viewer = a.json(&["access", "token", "watcher"])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let good = |id: &str| AddWebhookRequest {
        meta: meta(id),
        url: "https://example.org/hook".into(),
        event_types: vec!["round.published".into()],
        ..Default::default()
    };
    let e = c.add_webhook(req(good("v-1"), &viewer)).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    let e = c
        .list_deliveries(req(
            ListDeliveriesRequest {
                webhook_id: hook.clone(),
                limit: 0,
            },
            &viewer,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    let e = c.add_webhook(Request::new(good("n-1"))).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated, "{e:?}");
    // An integrator may.
    a.ok(&["access", "add", "federation"]);
    a.ok(&["access", "grant", "federation", "--role", "integrator"]);
    let integrator = a.json(&["access", "token", "federation"])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let ok = c
        .add_webhook(req(good("i-1"), &integrator))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(ok.secret, added.secret);

    // Bad input names the field and the limit.
    for (url, types, field) in [
        ("http://example.org/hook", vec!["round.published"], "url"),
        ("ftp://example.org/hook", vec!["round.published"], "url"),
        (
            "https://user:pw@example.org/",
            vec!["round.published"],
            "url",
        ),
        (
            "https://example.org/hook",
            vec!["round.paired"],
            "event_types",
        ),
        ("https://example.org/hook", vec![], "event_types"),
    ] {
        let e = c
            .add_webhook(req(
                AddWebhookRequest {
                    meta: meta(&format!("bad-{url}-{types:?}")),
                    url: url.into(),
                    event_types: types.iter().map(|s| (*s).to_owned()).collect(),
                    ..Default::default()
                },
                &token,
            ))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{url}: {e:?}");
        assert!(e.message().starts_with(field), "{url}: {}", e.message());
    }
    let e = c
        .add_webhook(req(
            AddWebhookRequest {
                description: "d".repeat(201),
                ..good("long")
            },
            &token,
        ))
        .await
        .unwrap_err();
    assert!(
        e.message().starts_with("description") && e.message().contains("at most 200"),
        "{}",
        e.message()
    );

    c.remove_webhook(req(
        RemoveWebhookRequest {
            meta: meta("rm-1"),
            webhook_id: hook.clone(),
        },
        &token,
    ))
    .await
    .unwrap();
    let e = c
        .get_webhook(req(
            GetWebhookRequest {
                webhook_id: hook.clone(),
            },
            &token,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::NotFound);
}

fn start(a: &Arbiter, log: &std::path::Path) -> Proc {
    let file = std::fs::File::create(log).unwrap();
    start_arbiterd(&a.data, a.port, |c| {
        fast(c);
        // enough attempts for a long outage at the short backoff; the webhooks
        // service's start line (where it folds the log from) kept
        c.env("ARBITER_WEBHOOK_MAX_ATTEMPTS", "1000")
            .env("RUST_LOG", "warn,arbiter_webhooks=info")
            .stderr(file);
    })
}

/// How long the receiver is down: `ARBITER_TEST_WEBHOOK_DOWN_SECS`, by default the
/// issue's minute (60 s), half before arbiterd's restart and half after.
fn down_for() -> Duration {
    let secs: u64 = std::env::var("ARBITER_TEST_WEBHOOK_DOWN_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    Duration::from_secs(secs.max(2))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_down_for_a_while_and_across_a_restart_gets_everything_after() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let mut d = start(&a, &dir.path().join("first.log"));
    let token = admin_token(&a);
    let mut c = client(&a).await;
    let port = arbiter_testkit::free_port(); // nobody listens yet
    let t = tournament_with_players(&a, 4);
    let added = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("add-down"),
                url: format!("http://127.0.0.1:{port}/hook"),
                event_types: vec![
                    "round.published".into(),
                    "result.recorded".into(),
                    "standings.changed".into(),
                ],
                ..Default::default()
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    let hook = added.webhook.unwrap().webhook_id;
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    a.ok(&["result", "set", &t, "1", "1", "1-0"]);
    // The receiver is down: the attempts fail and are kept, writers are not slowed.
    let began = Instant::now();
    a.ok(&["result", "set", &t, "1", "2", "0-1"]);
    assert!(began.elapsed() < Duration::from_secs(5));
    let down = down_for();
    let outage = Instant::now();
    tokio::time::sleep(down / 2).await;
    let ds = deliveries(&mut c, &token, &hook).await;
    assert_eq!(ds.len(), 3, "{ds:#?}");
    for x in &ds {
        assert_eq!(x.state, "pending");
        assert!(x.attempts.len() >= 2, "{x:#?}");
        assert!(
            x.attempts
                .iter()
                .all(|t| t.status == 0 && t.error.contains("connect")),
            "{x:#?}"
        );
    }
    // arbiterd stops (kill -9) and starts again; the pending retries resume.
    d.kill9();
    drop(d);
    let _d = start(&a, &dir.path().join("second.log"));
    let mut c = client(&a).await;
    a.ok(&["round", "close", &t, "1"]);
    tokio::time::sleep(down.saturating_sub(outage.elapsed())).await;
    // The receiver comes back.
    let receiver = Receiver::default();
    let _server = serve(receiver.clone(), port).await;
    let expected: BTreeSet<String> = {
        // 3 before the restart, and the round's close (standings.changed) after it
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ds = deliveries(&mut c, &token, &hook).await;
            if ds.len() == 4 && ds.iter().all(|x| x.state == "delivered") {
                break ds.iter().map(|x| x.event_id.clone()).collect();
            }
            assert!(Instant::now() < deadline, "not all delivered: {ds:#?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let got = receiver.got();
    let mut by_event: BTreeMap<String, usize> = BTreeMap::new();
    for g in &got {
        assert!(verifies(&added.secret, &g.signature, &g.body));
        *by_event.entry(g.event_id.clone()).or_default() += 1;
    }
    assert_eq!(
        by_event.keys().cloned().collect::<BTreeSet<_>>(),
        expected,
        "every event arrived after the receiver came back"
    );
}

#[test]
fn the_cli_adds_lists_shows_lists_deliveries_and_removes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), fast);
    let port = arbiter_testkit::free_port();
    let added = a.json(&[
        "webhook",
        "add",
        &format!("http://127.0.0.1:{port}/hook"),
        "--event",
        "round.published,standings.changed",
        "--description",
        "club site",
    ]);
    let id = added["webhook"]["webhook_id"].as_str().unwrap().to_owned();
    assert_eq!(added["secret"].as_str().unwrap().len(), 64);
    assert_eq!(
        added["webhook"]["event_types"],
        serde_json::json!(["round.published", "standings.changed"])
    );
    let list = a.json(&["webhook", "list"]);
    assert_eq!(list.as_array().unwrap().len(), 1);
    let shown = a.ok(&["webhook", "show", &id]);
    assert!(
        shown.contains("club site") && !shown.contains("secret"),
        "{shown}"
    );
    assert_eq!(
        a.json(&["webhook", "deliveries", &id]),
        serde_json::json!([])
    );
    let refused = a.refused(&[
        "webhook",
        "add",
        "http://example.org/x",
        "--event",
        "round.published",
    ]);
    assert!(
        refused.contains("url") && refused.contains("loopback"),
        "{refused}"
    );
    let refused = a.refused(&[
        "webhook",
        "add",
        "https://example.org/x",
        "--event",
        "round.paired",
    ]);
    assert!(
        refused.contains("event_types") && refused.contains("round.published"),
        "{refused}"
    );
    a.ok(&["webhook", "remove", &id, "--reason", "site closed"]);
    assert_eq!(a.json(&["webhook", "list"]), serde_json::json!([]));
    let refused = a.refused(&["webhook", "show", &id]);
    assert!(refused.contains("webhook_id"), "{refused}");
}

/// The same service over `/api/v1/webhooks`: problem+json errors naming the field, the
/// access table's refusals, every documented webhook path called.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_json_api_registers_lists_delivers_redelivers_and_removes() {
    use arbiter_tests::http::request;
    let dir = tempfile::tempdir().unwrap();
    let http = arbiter_testkit::free_port();
    let (a, _d) = Arbiter::embedded(dir.path(), |c| {
        fast(c);
        c.args(["--http-listen", &format!("127.0.0.1:{http}")]);
    });
    let bearer = format!("Bearer {}", admin_token(&a));
    let auth = [
        ("Authorization", bearer.as_str()),
        ("Content-Type", "application/json"),
    ];
    let receiver = Receiver::default();
    let port = arbiter_testkit::free_port();
    let _server = serve(receiver.clone(), port).await;
    let t = tournament_with_players(&a, 4);

    let body = serde_json::json!({
        "url": format!("http://127.0.0.1:{port}/hook"),
        "event_types": ["round.published"],
        "tournament_id": t,
        "reason": "federation site",
    })
    .to_string();
    let keyed = [auth[0], auth[1], ("Idempotency-Key", "reg-1")];
    let r = tokio::task::block_in_place(|| {
        request(http, "POST", "/api/v1/webhooks", &keyed, body.as_bytes())
    });
    assert_eq!(r.status, 201, "{}", r.text());
    let added = r.json();
    let id = added["webhook"]["webhook_id"].as_str().unwrap().to_owned();
    let secret = added["secret"].as_str().unwrap().to_owned();
    // The same Idempotency-Key: the same webhook, nothing written twice.
    let again = tokio::task::block_in_place(|| {
        request(http, "POST", "/api/v1/webhooks", &keyed, body.as_bytes())
    });
    assert_eq!(again.json()["webhook"]["webhook_id"], serde_json::json!(id));
    let list = tokio::task::block_in_place(|| request(http, "GET", "/api/v1/webhooks", &auth, b""));
    assert_eq!(list.status, 200);
    assert_eq!(list.json().as_array().unwrap().len(), 1, "{}", list.text());
    let one = tokio::task::block_in_place(|| {
        request(http, "GET", &format!("/api/v1/webhooks/{id}"), &auth, b"")
    });
    assert_eq!(
        one.json()["url"],
        serde_json::json!(format!("http://127.0.0.1:{port}/hook"))
    );
    // Another integrator: the admin's webhook is not listed and answers 404.
    let other = format!("Bearer {}", integrator(&a, "federation-b"));
    let other = [("Authorization", other.as_str())];
    let r = tokio::task::block_in_place(|| request(http, "GET", "/api/v1/webhooks", &other, b""));
    assert_eq!(
        (r.status, r.json()),
        (200, serde_json::json!([])),
        "{}",
        r.text()
    );
    let r = tokio::task::block_in_place(|| {
        request(http, "GET", &format!("/api/v1/webhooks/{id}"), &other, b"")
    });
    assert_eq!(
        (r.status, r.json()["field"].clone()),
        (404, serde_json::json!("webhook_id")),
        "{}",
        r.text()
    );

    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    wait_until("the publication", Duration::from_secs(20), || {
        receiver.got().iter().any(|g| g.answered == 200)
    });
    let g = receiver.got()[0].clone();
    assert!(verifies(&secret, &g.signature, &g.body));
    // The receiver has answered; the attempt is recorded right after.
    let mut ds = serde_json::Value::Null;
    wait_until("the attempt recorded", Duration::from_secs(10), || {
        let r = tokio::task::block_in_place(|| {
            request(
                http,
                "GET",
                &format!("/api/v1/webhooks/{id}/deliveries?limit=10"),
                &auth,
                b"",
            )
        });
        assert_eq!(r.status, 200, "{}", r.text());
        ds = r.json();
        ds[0]["state"] == "delivered"
    });
    assert_eq!(ds[0]["state"], "delivered", "{ds}");
    assert_eq!(ds[0]["attempts"][0]["status"], 200, "{ds}");
    let delivery = ds[0]["delivery_id"].as_str().unwrap().to_owned();
    // One delivery (GetDelivery): as listed; another integrator's view is 404, as an
    // unknown delivery is (naming the field).
    let r = tokio::task::block_in_place(|| {
        request(
            http,
            "GET",
            &format!("/api/v1/webhooks/{id}/deliveries/{delivery}"),
            &auth,
            b"",
        )
    });
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json(), ds[0], "{}", r.text());
    for (headers, path, field) in [
        (
            &other[..],
            format!("/api/v1/webhooks/{id}/deliveries/{delivery}"),
            "webhook_id",
        ),
        (
            &auth[..],
            format!("/api/v1/webhooks/{id}/deliveries/d_nope"),
            "delivery_id",
        ),
    ] {
        let r = tokio::task::block_in_place(|| request(http, "GET", &path, headers, b""));
        assert_eq!(r.status, 404, "{path}: {}", r.text());
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
        assert_eq!(r.json()["field"], field, "{}", r.text());
    }
    let re = tokio::task::block_in_place(|| {
        request(
            http,
            "POST",
            &format!("/api/v1/webhooks/{id}/deliveries/{delivery}/redeliver"),
            &auth,
            b"",
        )
    });
    assert_eq!(re.status, 201, "{}", re.text());
    assert_eq!(re.json()["event_id"], serde_json::json!(g.event_id));
    wait_until("the redelivery", Duration::from_secs(20), || {
        receiver.got().len() >= 2
    });

    // Errors: problem+json naming the field and the limit.
    let bad =
        serde_json::json!({"url": "http://example.org/x", "event_types": ["round.published"]})
            .to_string();
    let r = tokio::task::block_in_place(|| {
        request(http, "POST", "/api/v1/webhooks", &auth, bad.as_bytes())
    });
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/problem+json"));
    assert_eq!(r.json()["field"], "url", "{}", r.text());
    let bad =
        serde_json::json!({"url": "https://example.org/x", "event_types": ["nope"]}).to_string();
    let r = tokio::task::block_in_place(|| {
        request(http, "POST", "/api/v1/webhooks", &auth, bad.as_bytes())
    });
    assert_eq!(r.json()["field"], "event_types", "{}", r.text());
    let r = tokio::task::block_in_place(|| {
        request(http, "POST", "/api/v1/webhooks", &auth, b"{\"url\": 3}")
    });
    assert_eq!(
        (r.status, r.json()["field"].clone()),
        (400, serde_json::json!("body")),
        "{}",
        r.text()
    );
    let r = tokio::task::block_in_place(|| request(http, "GET", "/api/v1/webhooks", &[], b""));
    assert_eq!(r.status, 401, "{}", r.text());
    a.ok(&["access", "add", "watcher"]);
    a.ok(&["access", "grant", "watcher", "--role", "viewer"]);
    let viewer = format!(
        "Bearer {}",
        a.json(&["access", "token", "watcher"])["token"]
            .as_str()
            .unwrap()
    );
    let r = tokio::task::block_in_place(|| {
        request(
            http,
            "POST",
            "/api/v1/webhooks",
            &[("Authorization", viewer.as_str())],
            body.as_bytes(),
        )
    });
    assert_eq!(r.status, 403, "{}", r.text());

    let r = tokio::task::block_in_place(|| {
        request(
            http,
            "DELETE",
            &format!("/api/v1/webhooks/{id}"),
            &auth,
            b"",
        )
    });
    assert_eq!(r.status, 204, "{}", r.text());
    let r = tokio::task::block_in_place(|| {
        request(http, "GET", &format!("/api/v1/webhooks/{id}"), &auth, b"")
    });
    assert_eq!(
        (r.status, r.json()["field"].clone()),
        (404, serde_json::json!("webhook_id")),
        "{}",
        r.text()
    );

    // Every documented webhook path was called above.
    let doc =
        tokio::task::block_in_place(|| request(http, "GET", "/api/v1/openapi.json", &[], b""))
            .json();
    let paths: Vec<&String> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|p| p.starts_with("/api/v1/webhooks"))
        .collect();
    assert_eq!(paths.len(), 5, "{paths:?}");
}

/// ADR http-008: a webhook keeps at most `--webhook-max-pending` deliveries pending (2
/// here). With its receiver down, the events after are recorded as deliveries not sent
/// (failed, an attempt 0 saying why), redelivery is refused while the webhook is at the
/// bound, and once the receiver answers the pending ones are delivered and a delivery
/// not sent can be redelivered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_keeps_a_bounded_number_of_deliveries_pending() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |c| {
        fast(c);
        c.env("ARBITER_WEBHOOK_MAX_PENDING", "2");
    });
    let token = admin_token(&a);
    let mut c = client(&a).await;
    // Nothing listens there yet: every attempt fails.
    let port = arbiter_testkit::free_port();
    let t = tournament_with_players(&a, 8);
    let hook = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("add-bounded"),
                url: format!("http://127.0.0.1:{port}/hook"),
                event_types: vec!["round.published".into(), "result.recorded".into()],
                tournament_id: t.clone(),
                description: String::new(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner()
        .webhook
        .unwrap()
        .webhook_id;
    // Five events: the publication and four results.
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    for board in 1..=4 {
        a.ok(&["result", "set", &t, "1", &board.to_string(), "1-0"]);
    }
    let mut ds = Vec::new();
    for _ in 0..200 {
        ds = deliveries(&mut c, &token, &hook).await;
        if ds.len() == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(ds.len(), 5, "{ds:?}");
    let pending: Vec<&Delivery> = ds.iter().filter(|d| d.state == "pending").collect();
    let not_sent: Vec<&Delivery> = ds.iter().filter(|d| d.state == "failed").collect();
    assert_eq!((pending.len(), not_sent.len()), (2, 3), "{ds:?}");
    for d in &not_sent {
        assert_eq!(d.attempts.len(), 1, "{d:?}");
        let at = &d.attempts[0];
        assert_eq!((at.attempt, at.status), (0, 0), "{d:?}");
        assert!(
            at.error
                .contains("2 deliveries pending, the most it keeps (2"),
            "{d:?}"
        );
    }
    // The oldest events are the ones kept pending.
    let oldest: BTreeSet<i64> = pending.iter().map(|d| d.event_position).collect();
    assert!(
        not_sent
            .iter()
            .all(|d| oldest.iter().all(|p| *p < d.event_position)),
        "{ds:?}"
    );
    let w = c
        .get_webhook(req(
            GetWebhookRequest {
                webhook_id: hook.clone(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(w.pending, 2, "{w:?}");
    // GetDelivery answers it as listed.
    let one = c
        .get_delivery(req(
            GetDeliveryRequest {
                webhook_id: hook.clone(),
                delivery_id: not_sent[0].delivery_id.clone(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(&one, not_sent[0]);
    let redeliver = |id: &str, key: &str| RedeliverRequest {
        meta: meta(key),
        webhook_id: hook.clone(),
        delivery_id: id.into(),
    };
    let e = c
        .redeliver(req(redeliver(&not_sent[0].delivery_id, "re-1"), &token))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().starts_with("delivery_id: "), "{e:?}");
    assert!(e.message().contains("the most it keeps (2"), "{e:?}");

    // The receiver answers: the pending two are delivered, the one not sent redelivered.
    let receiver = Receiver::default();
    let _server = serve(receiver.clone(), port).await;
    wait_until("the pending deliveries", Duration::from_secs(20), || {
        receiver.got().len() >= 2
    });
    let mut left = u32::MAX;
    for _ in 0..100 {
        left = c
            .get_webhook(req(
                GetWebhookRequest {
                    webhook_id: hook.clone(),
                },
                &token,
            ))
            .await
            .unwrap()
            .into_inner()
            .pending;
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0);
    let again = c
        .redeliver(req(redeliver(&not_sent[0].delivery_id, "re-2"), &token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.event_id, not_sent[0].event_id);
    let event = not_sent[0].event_id.clone();
    wait_until("the redelivery", Duration::from_secs(20), || {
        receiver.got().iter().any(|g| g.event_id == event)
    });
}

/// A new principal `name` with the integrator role, and its token.
fn integrator(a: &Arbiter, name: &str) -> String {
    a.ok(&["access", "add", name]);
    a.ok(&["access", "grant", name, "--role", "integrator"]);
    a.json(&["access", "token", name])["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Webhooks are their owner's (ADR http-003): integrator B cannot list, show, remove,
/// list the deliveries of or redeliver integrator A's webhook — each answered NOT_FOUND,
/// as a webhook that does not exist — nor get its secret by repeating A's command id;
/// A can do all of it, the admin sees every webhook.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_integrator_reaches_its_own_webhooks_only() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), fast);
    let admin = admin_token(&a);
    let ta = integrator(&a, "federation-a");
    let tb = integrator(&a, "federation-b");
    let mut c = client(&a).await;
    let receiver = Receiver::default();
    let port = arbiter_testkit::free_port();
    let _server = serve(receiver.clone(), port).await;
    let t = tournament_with_players(&a, 4);
    let add = AddWebhookRequest {
        meta: meta("a-add"),
        url: format!("http://127.0.0.1:{port}/hook"),
        event_types: vec!["round.published".into()],
        tournament_id: t.clone(),
        description: "federation A".into(),
    };
    let added = c
        .add_webhook(req(add.clone(), &ta))
        .await
        .unwrap()
        .into_inner();
    let wa = added.webhook.clone().unwrap();
    assert!(wa.owner_principal_id.starts_with("p_"), "{wa:?}");
    let wb = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("b-add"),
                description: "federation B".into(),
                ..add.clone()
            },
            &tb,
        ))
        .await
        .unwrap()
        .into_inner()
        .webhook
        .unwrap();
    assert_ne!(wa.owner_principal_id, wb.owner_principal_id);

    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    wait_until("both webhooks delivered", Duration::from_secs(30), || {
        receiver.got().iter().filter(|g| g.answered == 200).count() >= 2
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let da = loop {
        let ds = deliveries(&mut c, &ta, &wa.webhook_id).await;
        if ds.iter().any(|d| d.state == "delivered") || Instant::now() > deadline {
            break ds;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(da.len(), 1, "{da:#?}");

    let ids = |l: ListWebhooksResponse| -> BTreeSet<String> {
        l.webhooks.into_iter().map(|w| w.webhook_id).collect()
    };
    // Each integrator lists its own; the admin every one.
    for (token, expected) in [
        (&ta, vec![wa.webhook_id.clone()]),
        (&tb, vec![wb.webhook_id.clone()]),
        (&admin, vec![wa.webhook_id.clone(), wb.webhook_id.clone()]),
    ] {
        let got = ids(c
            .list_webhooks(req(ListWebhooksRequest {}, token))
            .await
            .unwrap()
            .into_inner());
        assert_eq!(got, expected.into_iter().collect::<BTreeSet<_>>());
    }
    let not_found = |e: Status, what: &str| {
        assert_eq!(e.code(), Code::NotFound, "{what}: {e:?}");
        assert!(
            e.message().starts_with("webhook_id") && e.message().contains(&wa.webhook_id),
            "{what}: {}",
            e.message()
        );
    };
    let get = |id: &str| GetWebhookRequest {
        webhook_id: id.into(),
    };
    // B: A's webhook does not exist.
    not_found(
        c.get_webhook(req(get(&wa.webhook_id), &tb))
            .await
            .unwrap_err(),
        "get",
    );
    not_found(
        c.list_deliveries(req(
            ListDeliveriesRequest {
                webhook_id: wa.webhook_id.clone(),
                limit: 0,
            },
            &tb,
        ))
        .await
        .unwrap_err(),
        "deliveries",
    );
    let redeliver = |id: &str| RedeliverRequest {
        meta: meta(id),
        webhook_id: wa.webhook_id.clone(),
        delivery_id: da[0].delivery_id.clone(),
    };
    not_found(
        c.redeliver(req(redeliver("b-redeliver"), &tb))
            .await
            .unwrap_err(),
        "redeliver",
    );
    let remove = |id: &str| RemoveWebhookRequest {
        meta: meta(id),
        webhook_id: wa.webhook_id.clone(),
    };
    not_found(
        c.remove_webhook(req(remove("b-remove"), &tb))
            .await
            .unwrap_err(),
        "remove",
    );
    // Nor A's secret by repeating A's registration with A's command id.
    let e = c.add_webhook(req(add.clone(), &tb)).await.unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
    assert!(!e.message().contains(&added.secret), "{e:?}");

    // A: all of it.
    assert_eq!(
        c.get_webhook(req(get(&wa.webhook_id), &ta))
            .await
            .unwrap()
            .into_inner()
            .description,
        "federation A"
    );
    let again = c
        .add_webhook(req(add.clone(), &ta))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.secret, added.secret, "A's own retry is a replay");
    let re = c
        .redeliver(req(redeliver("a-redeliver"), &ta))
        .await
        .unwrap()
        .into_inner();
    wait_until("A's redelivery", Duration::from_secs(20), || {
        receiver
            .got()
            .iter()
            .any(|g| g.delivery_id == re.delivery_id && g.answered == 200)
    });
    // B's webhook is the admin's to see, not A's.
    let e = c
        .get_webhook(req(get(&wb.webhook_id), &ta))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::NotFound, "{e:?}");
    c.get_webhook(req(get(&wb.webhook_id), &admin))
        .await
        .unwrap();
    c.remove_webhook(req(remove("a-remove"), &ta))
        .await
        .unwrap();
    // A's retry of its removal is a replay; B's is still not found.
    assert!(
        c.remove_webhook(req(remove("a-remove"), &ta))
            .await
            .unwrap()
            .into_inner()
            .replayed
    );
    not_found(
        c.remove_webhook(req(remove("a-remove"), &tb))
            .await
            .unwrap_err(),
        "B repeating A's removal",
    );
    let e = c
        .get_webhook(req(get(&wa.webhook_id), &ta))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::NotFound, "{e:?}");
}

/// Body version 2 (ADR http-003): the delivery carries the event's content — a result's
/// round, board, players and result; a publication's round and the pairing it publishes,
/// board by board — beside the envelope, says `Arbiter-Body-Version: 2`, and its
/// signature still verifies over those bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_carries_the_events_content_and_its_body_version() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), fast);
    let token = admin_token(&a);
    let mut c = client(&a).await;
    let receiver = Receiver::default();
    let port = arbiter_testkit::free_port();
    let _server = serve(receiver.clone(), port).await;
    let t = tournament_with_players(&a, 4);
    let added = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("add-content"),
                url: format!("http://127.0.0.1:{port}/hook"),
                event_types: vec!["round.published".into(), "result.recorded".into()],
                tournament_id: t.clone(),
                description: String::new(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1", "--reason", "boards up"]);
    a.ok(&["result", "set", &t, "1", "2", "0-1", "--reason", "sheet"]);
    wait_until(
        "the publication and the result",
        Duration::from_secs(30),
        || receiver.got().len() >= 2,
    );
    let got = receiver.got();
    let bodies: Vec<serde_json::Value> = got
        .iter()
        .map(|g| {
            assert_eq!(g.body_version, "2", "{g:?}");
            assert!(
                verifies(&added.secret, &g.signature, &g.body),
                "signature {:?} does not verify over the body",
                g.signature
            );
            let v: serde_json::Value = serde_json::from_slice(&g.body).unwrap();
            assert_eq!(v["body_version"], 2);
            assert_eq!(v["event_id"], serde_json::json!(g.event_id));
            assert_eq!(v["tournament_id"], serde_json::json!(t));
            v
        })
        .collect();
    let by_type = |ty: &str| {
        bodies
            .iter()
            .find(|v| v["log_event_type"] == ty)
            .unwrap_or_else(|| panic!("no {ty} delivery in {bodies:#?}"))
    };

    // The publication: its round, and the boards it publishes as the API shows them.
    let p = by_type("PairingsPublished");
    assert_eq!(p["event_types"], serde_json::json!(["round.published"]));
    assert_eq!(p["content"]["round"], 1);
    assert_eq!(p["content"]["tournament_id"], serde_json::json!(t));
    assert_eq!(p["reason"], "boards up");
    assert!(p["actor"].as_str().unwrap().contains("admin"), "{p}");
    let boards = p["pairing"]["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2, "{p}");
    let players: serde_json::Value = a.json(&["player", "list", &t]);
    let ids: BTreeSet<String> = players
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player_id"].as_str().unwrap().to_owned())
        .collect();
    for b in boards {
        for side in ["white_id", "black_id"] {
            assert!(ids.contains(b[side].as_str().unwrap()), "{b}: {ids:?}");
        }
    }
    assert_eq!(boards[0]["board"], 1);
    assert!(p.get("content_omitted").is_none(), "{p}");

    // The result: round, board, both players, the result, as recorded.
    let r = by_type("ResultRecorded");
    assert_eq!(r["event_types"], serde_json::json!(["result.recorded"]));
    assert_eq!(r["content"]["round"], 1);
    assert_eq!(r["content"]["board"], 2);
    assert_eq!(r["content"]["result"], "0-1");
    assert_eq!(r["content"]["white_id"], boards[1]["white_id"]);
    assert_eq!(r["content"]["black_id"], boards[1]["black_id"]);
    assert_eq!(r["reason"], "sheet");
    assert!(r.get("pairing").is_none());
}

/// The webhooks service's start line (ADR http-004), `… R registration and D delivery
/// events read by stream; folding the log from position F`: (F, D).
fn folded_from(log: &std::path::Path) -> (i64, usize) {
    let text = std::fs::read_to_string(log).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("webhooks: state loaded from the checkpoint"))
        .unwrap_or_else(|| panic!("no start line of the webhooks service in {text}"));
    let from = line
        .split_once("folding the log from position ")
        .map(|(_, rest)| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no position folded from in {line}"));
    let delivery_events = line
        .split_once(" delivery events read by stream")
        .and_then(|(head, _)| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no delivery events read in {line}"));
    (from, delivery_events)
}

/// ADR http-004: a restart loads the webhooks and the pending deliveries from the
/// checkpoint, not from position 1; a delivery pending when arbiterd is killed (-9) is
/// attempted again after the restart, one acknowledged is not sent again, and the old
/// deliveries are still listed (read from the webhook's stream).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_from_the_checkpoint_and_delivers_every_event_once() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let first_log = dir.path().join("first.log");
    let mut d = start(&a, &first_log);
    let token = admin_token(&a);
    let mut c = client(&a).await;
    let receiver = Receiver::default();
    let port = arbiter_testkit::free_port();
    let _server = serve(receiver.clone(), port).await;
    let t = tournament_with_players(&a, 4);
    let added = c
        .add_webhook(req(
            AddWebhookRequest {
                meta: meta("add-durable"),
                url: format!("http://127.0.0.1:{port}/hook"),
                event_types: vec![
                    "round.published".into(),
                    "result.recorded".into(),
                    "standings.changed".into(),
                ],
                ..Default::default()
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    let hook = added.webhook.unwrap().webhook_id;
    a.ok(&["round", "pair", &t, "1"]);
    a.ok(&["round", "publish", &t, "1"]);
    a.ok(&["result", "set", &t, "1", "1", "1-0"]);
    // Two deliveries succeed and are acknowledged.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let ds = deliveries(&mut c, &token, &hook).await;
        if ds.len() == 2 && ds.iter().all(|x| x.state == "delivered") {
            break;
        }
        assert!(Instant::now() < deadline, "not delivered: {ds:#?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Then the receiver fails every request: the next result's delivery stays pending.
    receiver.fail_first.store(u32::MAX, Ordering::SeqCst);
    a.ok(&["result", "set", &t, "1", "2", "0-1"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let pending = loop {
        let ds = deliveries(&mut c, &token, &hook).await;
        if let Some(p) = ds
            .iter()
            .find(|x| x.state == "pending" && x.attempts.len() >= 2)
        {
            break p.clone();
        }
        assert!(Instant::now() < deadline, "no failed attempt: {ds:#?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // The failed attempts are events: the checkpoint moves on (saved once a second).
    tokio::time::sleep(Duration::from_secs(3)).await;
    d.kill9();
    drop(d);
    assert_eq!(
        folded_from(&first_log),
        (1, 0),
        "a new data directory folds from 1"
    );

    // The receiver answers again; arbiterd starts on the same data directory.
    receiver.fail_first.store(0, Ordering::SeqCst);
    let second_log = dir.path().join("second.log");
    let _d = start(&a, &second_log);
    let mut c = client(&a).await;
    let (from, delivery_events) = folded_from(&second_log);
    eprintln!(
        "the restart folds the log from position {from}, {delivery_events} delivery events read"
    );
    assert!(
        from > pending.event_position,
        "the restart folds the log from position {from}, after the pending delivery's event (position {}), not from 1",
        pending.event_position
    );
    // An event after the restart is delivered too.
    a.ok(&["round", "close", &t, "1"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    let ds = loop {
        let ds = deliveries(&mut c, &token, &hook).await;
        if ds.len() == 4 && ds.iter().all(|x| x.state == "delivered") {
            break ds;
        }
        assert!(Instant::now() < deadline, "not all delivered: {ds:#?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // The old deliveries are still listed with their attempts.
    let again = ds
        .iter()
        .find(|x| x.delivery_id == pending.delivery_id)
        .expect("the pending delivery is listed");
    assert!(again.attempts.len() > pending.attempts.len(), "{again:#?}");
    assert_eq!(again.attempts.last().unwrap().status, 200);
    // The start read the webhook's deliveries stream from its settled mark: the pending
    // delivery's creation and its failed attempts, nothing of the two acknowledged.
    assert!(
        (1..=again.attempts.len()).contains(&delivery_events),
        "{delivery_events} delivery events read at the restart; the pending delivery had {} failed attempts",
        again.attempts.len() - 1
    );
    assert!(
        again.attempts[..again.attempts.len() - 1]
            .iter()
            .all(|x| x.status == 500),
        "{again:#?}"
    );
    // Every event exactly once by idempotency key: one 200 each, and the two
    // acknowledged before the restart never sent again.
    let got = receiver.got();
    let mut ok: BTreeMap<String, usize> = BTreeMap::new();
    for g in &got {
        assert!(verifies(&added.secret, &g.signature, &g.body));
        if g.answered == 200 {
            *ok.entry(g.event_id.clone()).or_default() += 1;
        }
    }
    let listed: BTreeSet<String> = ds.iter().map(|x| x.event_id.clone()).collect();
    assert_eq!(
        ok.keys().cloned().collect::<BTreeSet<_>>(),
        listed,
        "{got:#?}"
    );
    assert!(ok.values().all(|n| *n == 1), "{ok:?}");
    for x in ds.iter().filter(|x| x.attempts.len() == 1) {
        assert_eq!(
            got.iter().filter(|g| g.event_id == x.event_id).count(),
            1,
            "{x:#?}"
        );
    }
    assert_eq!(
        ds.iter().filter(|x| x.attempts.len() == 1).count(),
        3,
        "the two delivered before the restart and the one after it: {ds:#?}"
    );
}
