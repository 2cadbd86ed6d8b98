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
    /// The HTTP listener (ADR http-010).
    #[command(flatten)]
    http: arbiter_http::host::HttpArgs,
    /// Check `OpenBoard` against the registry's record (the tournament exists, a paired
    /// round has the board). With a database of its own the service keeps copies of the
    /// registry's and pairing's events, mirrored over NATS (`--nats-url` required).
    #[arg(long)]
    registry_check: bool,
    /// How many milliseconds a device's stamp (`at_ms`) may be ahead of this server's clock:
    /// within it the item is applied at the server's time, beyond it refused (at most 60000).
    #[arg(long, env = "ARBITER_DEVICE_CLOCK_TOLERANCE_MS", default_value_t = arbiter_clock_telemetry::DEFAULT_DEVICE_CLOCK_TOLERANCE_MS, value_parser = arbiter_clock_telemetry::parse_device_clock_tolerance)]
    device_clock_tolerance_ms: u64,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    arbiter_service_kit::startup::exit("arbiter-clock-telemetry", run().await)
}

async fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    let _telemetry = telemetry::init("arbiter-clock-telemetry");
    let c = &args.common;
    let tls = c.tls.server(c.listen)?;
    args.http.check(c.tls.allow_plaintext_non_loopback)?;
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
        args.device_clock_tolerance_ms,
    );
    if args.http.http_listen.is_some() {
        let hosted = arbiter_http::host::Hosted {
            clock: Some((
                arbiter_http::server::clock_states(service.clone()),
                std::sync::Arc::new(service.clone()),
            )),
            ..Default::default()
        };
        let tournaments = arbiter_registry::projection::Tournaments::start(platform.store.clone());
        args.http
            .start(
                &platform,
                hosted,
                tournaments,
                c.tls.allow_plaintext_non_loopback,
            )
            .await?;
    }
    host::serve(platform, vec![Box::new(service)], c.listen, tls).await
}
