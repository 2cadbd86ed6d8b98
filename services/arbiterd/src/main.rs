//! `arbiterd`: the embedded default. All five services in one process on one gRPC
//! port, the event log in one SQLite file under `--data-dir`, events delivered in
//! process (or also to NATS JetStream with `--nats-url`). The admin token is created
//! on first start, printed once and stored in `<data-dir>/admin.token`. Plaintext gRPC on
//! loopback by default; `--tls-cert`/`--tls-key` (and `--client-ca`) for anything else.
//! The data dir is 0700; the log, the token file, the private keys and the anchor are
//! 0600 (ADR platform-010).
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use arbiter_service_kit::host::{self, NatsArgs, ServiceModule, TlsArgs, VerifyAtStart};
use arbiter_service_kit::limits::LimitOptions;
use arbiter_service_kit::{Platform, PlatformOptions, telemetry};
use clap::Parser;

#[derive(Parser)]
#[command(
    name = "arbiterd",
    version,
    about = "Arbiter: all services in one process (embedded mode)"
)]
struct Args {
    /// Data directory: the SQLite event log (arbiter.db) and the token file (admin.token).
    #[arg(long, env = "ARBITER_DATA_DIR", default_value = "arbiter-data")]
    data_dir: PathBuf,
    /// gRPC listen address (every service on this one port).
    #[arg(long, env = "ARBITER_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Also publish events to this NATS JetStream server (nothing published there is
    /// applied: every service of this process writes the one log).
    #[arg(long, env = "ARBITER_NATS_URL")]
    nats_url: Option<String>,
    /// Check the event log (every seal, the anchor), print what is wrong, and exit:
    /// 0 intact, 1 damaged. Nothing is served or written.
    #[arg(long)]
    check_log: bool,
    /// Replace the signing key of SERVICE at start (registry, pairing, results, rating,
    /// clock, or arbiterd, whose key seals the log chain); repeatable. Recorded as a
    /// `SigningKeyRotated` event sealed by the old key; old seals stay verifiable.
    #[arg(long, value_name = "SERVICE")]
    rotate_signing_key: Vec<String>,
    /// How much of the event log is checked at start: `full` walks every event, and is
    /// the one that also finds a log edited before the last anchor (e.g. while arbiterd
    /// was stopped); `incremental` checks the anchor against its commit's log seal and
    /// walks only the events after it (faster on a long log, trusting everything before
    /// the anchor). `--check-log` always walks every event.
    #[arg(long, env = "ARBITER_VERIFY_AT_START", value_enum, default_value_t = VerifyAtStart::Full)]
    verify_at_start: VerifyAtStart,
    /// How many milliseconds a device's stamp (`at_ms`) may be ahead of this server's clock:
    /// within it the item is applied at the server's time, beyond it refused (at most 60000).
    #[arg(long, env = "ARBITER_DEVICE_CLOCK_TOLERANCE_MS", default_value_t = arbiter_clock_telemetry::DEFAULT_DEVICE_CLOCK_TOLERANCE_MS, value_parser = arbiter_clock_telemetry::parse_device_clock_tolerance)]
    device_clock_tolerance_ms: u64,
    /// TLS on the gRPC port.
    #[command(flatten)]
    tls: TlsArgs,
    /// TLS and credentials towards NATS (with --nats-url).
    #[command(flatten)]
    nats: NatsArgs,
    /// Request, rate and connection limits (ADR platform-010).
    #[command(flatten)]
    limits: LimitOptions,
    /// Federation single sign-on (bearer JWTs, ADR platform-008).
    #[command(flatten)]
    jwt: arbiter_service_kit::access::jwt::JwtArgs,
    /// HTTP listen address: the public pages (`/`, `/t/{id}`…) and the JSON API
    /// (`/api/v1`, ADR http-001) [default: 127.0.0.1:8080]; `off` serves no HTTP. Plain
    /// HTTP: on loopback only, unless --allow-plaintext-non-loopback (put a TLS proxy in
    /// front). Given, an address that cannot be bound stops the start; left to the
    /// default, a busy 8080 is reported in one line and the server runs without HTTP.
    #[arg(long, env = "ARBITER_HTTP_LISTEN")]
    http_listen: Option<String>,
    /// The site's public address (e.g. `https://chess.example.org`) written in the QR
    /// codes of the pages; default: the request's Host.
    #[arg(long, env = "ARBITER_HTTP_PUBLIC_URL")]
    http_public_url: Option<String>,
    /// Webhooks (ADR http-002): the wait after a delivery's first failure, doubled after
    /// each failure (with jitter: between half and all of it).
    #[arg(
        long,
        env = "ARBITER_WEBHOOK_BACKOFF_BASE_MS",
        default_value_t = 10_000
    )]
    webhook_backoff_base_ms: u64,
    /// Webhooks: the longest wait between two attempts.
    #[arg(
        long,
        env = "ARBITER_WEBHOOK_BACKOFF_MAX_MS",
        default_value_t = 3_600_000
    )]
    webhook_backoff_max_ms: u64,
    /// Webhooks: attempts of a delivery in all.
    #[arg(long, env = "ARBITER_WEBHOOK_MAX_ATTEMPTS", default_value_t = 32)]
    webhook_max_attempts: u32,
    /// Webhooks: deliveries pending per webhook at most; the events after are recorded as
    /// deliveries not sent (failed, to redeliver by hand; ADR http-008).
    #[arg(long, env = "ARBITER_WEBHOOK_MAX_PENDING", default_value_t = arbiter_webhooks::MAX_PENDING_PER_WEBHOOK)]
    webhook_max_pending: usize,
    /// Webhooks: no attempt starts later than this after the first.
    #[arg(
        long,
        env = "ARBITER_WEBHOOK_GIVE_UP_AFTER_S",
        default_value_t = 86_400
    )]
    webhook_give_up_after_s: u64,
    /// Webhooks: one attempt (connect, send, the answer's status) at most this long.
    #[arg(long, env = "ARBITER_WEBHOOK_TIMEOUT_MS", default_value_t = 10_000)]
    webhook_timeout_ms: u64,
    /// Webhooks may be registered with http:// to addresses off the loopback (the
    /// signature still authenticates; nothing is secret in transit but the body).
    #[arg(long, env = "ARBITER_WEBHOOKS_ALLOW_PLAIN_HTTP")]
    webhooks_allow_plain_http: bool,
}

