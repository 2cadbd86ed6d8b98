//! # arbiter-webhooks: the log's events delivered to integrators' addresses
//!
//! ADR http-002. Pure: [`signature`] (HMAC-SHA256 over `t + "." + body`, the secret
//! derived from the server's webhook key), [`backoff`] (exponential with jitter, bounded
//! by attempts and time), [`matching`] (webhook event types ↔ the log's events, the
//! tournament filter), [`validate`] (addresses and limits), [`state`] (the fold, and
//! whose webhooks a caller reaches), [`body`] (what a delivery carries: the envelope and
//! the event's content, body version 2; ADR http-003).
//! Shell: [`Webhooks`] (the gRPC `WebhookService`, its writes through the command path
//! of every service: authorize by the one access table, `Commands::begin`, append), the
//! dispatcher (reads the log by a durable cursor, writes one `DeliveryCreated` per
//! webhook and event) and the sender (tries due deliveries off the write path, each
//! attempt a `DeliveryAttempted` event), [`client`] (one POST).
pub mod backoff;
pub mod body;
pub mod client;
pub mod matching;
pub mod signature;
pub mod state;
pub mod validate;

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbiter_eventlog::{AppendAck, AppendRequest, CommandContext, EventStore, RecordedEvent};
use arbiter_proto::v1::webhook_service_server::{WebhookService, WebhookServiceServer};
use arbiter_proto::v1::{
    AddWebhookRequest, AddedWebhook, CommandAck, Delivery, DeliveryAttempt, DeliveryAttempted,
    DeliveryCreated, GetDeliveryRequest, GetWebhookRequest, ListDeliveriesRequest,
    ListDeliveriesResponse, ListWebhooksRequest, ListWebhooksResponse, RedeliverRequest,
    RemoveWebhookRequest, Webhook, WebhookAdded, WebhookRemoved,
};
use arbiter_service_kit::Platform;
use arbiter_service_kit::auth::{Caller, Scope};
use arbiter_service_kit::status::{from_log, invalid, not_found};
use prost::Message;
use sha2::{Digest, Sha256};
use tonic::{Request, Response, Status};

use state::{State, Viewer, deliveries_stream, event, types};

/// How deliveries are made (`arbiterd --webhook-*`).
#[derive(Clone)]
pub struct Options {
    /// Retries.
    pub schedule: backoff::Schedule,
    /// One attempt: connect, send, the answer's head.
    pub timeout: Duration,
    /// `http://` to addresses off the loopback.
    pub allow_plain_http: bool,
    /// The server's webhook key (secrets are derived from it).
    pub key: Arc<[u8; 32]>,
    /// Attempts in flight at once (all webhooks).
    pub concurrency: usize,
    /// Most deliveries pending per webhook ([`MAX_PENDING_PER_WEBHOOK`] in `arbiterd`):
    /// one more event is recorded as a delivery not sent (ADR http-008).
    pub max_pending: usize,
}

/// Most deliveries a webhook keeps pending (in memory, retried): with its receiver down,
/// the events after are recorded as deliveries not sent, `failed` with the reason, to be
/// redelivered by hand (ADR http-008). 10,000 × at most 100 webhooks bounds the sender's
/// memory to about a million small records.
pub const MAX_PENDING_PER_WEBHOOK: usize = 10_000;

/// Generation of the webhook key new registrations are made with.
pub const KEY_GENERATION: u32 = 1;
/// Largest body sent: a content that would pass it is left out ([`body::bytes`]).
pub const MAX_BODY_BYTES: usize = body::MAX_BYTES;

/// Reads the webhook key at `path` (64 hex characters), made (0600) when missing.
pub fn load_or_make_key(path: &Path) -> anyhow::Result<[u8; 32]> {
    use anyhow::Context;
    if path.exists() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("webhook key {}", path.display()))?;
        let bytes = hex::decode(text.trim())
            .ok()
            .filter(|b| b.len() == 32)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "webhook key {}: not 64 hex characters — restore it from the backup (every webhook's secret is derived from it)",
                    path.display()
                )
            })?;
        let mut k = [0u8; 32];
        k.copy_from_slice(&bytes);
        return Ok(k);
    }
    let k: [u8; 32] = rand::random();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    let mut f = {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        o.open(path)
            .with_context(|| format!("webhook key {}", path.display()))?
    };
    use std::io::Write;
    writeln!(f, "{}", hex::encode(k)).with_context(|| format!("{}", path.display()))?;
    f.sync_all().ok();
    Ok(k)
}

struct Shared {
    state: RwLock<State>,
    folded: tokio::sync::watch::Sender<i64>,
    writing: tokio::sync::Mutex<()>,
    in_flight: Mutex<HashSet<String>>,
    wake: tokio::sync::Notify,
    options: Options,
    /// The log refused a write as read-only: nothing more is sent until a restart.
    read_only: std::sync::atomic::AtomicBool,
}

