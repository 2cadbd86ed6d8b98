//! The body of a delivery (pure; ADR http-003): body version 2 — the log event's
//! envelope (its id is the idempotency key) and its content, the event's protobuf
//! payload (`arbiter.v1.<log_event_type>`) decoded in the proto3 JSON mapping by the
//! descriptors compiled into `arbiter-proto` (prost-reflect), so every event type the
//! webhooks deliver is carried as its proto says, with no hand-written mapping.
//!
//! A round's publication (`PairingsPublished`: tournament and round) also carries the
//! pairing it publishes (`pairing`: the `RoundPaired` of that round before it in its
//! stream — the boards), so a receiver can show the round without asking the API.
//!
//! The same event gives the same bytes on every attempt (the log before an event does not
//! change). What would make the body larger than [`MAX_BYTES`] is left out — the pairing
//! first, then the content — saying so in `content_omitted`: the envelope still arrives
//! and the receiver reads the rest from the API.
use std::sync::OnceLock;

use arbiter_eventlog::RecordedEvent;
use arbiter_proto::v1::{PairingsPublished, RoundPaired};
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use serde::Serialize;
use utoipa::ToSchema;

/// The body version this server sends (`Arbiter-Body-Version`, and `body_version`).
pub const VERSION: u32 = 2;
/// The header that names it.
pub const VERSION_HEADER: &str = "Arbiter-Body-Version";
/// Largest body sent; beyond it the content is left out.
pub const MAX_BYTES: usize = 256 * 1024;
/// The protobuf package of the events.
const PACKAGE: &str = "arbiter.v1";

/// What a delivery's `POST` carries (`Content-Type: application/json`); in the OpenAPI
/// document `WebhookDeliveryBody`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = WebhookDeliveryBody)]
pub struct Body {
    /// 2 (also the `Arbiter-Body-Version` header).
    pub body_version: u32,
    /// The webhook delivered to (`Arbiter-Webhook-Id`).
    pub webhook_id: String,
    /// The log event's id (UUID v7): the idempotency key (`Arbiter-Event-Id`), the same
    /// on every attempt and redelivery.
    pub event_id: String,
    /// The webhook's event types this event is (`round.published`, …).
    pub event_types: Vec<String>,
    /// The tournament it is about; null for a rating list.
    pub tournament_id: Option<String>,
    /// The log's event type (`PairingsPublished`, `ResultRecorded`, …): `content` is
    /// the message `arbiter.v1.<log_event_type>`.
    pub log_event_type: String,
    /// Schema version of the payload.
    pub schema_version: u32,
    /// Global log position.
    pub position: i64,
    /// Stream (`results-<tournament>`, …).
    pub stream: String,
    /// Version in the stream.
    pub stream_version: i64,
    /// When it was recorded (µs since the Unix epoch).
    pub recorded_at_micros: i64,
    /// The service that wrote it.
    pub service: String,
    /// Who (`NAME (PRINCIPAL; token TOKEN_ID)`, or the service's own process).
    pub actor: String,
    /// The reason recorded with the command (may be empty).
    pub reason: String,
    /// The event's content: its payload in the proto3 JSON mapping with the proto's
    /// field names, every field present (defaults too), 64-bit integers as numbers,
    /// enums by name. Null when left out (see `content_omitted`).
    #[schema(value_type = Option<Object>)]
    pub content: Option<serde_json::Value>,
    /// For a round's publication (`PairingsPublished`) only: the pairing it publishes,
    /// the `RoundPaired` event's content in the same mapping (`boards` in board order with
    /// both players' ids and pairing numbers, `bye_player_id`, `absent_player_ids`,
    /// `system`, `edition`, …). Absent for every other event, or when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub pairing: Option<serde_json::Value>,
    /// Why `content` (or a publication's `pairing`) is not there: too large, or a payload
    /// that does not decode; absent when everything is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_omitted: Option<String>,
}

