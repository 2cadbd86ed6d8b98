//! `arbiter-bench load [--embedded] [--distributed]` (issue 45 item 4): commands per second
//! and latency of many concurrent clients on the arbiter's services, over gRPC as a
//! client program sends them.
//!
//! The scenarios, on a 4,000-player open (a generated history of one round imported with
//! `arbiter tournament import`, round 2 paired and published with the CLI):
//! - **results entry**: the round's 2,000 results entered by 20 concurrent clients
//!   (`RecordResult`, each board once, a command id of its own);
//! - **sustained mix**: for [`MIX_SECONDS`], 20 clients each sending, in a loop, three
//!   reads of the round (`GetRoundResults`, 2,000 boards) for one write (`CorrectResult`
//!   of a board of its own, alternating 1-0 and 0-1 with the reason recorded).
//!
//! Against the embedded server (`arbiterd`, SQLite) and the distributed deployment
//! (`arbiter-registry`, `arbiter-pairing`, `arbiter-results` on their own PostgreSQL
//! databases, fsync on, linked by one `nats-server -js`), all on this machine's loopback.
//! Each row: `N commands/s` (commands answered ÷ wall time of the scenario) and the p50 /
//! p99 latency of one command as its client saw it.
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::{
    CommandMeta, CorrectResultRequest, GetRoundResultsRequest, RecordResultRequest,
};
use tonic::transport::Channel;

use super::{Row, tempfile_dir, write_section};

const PLAYERS: usize = 4_000;
const CLIENTS: usize = 20;
/// How long the sustained mix runs.
const MIX_SECONDS: u64 = 15;
/// Reads per write in the sustained mix.
const READS_PER_WRITE: usize = 3;

/// Which deployments `load` measures (both when neither flag is given).
#[derive(Clone, Copy)]
pub struct Modes {
    pub embedded: bool,
    pub distributed: bool,
}

impl Modes {
    /// Takes `--embedded` / `--distributed` out of `args`.
    pub fn take(args: &mut Vec<String>) -> Modes {
        let embedded = args.iter().any(|a| a == "--embedded");
        let distributed = args.iter().any(|a| a == "--distributed");
        args.retain(|a| a != "--embedded" && a != "--distributed");
        if !embedded && !distributed {
            return Modes {
                embedded: true,
                distributed: true,
            };
        }
        Modes {
            embedded,
            distributed,
        }
    }

    /// The flags again, for a child process.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        if self.embedded {
            f.push("--embedded");
        }
        if self.distributed {
            f.push("--distributed");
        }
        f
    }
}

/// A release binary beside the bench's own.
fn release_binary(name: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::current_exe()?.with_file_name(name);
    if !path.is_file() {
        anyhow::bail!(
            "load needs {} (make bench builds it: cargo build --release -p arbiterd -p arbiter-cli)",
            path.display()
        );
    }
    Ok(path)
}

/// A server process, killed on drop.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Spawns `cmd` and waits for its `ready` line.
fn spawn_ready(mut cmd: Command, what: &str) -> anyhow::Result<Running> {
    let mut child = cmd
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env("RUST_LOG", "error")
        .env("ARBITER_HTTP_LISTEN", "off")
        // One principal (the admin token) sends every command here, as 20 clients would
        // under 20 principals: the per-principal write limit (50/s, ADR platform-010)
        // raised out of the way.
        .env("ARBITER_RATE_WRITES_PER_SECOND", "1000000")
        .env("ARBITER_RATE_WRITES_BURST", "1000000")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| anyhow::anyhow!("{what}: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if line.starts_with("ready") {
                let _ = tx.send(());
            }
        }
    });
    let running = Running(child);
    rx.recv_timeout(Duration::from_secs(60))
        .map_err(|_| anyhow::anyhow!("{what} did not become ready within 60 s"))?;
    Ok(running)
}

/// A deployment to measure: where the registry, pairing and results services answer,
/// the data dir holding the admin token, and what keeps it running.
struct Target {
    label: &'static str,
    registry: u16,
    pairing: u16,
    results: u16,
    data: PathBuf,
    _running: Vec<Running>,
    _pg: Vec<arbiter_testkit::PgServer>,
    _nats: Option<arbiter_testkit::NatsServer>,
}

impl Target {
    fn embedded(dir: &Path) -> anyhow::Result<Target> {
        let data = dir.join("embedded");
        let port = arbiter_testkit::free_port();
        let mut cmd = Command::new(release_binary("arbiterd")?);
        cmd.arg("--data-dir")
            .arg(&data)
            .args(["--listen", &format!("127.0.0.1:{port}")]);
        let running = spawn_ready(cmd, "arbiterd")?;
        Ok(Target {
            label: "embedded `arbiterd` (SQLite)",
            registry: port,
            pairing: port,
            results: port,
            data,
            _running: vec![running],
            _pg: Vec::new(),
            _nats: None,
        })
    }

