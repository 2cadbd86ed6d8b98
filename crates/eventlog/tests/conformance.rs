//! The event-log conformance suite, run against both backends: every test below
//! exists twice, as `sqlite::NAME` and `postgres::NAME` (a real throwaway PostgreSQL).
use arbiter_eventlog::anchor::Anchor;
use arbiter_eventlog::upcast::Upcasters;
use arbiter_eventlog::{
    AppendRequest, CommandContext, Error, EventStore, NewEvent, Scope, Signatures, VerifyOptions,
    VerifyReport,
};
use sqlx::AssertSqlSafe;

/// A log on one backend, plus what keeps its database alive.
struct Fixture {
    store: EventStore,
    url: String,
    _pg: Option<arbiter_testkit::PgServer>,
    _dir: Option<tempfile::TempDir>,
}

async fn sqlite() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let store = EventStore::open(&url).await.expect("open sqlite");
    Fixture {
        store,
        url,
        _pg: None,
        _dir: Some(dir),
    }
}

async fn postgres() -> Fixture {
    let pg = tokio::task::spawn_blocking(arbiter_testkit::PgServer::start)
        .await
        .expect("join")
        .unwrap_or_else(|e| panic!("cannot start PostgreSQL for the conformance suite: {e}"));
    let url = pg.url().to_owned();
    let store = EventStore::open(&url).await.expect("open postgres");
    Fixture {
        store,
        url,
        _pg: Some(pg),
        _dir: None,
    }
}

impl Fixture {
    /// Raw SQL on the same database, to tamper with it.
    async fn raw(&self, sql: &str) {
        sqlx::any::install_default_drivers();
        let url = if self.url.starts_with("sqlite:") {
            format!("{}?mode=rw", self.url)
        } else {
            self.url.clone()
        };
        let pool = sqlx::AnyPool::connect(&url).await.expect("raw connect");
        sqlx::query(AssertSqlSafe(sql.to_owned()))
            .execute(&pool)
            .await
            .expect("raw sql");
        pool.close().await;
    }

    /// A byte string as an SQL literal of this backend.
    fn bytes(&self, b: &[u8]) -> String {
        let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
        if self.url.starts_with("sqlite:") {
            format!("X'{hex}'")
        } else {
            format!("'\\x{hex}'::bytea")
        }
    }
}

fn ev(t: &str, payload: &str) -> NewEvent {
    NewEvent {
        event_type: t.into(),
        schema_version: 1,
        payload: payload.as_bytes().to_vec(),
    }
}

fn req(stream: &str, expected: Option<i64>, command: &str, events: Vec<NewEvent>) -> AppendRequest {
    AppendRequest {
        stream: stream.into(),
        expected_version: expected,
        events,
        context: CommandContext {
            command_id: command.into(),
            actor: "tester".into(),
            service: "test".into(),
            rule_edition: "test-edition".into(),
            ..Default::default()
        },
    }
}