/// The descriptors of `arbiter-proto`, decoded once.
fn pool() -> Result<&'static DescriptorPool, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(arbiter_proto::FILE_DESCRIPTOR_SET)
            .map_err(|e| format!("the compiled-in proto descriptors do not decode: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The payload of an event of type `event_type` as JSON (see [`Body::content`]), or why
/// not (an event type with no message, a payload that does not decode).
pub fn content(event_type: &str, payload: &[u8]) -> Result<serde_json::Value, String> {
    let name = format!("{PACKAGE}.{event_type}");
    let desc = pool()?
        .get_message_by_name(&name)
        .ok_or_else(|| format!("event type {event_type}: no message {name} in the protos"))?;
    let msg = DynamicMessage::decode(desc, payload).map_err(|e| {
        format!("event type {event_type}: the payload does not decode as {name}: {e}")
    })?;
    let options = SerializeOptions::new()
        .use_proto_field_name(true)
        .skip_default_fields(false)
        .stringify_64_bit_integers(false);
    msg.serialize_with_options(serde_json::value::Serializer, &options)
        .map_err(|e| format!("event type {event_type}: {name} as JSON: {e}"))
}

/// The tournament `e` is about (its stream; for a submission for rating, its payload).
pub fn tournament_of(e: &RecordedEvent) -> Option<String> {
    if e.event_type == "ExternalTournamentSubmitted" {
        return arbiter_proto::v1::ExternalTournamentSubmitted::decode(e.payload.as_slice())
            .ok()
            .map(|t| t.tournament_id)
            .filter(|t| !t.is_empty());
    }
    arbiter_registry::event_index::tournament_of_stream(e).map(str::to_owned)
}

/// The log's event type of a round's publication.
pub const PUBLISHED: &str = "PairingsPublished";

/// For a round's publication `published`: the `RoundPaired` it publishes — the last one
/// of its round before it in its stream — among `stream` (the events of that stream).
/// `None` for any other event, or when there is none.
pub fn published_pairing<'a>(
    published: &RecordedEvent,
    stream: &'a [RecordedEvent],
) -> Option<&'a RecordedEvent> {
    if published.event_type != PUBLISHED {
        return None;
    }
    let round = PairingsPublished::decode(published.payload.as_slice())
        .ok()?
        .round;
    stream
        .iter()
        .filter(|e| {
            e.stream == published.stream
                && e.stream_version < published.stream_version
                && e.event_type == "RoundPaired"
        })
        .rev()
        .find(|e| RoundPaired::decode(e.payload.as_slice()).is_ok_and(|p| p.round == round))
}

/// The body of a delivery of `e` to webhook `hook` as `kinds`; `pairing` is what
/// [`published_pairing`] found for a publication.
pub fn body(
    e: &RecordedEvent,
    hook: &str,
    kinds: &[String],
    pairing: Option<&RecordedEvent>,
) -> Body {
    let mut omitted = Vec::new();
    let event_content = content(&e.event_type, &e.payload)
        .map_err(|why| omitted.push(why))
        .ok();
    let pairing = pairing.and_then(|p| {
        content(&p.event_type, &p.payload)
            .map_err(|why| omitted.push(format!("pairing: {why}")))
            .ok()
    });
    Body {
        body_version: VERSION,
        webhook_id: hook.to_owned(),
        event_id: e.event_id.clone(),
        event_types: kinds.to_vec(),
        tournament_id: tournament_of(e),
        log_event_type: e.event_type.clone(),
        schema_version: e.schema_version,
        position: e.global_position,
        stream: e.stream.clone(),
        stream_version: e.stream_version,
        recorded_at_micros: e.recorded_at_micros,
        service: e.service.clone(),
        actor: e.actor.clone(),
        reason: e.reason.clone(),
        content: event_content,
        pairing,
        content_omitted: (!omitted.is_empty()).then(|| omitted.join("; ")),
    }
}

/// The bytes sent: [`body`] as JSON; without the pairing, then without the content too,
/// when the body would pass `max` bytes.
pub fn bytes(
    e: &RecordedEvent,
    hook: &str,
    kinds: &[String],
    pairing: Option<&RecordedEvent>,
    max: usize,
) -> Vec<u8> {
    let mut b = body(e, hook, kinds, pairing);
    let full = to_vec(&b);
    if full.len() <= max {
        return full;
    }
    let too_large = |what: &str, n: usize| {
        format!(
            "the body with {what} is {n} bytes, more than the {max} a delivery carries: read the event from the API"
        )
    };
    let mut size = full.len();
    if b.pairing.take().is_some() {
        b.content_omitted = Some(too_large("the pairing", size));
        let without = to_vec(&b);
        if without.len() <= max {
            return without;
        }
        size = without.len();
    }
    b.content = None;
    b.content_omitted = Some(too_large("its content", size));
    to_vec(&b)
}