    async fn distributed(dir: &Path) -> anyhow::Result<Target> {
        let pg = tokio::task::spawn_blocking(|| {
            (0..3)
                .map(|_| arbiter_testkit::PgServer::start_with(true))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?
        .map_err(anyhow::Error::msg)?;
        let nats = tokio::task::spawn_blocking(arbiter_testkit::NatsServer::start)
            .await?
            .map_err(anyhow::Error::msg)?;
        let data = dir.join("distributed");
        std::fs::create_dir_all(&data)?;
        let tokens = data.join("admin.token");
        let ports: Vec<u16> = (0..3).map(|_| arbiter_testkit::free_port()).collect();
        let mut running = Vec::new();
        for (i, name) in ["registry", "pairing", "results"].iter().enumerate() {
            let mut cmd = Command::new(release_binary(&format!("arbiter-{name}"))?);
            cmd.args(["--database-url", pg[i].url(), "--nats-url", nats.url()])
                .args(["--listen", &format!("127.0.0.1:{}", ports[i])])
                .arg("--token-file")
                .arg(&tokens)
                .arg("--key-dir")
                .arg(data.join("keys"));
            running.push(spawn_ready(cmd, &format!("arbiter-{name}"))?);
        }
        Ok(Target {
            label: "distributed (3 services, PostgreSQL fsync on, NATS JetStream)",
            registry: ports[0],
            pairing: ports[1],
            results: ports[2],
            data,
            _running: running,
            _pg: pg,
            _nats: Some(nats),
        })
    }

    /// `arbiter ARGS --json` against the service on `port`; the answer or what failed.
    fn cli(&self, port: u16, args: &[&str]) -> anyhow::Result<serde_json::Value> {
        let o = Command::new(release_binary("arbiter")?)
            .args(args)
            .arg("--json")
            .env("ARBITER_SERVER", format!("http://127.0.0.1:{port}"))
            .env("ARBITER_DATA_DIR", &self.data)
            .env_remove("ARBITER_TOKEN")
            .output()?;
        if !o.status.success() {
            anyhow::bail!(
                "arbiter {}: {}{}",
                args.join(" "),
                String::from_utf8_lossy(&o.stderr).trim(),
                String::from_utf8_lossy(&o.stdout).trim()
            );
        }
        Ok(serde_json::from_slice(&o.stdout)?)
    }

    /// As [`Target::cli`], retried for up to 300 s (another service's events may still be
    /// on their way in the distributed deployment).
    fn cli_until(&self, port: u16, args: &[&str]) -> anyhow::Result<serde_json::Value> {
        let start = Instant::now();
        loop {
            match self.cli(port, args) {
                Ok(v) => {
                    if start.elapsed() > Duration::from_secs(1) {
                        eprintln!(
                            "load: `arbiter {}` answered after {:.1} s of retries",
                            args.join(" "),
                            start.elapsed().as_secs_f64()
                        );
                    }
                    return Ok(v);
                }
                Err(e) if start.elapsed() > Duration::from_secs(300) => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(200)),
            }
        }
    }

    fn token(&self) -> anyhow::Result<String> {
        let text = std::fs::read_to_string(self.data.join("admin.token"))?;
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .find_map(|l| l.split_whitespace().nth(1).map(str::to_owned))
            .ok_or_else(|| anyhow::anyhow!("no token in admin.token"))
    }
}

pub(super) fn authed<T>(token: &str, body: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(body);
    r.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("a token header"),
    );
    r
}

fn meta(command_id: String, reason: &str) -> Option<CommandMeta> {
    Some(CommandMeta {
        command_id,
        reason: reason.into(),
        ..Default::default()
    })
}

