//! The HTTP listener in a service host (ADR http-010): `arbiterd` serves it by default;
//! each standalone host (`arbiter-registry`, `arbiter-pairing`, `arbiter-results`,
//! `arbiter-clock-telemetry`, `arbiter-rating`) when given `--http-listen`. A host answers
//! from the services it runs, in process, and reaches the others it is told of
//! (`--registry-url`, `--pairing-url`, `--results-url`, `--clock-url`) over gRPC with the
//! caller's token ([`crate::remote::Remote`]); a service it neither runs nor was told of
//! answers `FAILED_PRECONDITION` naming the flag.
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use arbiter_proto::v1::pairing_service_server::PairingService;
use arbiter_proto::v1::registry_service_server::RegistryService;
use arbiter_proto::v1::results_service_server::ResultsService;
use arbiter_registry::projection::Tournaments;
use arbiter_service_kit::Platform;

use crate::live::LiveUpdates;
use crate::remote::Remote;
use crate::server::ClockStates;

/// `--http-listen`: an address, or `off`; plain HTTP off the loopback only when
/// `allow_off_loopback` (`--allow-plaintext-non-loopback`).
pub fn listen_address(value: &str, allow_off_loopback: bool) -> anyhow::Result<Option<SocketAddr>> {
    if value.trim().eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    let addr: SocketAddr = value.trim().parse().map_err(|_| {
        anyhow::anyhow!(
            "--http-listen {value:?}: not an address — give HOST:PORT (e.g. 127.0.0.1:8080) or off"
        )
    })?;
    if !addr.ip().is_loopback() && !allow_off_loopback {
        anyhow::bail!(
            "--http-listen {addr}: plain HTTP off loopback — serve it behind a TLS proxy and pass --allow-plaintext-non-loopback, or listen on 127.0.0.1"
        );
    }
    Ok(Some(addr))
}

/// `--http-public-url`: `http(s)://HOST[:PORT][/PATH]`, at most 200 characters.
pub fn check_public_url(u: &str) -> anyhow::Result<()> {
    let ok = (u.starts_with("http://") || u.starts_with("https://"))
        && u.len() <= 200
        && !u
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '"');
    if !ok {
        anyhow::bail!(
            "--http-public-url {u:?}: not an address — give http(s)://HOST[:PORT][/PATH], at most 200 characters"
        );
    }
    Ok(())
}

/// The HTTP options of a standalone host.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct HttpArgs {
    /// Serve the public pages and the JSON API (`/api/v1`) here (ADR http-010); off
    /// unless given. Plain HTTP: loopback only unless --allow-plaintext-non-loopback.
    #[arg(long, env = "ARBITER_HTTP_LISTEN")]
    pub http_listen: Option<String>,
    /// The site's public address, written in the QR codes.
    #[arg(long, env = "ARBITER_HTTP_PUBLIC_URL")]
    pub http_public_url: Option<String>,
    /// The registry's gRPC address, when this host does not run it (for the HTTP
    /// listener: tournaments, players, create/import/export).
    #[arg(long, env = "ARBITER_REGISTRY_URL")]
    pub registry_url: Option<String>,
    /// The pairing service's gRPC address, when this host does not run it.
    #[arg(long, env = "ARBITER_PAIRING_URL")]
    pub pairing_url: Option<String>,
    /// The results service's gRPC address, when this host does not run it.
    #[arg(long, env = "ARBITER_RESULTS_URL")]
    pub results_url: Option<String>,
    /// Clock-telemetry's gRPC address, when this host does not run it (a round's PGN).
    #[arg(long, env = "ARBITER_CLOCK_URL")]
    pub clock_url: Option<String>,
    /// The CA of the peers' certificates (`https://` peer addresses); the system's roots
    /// besides.
    #[arg(long, env = "ARBITER_PEER_CA")]
    pub peer_ca: Option<PathBuf>,
    /// The certificate this host shows to peers that require client certificates (with
    /// --peer-client-key).
    #[arg(long, env = "ARBITER_PEER_CLIENT_CERT", requires = "peer_client_key")]
    pub peer_client_cert: Option<PathBuf>,
    /// The key of --peer-client-cert.
    #[arg(long, env = "ARBITER_PEER_CLIENT_KEY", requires = "peer_client_cert")]
    pub peer_client_key: Option<PathBuf>,
}

/// What a host runs itself (the rest is reached by [`HttpArgs`]' addresses).
#[derive(Default)]
pub struct Hosted {
    pub registry: Option<Arc<dyn RegistryService>>,
    pub pairing: Option<Arc<dyn PairingService>>,
    pub results: Option<Arc<dyn ResultsService>>,
    /// Clock-telemetry's `GetClockState` and its live updates.
    pub clock: Option<(ClockStates, LiveUpdates)>,
    /// The rating service (its endpoints are served by its own host only).
    pub rating: Option<Arc<crate::rating::RatingService>>,
}

