//! Connection, token and the health command.
use arbiter_service_kit::auth::Auth;
use arbiter_service_kit::tls;
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
    let tls_flags = cli.ca_cert.is_some() || cli.client_cert.is_some();
    let https = endpoint.uri().scheme_str() == Some("https");
    let endpoint = match endpoint.uri().scheme_str() {
        Some("https") => {
            let identity = cli.client_cert.as_deref().zip(cli.client_key.as_deref());
            let config =
                tls::client_config(cli.ca_cert.as_deref(), identity).map_err(|e| Failure {
                    code: 2,
                    message: format!("{e:#}"),
                })?;
            endpoint.tls_config(config).map_err(|e| Failure {
                code: 2,
                message: format!("--server {}: TLS: {e}", cli.server),
            })?
        }
        // Plaintext asked for by name; TLS flags with it are a mistake, not a reason to
        // guess which one was meant.
        Some("http") if tls_flags => {
            return Err(Failure {
                code: 2,
                message: format!(
                    "--ca-cert/--client-cert are for TLS, but --server {} is plaintext: use https://",
                    cli.server
                ),
            });
        }
        Some("http") => endpoint,
        _ => {
            return Err(Failure {
                code: 2,
                message: format!(
                    "--server {:?}: give http://HOST:PORT (plaintext) or https://HOST:PORT (TLS)",
                    cli.server
                ),
            });
        }
    };
    let channel = endpoint
        .connect_timeout(std::time::Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| Failure {
            code: 3,
            message: match tls::explain_tls_failure(&e) {
                Some(why) => format!("cannot connect to {} over TLS: {why}", cli.server),
                None => format!(
                    "cannot reach {} ({}); is arbiterd running (make run)?",
                    cli.server,
                    error_chain(&e)
                ),
            },
        })?;
    probe(cli, channel, https).await
}

/// One health call before the command's own: the connection is known to work, or fails
/// here with one line that says why. A TLS 1.3 server checks the client's certificate
/// after the client has finished its handshake, and a TLS port answers plaintext HTTP/2
/// with a TLS alert, so both only show on the first call — and as one of several
/// transport errors, depending on timing.
async fn probe(cli: &Cli, channel: Channel, https: bool) -> Result<Channel, Failure> {
    let mut health = HealthClient::new(channel.clone());
    let call = health.check(HealthCheckRequest {
        service: String::new(),
    });
    let status = match tokio::time::timeout(std::time::Duration::from_secs(10), call).await {
        Ok(Ok(_)) => return Ok(channel),
        // An answer of the server's (a status it sent has no local cause).
        Ok(Err(s)) if std::error::Error::source(&s).is_none() => return Ok(channel),
        Ok(Err(s)) => s,
        Err(_) => {
            return Err(Failure {
                code: 3,
                message: format!("{} did not answer within 10 s", cli.server),
            });
        }
    };
    let why = match std::error::Error::source(&status) {
        Some(cause) => format!("{}: {}", status.message(), error_chain(cause)),
        None => status.message().to_owned(),
    };
    let message = match tls::explain_tls_failure(&status) {
        Some(tls) => format!("cannot connect to {} over TLS: {tls}", cli.server),
        None if https && cli.client_cert.is_none() => format!(
            "{} closed the connection after the TLS handshake ({why}): it may require a client certificate: give --client-cert and --client-key",
            cli.server
        ),
        None if https => format!(
            "{} closed the connection after the TLS handshake ({why}): it may not accept --client-cert (not signed by the CA it trusts)",
            cli.server
        ),
        None => format!(
            "{} did not answer as plaintext gRPC ({why}): if it serves TLS, use https:// (and --ca-cert)",
            cli.server
        ),
    };
    Err(Failure { code: 3, message })
}

/// `error: cause: cause…`, each message once.
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(e);
    while let Some(e) = next {
        let m = e.to_string();
        if !parts.iter().any(|p| p.contains(&m)) {
            parts.push(m);
        }
        next = e.source();
    }
    parts.join(": ")
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
    // What the server says is down (ADR platform-014), from any health answer.
    let mut unhealthy: Option<String> = None;
    for name in SERVICES {
        let status = match client
            .check(HealthCheckRequest {
                service: (*name).to_owned(),
            })
            .await
        {
            Ok(r) => {
                if let Some(v) = r.metadata().get("arbiter-unhealthy")
                    && let Ok(text) = v.to_str()
                {
                    unhealthy = Some(text.to_owned());
                }
                ServingStatus::try_from(r.into_inner().status)
                    .map(|s| s.as_str_name().to_owned())
                    .unwrap_or_else(|_| "UNKNOWN".into())
            }
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
        output::json(&serde_json::json!({
            "server": cli.server,
            "serving": all,
            "services": v,
            "down": unhealthy,
        }));
    } else {
        output::table(&["SERVICE", "STATUS"], &rows);
    }
    if all {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            message: match unhealthy {
                Some(down) => format!("not every service is SERVING: down: {down}"),
                None => "not every service is SERVING".into(),
            },
        })
    }
}
