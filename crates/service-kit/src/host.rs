//! The process around services. One [`Platform`] (event log, bus, tokens) hosts any
//! number of [`ServiceModule`]s on one gRPC port: all five in `arbiterd`, one in each
//! standalone binary.
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use arbiter_bus::Bus;
use arbiter_bus::relay::{RelayOptions, run_relay};
use arbiter_eventlog::EventStore;
use tokio::sync::watch;
use tonic::service::RoutesBuilder;
use tonic_health::ServingStatus;

use crate::auth::{Auth, TokenFile};
use crate::telemetry::GrpcTraceLayer;

/// Flags shared by the standalone service binaries (distributed mode).
#[derive(Debug, Clone, clap::Args)]
pub struct StandaloneArgs {
    /// Event log database: postgres://… (distributed) or sqlite://PATH.
    #[arg(long, env = "ARBITER_DATABASE_URL")]
    pub database_url: String,
    /// NATS server with JetStream (nats://host:4222). Without it events stay in process.
    #[arg(long, env = "ARBITER_NATS_URL")]
    pub nats_url: Option<String>,
    /// gRPC listen address.
    #[arg(long, env = "ARBITER_LISTEN", default_value = "127.0.0.1:50051")]
    pub listen: SocketAddr,
    /// Token file (`ACTOR TOKEN` per line); created with an admin token when missing.
    #[arg(long, env = "ARBITER_TOKEN_FILE", default_value = "arbiter-tokens")]
    pub token_file: PathBuf,
    /// Do not run the outbox relay in this process (events stay in the outbox).
    #[arg(long)]
    pub no_relay: bool,
}

/// What services stand on.
#[derive(Clone)]
pub struct Platform {
    /// The event log.
    pub store: EventStore,
    /// Delivery to other services.
    pub bus: Bus,
    /// Bearer tokens.
    pub auth: Auth,
    /// Turns true when the process is shutting down.
    pub shutdown: watch::Receiver<bool>,
    shutdown_tx: watch::Sender<bool>,
    run_relay: bool,
}

impl Platform {
    /// Opens the log, connects the bus (NATS when a URL is given, else in process)
    /// and loads (or creates) the token file.
    pub async fn open(
        database_url: &str,
        nats_url: Option<&str>,
        token_file: &std::path::Path,
        run_relay: bool,
    ) -> anyhow::Result<Platform> {
        let store = EventStore::open(database_url)
            .await
            .map_err(|e| anyhow::anyhow!("{database_url}: {e}"))?;
        let bus = match nats_url {
            Some(url) => Bus::connect_nats(url)
                .await
                .map_err(|e| anyhow::anyhow!("{url}: {e}"))?,
            None => Bus::InProcess(store.clone()),
        };
        let (auth, file) = Auth::load_or_create(token_file)?;
        if let TokenFile::Created { path, token } = file {
            // Printed once, on first start; afterwards it is only in the file.
            println!("created admin token (stored in {}):", path.display());
            println!("ARBITER_TOKEN={token}");
        }
        let (shutdown_tx, shutdown) = watch::channel(false);
        Ok(Platform {
            store,
            bus,
            auth,
            shutdown,
            shutdown_tx,
            run_relay,
        })
    }
}

impl Platform {
    /// Keeps local copies of the events of `filters` (other services' subjects) in this
    /// service's log (distributed mode; a no-op when every service shares one log):
    /// see `arbiter_bus::mirror`. `service` names the durable consumers.
    pub fn mirror(&self, service: &str, filters: &[&str]) {
        tokio::spawn(arbiter_bus::mirror::run_mirrors(
            self.bus.clone(),
            self.store.clone(),
            format!("mirror-{service}"),
            filters.iter().map(|f| (*f).to_owned()).collect(),
            self.shutdown.clone(),
        ));
    }
}

/// A service the host can serve.
pub trait ServiceModule: Send {
    /// Full gRPC service name, e.g. `arbiter.v1.RegistryService` (used for health).
    fn grpc_name(&self) -> &'static str;
    /// Adds the gRPC service to the router.
    fn add_to(self: Box<Self>, routes: &mut RoutesBuilder);
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

/// Serves `modules` on `listen` until SIGTERM/Ctrl-C, with health (every module and
/// the server as a whole), reflection and per-request tracing. Prints
/// `listening on ADDR` once bound. On shutdown: stop accepting, finish in-flight
/// requests, drain the outbox relay, close the log.
pub async fn serve(
    platform: Platform,
    modules: Vec<Box<dyn ServiceModule>>,
    listen: SocketAddr,
) -> anyhow::Result<()> {
    let relay = platform.run_relay.then(|| {
        tokio::spawn(run_relay(
            platform.store.clone(),
            platform.bus.clone(),
            RelayOptions::default(),
            platform.shutdown.clone(),
        ))
    });

    let (health, health_service) = tonic_health::server::health_reporter();
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(arbiter_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let mut routes = RoutesBuilder::default();
    routes.add_service(health_service);
    routes.add_service(reflection);
    let mut names = Vec::new();
    for m in modules {
        names.push(m.grpc_name());
        m.add_to(&mut routes);
    }
    for name in &names {
        health
            .set_service_status(*name, ServingStatus::Serving)
            .await;
    }
    health.set_service_status("", ServingStatus::Serving).await;

    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| anyhow::anyhow!("listen {listen}: {e}"))?;
    let addr = listener.local_addr()?;
    println!("listening on {addr}");
    tracing::info!(%addr, services = ?names, backend = %platform.store.backend(), "serving");

    let shutdown_tx = platform.shutdown_tx.clone();
    let signal = async move {
        shutdown_signal().await;
        tracing::info!("shutdown requested");
        let _ = shutdown_tx.send(true);
    };
    tonic::transport::Server::builder()
        .layer(GrpcTraceLayer)
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(tokio_stream_from(listener), signal)
        .await?;
    let _ = platform.shutdown_tx.send(true);
    if let Some(relay) = relay {
        match tokio::time::timeout(Duration::from_secs(30), relay).await {
            Ok(Ok(Ok(n))) => tracing::info!(published = n, "relay drained"),
            Ok(Ok(Err(e))) => {
                tracing::warn!(error = %e, "relay stopped; pending events stay in the outbox")
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "relay task failed"),
            Err(_) => {
                tracing::warn!("relay did not drain within 30 s; pending events stay in the outbox")
            }
        }
    }
    platform.store.close().await;
    tracing::info!("stopped");
    Ok(())
}

fn tokio_stream_from(
    listener: tokio::net::TcpListener,
) -> impl futures::Stream<Item = std::io::Result<tokio::net::TcpStream>> {
    futures::stream::unfold(listener, |l| async move {
        let r = l.accept().await.map(|(s, _)| {
            let _ = s.set_nodelay(true);
            s
        });
        Some((r, l))
    })
}

/// `GetServiceInfo` answer for a service whose projections follow the whole log.
pub async fn service_info(
    platform: &Platform,
    service: &str,
    rule_editions: &[&str],
) -> Result<arbiter_proto::v1::ServiceInfo, tonic::Status> {
    Ok(arbiter_proto::v1::ServiceInfo {
        service: service.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        rule_editions: rule_editions.iter().map(|s| (*s).to_owned()).collect(),
        projected_position: platform
            .store
            .head_position()
            .await
            .map_err(crate::status::from_log)?,
    })
}
