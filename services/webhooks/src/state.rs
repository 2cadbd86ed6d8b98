//! The fold of the webhook events (pure): registrations of the `webhooks` stream, and
//! each webhook's pending deliveries and their attempts from its `webhook-deliveries-ID`
//! stream; a stream's past deliveries read from its events ([`deliveries_in`]).
use std::collections::{BTreeMap, HashMap};

use arbiter_eventlog::{NewEvent, RecordedEvent};
use arbiter_proto::v1::{
    Delivery, DeliveryAttempted, DeliveryCreated, Webhook, WebhookAdded, WebhookRemoved,
};
use prost::Message;

/// The registrations' stream.
pub const STREAM: &str = "webhooks";
/// The service that writes the events.
pub const SERVICE: &str = "webhooks";

/// The stream of webhook `id`'s deliveries.
pub fn deliveries_stream(id: &str) -> String {
    format!("webhook-deliveries-{id}")
}

/// Event type names.
pub mod types {
    /// [`arbiter_proto::v1::WebhookAdded`]
    pub const WEBHOOK_ADDED: &str = "WebhookAdded";
    /// [`arbiter_proto::v1::WebhookRemoved`]
    pub const WEBHOOK_REMOVED: &str = "WebhookRemoved";
    /// [`arbiter_proto::v1::DeliveryCreated`]
    pub const DELIVERY_CREATED: &str = "DeliveryCreated";
    /// [`arbiter_proto::v1::DeliveryAttempted`]
    pub const DELIVERY_ATTEMPTED: &str = "DeliveryAttempted";
}

/// A payload as an event.
pub fn event<M: Message>(event_type: &str, m: &M) -> NewEvent {
    NewEvent {
        event_type: event_type.into(),
        schema_version: 1,
        payload: m.encode_to_vec(),
    }
}

/// A registered webhook.
#[derive(Debug, Clone, PartialEq)]
pub struct Hook {
    /// What it was registered with.
    pub webhook: Webhook,
    /// Key generation of its secret.
    pub key_generation: u32,
    /// Removed (kept so its deliveries stay listable; nothing more is delivered).
    pub removed: bool,
    /// Log position of its `WebhookAdded`: it wants the events after it only.
    pub added_at: i64,
    /// Version of its deliveries stream folded (an event at or below it is not folded
    /// again: the stream's own reads at start and the log's reads after the checkpoint
    /// overlap).
    pub deliveries_version: i64,
}

/// A delivery not yet delivered nor given up: what the sender needs of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The delivery with its attempts so far.
    pub delivery: Delivery,
    /// Version of its `DeliveryCreated` in its webhook's deliveries stream.
    pub created_version: i64,
}

/// Whose webhooks a caller reaches (ADR http-003): every one (the access table gives it
/// the RPC for every subject: an admin), or those it registered (an integrator: the
/// rule's `own` column). A webhook another caller cannot reach is answered as if it did
/// not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    /// The caller's principal (`p_…`, `jwt:ISS#SUB`; empty: anonymous).
    pub principal_id: String,
    /// Whether it reaches every webhook.
    pub every: bool,
}

impl Viewer {
    /// `principal_id`, reaching only its own webhooks when `only_own` (what
    /// `Caller::only_as_own` says of the RPC).
    pub fn new(principal_id: &str, only_own: bool) -> Viewer {
        Viewer {
            principal_id: principal_id.to_owned(),
            every: !only_own,
        }
    }

    /// Whether it reaches a webhook registered by `owner` (empty: registered before owners
    /// were recorded, the admins' only).
    pub fn reaches(&self, owner: &str) -> bool {
        self.every || (!owner.is_empty() && owner == self.principal_id)
    }

    /// Whether a retry of the `AddWebhook` that registered `owner`'s webhook may be
    /// answered its secret again: only the principal that registered it (a webhook of no
    /// owner: whoever reaches every webhook). Another caller that repeats the command id
    /// is refused as a reuse of the id.
    pub fn may_see_secret(&self, owner: &str) -> bool {
        if owner.is_empty() {
            self.every
        } else {
            owner == self.principal_id
        }
    }
}