async fn append_and_read(f: Fixture) {
    let s = &f.store;
    let a = s
        .append(req("s-1", Some(0), "c1", vec![ev("A", "1"), ev("B", "2")]))
        .await
        .unwrap();
    assert_eq!(
        (
            a.first_position,
            a.last_position,
            a.stream_version,
            a.replayed
        ),
        (1, 2, 2, false)
    );
    let b = s
        .append(req("s-2", None, "c2", vec![ev("A", "3")]))
        .await
        .unwrap();
    assert_eq!((b.first_position, b.stream_version), (3, 1));
    let c = s
        .append(req("s-1", Some(2), "c3", vec![ev("C", "4")]))
        .await
        .unwrap();
    assert_eq!((c.first_position, c.stream_version), (4, 3));
    let stream = s.read_stream("s-1", 1).await.unwrap();
    assert_eq!(
        stream.iter().map(|e| e.stream_version).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(
        stream.iter().map(|e| e.global_position).collect::<Vec<_>>(),
        [1, 2, 4]
    );
    assert_eq!(stream[0].actor, "tester");
    assert_eq!(stream[0].command_id, "c1");
    assert_eq!(
        stream[0].correlation_id, "c1",
        "correlation defaults to the command id"
    );
    assert_eq!(stream[0].rule_edition, "test-edition");
    assert_eq!(
        stream[1].prev_hash, stream[0].hash,
        "hash chain links the stream"
    );
    assert_eq!(stream[2].prev_hash, stream[1].hash);
    assert_eq!(s.read_stream("s-1", 3).await.unwrap().len(), 1);
    // A stream in pages: a limit from a version, as the whole read has it.
    assert_eq!(
        s.read_stream_page("s-1", 2, 1).await.unwrap(),
        stream[1..2].to_vec()
    );
    assert_eq!(
        s.read_stream_page("s-1", 2, 10).await.unwrap(),
        stream[1..].to_vec()
    );
    assert!(s.read_stream_page("s-1", 4, 10).await.unwrap().is_empty());
    assert!(s.read_stream_page("s-1", 1, 0).await.unwrap().is_empty());
    // The replay path (read_all) gives exactly the stored events, field for field.
    let mut by_stream = s.read_stream("s-1", 1).await.unwrap();
    by_stream.extend(s.read_stream("s-2", 1).await.unwrap());
    by_stream.sort_by_key(|e| e.global_position);
    assert_eq!(s.read_all(1, 100).await.unwrap(), by_stream);
    assert_eq!(
        s.read_all(2, 2).await.unwrap(),
        by_stream[1..3].to_vec(),
        "a page may start inside an append"
    );
    assert_eq!(s.head_position().await.unwrap(), 4);
    assert_eq!(s.stream_version("s-1").await.unwrap(), 3);
    assert_eq!(s.stream_version("nope").await.unwrap(), 0);
    assert!(s.verify().await.unwrap().is_ok());
}

async fn conflict_names_stream_and_versions(f: Fixture) {
    let s = &f.store;
    s.append(req("t-1", Some(0), "c1", vec![ev("A", "1")]))
        .await
        .unwrap();
    let err = s
        .append(req("t-1", Some(0), "c2", vec![ev("B", "2")]))
        .await
        .unwrap_err();
    match &err {
        Error::Conflict {
            stream,
            expected,
            actual,
        } => {
            assert_eq!((stream.as_str(), *expected, *actual), ("t-1", 0, 1));
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.contains("expected_version")
            && msg.contains("t-1")
            && msg.contains('0')
            && msg.contains('1'),
        "{msg}"
    );
    assert_eq!(s.head_position().await.unwrap(), 1, "nothing written");
    // The losing command id was not consumed: it can be retried with the right version.
    let ok = s
        .append(req("t-1", Some(1), "c2", vec![ev("B", "2")]))
        .await
        .unwrap();
    assert_eq!(ok.stream_version, 2);
}

async fn retried_command_id_writes_nothing(f: Fixture) {
    let s = &f.store;
    let first = s
        .append(req(
            "u-1",
            Some(0),
            "same",
            vec![ev("A", "1"), ev("A", "2")],
        ))
        .await
        .unwrap();
    s.append(req("u-2", None, "other", vec![ev("A", "x")]))
        .await
        .unwrap();
    let again = s
        .append(req(
            "u-1",
            Some(0),
            "same",
            vec![ev("A", "1"), ev("A", "2")],
        ))
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(
        (
            again.first_position,
            again.last_position,
            again.stream_version
        ),
        (
            first.first_position,
            first.last_position,
            first.stream_version
        )
    );
    assert_eq!(
        s.head_position().await.unwrap(),
        3,
        "the retry wrote nothing"
    );
    let err = s
        .append(req("u-9", None, "same", vec![ev("A", "1")]))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::CommandIdReused { .. }), "{err}");
    assert!(err.to_string().contains("u-1"));
}

async fn invalid_requests_write_nothing(f: Fixture) {
    let s = &f.store;
    for (r, field) in [
        (req("", None, "c", vec![ev("A", "1")]), "stream"),
        (req("s", None, "", vec![ev("A", "1")]), "command_id"),
        (req("s", None, "c", vec![]), "events"),
        (
            req("s", Some(-1), "c", vec![ev("A", "1")]),
            "expected_version",
        ),
        (req("s", None, "c", vec![ev("", "1")]), "event_type"),
    ] {
        let err = s.append(r).await.unwrap_err();
        assert!(
            err.to_string().starts_with(field),
            "{err} should name {field}"
        );
    }
    assert_eq!(s.head_position().await.unwrap(), 0);
}

async fn concurrent_appends_are_ordered_and_gap_free(f: Fixture) {
    let s = f.store.clone();
    let mut tasks = Vec::new();
    for w in 0..6 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..30 {
                // Half to a private stream, half to a shared one (without version checks).
                let stream = if i % 2 == 0 {
                    format!("w-{w}")
                } else {
                    "shared".to_owned()
                };
                s.append(req(
                    &stream,
                    None,
                    &format!("w{w}-{i}"),
                    vec![ev("E", &format!("{w}:{i}"))],
                ))
                .await
                .unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let all = s.read_all(1, 10_000).await.unwrap();
    assert_eq!(all.len(), 180);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.global_position, i as i64 + 1, "gap-free, ordered");
    }
    let shared = s.read_stream("shared", 1).await.unwrap();
    assert_eq!(shared.len(), 90);
    assert!(
        shared
            .windows(2)
            .all(|w| w[1].stream_version == w[0].stream_version + 1
                && w[1].global_position > w[0].global_position)
    );
    assert!(s.verify().await.unwrap().is_ok());
}

async fn racing_writers_with_expected_version_one_wins(f: Fixture) {
    let s = f.store.clone();
    s.append(req("board-7", Some(0), "init", vec![ev("Paired", "")]))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for w in 0..4 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.append(req(
                "board-7",
                Some(1),
                &format!("fix-{w}"),
                vec![ev("Corrected", &w.to_string())],
            ))
            .await
        }));
    }
    let mut wins = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => wins += 1,
            Err(Error::Conflict { stream, .. }) => assert_eq!(stream, "board-7"),
            Err(e) => panic!("unexpected {e}"),
        }
    }
    assert_eq!(wins, 1);
    assert_eq!(s.stream_version("board-7").await.unwrap(), 2);
}

