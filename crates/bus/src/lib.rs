//! # Event delivery
//!
//! The event log is the truth; the bus carries it to other services.
//! - [`relay::run_relay`]: the transactional-outbox relay. It reads outbox rows in log
//!   order, publishes each event, and only then deletes the rows. A crash between the
//!   two republishes the event: NATS drops it by `Nats-Msg-Id` (= event id) inside the
//!   stream's duplicate window, and consumers drop what is left by (stream, version).
//! - [`Bus::Nats`]: JetStream stream `ARBITER`, subjects
//!   `arbiter.v1.<service>.<event-type>`; consumers are durable pull consumers that ack
//!   after the caller's projection has committed ([`Delivery::ack`]).
//! - [`Bus::InProcess`]: the embedded mode. The log itself is the queue: a consumer is a
//!   subscription on the log from its saved checkpoint, and its ack saves the
//!   checkpoint. Same API, same at-least-once + dedupe semantics, no server.
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arbiter_eventlog::hash_chain::event_hash;
use arbiter_eventlog::signing::seal_message;
use arbiter_eventlog::{EventStore, Keys, RecordedEvent, Seal};
use arbiter_proto::v1::EventEnvelope;
use async_nats::jetstream::{self, consumer::pull, stream};
use futures::StreamExt;
use prost::Message as _;

pub mod mirror;
pub mod relay;

/// Name of the JetStream stream that carries every event.
pub const STREAM_NAME: &str = "ARBITER";
/// Subjects it holds.
/// Event subjects have exactly four tokens (`arbiter.v1.<service>.<event-type>`); device
/// telemetry (`arbiter.v1.clock.in.<tournament>.<board>`) is not captured.
pub const STREAM_SUBJECTS: &str = "arbiter.v1.*.*";
/// Header carrying the W3C trace context.
pub const TRACEPARENT_HEADER: &str = "traceparent";
/// JetStream dedupe window for `Nats-Msg-Id` (a relay restarting later than this after a
/// crash still cannot double-deliver: consumers dedupe by stream version too).
pub const DUPLICATE_WINDOW: Duration = Duration::from_secs(3600);

/// Default redelivery delay for unacknowledged NATS deliveries.
pub const DEFAULT_ACK_WAIT: Duration = Duration::from_secs(10);

/// Events of one append that may wait for their seal (the append's last event).
pub const MAX_UNSEALED_RUN: usize = 100_000;
/// Deliveries a consumer may hold unacknowledged. A mirror acknowledges an append's
/// events only once its sealed last event has arrived, so this must exceed the largest
/// append: NATS's default (1,000) stalled every append of more than 1,000 events (a
/// 4,000-player `tournament import`) until its seal timed out. The largest append is a
/// TRF import of `MAX_PLAYERS` (9,999) entries and its rounds' blocks.
pub const MAX_ACK_PENDING: i64 = MAX_UNSEALED_RUN as i64;

/// How long the events of an append may wait for their seal.
pub const MAX_UNSEALED_WAIT: Duration = Duration::from_secs(120);

static REJECTED: AtomicU64 = AtomicU64::new(0);

/// Events from the bus refused by this process since it started (no seal, a seal that
/// does not verify, a broken chain, a subject that does not match): never applied.
pub fn rejected_events() -> u64 {
    REJECTED.load(Ordering::Relaxed)
}

/// Counts (in process and as the OTLP metric `arbiter.bus.events_rejected`, by subject)
/// and logs a refused event (ADR platform-006).
pub fn reject(subject: &str, event: &RecordedEvent, why: &str) {
    REJECTED.fetch_add(1, Ordering::Relaxed);
    // Exported over OTLP when a collector is configured (service-kit's telemetry).
    static COUNTER: std::sync::OnceLock<opentelemetry::metrics::Counter<u64>> =
        std::sync::OnceLock::new();
    COUNTER
        .get_or_init(|| {
            opentelemetry::global::meter("arbiter-bus")
                .u64_counter("arbiter.bus.events_rejected")
                .with_description("events from the bus refused: no seal, a seal that does not verify, a broken chain, a wrong subject")
                .build()
        })
        .add(1, &[opentelemetry::KeyValue::new("subject", subject.to_owned())]);
    tracing::error!(
        %subject,
        stream = %event.stream,
        version = event.stream_version,
        event_id = %event.event_id,
        actor = %event.actor,
        reason = %why,
        "event from the bus refused, not applied"
    );
}

