//! Where the test servers come from: containers of the local images (testcontainers)
//! when a Docker engine is reachable, the binaries otherwise — decided once per test
//! process and said on stderr (written past the test harness's capture, so it is in the
//! log of every run), never silently (ADR platform-012).
//!
//! `ARBITER_TEST_SERVERS`: `containers` (required: an error when no engine or no image),
//! `binaries` (the fallback, chosen), unset or `auto` (containers when an engine answers,
//! else binaries, saying why). The engine is `DOCKER_HOST` (`unix://…` or `tcp://…`), else
//! `/var/run/docker.sock`. `ARBITER_IMAGE_TAG` names the images' tag (`latest`; `make test`
//! builds `debug`), `ARBITER_DOCKER_NETWORK` the network (`host`, or `bridge` with mapped
//! ports; by default `bridge` when the engine has one).
//!
//! PostgreSQL: one container of `arbiter/postgres` per test process, a fresh database per
//! [`crate::PgServer::start`]; it is removed when the process exits (and by
//! `tests/docker.sh stop`, by its label `arbiter.test`, should a process be killed).
//! NATS stays the nats-server binary (each test needs a server of its own, and a container
//! costs seconds on the vfs storage driver): [`crate::NatsServer`] says so once.
use std::io::{Read, Write};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::Result;

/// The source of this process's test servers.
#[derive(Debug, Clone)]
pub enum Source {
    /// Containers of the local images on this engine.
    Containers(Engine),
    /// The PostgreSQL and nats-server binaries of this machine; why.
    Binaries(String),
}

/// A reachable Docker engine.
#[derive(Debug, Clone)]
pub struct Engine {
    endpoint: Endpoint,
    /// `host` or `bridge`.
    pub network: String,
    /// The images' tag.
    pub tag: String,
}

#[derive(Debug, Clone)]
enum Endpoint {
    Unix(String),
    Tcp(String),
}

/// Writes one line to the process's stderr, past libtest's output capture.
pub fn report(line: &str) {
    let _ = writeln!(std::io::stderr(), "arbiter-testkit: {line}");
}

/// This process's source, decided (and reported) on first use.
pub fn source() -> Result<Source> {
    static SOURCE: OnceLock<Result<Source>> = OnceLock::new();
    SOURCE
        .get_or_init(|| {
            let s = decide();
            match &s {
                Ok(Source::Containers(e)) => report(&format!(
                    "PostgreSQL for the tests from a container (testcontainers) on the Docker engine at {}: image :{}, {} network",
                    e.endpoint.describe(),
                    e.tag,
                    e.network
                )),
                Ok(Source::Binaries(why)) => report(&format!(
                    "PostgreSQL for the tests from the BINARIES of this machine, not a container: {why}"
                )),
                Err(e) => report(&format!("test servers: {e}")),
            }
            s
        })
        .clone()
}

fn decide() -> Result<Source> {
    let wanted = std::env::var("ARBITER_TEST_SERVERS").unwrap_or_default();
    match wanted.as_str() {
        "binaries" => {
            return Ok(Source::Binaries(
                "chosen by ARBITER_TEST_SERVERS=binaries".into(),
            ));
        }
        "containers" | "" | "auto" => {}
        other => {
            return Err(format!(
                "ARBITER_TEST_SERVERS={other}: use containers, binaries or auto"
            ));
        }
    }
    let required = wanted == "containers";
    let endpoint = match std::env::var("DOCKER_HOST") {
        Ok(h) if h.starts_with("unix://") => Endpoint::Unix(h["unix://".len()..].to_owned()),
        Ok(h) if h.starts_with("tcp://") => Endpoint::Tcp(h["tcp://".len()..].to_owned()),
        Ok(h) if !h.is_empty() => {
            return Err(format!(
                "DOCKER_HOST={h}: only unix:// and tcp:// engines are supported"
            ));
        }
        _ => Endpoint::Unix("/var/run/docker.sock".into()),
    };
    let engine = Engine {
        endpoint,
        network: String::new(),
        tag: std::env::var("ARBITER_IMAGE_TAG").unwrap_or_else(|_| "latest".into()),
    };
    match engine.request("GET", "/_ping") {
        Ok((200, _)) => {}
        Ok((status, body)) | Err((status, body)) => {
            let why = format!(
                "no Docker engine answers at {} ({status} {})",
                engine.endpoint.describe(),
                body.trim()
            );
            return if required {
                Err(format!(
                    "ARBITER_TEST_SERVERS=containers, but {why}: eval \"$(tests/docker.sh start)\""
                ))
            } else {
                Ok(Source::Binaries(why))
            };
        }
    }
    let network = match std::env::var("ARBITER_DOCKER_NETWORK") {
        Ok(n) if n == "host" || n == "bridge" => n,
        Ok(n) if !n.is_empty() => {
            return Err(format!("ARBITER_DOCKER_NETWORK={n}: host or bridge"));
        }
        _ => match engine.request("GET", "/networks/bridge") {
            Ok((200, _)) => "bridge".into(),
            _ => "host".into(),
        },
    };
    Ok(Source::Containers(Engine { network, ..engine }))
}

impl Endpoint {
    fn describe(&self) -> String {
        match self {
            Endpoint::Unix(p) => format!("unix://{p}"),
            Endpoint::Tcp(a) => format!("tcp://{a}"),
        }
    }
}

