//! `/api/v1/webhooks` (ADR http-002): the `WebhookService` RPCs over JSON. As every other
//! endpoint, a handler turns the request into the RPC request (the bearer token as
//! metadata) and calls the service in process: the one access table decides. A write's
//! command id is the `Idempotency-Key` header (a retry with the same key is answered as
//! a replay), else a new one.
use std::sync::Arc;

use arbiter_proto::v1 as pb;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tonic::Status;
use utoipa::ToSchema;

use crate::problem::{self, Problem};
use crate::server::{App, api_answer, grpc, json, query, st};

/// A registration.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhookJson {
    /// `https://HOST/PATH` (or `http://` to the loopback).
    pub url: String,
    /// round.published, result.recorded, result.corrected, standings.changed,
    /// tournament.submitted, ratinglist.published.
    pub event_types: Vec<String>,
    /// Only this tournament's events.
    #[serde(default)]
    pub tournament_id: String,
    /// Free text (≤ 200 characters).
    #[serde(default)]
    pub description: String,
    /// Why (recorded with the registration).
    #[serde(default)]
    pub reason: String,
}

/// A webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookJson {
    pub webhook_id: String,
    pub url: String,
    pub event_types: Vec<String>,
    pub tournament_id: String,
    pub description: String,
    pub added_by: String,
    pub added_at_micros: i64,
    /// Deliveries still to be tried.
    pub pending: u32,
    /// The principal that registered it: an integrator reaches its own webhooks only
    /// (ADR http-003). Empty: registered before owners were recorded (admins only).
    pub owner_principal_id: String,
}

/// A registered webhook and its secret (shown once).
#[derive(Debug, Serialize, ToSchema)]
pub struct AddedWebhookJson {
    pub webhook: WebhookJson,
    /// Hex: the HMAC-SHA256 key of `Arbiter-Signature`.
    pub secret: String,
}

/// One attempt.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptJson {
    pub attempt: u32,
    pub at_micros: i64,
    /// HTTP status (0: no answer).
    pub status: u32,
    pub error: String,
    pub duration_ms: u32,
    /// 0: none.
    pub next_attempt_at_micros: i64,
}

/// A delivery of one event to one webhook.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryJson {
    pub delivery_id: String,
    pub webhook_id: String,
    /// The idempotency key (`Arbiter-Event-Id`).
    pub event_id: String,
    pub event_position: i64,
    pub event_types: Vec<String>,
    /// pending, delivered, failed (no attempt left, or not sent: an attempt 0 says why,
    /// e.g. the webhook had the most deliveries pending; ADR http-008).
    pub state: String,
    pub attempts: Vec<AttemptJson>,
    pub next_attempt_at_micros: i64,
}

/// Pure: the JSON of a webhook.
pub fn webhook_json(w: &pb::Webhook) -> WebhookJson {
    WebhookJson {
        webhook_id: w.webhook_id.clone(),
        url: w.url.clone(),
        event_types: w.event_types.clone(),
        tournament_id: w.tournament_id.clone(),
        description: w.description.clone(),
        added_by: w.added_by.clone(),
        added_at_micros: w.added_at_micros,
        pending: w.pending,
        owner_principal_id: w.owner_principal_id.clone(),
    }
}

/// Pure: the JSON of a delivery.
pub fn delivery_json(d: &pb::Delivery) -> DeliveryJson {
    DeliveryJson {
        delivery_id: d.delivery_id.clone(),
        webhook_id: d.webhook_id.clone(),
        event_id: d.event_id.clone(),
        event_position: d.event_position,
        event_types: d.event_types.clone(),
        state: d.state.clone(),
        attempts: d
            .attempts
            .iter()
            .map(|a| AttemptJson {
                attempt: a.attempt,
                at_micros: a.at_micros,
                status: a.status,
                error: a.error.clone(),
                duration_ms: a.duration_ms,
                next_attempt_at_micros: a.next_attempt_at_micros,
            })
            .collect(),
        next_attempt_at_micros: d.next_attempt_at_micros,
    }
}