/// What the sender needs (ADR http-004): the webhooks, and the deliveries still pending
/// of those not removed. A webhook's past deliveries are read from its deliveries stream
/// ([`deliveries_in`]), not kept here.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct State {
    /// Version of the `webhooks` stream.
    pub version: i64,
    /// By id.
    pub hooks: BTreeMap<String, Hook>,
    /// The deliveries still pending, by delivery id (what the sender scans).
    pub pending: HashMap<String, Pending>,
    /// How many of `pending` are each webhook's (the dispatcher's bound, ADR http-008).
    pub pending_by_hook: HashMap<String, usize>,
}

/// A delivery's state names.
pub const PENDING: &str = "pending";
/// Delivered (a 2xx).
pub const DELIVERED: &str = "delivered";
/// No attempt left.
pub const FAILED: &str = "failed";

/// The webhook whose deliveries `stream` holds.
pub fn hook_of_stream(stream: &str) -> Option<&str> {
    stream.strip_prefix("webhook-deliveries-")
}

/// A delivery as its `DeliveryCreated` (recorded at `recorded_at_micros`) makes it:
/// pending, due at once.
fn created(c: DeliveryCreated, recorded_at_micros: i64) -> Delivery {
    Delivery {
        delivery_id: c.delivery_id,
        webhook_id: c.webhook_id,
        event_id: c.event_id,
        event_position: c.event_position,
        event_types: c.event_types,
        state: PENDING.into(),
        attempts: Vec::new(),
        next_attempt_at_micros: recorded_at_micros,
    }
}

/// `d` after the attempt `a`; whether it is settled (delivered or given up).
fn attempted(d: &mut Delivery, a: DeliveryAttempted) -> bool {
    let next = a.attempt.as_ref().map_or(0, |x| x.next_attempt_at_micros);
    if let Some(att) = a.attempt {
        d.attempts.push(att);
    }
    d.next_attempt_at_micros = next;
    d.state = if a.delivered {
        DELIVERED
    } else if a.given_up {
        FAILED
    } else {
        PENDING
    }
    .into();
    d.state != PENDING
}

/// The deliveries a run of one webhook's deliveries stream holds (its events in version
/// order), in the order they were created, each with every attempt after it in the run;
/// an attempt of a delivery created before the run is left out. What `ListDeliveries` and
/// `Redeliver` read, from the log.
pub fn deliveries_in(events: &[RecordedEvent]) -> Vec<Delivery> {
    let mut out: Vec<Delivery> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for e in events {
        let p = e.payload.as_slice();
        match e.event_type.as_str() {
            types::DELIVERY_CREATED => {
                let Ok(c) = DeliveryCreated::decode(p) else {
                    warn(e);
                    continue;
                };
                at.insert(c.delivery_id.clone(), out.len());
                out.push(created(c, e.recorded_at_micros));
            }
            types::DELIVERY_ATTEMPTED => {
                let Ok(a) = DeliveryAttempted::decode(p) else {
                    warn(e);
                    continue;
                };
                if let Some(&i) = at.get(&a.delivery_id)
                    && let Some(d) = out.get_mut(i)
                {
                    attempted(d, a);
                }
            }
            _ => {}
        }
    }
    out
}

/// The attempt recording that a delivery was not sent because its webhook already had
/// `pending` deliveries pending, `limit` being the most (ADR http-008): attempt 0, no
/// answer, given up at once, so the delivery is listed as `failed` with the reason and
/// can be redelivered once the receiver answers.
pub fn not_sent(
    delivery_id: &str,
    webhook_id: &str,
    at_micros: i64,
    pending: usize,
    limit: usize,
) -> DeliveryAttempted {
    DeliveryAttempted {
        delivery_id: delivery_id.to_owned(),
        webhook_id: webhook_id.to_owned(),
        attempt: Some(arbiter_proto::v1::DeliveryAttempt {
            attempt: 0,
            at_micros,
            status: 0,
            error: format!(
                "not sent: the webhook had {pending} deliveries pending, the most it keeps ({limit}, ADR http-008); redeliver it once its receiver answers"
            ),
            duration_ms: 0,
            next_attempt_at_micros: 0,
        }),
        delivered: false,
        given_up: true,
    }
}