async fn verify_detects_edit_delete_reorder(f: Fixture) {
    let s = &f.store;
    for i in 0..5 {
        s.append(req(
            "v-1",
            None,
            &format!("a{i}"),
            vec![ev("E", &i.to_string())],
        ))
        .await
        .unwrap();
        s.append(req(
            "v-2",
            None,
            &format!("b{i}"),
            vec![ev("E", &i.to_string())],
        ))
        .await
        .unwrap();
    }
    assert!(s.verify().await.unwrap().is_ok());

    // Edited payload of position 3 (v-1 version 2).
    f.raw("UPDATE events SET reason = 'edited' WHERE global_position = 3")
        .await;
    let r = s.verify().await.unwrap();
    assert!(
        r.problems
            .iter()
            .any(|p| p.position == 3 && p.message.contains("edited")),
        "{:?}",
        r.problems
    );
    f.raw("UPDATE events SET reason = '' WHERE global_position = 3")
        .await;
    assert!(
        s.verify().await.unwrap().is_ok(),
        "restoring the field restores the chain"
    );

    // Reordered: swap the versions of v-2's events 2 and 3 (positions 4 and 6).
    f.raw("UPDATE events SET stream_version = 100 WHERE global_position = 4")
        .await;
    f.raw("UPDATE events SET stream_version = 2 WHERE global_position = 6")
        .await;
    f.raw("UPDATE events SET stream_version = 3 WHERE global_position = 4")
        .await;
    let r = s.verify().await.unwrap();
    assert!(
        r.problems
            .iter()
            .any(|p| p.stream == "v-2" && p.position == 4),
        "{:?}",
        r.problems
    );
    f.raw("UPDATE events SET stream_version = 100 WHERE global_position = 4")
        .await;
    f.raw("UPDATE events SET stream_version = 3 WHERE global_position = 6")
        .await;
    f.raw("UPDATE events SET stream_version = 2 WHERE global_position = 4")
        .await;
    assert!(s.verify().await.unwrap().is_ok());

    // Deleted in the middle (position 5 = v-1 version 3).
    f.raw("DELETE FROM events WHERE global_position = 5").await;
    let r = s.verify().await.unwrap();
    assert!(
        r.problems
            .iter()
            .any(|p| p.position == 6 && p.message.contains("5..5")),
        "{:?}",
        r.problems
    );
    assert!(
        r.problems
            .iter()
            .any(|p| p.stream == "v-1" && p.message.contains("deleted")),
        "{:?}",
        r.problems
    );

    // Deleted at the end (last event of v-2 and the log).
    f.raw("DELETE FROM events WHERE global_position = 10").await;
    let r = s.verify().await.unwrap();
    assert!(
        r.problems
            .iter()
            .any(|p| p.message.contains("log head says 10")),
        "{:?}",
        r.problems
    );
    assert!(
        r.problems
            .iter()
            .any(|p| p.stream == "v-2" && p.message.contains("stream head")),
        "{:?}",
        r.problems
    );
}

async fn subscribe_catches_up_then_goes_live(f: Fixture) {
    let s = f.store.clone();
    for i in 0..3 {
        s.append(req("sub", None, &format!("c{i}"), vec![ev("E", "")]))
            .await
            .unwrap();
    }
    let mut sub = s.subscribe(2);
    assert_eq!(sub.next().await.unwrap().global_position, 2);
    assert_eq!(sub.next().await.unwrap().global_position, 3);
    let writer = s.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        writer
            .append(req("sub", None, "live", vec![ev("E", "")]))
            .await
            .unwrap();
    });
    let live = tokio::time::timeout(std::time::Duration::from_secs(5), sub.next())
        .await
        .expect("live event")
        .unwrap();
    assert_eq!(
        (live.global_position, live.command_id.as_str()),
        (4, "live")
    );
}

/// Many subscriptions following the log live (they share the events read at the head)
/// and one that lags far behind and catches up past what the shared tail keeps: each
/// gets every event once, in log order, with the content the log holds.
async fn many_live_subscriptions_get_every_event_once_in_order(f: Fixture) {
    let s = f.store.clone();
    const EVENTS: i64 = 6000;
    let mut readers = Vec::new();
    for r in 0..40 {
        let mut sub = s.subscribe(1);
        readers.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while got.len() < EVENTS as usize {
                let e = tokio::time::timeout(std::time::Duration::from_secs(30), sub.next())
                    .await
                    .expect("an event")
                    .unwrap();
                got.push((e.global_position, e.command_id));
                if r == 0 && got.len() == 10 {
                    // This one lags: the others go thousands of events ahead.
                    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
                }
            }
            got
        }));
    }
    for i in 0..EVENTS / 100 {
        let batch: Vec<AppendRequest> = (0..100)
            .map(|j| {
                req(
                    &format!("many-{}", j % 7),
                    None,
                    &format!("m{}", i * 100 + j),
                    vec![ev("E", "")],
                )
            })
            .collect();
        for r in s.append_batch(&batch).await.unwrap() {
            r.unwrap();
        }
        if i % 10 == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    let expected: Vec<(i64, String)> = s
        .read_all(1, EVENTS)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.global_position, e.command_id))
        .collect();
    assert_eq!(expected.len(), EVENTS as usize);
    for r in readers {
        assert_eq!(r.await.unwrap(), expected);
    }
}

