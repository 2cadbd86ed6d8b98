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
    /// The HTTP listener (ADR http-010).
    #[command(flatten)]
    http: arbiter_http::host::HttpArgs,
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
    args.http.check(c.tls.allow_plaintext_non_loopback)?;
    let platform = c.platform("rating").await?;
    let tournaments = arbiter_registry::projection::Tournaments::start(platform.store.clone());
    let service = arbiter_rating::Rating::start_sharing(
        &platform,
        arbiter_rating::system_today(),
        std::time::Duration::from_secs(60),
        tournaments.clone(),
    );
    let hosted = arbiter_http::host::Hosted {
        rating: Some(std::sync::Arc::new(service.clone())),
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