/// Delivery errors.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// NATS failed (connect, publish, consume).
    #[error("nats: {0}")]
    Nats(String),
    /// The event log failed.
    #[error(transparent)]
    Log(#[from] arbiter_eventlog::Error),
    /// A message on the bus is not an event envelope.
    #[error("message on {subject} is not an arbiter.v1.EventEnvelope: {message}")]
    Decode {
        /// Where it came from.
        subject: String,
        /// Why it failed.
        message: String,
    },
}

fn nats<E: std::fmt::Display>(e: E) -> Error {
    Error::Nats(e.to_string())
}

/// Where events go.
#[derive(Clone)]
pub enum Bus {
    /// Embedded mode: the log is the queue.
    InProcess(EventStore),
    /// Distributed mode: NATS JetStream.
    Nats(Box<NatsBus>),
}

/// A JetStream connection with the `ARBITER` stream ensured.
#[derive(Clone)]
pub struct NatsBus {
    client: async_nats::Client,
    js: jetstream::Context,
    keys: Arc<Keys>,
}

/// How a process reaches and proves itself to NATS (ADR platform-009): TLS with a CA
/// of its own and a client certificate, and user/password or an NKey seed file. The default is what `nats://` alone gives: plaintext
/// (unless the server asks for TLS), no credentials.
#[derive(Clone, Default)]
pub struct NatsConnect {
    /// CA certificate (PEM) the server's certificate must chain to, instead of the
    /// system's roots. Implies TLS.
    pub ca: Option<PathBuf>,
    /// Client certificate and its key (PEM), for a server that verifies clients. Implies TLS.
    pub client_cert: Option<(PathBuf, PathBuf)>,
    /// Refuse a connection that is not TLS (also implied by `tls://` URLs, [`Self::ca`]
    /// and [`Self::client_cert`]).
    pub require_tls: bool,
    /// The credentials.
    pub auth: NatsAuth,
    /// Connection name shown by the server (`connz`), e.g. the service.
    pub name: Option<String>,
}

/// NATS credentials.
#[derive(Clone, Default)]
pub enum NatsAuth {
    /// None.
    #[default]
    None,
    /// User and password (server `authorization { users = [...] }`).
    UserPassword {
        /// User.
        user: String,
        /// Password.
        password: String,
    },
    /// A file holding an NKey seed (`SU…`).
    NkeySeedFile(PathBuf),
}

impl std::fmt::Debug for NatsAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NatsAuth::None => f.write_str("None"),
            NatsAuth::UserPassword { user, .. } => write!(f, "UserPassword({user}, ***)"),
            NatsAuth::NkeySeedFile(p) => write!(f, "NkeySeedFile({})", p.display()),
        }
    }
}

impl std::fmt::Debug for NatsConnect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NatsConnect")
            .field("ca", &self.ca)
            .field("client_cert", &self.client_cert)
            .field("require_tls", &self.require_tls)
            .field("auth", &self.auth)
            .field("name", &self.name)
            .finish()
    }
}

impl NatsConnect {
    /// True when nothing is configured (plain `nats://`, no credentials).
    pub fn is_default(&self) -> bool {
        self.ca.is_none()
            && self.client_cert.is_none()
            && !self.require_tls
            && matches!(self.auth, NatsAuth::None)
    }

    /// The async-nats options. Files are checked here so that an error names the file.
    pub fn options(&self, url: &str) -> Result<async_nats::ConnectOptions, Error> {
        fn readable(path: &Path, what: &str) -> Result<(), Error> {
            std::fs::File::open(path)
                .map(drop)
                .map_err(|e| Error::Nats(format!("{what} {}: {e}", path.display())))
        }
        let mut o = async_nats::ConnectOptions::new();
        if let Some(name) = &self.name {
            o = o.name(name);
        }
        let tls_url = url
            .split(',')
            .any(|u| u.trim().to_ascii_lowercase().starts_with("tls://"));
        if self.require_tls || tls_url || self.ca.is_some() || self.client_cert.is_some() {
            o = o.require_tls(true);
        }
        if let Some(ca) = &self.ca {
            readable(ca, "NATS CA certificate")?;
            o = o.add_root_certificates(ca.clone());
        }
        if let Some((cert, key)) = &self.client_cert {
            readable(cert, "NATS client certificate")?;
            readable(key, "NATS client key")?;
            o = o.add_client_certificate(cert.clone(), key.clone());
        }
        o = match &self.auth {
            NatsAuth::None => o,
            NatsAuth::UserPassword { user, password } => {
                o.user_and_password(user.clone(), password.clone())
            }
            NatsAuth::NkeySeedFile(path) => {
                let seed = std::fs::read_to_string(path).map_err(|e| {
                    Error::Nats(format!("NATS NKey seed file {}: {e}", path.display()))
                })?;
                let seed = seed
                    .lines()
                    .map(str::trim)
                    .find(|l| l.starts_with('S'))
                    .ok_or_else(|| {
                        Error::Nats(format!(
                            "NATS NKey seed file {}: no seed (a line starting with `SU`) in it",
                            path.display()
                        ))
                    })?;
                o.nkey(seed.to_owned())
            }
        };
        Ok(o)
    }
}