/// The open: imported, round 2 paired and published, and visible at the results
/// service. Returns the tournament id.
async fn prepare(t: &Target, tool: &Path, dir: &Path) -> anyhow::Result<String> {
    let file = dir.join(format!("load-{PLAYERS}.trf"));
    if !file.is_file() {
        let made = Command::new("python3")
            .arg(tool)
            .args([PLAYERS.to_string(), "1".into(), "9".into(), "7".into()])
            .stdout(std::fs::File::create(&file)?)
            .status()?;
        anyhow::ensure!(made.success(), "{} failed", tool.display());
    }
    let path = file.display().to_string();
    let v = t.cli(t.registry, &["tournament", "import", &path])?;
    let id = v["tournament_id"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("import answered no tournament id: {v}"))?
        .to_owned();
    let boards = |v: &serde_json::Value| v["boards"].as_array().map_or(0, Vec::len);
    let mut paired = t.cli_until(t.pairing, &["round", "pair", &id, "2"])?;
    let start = Instant::now();
    while boards(&paired) < PLAYERS / 2 {
        anyhow::ensure!(
            start.elapsed() < Duration::from_secs(120),
            "round 2 paired {} boards of {}",
            boards(&paired),
            PLAYERS / 2
        );
        std::thread::sleep(Duration::from_millis(500));
        paired = t.cli(t.pairing, &["round", "repair", &id, "2"])?;
    }
    t.cli_until(t.pairing, &["round", "publish", &id, "2"])?;
    // The explanation is made after the pairing is stored (ADR pairing-004); results are
    // entered an hour later, not while the engine explains: `round explain` waits for it.
    t.cli_until(t.pairing, &["round", "explain", &id, "2"])?;
    // The results service has the published round (its copy, when distributed).
    let mut client = ResultsServiceClient::connect(format!("http://127.0.0.1:{}", t.results))
        .await?
        .max_decoding_message_size(64 << 20);
    let token = t.token()?;
    let start = Instant::now();
    loop {
        let r = client
            .get_round_results(authed(
                &token,
                GetRoundResultsRequest {
                    tournament_id: id.clone(),
                    round: 2,
                },
            ))
            .await;
        if let Ok(r) = r
            && r.get_ref().published
            && r.get_ref().boards.len() >= PLAYERS / 2
        {
            return Ok(id);
        }
        anyhow::ensure!(
            start.elapsed() < Duration::from_secs(120),
            "round 2 never reached the results service"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A channel of its own per client (as separate client programs would have).
async fn channels(port: u16) -> anyhow::Result<Vec<Channel>> {
    let mut out = Vec::new();
    for _ in 0..CLIENTS {
        out.push(
            Channel::from_shared(format!("http://127.0.0.1:{port}"))?
                .connect()
                .await?,
        );
    }
    Ok(out)
}

fn quantile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

/// "N commands/s, p50 X ms, p99 Y ms".
fn summary(n: usize, wall: Duration, mut latencies: Vec<Duration>) -> String {
    latencies.sort();
    format!(
        "{:.0} commands/s, p50 {:.1} ms, p99 {:.1} ms",
        n as f64 / wall.as_secs_f64(),
        quantile(&latencies, 0.50),
        quantile(&latencies, 0.99)
    )
}

/// The 2,000 results of round 2 by [`CLIENTS`] clients, each board once.
async fn results_entry(t: &Target, id: &str) -> anyhow::Result<String> {
    let token = Arc::new(t.token()?);
    let mut tasks = Vec::new();
    let start = Instant::now();
    for (c, channel) in channels(t.results).await?.into_iter().enumerate() {
        let (token, id) = (token.clone(), id.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut client = ResultsServiceClient::new(channel);
            let mut latencies = Vec::new();
            for board in (c + 1..=PLAYERS / 2).step_by(CLIENTS) {
                let result = ["1-0", "0-1", "1/2"][board % 3];
                let sent = Instant::now();
                client
                    .record_result(authed(
                        &token,
                        RecordResultRequest {
                            meta: meta(uuid::Uuid::now_v7().to_string(), ""),
                            tournament_id: id.clone(),
                            round: 2,
                            board: board as u32,
                            result: result.into(),
                            ..Default::default()
                        },
                    ))
                    .await
                    .map_err(|s| anyhow::anyhow!("board {board}: {s}"))?;
                latencies.push(sent.elapsed());
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await??);
    }
    let wall = start.elapsed();
    Ok(summary(latencies.len(), wall, latencies))
}

/// [`MIX_SECONDS`] of reads and writes by [`CLIENTS`] clients.
async fn sustained_mix(t: &Target, id: &str) -> anyhow::Result<String> {
    let token = Arc::new(t.token()?);
    let deadline = Instant::now() + Duration::from_secs(MIX_SECONDS);
    let mut tasks = Vec::new();
    let start = Instant::now();
    for (c, channel) in channels(t.results).await?.into_iter().enumerate() {
        let (token, id) = (token.clone(), id.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut client = ResultsServiceClient::new(channel).max_decoding_message_size(64 << 20);
            // This client's boards and what each holds now (as results_entry left them).
            let mut boards: Vec<(u32, &str)> = (c + 1..=PLAYERS / 2)
                .step_by(CLIENTS)
                .map(|b| (b as u32, ["1-0", "0-1", "1/2"][b % 3]))
                .collect();
            let (mut reads, mut writes) = (Vec::new(), Vec::new());
            let mut i = 0usize;
            while Instant::now() < deadline {
                let sent = Instant::now();
                if i % (READS_PER_WRITE + 1) == READS_PER_WRITE {
                    let k = (i / (READS_PER_WRITE + 1)) % boards.len();
                    let (board, was) = boards[k];
                    let now = if was == "1-0" { "0-1" } else { "1-0" };
                    client
                        .correct_result(authed(
                            &token,
                            CorrectResultRequest {
                                meta: meta(uuid::Uuid::now_v7().to_string(), "load: sheet re-read"),
                                tournament_id: id.clone(),
                                round: 2,
                                board,
                                result: now.into(),
                                previous_result: was.into(),
                                ..Default::default()
                            },
                        ))
                        .await
                        .map_err(|s| anyhow::anyhow!("correct board {board}: {s}"))?;
                    boards[k].1 = now;
                    writes.push(sent.elapsed());
                } else {
                    client
                        .get_round_results(authed(
                            &token,
                            GetRoundResultsRequest {
                                tournament_id: id.clone(),
                                round: 2,
                            },
                        ))
                        .await
                        .map_err(|s| anyhow::anyhow!("read: {s}"))?;
                    reads.push(sent.elapsed());
                }
                i += 1;
            }
            anyhow::Ok((reads, writes))
        }));
    }
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    for task in tasks {
        let (r, w) = task.await??;
        reads.extend(r);
        writes.extend(w);
    }
    let wall = start.elapsed();
    let (nr, nw) = (reads.len(), writes.len());
    let mut all = reads.clone();
    all.extend(writes.iter().copied());
    writes.sort();
    reads.sort();
    Ok(format!(
        "{}; writes {nw} (p99 {:.1} ms), reads {nr} (p99 {:.1} ms)",
        summary(nr + nw, wall, all),
        quantile(&writes, 0.99),
        quantile(&reads, 0.99)
    ))
}

pub async fn section(out: &Path, modes: Modes) -> anyhow::Result<()> {
    let tool = Path::new("../shared/tools/gen_swiss_history.py");
    anyhow::ensure!(
        tool.is_file(),
        "load needs {} (run from the repository with ../shared beside it)",
        tool.display()
    );
    let dir = tempfile_dir()?.join("load");
    std::fs::create_dir_all(&dir)?;
    let mut rows = Vec::new();
    for distributed in [false, true] {
        if (distributed && !modes.distributed) || (!distributed && !modes.embedded) {
            continue;
        }
        let t = if distributed {
            Target::distributed(&dir).await?
        } else {
            Target::embedded(&dir)?
        };
        let id = match prepare(&t, tool, &dir).await {
            Ok(id) => id,
            Err(e) => {
                eprintln!("load {}: not run: {e:#}", t.label);
                rows.push(Row {
                    metric: "results entry and sustained mix".into(),
                    backend: t.label.into(),
                    value: format!("not run: the open could not be prepared: {e:#}"),
                    target: "—".into(),
                });
                continue;
            }
        };
        let entry = results_entry(&t, &id).await?;
        eprintln!("load {}: results entry: {entry}", t.label);
        rows.push(Row {
            metric: format!(
                "results entry: the {} results of a {PLAYERS}-player open, {CLIENTS} clients",
                PLAYERS / 2
            ),
            backend: t.label.into(),
            value: entry,
            target: if distributed {
                "≥ 1,000 commands/s".into()
            } else {
                "≥ 2,000 commands/s, p99 ≤ 50 ms".into()
            },
        });
        let mix = sustained_mix(&t, &id).await?;
        eprintln!("load {}: sustained mix: {mix}", t.label);
        rows.push(Row {
            metric: format!(
                "sustained mix, {MIX_SECONDS} s: {READS_PER_WRITE} reads of the round (2,000 boards) per correction, {CLIENTS} clients"
            ),
            backend: t.label.into(),
            value: mix,
            target: if distributed {
                "≥ 1,000 commands/s".into()
            } else {
                "≥ 2,000 commands/s, p99 ≤ 50 ms".into()
            },
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    write_section(
        out,
        "load",
        "Load: concurrent clients on the services (issue 45)",
        "deployment",
        "`arbiter-bench load [--embedded] [--distributed]`: a Rust gRPC client, 20 concurrent \
         clients each on a connection of its own, against release servers on this machine's \
         loopback (the clients share its 2 cores with the servers). The open: \
         `gen_swiss_history.py 4000 1 9 7` imported, round 2 paired and published with the CLI. \
         commands/s = commands answered ÷ wall time of the scenario; p50/p99: one command's \
         latency as its client saw it. Distributed: registry, pairing and results on their own \
         PostgreSQL 15 databases (fsync on) and one `nats-server -js`. One admin token for \
         all clients, the per-principal write limit raised (`ARBITER_RATE_WRITES_PER_SECOND`).",
        &rows,
    )
}