/// The command metadata of a write: `Idempotency-Key` (≤ 128 visible ASCII characters),
/// else a new id.
pub fn command_meta(headers: &HeaderMap, reason: &str) -> Result<pb::CommandMeta, Problem> {
    let id = match headers.get("idempotency-key") {
        None => format!("http-{}", uuid::Uuid::now_v7()),
        Some(v) => {
            let s = v
                .to_str()
                .ok()
                .map(str::trim)
                .filter(|s| {
                    !s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_graphic())
                })
                .ok_or_else(|| {
                    problem::invalid("Idempotency-Key", "1 to 128 visible ASCII characters")
                })?;
            s.to_owned()
        }
    };
    Ok(pb::CommandMeta {
        command_id: id,
        reason: reason.to_owned(),
        ..Default::default()
    })
}

type AppState = State<Arc<App>>;

fn service(app: &App) -> Result<&Arc<dyn pb::webhook_service_server::WebhookService>, Problem> {
    app.webhooks.as_ref().ok_or_else(|| {
        st(Status::not_found(
            "path: webhooks are not served by this process",
        ))
    })
}

/// A 201 answer with `value` as JSON.
pub(crate) fn created<T: Serialize>(value: &T) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    (
        StatusCode::CREATED,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// Pure: a registration from a request body (at most the listener's 64 KiB, refused
/// with 413 before it is read), naming what is wrong.
pub fn new_webhook(body: &[u8]) -> Result<NewWebhookJson, Problem> {
    serde_json::from_slice(body).map_err(|e| {
        problem::invalid(
            "body",
            format!("not a registration ({e}): give {{\"url\": …, \"event_types\": […]}}"),
        )
    })
}

/// Registers a webhook (`AddWebhook`), owned by the caller; the secret is in this answer
/// only.
#[utoipa::path(post, path = "/api/v1/webhooks", tag = "webhooks",
    request_body = NewWebhookJson,
    params(("Idempotency-Key" = Option<String>, Header, description = "the command id: a retry with the same key is answered as the first")),
    responses((status = 201, body = AddedWebhookJson),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_add_webhook(
    State(app): AppState,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let r = async {
        let b = new_webhook(&body)?;
        let meta = command_meta(&headers, &b.reason)?;
        let a = service(&app)?
            .add_webhook(grpc(
                &headers,
                pb::AddWebhookRequest {
                    meta: Some(meta),
                    url: b.url,
                    event_types: b.event_types,
                    tournament_id: b.tournament_id,
                    description: b.description,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(created(&AddedWebhookJson {
            webhook: webhook_json(&a.webhook.unwrap_or_default()),
            secret: a.secret,
        }))
    }
    .await;
    api_answer(r)
}

/// The caller's webhooks; an admin's: every one (`ListWebhooks`, ADR http-003).
#[utoipa::path(get, path = "/api/v1/webhooks", tag = "webhooks",
    responses((status = 200, body = Vec<WebhookJson>),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_list_webhooks(State(app): AppState, headers: HeaderMap) -> Response {
    let r = async {
        let l = service(&app)?
            .list_webhooks(grpc(&headers, pb::ListWebhooksRequest {})?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(
            &headers,
            &l.webhooks.iter().map(webhook_json).collect::<Vec<_>>(),
        ))
    }
    .await;
    api_answer(r)
}

/// One webhook (`GetWebhook`); another integrator's is 404, as one that does not exist.
#[utoipa::path(get, path = "/api/v1/webhooks/{webhook_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "wh_…")),
    responses((status = 200, body = WebhookJson),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_get_webhook(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let r = async {
        let w = service(&app)?
            .get_webhook(grpc(&headers, pb::GetWebhookRequest { webhook_id: id })?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(&headers, &webhook_json(&w)))
    }
    .await;
    api_answer(r)
}

/// Removes a webhook (`RemoveWebhook`): nothing more is delivered to it.
#[utoipa::path(delete, path = "/api/v1/webhooks/{webhook_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "wh_…"),
           ("Idempotency-Key" = Option<String>, Header, description = "the command id")),
    responses((status = 204, description = "removed"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_remove_webhook(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let r = async {
        let meta = command_meta(&headers, "")?;
        service(&app)?
            .remove_webhook(grpc(
                &headers,
                pb::RemoveWebhookRequest {
                    meta: Some(meta),
                    webhook_id: id,
                },
            )?)
            .await
            .map_err(st)?;
        Ok(StatusCode::NO_CONTENT.into_response())
    }
    .await;
    api_answer(r)
}

/// A webhook's deliveries, newest first, each with every attempt (`ListDeliveries`).
#[utoipa::path(get, path = "/api/v1/webhooks/{webhook_id}/deliveries", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "wh_…"),
           ("limit" = Option<u32>, Query, description = "1…1,000 (default 100)")),
    responses((status = 200, body = Vec<DeliveryJson>),
              (status = 400, body = Problem, content_type = "application/problem+json"),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_deliveries(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let r = async {
        let q = query(raw.as_deref(), &["limit"])?;
        let limit: u32 = q.number("limit")?;
        let l = service(&app)?
            .list_deliveries(grpc(
                &headers,
                pb::ListDeliveriesRequest {
                    webhook_id: id,
                    limit,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(
            &headers,
            &l.deliveries.iter().map(delivery_json).collect::<Vec<_>>(),
        ))
    }
    .await;
    api_answer(r)
}

/// One delivery with every attempt (`GetDelivery`); another integrator's webhook is 404,
/// as one that does not exist.
#[utoipa::path(get, path = "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "wh_…"),
           ("delivery_id" = String, Path, description = "d_…")),
    responses((status = 200, body = DeliveryJson),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_delivery(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, delivery)): Path<(String, String)>,
) -> Response {
    let r = async {
        let d = service(&app)?
            .get_delivery(grpc(
                &headers,
                pb::GetDeliveryRequest {
                    webhook_id: id,
                    delivery_id: delivery,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(json(&headers, &delivery_json(&d)))
    }
    .await;
    api_answer(r)
}

/// Delivers a delivery's event again, as a new delivery of the same event id
/// (`Redeliver`).
#[utoipa::path(post, path = "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", tag = "webhooks",
    params(("webhook_id" = String, Path, description = "wh_…"),
           ("delivery_id" = String, Path, description = "d_…"),
           ("Idempotency-Key" = Option<String>, Header, description = "the command id")),
    responses((status = 201, body = DeliveryJson),
              (status = 401, body = Problem, content_type = "application/problem+json"),
              (status = 403, body = Problem, content_type = "application/problem+json"),
              (status = 404, body = Problem, content_type = "application/problem+json")),
    security(("bearer" = [])))]
pub async fn api_redeliver(
    State(app): AppState,
    headers: HeaderMap,
    Path((id, delivery)): Path<(String, String)>,
) -> Response {
    let r = async {
        let meta = command_meta(&headers, "")?;
        let d = service(&app)?
            .redeliver(grpc(
                &headers,
                pb::RedeliverRequest {
                    meta: Some(meta),
                    webhook_id: id,
                    delivery_id: delivery,
                },
            )?)
            .await
            .map_err(st)?
            .into_inner();
        Ok(created(&delivery_json(&d)))
    }
    .await;
    api_answer(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_takes_its_command_id_from_the_idempotency_key() {
        let mut h = HeaderMap::new();
        let m = command_meta(&h, "why").unwrap();
        assert!(m.command_id.starts_with("http-") && m.reason == "why");
        assert_ne!(command_meta(&h, "").unwrap().command_id, m.command_id);
        h.insert("idempotency-key", "reg-1".parse().unwrap());
        assert_eq!(command_meta(&h, "").unwrap().command_id, "reg-1");
        h.insert("idempotency-key", "x".repeat(129).parse().unwrap());
        let p = command_meta(&h, "").unwrap_err();
        assert_eq!(p.field.as_deref(), Some("Idempotency-Key"));
    }

    #[test]
    fn a_registration_body_is_read_strictly() {
        let ok = new_webhook(br#"{"url": "https://x.org/", "event_types": ["round.published"]}"#)
            .unwrap();
        assert_eq!(ok.url, "https://x.org/");
        assert!(ok.tournament_id.is_empty());
        for bad in [
            &b"{}"[..],
            b"not json",
            br#"{"url": 3, "event_types": []}"#,
            br#"{"url": "u", "event_types": [], "secret": "x"}"#,
        ] {
            let p = new_webhook(bad).unwrap_err();
            assert_eq!((p.status, p.field.as_deref()), (400, Some("body")));
        }
    }
}
