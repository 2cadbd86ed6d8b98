//! The process around services. One [`Platform`] (event log, bus, tokens) hosts any
//! number of [`ServiceModule`]s on one gRPC port: all five in `arbiterd`, one in each
//! standalone binary.
use anyhow::Context as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use arbiter_bus::relay::{RelayOptions, run_relay};
use arbiter_bus::{Bus, NatsConnect};
use arbiter_eventlog::anchor::Anchor;
use arbiter_eventlog::{EventStore, Keys, Scope, Signatures, VerifyOptions};
use tokio::sync::watch;
use tonic::service::RoutesBuilder;
use tonic_health::ServingStatus;

use crate::access::jwt::{JwtArgs, JwtConfig, JwtVerifier};
use crate::access::{Bootstrap, bootstrap, follow_owner};
use crate::auth::Auth;
use crate::command::Commands;
use crate::connections::{self, ConnLimits};
use crate::gate::GateLayer;
use crate::limits::LimitOptions;
use crate::telemetry::GrpcTraceLayer;
pub use crate::tls::{NatsArgs, ServerTls, TlsArgs};

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
    /// This service's signing key (`<service>.key`, made on first start, 0600) and the
    /// public keys it trusts (every `*.pub` there).
    #[arg(long, env = "ARBITER_KEY_DIR", default_value = "arbiter-keys")]
    pub key_dir: PathBuf,
    /// More trusted public keys: one `SERVICE KEY_ID PUBLIC_KEY_HEX` per line.
    #[arg(long, env = "ARBITER_TRUSTED_KEYS")]
    pub trusted_keys: Option<PathBuf>,
    /// Where the signed log head is anchored (default `<key-dir>/<service>.anchor`).
    #[arg(long, env = "ARBITER_ANCHOR_FILE")]
    pub anchor_file: Option<PathBuf>,
    /// Replace this service's signing key at start (recorded as a `SigningKeyRotated`
    /// event sealed by the old key; old seals stay verifiable).
    #[arg(long)]
    pub rotate_signing_key: bool,
    /// How much of the event log is checked at start: `full` walks every event, and is
    /// the one that also finds a log edited before the last anchor (e.g. while the
    /// service was stopped); `incremental` checks the anchor against its commit's log
    /// seal and walks only the events after it (faster on a long log, trusting
    /// everything before the anchor).
    #[arg(long, env = "ARBITER_VERIFY_AT_START", value_enum, default_value_t = VerifyAtStart::Full)]
    pub verify_at_start: VerifyAtStart,
    /// TLS on the gRPC port.
    #[command(flatten)]
    pub tls: TlsArgs,
    /// TLS and credentials towards NATS.
    #[command(flatten)]
    pub nats: NatsArgs,
    /// Request, rate and connection limits (ADR platform-010).
    #[command(flatten)]
    pub limits: LimitOptions,
    /// Federation single sign-on (bearer JWTs, ADR platform-008).
    #[command(flatten)]
    pub jwt: JwtArgs,
}

/// How much of the log the check at start walks (`--verify-at-start`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum VerifyAtStart {
    /// Every event (also finds a log edited before the anchor while stopped).
    #[default]
    Full,
    /// Only the events after the last anchor.
    Incremental,
}

impl VerifyAtStart {
    /// The scope of the verification.
    pub fn scope(self) -> Scope {
        match self {
            VerifyAtStart::Full => Scope::Full,
            VerifyAtStart::Incremental => Scope::SinceAnchor,
        }
    }
}

impl StandaloneArgs {
    /// The platform of the standalone `service`: its own log, keys and anchor.
    pub async fn platform(&self, service: &str) -> anyhow::Result<Platform> {
        Platform::open_with(PlatformOptions {
            database_url: self.database_url.clone(),
            nats_url: self.nats_url.clone(),
            token_file: self.token_file.clone(),
            run_relay: !self.no_relay,
            key_dir: self.key_dir.clone(),
            trusted_keys: self.trusted_keys.clone(),
            anchor_file: self
                .anchor_file
                .clone()
                .unwrap_or_else(|| self.key_dir.join(format!("{service}.anchor"))),
            log_owner: service.to_owned(),
            shared_log: false,
            rotate_keys: if self.rotate_signing_key {
                vec![service.to_owned()]
            } else {
                Vec::new()
            },
            verify_at_start: self.verify_at_start,
            access_owner: service == ACCESS_OWNER,
            nats: self.nats.connect(service),
            limits: self.limits.clone(),
            jwt: self.jwt.config()?,
        })
        .await
    }
}