/// Whether a tournament id names a tournament of the registry.
type KnownTournament = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// What a write appends: stream, expected version, events.
type Decided = (String, Option<i64>, Vec<arbiter_eventlog::NewEvent>);

/// The webhook service of a platform.
#[derive(Clone)]
pub struct Webhooks {
    platform: Platform,
    shared: Arc<Shared>,
    known_tournament: Option<KnownTournament>,
}

fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros().try_into().unwrap_or(i64::MAX))
}

fn short_hash(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex::encode(&h.finalize()[..12])
}

impl Webhooks {
    /// Starts the fold, the dispatcher and the sender on `platform`.
    pub async fn start(platform: &Platform, options: Options) -> Webhooks {
        let (folded, _) = tokio::sync::watch::channel(0);
        let w = Webhooks {
            platform: platform.clone(),
            shared: Arc::new(Shared {
                state: RwLock::new(State::default()),
                folded,
                writing: tokio::sync::Mutex::new(()),
                in_flight: Mutex::new(HashSet::new()),
                wake: tokio::sync::Notify::new(),
                options,
                read_only: std::sync::atomic::AtomicBool::new(false),
            }),
            known_tournament: None,
        };
        let head = platform.store.head_position().await.unwrap_or(0);
        tokio::spawn(w.clone().fold_and_dispatch());
        tokio::spawn(w.clone().send_due(head));
        w
    }

    /// A tournament filter must name a tournament `known` says exists.
    pub fn with_tournaments(
        mut self,
        known: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.known_tournament = Some(Arc::new(known));
        self
    }

    fn snapshot(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.shared.state.read().unwrap_or_else(|p| p.into_inner())
    }

    async fn folded(&self, position: i64) {
        let mut rx = self.shared.folded.subscribe();
        let _ = rx.wait_for(|p| *p >= position).await;
    }

    fn secret(&self, id: &str, generation: u32) -> [u8; 32] {
        signature::derive_secret(self.shared.options.key.as_ref(), id, generation)
    }

