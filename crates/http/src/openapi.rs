//! The OpenAPI 3.1 document of `/api/v1`, made from the handlers' annotations and the JSON
//! types (utoipa): what is documented is what the code serves (a test calls every path).
//! Its `webhooks.delivery` entry is the request Arbiter sends a webhook (ADR http-003):
//! the body's schema is the type the sender serialises (`arbiter_webhooks::body::Body`).
use utoipa::OpenApi;
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, Parameter, ParameterBuilder, ParameterIn, PathItem,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, ObjectBuilder, Ref, Required, ResponseBuilder, Type};

use crate::api;
use crate::problem::Problem;
use crate::server;

struct Bearer;

impl utoipa::Modify for Bearer {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An Arbiter token (`arb_…`) or a federation JWT (ADR platform-007/008)",
                    ))
                    .build(),
            ),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter API",
        version = "1",
        description = "Read access to tournaments, players, pairings, results, a round's games as PGN, standings and history; a round's live boards (clocks and moves) over server-sent events; tournaments created, imported from and exported as TRF; webhooks (register, list, show, remove, deliveries, one delivery, redeliver; ADR http-002, http-008); rating (submit a tournament, a period, its list as FIDE TXT/XML or CSV, a player's and a tournament's report; ADR http-007), and under `webhooks` the request a delivery is (body version 2: the event with its content; ADR http-003). Errors are RFC 9457 problems (application/problem+json) carrying the gRPC code and the field. Reads carry ETags (If-None-Match → 304); lists are paged (page_size, page_token → next_page_token)."
    ),
    paths(
        server::api_openapi,
        server::api_tournaments,
        server::api_tournament,
        server::api_players,
        server::api_pairings,
        server::api_results,
        server::api_standings,
        server::api_round_pgn,
        crate::writes::api_create_tournament,
        crate::writes::api_import_tournament,
        crate::writes::api_export_tournament,
        server::api_history,
        server::api_events,
        crate::live::api_live,
        crate::webhooks::api_add_webhook,
        crate::webhooks::api_list_webhooks,
        crate::webhooks::api_get_webhook,
        crate::webhooks::api_remove_webhook,
        crate::webhooks::api_deliveries,
        crate::webhooks::api_delivery,
        crate::webhooks::api_redeliver,
        crate::rating::api_submit,
        crate::rating::api_period,
        crate::rating::api_list,
        crate::rating::api_player_report,
        crate::rating::api_tournament_report,
    ),
    components(schemas(
        Problem,
        crate::webhooks::NewWebhookJson,
        crate::webhooks::WebhookJson,
        crate::webhooks::AddedWebhookJson,
        crate::webhooks::AttemptJson,
        crate::webhooks::DeliveryJson,
        arbiter_webhooks::body::Body,
        api::TournamentJson,
        crate::writes::NewTournamentJson,
        crate::writes::FindingJson,
        crate::writes::ImportedJson,
        api::TournamentPage,
        api::PlayerJson,
        api::PlayerPage,
        api::ByeJson,
        api::SideJson,
        api::BoardJson,
        api::PairingJson,
        api::BoardResultJson,
        api::ResultsJson,
        api::CellJson,
        api::StandingJson,
        api::StandingsJson,
        api::HistoryEntryJson,
        api::HistoryPage,
        crate::events::EventJson,
        crate::live::LiveBoardJson,
        crate::rating::RatingSubmissionJson,
        crate::rating::RatingChangeJson,
        crate::rating::RatingRippleJson,
        crate::rating::SkippedGameJson,
        crate::rating::RatingSubmittedJson,
        crate::rating::RatingPeriodJson,
        crate::rating::RatingReportGameJson,
        crate::rating::RatingReportEventJson,
        crate::rating::RatingKindReportJson,
        crate::rating::RatingPlayerReportJson,
        crate::rating::RatingTournamentRowJson,
        crate::rating::RatingTournamentReportJson,
    )),
    modifiers(&Bearer)
)]
struct ApiDoc;

/// The document of the paths and schemas.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document served: [`document`] with its `webhooks` (OpenAPI 3.1; utoipa's document
/// has no such field, so it is added to the JSON).
pub fn document_json() -> serde_json::Value {
    let mut doc = serde_json::to_value(document()).unwrap_or(serde_json::Value::Null);
    if let Some(o) = doc.as_object_mut() {
        o.insert(
            "webhooks".into(),
            serde_json::json!({ "delivery": serde_json::to_value(delivery()).unwrap_or_default() }),
        );
    }
    doc
}