/// The standalone service that owns the `access` stream and hosts the `AccessService`
/// in the distributed mode: the registry, which also knows the tournaments a grant
/// names. The others follow it through their mirrors.
pub const ACCESS_OWNER: &str = "registry";

/// How to open a [`Platform`].
#[derive(Debug, Clone)]
pub struct PlatformOptions {
    /// Event log database URL.
    pub database_url: String,
    /// NATS JetStream URL(s), comma-separated.
    pub nats_url: Option<String>,
    /// Token file.
    pub token_file: PathBuf,
    /// Run the outbox relay.
    pub run_relay: bool,
    /// Signing keys and trusted public keys.
    pub key_dir: PathBuf,
    /// More trusted public keys.
    pub trusted_keys: Option<PathBuf>,
    /// The anchor of the log's signed head.
    pub anchor_file: PathBuf,
    /// The key that seals the log chain (the process: `arbiterd`, or the service).
    pub log_owner: String,
    /// Every hosted service shares this one log (arbiterd): nothing is mirrored from
    /// the bus, even with NATS.
    pub shared_log: bool,
    /// Services whose signing key is replaced at start (after the log's check).
    pub rotate_keys: Vec<String>,
    /// How much of the log the check at start walks.
    pub verify_at_start: VerifyAtStart,
    /// This process owns the `access` stream (arbiterd; the registry in the distributed
    /// mode) and hosts the `AccessService`; otherwise it folds the owner's access
    /// events, which a mirror copies into its log (ADR platform-007).
    pub access_owner: bool,
    /// TLS and credentials towards NATS (with `nats_url`).
    pub nats: NatsConnect,
    /// Request, rate and connection limits (ADR platform-010).
    pub limits: LimitOptions,
    /// Accept federation bearer JWTs (ADR platform-008); `None`: opaque tokens only.
    pub jwt: Option<JwtConfig>,
}

/// The subjects of the access stream's events (what a follower mirrors).
pub const ACCESS_SUBJECTS: &str = "arbiter.v1.access.>";

/// What the check of the log at start found (ADR platform-006).
#[derive(Debug, Clone, Default)]
pub struct LogCheck {
    /// True when the log verified against its seals and its anchor.
    pub verified: bool,
    /// What is wrong, when not verified.
    pub problems: Vec<String>,
}

/// What services stand on.
#[derive(Clone)]
pub struct Platform {
    /// The event log.
    pub store: EventStore,
    /// Delivery to other services.
    pub bus: Bus,
    /// Who may call what (the live fold of the `access` stream).
    pub auth: Auth,
    /// Turns true when the process is shutting down.
    pub shutdown: watch::Receiver<bool>,
    shutdown_tx: watch::Sender<bool>,
    run_relay: bool,
    /// Signing keys and trusted public keys.
    pub keys: Arc<Keys>,
    /// Command ids in flight (see [`Commands::begin`]).
    pub commands: Commands,
    /// The check of the log at start.
    pub log_check: Arc<LogCheck>,
    anchor_file: PathBuf,
    shared_log: bool,
    limits: LimitOptions,
}

