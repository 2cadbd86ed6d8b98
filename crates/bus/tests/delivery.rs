//! Delivery through a real nats-server -js, and the in-process bus, with the relay.
use std::time::Duration;

use arbiter_bus::Bus;
use arbiter_bus::relay::{RelayOptions, run_relay};
use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};
use tokio::sync::watch;

async fn store() -> (EventStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    (EventStore::open(&url).await.unwrap(), dir)
}

async fn append(s: &EventStore, stream: &str, cmd: &str, t: &str) {
    s.append(AppendRequest {
        stream: stream.into(),
        expected_version: None,
        events: vec![NewEvent {
            event_type: t.into(),
            schema_version: 1,
            payload: vec![1, 2, 3],
        }],
        context: CommandContext {
            command_id: cmd.into(),
            actor: "tester".into(),
            service: "registry".into(),
            trace_parent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".into(),
            ..Default::default()
        },
    })
    .await
    .unwrap();
}

fn opts() -> RelayOptions {
    RelayOptions {
        abort_after_publish: false,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nats_relay_publishes_in_order_and_consumer_resumes_after_ack() {
    let server = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("cannot start nats-server: {e}"));
    let (s, _dir) = store().await;
    let bus = Bus::connect_nats(server.url()).await.unwrap();
    for i in 0..5 {
        append(&s, "tournament-1", &format!("c{i}"), "TournamentUpdated").await;
    }
    append(&s, "other", "x", "Other").await;
    let (stop, stopped) = watch::channel(true); // drain then stop
    let n = run_relay(s.clone(), bus.clone(), opts(), stopped)
        .await
        .unwrap();
    drop(stop);
    assert_eq!(n, 6);
    assert_eq!(s.outbox_len().await.unwrap(), 0);

    let mut c = bus
        .consumer_with_ack_wait(
            "test-consumer",
            "arbiter.v1.registry.TournamentUpdated",
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    for v in 1..=3 {
        let d = tokio::time::timeout(Duration::from_secs(5), c.next())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(d.event.stream_version, v);
        assert_eq!(
            d.event.trace_parent, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "trace context travels in headers"
        );
        assert_eq!(d.event.payload, vec![1, 2, 3]);
        d.ack().await.unwrap();
    }
    drop(c);
    // Republishing an already-published event is a server-side duplicate.
    let again = s.read_at(1).await.unwrap().unwrap();
    assert!(bus.publish(&again).await.unwrap(), "Nats-Msg-Id dedupe");
    // A new consumer instance with the same durable name resumes at version 4
    // (what the dropped instance had fetched but not acked is redelivered after ack_wait).
    let mut c = bus
        .consumer_with_ack_wait(
            "test-consumer",
            "arbiter.v1.registry.TournamentUpdated",
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    let d = tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.event.stream_version, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_process_bus_delivers_from_checkpoint_and_filters() {
    let (s, _dir) = store().await;
    let bus = Bus::InProcess(s.clone());
    append(&s, "a", "c1", "TournamentCreated").await;
    append(&s, "a", "c2", "Ignored").await;
    append(&s, "a", "c3", "TournamentCreated").await;
    let mut c = bus
        .consumer("p", "arbiter.v1.registry.TournamentCreated")
        .await
        .unwrap();
    let d = c.next().await.unwrap();
    assert_eq!(d.event.global_position, 1);
    d.ack().await.unwrap();
    drop(c);
    let mut c = bus
        .consumer("p", "arbiter.v1.registry.TournamentCreated")
        .await
        .unwrap();
    let d = c.next().await.unwrap();
    assert_eq!(
        d.event.global_position, 3,
        "resumes after the acked event, skips other subjects"
    );
    // live
    let s2 = s.clone();
    tokio::spawn(async move { append(&s2, "b", "c4", "TournamentCreated").await });
    let d = tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(d.event.stream, "b");
}