impl NatsBus {
    /// Connects and creates the `ARBITER` stream if missing (file storage; replicas
    /// from `ARBITER_NATS_STREAM_REPLICAS`, default 1 — use 3 on a 3-node cluster).
    pub async fn connect(url: &str) -> Result<Self, Error> {
        Self::connect_with(url, Keys::ephemeral("bus")).await
    }

    /// As [`NatsBus::connect`]; consumers accept only events sealed by `keys`' trusted keys.
    pub async fn connect_with(url: &str, keys: Arc<Keys>) -> Result<Self, Error> {
        Self::connect_configured(url, keys, &NatsConnect::default()).await
    }

    /// As [`NatsBus::connect_with`], with TLS and credentials from `how`.
    pub async fn connect_configured(
        url: &str,
        keys: Arc<Keys>,
        how: &NatsConnect,
    ) -> Result<Self, Error> {
        let replicas = std::env::var("ARBITER_NATS_STREAM_REPLICAS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        // A cluster is given as a comma-separated list of node URLs.
        let servers: Vec<&str> = url
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let client = how.options(url)?.connect(servers).await.map_err(nats)?;
        let js = jetstream::new(client.clone());
        js.get_or_create_stream(stream::Config {
            name: STREAM_NAME.to_owned(),
            subjects: vec![STREAM_SUBJECTS.to_owned()],
            storage: stream::StorageType::File,
            duplicate_window: DUPLICATE_WINDOW,
            num_replicas: replicas,
            ..Default::default()
        })
        .await
        .map_err(nats)?;
        Ok(NatsBus { client, js, keys })
    }

    /// The underlying client (for request/reply telemetry subjects).
    pub fn client(&self) -> &async_nats::Client {
        &self.client
    }
}

impl Bus {
    /// Connects to NATS JetStream (see [`NatsBus::connect`]).
    pub async fn connect_nats(url: &str) -> Result<Bus, Error> {
        Ok(Bus::Nats(Box::new(NatsBus::connect(url).await?)))
    }

    /// Connects to NATS JetStream; consumers verify seals against `keys`.
    pub async fn connect_nats_with(url: &str, keys: Arc<Keys>) -> Result<Bus, Error> {
        Ok(Bus::Nats(Box::new(NatsBus::connect_with(url, keys).await?)))
    }

    /// As [`Bus::connect_nats_with`], with TLS and credentials from `how`.
    pub async fn connect_nats_configured(
        url: &str,
        keys: Arc<Keys>,
        how: &NatsConnect,
    ) -> Result<Bus, Error> {
        Ok(Bus::Nats(Box::new(
            NatsBus::connect_configured(url, keys, how).await?,
        )))
    }

    /// Publishes one event with the seal of its append (idempotent by event id).
    /// Returns true when the server saw it as a duplicate.
    pub async fn publish(&self, event: &RecordedEvent, seal: &Seal) -> Result<bool, Error> {
        match self {
            Bus::InProcess(_) => Ok(false),
            Bus::Nats(n) => {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert("Nats-Msg-Id", event.event_id.as_str());
                if !event.trace_parent.is_empty() {
                    headers.insert(TRACEPARENT_HEADER, event.trace_parent.as_str());
                }
                let mut envelope = event.to_envelope();
                envelope.seal_version = seal.version;
                envelope.seal_key_id = seal.key_id.clone();
                envelope.seal_signature = seal.signature.clone();
                let body = envelope.encode_to_vec();
                let ack =
                    n.js.publish_with_headers(event.subject(), headers, body.into())
                        .await
                        .map_err(nats)?
                        .await
                        .map_err(nats)?;
                Ok(ack.duplicate)
            }
        }
    }