impl Platform {
    /// Opens the log, connects the bus (NATS when a URL is given, else in process)
    /// and loads (or creates) the token file.
    ///
    /// Keys are kept in `keys/` beside the token file and the anchor in
    /// `keys/log.anchor` (see [`Platform::open_with`]).
    pub async fn open(
        database_url: &str,
        nats_url: Option<&str>,
        token_file: &std::path::Path,
        run_relay: bool,
    ) -> anyhow::Result<Platform> {
        let key_dir = token_file.with_file_name("keys");
        Platform::open_with(PlatformOptions {
            database_url: database_url.to_owned(),
            nats_url: nats_url.map(str::to_owned),
            token_file: token_file.to_owned(),
            run_relay,
            anchor_file: key_dir.join("log.anchor"),
            key_dir,
            trusted_keys: None,
            log_owner: "arbiter".to_owned(),
            shared_log: false,
            rotate_keys: Vec::new(),
            verify_at_start: VerifyAtStart::Full,
            access_owner: true,
            nats: NatsConnect::default(),
            limits: LimitOptions::default(),
            jwt: None,
        })
        .await
    }

    /// Opens the log with the keys of `options.key_dir`, checks it against its seals
    /// and its anchor (a failed check refuses every write and says why, ADR
    /// platform-006), connects the bus (NATS when a URL is given, else in process)
    /// and loads (or creates) the token file. With `options.jwt` the JWKS file is read
    /// first (a bad file stops the start before anything is opened).
    pub async fn open_with(options: PlatformOptions) -> anyhow::Result<Platform> {
        let PlatformOptions {
            database_url,
            nats_url,
            token_file,
            run_relay,
            key_dir,
            trusted_keys,
            anchor_file,
            log_owner,
            shared_log,
            rotate_keys,
            verify_at_start,
            access_owner,
            nats,
            limits,
            jwt,
        } = options;
        let jwt = jwt.as_ref().map(JwtVerifier::from_config).transpose()?;
        // async-nats builds its TLS config from the process's rustls provider.
        crate::tls::install_crypto_provider();
        if nats_url.is_none() && !nats.is_default() {
            anyhow::bail!("--nats-ca, --nats-cert, --nats-user and --nats-nkey need --nats-url");
        }
        let keys = Keys::in_dir(&key_dir, &log_owner, trusted_keys.as_deref())
            .map_err(|e| anyhow::anyhow!("--key-dir {}: {e}", key_dir.display()))?;
        let store = EventStore::open_with(&database_url, keys.clone())
            .await
            .map_err(|e| anyhow::anyhow!("{database_url}: {e}"))?;
        let log_check = Arc::new(check_log(&store, &anchor_file, verify_at_start.scope()).await?);
        for service in &rotate_keys {
            if !log_check.verified {
                anyhow::bail!(
                    "--rotate-signing-key {service}: the log failed its check; not rotated"
                );
            }
            let (old, new) = store
                .rotate_key(service)
                .await
                .map_err(|e| anyhow::anyhow!("--rotate-signing-key {service}: {e}"))?;
            println!("rotated the signing key of {service}: {old} -> {new}");
        }
        let bus = match &nats_url {
            Some(url) => Bus::connect_nats_configured(url, keys.clone(), &nats)
                .await
                .map_err(|e| anyhow::anyhow!("{url}: {e}"))?,
            None => Bus::InProcess(store.clone()),
        };
        let (access, boot) = if access_owner {
            bootstrap(&store, &token_file, log_check.verified).await
        } else {
            follow_owner(&store, &token_file).await
        }
        .context("access")?;
        // The token file is a credential (created 0600; one made wider is tightened).
        crate::files::keep_private(&token_file, 0o600);
        if let Some(v) = jwt {
            tracing::info!(issuer = v.issuer(), keys = ?v.key_ids(), "access: federation JWTs accepted");
            access.accept_jwts(v)?;
        }
        let mut auth = Auth::new(access.clone());
        if !log_check.verified {
            store.refuse_appends(format!(
                "the event log failed its check at start ({} problem(s)); nothing is appended until it is repaired",
                log_check.problems.len()
            ));
            auth.refuse_writes(format!(
                "the event log failed its check at start ({} problem(s), the first: {}); writes are refused until it is repaired — run `arbiter audit verify` for the list",
                log_check.problems.len(),
                log_check.problems.first().map_or("", String::as_str)
            ));
        }
        match boot {
            Bootstrap::Created { path, token } => {
                // Printed once, on first start; afterwards it is only in the file.
                println!("created admin token (stored in {}):", path.display());
                println!("ARBITER_TOKEN={token}");
            }
            Bootstrap::Imported(n) => {
                tracing::info!(tokens = n, file = %token_file.display(), "access: token file recorded as admin principals");
            }
            Bootstrap::Fallback => {
                tracing::warn!(
                    "access: the log failed its check; the token file's tokens are admins in memory"
                );
            }
            Bootstrap::Following => {
                tracing::info!(
                    owner = ACCESS_OWNER,
                    "access: following the owner's access stream"
                );
            }
            Bootstrap::Loaded => {}
        }
        let (shutdown_tx, shutdown) = watch::channel(false);
        access.follow(store.clone(), shutdown.clone());
        let platform = Platform {
            store,
            bus,
            auth,
            shutdown,
            shutdown_tx,
            run_relay,
            keys,
            commands: Commands::default(),
            log_check,
            anchor_file,
            shared_log,
            limits,
        };
        if !access_owner {
            platform.mirror(&format!("{log_owner}-access"), &[ACCESS_SUBJECTS]);
        }
        Ok(platform)
    }

