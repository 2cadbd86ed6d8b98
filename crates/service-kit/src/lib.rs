//! # What every service shell shares
//!
//! - [`telemetry`]: `tracing` everywhere; OTLP export of traces and metrics when
//!   `OTEL_EXPORTER_OTLP_ENDPOINT` is set, silent otherwise; W3C trace context in and
//!   out of gRPC metadata and NATS headers.
//! - [`access`]: principals, roles and tokens (the `access` stream), the one table of
//!   role × RPC ([`access::roles::RULES`]) and the `AccessService`.
//! - [`auth`]: every RPC calls [`auth::Auth::authorize`] first; the actor it returns
//!   (`NAME (p_…; token t_…)`) is recorded on every event.
//! - [`status`]: event-log errors → gRPC statuses whose message names the field.
//! - [`cursor`]: where a task that acts on events has got to (resumed after a restart).
//! - [`limits`]: the bounds of free-text and list fields, and their pure check; the
//!   request limits (message sizes, RPC classes, rate, concurrency and connection
//!   limits) as tables and defaults (ADR platform-010).
//! - [`gate`], [`rate_limit`], [`connections`]: where the request limits are enforced,
//!   before a request's body is decoded; [`files`]: the modes of the data, key and
//!   token files.
//! - [`host`]: the process around services: open the log, connect the bus, run the
//!   outbox relay, serve gRPC (with health and reflection) on one port, shut down
//!   cleanly on SIGTERM/Ctrl-C with the relay drained.
//! - [`tls`]: TLS and mTLS on the gRPC port, the refusal of plaintext off loopback,
//!   the client side of TLS for the CLI.
pub mod access;
pub mod auth;
pub mod command;
pub mod connections;
pub mod cursor;
pub mod dependencies;
pub mod files;
pub mod gate;
pub mod host;
pub mod limits;
pub mod rate_limit;
pub mod readiness;
pub mod startup;
pub mod status;
pub mod telemetry;
pub mod tls;

pub use host::{Platform, PlatformOptions, ServiceModule};