impl Engine {
    /// One HTTP/1.0 request to the engine's API (unversioned paths: any engine version).
    /// The status and body; `Err((0, why))` when the engine cannot be reached.
    fn request(
        &self,
        method: &str,
        path: &str,
    ) -> std::result::Result<(u16, String), (u16, String)> {
        fn exchange(s: &mut (impl Read + Write), req: &str) -> std::io::Result<String> {
            s.write_all(req.as_bytes())?;
            let mut out = Vec::new();
            s.read_to_end(&mut out)?;
            Ok(String::from_utf8_lossy(&out).into_owned())
        }
        let req = format!("{method} {path} HTTP/1.0\r\nHost: docker\r\n\r\n");
        let timeout = Some(Duration::from_secs(30));
        let text = match &self.endpoint {
            Endpoint::Unix(p) => std::os::unix::net::UnixStream::connect(p).and_then(|mut s| {
                s.set_read_timeout(timeout)?;
                exchange(&mut s, &req)
            }),
            Endpoint::Tcp(a) => std::net::TcpStream::connect(a).and_then(|mut s| {
                s.set_read_timeout(timeout)?;
                exchange(&mut s, &req)
            }),
        }
        .map_err(|e| (0, e.to_string()))?;
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default();
        Ok((status, body))
    }

    fn image_present(&self, image: &str) -> Result<()> {
        match self.request("GET", &format!("/images/{image}/json")) {
            Ok((200, _)) => Ok(()),
            Ok((404, _)) => Err(format!(
                "image {image} is not in the engine: build it with `deploy/images/build.sh --only \"postgres nats\"{}` \
                 (make test does), or choose ARBITER_TEST_SERVERS=binaries",
                if self.tag == "latest" {
                    String::new()
                } else {
                    format!(" --tag {}", self.tag)
                }
            )),
            Ok((s, b)) | Err((s, b)) => Err(format!("inspecting {image}: {s} {}", b.trim())),
        }
    }

    fn remove(&self, id: &str) {
        let _ = self.request("DELETE", &format!("/containers/{id}?force=true&v=true"));
    }
}

/// The PostgreSQL container of this process: `postgres://postgres@HOST:PORT` (trust).
pub(crate) fn shared_postgres(engine: &Engine) -> Result<String> {
    static PG: OnceLock<Result<String>> = OnceLock::new();
    PG.get_or_init(|| {
        let started = Instant::now();
        let image = format!("arbiter/postgres:{}", engine.tag);
        engine.image_present(&image)?;
        let engine2 = engine.clone();
        // Its own thread and runtime: callers may be inside a tokio runtime already.
        let (id, host, port) = std::thread::spawn(move || start_postgres(&engine2))
            .join()
            .map_err(|_| "the thread starting the PostgreSQL container panicked".to_owned())??;
        remove_at_exit(engine.clone(), id.clone());
        report(&format!(
            "PostgreSQL for this test process: container {} of {image} (testcontainers, {} network) at {host}:{port}, \
             started in {:.1} s; a database per test",
            &id[..12.min(id.len())],
            engine.network,
            started.elapsed().as_secs_f64()
        ));
        Ok(format!("postgres://postgres@{host}:{port}"))
    })
    .clone()
}

fn start_postgres(engine: &Engine) -> Result<(String, String, u16)> {
    use testcontainers::core::{ContainerPort, WaitFor};
    use testcontainers::runners::AsyncRunner;
    use testcontainers::{GenericImage, ImageExt};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    rt.block_on(async {
        let host_network = engine.network == "host";
        let port = if host_network {
            crate::free_port()
        } else {
            5432
        };
        let mut image = GenericImage::new("arbiter/postgres", engine.tag.as_str()).with_wait_for(
            WaitFor::message_on_stderr("database system is ready to accept connections"),
        );
        if !host_network {
            image = image.with_exposed_port(ContainerPort::Tcp(5432));
        }
        let request = image
            .with_env_var("PGPORT", port.to_string())
            .with_env_var("PG_LISTEN", if host_network { "127.0.0.1" } else { "*" })
            .with_cmd([
                "-c",
                "fsync=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "max_connections=400",
            ])
            .with_network(engine.network.as_str())
            .with_label("arbiter.test", "1")
            .with_startup_timeout(Duration::from_secs(180));
        let container = request.start().await.map_err(|e| {
            format!(
                "starting a container of arbiter/postgres:{} failed: {e}",
                engine.tag
            )
        })?;
        let id = container.id().to_owned();
        let (host, port) = if host_network {
            ("127.0.0.1".to_owned(), port)
        } else {
            let host = container
                .get_host()
                .await
                .map_err(|e| format!("container host: {e}"))?
                .to_string();
            let port = container
                .get_host_port_ipv4(5432)
                .await
                .map_err(|e| format!("mapped port: {e}"))?;
            (host, port)
        };
        // Kept for the whole process: removed at exit (below), not when this handle drops.
        std::mem::forget(container);
        Ok((id, host, port))
    })
}

/// Removes the container when the process exits (test binaries end with `exit`).
fn remove_at_exit(engine: Engine, id: String) {
    static AT_EXIT: OnceLock<std::sync::Mutex<Vec<(Engine, String)>>> = OnceLock::new();
    extern "C" fn remove_all() {
        if let Some(list) = AT_EXIT.get() {
            let list = std::mem::take(&mut *list.lock().unwrap_or_else(|e| e.into_inner()));
            for (engine, id) in list {
                engine.remove(&id);
            }
        }
    }
    let mut first = false;
    let list = AT_EXIT.get_or_init(|| {
        first = true;
        std::sync::Mutex::new(Vec::new())
    });
    list.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((engine, id));
    if first {
        unsafe {
            libc::atexit(remove_all);
        }
    }
}
