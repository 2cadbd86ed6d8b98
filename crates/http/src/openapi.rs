//! The OpenAPI 3 document of `/api/v1`, made from the handlers' annotations and the JSON
//! types (utoipa): what is documented is what the code serves (a test calls every path).
use utoipa::OpenApi;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

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
        description = "Read access to tournaments, players, pairings, results, standings and history; webhooks (register, list, show, remove, deliveries, redeliver; ADR http-002). Errors are RFC 9457 problems (application/problem+json) carrying the gRPC code and the field. Reads carry ETags (If-None-Match → 304); lists are paged (page_size, page_token → next_page_token)."
    ),
    paths(
        server::api_openapi,
        server::api_tournaments,
        server::api_tournament,
        server::api_players,
        server::api_pairings,
        server::api_results,
        server::api_standings,
        server::api_history,
        server::api_events,
        crate::webhooks::api_add_webhook,
        crate::webhooks::api_list_webhooks,
        crate::webhooks::api_get_webhook,
        crate::webhooks::api_remove_webhook,
        crate::webhooks::api_deliveries,
        crate::webhooks::api_redeliver,
    ),
    components(schemas(
        Problem,
        crate::webhooks::NewWebhookJson,
        crate::webhooks::WebhookJson,
        crate::webhooks::AddedWebhookJson,
        crate::webhooks::AttemptJson,
        crate::webhooks::DeliveryJson,
        api::TournamentJson,
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
    )),
    modifiers(&Bearer)
)]
struct ApiDoc;

/// The document.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
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
        ] {
            assert!(paths.contains_key(p), "{p} not documented");
        }
        assert!(doc["components"]["schemas"]["Problem"].is_object());
        assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    }
}