async fn outbox_holds_every_event_until_acked(f: Fixture) {
    let s = &f.store;
    s.append(req("o", None, "c1", vec![ev("A", ""), ev("B", "")]))
        .await
        .unwrap();
    s.append(req("o", None, "c2", vec![ev("C", "")]))
        .await
        .unwrap();
    let pending = s.outbox_pending(10).await.unwrap();
    assert_eq!(
        pending
            .iter()
            .map(|e| e.global_position)
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(pending[0].subject(), "arbiter.v1.test.A");
    s.outbox_ack(&[1, 2]).await.unwrap();
    assert_eq!(s.outbox_len().await.unwrap(), 1);
    assert_eq!(s.outbox_pending(10).await.unwrap()[0].global_position, 3);
    s.save_checkpoint("proj", 3).await.unwrap();
    s.save_checkpoint("proj", 4).await.unwrap();
    assert_eq!(s.checkpoint("proj").await.unwrap(), 4);
    assert_eq!(s.checkpoint("none").await.unwrap(), 0);
}

/// An outbox row covers one commit's positions (ADR platform-011); acks that cut it
/// keep what is left on either side, whatever the path that wrote it.
async fn outbox_acks_cut_commit_ranges(f: Fixture) {
    let s = &f.store;
    let pending = |s: &EventStore| {
        let s = s.clone();
        async move {
            s.outbox_pending(100)
                .await
                .unwrap()
                .iter()
                .map(|e| e.global_position)
                .collect::<Vec<_>>()
        }
    };
    let five = (0..5).map(|i| ev("A", &format!("{i}"))).collect();
    s.append(req("r", None, "c1", five)).await.unwrap();
    s.append(req("r", None, "c2", vec![ev("B", ""), ev("C", "")]))
        .await
        .unwrap();
    s.append(req("q", None, "c3", vec![ev("D", "")]))
        .await
        .unwrap();
    assert_eq!(pending(s).await, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(s.outbox_pending(3).await.unwrap().len(), 3);
    s.outbox_ack(&[3, 2]).await.unwrap();
    assert_eq!(pending(s).await, [1, 4, 5, 6, 7, 8]);
    assert_eq!(s.outbox_len().await.unwrap(), 6);
    s.outbox_ack(&[1, 4, 5, 6]).await.unwrap();
    assert_eq!(pending(s).await, [7, 8]);
    s.outbox_ack(&[]).await.unwrap();
    s.outbox_ack(&[8, 8]).await.unwrap();
    assert_eq!(pending(s).await, [7]);
    s.outbox_ack(&[7, 100]).await.unwrap();
    assert_eq!(pending(s).await, Vec::<i64>::new());
    assert_eq!(s.outbox_len().await.unwrap(), 0);
}

async fn old_schema_versions_are_upcast_on_read(f: Fixture) {
    let s = &f.store;
    let mut old = ev("Renamed", "old-name");
    old.schema_version = 1;
    s.append(req("up", None, "c1", vec![old])).await.unwrap();
    fn v1_to_v2(p: &[u8]) -> Result<Vec<u8>, String> {
        Ok(format!("v2:{}", String::from_utf8_lossy(p)).into_bytes())
    }
    let up = Upcasters::new().register("Renamed", 1, v1_to_v2);
    assert_eq!(up.current_version("Renamed"), 2);
    let e = up
        .upcast(s.read_stream("up", 1).await.unwrap().remove(0))
        .unwrap();
    assert_eq!(
        (e.schema_version, e.payload.as_slice()),
        (2, b"v2:old-name".as_slice())
    );
    assert!(
        s.verify().await.unwrap().is_ok(),
        "upcasting never rewrites the stored event"
    );
}

/// Group commit: several requests in one transaction, each with exactly the outcome
/// `append` would give it in that order; refused requests write nothing, the others
/// commit.
async fn append_batch_has_per_request_semantics(f: Fixture) {
    let s = &f.store;
    assert!(s.append_batch(&[]).await.unwrap().is_empty());
    s.append(req("b-1", Some(0), "pre", vec![ev("A", "0")]))
        .await
        .unwrap();
    let mut watch = s.head_watch();
    let out = s
        .append_batch(&[
            // 0: fine, on an existing stream.
            req("b-1", Some(1), "k1", vec![ev("B", "1"), ev("C", "2")]),
            // 1: stale expected version → Conflict naming both versions.
            req("b-1", Some(1), "k2", vec![ev("X", "x")]),
            // 2: a new stream.
            req("b-2", Some(0), "k3", vec![ev("A", "3")]),
            // 3: sees what request 0 wrote in the same batch.
            req("b-1", Some(3), "k4", vec![ev("D", "4")]),
            // 4: a command id already applied before the batch → replayed.
            req("b-1", None, "pre", vec![ev("Y", "y")]),
            // 5: a command id of request 2 (same batch) on another stream → reused.
            req("b-1", None, "k3", vec![ev("Z", "z")]),
            // 6: malformed → Invalid naming the field.
            req("b-3", None, "k6", vec![]),
            // 7: request 2's command id on its own stream → replay of request 2.
            req("b-2", Some(0), "k3", vec![ev("A", "3")]),
        ])
        .await
        .unwrap();
    assert_eq!(out.len(), 8);
    let ack = |i: usize| out[i].as_ref().copied().unwrap();
    assert_eq!(
        (
            ack(0).first_position,
            ack(0).last_position,
            ack(0).stream_version
        ),
        (2, 3, 3)
    );
    assert!(matches!(
        &out[1],
        Err(Error::Conflict { stream, expected: 1, actual: 3 }) if stream == "b-1"
    ));
    assert_eq!((ack(2).first_position, ack(2).stream_version), (4, 1));
    assert_eq!((ack(3).first_position, ack(3).stream_version), (5, 4));
    assert!(ack(4).replayed);
    assert_eq!((ack(4).first_position, ack(4).stream_version), (1, 1));
    assert!(matches!(
        &out[5],
        Err(Error::CommandIdReused { original_stream, .. }) if original_stream == "b-2"
    ));
    assert!(
        out[6]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("events")
    );
    assert!(ack(7).replayed);
    assert_eq!(ack(7).first_position, 4);
    // Only what was accepted is in the log, gap-free, chained, with outbox rows.
    assert_eq!(s.head_position().await.unwrap(), 5);
    assert_eq!(*watch.borrow_and_update(), 5, "subscribers are woken");
    let all = s.read_all(1, 100).await.unwrap();
    assert_eq!(
        all.iter()
            .map(|e| e.event_type.as_str())
            .collect::<Vec<_>>(),
        ["A", "B", "C", "A", "D"]
    );
    assert_eq!(
        all.iter()
            .map(|e| e.command_id.as_str())
            .collect::<Vec<_>>(),
        ["pre", "k1", "k1", "k3", "k4"]
    );
    assert_eq!(s.stream_version("b-1").await.unwrap(), 4);
    assert_eq!(s.stream_version("b-3").await.unwrap(), 0);
    assert_eq!(s.outbox_len().await.unwrap(), 5);
    assert!(s.verify().await.unwrap().is_ok());
    // A batch of which nothing is accepted writes nothing.
    let out = s
        .append_batch(&[req("b-1", Some(0), "k9", vec![ev("X", "")])])
        .await
        .unwrap();
    assert!(matches!(out[0], Err(Error::Conflict { .. })));
    assert_eq!(s.head_position().await.unwrap(), 5);
    // And a retried batch writes nothing twice.
    let again = s
        .append_batch(&[req("b-1", Some(1), "k1", vec![ev("B", "1"), ev("C", "2")])])
        .await
        .unwrap();
    assert_eq!(again[0].as_ref().unwrap().first_position, 2);
    assert!(again[0].as_ref().unwrap().replayed);
    assert_eq!(s.head_position().await.unwrap(), 5);
}

/// `append_all`: a batch of which one request is refused writes nothing (both paths: a
/// first batch on streams whose heads the store knows, and one after a refusal); a batch
/// that is all accepted writes all; retried whole it writes nothing twice.
async fn append_all_writes_all_or_nothing(f: Fixture) {
    let s = &f.store;
    s.append(req("a-1", Some(0), "pre", vec![ev("A", "0")]))
        .await
        .unwrap();
    let batch = [
        req("a-2", Some(0), "n1", vec![ev("B", "1")]),
        // Stale: a-1 is at version 1.
        req("a-1", Some(0), "n2", vec![ev("C", "2")]),
        req("a-3", Some(0), "n3", vec![ev("D", "3")]),
    ];
    for _ in 0..2 {
        let out = s.append_all(&batch).await.unwrap();
        assert!(matches!(out[0], Err(Error::NotWritten)), "{out:?}");
        assert!(matches!(
            &out[1],
            Err(Error::Conflict { stream, expected: 0, actual: 1 }) if stream == "a-1"
        ));
        assert!(matches!(out[2], Err(Error::NotWritten)), "{out:?}");
        assert_eq!(s.head_position().await.unwrap(), 1, "nothing of the batch");
        assert_eq!(s.stream_version("a-2").await.unwrap(), 0);
    }
    let ok = [
        req("a-2", Some(0), "n1", vec![ev("B", "1")]),
        req("a-1", Some(1), "n2", vec![ev("C", "2")]),
    ];
    let out = s.append_all(&ok).await.unwrap();
    assert!(out.iter().all(Result::is_ok), "{out:?}");
    assert_eq!(s.head_position().await.unwrap(), 3);
    let again = s.append_all(&ok).await.unwrap();
    assert!(again.iter().all(|o| o.as_ref().unwrap().replayed));
    assert_eq!(s.head_position().await.unwrap(), 3);
    assert!(s.verify().await.unwrap().is_ok());
}

/// Batches and single appends from concurrent writers interleave into one gap-free log.
async fn concurrent_batches_are_ordered_and_gap_free(f: Fixture) {
    let s = f.store.clone();
    let mut tasks = Vec::new();
    for w in 0..4 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..10 {
                if w % 2 == 0 {
                    let batch: Vec<_> = (0..5)
                        .map(|j| {
                            req(
                                &format!("g-{w}-{j}"),
                                Some(i),
                                &format!("w{w}-{i}-{j}"),
                                vec![ev("E", "")],
                            )
                        })
                        .collect();
                    for o in s.append_batch(&batch).await.unwrap() {
                        o.unwrap();
                    }
                } else {
                    s.append(req("single", None, &format!("w{w}-{i}"), vec![ev("E", "")]))
                        .await
                        .unwrap();
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let all = s.read_all(1, 10_000).await.unwrap();
    assert_eq!(all.len(), 2 * 10 * 5 + 2 * 10);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.global_position, i as i64 + 1, "gap-free, ordered");
    }
    assert_eq!(s.stream_version("g-0-4").await.unwrap(), 10);
    assert!(s.verify().await.unwrap().is_ok());
}

/// Streams `v-1` and `v-2` of five events each, alternating, one commit per event
/// (positions 1..=10, `v-1` at the odd ones).
async fn ten_events(s: &EventStore) {
    for i in 0..5 {
        for stream in ["v-1", "v-2"] {
            s.append(req(
                stream,
                None,
                &format!("{stream}-{i}"),
                vec![ev("E", &i.to_string())],
            ))
            .await
            .unwrap();
        }
    }
}

async fn positions_are_read_in_log_order(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    let got: Vec<i64> = s
        .read_positions(&[9, 2, 2, 4, 99])
        .await
        .unwrap()
        .iter()
        .map(|e| e.global_position)
        .collect();
    assert_eq!(got, vec![2, 4, 9]);
    let many: Vec<i64> = (1..=10).rev().cycle().take(1_200).collect();
    assert_eq!(s.read_positions(&many).await.unwrap().len(), 10);
}

/// The options of the check at start (`check_log`): every event, the seals after the
/// anchor.
fn at_start(anchor: &Anchor) -> VerifyOptions {
    VerifyOptions {
        anchor: Some(anchor.clone()),
        signatures: Signatures::AfterAnchor,
        scope: Scope::Full,
    }
}

/// The incremental check at start: only what follows the anchor.
fn since(anchor: &Anchor) -> VerifyOptions {
    VerifyOptions {
        scope: Scope::SinceAnchor,
        ..at_start(anchor)
    }
}

fn says(r: &VerifyReport, position: i64, words: &str) -> bool {
    r.problems
        .iter()
        .any(|p| p.position == position && p.message.contains(words))
}

async fn incremental_check_walks_only_after_the_anchor(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    let anchor = s.anchor().await.unwrap().expect("an anchor");
    assert_eq!(anchor.position, 10);
    // After the anchor: both streams go on, a third one starts.
    for (i, stream) in ["v-1", "v-3", "v-2", "v-3", "v-1"].iter().enumerate() {
        s.append(req(
            stream,
            None,
            &format!("after-{i}"),
            vec![ev("E", &i.to_string())],
        ))
        .await
        .unwrap();
    }
    let r = s.verify_with(&since(&anchor)).await.unwrap();
    assert!(r.is_ok(), "{:?}", r.problems);
    assert_eq!(r.events, 5, "only the events after the anchor are walked");
    assert!(s.verify_with(&at_start(&anchor)).await.unwrap().is_ok());

    // An edit after the anchor is found.
    f.raw("UPDATE events SET reason = 'edited' WHERE global_position = 13")
        .await;
    let r = s.verify_with(&since(&anchor)).await.unwrap();
    assert!(says(&r, 13, "edited"), "{:?}", r.problems);
    f.raw("UPDATE events SET reason = '' WHERE global_position = 13")
        .await;
    assert!(s.verify_with(&since(&anchor)).await.unwrap().is_ok());

    // An edit before the anchor is what only the full walk finds.
    f.raw("UPDATE events SET reason = 'edited' WHERE global_position = 4")
        .await;
    assert!(s.verify_with(&since(&anchor)).await.unwrap().is_ok());
    let r = s.verify_with(&at_start(&anchor)).await.unwrap();
    assert!(says(&r, 4, "edited"), "{:?}", r.problems);
    f.raw("UPDATE events SET reason = '' WHERE global_position = 4")
        .await;

    // The log seal at the anchor no longer carries the anchor's hash: rewritten.
    f.raw(&format!(
        "UPDATE log_seals SET log_hash = {} WHERE position = 10",
        f.bytes(&[7; 32])
    ))
    .await;
    let r = s.verify_with(&since(&anchor)).await.unwrap();
    assert!(
        says(&r, 10, "the anchor says the log chain at position 10"),
        "{:?}",
        r.problems
    );
}

async fn check_at_start_finds_an_edit_with_its_hash_recomputed(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    let anchor = s.anchor().await.unwrap().expect("an anchor");
    // The last event of v-1 (position 9): payload edited, hash recomputed, stream
    // head moved along, so that the stream chain alone looks intact.
    let mut e = s.read_at(9).await.unwrap().expect("event 9");
    e.payload = b"\"forged\"".to_vec();
    e.hash = arbiter_eventlog::hash_chain::event_hash(&e).to_vec();
    f.raw(&format!(
        "UPDATE events SET payload = {}, hash = {} WHERE global_position = 9",
        f.bytes(&e.payload),
        f.bytes(&e.hash)
    ))
    .await;
    f.raw(&format!(
        "UPDATE streams SET head_hash = {} WHERE stream = 'v-1'",
        f.bytes(&e.hash)
    ))
    .await;
    let r = s.verify_with(&at_start(&anchor)).await.unwrap();
    assert!(
        says(&r, 9, "the log chain at position 9"),
        "{:?}",
        r.problems
    );
    assert!(
        !r.problems
            .iter()
            .any(|p| p.message.contains("hash mismatch"))
    );
    let r = s.verify().await.unwrap();
    assert!(
        says(&r, 9, "the seal of positions 9..9"),
        "{:?}",
        r.problems
    );
}

async fn check_at_start_finds_last_events_truncated_against_the_anchor(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    let anchor = s.anchor().await.unwrap().expect("an anchor");
    // The last two commits removed, and every table rewound to match.
    f.raw("DELETE FROM events WHERE global_position > 8").await;
    f.raw("DELETE FROM seals WHERE last_position > 8").await;
    f.raw("DELETE FROM log_seals WHERE position > 8").await;
    f.raw(
        "UPDATE log_head SET position = 8, \
         log_hash = (SELECT log_hash FROM log_seals WHERE position = 8) WHERE id = 1",
    )
    .await;
    for (stream, position) in [("v-1", 7), ("v-2", 8)] {
        f.raw(&format!(
            "UPDATE streams SET version = 4, \
             head_hash = (SELECT hash FROM events WHERE global_position = {position}) \
             WHERE stream = '{stream}'"
        ))
        .await;
    }
    let r = s.verify().await.unwrap();
    assert!(r.is_ok(), "without the anchor, a log cut short looks whole");
    let r = s.verify_with(&at_start(&anchor)).await.unwrap();
    assert!(
        says(
            &r,
            10,
            "the anchor says the log reached position 10, it ends at 8"
        ),
        "{:?}",
        r.problems
    );
    let r = s.verify_with(&since(&anchor)).await.unwrap();
    assert!(says(&r, 10, "the anchor says"), "{:?}", r.problems);
}

async fn check_at_start_finds_two_positions_swapped_across_streams(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    let anchor = s.anchor().await.unwrap().expect("an anchor");
    // Positions 3 (v-1 version 2) and 4 (v-2 version 2) trade places, with their
    // seals: each stream's order is unchanged, only the log's order is not.
    for (table, columns) in [
        ("events", &["global_position"][..]),
        ("seals", &["last_position", "first_position"][..]),
    ] {
        for (from, to) in [(3, -1), (4, 3), (-1, 4)] {
            let set = columns
                .iter()
                .map(|c| format!("{c} = {to}"))
                .collect::<Vec<_>>()
                .join(", ");
            f.raw(&format!(
                "UPDATE {table} SET {set} WHERE {} = {from}",
                columns[0]
            ))
            .await;
        }
    }
    let r = s.verify_with(&at_start(&anchor)).await.unwrap();
    assert!(
        says(&r, 3, "the log chain at position 3"),
        "{:?}",
        r.problems
    );
}

async fn check_at_start_finds_a_deleted_event_renumbered_away(f: Fixture) {
    let s = &f.store;
    ten_events(s).await;
    // Position 11: the only event of v-3; then two more of v-1 and v-2 (12, 13).
    for (i, stream) in ["v-3", "v-1", "v-2"].iter().enumerate() {
        s.append(req(stream, None, &format!("x{i}"), vec![ev("E", "x")]))
            .await
            .unwrap();
    }
    let anchor = s.anchor().await.unwrap().expect("an anchor");
    // v-3 deleted whole, every later position moved down one, the log head too.
    f.raw("DELETE FROM events WHERE global_position = 11").await;
    f.raw("DELETE FROM seals WHERE last_position = 11").await;
    f.raw("DELETE FROM log_seals WHERE position = 11").await;
    f.raw("DELETE FROM streams WHERE stream = 'v-3'").await;
    for (table, columns) in [
        ("events", &["global_position"][..]),
        ("seals", &["last_position", "first_position"][..]),
        ("log_seals", &["position"][..]),
    ] {
        let shift = |to: &str| {
            columns
                .iter()
                .map(|c| format!("{c} = {}", to.replace('c', c)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        f.raw(&format!(
            "UPDATE {table} SET {} WHERE {} > 11",
            shift("-(c - 1)"),
            columns[0]
        ))
        .await;
        f.raw(&format!(
            "UPDATE {table} SET {} WHERE {} < 0",
            shift("-c"),
            columns[0]
        ))
        .await;
    }
    f.raw("UPDATE log_head SET position = 12 WHERE id = 1")
        .await;
    let r = s.verify_with(&at_start(&anchor)).await.unwrap();
    assert!(
        !r.problems.iter().any(|p| p.message.contains("missing")),
        "the positions are gap-free again: {:?}",
        r.problems
    );
    assert!(
        says(&r, 11, "the log chain at position 11"),
        "{:?}",
        r.problems
    );
    assert!(says(&r, 13, "the anchor says"), "{:?}", r.problems);
}

/// Two stores on one log (two processes): each one's known heads go stale when the
/// other appends; its appends still land gap-free after the other's, expected versions
/// are judged on the database's heads, and a command id the other applied is a replay.
async fn two_writers_on_one_log_stay_gap_free(f: Fixture) {
    let a = &f.store;
    let b = EventStore::open_with(&f.url, a.keys().clone())
        .await
        .unwrap();
    a.append(req("s-1", Some(0), "a1", vec![ev("E", "1")]))
        .await
        .unwrap();
    a.append(req("s-2", None, "a2", vec![ev("E", "2")]))
        .await
        .unwrap();
    // b moves s-1 on: a's head of s-1 (version 1) is stale now.
    b.append(req("s-1", Some(1), "b1", vec![ev("E", "3")]))
        .await
        .unwrap();
    let ack = a
        .append(req("s-1", Some(2), "a3", vec![ev("E", "4")]))
        .await
        .unwrap();
    assert_eq!((ack.first_position, ack.stream_version), (4, 3));
    match a
        .append(req("s-1", Some(2), "a4", vec![ev("E", "5")]))
        .await
    {
        Err(Error::Conflict { actual: 3, .. }) => {}
        other => panic!("expected a conflict at version 3, got {other:?}"),
    }
    // b appends to another stream: a's next append to s-2 must not take position 5.
    b.append(req("s-3", None, "b2", vec![ev("E", "6")]))
        .await
        .unwrap();
    let ack = a
        .append(req("s-2", Some(1), "a5", vec![ev("E", "7")]))
        .await
        .unwrap();
    assert_eq!((ack.first_position, ack.stream_version), (6, 2));
    // A command id b applied is a replay for a, on a stream a knows the head of.
    a.append(req("s-3", None, "a6", vec![ev("E", "8")]))
        .await
        .unwrap();
    b.append(req("s-3", None, "b3", vec![ev("E", "9")]))
        .await
        .unwrap();
    let again = a
        .append(req("s-3", None, "b3", vec![ev("E", "9")]))
        .await
        .unwrap();
    assert!(again.replayed, "{again:?}");
    assert_eq!(again.first_position, 8);
    // And a's own command id, retried while a's heads are current.
    let again = a
        .append(req("s-3", None, "a6", vec![ev("E", "8")]))
        .await
        .unwrap();
    assert!(again.replayed && again.first_position == 7, "{again:?}");
    let all = a.read_all(1, 100).await.unwrap();
    let positions: Vec<i64> = all.iter().map(|e| e.global_position).collect();
    assert_eq!(positions, (1..=8).collect::<Vec<_>>());
    assert_eq!(a.head_position().await.unwrap(), 8);
    assert_eq!(a.stream_version("s-3").await.unwrap(), 3);
    let report = a.verify().await.unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
    b.close().await;
}

macro_rules! conformance {
    ($backend:ident: $($name:ident),* $(,)?) => {
        mod $backend {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::$backend().await).await;
                }
            )*
        }
    };
}

conformance!(sqlite: append_and_read, conflict_names_stream_and_versions, retried_command_id_writes_nothing,
    invalid_requests_write_nothing, concurrent_appends_are_ordered_and_gap_free,
    racing_writers_with_expected_version_one_wins, verify_detects_edit_delete_reorder,
    subscribe_catches_up_then_goes_live, many_live_subscriptions_get_every_event_once_in_order, outbox_holds_every_event_until_acked, outbox_acks_cut_commit_ranges, old_schema_versions_are_upcast_on_read,
    append_batch_has_per_request_semantics, append_all_writes_all_or_nothing, concurrent_batches_are_ordered_and_gap_free,
    incremental_check_walks_only_after_the_anchor, check_at_start_finds_an_edit_with_its_hash_recomputed,
    check_at_start_finds_last_events_truncated_against_the_anchor,
    check_at_start_finds_two_positions_swapped_across_streams,
    check_at_start_finds_a_deleted_event_renumbered_away,
    positions_are_read_in_log_order, two_writers_on_one_log_stay_gap_free);
conformance!(postgres: append_and_read, conflict_names_stream_and_versions, retried_command_id_writes_nothing,
    invalid_requests_write_nothing, concurrent_appends_are_ordered_and_gap_free,
    racing_writers_with_expected_version_one_wins, verify_detects_edit_delete_reorder,
    subscribe_catches_up_then_goes_live, many_live_subscriptions_get_every_event_once_in_order, outbox_holds_every_event_until_acked, outbox_acks_cut_commit_ranges, old_schema_versions_are_upcast_on_read,
    append_batch_has_per_request_semantics, append_all_writes_all_or_nothing, concurrent_batches_are_ordered_and_gap_free,
    incremental_check_walks_only_after_the_anchor, check_at_start_finds_an_edit_with_its_hash_recomputed,
    check_at_start_finds_last_events_truncated_against_the_anchor,
    check_at_start_finds_two_positions_swapped_across_streams,
    check_at_start_finds_a_deleted_event_renumbered_away,
    positions_are_read_in_log_order, two_writers_on_one_log_stay_gap_free);
