//! `arbiter-clock-telemetry`: the clock-telemetry service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::{Platform, telemetry};
use clap::Parser;

#[derive(Parser)]
#[command(
    name = "arbiter-clock-telemetry",
    version,
    about = "Arbiter clock-telemetry service (standalone)"
)]
struct Args {
    #[command(flatten)]
    common: StandaloneArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-clock-telemetry");
    let c = args.common;
    let platform = Platform::open(
        &c.database_url,
        c.nats_url.as_deref(),
        &c.token_file,
        !c.no_relay,
    )
    .await?;
    let service = arbiter_clock_telemetry::ClockTelemetry::start(&platform);
    host::serve(platform, vec![Box::new(service)], c.listen).await
}