    /// A durable consumer named `durable` of the subjects matching `filter`
    /// (e.g. `arbiter.v1.registry.>`). It resumes where its last ack left off.
    pub async fn consumer(&self, durable: &str, filter: &str) -> Result<Consumer, Error> {
        self.consumer_with_ack_wait(durable, filter, DEFAULT_ACK_WAIT)
            .await
    }

    /// As [`Bus::consumer`], with the time after which an unacknowledged delivery is
    /// redelivered (NATS only: e.g. after the consuming process died mid-batch).
    pub async fn consumer_with_ack_wait(
        &self,
        durable: &str,
        filter: &str,
        ack_wait: Duration,
    ) -> Result<Consumer, Error> {
        let inner = match self {
            Bus::InProcess(store) => {
                let from = store.checkpoint(&checkpoint_name(durable)).await? + 1;
                ConsumerInner::InProcess {
                    store: store.clone(),
                    sub: store.subscribe(from),
                    filter: filter.to_owned(),
                    durable: durable.to_owned(),
                }
            }
            Bus::Nats(n) => {
                let stream = n.js.get_stream(STREAM_NAME).await.map_err(nats)?;
                // Created, or updated when it exists (a consumer made before
                // `MAX_ACK_PENDING` was set gets it at the next start).
                let consumer: jetstream::consumer::PullConsumer = stream
                    .create_consumer(pull::Config {
                        durable_name: Some(durable.to_owned()),
                        filter_subject: filter.to_owned(),
                        ack_policy: jetstream::consumer::AckPolicy::Explicit,
                        ack_wait,
                        max_ack_pending: MAX_ACK_PENDING,
                        ..Default::default()
                    })
                    .await
                    .map_err(nats)?;
                let messages = consumer.messages().await.map_err(nats)?;
                ConsumerInner::Nats {
                    messages: Box::new(messages),
                    keys: n.keys.clone(),
                    pending: HashMap::new(),
                    ready: VecDeque::new(),
                }
            }
        };
        Ok(Consumer {
            inner,
            acked: Arc::default(),
        })
    }
}

fn checkpoint_name(durable: &str) -> String {
    format!("consumer:{durable}")
}

/// A durable consumer. Duplicates (an event whose stream version this consumer has
/// already acknowledged) are acked and skipped. A delivery counts as seen only once it
/// is acknowledged: one delivered and dropped unacknowledged (a mirror waiting for an
/// earlier append of its stream) is taken again when NATS redelivers it.
pub struct Consumer {
    inner: ConsumerInner,
    acked: Acked,
}

/// Per stream: the highest version acknowledged through this consumer.
type Acked = Arc<std::sync::Mutex<HashMap<String, i64>>>;

fn acked_version(acked: &Acked, stream: &str) -> i64 {
    acked
        .lock()
        .map_or(0, |m| m.get(stream).copied().unwrap_or(0))
}

enum ConsumerInner {
    InProcess {
        store: EventStore,
        sub: arbiter_eventlog::Subscription,
        filter: String,
        durable: String,
    },
    Nats {
        messages: Box<pull::Stream>,
        keys: Arc<Keys>,
        /// Per (stream, sealed version): the events of an append waiting for its sealed
        /// last event. Several appends of one stream may wait at once: NATS redelivers
        /// an unacknowledged event after newer ones (a consumer lost with a node).
        pending: HashMap<(String, i64), PendingRun>,
        /// Events whose append's seal verified, in order.
        ready: VecDeque<Delivery>,
    },
}

struct PendingRun {
    seal: Seal,
    since: Instant,
    /// By stream version (a redelivery may come before the events it follows).
    events: BTreeMap<i64, (String, RecordedEvent, Box<jetstream::Message>)>,
}

impl PendingRun {
    fn new(seal: &Seal) -> Self {
        PendingRun {
            seal: seal.clone(),
            since: Instant::now(),
            events: BTreeMap::new(),
        }
    }

    /// True when the sealed event is in and the versions before it have no gap.
    fn complete(&self) -> bool {
        match (self.events.first_key_value(), self.events.last_key_value()) {
            (Some((&lo, _)), Some((&hi, _))) => {
                hi == self.seal.version && (hi - lo + 1) as usize == self.events.len()
            }
            _ => false,
        }
    }