    /// Loads the state from the webhooks' own streams (the registrations, and each
    /// webhook's deliveries from its settled mark), then folds the log from the
    /// service's checkpoint on (ADR http-004): each event a webhook wants becomes a
    /// `DeliveryCreated` of that webhook (command id from the webhook and the event: an
    /// event read again after a restart writes nothing twice).
    async fn fold_and_dispatch(self) {
        let store = self.platform.store.clone();
        let (mut cursor, from) =
            arbiter_service_kit::cursor::Cursor::open(&store, CHECKPOINT).await;
        let (loaded, read) = loop {
            match load(&store).await {
                Ok(x) => break x,
                Err(err) => {
                    tracing::warn!(%err, "webhooks: state not read from the webhook streams; retrying");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        };
        tracing::info!(
            pending = loaded.pending.len(),
            "webhooks: state loaded from the checkpoint at position {}: {} registration and {} delivery events read by stream; folding the log from position {from}",
            from - 1,
            read.registrations,
            read.deliveries,
        );
        let mut marks = Marks::new();
        // The deliveries this loop wrote and has not folded yet (their log position and
        // webhook): pending too, for the bound (ADR http-008).
        let mut ahead: std::collections::VecDeque<(i64, String)> = Default::default();
        *self.shared.state.write().unwrap_or_else(|p| p.into_inner()) = loaded;
        self.shared.folded.send_replace(from - 1);
        let mut sub = store.subscribe(from);
        let mut stopped = false;
        loop {
            let e = match sub.next().await {
                Ok(e) => e,
                Err(err) => {
                    tracing::warn!(%err, "webhooks: log read failed; retrying");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            let pos = e.global_position;
            let is_ours = e.stream == state::STREAM || state::hook_of_stream(&e.stream).is_some();
            if is_ours {
                self.shared
                    .state
                    .write()
                    .unwrap_or_else(|p| p.into_inner())
                    .apply(&e);
                if e.event_type == types::DELIVERY_CREATED {
                    self.shared.wake.notify_one();
                }
            } else if !stopped && matching::interesting(&e.event_type) {
                // A log that takes no writes (it failed its check at start): deliveries
                // stop here, the cursor with them, and resume after a restart with a
                // good log; the fold goes on (reads and readiness do not wait).
                stopped = !self.dispatch(&store, &e, &mut ahead).await;
                if stopped {
                    self.shared
                        .read_only
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            self.shared.folded.send_replace(pos);
            if !stopped {
                cursor.handled(pos).await;
                if marks.due() {
                    let now = self.snapshot().settled_marks();
                    marks.save(&store, now).await;
                }
            }
        }
    }

    /// `false`: the log takes no writes (nothing more is dispatched until a restart).
    async fn dispatch(
        &self,
        store: &EventStore,
        e: &RecordedEvent,
        ahead: &mut std::collections::VecDeque<(i64, String)>,
    ) -> bool {
        // Folded by now: every event before this one.
        while ahead.front().is_some_and(|(p, _)| *p < e.global_position) {
            ahead.pop_front();
        }
        let tournament = body::tournament_of(e);
        let wanted: Vec<(String, Vec<String>, usize)> = {
            let s = self.snapshot();
            s.wanting(e.global_position)
                .filter_map(|h| {
                    let filter = Some(h.webhook.tournament_id.as_str()).filter(|t| !t.is_empty());
                    let kinds = matching::matches(
                        &h.webhook.event_types,
                        filter,
                        &matching::Candidate {
                            event_type: &e.event_type,
                            tournament: tournament.as_deref(),
                        },
                    );
                    let id = &h.webhook.webhook_id;
                    let pending = s.pending_of(id) + ahead.iter().filter(|(_, w)| w == id).count();
                    (!kinds.is_empty()).then(|| (id.clone(), kinds, pending))
                })
                .collect()
        };
        let limit = self.shared.options.max_pending;
        for (hook, kinds, pending) in wanted {
            let delivery_id = format!("d_{}", short_hash(&[&hook, &e.event_id]));
            let created = DeliveryCreated {
                delivery_id: delivery_id.clone(),
                webhook_id: hook.clone(),
                event_id: e.event_id.clone(),
                event_position: e.global_position,
                event_types: kinds,
                redelivery_of: String::new(),
            };
            let mut events = vec![event(types::DELIVERY_CREATED, &created)];
            let full = pending >= limit;
            if full {
                // At the bound: recorded, not sent (ADR http-008).
                events.push(event(
                    types::DELIVERY_ATTEMPTED,
                    &state::not_sent(&delivery_id, &hook, now_micros(), pending, limit),
                ));
            }
            let req = AppendRequest {
                stream: deliveries_stream(&hook),
                expected_version: None,
                events,
                context: CommandContext {
                    command_id: format!("webhook-{hook}-event-{}", e.event_id),
                    actor: "webhooks (dispatcher)".into(),
                    causation_id: e.event_id.clone(),
                    service: state::SERVICE.into(),
                    ..Default::default()
                },
            };
            // At least once: an event a webhook wants is never skipped; a log that does
            // not take the append now is tried again.
            let mut wait = Duration::from_millis(200);
            let ack = loop {
                let err = match store.append(req.clone()).await {
                    Ok(a) => break a,
                    Err(err) => err,
                };
                if matches!(err, arbiter_eventlog::Error::ReadOnly(_)) {
                    tracing::warn!(%err, "webhooks: the log takes no writes; deliveries stop until a restart");
                    return false;
                }
                tracing::warn!(%err, webhook = %hook, position = e.global_position, "webhooks: delivery not recorded; retrying");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(10));
            };
            if full {
                tracing::warn!(webhook = %hook, pending, "webhooks: a delivery recorded, not sent: the webhook has the most deliveries pending");
            } else {
                ahead.push_back((ack.last_position, hook));
            }
        }
        true
    }

    /// Tries every due delivery, at most `concurrency` at once, once the fold reached
    /// the log's head of the start.
    async fn send_due(self, start_head: i64) {
        self.folded(start_head).await;
        let slots = Arc::new(tokio::sync::Semaphore::new(
            self.shared.options.concurrency.max(1),
        ));
        loop {
            if self
                .shared
                .read_only
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                return;
            }
            let due: Vec<Delivery> = {
                let s = self.snapshot();
                let in_flight = self
                    .shared
                    .in_flight
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                s.due(now_micros())
                    .into_iter()
                    .filter(|d| !in_flight.contains(&d.delivery_id))
                    .cloned()
                    .collect()
            };
            for d in due {
                let Ok(permit) = slots.clone().acquire_owned().await else {
                    return;
                };
                self.shared
                    .in_flight
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(d.delivery_id.clone());
                let me = self.clone();
                tokio::spawn(async move {
                    let id = d.delivery_id.clone();
                    me.attempt(d).await;
                    me.shared
                        .in_flight
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .remove(&id);
                    drop(permit);
                    me.shared.wake.notify_one();
                });
            }
            let _ =
                tokio::time::timeout(Duration::from_millis(100), self.shared.wake.notified()).await;
        }
    }

    /// One attempt of `d`, recorded as `DeliveryAttempted` (and folded before the
    /// delivery may be tried again).
    async fn attempt(&self, d: Delivery) {
        let store = &self.platform.store;
        let Some(hook) = self.snapshot().hooks.get(&d.webhook_id).cloned() else {
            return;
        };
        let n = u32::try_from(d.attempts.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        let started = now_micros();
        let began = std::time::Instant::now();
        let outcome = match store.read_at(d.event_position).await {
            Ok(Some(e)) => {
                // A publication carries the pairing it publishes, from its stream.
                let stream = if e.event_type == body::PUBLISHED {
                    match store.read_stream(&e.stream, 1).await {
                        Ok(events) => events,
                        Err(err) => {
                            // The log did not answer: not an attempt; tried again shortly.
                            tracing::warn!(%err, stream = %e.stream, "webhooks: the publication's pairing not read");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                            return;
                        }
                    }
                } else {
                    Vec::new()
                };
                let pairing = body::published_pairing(&e, &stream);
                let body = body::bytes(&e, &d.webhook_id, &d.event_types, pairing, MAX_BODY_BYTES);
                match validate::target(&hook.webhook.url, self.shared.options.allow_plain_http) {
                    Err((_, why)) => Err(why),
                    Ok(_) if body.len() > MAX_BODY_BYTES => Err(format!(
                        "body of {} bytes: at most {MAX_BODY_BYTES}",
                        body.len()
                    )),
                    Ok(target) => {
                        let t = started / 1_000_000;
                        let secret = self.secret(&d.webhook_id, hook.key_generation);
                        let headers = [
                            (signature::HEADER, signature::header(&secret, t, &body)),
                            ("Arbiter-Event-Id", d.event_id.clone()),
                            ("Arbiter-Delivery-Id", d.delivery_id.clone()),
                            ("Arbiter-Webhook-Id", d.webhook_id.clone()),
                            ("Arbiter-Event-Types", d.event_types.join(",")),
                            ("Arbiter-Attempt", n.to_string()),
                            (body::VERSION_HEADER, body::VERSION.to_string()),
                        ];
                        client::post(&target, &headers, body.into(), self.shared.options.timeout)
                            .await
                    }
                }
            }
            Ok(None) => Err(format!("no event at log position {}", d.event_position)),
            Err(e) => {
                // The log did not answer: not an attempt; tried again shortly.
                tracing::warn!(err = %e, "webhooks: event not read");
                tokio::time::sleep(Duration::from_secs(1)).await;
                return;
            }
        };
        let duration_ms = u32::try_from(began.elapsed().as_millis()).unwrap_or(u32::MAX);
        let (status, error, delivered) = match outcome {
            Ok(s) if (200..300).contains(&s) => (s, String::new(), true),
            Ok(s) if (300..400).contains(&s) => {
                (s, format!("HTTP {s}: redirects are not followed"), false)
            }
            Ok(s) => (s, format!("HTTP {s}"), false),
            Err(e) => (0, e, false),
        };
        let first = d.attempts.first().map_or(started, |a| a.at_micros);
        let since_first = Duration::from_micros(u64::try_from(started - first).unwrap_or(0));
        let next = if delivered {
            None
        } else {
            self.shared
                .options
                .schedule
                .next(n, since_first, rand::random::<f64>())
        };
        let next_at = next.map_or(0, |w| {
            now_micros() + i64::try_from(w.as_micros()).unwrap_or(i64::MAX / 2)
        });
        let attempted = DeliveryAttempted {
            delivery_id: d.delivery_id.clone(),
            webhook_id: d.webhook_id.clone(),
            attempt: Some(DeliveryAttempt {
                attempt: n,
                at_micros: started,
                status: status.into(),
                error,
                duration_ms,
                next_attempt_at_micros: next_at,
            }),
            delivered,
            given_up: !delivered && next.is_none(),
        };
        let req = AppendRequest {
            stream: deliveries_stream(&d.webhook_id),
            expected_version: None,
            events: vec![event(types::DELIVERY_ATTEMPTED, &attempted)],
            context: CommandContext {
                command_id: format!("attempt-{}-{n}", d.delivery_id),
                actor: "webhooks (sender)".into(),
                causation_id: d.event_id.clone(),
                service: state::SERVICE.into(),
                ..Default::default()
            },
        };
        let mut wait = Duration::from_millis(200);
        loop {
            match store.append(req.clone()).await {
                Ok(ack) => {
                    self.folded(ack.last_position).await;
                    return;
                }
                Err(arbiter_eventlog::Error::ReadOnly(why)) => {
                    // Tried again after a restart with a log that takes writes.
                    tracing::warn!(%why, delivery = %d.delivery_id, "webhooks: attempt not recorded: the log takes no writes; sending stops until a restart");
                    self.shared
                        .read_only
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
                Err(err) => {
                    tracing::warn!(%err, delivery = %d.delivery_id, "webhooks: attempt not recorded; retrying");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(10));
                }
            }
        }
    }

    /// Appends `events` to `stream` under the caller, through the command path.
    async fn write<M: Message>(
        &self,
        actor: &str,
        rpc: &str,
        request: &M,
        meta: Option<arbiter_proto::v1::CommandMeta>,
        decide: impl FnOnce(&State) -> Result<Decided, Status>,
    ) -> Result<(AppendAck, String), Status> {
        let store = &self.platform.store;
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(store, rpc, request, meta)
            .await?;
        if let Some((stream, mut ack)) = store
            .find_command(&meta.command_id)
            .await
            .map_err(from_log)?
        {
            ack.replayed = true;
            return Ok((ack, stream));
        }
        let _writing = self.shared.writing.lock().await;
        let (stream, expected, events) = decide(&self.snapshot())?;
        let ack = store
            .append(AppendRequest {
                stream: stream.clone(),
                expected_version: expected,
                events,
                context: CommandContext {
                    command_id: meta.command_id.clone(),
                    actor: actor.to_owned(),
                    reason: meta.reason.clone(),
                    service: state::SERVICE.into(),
                    request_digest: meta.request_digest.clone(),
                    ..Default::default()
                },
            })
            .await
            .map_err(from_log)?;
        self.folded(ack.last_position).await;
        Ok((ack, stream))
    }

    /// The webhook `id` if `viewer` reaches it; another caller's is not found (its
    /// existence is not told).
    fn webhook_of(&self, id: &str, viewer: &Viewer) -> Result<Webhook, Status> {
        let id = webhook_id(id)?;
        self.snapshot()
            .webhook_for(id, viewer)
            .ok_or_else(|| no_webhook(id))
    }
}

/// `id` trimmed, or `INVALID_ARGUMENT` when empty.
fn webhook_id(id: &str) -> Result<&str, Status> {
    let id = id.trim();
    if id.is_empty() {
        return Err(invalid(
            "webhook_id",
            "must not be empty (see `arbiter webhook list`)",
        ));
    }
    Ok(id)
}

fn no_webhook(id: &str) -> Status {
    not_found(
        "webhook_id",
        format!("no webhook {id:?} (see `arbiter webhook list`)"),
    )
}

/// Whose webhooks the caller of `rpc` reaches: the access table's `own` column decides
/// (`Caller::only_as_own`), the comparison is the state's ([`Viewer`]).
fn viewer(caller: &Caller, rpc: &str) -> Viewer {
    Viewer::new(&caller.principal_id, caller.only_as_own(rpc, Scope::Global))
}

fn ack_msg(stream: String, ack: AppendAck) -> CommandAck {
    CommandAck {
        stream,
        stream_version: ack.stream_version,
        first_position: ack.first_position,
        last_position: ack.last_position,
        replayed: ack.replayed,
    }
}

#[tonic::async_trait]
impl WebhookService for Webhooks {
    async fn add_webhook(
        &self,
        request: Request<AddWebhookRequest>,
    ) -> Result<Response<AddedWebhook>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "AddWebhook", Scope::Global)?;
        let actor = caller.actor.clone();
        let r = request.into_inner();
        let allow = self.shared.options.allow_plain_http;
        let reg = {
            let n = self.snapshot().active().count();
            validate::registration(
                &r.url,
                &r.event_types,
                &r.tournament_id,
                &r.description,
                allow,
                n,
            )
            .map_err(|(f, m)| invalid(f, m))?
        };
        if !reg.tournament_id.is_empty()
            && let Some(known) = &self.known_tournament
            && !known(&reg.tournament_id)
        {
            return Err(not_found(
                "tournament_id",
                format!(
                    "no tournament {} (see `arbiter tournament list`)",
                    reg.tournament_id
                ),
            ));
        }
        let id = format!("wh_{}", uuid::Uuid::now_v7().simple());
        let (ack, stream) = self
            .write(&actor, "AddWebhook", &r, r.meta.clone(), |s| {
                let n = s.active().count();
                if n >= validate::MAX_WEBHOOKS {
                    return Err(invalid(
                        "url",
                        format!(
                            "{n} webhooks are registered: at most {} — remove one first",
                            validate::MAX_WEBHOOKS
                        ),
                    ));
                }
                let added = WebhookAdded {
                    webhook_id: id.clone(),
                    url: reg.url.clone(),
                    event_types: reg.event_types.clone(),
                    tournament_id: reg.tournament_id.clone(),
                    description: reg.description.clone(),
                    key_generation: KEY_GENERATION,
                    owner_principal_id: caller.principal_id.clone(),
                };
                Ok((
                    state::STREAM.into(),
                    Some(s.version),
                    vec![event(types::WEBHOOK_ADDED, &added)],
                ))
            })
            .await?;
        // On a retry the id is the one first written.
        let e = self
            .platform
            .store
            .read_at(ack.first_position)
            .await
            .map_err(from_log)?
            .ok_or_else(|| Status::internal("the registration just written is not in the log"))?;
        let added = WebhookAdded::decode(e.payload.as_slice())
            .map_err(|e| Status::internal(format!("WebhookAdded: {e}")))?;
        // A retry answers the secret again, to the principal that registered only: the
        // same command id and request from anyone else is a reuse of the id.
        if !viewer(&caller, "GetWebhook").may_see_secret(&added.owner_principal_id) {
            return Err(Status::already_exists(format!(
                "meta.command_id: {} was already used by another caller; a new command needs a new id",
                e.command_id
            )));
        }
        self.folded(ack.last_position).await;
        let webhook = self
            .snapshot()
            .hooks
            .get(&added.webhook_id)
            .map(|h| h.webhook.clone());
        Ok(Response::new(AddedWebhook {
            webhook,
            secret: hex::encode(self.secret(&added.webhook_id, added.key_generation)),
            ack: Some(ack_msg(stream, ack)),
        }))
    }

    async fn list_webhooks(
        &self,
        request: Request<ListWebhooksRequest>,
    ) -> Result<Response<ListWebhooksResponse>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "ListWebhooks", Scope::Global)?;
        let webhooks = self.snapshot().listed(&viewer(&caller, "ListWebhooks"));
        Ok(Response::new(ListWebhooksResponse { webhooks }))
    }

    async fn get_webhook(
        &self,
        request: Request<GetWebhookRequest>,
    ) -> Result<Response<Webhook>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "GetWebhook", Scope::Global)?;
        Ok(Response::new(self.webhook_of(
            &request.get_ref().webhook_id,
            &viewer(&caller, "GetWebhook"),
        )?))
    }

    async fn remove_webhook(
        &self,
        request: Request<RemoveWebhookRequest>,
    ) -> Result<Response<CommandAck>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "RemoveWebhook", Scope::Global)?;
        let viewer = viewer(&caller, "RemoveWebhook");
        let r = request.into_inner();
        let id = webhook_id(&r.webhook_id)?.to_owned();
        // Before the command path: a retry of another caller's removal is not answered
        // as a replay (that would tell the webhook exists); one's own retry is.
        if self.snapshot().reached(&id, &viewer).is_none() {
            return Err(no_webhook(&id));
        }
        let (ack, stream) = self
            .write(&caller.actor, "RemoveWebhook", &r, r.meta.clone(), |s| {
                if s.webhook_for(&id, &viewer).is_none() {
                    return Err(no_webhook(&id));
                }
                Ok((
                    state::STREAM.into(),
                    Some(s.version),
                    vec![event(
                        types::WEBHOOK_REMOVED,
                        &WebhookRemoved {
                            webhook_id: id.clone(),
                        },
                    )],
                ))
            })
            .await?;
        Ok(Response::new(ack_msg(stream, ack)))
    }

    async fn list_deliveries(
        &self,
        request: Request<ListDeliveriesRequest>,
    ) -> Result<Response<ListDeliveriesResponse>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "ListDeliveries", Scope::Global)?;
        let r = request.get_ref();
        if r.limit > 1000 {
            return Err(invalid("limit", format!("{}: at most 1000", r.limit)));
        }
        let limit = if r.limit == 0 { 100 } else { r.limit as usize };
        let hook = self.webhook_of(&r.webhook_id, &viewer(&caller, "ListDeliveries"))?;
        // From the webhook's own stream, its newest events first, until `limit`
        // deliveries are read (each with every attempt after it).
        let stream = deliveries_stream(&hook.webhook_id);
        let events = read_back(
            &self.platform.store,
            &stream,
            MAX_LISTED_EVENTS,
            |page| {
                page.iter()
                    .filter(|e| e.event_type == types::DELIVERY_CREATED)
                    .count()
            },
            limit,
        )
        .await
        .map_err(|e| log_read(&stream, e))?;
        let deliveries = state::deliveries_in(&events)
            .into_iter()
            .rev()
            .take(limit)
            .collect();
        Ok(Response::new(ListDeliveriesResponse { deliveries }))
    }

    async fn get_delivery(
        &self,
        request: Request<GetDeliveryRequest>,
    ) -> Result<Response<Delivery>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "GetDelivery", Scope::Global)?;
        let r = request.get_ref();
        let hook = self.webhook_of(&r.webhook_id, &viewer(&caller, "GetDelivery"))?;
        let id = r.delivery_id.trim();
        let missing = || {
            not_found(
                "delivery_id",
                format!(
                    "no delivery {id:?} of webhook {} (see `arbiter webhook deliveries`)",
                    hook.webhook_id
                ),
            )
        };
        if id.is_empty() || id.len() > 64 {
            return Err(missing());
        }
        // Its creation read back from the stream's end, then it with every attempt after.
        let stream = deliveries_stream(&hook.webhook_id);
        let version = find_back(&self.platform.store, &stream, |page| {
            page.iter()
                .filter(|e| e.event_type == types::DELIVERY_CREATED)
                .find(|e| {
                    DeliveryCreated::decode(e.payload.as_slice()).is_ok_and(|c| c.delivery_id == id)
                })
                .map(|e| e.stream_version)
        })
        .await
        .map_err(|e| log_read(&stream, e))?
        .ok_or_else(missing)?;
        let since = read_from(&self.platform.store, &stream, version, MAX_LISTED_EVENTS)
            .await
            .map_err(|e| log_read(&stream, e))?;
        state::deliveries_in(&since)
            .into_iter()
            .find(|d| d.delivery_id == id)
            .map(Response::new)
            .ok_or_else(missing)
    }

    async fn redeliver(
        &self,
        request: Request<RedeliverRequest>,
    ) -> Result<Response<Delivery>, Status> {
        let caller = self
            .platform
            .auth
            .authorize(&request, "Redeliver", Scope::Global)?;
        let actor = caller.actor.clone();
        let r = request.into_inner();
        let hook = self.webhook_of(&r.webhook_id, &viewer(&caller, "Redeliver"))?;
        let of = r.delivery_id.trim().to_owned();
        let (pending, limit) = (
            self.snapshot().pending_of(&hook.webhook_id),
            self.shared.options.max_pending,
        );
        if pending >= limit {
            return Err(Status::failed_precondition(format!(
                "delivery_id: webhook {} has {pending} deliveries pending, the most it keeps ({limit}, ADR http-008); redeliver once they are delivered or given up",
                hook.webhook_id
            )));
        }
        let command = r
            .meta
            .as_ref()
            .map(|m| m.command_id.clone())
            .unwrap_or_default();
        let new_id = format!("d_{}", short_hash(&[&hook.webhook_id, &of, &command]));
        let stream = deliveries_stream(&hook.webhook_id);
        let source = find_back(&self.platform.store, &stream, |page| {
            state::creation_of(page, &of)
        })
        .await
        .map_err(|e| log_read(&stream, e))?
        .ok_or_else(|| {
            not_found(
                "delivery_id",
                format!(
                    "no delivery {of:?} of webhook {} (see `arbiter webhook deliveries`)",
                    hook.webhook_id
                ),
            )
        })?;
        let (ack, _) = self
            .write(&actor, "Redeliver", &r, r.meta.clone(), |_| {
                let created = DeliveryCreated {
                    delivery_id: new_id.clone(),
                    webhook_id: hook.webhook_id.clone(),
                    event_id: source.event_id.clone(),
                    event_position: source.event_position,
                    event_types: source.event_types.clone(),
                    redelivery_of: of.clone(),
                };
                Ok((
                    stream.clone(),
                    None,
                    vec![event(types::DELIVERY_CREATED, &created)],
                ))
            })
            .await?;
        let e = self
            .platform
            .store
            .read_at(ack.first_position)
            .await
            .map_err(from_log)?
            .ok_or_else(|| Status::internal("the redelivery just written is not in the log"))?;
        let created = DeliveryCreated::decode(e.payload.as_slice())
            .map_err(|e| Status::internal(format!("DeliveryCreated: {e}")))?;
        // As it is now (the sender may have tried it already), from its stream.
        let since = read_from(
            &self.platform.store,
            &stream,
            e.stream_version,
            MAX_LISTED_EVENTS,
        )
        .await
        .map_err(|e| log_read(&stream, e))?;
        let d = state::deliveries_in(&since)
            .into_iter()
            .find(|d| d.delivery_id == created.delivery_id)
            .ok_or_else(|| {
                Status::internal(format!(
                    "the redelivery {} is not in {stream}",
                    created.delivery_id
                ))
            })?;
        Ok(Response::new(d))
    }
}

