//! Connection, token and the health command.
use arbiter_service_kit::auth::Auth;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

use crate::{Cli, Failure, output};

/// Every service `arbiterd` hosts, by gRPC name.
pub const SERVICES: &[&str] = &[
    "arbiter.v1.RegistryService",
    "arbiter.v1.PairingService",
    "arbiter.v1.ResultsService",
    "arbiter.v1.RatingService",
    "arbiter.v1.ClockService",
];

/// Connects to `--server`.
pub async fn connect(cli: &Cli) -> Result<Channel, Failure> {
    let endpoint = Endpoint::from_shared(cli.server.clone()).map_err(|e| Failure {
        code: 2,
        message: format!("--server {:?}: {e}", cli.server),
    })?;
    endpoint
        .connect_timeout(std::time::Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| Failure {
            code: 3,
            message: format!(
                "cannot reach {} ({e}); is arbiterd running (make run)?",
                cli.server
            ),
        })
}

/// The bearer token: `ARBITER_TOKEN`, else the admin token in the data dir.
pub fn token(cli: &Cli) -> Result<String, Failure> {
    if let Ok(t) = std::env::var("ARBITER_TOKEN")
        && !t.trim().is_empty()
    {
        return Ok(t.trim().to_owned());
    }
    let path = cli.data_dir.join("admin.token");
    Auth::read_token(&path, "admin").ok_or_else(|| Failure {
        code: 2,
        message: format!(
            "no token: set ARBITER_TOKEN or run next to arbiterd's data dir ({} not found)",
            path.display()
        ),
    })
}

/// A request carrying the bearer token and the trace context.
pub fn authed<T>(token: &str, body: T) -> Result<tonic::Request<T>, Failure> {
    let mut r = tonic::Request::new(body);
    let v = format!("Bearer {token}").parse().map_err(|_| Failure {
        code: 2,
        message: "ARBITER_TOKEN: not a valid header value".into(),
    })?;
    r.metadata_mut().insert("authorization", v);
    let tp = arbiter_service_kit::telemetry::current_traceparent();
    if let Ok(v) = tp.parse()
        && !tp.is_empty()
    {
        r.metadata_mut().insert("traceparent", v);
    }
    Ok(r)
}

/// `arbiter health`.
pub async fn health(cli: &Cli) -> Result<(), Failure> {
    let mut client = HealthClient::new(connect(cli).await?);
    let mut rows = Vec::new();
    let mut all = true;
    for name in SERVICES {
        let status = match client
            .check(HealthCheckRequest {
                service: (*name).to_owned(),
            })
            .await
        {
            Ok(r) => ServingStatus::try_from(r.into_inner().status)
                .map(|s| s.as_str_name().to_owned())
                .unwrap_or_else(|_| "UNKNOWN".into()),
            Err(s) if s.code() == tonic::Code::NotFound => "NOT_HOSTED".into(),
            Err(s) => return Err(s.into()),
        };
        all &= status == "SERVING";
        rows.push(vec![(*name).to_owned(), status]);
    }
    if cli.json {
        let v: Vec<_> = rows
            .iter()
            .map(|r| serde_json::json!({"service": r[0], "status": r[1]}))
            .collect();
        output::json(&serde_json::json!({"server": cli.server, "serving": all, "services": v}));
    } else {
        output::table(&["SERVICE", "STATUS"], &rows);
    }
    if all {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            message: "not every service is SERVING".into(),
        })
    }
}