/// Where the pages and the JSON API are served unless `--http-listen` says otherwise.
const DEFAULT_HTTP_LISTEN: &str = "127.0.0.1:8080";

#[tokio::main]
async fn main() -> std::process::ExitCode {
    arbiter_service_kit::startup::exit("arbiterd", run().await)
}

async fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiterd");
    if args.data_dir.exists() && !args.data_dir.is_dir() {
        anyhow::bail!(
            "--data-dir {}: not a directory — give a directory (made if missing)",
            args.data_dir.display()
        );
    }
    // The log, the tokens and the keys are inside: 0700 (ADR platform-010).
    arbiter_service_kit::files::private_dir(&args.data_dir)
        .with_context(|| format!("--data-dir {}", args.data_dir.display()))?;
    let db = args.data_dir.join("arbiter.db");
    let url = format!("sqlite://{}", db.display());
    let options = PlatformOptions {
        database_url: url,
        nats_url: args.nats_url.clone(),
        token_file: args.data_dir.join("admin.token"),
        run_relay: true,
        key_dir: args.data_dir.join("keys"),
        trusted_keys: None,
        anchor_file: args.data_dir.join("log.anchor"),
        log_owner: "arbiterd".to_owned(),
        shared_log: true,
        rotate_keys: args.rotate_signing_key.clone(),
        verify_at_start: args.verify_at_start,
        access_owner: true,
        nats: args.nats.connect("arbiterd"),
        limits: args.limits.clone(),
        jwt: args.jwt.config()?,
    };
    if args.check_log {
        return check_log(options).await;
    }
    let tls = args.tls.server(args.listen)?;
    let http = arbiter_http::host::listen_address(
        args.http_listen.as_deref().unwrap_or(DEFAULT_HTTP_LISTEN),
        args.tls.allow_plaintext_non_loopback,
    )?;
    if let Some(u) = &args.http_public_url {
        arbiter_http::host::check_public_url(u)?;
    }
    let platform = Platform::open_with(options).await?;
    // One log, so one tournament projection (registry, pairing, results, rating and clock
    // all fold the same record): folded once at start, shared.
    let registry = arbiter_registry::Registry::start(&platform)
        .with_player_directory(args.data_dir.join("player-directory"))?;
    let tournaments = registry.tournaments().clone();
    let known = tournaments.clone();
    let pairing = arbiter_pairing::Pairing::start_sharing(&platform, tournaments.clone());
    let results = arbiter_results::Results::start_sharing(&platform, tournaments.clone());
    let webhook_key =
        arbiter_webhooks::load_or_make_key(&args.data_dir.join("keys").join("webhooks.key"))?;
    let known_for_hooks = tournaments.clone();
    let webhooks = arbiter_webhooks::Webhooks::start(
        &platform,
        arbiter_webhooks::Options {
            schedule: arbiter_webhooks::backoff::Schedule {
                base: std::time::Duration::from_millis(args.webhook_backoff_base_ms.max(1)),
                max: std::time::Duration::from_millis(args.webhook_backoff_max_ms.max(1)),
                attempts: args.webhook_max_attempts.max(1),
                give_up_after: std::time::Duration::from_secs(args.webhook_give_up_after_s),
            },
            timeout: std::time::Duration::from_millis(args.webhook_timeout_ms.max(1)),
            allow_plain_http: args.webhooks_allow_plain_http,
            key: std::sync::Arc::new(webhook_key),
            concurrency: 16,
            max_pending: args.webhook_max_pending.max(1),
        },
    )
    .await
    .with_tournaments(move |t| known_for_hooks.contains(t));
    let clock = arbiter_clock_telemetry::ClockTelemetry::start_sharing(
        &platform,
        tournaments.clone(),
        args.device_clock_tolerance_ms,
    );
    let rating = arbiter_rating::Rating::start_sharing(
        &platform,
        arbiter_rating::system_today(),
        std::time::Duration::from_secs(60),
        tournaments.clone(),
    );
    if let Some(addr) = http {
        // The HTTP listener answers from the same service implementations, in process
        // (each one's access check decides), once the shared projection has caught up.
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => Some(l),
            Err(e) if args.http_listen.is_none() => {
                println!(
                    "http: not serving: the default {addr}: {e} — give --http-listen with a free address, or --http-listen off"
                );
                None
            }
            Err(e) => return Err(anyhow::Error::new(e).context(format!("--http-listen {addr}"))),
        };
        if let Some(listener) = listener {
            let local = listener.local_addr()?;
            let start_head = platform.store.head_position().await?;
            let projection = tournaments.clone();
            let app = std::sync::Arc::new(arbiter_http::App {
                registry: std::sync::Arc::new(registry.clone()),
                pairing: std::sync::Arc::new(pairing.clone()),
                results: std::sync::Arc::new(results.clone()),
                auth: platform.auth.clone(),
                tournaments: tournaments.clone(),
                ready: std::sync::Arc::new(move || projection.position() >= start_head),
                public_url: args.http_public_url.clone(),
                listen: local,
                store: platform.store.clone(),
                shutdown: platform.shutdown.clone(),
                webhooks: Some(std::sync::Arc::new(webhooks.clone())),
                clock: Some(arbiter_http::server::clock_states(clock.clone())),
                live: Some(std::sync::Arc::new(clock.clone())),
                rating: Some(std::sync::Arc::new(rating.clone())),
            });
            println!("http listening on {local} (pages /, API /api/v1)");
            let shutdown = platform.shutdown.clone();
            tokio::spawn(async move {
                if let Err(e) = arbiter_http::serve(listener, app, shutdown).await {
                    tracing::error!(error = %e, "http listener stopped");
                }
            });
        }
    }
    let modules: Vec<Box<dyn ServiceModule>> = vec![
        Box::new(
            arbiter_service_kit::access::service::AccessModule::new(&platform)
                .with_tournaments(move |t| known.contains(t)),
        ),
        Box::new(registry),
        Box::new(pairing),
        Box::new(results),
        Box::new(webhooks.clone()),
        Box::new(rating),
        Box::new(clock),
    ];
    host::serve(platform, modules, args.listen, tls).await
}

/// `--check-log`: the whole check (every signature), printed.
async fn check_log(options: PlatformOptions) -> anyhow::Result<()> {
    let keys = arbiter_eventlog::Keys::in_dir(&options.key_dir, &options.log_owner, None)?;
    let store = arbiter_eventlog::EventStore::open_with(&options.database_url, keys).await?;
    let report = store
        .verify_with(&arbiter_eventlog::VerifyOptions {
            anchor: arbiter_eventlog::anchor::Anchor::read(&options.anchor_file)?,
            signatures: arbiter_eventlog::Signatures::All,
            scope: arbiter_eventlog::Scope::Full,
        })
        .await?;
    store.close().await;
    println!(
        "{} events in {} streams checked",
        report.events, report.streams
    );
    for p in &report.problems {
        println!("{p}");
    }
    if report.is_ok() {
        println!("ok: every hash, seal and log seal verifies, and the log matches its anchor");
        Ok(())
    } else {
        println!("DAMAGED: {} problem(s)", report.problems.len());
        std::process::exit(1)
    }
}