/// The service's checkpoint: every event up to it is folded and dispatched (the name the
/// dispatcher's cursor had before ADR http-004, so an older data directory resumes too).
pub const CHECKPOINT: &str = "webhooks-dispatch";
/// A webhook's settled mark in the checkpoints table: the first version of its
/// deliveries stream a restart reads (ADR http-004).
pub fn settled_mark(id: &str) -> String {
    format!("webhooks-settled-{id}")
}
/// Events read by one page of a stream.
const PAGE: i64 = 1000;
/// The most events one `ListDeliveries` or `Redeliver` answer reads (its deliveries
/// with their attempts; the oldest left out beyond it).
const MAX_LISTED_EVENTS: usize = 50_000;

fn log_read(stream: &str, e: arbiter_eventlog::Error) -> Status {
    Status::unavailable(format!("{stream}: the log did not answer: {e}; retry"))
}

/// How much a start read of the webhook streams.
#[derive(Debug, Default, Clone, Copy)]
struct Read {
    registrations: usize,
    deliveries: usize,
}

/// The state from the webhooks' own streams, read in pages: every registration, then
/// each webhook's deliveries from its settled mark (the versions before hold settled
/// deliveries only).
async fn load(store: &EventStore) -> Result<(State, Read), arbiter_eventlog::Error> {
    let mut s = State::default();
    let mut read = Read {
        registrations: fold_stream(store, state::STREAM, 1, &mut s).await?,
        ..Read::default()
    };
    let ids: Vec<String> = s.active().map(|h| h.webhook.webhook_id.clone()).collect();
    for id in ids {
        let from = store.checkpoint(&settled_mark(&id)).await?.max(1);
        s.resume_deliveries(&id, from);
        read.deliveries += fold_stream(store, &deliveries_stream(&id), from, &mut s).await?;
    }
    Ok((s, read))
}