    async fn reject(self, why: &str) {
        for (subject, event, msg) in self.events.into_values() {
            reject(&subject, &event, why);
            let _ = msg.ack_with(jetstream::AckKind::Term).await;
        }
    }
}

/// Checks a complete run (the append's events up to its sealed last one): consecutive,
/// chained, each hash recomputed, the seal a valid signature of the last hash by a
/// trusted key of the service the events name.
fn check_run(keys: &Keys, run: &PendingRun) -> Result<(), String> {
    let mut prev: Option<&RecordedEvent> = None;
    for (_, e, _) in run.events.values() {
        if e.hash != event_hash(e) {
            return Err(format!(
                "version {}: the hash does not match the event",
                e.stream_version
            ));
        }
        if let Some(p) = prev
            && (e.stream_version != p.stream_version + 1 || e.prev_hash != p.hash)
        {
            return Err(format!(
                "version {} does not link to version {}",
                e.stream_version, p.stream_version
            ));
        }
        prev = Some(e);
    }
    let last = prev.ok_or("empty run")?;
    keys.check(
        &last.service,
        &run.seal.key_id,
        &seal_message(&last.hash),
        &run.seal.signature,
    )
    .map_err(|f| f.to_string())
}

/// One delivered event; call [`Delivery::ack`] once its effects are committed.
pub struct Delivery {
    /// The event (its `trace_parent` comes from the message headers).
    pub event: RecordedEvent,
    /// On NATS, the last event of an append carries the append's seal (verified before
    /// any event of the append is delivered); `None` on the others and in process.
    pub seal: Option<Seal>,
    ack: AckHandle,
    acked: Acked,
}

enum AckHandle {
    InProcess { store: EventStore, name: String },
    Nats(Box<jetstream::Message>),
}

impl Delivery {
    /// Acknowledges the event: it will not be delivered to this consumer again.
    pub async fn ack(self) -> Result<(), Error> {
        match self.ack {
            AckHandle::InProcess { store, name } => {
                store
                    .save_checkpoint(&name, self.event.global_position)
                    .await?;
            }
            AckHandle::Nats(m) => m.ack().await.map_err(nats)?,
        }
        if let Ok(mut acked) = self.acked.lock() {
            let v = acked.entry(self.event.stream.clone()).or_insert(0);
            *v = (*v).max(self.event.stream_version);
        }
        Ok(())
    }
}

/// NATS-style subject match: `*` one token, `>` the rest.
pub fn subject_matches(filter: &str, subject: &str) -> bool {
    let mut f = filter.split('.');
    let mut s = subject.split('.');
    loop {
        match (f.next(), s.next()) {
            (Some(">"), Some(_)) => return true,
            (Some("*"), Some(_)) => {}
            (Some(a), Some(b)) if a == b => {}
            (None, None) => return true,
            _ => return false,
        }
    }
}

impl Consumer {
    /// The next event not yet delivered, waiting for one.
    pub async fn next(&mut self) -> Result<Delivery, Error> {
        loop {
            let delivery = match &mut self.inner {
                ConsumerInner::InProcess {
                    store,
                    sub,
                    filter,
                    durable,
                } => {
                    let event = sub.next().await?;
                    let ack = AckHandle::InProcess {
                        store: store.clone(),
                        name: checkpoint_name(durable),
                    };
                    if !subject_matches(filter, &event.subject()) {
                        continue;
                    }
                    Delivery {
                        event,
                        seal: None,
                        ack,
                        acked: self.acked.clone(),
                    }
                }
                ConsumerInner::Nats {
                    messages,
                    keys,
                    pending,
                    ready,
                } => {
                    if let Some(d) = ready.pop_front() {
                        d
                    } else {
                        // Appends whose seal has not come in time are refused.
                        let stale: Vec<(String, i64)> = pending
                            .iter()
                            .filter(|(_, r)| r.since.elapsed() > MAX_UNSEALED_WAIT)
                            .map(|(k, _)| k.clone())
                            .collect();
                        for k in stale {
                            if let Some(run) = pending.remove(&k) {
                                run.reject("its append's seal did not arrive").await;
                            }
                        }
                        let next = if pending.is_empty() {
                            messages.next().await
                        } else {
                            match tokio::time::timeout(Duration::from_secs(1), messages.next())
                                .await
                            {
                                Ok(m) => m,
                                Err(_) => continue,
                            }
                        };
                        let msg = next
                            .ok_or_else(|| Error::Nats("consumer closed".into()))?
                            .map_err(nats)?;
                        let trace_parent = msg
                            .headers
                            .as_ref()
                            .and_then(|h| h.get(TRACEPARENT_HEADER))
                            .map(|v| v.as_str().to_owned())
                            .unwrap_or_default();
                        let envelope = EventEnvelope::decode(msg.payload.as_ref()).map_err(|e| {
                            Error::Decode {
                                subject: msg.subject.to_string(),
                                message: e.to_string(),
                            }
                        });
                        let envelope = match envelope {
                            Ok(e) => e,
                            Err(err) => {
                                // Poison message: terminate it so it is not redelivered forever.
                                tracing::error!(%err, "dropping undecodable message");
                                let _ = msg.ack_with(jetstream::AckKind::Term).await;
                                continue;
                            }
                        };
                        let subject = msg.subject.to_string();
                        let (event, seal) =
                            RecordedEvent::from_sealed_envelope(envelope, trace_parent);
                        let msg = Box::new(msg);
                        let refuse = |why: &str| reject(&subject, &event, why);
                        if subject != event.subject() {
                            refuse(&format!(
                                "published on {subject}, the event's subject is {}",
                                event.subject()
                            ));
                            let _ = msg.ack_with(jetstream::AckKind::Term).await;
                            continue;
                        }
                        let Some(seal) = seal else {
                            refuse("no seal");
                            let _ = msg.ack_with(jetstream::AckKind::Term).await;
                            continue;
                        };
                        if seal.version < event.stream_version {
                            refuse("its seal is for an earlier version");
                            let _ = msg.ack_with(jetstream::AckKind::Term).await;
                            continue;
                        }
                        if event.stream_version <= acked_version(&self.acked, &event.stream) {
                            let _ = msg.ack().await;
                            continue;
                        }
                        let key = (event.stream.clone(), seal.version);
                        let mut run = match pending.remove(&key) {
                            Some(run) if run.seal != seal => {
                                // Two different seals for one version of a stream: at
                                // most one is the owner's.
                                run.reject("another seal for the same version of its stream came")
                                    .await;
                                PendingRun::new(&seal)
                            }
                            Some(run) => run,
                            None => PendingRun::new(&seal),
                        };
                        // A redelivery of an event that waits replaces it (the newer handle).
                        run.events
                            .insert(event.stream_version, (subject, event, msg));
                        if run.events.len() > MAX_UNSEALED_RUN {
                            run.reject(&format!(
                                "more than {MAX_UNSEALED_RUN} events wait for one seal"
                            ))
                            .await;
                            continue;
                        }
                        if !run.complete() {
                            pending.insert(key, run);
                            continue;
                        }
                        if let Err(why) = check_run(keys, &run) {
                            run.reject(&format!("its seal does not verify: {why}"))
                                .await;
                            continue;
                        }
                        // A verified key rotation of the service: its next seals are by the new key.
                        for (subject, e, _) in run.events.values() {
                            if e.event_type == "SigningKeyRotated"
                                && let Err(why) = keys.trust_rotation(e, &seal.key_id)
                            {
                                tracing::error!(%subject, %why, "key rotation not trusted");
                            }
                        }
                        let n = run.events.len();
                        for (i, (_, event, msg)) in run.events.into_values().enumerate() {
                            ready.push_back(Delivery {
                                event,
                                seal: (i + 1 == n).then(|| seal.clone()),
                                ack: AckHandle::Nats(msg),
                                acked: self.acked.clone(),
                            });
                        }
                        continue;
                    }
                }
            };
            if delivery.event.stream_version <= acked_version(&self.acked, &delivery.event.stream) {
                tracing::debug!(event_id = %delivery.event.event_id, "duplicate delivery skipped");
                delivery.ack().await?;
                continue;
            }
            return Ok(delivery);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::subject_matches;

    #[test]
    fn subjects() {
        assert!(subject_matches(
            "arbiter.v1.>",
            "arbiter.v1.registry.TournamentCreated"
        ));
        assert!(subject_matches(
            "arbiter.v1.*.TournamentCreated",
            "arbiter.v1.registry.TournamentCreated"
        ));
        assert!(!subject_matches(
            "arbiter.v1.results.>",
            "arbiter.v1.registry.TournamentCreated"
        ));
        assert!(!subject_matches(
            "arbiter.v1.registry",
            "arbiter.v1.registry.X"
        ));
        assert!(subject_matches("a.b", "a.b"));
    }
}