/// The `DeliveryCreated` of `delivery_id` among `events` of a deliveries stream.
pub fn creation_of(events: &[RecordedEvent], delivery_id: &str) -> Option<DeliveryCreated> {
    events
        .iter()
        .filter(|e| e.event_type == types::DELIVERY_CREATED)
        .filter_map(|e| DeliveryCreated::decode(e.payload.as_slice()).ok())
        .find(|c| c.delivery_id == delivery_id)
}

impl State {
    /// Webhooks not removed.
    pub fn active(&self) -> impl Iterator<Item = &Hook> {
        self.hooks.values().filter(|h| !h.removed)
    }

    /// The webhooks not removed that may want the event at log `position`: those
    /// registered before it (as a fold in log order would have them).
    pub fn wanting(&self, position: i64) -> impl Iterator<Item = &Hook> {
        self.active().filter(move |h| h.added_at < position)
    }

    /// Webhook `id`'s deliveries stream is folded from `from_version` on (what its
    /// settled mark says; the versions before hold settled deliveries only).
    pub fn resume_deliveries(&mut self, id: &str, from_version: i64) {
        if let Some(h) = self.hooks.get_mut(id) {
            h.deliveries_version = h.deliveries_version.max(from_version.saturating_sub(1));
        }
    }

    /// Each webhook not removed with its settled mark: the first version of its
    /// deliveries stream a restart must read (every delivery created before it is
    /// delivered or given up; ADR http-004).
    pub fn settled_marks(&self) -> BTreeMap<String, i64> {
        let mut marks: BTreeMap<String, i64> = self
            .active()
            .map(|h| (h.webhook.webhook_id.clone(), h.deliveries_version + 1))
            .collect();
        for p in self.pending.values() {
            if let Some(m) = marks.get_mut(&p.delivery.webhook_id) {
                *m = (*m).min(p.created_version);
            }
        }
        marks
    }

