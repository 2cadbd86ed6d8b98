//! # arbiter-http: what players, spectators and federation web systems read
//!
//! The HTTP listener of a service host (`arbiterd --http-listen`, ADR http-001):
//! - [`pages`]: the public pages (tournament list, a tournament with the QR code of its
//!   address, a round's pairing by board and by name with its results, the standings
//!   with tie-breaks, the crosstable, a player's card), server-rendered HTML from
//!   minijinja templates (as crates/render's sheets), English and French from one
//!   messages table ([`i18n`]), for a phone and for print;
//! - [`api`]: the JSON read API under `/api/v1`, paged, with ETags; [`problem`]: gRPC
//!   statuses as `application/problem+json`; [`openapi`]: its OpenAPI 3 document, made
//!   from the code, at `/api/v1/openapi.json`;
//! - [`server`]: the thin axum shell. Every request becomes the RPC request the services
//!   already answer, with the caller's bearer token as metadata, and is answered by the
//!   service's own implementation in process: the one access table decides
//!   (public tournaments without a token; nothing personal on a page).
//!
//! - [`webhooks`]: `/api/v1/webhooks`, the `WebhookService` over JSON (ADR http-002).
//! - [`live`]: a round's live boards (clocks and moves from clock-telemetry) over
//!   server-sent events and on the round's live page (ADR http-009).
//! - [`rating`]: submit for rating, a period, its list, a player's and a tournament's
//!   report: the `RatingService` over HTTP (ADR http-007).
//!
//! `pages`, `api`, `problem` and `i18n` are pure (no I/O): tested without a server.
pub mod api;
pub mod events;
pub mod host;
pub mod i18n;
pub mod live;
pub mod openapi;
pub mod pages;
pub mod pgn;
pub mod problem;
pub mod rating;
pub mod remote;
pub mod server;
pub mod webhooks;
pub mod writes;

pub use server::{App, router, serve};
