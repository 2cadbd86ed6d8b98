//! # Test harness: real PostgreSQL and real NATS JetStream on loopback
//!
//! [`PgServer::start`] and [`NatsServer::start`] give each test its own server on a
//! free 127.0.0.1 port with its data in a temp dir, stopped and removed on drop (also
//! when the test panics). `TEST_DATABASE_URL` / `TEST_NATS_URL` point tests at
//! servers started elsewhere instead (a fresh database is created per test).
//!
//! When a Docker engine is reachable, PostgreSQL runs in a container of the local image
//! `arbiter/postgres` instead (testcontainers; one per test process, a fresh database per
//! test): [`containers`] decides once per process, from `ARBITER_TEST_SERVERS` and the
//! engine, and says on stderr which it is and why — the binaries are the fallback, never a
//! silent one. When neither the binaries nor such a URL exist, starting fails with a
//! message that says how to install them (`make test-deps`) — tests never skip silently.
//!
//! [`NatsServer::start_with`] adds TLS and users; [`TestPki`] makes a CA, a server
//! certificate and client certificates as PEM files (rcgen) for the TLS tests.
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub mod containers;

/// Errors are plain strings that say what to do.
pub type Result<T> = std::result::Result<T, String>;

/// A free TCP port on 127.0.0.1 (bound then released), never one this process handed out
/// before: tests start servers in parallel, and a port released here but not yet bound by
/// the server it was given to must not go to a second server (which would fail to bind,
/// while the first one answers on the port, so two tests would share one server).
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    for _ in 0..64 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or(0);
        let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
        if port != 0 && !given.contains(&port) {
            given.push(port);
            return port;
        }
    }
    0
}

/// The workspace root (for `.tools/` and built binaries).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A built binary of the workspace (`target/<profile>/<name>`), next to the running test.
pub fn workspace_binary(name: &str) -> PathBuf {
    // Tests run from target/<profile>/deps/<test>; binaries live in target/<profile>.
    let exe = std::env::current_exe().unwrap_or_default();
    let profile_dir = exe
        .parent()
        .and_then(|p| {
            if p.ends_with("deps") {
                p.parent()
            } else {
                Some(p)
            }
        })
        .map(Path::to_path_buf)
        .unwrap_or_default();
    profile_dir.join(name)
}

fn wait_for_port(port: u16, timeout: Duration, child: &mut Child, what: &str) -> Result<()> {
    let start = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("{what} exited early with {status}"));
        }
        if start.elapsed() > timeout {
            return Err(format!(
                "{what} did not listen on 127.0.0.1:{port} within {timeout:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

const INSTALL_HINT: &str = "run `make test-deps` (installs Debian's postgresql and a nats-server >= 2.10 \
     into .tools/), or set TEST_DATABASE_URL / TEST_NATS_URL";

// ---------------------------------------------------------------- PostgreSQL

/// A throwaway PostgreSQL cluster (or a fresh database on `TEST_DATABASE_URL`).
pub struct PgServer {
    url: String,
    child: Option<Child>,
    /// How to start the binary server again (its own cluster only).
    own: Option<OwnCluster>,
    _dir: Option<tempfile::TempDir>,
}

/// What starts a cluster of this process's own again on the same port and data.
struct OwnCluster {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    ids: Option<(u32, u32)>,
    durable: bool,
}

impl OwnCluster {
    /// Starts `postgres` on the cluster and waits until it accepts queries.
    fn spawn(&self) -> Result<Child> {
        let mut postgres = Command::new(self.bin.join("postgres"));
        postgres
            .arg("-D")
            .arg(&self.data)
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                &format!("port={}", self.port),
            ])
            .arg("-c")
            .arg(format!("unix_socket_directories={}", self.data.display()))
            .args(if self.durable {
                ["-c", "fsync=on", "-c", "full_page_writes=on"]
            } else {
                ["-c", "fsync=off", "-c", "full_page_writes=off"]
            })
            .args(["-c", "max_connections=200"])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some((uid, gid)) = self.ids {
            postgres.uid(uid).gid(gid);
        }
        let mut child = postgres.spawn().map_err(|e| format!("postgres: {e}"))?;
        wait_for_port(self.port, Duration::from_secs(30), &mut child, "postgres")?;
        // The server accepts TCP slightly before it accepts queries.
        std::thread::sleep(Duration::from_millis(300));
        // Still running: the port answered for this server, not for another one.
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!(
                "postgres exited with {status} after 127.0.0.1:{} answered (port taken by another process?)",
                self.port
            ));
        }
        Ok(child)
    }
}

