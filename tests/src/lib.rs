//! Cross-process integration tests. The helper binaries here are driven by the tests
//! in `tests/tests/`: `arbiter-test-consumer` (a second process consuming from NATS)
//! and `arbiter-test-writer` (appends in a loop until killed).
//!
//! The tests also run the workspace's own binaries (`arbiterd`, `arbiter`,
//! `arbiter-registry`), which must be built first: `make test` does
//! `cargo build --workspace --bins` before `cargo test`.
use std::path::PathBuf;

pub mod http;
pub mod jwt;

/// A workspace binary, or a panic that says how to build it.
pub fn binary(name: &str) -> PathBuf {
    let path = arbiter_testkit::workspace_binary(name);
    assert!(
        path.is_file(),
        "{} is not built: run `cargo build --workspace --bins` first (make test does)",
        path.display()
    );
    path
}

/// A child process killed (SIGKILL) and reaped on drop; its stdout lines are
/// collected in the background.
pub struct Proc {
    /// The process.
    pub child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    /// Every stdout line seen so far.
    pub seen: Vec<String>,
}

impl Proc {
    /// Spawns `cmd` with stdout piped (stderr inherited, for test logs).
    pub fn spawn(cmd: &mut std::process::Command) -> Proc {
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits (up to `secs`) for a stdout line starting with `prefix`; returns it.
    pub fn wait_line(&mut self, prefix: &str, secs: u64) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.starts_with(prefix) {
                        return l;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "the process closed its output (exited?) before printing {prefix:?}; saw {:?}",
                    self.seen
                ),
                Err(_) => panic!(
                    "no line starting with {prefix:?} within {secs} s; saw {:?}",
                    self.seen
                ),
            }
        }
    }

    /// Everything printed so far (non-blocking), appended to `seen`.
    pub fn drain(&mut self) -> &[String] {
        while let Ok(l) = self.lines.try_recv() {
            self.seen.push(l);
        }
        &self.seen
    }

    /// SIGKILL now, then collect the remaining output.
    pub fn kill9(&mut self) {
        arbiter_testkit::kill9(&mut self.child);
        // Give the reader thread a moment to deliver the last lines.
        while let Ok(l) = self
            .lines
            .recv_timeout(std::time::Duration::from_millis(200))
        {
            self.seen.push(l);
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `arbiterd` (embedded mode) on `127.0.0.1:port` with its data in `data`, quiet logs,
/// no OTLP export; `configure` adds arguments or environment. Returns once it listens.
pub fn start_arbiterd(
    data: &std::path::Path,
    port: u16,
    configure: impl FnOnce(&mut std::process::Command),
) -> Proc {
    let mut cmd = std::process::Command::new(binary("arbiterd"));
    cmd.arg("--data-dir")
        .arg(data)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("ARBITER_NATS_URL")
        .env_remove("ARBITER_TLS_CERT")
        .env_remove("ARBITER_TLS_KEY")
        .env_remove("ARBITER_CLIENT_CA")
        .env("RUST_LOG", "warn")
        // No HTTP unless a test asks for it (`--http-listen`, as `embedded_http` does):
        // parallel servers would all want the default 127.0.0.1:8080.
        .env("ARBITER_HTTP_LISTEN", "off");
    configure(&mut cmd);
    let mut p = Proc::spawn(&mut cmd);
    p.wait_line("ready", 30);
    p
}

/// A standalone service (`arbiter-NAME`, distributed mode) on `127.0.0.1:port` against
/// the database `db` and the NATS server `nats`, sharing the token file `tokens` and the
/// key dir beside it; quiet logs, no OTLP export. Returns once it is ready.
pub fn start_service(
    name: &str,
    db: &str,
    nats: &str,
    port: u16,
    tokens: &std::path::Path,
) -> Proc {
    start_service_with(name, db, nats, port, tokens, &[])
}

/// As [`start_service`], with more arguments.
pub fn start_service_with(
    name: &str,
    db: &str,
    nats: &str,
    port: u16,
    tokens: &std::path::Path,
    extra: &[&str],
) -> Proc {
    let mut cmd = std::process::Command::new(binary(&format!("arbiter-{name}")));
    cmd.args(extra);
    cmd.args(["--database-url", db, "--nats-url", nats])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .arg("--token-file")
        .arg(tokens)
        .arg("--key-dir")
        .arg(tokens.with_file_name("keys"))
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env(
            "RUST_LOG",
            std::env::var("ARBITER_TEST_SERVICE_LOG").unwrap_or_else(|_| "warn".into()),
        );
    let mut p = Proc::spawn(&mut cmd);
    p.wait_line("ready", 30);
    p
}

/// Runs the `arbiter` CLI against the arbiterd on `port`, with the admin token from `data`.
pub fn run_cli(data: &std::path::Path, port: u16, args: &[&str]) -> std::process::Output {
    run_cli_at(data, &format!("http://127.0.0.1:{port}"), args)
}

/// Runs the `arbiter` CLI against `server` (`http://…` or `https://…`), with the admin
/// token from `data` and no TLS settings from the environment (give them in `args`).
pub fn run_cli_at(data: &std::path::Path, server: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary("arbiter"))
        .args(args)
        .env("ARBITER_SERVER", server)
        .env("ARBITER_DATA_DIR", data)
        .env_remove("ARBITER_TOKEN")
        .env_remove("ARBITER_CA_CERT")
        .env_remove("ARBITER_CLIENT_CERT")
        .env_remove("ARBITER_CLIENT_KEY")
        .output()
        .expect("run arbiter")
}

/// Runs `arbiter ARGS --json` against `port` until it succeeds (another service's events
/// may still be on their way), for at most `within`; its JSON answer, or a panic naming
/// the command and its last output.
pub fn run_cli_until_ok(
    data: &std::path::Path,
    port: u16,
    args: &[&str],
    within: std::time::Duration,
) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let deadline = std::time::Instant::now() + within;
    loop {
        let o = run_cli(data, port, &a);
        if o.status.success() {
            return serde_json::from_slice(&o.stdout).expect("JSON");
        }
        assert!(
            std::time::Instant::now() < deadline,
            "arbiter {args:?} never succeeded: {}",
            output_text(&o)
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// stdout followed by stderr, for assertion messages.
pub fn output_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The `arbiter` CLI against one running arbiterd (`data`: its data directory, where the
/// admin token is).
pub struct Arbiter {
    pub data: PathBuf,
    pub port: u16,
}

impl Arbiter {
    /// A fresh `arbiterd` (embedded mode, data in `dir/data`, a free loopback port) and
    /// the CLI against it; `configure` adds arguments or environment to the server.
    pub fn embedded(
        dir: &std::path::Path,
        configure: impl FnOnce(&mut std::process::Command),
    ) -> (Arbiter, Proc) {
        let a = Arbiter {
            data: dir.join("data"),
            port: arbiter_testkit::free_port(),
        };
        let d = start_arbiterd(&a.data, a.port, configure);
        (a, d)
    }

    /// As [`Arbiter::embedded`], with the HTTP listener on a free loopback port too;
    /// returns that port.
    pub fn embedded_http(dir: &std::path::Path) -> (Arbiter, Proc, u16) {
        let http = arbiter_testkit::free_port();
        let (a, p) = Arbiter::embedded(dir, |c| {
            c.args(["--http-listen", &format!("127.0.0.1:{http}")]);
        });
        (a, p, http)
    }

    /// `arbiter-pairings --dutch FILE -p` (with `extra` flags) on the registry's export of
    /// tournament `id` before `round` (engine lines), written in `dir`: its boards as
    /// (white, black) pairing numbers, the PAB as (tpn, 0).
    pub fn engine_pairs(
        &self,
        dir: &std::path::Path,
        id: &str,
        round: u32,
        extra: &[&str],
    ) -> Vec<(u64, u64)> {
        let input = dir.join(format!("{id}-before-{round}.trf"));
        self.ok(&[
            "tournament",
            "export",
            id,
            "--round",
            &(round - 1).to_string(),
            "--engine-lines",
            "--output",
            input.to_str().unwrap(),
        ]);
        let out = dir.join(format!("{id}-{round}.pairs"));
        let o = std::process::Command::new(binary("arbiter-pairings"))
            .args([
                "--dutch",
                input.to_str().unwrap(),
                "-p",
                out.to_str().unwrap(),
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", output_text(&o));
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
                (it.next().unwrap(), it.next().unwrap())
            })
            .collect()
    }

    /// Runs the CLI with `args`.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        run_cli(&self.data, self.port, args)
    }

    /// Runs and expects success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert!(o.status.success(), "arbiter {args:?}: {}", output_text(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Runs with `--json` and expects success; returns the parsed output.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut a = args.to_vec();
        a.push("--json");
        serde_json::from_str(&self.ok(&a)).expect("JSON output")
    }

    /// Runs and expects exit code 1 (the server refused); returns the message.
    pub fn refused(&self, args: &[&str]) -> String {
        let o = self.run(args);
        assert_eq!(
            o.status.code(),
            Some(1),
            "arbiter {args:?}: {}",
            output_text(&o)
        );
        output_text(&o)
    }
}
