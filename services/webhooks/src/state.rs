//! The fold of the webhook events (pure): registrations of the `webhooks` stream, and
//! each webhook's deliveries and attempts of its `webhook-deliveries-ID` stream.
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
#[derive(Debug, Clone)]
pub struct Hook {
    /// What it was registered with.
    pub webhook: Webhook,
    /// Key generation of its secret.
    pub key_generation: u32,
    /// Removed (kept so its deliveries stay listable; nothing more is delivered).
    pub removed: bool,
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

/// Everything folded.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Version of the `webhooks` stream.
    pub version: i64,
    /// By id.
    pub hooks: BTreeMap<String, Hook>,
    /// By delivery id.
    pub deliveries: HashMap<String, Delivery>,
    /// Each webhook's delivery ids, oldest first.
    pub by_hook: HashMap<String, Vec<String>>,
    /// The deliveries still pending (what the sender scans).
    pub pending: std::collections::HashSet<String>,
    /// Folded up to this log position.
    pub position: i64,
}

/// A delivery's state names.
pub const PENDING: &str = "pending";
/// Delivered (a 2xx).
pub const DELIVERED: &str = "delivered";
/// No attempt left.
pub const FAILED: &str = "failed";

impl State {
    /// Webhooks not removed.
    pub fn active(&self) -> impl Iterator<Item = &Hook> {
        self.hooks.values().filter(|h| !h.removed)
    }

