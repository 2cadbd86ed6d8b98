//! `arbiter-clock-telemetry`: the clock-telemetry service alone (distributed mode: PostgreSQL + NATS).
use arbiter_service_kit::host::{self, StandaloneArgs};
use arbiter_service_kit::telemetry;
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
    /// Check `OpenBoard` against the registry's record (the tournament exists, a paired
    /// round has the board). With a database of its own the service keeps copies of the
    /// registry's and pairing's events, mirrored over NATS (`--nats-url` required).
    #[arg(long)]
    registry_check: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-clock-telemetry");
    let c = &args.common;
    let platform = c.platform("clock-telemetry").await?;
    use arbiter_clock_telemetry::{ClockTelemetry, RegistryCheck, TimeSource};
    let check = if args.registry_check {
        RegistryCheck::SameLog
    } else {
        RegistryCheck::Off
    };
    let service = ClockTelemetry::start_configured(
        &platform,
        TimeSource::System,
        arbiter_clock_telemetry::flag_grace_from_env(),
        check,
    );
    host::serve(platform, vec![Box::new(service)], c.listen).await
}
