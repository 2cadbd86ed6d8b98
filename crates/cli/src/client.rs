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

/// A connection whose requests carry the caller's token (when it has one).
pub type Chan = tonic::service::interceptor::InterceptedService<Channel, TokenInterceptor>;

/// Adds `authorization: Bearer <token>` to every request that has none, so reads are
/// sent as the caller too (reads need a principal; only a public tournament's
/// pairings, results and standings are answered without one).
#[derive(Clone)]
pub struct TokenInterceptor {
    header: Option<tonic::metadata::MetadataValue<tonic::metadata::Ascii>>,
}

impl tonic::service::Interceptor for TokenInterceptor {
    fn call(&mut self, mut r: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(h) = &self.header
            && !r.metadata().contains_key("authorization")
        {
            r.metadata_mut().insert("authorization", h.clone());
        }
        Ok(r)
    }
}

/// Connects to `--server`; requests carry the token of [`optional_token`].
pub async fn connect(cli: &Cli) -> Result<Chan, Failure> {
    let header = match optional_token(cli)? {
        Some(t) => Some(format!("Bearer {t}").parse().map_err(|_| Failure {
            code: 2,
            message: "ARBITER_TOKEN: not a valid header value".into(),
        })?),
        None => None,
    };
    let channel = connect_channel(cli).await?;
    Ok(tonic::service::interceptor::InterceptedService::new(
        channel,
        TokenInterceptor { header },
    ))
}

async fn connect_channel(cli: &Cli) -> Result<Channel, Failure> {
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

/// The caller's token: `ARBITER_TOKEN` when it is set (set but empty is an error, never
/// a silent fall back to the admin token), else the admin token in the data dir, else
/// none (anonymous: only a public tournament's pairings, results and standings).
pub fn optional_token(cli: &Cli) -> Result<Option<String>, Failure> {
    if let Some(t) = std::env::var_os("ARBITER_TOKEN") {
        let t = t.to_string_lossy();
        if t.trim().is_empty() {
            return Err(Failure {
                code: 2,
                message: "ARBITER_TOKEN is set but empty: set it to a token, or unset it to use the admin token of --data-dir".into(),
            });
        }
        return Ok(Some(t.trim().to_owned()));
    }
    Ok(Auth::read_token(&cli.data_dir.join("admin.token"), "admin"))
}

/// The bearer token a write needs (see [`optional_token`]).
pub fn token(cli: &Cli) -> Result<String, Failure> {
    let path = cli.data_dir.join("admin.token");
    optional_token(cli)?.ok_or_else(|| Failure {
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
    let mut client = HealthClient::new(connect_channel(cli).await?);
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