    /// The request, rate and connection limits this platform serves with.
    pub fn limits(&self) -> &LimitOptions {
        &self.limits
    }

    /// The anchor this platform keeps.
    pub fn anchor_file(&self) -> &Path {
        &self.anchor_file
    }

    /// The verification options of this log: its anchor (a file that cannot be read is
    /// reported as a problem by the caller) and every signature.
    pub fn verify_options(&self) -> Result<VerifyOptions, String> {
        Ok(VerifyOptions {
            anchor: Anchor::read(&self.anchor_file).map_err(|e| e.to_string())?,
            signatures: Signatures::All,
            scope: Scope::Full,
        })
    }

    /// Writes the log's signed head to the anchor file (not when the log failed its
    /// check: an anchor must never vouch for a damaged log).
    pub async fn write_anchor(&self) -> anyhow::Result<()> {
        if !self.log_check.verified {
            return Ok(());
        }
        if let Some(a) = self.store.anchor().await? {
            a.write(&self.anchor_file)?;
        }
        Ok(())
    }
}

/// The check at start: the chain (the whole log, or with [`Scope::SinceAnchor`] only
/// what follows the anchor), the seals after the anchor, the newest log seal and the
/// anchor itself. Writes a new anchor when it passes.
async fn check_log(
    store: &EventStore,
    anchor_file: &Path,
    scope: Scope,
) -> anyhow::Result<LogCheck> {
    let started = std::time::Instant::now();
    let anchor = match Anchor::read(anchor_file) {
        Ok(a) => a,
        Err(e) => {
            let problem = format!("anchor: {e}");
            eprintln!("event log check failed: {problem}");
            return Ok(LogCheck {
                verified: false,
                problems: vec![problem],
            });
        }
    };
    let report = store
        .verify_with(&VerifyOptions {
            anchor,
            signatures: Signatures::AfterAnchor,
            scope,
        })
        .await?;
    tracing::info!(?scope, events = report.events, elapsed = ?started.elapsed(), ok = report.is_ok(), "event log checked");
    if report.is_ok() {
        if let Some(a) = store.anchor().await? {
            a.write(anchor_file)?;
        }
        return Ok(LogCheck {
            verified: true,
            problems: Vec::new(),
        });
    }
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    eprintln!(
        "event log check failed: {} problem(s); writes are refused, reads are served",
        problems.len()
    );
    for p in &problems {
        eprintln!("  {p}");
    }
    Ok(LogCheck {
        verified: false,
        problems,
    })
}

impl Platform {
    /// Keeps local copies of the events of `filters` (other services' subjects) in this
    /// service's log (distributed mode; a no-op when every service shares one log):
    /// see `arbiter_bus::mirror`. `service` names the durable consumers.
    pub fn mirror(&self, service: &str, filters: &[&str]) {
        if self.shared_log {
            // Every service of this process writes this one log: a copy from the bus
            // could only be a duplicate, or a forgery.
            return;
        }
        tokio::spawn(arbiter_bus::mirror::run_mirrors(
            self.bus.clone(),
            self.store.clone(),
            format!("mirror-{service}"),
            filters.iter().map(|f| (*f).to_owned()).collect(),
            self.shutdown.clone(),
        ));
    }
}