/// Folds `stream` from `from_version` into `s`, page by page; the events read.
async fn fold_stream(
    store: &EventStore,
    stream: &str,
    from_version: i64,
    s: &mut State,
) -> Result<usize, arbiter_eventlog::Error> {
    let mut v = from_version.max(1);
    let mut n = 0;
    loop {
        let page = store.read_stream_page(stream, v, PAGE).await?;
        for e in &page {
            s.apply(e);
        }
        n += page.len();
        match page.last() {
            Some(last) if page.len() as i64 == PAGE => v = last.stream_version + 1,
            _ => return Ok(n),
        }
    }
}

/// The events of `stream` from `from_version` on, at most `cap`.
async fn read_from(
    store: &EventStore,
    stream: &str,
    from_version: i64,
    cap: usize,
) -> Result<Vec<RecordedEvent>, arbiter_eventlog::Error> {
    let mut out = Vec::new();
    let mut v = from_version.max(1);
    while out.len() < cap {
        let page = store.read_stream_page(stream, v, PAGE).await?;
        let full = page.len() as i64 == PAGE;
        if let Some(last) = page.last() {
            v = last.stream_version + 1;
        }
        out.extend(page);
        if !full {
            break;
        }
    }
    out.truncate(cap);
    Ok(out)
}

/// The last events of `stream`, read back from its end a page at a time until `count`
/// over the pages read reaches `enough` or `cap` events are read; oldest first.
async fn read_back(
    store: &EventStore,
    stream: &str,
    cap: usize,
    count: impl Fn(&[RecordedEvent]) -> usize,
    enough: usize,
) -> Result<Vec<RecordedEvent>, arbiter_eventlog::Error> {
    let mut pages: Vec<Vec<RecordedEvent>> = Vec::new();
    let (mut n, mut counted) = (0usize, 0usize);
    let mut hi = store.stream_version(stream).await?;
    while hi >= 1 && n < cap && counted < enough {
        let from = (hi - PAGE + 1).max(1);
        let page = store.read_stream_page(stream, from, hi - from + 1).await?;
        n += page.len();
        counted += count(&page);
        pages.push(page);
        hi = from - 1;
    }
    Ok(pages.into_iter().rev().flatten().collect())
}