fn to_vec(b: &Body) -> Vec<u8> {
    // A struct of strings, numbers and a JSON value: serialising it cannot fail.
    serde_json::to_vec(b).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::v1::{RatingPeriodPublished, ResultRecorded};

    fn rec<M: Message>(stream: &str, event_type: &str, m: &M) -> RecordedEvent {
        RecordedEvent {
            global_position: 42,
            stream: stream.into(),
            event_type: event_type.into(),
            payload: m.encode_to_vec(),
            recorded_at_micros: 1_700_000_000_000_000,
            actor: "Anna (p_1; token t_1)".into(),
            event_id: "0190-e".into(),
            stream_version: 7,
            schema_version: 1,
            command_id: "c".into(),
            correlation_id: String::new(),
            causation_id: String::new(),
            reason: "sheet of board 3".into(),
            rule_edition: String::new(),
            service: "results".into(),
            prev_hash: Vec::new(),
            hash: Vec::new(),
            trace_parent: String::new(),
        }
    }

    fn result() -> RecordedEvent {
        rec(
            "results-T1",
            "ResultRecorded",
            &ResultRecorded {
                tournament_id: "T1".into(),
                round: 2,
                board: 3,
                white_id: "pw".into(),
                black_id: "pb".into(),
                result: "1-0".into(),
                source: "arbiter".into(),
                ..Default::default()
            },
        )
    }

    #[test]
    fn a_result_carries_its_envelope_and_its_content_with_every_field() {
        let e = result();
        let v: serde_json::Value = serde_json::from_slice(&bytes(
            &e,
            "wh_1",
            &["result.recorded".into()],
            None,
            MAX_BYTES,
        ))
        .unwrap();
        assert_eq!(v["body_version"], 2);
        assert_eq!(v["webhook_id"], "wh_1");
        assert_eq!(v["event_id"], "0190-e");
        assert_eq!(v["event_types"], serde_json::json!(["result.recorded"]));
        assert_eq!(v["tournament_id"], "T1");
        assert_eq!(v["log_event_type"], "ResultRecorded");
        assert_eq!(v["position"], 42);
        assert_eq!(v["stream_version"], 7);
        assert_eq!(v["recorded_at_micros"], 1_700_000_000_000_000_i64);
        assert_eq!(v["actor"], "Anna (p_1; token t_1)");
        assert_eq!(v["reason"], "sheet of board 3");
        let c = &v["content"];
        assert_eq!(c["round"], 2);
        assert_eq!(c["board"], 3);
        assert_eq!(c["white_id"], "pw");
        assert_eq!(c["result"], "1-0");
        // defaults are there too: a receiver need not know proto3's omissions
        assert_eq!(c["white_code"], "");
        assert!(v.get("content_omitted").is_none());
        assert!(v.get("pairing").is_none(), "a result carries no pairing");
    }

    #[test]
    fn the_same_event_gives_the_same_bytes() {
        let e = result();
        let k = ["result.recorded".to_owned(), "standings.changed".to_owned()];
        assert_eq!(
            bytes(&e, "wh", &k, None, MAX_BYTES),
            bytes(&e, "wh", &k, None, MAX_BYTES)
        );
    }

    #[test]
    fn a_rating_list_is_about_no_tournament() {
        let e = rec(
            "rating",
            "RatingPeriodPublished",
            &RatingPeriodPublished {
                period: "2026-11".into(),
                revision: 1,
                list_sha256: "ab".into(),
            },
        );
        let b = body(&e, "wh", &["ratinglist.published".into()], None);
        assert_eq!(b.tournament_id, None);
        assert_eq!(b.content.unwrap()["period"], "2026-11");
    }

    fn at(mut e: RecordedEvent, version: i64) -> RecordedEvent {
        e.stream_version = version;
        e
    }

    fn paired(round: u32, white: &str) -> RecordedEvent {
        rec(
            "pairing-T1",
            "RoundPaired",
            &RoundPaired {
                tournament_id: "T1".into(),
                round,
                boards: vec![arbiter_proto::v1::PairedBoard {
                    board: 1,
                    white_id: white.into(),
                    black_id: "pb".into(),
                    white_tpn: 1,
                    black_tpn: 2,
                }],
                system: "dutch".into(),
                ..Default::default()
            },
        )
    }

    fn published(round: u32, version: i64) -> RecordedEvent {
        at(
            rec(
                "pairing-T1",
                PUBLISHED,
                &PairingsPublished {
                    tournament_id: "T1".into(),
                    round,
                },
            ),
            version,
        )
    }

    #[test]
    fn a_publication_carries_the_last_pairing_of_its_round_before_it() {
        // round 1 paired, re-paired, round 2 paired, round 1 published, round 1 paired
        // again after it (a later re-pairing is not what was published)
        let stream = vec![
            at(paired(1, "first"), 1),
            at(paired(1, "repaired"), 2),
            at(paired(2, "round two"), 3),
            published(1, 4),
            at(paired(1, "after"), 5),
        ];
        let p = published_pairing(&stream[3], &stream).unwrap();
        assert_eq!(p.stream_version, 2);
        let b = body(&stream[3], "wh", &["round.published".into()], Some(p));
        assert_eq!(b.content.as_ref().unwrap()["round"], 1);
        let pairing = b.pairing.unwrap();
        assert_eq!(pairing["boards"][0]["white_id"], "repaired");
        assert_eq!(pairing["boards"][0]["black_tpn"], 2);
        assert_eq!(pairing["system"], "dutch");
        assert!(published_pairing(&published(3, 6), &stream).is_none());
        assert!(
            published_pairing(&stream[0], &stream).is_none(),
            "not a publication"
        );
    }

    #[test]
    fn what_is_too_large_is_left_out_the_pairing_first_saying_why() {
        let p = at(paired(1, "w"), 1);
        let e = published(1, 2);
        let kinds = ["round.published".to_owned()];
        let full = bytes(&e, "wh", &kinds, Some(&p), MAX_BYTES);
        let v: serde_json::Value = serde_json::from_slice(&full).unwrap();
        assert!(v["pairing"].is_object() && v["content"].is_object());
        // one byte short: the pairing goes, the content stays
        let v: serde_json::Value =
            serde_json::from_slice(&bytes(&e, "wh", &kinds, Some(&p), full.len() - 1)).unwrap();
        assert!(v.get("pairing").is_none());
        assert_eq!(v["content"]["round"], 1);
        let why = v["content_omitted"].as_str().unwrap();
        assert!(
            why.contains(&format!("the pairing is {} bytes", full.len())),
            "{why}"
        );
        // far too short: the content goes too; the envelope still arrives
        let v: serde_json::Value =
            serde_json::from_slice(&bytes(&e, "wh", &kinds, Some(&p), 10)).unwrap();
        assert!(v["content"].is_null() && v.get("pairing").is_none());
        assert!(
            v["content_omitted"]
                .as_str()
                .unwrap()
                .contains("its content")
        );
        assert_eq!(v["event_id"], "0190-e");
    }

    #[test]
    fn a_payload_that_does_not_decode_or_an_unknown_type_is_named_not_a_panic() {
        let mut e = result();
        e.payload = vec![0xff, 0xff, 0xff];
        let b = body(&e, "wh", &[], None);
        assert!(b.content.is_none());
        let why = b.content_omitted.unwrap();
        assert!(
            why.contains("ResultRecorded") && why.contains("does not decode"),
            "{why}"
        );
        e.event_type = "NoSuchEvent".into();
        let why = body(&e, "wh", &[], None).content_omitted.unwrap();
        assert!(why.contains("no message arbiter.v1.NoSuchEvent"), "{why}");
    }

    #[test]
    fn every_log_event_a_webhook_delivers_has_its_message() {
        for (_, events, _) in crate::matching::EVENT_TYPES {
            for t in *events {
                assert!(
                    content(t, &[]).is_ok(),
                    "{t}: {:?}",
                    content(t, &[]).unwrap_err()
                );
            }
        }
    }
}