/// How [`PgServer::stop`] shuts the server down (PostgreSQL's shutdown modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PgShutdown {
    /// SIGINT: disconnects clients, checkpoints, exits.
    Fast,
    /// SIGQUIT: exits at once; the next start recovers from the WAL.
    Immediate,
}

fn find_pg_bin() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path().join("bin"))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("postgres").is_file())
}

fn postgres_user_ids() -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        (f.first() == Some(&"postgres") && f.len() > 3)
            .then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
            .flatten()
    })
}

impl PgServer {
    /// Starts a cluster on a free loopback port (about a second), or creates a fresh
    /// database on `TEST_DATABASE_URL`.
    pub fn start() -> Result<PgServer> {
        Self::start_with(false)
    }

    /// As [`PgServer::start`]; `durable` keeps `fsync` on (for benchmarks of durable
    /// commits). Tests run with `fsync=off`.
    pub fn start_with(durable: bool) -> Result<PgServer> {
        if let Ok(base) = std::env::var("TEST_DATABASE_URL") {
            return Self::fresh_database(&base, "TEST_DATABASE_URL");
        }
        // Durable commits (benchmarks) are measured on this machine's binaries.
        if !durable && let containers::Source::Containers(engine) = containers::source()? {
            let base = containers::shared_postgres(&engine)?;
            return Self::fresh_database(&base, "the PostgreSQL container");
        }
        Self::own_cluster(durable)
    }

    /// A cluster of this process's own from the PostgreSQL binaries, whatever
    /// `ARBITER_TEST_SERVERS` says: for tests that stop and start the server
    /// ([`PgServer::stop`], [`PgServer::start_again`]). Says so on stderr.
    pub fn start_restartable() -> Result<PgServer> {
        let pg = Self::own_cluster(false)?;
        eprintln!(
            "arbiter-testkit: PostgreSQL for this test: a cluster of its own from the binaries at {} (the test stops and starts it)",
            pg.url
        );
        Ok(pg)
    }