/// What `find` finds in `stream`, read back from its end a page at a time (one page in
/// memory at once).
async fn find_back<T>(
    store: &EventStore,
    stream: &str,
    find: impl Fn(&[RecordedEvent]) -> Option<T>,
) -> Result<Option<T>, arbiter_eventlog::Error> {
    let mut hi = store.stream_version(stream).await?;
    while hi >= 1 {
        let from = (hi - PAGE + 1).max(1);
        let page = store.read_stream_page(stream, from, hi - from + 1).await?;
        if let Some(t) = find(&page) {
            return Ok(Some(t));
        }
        hi = from - 1;
    }
    Ok(None)
}

/// The settled marks last saved (none at start: each is written once), saved again
/// (those that moved) at most once a second.
struct Marks {
    saved: std::collections::BTreeMap<String, i64>,
    at: std::time::Instant,
}

impl Marks {
    fn new() -> Marks {
        Marks {
            saved: std::collections::BTreeMap::new(),
            at: std::time::Instant::now(),
        }
    }

    fn due(&self) -> bool {
        self.at.elapsed() >= arbiter_service_kit::cursor::SAVE_EVERY
    }

    async fn save(&mut self, store: &EventStore, marks: std::collections::BTreeMap<String, i64>) {
        self.at = std::time::Instant::now();
        for (id, mark) in marks {
            if self.saved.get(&id) == Some(&mark) {
                continue;
            }
            match store.save_checkpoint(&settled_mark(&id), mark).await {
                Ok(()) => {
                    self.saved.insert(id, mark);
                }
                Err(err) => tracing::warn!(%err, webhook = %id, "webhooks: settled mark not saved"),
            }
        }
    }
}

impl arbiter_service_kit::ServiceModule for Webhooks {
    fn grpc_name(&self) -> &'static str {
        "arbiter.v1.WebhookService"
    }
    fn add_to(self: Box<Self>, routes: &mut tonic::service::RoutesBuilder) {
        routes.add_service(WebhookServiceServer::new(*self).max_decoding_message_size(
            arbiter_service_kit::limits::service_max_message_bytes("webhooks"),
        ));
    }
    fn projected(&self) -> Option<arbiter_service_kit::host::Projected> {
        let rx = self.shared.folded.subscribe();
        Some(Arc::new(move || *rx.borrow()))
    }
}