/// The request a webhook receives: headers, the body (version 2), the answers that count.
fn delivery() -> PathItem {
    let header = |name: &str, description: &str| -> Parameter {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Header)
            .required(Required::True)
            .description(Some(description))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build()
    };
    let body_version = format!(
        "{}: the body's version, {}",
        arbiter_webhooks::body::VERSION_HEADER,
        arbiter_webhooks::body::VERSION
    );
    let operation = OperationBuilder::new()
        .operation_id(Some("webhookDelivery"))
        .tag("webhooks")
        .summary(Some("A delivery of one log event to a registered webhook"))
        .description(Some(
            "POSTed to the webhook's URL for each log event of its event types (ADR http-002, http-003). Verify `Arbiter-Signature` over the raw body bytes with the webhook's secret, refuse a `t` more than 5 minutes from your clock, then skip event ids already handled: delivery is at least once.",
        ))
        .parameters(Some([
            header(
                "Arbiter-Signature",
                "t=UNIX_SECONDS,v1=HEX: HEX = hex(HMAC-SHA256(secret, t + \".\" + raw body))",
            ),
            header(
                "Arbiter-Event-Id",
                "the log event's id: the idempotency key (also `event_id`)",
            ),
            header(
                "Arbiter-Delivery-Id",
                "one per delivery; a redelivery by hand is a new one",
            ),
            header("Arbiter-Webhook-Id", "the webhook"),
            header(
                "Arbiter-Event-Types",
                "the webhook's event types this event is, comma-separated",
            ),
            header("Arbiter-Attempt", "1 for the first attempt"),
            header(
                arbiter_webhooks::body::VERSION_HEADER,
                &body_version,
            ),
        ]))
        .request_body(Some(
            RequestBodyBuilder::new()
                .required(Some(Required::True))
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("WebhookDeliveryBody")))
                        .build(),
                )
                .build(),
        ))
        .response(
            "2XX",
            ResponseBuilder::new().description("delivered: no further attempt"),
        )
        .response(
            "default",
            ResponseBuilder::new().description(
                "any other status (a redirect too), or no answer within the timeout: tried again with backoff",
            ),
        )
        .build();
    PathItem::new(HttpMethod::Post, operation)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_document_names_every_api_route_and_its_schemas() {
        let doc = serde_json::to_value(super::document()).unwrap();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
        let paths = doc["paths"].as_object().unwrap();
        for p in [
            "/api/v1/openapi.json",
            "/api/v1/tournaments",
            "/api/v1/tournaments/{id}",
            "/api/v1/tournaments/{id}/players",
            "/api/v1/tournaments/{id}/rounds/{round}/pairings",
            "/api/v1/tournaments/{id}/rounds/{round}/results",
            "/api/v1/tournaments/{id}/standings",
            "/api/v1/tournaments/{id}/history",
            "/api/v1/tournaments/{id}/events",
            "/api/v1/tournaments/{id}/rating-submission",
            "/api/v1/tournaments/{id}/rating-report",
            "/api/v1/rating/periods/{period}",
            "/api/v1/rating/periods/{period}/list",
            "/api/v1/rating/periods/{period}/players/{fide_id}",
        ] {
            assert!(paths.contains_key(p), "{p} not documented");
        }
        assert!(doc["components"]["schemas"]["Problem"].is_object());
        assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    }

    #[test]
    fn the_webhook_delivery_is_documented_with_the_bodys_schema_and_headers() {
        let doc = super::document_json();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
        let post = &doc["webhooks"]["delivery"]["post"];
        assert_eq!(
            post["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/WebhookDeliveryBody"
        );
        let headers: Vec<&str> = post["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        for h in [
            "Arbiter-Signature",
            "Arbiter-Event-Id",
            "Arbiter-Body-Version",
        ] {
            assert!(headers.contains(&h), "{h} not in {headers:?}");
        }
        // Every field the sender writes is in the schema.
        let schema = &doc["components"]["schemas"]["WebhookDeliveryBody"]["properties"];
        for f in [
            "body_version",
            "event_id",
            "event_types",
            "tournament_id",
            "log_event_type",
            "position",
            "actor",
            "reason",
            "recorded_at_micros",
            "content",
            "content_omitted",
        ] {
            assert!(
                schema[f].is_object(),
                "{f} not in the WebhookDeliveryBody schema"
            );
        }
    }
}