    fn own_cluster(durable: bool) -> Result<PgServer> {
        let bin = find_pg_bin().ok_or_else(|| {
            format!("PostgreSQL server binaries (initdb, postgres) not found: {INSTALL_HINT}")
        })?;
        let dir = tempfile::Builder::new()
            .prefix("arbiter-pg-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let data = dir.path().join("data");
        std::fs::create_dir(&data).map_err(|e| format!("{}: {e}", data.display()))?;
        // initdb refuses to run as root: run the server as the `postgres` user.
        let ids = if unsafe { libc::geteuid() } == 0 {
            let ids = postgres_user_ids().ok_or_else(|| {
                format!("running as root and there is no `postgres` user: {INSTALL_HINT}")
            })?;
            for p in [dir.path(), data.as_path()] {
                std::os::unix::fs::chown(p, Some(ids.0), Some(ids.1))
                    .map_err(|e| format!("chown {}: {e}", p.display()))?;
            }
            Some(ids)
        } else {
            None
        };
        let as_pg = |cmd: &mut Command| {
            if let Some((uid, gid)) = ids {
                cmd.uid(uid).gid(gid);
            }
        };
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .args(["-D"])
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--no-locale",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        as_pg(&mut initdb);
        let out = initdb.output().map_err(|e| format!("initdb: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let own = OwnCluster {
            bin,
            data,
            port: free_port(),
            ids,
            durable,
        };
        let child = own.spawn()?;
        Ok(PgServer {
            url: format!("postgres://postgres@127.0.0.1:{}/postgres", own.port),
            child: Some(child),
            own: Some(own),
            _dir: Some(dir),
        })
    }

    /// Shuts the server of [`PgServer::start_restartable`] down (`mode`) and waits until it
    /// has exited. Panics for a database on a shared server (nothing to stop).
    pub fn stop(&mut self, mode: PgShutdown) {
        assert!(
            self.own.is_some(),
            "only a cluster of this test's own can be stopped"
        );
        if let Some(mut child) = self.child.take() {
            let signal = match mode {
                PgShutdown::Fast => libc::SIGINT,
                PgShutdown::Immediate => libc::SIGQUIT,
            };
            unsafe {
                libc::kill(child.id() as i32, signal);
            }
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(30) {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the stopped server again on the same port and data.
    pub fn start_again(&mut self) -> Result<()> {
        let own = self
            .own
            .as_ref()
            .ok_or("only a cluster of this test's own can be started again")?;
        if self.child.is_none() {
            self.child = Some(own.spawn()?);
        }
        Ok(())
    }

    /// A new database on the server at `base` (`what` names it in errors).
    fn fresh_database(base: &str, what: &str) -> Result<PgServer> {
        let name = format!("arbiter_test_{}_{}", std::process::id(), free_port());
        let out = Command::new("psql")
            .args([base, "-qc", &format!("CREATE DATABASE {name}")])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("psql (to create a database on {what}): {e}: {INSTALL_HINT}"))?;
        if !out.status.success() {
            return Err(format!(
                "could not create database {name} on {what}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let url = match base.rfind('/') {
            Some(i) if i > "postgres://".len() => format!("{}/{name}", &base[..i]),
            _ => format!("{base}/{name}"),
        };
        Ok(PgServer {
            url,
            child: None,
            own: None,
            _dir: None,
        })
    }

    /// Connection URL of the test database.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            // SIGQUIT: immediate shutdown of the postmaster itself (no orphans).
            unsafe {
                libc::kill(child.id() as i32, libc::SIGQUIT);
            }
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(10) {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

// ---------------------------------------------------------------- NATS

/// A `nats-server -js` on a free loopback port with its store in a temp dir
/// (or `TEST_NATS_URL`).
pub struct NatsServer {
    url: String,
    child: Option<Child>,
    _dir: Option<tempfile::TempDir>,
}

/// Where a nats-server >= 2.10 is: `$NATS_SERVER`, `.tools/bin`, `PATH`, `/usr/sbin`.
pub fn find_nats_server() -> Result<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os("NATS_SERVER") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(workspace_root().join(".tools/bin/nats-server"));
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("nats-server")));
    }
    candidates.push(PathBuf::from("/usr/sbin/nats-server"));
    let mut too_old = Vec::new();
    for c in candidates.into_iter().filter(|c| c.is_file()) {
        let Ok(out) = Command::new(&c).arg("--version").output() else {
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        // "nats-server: v2.15.1"
        let version: Vec<u32> = text
            .trim()
            .rsplit('v')
            .next()
            .unwrap_or("")
            .split('.')
            .filter_map(|p| p.parse().ok())
            .collect();
        if version.len() >= 2 && (version[0], version[1]) >= (2, 10) {
            return Ok(c);
        }
        too_old.push(format!("{} ({})", c.display(), text.trim()));
    }
    Err(format!(
        "no nats-server >= 2.10 found{}: {INSTALL_HINT}",
        if too_old.is_empty() {
            String::new()
        } else {
            format!(" (too old: {})", too_old.join(", "))
        }
    ))
}

/// What [`NatsServer::start_with`] configures beyond a plain `nats-server -js`.
#[derive(Debug, Clone, Default)]
pub struct NatsOptions {
    /// Serve TLS only (clients connect to `tls://…`).
    pub tls: Option<NatsTls>,
    /// `user password` pairs the server accepts (`authorization { users = [...] }`);
    /// with [`Self::nkeys`] empty too: no authentication.
    pub users: Vec<(String, String)>,
    /// Public user NKeys (`U…`) the server accepts.
    pub nkeys: Vec<String>,
}

/// The server side of NATS TLS.
#[derive(Debug, Clone)]
pub struct NatsTls {
    /// Server certificate (PEM).
    pub cert: PathBuf,
    /// Its key (PEM).
    pub key: PathBuf,
    /// Require client certificates signed by this CA (`verify: true`).
    pub verify_clients: Option<PathBuf>,
}

impl NatsServer {
    /// Starts `nats-server -js` on a free loopback port (or uses `TEST_NATS_URL`).
    pub fn start() -> Result<NatsServer> {
        if let Ok(url) = std::env::var("TEST_NATS_URL") {
            return Ok(NatsServer {
                url,
                child: None,
                _dir: None,
            });
        }
        Self::start_with(&NatsOptions::default())
    }

    /// Starts `nats-server` with JetStream and `options` (TLS, users) from a config file
    /// on a free loopback port. Always a server of its own (`TEST_NATS_URL` is not used:
    /// it could not be configured). The URL is `tls://…` with TLS.
    pub fn start_with(options: &NatsOptions) -> Result<NatsServer> {
        let bin = find_nats_server()?;
        static REPORTED: std::sync::Once = std::sync::Once::new();
        REPORTED.call_once(|| {
            containers::report(&format!(
                "NATS for the tests from the binary {} (a server per test; not a container)",
                bin.display()
            ))
        });
        let dir = tempfile::Builder::new()
            .prefix("arbiter-nats-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let port = free_port();
        // Quoted with Rust's escaping, which NATS's config parser reads for these values.
        let q = |p: &Path| format!("{:?}", p.display().to_string());
        let mut conf = format!(
            "host: 127.0.0.1\nport: {port}\njetstream {{ store_dir: {} }}\n",
            q(&dir.path().join("js"))
        );
        if let Some(tls) = &options.tls {
            conf.push_str(&format!(
                "tls {{\n  cert_file: {}\n  key_file: {}\n  timeout: 5\n",
                q(&tls.cert),
                q(&tls.key)
            ));
            if let Some(ca) = &tls.verify_clients {
                conf.push_str(&format!("  ca_file: {}\n  verify: true\n", q(ca)));
            }
            conf.push_str("}\n");
        }
        if !options.users.is_empty() || !options.nkeys.is_empty() {
            conf.push_str("authorization {\n  users = [\n");
            for (user, password) in &options.users {
                conf.push_str(&format!(
                    "    {{ user: {user:?}, password: {password:?} }}\n"
                ));
            }
            for nkey in &options.nkeys {
                conf.push_str(&format!("    {{ nkey: {nkey:?} }}\n"));
            }
            conf.push_str("  ]\n}\n");
        }
        let conf_path = dir.path().join("nats.conf");
        std::fs::write(&conf_path, conf).map_err(|e| format!("{}: {e}", conf_path.display()))?;
        let mut child = Command::new(bin)
            .arg("-c")
            .arg(&conf_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("nats-server: {e}"))?;
        wait_for_port(port, Duration::from_secs(20), &mut child, "nats-server")?;
        let scheme = if options.tls.is_some() { "tls" } else { "nats" };
        Ok(NatsServer {
            url: format!("{scheme}://127.0.0.1:{port}"),
            child: Some(child),
            _dir: Some(dir),
        })
    }

    /// Client URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Kills a child process with SIGKILL and reaps it.
/// A JetStream cluster of `nats-server` nodes on loopback (free ports, one temp dir), for
/// tests that lose a node: [`NatsCluster::kill`] (SIGKILL) and [`NatsCluster::start_again`]
/// (the same port, name and store, so it rejoins and catches up).
pub struct NatsCluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    ports: Vec<u16>,
    monitor_ports: Vec<u16>,
    nodes: Vec<Option<Child>>,
}

impl NatsCluster {
    /// Starts `n` clustered JetStream nodes and waits until each says it is healthy
    /// (JetStream's meta group has a leader).
    pub fn start(n: usize) -> Result<NatsCluster> {
        let bin = find_nats_server()?;
        let dir = tempfile::Builder::new()
            .prefix("arbiter-nats-cluster-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let ports: Vec<u16> = (0..n).map(|_| free_port()).collect();
        let routes: Vec<u16> = (0..n).map(|_| free_port()).collect();
        let monitor_ports: Vec<u16> = (0..n).map(|_| free_port()).collect();
        let q = |p: &Path| format!("{:?}", p.display().to_string());
        let route_list = routes
            .iter()
            .map(|r| format!("nats-route://127.0.0.1:{r}"))
            .collect::<Vec<_>>()
            .join(", ");
        for i in 0..n {
            let conf = format!(
                "server_name: node{i}\nhost: 127.0.0.1\nport: {}\nhttp_port: {}\n\
                 jetstream {{ store_dir: {} }}\n\
                 cluster {{ name: arbiter-test, host: 127.0.0.1, port: {}, routes: [{route_list}] }}\n",
                ports[i],
                monitor_ports[i],
                q(&dir.path().join(format!("js{i}"))),
                routes[i],
            );
            let path = dir.path().join(format!("node{i}.conf"));
            std::fs::write(&path, conf).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let mut cluster = NatsCluster {
            bin,
            dir,
            ports,
            monitor_ports,
            nodes: (0..n).map(|_| None).collect(),
        };
        for i in 0..n {
            cluster.spawn(i)?;
        }
        for i in 0..n {
            cluster.wait_healthy(i, Duration::from_secs(60))?;
        }
        containers::report(&format!(
            "NATS for this test: a {n}-node JetStream cluster from the binary {} (the test stops and starts nodes)",
            cluster.bin.display()
        ));
        Ok(cluster)
    }

    fn spawn(&mut self, i: usize) -> Result<()> {
        let conf = self.dir.path().join(format!("node{i}.conf"));
        let log = std::fs::File::create(self.dir.path().join(format!("node{i}.log")))
            .map_err(|e| format!("node{i} log: {e}"))?;
        let mut child = Command::new(&self.bin)
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("nats-server node{i}: {e}"))?;
        wait_for_port(
            self.ports[i],
            Duration::from_secs(20),
            &mut child,
            "nats-server",
        )?;
        self.nodes[i] = Some(child);
        Ok(())
    }

    /// Waits until node `i`'s monitoring `/healthz` answers 200 (JetStream ready).
    pub fn wait_healthy(&self, i: usize, timeout: Duration) -> Result<()> {
        use std::io::{Read, Write};
        let start = Instant::now();
        loop {
            let ok = TcpStream::connect(("127.0.0.1", self.monitor_ports[i]))
                .and_then(|mut c| {
                    c.set_read_timeout(Some(Duration::from_secs(2)))?;
                    c.write_all(b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?;
                    let mut head = [0u8; 12];
                    c.read_exact(&mut head)?;
                    Ok(head.ends_with(b"200"))
                })
                .unwrap_or(false);
            if ok {
                return Ok(());
            }
            if start.elapsed() > timeout {
                return Err(format!(
                    "NATS node{i} not healthy within {timeout:?} (log: {})",
                    self.dir.path().join(format!("node{i}.log")).display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Every node's client URL, comma-separated (what `--nats-url` takes for a cluster).
    pub fn urls(&self) -> String {
        self.ports
            .iter()
            .map(|p| format!("nats://127.0.0.1:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Kills node `i` (SIGKILL: a lost machine, no goodbye to its peers).
    pub fn kill(&mut self, i: usize) {
        if let Some(mut child) = self.nodes[i].take() {
            kill9(&mut child);
        }
    }

    /// Starts node `i` again on its port with its store; returns once it listens (see
    /// [`NatsCluster::wait_healthy`]: a node alone cannot be healthy without a quorum).
    pub fn start_again(&mut self, i: usize) -> Result<()> {
        if self.nodes[i].is_none() {
            self.spawn(i)?;
        }
        Ok(())
    }
}

impl Drop for NatsCluster {
    fn drop(&mut self) {
        for child in self.nodes.iter_mut().flatten() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub fn kill9(child: &mut Child) {
    unsafe {
        libc::kill(child.id() as i32, libc::SIGKILL);
    }
    let _ = child.wait();
}

// ---------------------------------------------------------------- TLS

/// A throwaway certificate authority made at test time (rcgen, ring): the CA, a server
/// certificate for `localhost`, `127.0.0.1` and `::1`, and client certificates on demand,
/// written as PEM files into one directory (keys 0600).
pub struct TestPki {
    dir: PathBuf,
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
}

impl TestPki {
    /// Makes the CA (`ca.pem`) and the server certificate (`server.pem`, `server.key`)
    /// in `dir` (created if missing).
    pub fn new(dir: &Path) -> Result<TestPki> {
        use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let err = |e: rcgen::Error| format!("rcgen: {e}");
        let key = KeyPair::generate().map_err(err)?;
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(err)?;
        params.distinguished_name.push(
            DnType::CommonName,
            format!("Arbiter test CA {}", free_port()),
        );
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca = params.self_signed(&key).map_err(err)?;
        let pki = TestPki {
            dir: dir.to_path_buf(),
            issuer: rcgen::Issuer::new(params, key),
        };
        write_file(&pki.ca(), ca.pem().as_bytes(), false)?;
        pki.issue(
            "server",
            &["localhost", "127.0.0.1", "::1"],
            rcgen::ExtendedKeyUsagePurpose::ServerAuth,
        )?;
        Ok(pki)
    }

    /// The CA certificate (PEM).
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// The server certificate (PEM) and its key.
    pub fn server(&self) -> (PathBuf, PathBuf) {
        (self.dir.join("server.pem"), self.dir.join("server.key"))
    }

    /// A client certificate with common name `name` (`<name>.pem`, `<name>.key`).
    pub fn client(&self, name: &str) -> Result<(PathBuf, PathBuf)> {
        self.issue(name, &[], rcgen::ExtendedKeyUsagePurpose::ClientAuth)
    }

    fn issue(
        &self,
        name: &str,
        sans: &[&str],
        usage: rcgen::ExtendedKeyUsagePurpose,
    ) -> Result<(PathBuf, PathBuf)> {
        use rcgen::{CertificateParams, DnType, KeyPair, KeyUsagePurpose};
        let err = |e: rcgen::Error| format!("rcgen: {e}");
        let key = KeyPair::generate().map_err(err)?;
        let mut params =
            CertificateParams::new(sans.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
                .map_err(err)?;
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![usage];
        let cert = params.signed_by(&key, &self.issuer).map_err(err)?;
        let paths = (
            self.dir.join(format!("{name}.pem")),
            self.dir.join(format!("{name}.key")),
        );
        write_file(&paths.0, cert.pem().as_bytes(), false)?;
        write_file(&paths.1, key.serialize_pem().as_bytes(), true)?;
        Ok(paths)
    }
}

fn write_file(path: &Path, bytes: &[u8], secret: bool) -> Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    if secret {
        o.mode(0o600);
    }
    std::io::Write::write_all(
        &mut o
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?,
        bytes,
    )
    .map_err(|e| format!("{}: {e}", path.display()))
}