impl HttpArgs {
    /// Every HTTP option checked (the listen address, the public address, each peer's):
    /// called before the host opens its log, so a mistake stops the start naming the
    /// flag and nothing else happens.
    pub fn check(&self, allow_off_loopback: bool) -> anyhow::Result<()> {
        if let Some(v) = &self.http_listen {
            listen_address(v, allow_off_loopback)?;
        }
        if let Some(u) = &self.http_public_url {
            check_public_url(u)?;
        }
        for (flag, url) in self.peers() {
            if let Some(url) = url {
                self.endpoint(flag, url)?;
            }
        }
        Ok(())
    }

    fn peers(&self) -> [(&'static str, Option<&String>); 4] {
        [
            ("--registry-url", self.registry_url.as_ref()),
            ("--pairing-url", self.pairing_url.as_ref()),
            ("--results-url", self.results_url.as_ref()),
            ("--clock-url", self.clock_url.as_ref()),
        ]
    }

    fn endpoint(&self, flag: &str, url: &str) -> anyhow::Result<tonic::transport::Endpoint> {
        let endpoint = tonic::transport::Endpoint::from_shared(url.to_owned())
            .map_err(|e| anyhow::anyhow!("{flag} {url:?}: {e}"))?
            .connect_timeout(std::time::Duration::from_secs(5));
        Ok(match endpoint.uri().scheme_str() {
            Some("https") => endpoint
                .tls_config(arbiter_service_kit::tls::client_config(
                    self.peer_ca.as_deref(),
                    self.peer_client_cert
                        .as_deref()
                        .zip(self.peer_client_key.as_deref()),
                )?)
                .map_err(|e| anyhow::anyhow!("{flag} {url}: TLS: {e}"))?,
            Some("http") => endpoint,
            _ => anyhow::bail!("{flag} {url:?}: give http://HOST:PORT or https://HOST:PORT"),
        })
    }

    /// `service` at its flag's address, else absent (its calls name the flag).
    fn remote(
        &self,
        service: &'static str,
        flag: &'static str,
        url: Option<&String>,
    ) -> anyhow::Result<Remote> {
        let Some(url) = url else {
            return Ok(Remote::absent(service, flag));
        };
        let endpoint = self.endpoint(flag, url)?;
        Ok(Remote::at(service, url.clone(), endpoint.connect_lazy()))
    }

    /// Starts the listener when `--http-listen` is given: `hosted` in process, the other
    /// services at their addresses, headings from `tournaments` (the host's projection
    /// of the record). Errors name the flag at fault, before anything is served.
    pub async fn start(
        &self,
        platform: &Platform,
        hosted: Hosted,
        tournaments: Tournaments,
        allow_off_loopback: bool,
    ) -> anyhow::Result<()> {
        let Some(listen) = self
            .http_listen
            .as_deref()
            .map(|v| listen_address(v, allow_off_loopback))
            .transpose()?
            .flatten()
        else {
            return Ok(());
        };
        if let Some(u) = &self.http_public_url {
            check_public_url(u)?;
        }
        let registry: Arc<dyn RegistryService> = match hosted.registry {
            Some(r) => r,
            None => {
                Arc::new(self.remote("registry", "--registry-url", self.registry_url.as_ref())?)
            }
        };
        let pairing: Arc<dyn PairingService> = match hosted.pairing {
            Some(p) => p,
            None => Arc::new(self.remote("pairing", "--pairing-url", self.pairing_url.as_ref())?),
        };
        let results: Arc<dyn ResultsService> = match hosted.results {
            Some(r) => r,
            None => Arc::new(self.remote("results", "--results-url", self.results_url.as_ref())?),
        };
        let (clock, live) = match hosted.clock {
            Some((c, l)) => (Some(c), Some(l)),
            None => match &self.clock_url {
                Some(u) => (
                    Some(crate::remote::clock_states(self.remote(
                        "clock-telemetry",
                        "--clock-url",
                        Some(u),
                    )?)),
                    None,
                ),
                None => (None, None),
            },
        };
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| anyhow::anyhow!("--http-listen {listen}: {e}"))?;
        let local = listener.local_addr()?;
        let start_head = platform.store.head_position().await?;
        let projection = tournaments.clone();
        let app = Arc::new(crate::App {
            registry,
            pairing,
            results,
            auth: platform.auth.clone(),
            tournaments,
            ready: Arc::new(move || projection.position() >= start_head),
            public_url: self.http_public_url.clone(),
            listen: local,
            store: platform.store.clone(),
            shutdown: platform.shutdown.clone(),
            webhooks: None,
            clock,
            live,
            rating: hosted.rating,
        });
        println!("http listening on {local} (pages /, API /api/v1)");
        let shutdown = platform.shutdown.clone();
        tokio::spawn(async move {
            if let Err(e) = crate::serve(listener, app, shutdown).await {
                tracing::error!(error = %e, "http listener stopped");
            }
        });
        Ok(())
    }
}
