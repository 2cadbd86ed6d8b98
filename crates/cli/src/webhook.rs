//! `arbiter webhook …`: webhooks (ADR http-002) — register an address for event types,
//! list, show, remove, the deliveries with every attempt, redeliver by hand.
use arbiter_proto::v1::webhook_service_client::WebhookServiceClient;
use arbiter_proto::v1::{
    AddWebhookRequest, CommandMeta, Delivery, GetWebhookRequest, ListDeliveriesRequest,
    ListWebhooksRequest, RedeliverRequest, RemoveWebhookRequest, Webhook,
};
use clap::Subcommand;
use serde_json::json;

use crate::client::{authed, connect, token};
use crate::{Cli, Failure, output};

/// `arbiter webhook …`.
#[derive(Subcommand)]
pub enum WebhookCommand {
    /// Registers URL for event types; prints its id and its secret (shown once).
    Add {
        /// https://HOST/PATH (http:// only to the loopback, unless the server allows it).
        url: String,
        /// round.published, result.recorded, result.corrected, standings.changed,
        /// tournament.submitted, ratinglist.published (repeat or comma-separate).
        #[arg(long = "event", value_delimiter = ',', required = true)]
        events: Vec<String>,
        /// Only this tournament's events.
        #[arg(long, default_value = "")]
        tournament: String,
        #[arg(long, default_value = "")]
        description: String,
        /// Why (recorded with the registration).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Every webhook.
    List,
    /// One webhook.
    Show { webhook_id: String },
    /// Removes a webhook: nothing more is delivered to it.
    Remove {
        webhook_id: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// A webhook's deliveries, newest first, with every attempt.
    Deliveries {
        webhook_id: String,
        #[arg(long, default_value_t = 20)]
        limit: u32,
    },
    /// Delivers a delivery's event again (a new delivery, the same event id).
    Redeliver {
        webhook_id: String,
        delivery_id: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
}

fn meta(reason: &str) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id: uuid::Uuid::now_v7().to_string(),
        reason: reason.to_owned(),
        ..Default::default()
    })
}

fn webhook_json(w: &Webhook) -> serde_json::Value {
    json!({
        "webhook_id": w.webhook_id, "url": w.url, "event_types": w.event_types,
        "tournament_id": w.tournament_id, "description": w.description,
        "added_by": w.added_by, "added_at_micros": w.added_at_micros, "pending": w.pending,
        "owner_principal_id": w.owner_principal_id,
    })
}

fn delivery_json(d: &Delivery) -> serde_json::Value {
    json!({
        "delivery_id": d.delivery_id, "webhook_id": d.webhook_id, "event_id": d.event_id,
        "event_position": d.event_position, "event_types": d.event_types, "state": d.state,
        "next_attempt_at_micros": d.next_attempt_at_micros,
        "attempts": d.attempts.iter().map(|a| json!({
            "attempt": a.attempt, "at_micros": a.at_micros, "status": a.status,
            "error": a.error, "duration_ms": a.duration_ms,
            "next_attempt_at_micros": a.next_attempt_at_micros,
        })).collect::<Vec<_>>(),
    })
}

fn print_webhook(w: &Webhook) {
    println!("{}  {}", w.webhook_id, w.url);
    println!("  events: {}", w.event_types.join(", "));
    if !w.tournament_id.is_empty() {
        println!("  tournament: {}", w.tournament_id);
    }
    if !w.description.is_empty() {
        println!("  description: {}", w.description);
    }
    println!("  added by {}; {} pending", w.added_by, w.pending);
}

/// `arbiter webhook …`.
pub async fn run(cli: &Cli, cmd: &WebhookCommand) -> Result<(), Failure> {
    let mut c = WebhookServiceClient::new(connect(cli).await?);
    let tok = token(cli)?;
    match cmd {
        WebhookCommand::Add {
            url,
            events,
            tournament,
            description,
            reason,
        } => {
            let a = c
                .add_webhook(authed(
                    &tok,
                    AddWebhookRequest {
                        meta: meta(reason),
                        url: url.clone(),
                        event_types: events.clone(),
                        tournament_id: tournament.clone(),
                        description: description.clone(),
                    },
                )?)
                .await?
                .into_inner();
            let w = a.webhook.unwrap_or_default();
            if cli.json {
                output::json(&json!({"webhook": webhook_json(&w), "secret": a.secret}));
            } else {
                print_webhook(&w);
                println!(
                    "secret (shown once; verify Arbiter-Signature with it): {}",
                    a.secret
                );
            }
        }
        WebhookCommand::List => {
            let l = c
                .list_webhooks(authed(&tok, ListWebhooksRequest {})?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!(
                    l.webhooks.iter().map(webhook_json).collect::<Vec<_>>()
                ));
            } else {
                let rows: Vec<Vec<String>> = l
                    .webhooks
                    .iter()
                    .map(|w| {
                        vec![
                            w.webhook_id.clone(),
                            w.url.clone(),
                            w.event_types.join(","),
                            if w.tournament_id.is_empty() {
                                "*".into()
                            } else {
                                w.tournament_id.clone()
                            },
                            w.pending.to_string(),
                        ]
                    })
                    .collect();
                output::table(&["ID", "URL", "EVENTS", "TOURNAMENT", "PENDING"], &rows);
            }
        }
        WebhookCommand::Show { webhook_id } => {
            let w = c
                .get_webhook(authed(
                    &tok,
                    GetWebhookRequest {
                        webhook_id: webhook_id.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&webhook_json(&w));
            } else {
                print_webhook(&w);
            }
        }
        WebhookCommand::Remove { webhook_id, reason } => {
            let a = c
                .remove_webhook(authed(
                    &tok,
                    RemoveWebhookRequest {
                        meta: meta(reason),
                        webhook_id: webhook_id.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!({"removed": webhook_id, "replayed": a.replayed}));
            } else {
                println!("removed {webhook_id}");
            }
        }
        WebhookCommand::Deliveries { webhook_id, limit } => {
            let l = c
                .list_deliveries(authed(
                    &tok,
                    ListDeliveriesRequest {
                        webhook_id: webhook_id.clone(),
                        limit: *limit,
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&json!(
                    l.deliveries.iter().map(delivery_json).collect::<Vec<_>>()
                ));
            } else {
                for d in &l.deliveries {
                    println!(
                        "{}  {}  event {} (position {}, {})",
                        d.delivery_id,
                        d.state,
                        d.event_id,
                        d.event_position,
                        d.event_types.join(",")
                    );
                    for a in &d.attempts {
                        let what = if a.error.is_empty() {
                            format!("HTTP {}", a.status)
                        } else {
                            a.error.clone()
                        };
                        println!("  attempt {}: {what} in {} ms", a.attempt, a.duration_ms);
                    }
                }
            }
        }
        WebhookCommand::Redeliver {
            webhook_id,
            delivery_id,
            reason,
        } => {
            let d = c
                .redeliver(authed(
                    &tok,
                    RedeliverRequest {
                        meta: meta(reason),
                        webhook_id: webhook_id.clone(),
                        delivery_id: delivery_id.clone(),
                    },
                )?)
                .await?
                .into_inner();
            if cli.json {
                output::json(&delivery_json(&d));
            } else {
                println!("redelivering event {} as {}", d.event_id, d.delivery_id);
            }
        }
    }
    Ok(())
}