/// The embedded mode with NATS: nothing from the bus is applied, but every event on it
/// is still checked, so a forgery published there is counted and logged (ADR
/// platform-006) instead of passing unseen.
async fn watch_bus(platform: Platform) {
    let mut shutdown = platform.shutdown.clone();
    let durable = format!("watch-{}", platform.keys.log_owner());
    loop {
        let run = async {
            let mut c = platform
                .bus
                .consumer(&durable, arbiter_bus::STREAM_SUBJECTS)
                .await?;
            loop {
                c.next().await?.ack().await?;
            }
            #[allow(unreachable_code)]
            Ok::<(), arbiter_bus::Error>(())
        };
        tokio::select! {
            r = run => if let Err(e) = r {
                tracing::warn!(error = %e, "bus watch stopped; restarting");
            },
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// A service the host can serve.
pub trait ServiceModule: Send {
    /// Full gRPC service name, e.g. `arbiter.v1.RegistryService` (used for health).
    fn grpc_name(&self) -> &'static str;
    /// Adds the gRPC service to the router.
    fn add_to(self: Box<Self>, routes: &mut RoutesBuilder);
    /// The global position its projections have applied (readiness: the service
    /// answers `UNAVAILABLE` until this reaches the log head it started with).
    /// `None`: it has no projection to wait for.
    fn projected(&self) -> Option<Projected> {
        None
    }
}

/// Reads a module's projected position.
pub type Projected = Arc<dyn Fn() -> i64 + Send + Sync>;

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
/// the server as a whole), reflection and per-request tracing, over `tls` (see
/// [`TlsArgs::server`]). Prints `listening on ADDR (plaintext|TLS|…)` once bound and `ready (…)` once the projections have caught up
/// with the log (until then every RPC but health answers `UNAVAILABLE`). On shutdown: stop accepting, finish in-flight
/// requests, drain the outbox relay, close the log.
pub async fn serve(
    platform: Platform,
    modules: Vec<Box<dyn ServiceModule>>,
    listen: SocketAddr,
    tls: ServerTls,
) -> anyhow::Result<()> {
    let relay = platform.run_relay.then(|| {
        tokio::spawn(run_relay(
            platform.store.clone(),
            platform.bus.clone(),
            RelayOptions::default(),
            platform.shutdown.clone(),
        ))
    });

    if platform.shared_log && matches!(platform.bus, Bus::Nats(_)) {
        tokio::spawn(watch_bus(platform.clone()));
    }
    let (health, health_service) = tonic_health::server::health_reporter();
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(arbiter_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let mut routes = RoutesBuilder::default();
    routes.add_service(health_service);
    routes.add_service(reflection);
    let mut names = Vec::new();
    let mut projections = Vec::new();
    for m in modules {
        names.push(m.grpc_name());
        projections.extend(m.projected());
        m.add_to(&mut routes);
    }
    // Readiness: NOT_SERVING, and every other RPC UNAVAILABLE, until the projections
    // have caught up with the log head as it was at start.
    for name in &names {
        health
            .set_service_status(*name, ServingStatus::NotServing)
            .await;
    }
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    let anchors = {
        let platform = platform.clone();
        let mut shutdown = platform.shutdown.clone();
        tokio::spawn(async move {
            let every = std::env::var("ARBITER_ANCHOR_INTERVAL_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(Duration::from_secs(1), Duration::from_millis);
            let mut last = -1;
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = shutdown.changed() => return,
                }
                let head = platform.store.head_position().await.unwrap_or(last);
                if head != last {
                    if let Err(e) = platform.write_anchor().await {
                        tracing::error!(error = %e, "anchor not written");
                    }
                    last = head;
                }
            }
        })
    };

    let mut server = tonic::transport::Server::builder();
    if let Some(config) = tls.config() {
        server = server
            .tls_config(config.clone())
            .map_err(|e| anyhow::anyhow!("TLS: {e}"))?;
    }
    // The io::Error kept as the cause: `startup::message` says what to do about it.
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("--listen {listen}"))?;
    let addr = listener.local_addr()?;
    println!("listening on {addr} ({})", tls.describe());
    let ready = Arc::new(AtomicBool::new(false));
    let start_head = platform.store.head_position().await?;
    let dependencies = crate::dependencies::Dependencies::default();
    health
        .set_service_status(
            crate::dependencies::LIVENESS_SERVICE,
            ServingStatus::Serving,
        )
        .await;
    {
        let (ready, health, names) = (ready.clone(), health.clone(), names.clone());
        let dependencies = dependencies.clone();
        let (store, bus) = (platform.store.clone(), platform.bus.clone());
        let mut shutdown = platform.shutdown.clone();
        let verified = platform.log_check.verified;
        tokio::spawn(async move {
            while projections.iter().any(|p| p() < start_head) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            ready.store(true, Ordering::Release);
            // SERVING while the log verified at start and every dependency answers
            // (ADR platform-014); probed until shutdown.
            let every = crate::dependencies::probe_interval();
            let mut serving = None;
            loop {
                for change in dependencies.probe(&store, &bus).await {
                    match &change.down {
                        Some(why) => tracing::warn!(
                            dependency = change.name,
                            %why,
                            "dependency down: NOT_SERVING until it answers"
                        ),
                        None if serving.is_some() => {
                            tracing::info!(dependency = change.name, "dependency answers again")
                        }
                        None => {}
                    }
                }
                let now = verified && dependencies.all_up();
                if serving != Some(now) {
                    let status = if now {
                        ServingStatus::Serving
                    } else {
                        ServingStatus::NotServing
                    };
                    for name in &names {
                        health.set_service_status(*name, status).await;
                    }
                    health.set_service_status("", status).await;
                    if serving.is_none() {
                        tracing::info!(position = start_head, "projections caught up; ready");
                        println!("ready (projections at position {start_head})");
                    }
                    serving = Some(now);
                }
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = shutdown.changed() => return,
                }
            }
        });
    }
    tracing::info!(%addr, tls = tls.describe(), services = ?names, backend = %platform.store.backend(), "serving");

    let shutdown_tx = platform.shutdown_tx.clone();
    let signal = async move {
        shutdown_signal().await;
        tracing::info!("shutdown requested");
        let _ = shutdown_tx.send(true);
    };
    let limits = &platform.limits;
    let incoming = connections::incoming(
        listener,
        ConnLimits {
            max_connections: limits.max_connections,
            idle_timeout: (limits.idle_timeout_secs > 0)
                .then(|| Duration::from_secs(limits.idle_timeout_secs)),
            shutdown: platform.shutdown.clone(),
        },
    );
    server
        .layer(GrpcTraceLayer)
        .layer(crate::readiness::ReadinessLayer::new(ready, dependencies))
        .layer(GateLayer::new(platform.auth.access().clone(), limits))
        .add_routes(routes.routes())
        .serve_with_incoming_shutdown(incoming, signal)
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
    anchors.abort();
    if let Err(e) = platform.write_anchor().await {
        tracing::error!(error = %e, "anchor not written at shutdown");
    }
    platform.store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The integrity fields of `GetServiceInfo` (rejected bus events, the log's check at
/// start); the caller fills in the rest.
pub fn integrity_info(platform: &Platform) -> arbiter_proto::v1::ServiceInfo {
    arbiter_proto::v1::ServiceInfo {
        rejected_events: arbiter_bus::rejected_events(),
        log_verified: platform.log_check.verified,
        log_problems: platform.log_check.problems.clone(),
        ..Default::default()
    }
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
        rejected_events: arbiter_bus::rejected_events(),
        log_verified: platform.log_check.verified,
        log_problems: platform.log_check.problems.clone(),
    })
}
