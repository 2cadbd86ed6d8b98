//! `arbiter-registry`: the registry service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::access::service::AccessModule;
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::telemetry;
use clap::Parser;

#[derive(Parser)]
#[command(
    name = "arbiter-registry",
    version,
    about = "Arbiter registry service (standalone)"
)]
struct Args {
    #[command(flatten)]
    common: StandaloneArgs,
    /// The HTTP listener (ADR http-010).
    #[command(flatten)]
    http: arbiter_http::host::HttpArgs,
    /// Where the player directory's FIDE rating list is kept (restored at start). Without
    /// it an imported list lives in memory until the process ends.
    #[arg(long, env = "ARBITER_PLAYER_DIRECTORY_DIR")]
    player_directory_dir: Option<std::path::PathBuf>,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    arbiter_service_kit::startup::exit("arbiter-registry", run().await)
}

async fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-registry");
    let c = args.common;
    let tls = c.tls.server(c.listen)?;
    args.http.check(c.tls.allow_plaintext_non_loopback)?;
    let platform = c.platform("registry").await?;
    let mut registry = arbiter_registry::Registry::start(&platform);
    if let Some(dir) = args.player_directory_dir {
        registry = registry.with_player_directory(dir)?;
    }
    // The registry owns the access stream in the distributed mode (ADR platform-007):
    // principals, grants and tokens are managed here, the other services follow.
    let known = registry.tournaments().clone();
    let access = AccessModule::new(&platform).with_tournaments(move |t| known.contains(t));
    let hosted = arbiter_http::host::Hosted {
        registry: Some(std::sync::Arc::new(registry.clone())),
        ..Default::default()
    };
    args.http
        .start(
            &platform,
            hosted,
            registry.tournaments().clone(),
            c.tls.allow_plaintext_non_loopback,
        )
        .await?;
    host::serve(
        platform,
        vec![Box::new(access), Box::new(registry)],
        c.listen,
        tls,
    )
    .await
}
