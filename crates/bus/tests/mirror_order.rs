//! A mirror copies a stream in order whatever order NATS redelivers it in (ADR
//! platform-016): here the first append of a stream comes back only after the next one,
//! as when the consumer that had it in flight was lost with its NATS node.
use std::time::{Duration, Instant};

use arbiter_bus::relay::{RelayOptions, run_relay};
use arbiter_bus::{Bus, DEFAULT_ACK_WAIT, MAX_ACK_PENDING, STREAM_NAME};
use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};
use async_nats::jetstream::{self, consumer::pull};
use futures::StreamExt;
use tokio::sync::watch;

async fn append(s: &EventStore, stream: &str, events: usize) {
    s.append(AppendRequest {
        stream: stream.into(),
        expected_version: None,
        events: (0..events)
            .map(|i| NewEvent {
                event_type: "PlayerAdded".into(),
                schema_version: 1,
                payload: vec![i as u8],
            })
            .collect(),
        context: CommandContext {
            command_id: uuid::Uuid::new_v4().to_string(),
            actor: "tester".into(),
            service: "registry".into(),
            ..Default::default()
        },
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_redelivered_after_a_newer_one_is_copied_and_nothing_is_terminated() {
    let server = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("cannot start nats-server: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let open = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
    let owner = EventStore::open(&open("owner.db")).await.unwrap();
    let copy = EventStore::open(&open("copy.db")).await.unwrap();
    let key = owner.keys().signer("registry").unwrap().public_key();
    copy.keys().trust("registry", key);

    // The owner's stream: an append of two events (versions 1–2, sealed at 2), then one
    // of one event (version 3); all published.
    let stream = "tournament-01a23c16-0000-7000-8000-000000000001";
    append(&owner, stream, 2).await;
    append(&owner, stream, 1).await;
    let owner_bus = Bus::connect_nats_with(server.url(), owner.keys().clone())
        .await
        .unwrap();
    let (_stop, stopped) = watch::channel(true);
    let options = RelayOptions {
        abort_after_publish: false,
        ..Default::default()
    };
    assert_eq!(
        run_relay(owner.clone(), owner_bus, options, stopped)
            .await
            .unwrap(),
        3
    );

    // A consumer of the mirror's durable takes the first append and is lost: version 1
    // is handed back at once, version 2 only after the ack wait.
    let filter = "arbiter.v1.registry.>";
    let durable = "mirror-order-0";
    let client = async_nats::connect(server.url()).await.unwrap();
    let js = jetstream::new(client);
    let consumer: jetstream::consumer::PullConsumer = js
        .get_stream(STREAM_NAME)
        .await
        .unwrap()
        .create_consumer(pull::Config {
            durable_name: Some(durable.into()),
            filter_subject: filter.into(),
            ack_policy: jetstream::consumer::AckPolicy::Explicit,
            ack_wait: DEFAULT_ACK_WAIT,
            max_ack_pending: MAX_ACK_PENDING,
            ..Default::default()
        })
        .await
        .unwrap();
    let mut batch = consumer.fetch().max_messages(2).messages().await.unwrap();
    let first = batch.next().await.unwrap().unwrap();
    let second = batch.next().await.unwrap().unwrap();
    first.ack_with(jetstream::AckKind::Nak(None)).await.unwrap();
    drop((second, batch));

    // The mirror now gets version 1, then version 3's append, then version 2.
    let bus = Bus::connect_nats_with(server.url(), copy.keys().clone())
        .await
        .unwrap();
    let (stop, shutdown) = watch::channel(false);
    let mirror = tokio::spawn(arbiter_bus::mirror::run_mirrors(
        bus,
        copy.clone(),
        "mirror-order".into(),
        vec![filter.into()],
        shutdown,
    ));
    let deadline = Instant::now() + DEFAULT_ACK_WAIT * 3;
    while copy.stream_version(stream).await.unwrap() < 3 {
        assert!(
            Instant::now() < deadline,
            "the copy has version {} of 3 after {:?}",
            copy.stream_version(stream).await.unwrap(),
            DEFAULT_ACK_WAIT * 3
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(arbiter_bus::rejected_events(), 0, "nothing refused");
    let _ = stop.send(true);
    mirror.await.unwrap();
    let copied = copy.read_stream(stream, 1).await.unwrap();
    let owned = owner.read_stream(stream, 1).await.unwrap();
    let ids = |v: &[arbiter_eventlog::RecordedEvent]| {
        v.iter().map(|e| e.event_id.clone()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&copied), ids(&owned), "verbatim, in stream order");
}