    /// Folds `e` (events of other streams are ignored; an event of a stream already
    /// folded to its version is not folded again). A payload that does not decode is
    /// skipped with a warning: the fold never stops on one event.
    pub fn apply(&mut self, e: &RecordedEvent) {
        let p = e.payload.as_slice();
        if e.stream == STREAM {
            if e.stream_version <= self.version {
                return;
            }
            self.version = e.stream_version;
            match e.event_type.as_str() {
                types::WEBHOOK_ADDED => {
                    let Ok(a) = WebhookAdded::decode(p) else {
                        return warn(e);
                    };
                    self.hooks.insert(
                        a.webhook_id.clone(),
                        Hook {
                            webhook: Webhook {
                                webhook_id: a.webhook_id,
                                url: a.url,
                                event_types: a.event_types,
                                tournament_id: a.tournament_id,
                                description: a.description,
                                added_by: e.actor.clone(),
                                added_at_micros: e.recorded_at_micros,
                                pending: 0,
                                owner_principal_id: a.owner_principal_id,
                            },
                            key_generation: a.key_generation,
                            removed: false,
                            added_at: e.global_position,
                            deliveries_version: 0,
                        },
                    );
                }
                types::WEBHOOK_REMOVED => {
                    let Ok(r) = WebhookRemoved::decode(p) else {
                        return warn(e);
                    };
                    if let Some(h) = self.hooks.get_mut(&r.webhook_id) {
                        h.removed = true;
                        // Its deliveries stream is no longer folded (nor read at start).
                        h.deliveries_version = 0;
                    }
                    // A removed webhook's pending deliveries stop.
                    self.pending
                        .retain(|_, d| d.delivery.webhook_id != r.webhook_id);
                    self.pending_by_hook.remove(&r.webhook_id);
                }
                _ => {}
            }
            return;
        }
        let Some(id) = hook_of_stream(&e.stream) else {
            return;
        };
        let Some(h) = self.hooks.get_mut(id) else {
            return;
        };
        if h.removed || e.stream_version <= h.deliveries_version {
            return;
        }
        h.deliveries_version = e.stream_version;
        match e.event_type.as_str() {
            types::DELIVERY_CREATED => {
                let Ok(c) = DeliveryCreated::decode(p) else {
                    return warn(e);
                };
                let hook = c.webhook_id.clone();
                let new = self
                    .pending
                    .insert(
                        c.delivery_id.clone(),
                        Pending {
                            delivery: created(c, e.recorded_at_micros),
                            created_version: e.stream_version,
                        },
                    )
                    .is_none();
                if new {
                    *self.pending_by_hook.entry(hook).or_default() += 1;
                }
            }
            types::DELIVERY_ATTEMPTED => {
                let Ok(a) = DeliveryAttempted::decode(p) else {
                    return warn(e);
                };
                let id = a.delivery_id.clone();
                if let Some(d) = self.pending.get_mut(&id)
                    && attempted(&mut d.delivery, a)
                    && let Some(gone) = self.pending.remove(&id)
                {
                    // No entry at 0: a fold equals another whatever it settled.
                    let hook = gone.delivery.webhook_id;
                    if let Some(n) = self.pending_by_hook.get_mut(&hook) {
                        *n = n.saturating_sub(1);
                        if *n == 0 {
                            self.pending_by_hook.remove(&hook);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The registration `id` (also removed) if `viewer` reaches it.
    pub fn reached(&self, id: &str, viewer: &Viewer) -> Option<&Hook> {
        self.hooks
            .get(id)
            .filter(|h| viewer.reaches(&h.webhook.owner_principal_id))
    }

    /// The webhooks not removed that `viewer` reaches, with their pending counts.
    pub fn listed(&self, viewer: &Viewer) -> Vec<Webhook> {
        self.active()
            .filter(|h| viewer.reaches(&h.webhook.owner_principal_id))
            .filter_map(|h| self.webhook(&h.webhook.webhook_id))
            .collect()
    }

    /// The webhook `id` (not removed) with its pending count, if `viewer` reaches it.
    pub fn webhook_for(&self, id: &str, viewer: &Viewer) -> Option<Webhook> {
        self.reached(id, viewer)?;
        self.webhook(id)
    }

    /// The webhook `id` with its pending count.
    pub fn webhook(&self, id: &str) -> Option<Webhook> {
        let h = self.hooks.get(id).filter(|h| !h.removed)?;
        let mut w = h.webhook.clone();
        w.pending = self.pending_of(id).try_into().unwrap_or(u32::MAX);
        Some(w)
    }

    /// How many deliveries of webhook `id` are pending.
    pub fn pending_of(&self, id: &str) -> usize {
        self.pending_by_hook.get(id).copied().unwrap_or(0)
    }

    /// Pending deliveries due at `now_micros` (of webhooks not removed), soonest first.
    pub fn due(&self, now_micros: i64) -> Vec<&Delivery> {
        let mut v: Vec<&Delivery> = self
            .pending
            .values()
            .map(|p| &p.delivery)
            .filter(|d| d.next_attempt_at_micros <= now_micros)
            .filter(|d| self.hooks.get(&d.webhook_id).is_some_and(|h| !h.removed))
            .collect();
        v.sort_by_key(|d| (d.next_attempt_at_micros, d.event_position));
        v
    }
}

fn warn(e: &RecordedEvent) {
    tracing::warn!(
        position = e.global_position,
        stream = %e.stream,
        event_type = %e.event_type,
        "webhook event not decoded: skipped"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::DeliveryAttempt;

    fn rec<M: Message>(pos: i64, stream: &str, version: i64, t: &str, m: &M) -> RecordedEvent {
        RecordedEvent {
            global_position: pos,
            stream: stream.into(),
            event_type: t.into(),
            payload: m.encode_to_vec(),
            recorded_at_micros: pos * 1000,
            actor: "admin".into(),
            event_id: format!("e{pos}"),
            stream_version: version,
            schema_version: 1,
            command_id: String::new(),
            correlation_id: String::new(),
            causation_id: String::new(),
            reason: String::new(),
            rule_edition: String::new(),
            service: SERVICE.into(),
            prev_hash: Vec::new(),
            hash: Vec::new(),
            trace_parent: String::new(),
        }
    }

    /// A log written in order: each event gets the next position and its stream's next
    /// version.
    #[derive(Default)]
    struct Log {
        events: Vec<RecordedEvent>,
        versions: HashMap<String, i64>,
    }

    impl Log {
        fn push<M: Message>(&mut self, stream: &str, t: &str, m: &M) -> &RecordedEvent {
            let v = self.versions.entry(stream.into()).or_default();
            *v += 1;
            let e = rec(self.events.len() as i64 + 1, stream, *v, t, m);
            self.events.push(e);
            self.events.last().unwrap()
        }
        fn add(&mut self, id: &str) {
            self.push(
                STREAM,
                types::WEBHOOK_ADDED,
                &WebhookAdded {
                    webhook_id: id.into(),
                    url: "https://x.org/".into(),
                    owner_principal_id: "p_a".into(),
                    ..Default::default()
                },
            );
        }
        fn remove(&mut self, id: &str) {
            self.push(
                STREAM,
                types::WEBHOOK_REMOVED,
                &WebhookRemoved {
                    webhook_id: id.into(),
                },
            );
        }
        fn create(&mut self, hook: &str, d: &str) {
            self.push(
                &deliveries_stream(hook),
                types::DELIVERY_CREATED,
                &DeliveryCreated {
                    delivery_id: d.into(),
                    webhook_id: hook.into(),
                    event_id: format!("ev-{d}"),
                    ..Default::default()
                },
            );
        }
        fn attempt(&mut self, hook: &str, d: &str, n: u32, outcome: &str) {
            self.push(
                &deliveries_stream(hook),
                types::DELIVERY_ATTEMPTED,
                &DeliveryAttempted {
                    delivery_id: d.into(),
                    webhook_id: hook.into(),
                    attempt: Some(DeliveryAttempt {
                        attempt: n,
                        status: if outcome == DELIVERED { 200 } else { 500 },
                        next_attempt_at_micros: if outcome == PENDING { 1_000_000 } else { 0 },
                        ..Default::default()
                    }),
                    delivered: outcome == DELIVERED,
                    given_up: outcome == FAILED,
                },
            );
        }
        fn other(&mut self) {
            self.push(
                "results-t-r1-b1",
                "ResultRecorded",
                &WebhookRemoved::default(),
            );
        }
        fn stream(&self, stream: &str) -> impl Iterator<Item = &RecordedEvent> {
            self.events.iter().filter(move |e| e.stream == stream)
        }
    }

    fn fold<'a>(events: impl IntoIterator<Item = &'a RecordedEvent>) -> State {
        let mut s = State::default();
        for e in events {
            s.apply(e);
        }
        s
    }

    #[test]
    fn pending_is_counted_per_webhook_and_a_delivery_not_sent_is_settled_at_once() {
        let mut log = Log::default();
        log.add("wh");
        log.create("wh", "d1");
        log.create("wh", "d2");
        let mut s = fold(&log.events);
        assert_eq!(s.pending_of("wh"), 2);
        log.attempt("wh", "d1", 1, DELIVERED);
        s.apply(log.events.last().unwrap());
        assert_eq!(s.pending_of("wh"), 1);
        // Not sent at the bound: created and given up in the same append.
        log.create("wh", "d3");
        let n = not_sent("d3", "wh", 5, 1, 1);
        assert_eq!(n.attempt.as_ref().unwrap().attempt, 0);
        assert!(n.given_up && !n.delivered);
        assert!(
            n.attempt
                .as_ref()
                .unwrap()
                .error
                .contains("the most it keeps (1")
        );
        log.push(&deliveries_stream("wh"), types::DELIVERY_ATTEMPTED, &n);
        let s = fold(&log.events);
        assert_eq!(s.pending_of("wh"), 1);
        assert!(!s.pending.contains_key("d3"));
        let ds = deliveries_in(&log.events);
        assert_eq!(ds[2].state, FAILED);
        // Settled to none: no count left (a fold equals another).
        log.attempt("wh", "d2", 1, DELIVERED);
        let s = fold(&log.events);
        assert!(s.pending_by_hook.is_empty(), "{:?}", s.pending_by_hook);
        log.create("wh", "d4");
        log.remove("wh");
        assert_eq!(fold(&log.events).pending_of("wh"), 0);
    }

    #[test]
    fn a_delivery_is_due_until_delivered_and_a_removed_webhook_gets_nothing() {
        let mut log = Log::default();
        log.add("wh");
        log.create("wh", "d1");
        let mut s = fold(&log.events);
        assert_eq!(s.due(2000).len(), 1, "due at once");
        log.attempt("wh", "d1", 1, PENDING);
        s.apply(log.events.last().unwrap());
        assert!(s.due(999_999).is_empty());
        assert_eq!(s.due(1_000_000).len(), 1);
        assert_eq!(s.webhook("wh").unwrap().pending, 1);
        log.attempt("wh", "d1", 2, DELIVERED);
        s.apply(log.events.last().unwrap());
        assert!(s.due(i64::MAX).is_empty());
        assert!(s.pending.is_empty(), "only what is pending is kept");
        assert_eq!(s.webhook("wh").unwrap().pending, 0);
        // The past is read from the stream: both attempts of the delivered one.
        let ds = deliveries_in(
            &log.stream(&deliveries_stream("wh"))
                .cloned()
                .collect::<Vec<_>>(),
        );
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].state, DELIVERED);
        assert_eq!(ds[0].attempts.len(), 2);
        // Folded twice: nothing changes (a stream's read and the log's overlap).
        let again = {
            let mut t = s.clone();
            for e in &log.events {
                t.apply(e);
            }
            t
        };
        assert_eq!(again, s);
        // removed: pending deliveries stop, the webhook is gone from lists
        log.create("wh", "d2");
        log.remove("wh");
        let s = fold(&log.events);
        assert!(s.due(i64::MAX).is_empty());
        assert!(s.pending.is_empty());
        assert!(s.webhook("wh").is_none());
        assert_eq!(s.version, 2, "the registrations' stream version");
    }

    #[test]
    fn a_webhook_wants_the_events_after_its_registration_only() {
        let mut log = Log::default();
        log.other();
        log.add("wh");
        let s = fold(&log.events);
        assert_eq!(s.wanting(2).count(), 0, "its own position");
        assert_eq!(s.wanting(3).count(), 1);
    }

    #[test]
    fn a_run_of_a_deliveries_stream_lists_the_deliveries_created_in_it() {
        let mut log = Log::default();
        log.add("wh");
        log.create("wh", "d1");
        log.create("wh", "d2");
        log.attempt("wh", "d1", 1, FAILED);
        log.attempt("wh", "d2", 1, PENDING);
        log.attempt("wh", "d2", 2, DELIVERED);
        let all: Vec<RecordedEvent> = log.stream(&deliveries_stream("wh")).cloned().collect();
        let ds = deliveries_in(&all);
        assert_eq!(
            ds.iter()
                .map(|d| (d.delivery_id.as_str(), d.state.as_str(), d.attempts.len()))
                .collect::<Vec<_>>(),
            [("d1", FAILED, 1), ("d2", DELIVERED, 2)]
        );
        // From d2's creation on: d1's attempt is left out, d2 whole.
        let ds = deliveries_in(&all[1..]);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].attempts.len(), 2);
        assert_eq!(creation_of(&all, "d2").unwrap().event_id, "ev-d2");
        assert!(creation_of(&all[1..], "d1").is_none());
    }

    #[test]
    fn a_settled_mark_is_the_oldest_pending_creation_or_past_the_stream() {
        let mut log = Log::default();
        log.add("a");
        log.add("b");
        log.create("a", "a1"); // a v1
        log.create("a", "a2"); // a v2
        log.attempt("a", "a1", 1, DELIVERED); // a v3
        log.create("b", "b1"); // b v1
        log.attempt("b", "b1", 1, FAILED); // b v2
        let s = fold(&log.events);
        let marks = s.settled_marks();
        assert_eq!(marks["a"], 2, "a2 is pending");
        assert_eq!(marks["b"], 3, "nothing pending: after the last version");
        log.remove("b");
        assert!(!fold(&log.events).settled_marks().contains_key("b"));
    }

    /// What a restart does (ADR http-004): the registrations' stream read whole, each
    /// webhook's deliveries stream from its settled mark, then the log after the
    /// checkpoint, which the stream reads overlap.
    fn restarted(log: &Log, checkpoint: usize, marks: &BTreeMap<String, i64>) -> State {
        let mut s = fold(log.stream(STREAM));
        let ids: Vec<String> = s.active().map(|h| h.webhook.webhook_id.clone()).collect();
        for id in ids {
            let from = marks.get(&id).copied().unwrap_or(0).max(1);
            s.resume_deliveries(&id, from);
            for e in log
                .stream(&deliveries_stream(&id))
                .filter(|e| e.stream_version >= from)
            {
                s.apply(e);
            }
        }
        for e in &log.events[checkpoint..] {
            s.apply(e);
        }
        s
    }

    #[test]
    fn a_fold_from_the_checkpoint_equals_a_fold_from_position_1() {
        let mut log = Log::default();
        log.other();
        log.add("a");
        log.other();
        log.create("a", "a1");
        log.create("a", "a2");
        log.attempt("a", "a1", 1, PENDING);
        log.add("b");
        log.create("b", "b1");
        log.attempt("a", "a2", 1, DELIVERED);
        log.other();
        log.attempt("a", "a1", 2, PENDING);
        log.create("a", "a3");
        log.attempt("b", "b1", 1, PENDING);
        log.attempt("a", "a3", 1, FAILED);
        log.create("b", "b2");
        log.remove("b");
        log.attempt("b", "b1", 2, DELIVERED);
        log.add("c");
        log.create("c", "c1");
        log.other();
        log.create("a", "a4");
        log.attempt("a", "a1", 3, PENDING);
        let full = fold(&log.events);
        assert_eq!(
            {
                let mut p: Vec<&str> = full.pending.keys().map(String::as_str).collect();
                p.sort_unstable();
                p
            },
            ["a1", "a4", "c1"],
            "created and not acknowledged: pending; delivered or given up: not"
        );
        let n = log.events.len();
        // Whatever the checkpoint (the service's position) and whenever the settled marks
        // were saved, before or after it.
        for checkpoint in 0..=n {
            for saved in 0..=n {
                let marks = fold(&log.events[..saved]).settled_marks();
                assert_eq!(
                    restarted(&log, checkpoint, &marks),
                    full,
                    "checkpoint {checkpoint}, marks saved at {saved}"
                );
            }
        }
    }

    #[test]
    fn an_integrator_reaches_its_own_webhooks_an_admin_every_one_and_old_ones_are_the_admins() {
        let mut log = Log::default();
        let mut add = |id: &str, owner: &str| {
            log.push(
                STREAM,
                types::WEBHOOK_ADDED,
                &WebhookAdded {
                    webhook_id: id.into(),
                    url: "https://x.org/".into(),
                    owner_principal_id: owner.into(),
                    ..Default::default()
                },
            );
        };
        add("wh_a", "p_a");
        add("wh_b", "p_b");
        // written before owners were recorded
        add("wh_old", "");
        let mut s = fold(&log.events);
        let a = Viewer::new("p_a", true);
        let b = Viewer::new("p_b", true);
        let admin = Viewer::new("p_admin", false);
        let ids = |s: &State, v: &Viewer| {
            s.listed(v)
                .into_iter()
                .map(|w| w.webhook_id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&s, &a), ["wh_a"]);
        assert_eq!(ids(&s, &b), ["wh_b"]);
        assert_eq!(ids(&s, &admin), ["wh_a", "wh_b", "wh_old"]);
        assert!(s.webhook_for("wh_a", &a).is_some());
        assert!(
            s.webhook_for("wh_a", &b).is_none(),
            "another's webhook is not found"
        );
        assert!(s.webhook_for("wh_old", &a).is_none());
        assert!(s.webhook_for("wh_old", &admin).is_some());
        assert_eq!(s.webhook("wh_a").unwrap().owner_principal_id, "p_a");
        // An anonymous or empty principal owns nothing, even webhooks of no owner.
        assert!(!Viewer::new("", true).reaches(""));
        // Removed: still reached by its owner (a retried removal), no longer listed.
        log.remove("wh_a");
        s.apply(log.events.last().unwrap());
        assert!(s.reached("wh_a", &a).is_some());
        assert!(s.reached("wh_a", &b).is_none());
        assert!(s.webhook_for("wh_a", &a).is_none());
        assert!(ids(&s, &a).is_empty());
    }

    #[test]
    fn a_secret_is_answered_again_to_the_principal_that_registered_only() {
        let a = Viewer::new("p_a", true);
        let admin = Viewer::new("p_admin", false);
        assert!(a.may_see_secret("p_a"));
        assert!(!a.may_see_secret("p_b"));
        assert!(!admin.may_see_secret("p_a"), "not even an admin");
        assert!(
            admin.may_see_secret(""),
            "a registration of no owner: as before"
        );
        assert!(!a.may_see_secret(""));
    }
}
