//! `arbiter-results`: the results service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::telemetry;
use clap::Parser;

#[derive(Parser)]
#[command(
    name = "arbiter-results",
    version,
    about = "Arbiter results service (standalone)"
)]
struct Args {
    #[command(flatten)]
    common: StandaloneArgs,
    /// The HTTP listener (ADR http-010).
    #[command(flatten)]
    http: arbiter_http::host::HttpArgs,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    arbiter_service_kit::startup::exit("arbiter-results", run().await)
}

async fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-results");
    let c = args.common;
    let tls = c.tls.server(c.listen)?;
    args.http.check(c.tls.allow_plaintext_non_loopback)?;
    let platform = c.platform("results").await?;
    let tournaments = arbiter_registry::projection::Tournaments::start(platform.store.clone());
    let service = arbiter_results::Results::start_sharing(&platform, tournaments.clone());
    let hosted = arbiter_http::host::Hosted {
        results: Some(std::sync::Arc::new(service.clone())),
        ..Default::default()
    };
    args.http
        .start(
            &platform,
            hosted,
            tournaments,
            c.tls.allow_plaintext_non_loopback,
        )
        .await?;
    host::serve(platform, vec![Box::new(service)], c.listen, tls).await
}
