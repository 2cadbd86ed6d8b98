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
    let bus = Bus::connect_nats_with(server.url(), s.keys().clone())
        .await
        .unwrap();
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
    let (_, _, seal) = s.seals_between(1, 1).await.unwrap().remove(0);
    assert!(
        bus.publish(&again, &seal).await.unwrap(),
        "Nats-Msg-Id dedupe"
    );
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

/// Publishes `envelope` raw on `subject`, as anyone with access to NATS could.
async fn publish_raw(url: &str, subject: &str, envelope: &arbiter_proto::v1::EventEnvelope) {
    use prost::Message as _;
    let client = async_nats::connect(url).await.unwrap();
    let js = async_nats::jetstream::new(client);
    js.publish(subject.to_owned(), envelope.encode_to_vec().into())
        .await
        .unwrap()
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_envelopes_are_refused_and_sealed_appends_are_copied_verbatim() {
    use arbiter_eventlog::hash_chain::event_hash;
    let server = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("cannot start nats-server: {e}"));
    // The owner: a registry log whose relay publishes; the mirror: another log that
    // trusts the owner's keys only.
    let (owner, _d1) = store().await;
    let (mirror, _d2) = store().await;
    let owner_key = owner.keys().signer("registry").unwrap();
    mirror.keys().trust("registry", owner_key.public_key());
    let owner_bus = Bus::connect_nats_with(server.url(), owner.keys().clone())
        .await
        .unwrap();
    let mirror_bus = Bus::connect_nats_with(server.url(), mirror.keys().clone())
        .await
        .unwrap();
    // One append of three events (sealed once, on its last) and one of one event.
    owner
        .append(AppendRequest {
            stream: "tournament-1".into(),
            expected_version: None,
            events: (0..3)
                .map(|i| NewEvent {
                    event_type: "TournamentUpdated".into(),
                    schema_version: 1,
                    payload: vec![i],
                })
                .collect(),
            context: CommandContext {
                command_id: "c1".into(),
                actor: "chief".into(),
                service: "registry".into(),
                ..Default::default()
            },
        })
        .await
        .unwrap();
    append(&owner, "tournament-1", "c2", "TournamentUpdated").await;
    let (stop, stopped) = watch::channel(true);
    run_relay(owner.clone(), owner_bus.clone(), opts(), stopped)
        .await
        .unwrap();
    drop(stop);

    // Forgeries, each on the registry's subjects.
    let genuine = owner.read_at(4).await.unwrap().unwrap();
    let mut forged = genuine.to_envelope();
    forged.stream_version = 5;
    forged.prev_hash = genuine.hash.clone();
    forged.event_id = uuid::Uuid::now_v7().to_string();
    forged.actor = "admin".into();
    forged.payload = b"renamed".to_vec();
    let rehash = |e: &mut arbiter_proto::v1::EventEnvelope| {
        let r = arbiter_eventlog::RecordedEvent::from_envelope(e.clone(), String::new());
        e.hash = event_hash(&r).to_vec();
    };
    rehash(&mut forged);
    let subject = "arbiter.v1.registry.TournamentUpdated";
    // (1) no seal at all.
    publish_raw(server.url(), subject, &forged).await;
    // (2) a seal by a key nobody trusts.
    let mallory = arbiter_eventlog::Keys::ephemeral("mallory");
    let mkey = mallory.signer("registry").unwrap();
    let mut signed = forged.clone();
    signed.seal_version = 5;
    signed.seal_key_id = mkey.key_id().to_owned();
    signed.seal_signature = mkey.sign(&arbiter_eventlog::signing::seal_message(&forged.hash));
    publish_raw(server.url(), subject, &signed).await;
    // (3) the owner's genuine seal of version 4 replayed on the forged version 5.
    let (_, _, seal4) = owner.seals_between(4, 4).await.unwrap().remove(0);
    let mut replayed = forged.clone();
    replayed.seal_version = 5;
    replayed.seal_key_id = seal4.key_id.clone();
    replayed.seal_signature = seal4.signature.clone();
    publish_raw(server.url(), subject, &replayed).await;
    // (4) on a subject of another service than the event names.
    publish_raw(
        server.url(),
        "arbiter.v1.results.TournamentUpdated",
        &signed,
    )
    .await;

    let before = arbiter_bus::rejected_events();
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(arbiter_bus::mirror::run_mirrors(
        mirror_bus,
        mirror.clone(),
        "mirror-test".into(),
        vec![
            "arbiter.v1.registry.>".into(),
            "arbiter.v1.results.>".into(),
        ],
        stopped,
    ));
    // The genuine four events arrive; then the forgeries are refused.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while mirror.stream_version("tournament-1").await.unwrap() < 4
        || arbiter_bus::rejected_events() < before + 4
    {
        assert!(
            std::time::Instant::now() < deadline,
            "mirror at version {}, {} rejected",
            mirror.stream_version("tournament-1").await.unwrap(),
            arbiter_bus::rejected_events() - before
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.send(true).unwrap();
    task.await.unwrap();
    assert_eq!(mirror.stream_version("tournament-1").await.unwrap(), 4);
    assert_eq!(arbiter_bus::rejected_events() - before, 4);
    // Copies are verbatim (same ids, actors, hashes) and carry the owner's seal.
    for v in 1..=4 {
        let o = &owner.read_stream("tournament-1", v).await.unwrap()[0];
        let m = &mirror.read_stream("tournament-1", v).await.unwrap()[0];
        assert_eq!(
            (&o.event_id, &o.actor, &o.hash),
            (&m.event_id, &m.actor, &m.hash)
        );
    }
    assert_eq!(
        mirror.outbox_len().await.unwrap(),
        0,
        "copies are not published again"
    );
    let report = mirror.verify().await.unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_rotation_on_the_bus_is_trusted_through_the_old_key() {
    let server = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("cannot start nats-server: {e}"));
    let (owner, _d1) = store().await;
    let (mirror, _d2) = store().await;
    // The mirror knows only the owner's first key.
    let first = owner.keys().signer("registry").unwrap();
    mirror.keys().trust("registry", first.public_key());
    append(&owner, "tournament-1", "c1", "TournamentUpdated").await;
    let (_, new_id) = owner.rotate_key("registry").await.unwrap();
    append(&owner, "tournament-1", "c2", "TournamentUpdated").await;
    let owner_bus = Bus::connect_nats_with(server.url(), owner.keys().clone())
        .await
        .unwrap();
    let (stop, stopped) = watch::channel(true);
    run_relay(owner.clone(), owner_bus, opts(), stopped)
        .await
        .unwrap();
    drop(stop);
    let mirror_bus = Bus::connect_nats_with(server.url(), mirror.keys().clone())
        .await
        .unwrap();
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(arbiter_bus::mirror::run_mirrors(
        mirror_bus,
        mirror.clone(),
        "mirror-rotation".into(),
        vec!["arbiter.v1.registry.>".into()],
        stopped,
    ));
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while mirror.stream_version("tournament-1").await.unwrap() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the event sealed by the new key never arrived"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.send(true).unwrap();
    task.await.unwrap();
    assert_eq!(mirror.stream_version("keys-registry").await.unwrap(), 1);
    assert_eq!(mirror.keys().trusted(&new_id).unwrap().service, "registry");
    let report = mirror.verify().await.unwrap();
    assert!(report.is_ok(), "{:?}", report.problems);
}
