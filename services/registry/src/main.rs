//! `arbiter-registry`: the registry service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::{Platform, telemetry};
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
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-registry");
    let c = args.common;
    let platform = Platform::open(
        &c.database_url,
        c.nats_url.as_deref(),
        &c.token_file,
        !c.no_relay,
    )
    .await?;
    let registry = arbiter_registry::Registry::start(&platform);
    host::serve(platform, vec![Box::new(registry)], c.listen).await
}