    /// Folds `e` (events of other streams are ignored). A payload that does not decode
    /// is skipped with a warning: the fold never stops on one event.
    pub fn apply(&mut self, e: &RecordedEvent) {
        self.position = self.position.max(e.global_position);
        let p = e.payload.as_slice();
        if e.stream == STREAM {
            self.version = e.stream_version;
        } else if !e.stream.starts_with("webhook-deliveries-") {
            return;
        }
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
                    },
                );
            }
            types::WEBHOOK_REMOVED => {
                let Ok(r) = WebhookRemoved::decode(p) else {
                    return warn(e);
                };
                if let Some(h) = self.hooks.get_mut(&r.webhook_id) {
                    h.removed = true;
                }
            }
            types::DELIVERY_CREATED => {
                let Ok(c) = DeliveryCreated::decode(p) else {
                    return warn(e);
                };
                self.by_hook
                    .entry(c.webhook_id.clone())
                    .or_default()
                    .push(c.delivery_id.clone());
                self.pending.insert(c.delivery_id.clone());
                self.deliveries.insert(
                    c.delivery_id.clone(),
                    Delivery {
                        delivery_id: c.delivery_id,
                        webhook_id: c.webhook_id,
                        event_id: c.event_id,
                        event_position: c.event_position,
                        event_types: c.event_types,
                        state: PENDING.into(),
                        attempts: Vec::new(),
                        // due at once
                        next_attempt_at_micros: e.recorded_at_micros,
                    },
                );
            }
            types::DELIVERY_ATTEMPTED => {
                let Ok(a) = DeliveryAttempted::decode(p) else {
                    return warn(e);
                };
                if let Some(d) = self.deliveries.get_mut(&a.delivery_id) {
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
                    if d.state != PENDING {
                        self.pending.remove(&a.delivery_id);
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
        w.pending = self
            .by_hook
            .get(id)
            .map_or(0, |ds| {
                ds.iter()
                    .filter(|d| self.deliveries.get(*d).is_some_and(|d| d.state == PENDING))
                    .count()
            })
            .try_into()
            .unwrap_or(u32::MAX);
        Some(w)
    }

    /// Pending deliveries due at `now_micros` (of webhooks not removed), soonest first.
    pub fn due(&self, now_micros: i64) -> Vec<&Delivery> {
        let mut v: Vec<&Delivery> = self
            .pending
            .iter()
            .filter_map(|id| self.deliveries.get(id))
            .filter(|d| d.state == PENDING && d.next_attempt_at_micros <= now_micros)
            .filter(|d| self.hooks.get(&d.webhook_id).is_some_and(|h| !h.removed))
            .collect();
        v.sort_by_key(|d| (d.next_attempt_at_micros, d.event_position));
        v
    }
}

fn warn(e: &RecordedEvent) {
    tracing::warn!(
        position = e.global_position,
        event_type = %e.event_type,
        "webhook event not decoded: skipped"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::DeliveryAttempt;

    fn rec<M: Message>(pos: i64, stream: &str, t: &str, m: &M) -> RecordedEvent {
        RecordedEvent {
            global_position: pos,
            stream: stream.into(),
            event_type: t.into(),
            payload: m.encode_to_vec(),
            recorded_at_micros: pos * 1000,
            actor: "admin".into(),
            event_id: format!("e{pos}"),
            stream_version: 0,
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

    #[test]
    fn a_delivery_is_due_until_delivered_and_a_removed_webhook_gets_nothing() {
        let mut s = State::default();
        s.apply(&rec(
            1,
            STREAM,
            types::WEBHOOK_ADDED,
            &WebhookAdded {
                webhook_id: "wh".into(),
                url: "https://x.org/".into(),
                ..Default::default()
            },
        ));
        let ds = deliveries_stream("wh");
        s.apply(&rec(
            2,
            &ds,
            types::DELIVERY_CREATED,
            &DeliveryCreated {
                delivery_id: "d1".into(),
                webhook_id: "wh".into(),
                ..Default::default()
            },
        ));
        assert_eq!(s.due(2000).len(), 1, "due at once");
        let failed = |next| DeliveryAttempted {
            delivery_id: "d1".into(),
            webhook_id: "wh".into(),
            attempt: Some(DeliveryAttempt {
                attempt: 1,
                status: 500,
                next_attempt_at_micros: next,
                ..Default::default()
            }),
            ..Default::default()
        };
        s.apply(&rec(3, &ds, types::DELIVERY_ATTEMPTED, &failed(9000)));
        assert!(s.due(8999).is_empty());
        assert_eq!(s.due(9000).len(), 1);
        assert_eq!(s.webhook("wh").unwrap().pending, 1);
        s.apply(&rec(
            4,
            &ds,
            types::DELIVERY_ATTEMPTED,
            &DeliveryAttempted {
                delivered: true,
                ..failed(0)
            },
        ));
        assert!(s.due(i64::MAX).is_empty());
        assert_eq!(s.deliveries["d1"].state, DELIVERED);
        assert_eq!(s.deliveries["d1"].attempts.len(), 2);
        assert_eq!(s.webhook("wh").unwrap().pending, 0);
        // removed: pending deliveries stop, the webhook is gone from lists
        s.apply(&rec(
            5,
            &ds,
            types::DELIVERY_CREATED,
            &DeliveryCreated {
                delivery_id: "d2".into(),
                webhook_id: "wh".into(),
                ..Default::default()
            },
        ));
        s.apply(&rec(
            6,
            STREAM,
            types::WEBHOOK_REMOVED,
            &WebhookRemoved {
                webhook_id: "wh".into(),
            },
        ));
        assert!(s.due(i64::MAX).is_empty());
        assert!(s.webhook("wh").is_none());
        assert_eq!(s.version, 0, "stream versions come from the events");
    }

    fn added(pos: i64, id: &str, owner: &str) -> RecordedEvent {
        rec(
            pos,
            STREAM,
            types::WEBHOOK_ADDED,
            &WebhookAdded {
                webhook_id: id.into(),
                url: "https://x.org/".into(),
                owner_principal_id: owner.into(),
                ..Default::default()
            },
        )
    }

    #[test]
    fn an_integrator_reaches_its_own_webhooks_an_admin_every_one_and_old_ones_are_the_admins() {
        let mut s = State::default();
        s.apply(&added(1, "wh_a", "p_a"));
        s.apply(&added(2, "wh_b", "p_b"));
        // written before owners were recorded
        s.apply(&added(3, "wh_old", ""));
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
        s.apply(&rec(
            4,
            STREAM,
            types::WEBHOOK_REMOVED,
            &WebhookRemoved {
                webhook_id: "wh_a".into(),
            },
        ));
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
