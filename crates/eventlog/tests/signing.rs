//! Seals, key rotation and request digests (ADR platform-006), on both backends.
use arbiter_eventlog::{AppendRequest, CommandContext, Error, EventStore, Keys, NewEvent};

fn req(stream: &str, command: &str, digest: &[u8], payload: &str) -> AppendRequest {
    AppendRequest {
        stream: stream.into(),
        expected_version: None,
        events: vec![NewEvent {
            event_type: "Tick".into(),
            schema_version: 1,
            payload: payload.as_bytes().to_vec(),
        }],
        context: CommandContext {
            command_id: command.into(),
            actor: "tester".into(),
            service: "registry".into(),
            request_digest: digest.to_vec(),
            ..Default::default()
        },
    }
}

/// Rotating a key keeps the old seals verifiable, in this process, in a new process
/// with the same key dir, and in one that only ever trusted the old key (it learns the
/// new one from the rotation event, sealed by the old key).
async fn rotation_keeps_old_seals_verifiable(url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let keys = Keys::in_dir(dir.path(), "log", None).unwrap();
    let old = keys.signer("registry").unwrap();
    let log_key = keys.signer("log").unwrap();
    let s = EventStore::open_with(url, keys.clone()).await.unwrap();
    s.append(req("tournament-1", "a", b"", "before"))
        .await
        .unwrap();
    let (old_id, new_id) = s.rotate_key("registry").await.unwrap();
    assert_eq!(old_id, old.key_id());
    assert_ne!(old_id, new_id);
    s.append(req("tournament-1", "b", b"", "after"))
        .await
        .unwrap();
    let seals = s.seals_between(1, 10).await.unwrap();
    let ids: Vec<&str> = seals.iter().map(|(_, _, s)| s.key_id.as_str()).collect();
    assert_eq!(ids, [old_id.as_str(), old_id.as_str(), new_id.as_str()]);
    let r = s.verify().await.unwrap();
    assert!(r.is_ok(), "{:?}", r.problems);
    s.close().await;

    let again = Keys::in_dir(dir.path(), "log", None).unwrap();
    assert_eq!(again.signer("registry").unwrap().key_id(), new_id);
    let s = EventStore::open_with(url, again).await.unwrap();
    let r = s.verify().await.unwrap();
    assert!(r.is_ok(), "{:?}", r.problems);
    s.close().await;

    // A verifier that trusts only the old registry key and the log's key.
    let other = Keys::ephemeral("log");
    other.trust("registry", old.public_key());
    other.trust("log", log_key.public_key());
    assert!(other.trusted(&new_id).is_none());
    let s = EventStore::open_with(url, other.clone()).await.unwrap();
    assert_eq!(other.trusted(&new_id).unwrap().service, "registry");
    let r = s.verify().await.unwrap();
    assert!(r.is_ok(), "{:?}", r.problems);
    s.close().await;
}

/// A command id answers a retry of the same request and refuses another one.
async fn a_command_id_is_bound_to_its_request_digest(url: &str) {
    let s = EventStore::open(url).await.unwrap();
    let first = s.append(req("s-1", "X", b"digest-1", "one")).await.unwrap();
    let again = s.append(req("s-1", "X", b"digest-1", "one")).await.unwrap();
    assert!(again.replayed);
    assert_eq!(again.last_position, first.last_position);
    let head = s.head_position().await.unwrap();
    let other = s
        .append(req("s-1", "X", b"digest-2", "two"))
        .await
        .unwrap_err();
    assert!(matches!(other, Error::CommandIdMismatch { .. }), "{other}");
    assert!(
        other
            .to_string()
            .contains("X was already used by another request")
    );
    assert_eq!(s.head_position().await.unwrap(), head, "nothing written");
    let batch = s
        .append_batch(&[
            req("s-1", "X", b"digest-2", "two"),
            req("s-2", "Y", b"d", "y"),
        ])
        .await
        .unwrap();
    assert!(matches!(batch[0], Err(Error::CommandIdMismatch { .. })));
    assert!(batch[1].is_ok());
    assert_eq!(s.command_digest("X").await.unwrap().unwrap(), b"digest-1");
    s.close().await;
}

/// A log that must not grow refuses every append, whoever makes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_log_takes_no_append() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("log.db").display());
    let s = EventStore::open(&url).await.unwrap();
    s.append(req("s-1", "a", b"", "one")).await.unwrap();
    s.refuse_appends("the log failed its check".into());
    let e = s.append(req("s-1", "b", b"", "two")).await.unwrap_err();
    assert!(matches!(e, Error::ReadOnly(_)), "{e}");
    assert!(s.append_batch(&[req("s-2", "c", b"", "x")]).await.is_err());
    assert_eq!(s.head_position().await.unwrap(), 1);
}

async fn on_sqlite(f: impl AsyncFnOnce(&str)) {
    let dir = tempfile::tempdir().unwrap();
    f(&format!("sqlite://{}", dir.path().join("log.db").display())).await;
}

async fn on_postgres(f: impl AsyncFnOnce(&str)) {
    let pg = tokio::task::spawn_blocking(arbiter_testkit::PgServer::start)
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("PostgreSQL: {e}"));
    f(pg.url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_rotation_keeps_old_seals_verifiable() {
    on_sqlite(rotation_keeps_old_seals_verifiable).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_rotation_keeps_old_seals_verifiable() {
    on_postgres(rotation_keeps_old_seals_verifiable).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_command_id_is_bound_to_its_request_digest() {
    on_sqlite(a_command_id_is_bound_to_its_request_digest).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_command_id_is_bound_to_its_request_digest() {
    on_postgres(a_command_id_is_bound_to_its_request_digest).await;
}
