//! `arbiter-rating`: the rating service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::telemetry;
use clap::Parser;

#[derive(Parser)]
#[command(
    name = "arbiter-rating",
    version,
    about = "Arbiter rating service (standalone)"
)]
struct Args {
    #[command(flatten)]
    common: StandaloneArgs,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    arbiter_service_kit::startup::exit("arbiter-rating", run().await)
}

async fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-rating");
    let c = args.common;
    let tls = c.tls.server(c.listen)?;
    let platform = c.platform("rating").await?;
    let service = arbiter_rating::Rating::start(&platform);
    host::serve(platform, vec![Box::new(service)], c.listen, tls).await
}
