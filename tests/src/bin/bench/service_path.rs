//! `make bench service-path` (issue 41): the arbiter's path — `arbiter round pair` against
//! a release `arbiterd` that imported the history with `arbiter tournament import` —
//! beside the engine alone (`arbiter-pairings --dutch FILE -p`) on the same history, and
//! `arbiter standings` through the service beside `arbiter standings --trf` (the crate
//! alone). Wall time of each CLI process; the peak resident memory (VmHWM, reset before
//! each row through `/proc/PID/clear_refs`) of the server.
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{Row, process_status_kib, tempfile_dir, write_section};

/// A release binary beside the bench's own.
pub(super) fn release_binary(name: &str) -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let path = exe.with_file_name(name);
    if !path.is_file() {
        anyhow::bail!(
            "service-path needs {} (make bench builds it: cargo build --release -p arbiterd -p arbiter-cli -p arbiter-pairings)",
            path.display()
        );
    }
    Ok(path)
}

pub(super) struct Server {
    child: Child,
    pub(super) port: u16,
    data: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `arbiterd` in `dir`; `hold_explanations`: the explanations made after the
    /// pairings (ADR pairing-004) are held back, not timed.
    fn start(dir: &Path, hold_explanations: bool) -> anyhow::Result<Server> {
        Server::start_with(dir, hold_explanations, &[])
    }

    /// As [`Server::start`], with more arguments for `arbiterd`.
    pub(super) fn start_with(
        dir: &Path,
        hold_explanations: bool,
        extra: &[&str],
    ) -> anyhow::Result<Server> {
        let data = dir.join("data");
        let port = arbiter_testkit::free_port();
        let mut command = Command::new(release_binary("arbiterd")?);
        if hold_explanations {
            command.env("ARBITER_EXPLAIN_DELAY_MS", "86400000");
        }
        let mut child = command
            .arg("--data-dir")
            .arg(&data)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(extra)
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env("RUST_LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
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
        rx.recv_timeout(Duration::from_secs(60))
            .map_err(|_| anyhow::anyhow!("arbiterd did not become ready within 60 s"))?;
        Ok(Server { child, port, data })
    }

    pub(super) fn cli(&self, args: &[&str]) -> anyhow::Result<(Output, f64)> {
        let t = Instant::now();
        let o = Command::new(release_binary("arbiter")?)
            .args(args)
            .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", self.port))
            .env("ARBITER_DATA_DIR", &self.data)
            .env_remove("ARBITER_TOKEN")
            .output()?;
        Ok((o, t.elapsed().as_secs_f64()))
    }

    /// SIGTERM, and waits for the clean shutdown (anchor written, log closed).
    pub(super) fn stop(mut self) -> anyhow::Result<()> {
        Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()?;
        self.child.wait()?;
        Ok(())
    }

    pub(super) fn admin_token(&self) -> anyhow::Result<String> {
        let text = std::fs::read_to_string(self.data.join("admin.token"))?;
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .find_map(|l| l.split_whitespace().nth(1).map(str::to_owned))
            .ok_or_else(|| anyhow::anyhow!("no token in admin.token"))
    }

    pub(super) fn reset_peak(&self) {
        // Linux: writing 5 resets the peak resident set size (VmHWM) to the current one.
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5");
    }

    pub(super) fn peak_mb(&self) -> String {
        process_status_kib(&self.child.id().to_string(), "VmHWM")
            .map_or_else(|| "n/a".into(), |k| format!("{} MB", k / 1024))
    }
}

/// The first line of a failed CLI run (what the user is told).
pub(super) fn first_error(o: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("failed")
        .trim()
        .to_owned()
}

fn secs(s: f64) -> String {
    if s < 1.0 {
        format!("{:.0} ms", s * 1000.0)
    } else {
        format!("{s:.1} s")
    }
}

/// `python3 gen_swiss_history.py N PLAYED 11 1` into `path`.
fn history(tool: &Path, n: usize, played: u32, path: &Path) -> anyhow::Result<()> {
    let made = Command::new("python3")
        .arg(tool)
        .args([n.to_string(), played.to_string(), "11".into(), "1".into()])
        .stdout(std::fs::File::create(path)?)
        .status()?;
    if !made.success() {
        anyhow::bail!("{} {n} {played} 11 1 failed", tool.display());
    }
    Ok(())
}

/// The engine's pairs (`-p`: a count line, then `WHITE BLACK`, a bye as `TPN 0`).
fn engine_pairs(text: &str) -> Vec<(u64, u64)> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().ok());
            Some((it.next()??, it.next()??))
        })
        .collect()
}

/// The service's pairs from `round pair --json`, in the engine's form.
fn service_pairs(v: &serde_json::Value) -> Vec<(u64, u64)> {
    let mut pairs: Vec<(u64, u64)> = v["boards"]
        .as_array()
        .map(|b| {
            b.iter()
                .map(|b| {
                    (
                        b["white_tpn"].as_u64().unwrap_or(0),
                        b["black_tpn"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    if let Some(bye) = v["bye_tpn"].as_u64().filter(|t| *t > 0) {
        pairs.push((bye, 0));
    }
    pairs
}

/// `GetHistory` of one board of a tournament in a log of a million events (the others
/// written straight into arbiterd's log while it was stopped, sealed with its keys).
async fn history_row(dir: &Path) -> anyhow::Result<Row> {
    use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, Keys, NewEvent};
    use arbiter_proto::v1::GetHistoryRequest;
    use arbiter_proto::v1::results_service_client::ResultsServiceClient;
    const LOG: i64 = 1_000_000;
    let server = Server::start(dir, false)?;
    let ok = |(o, _): (Output, f64)| -> anyhow::Result<serde_json::Value> {
        if !o.status.success() {
            anyhow::bail!("{}", first_error(&o));
        }
        Ok(serde_json::from_slice(&o.stdout).unwrap_or_default())
    };
    let t = ok(server.cli(&[
        "tournament",
        "create",
        "--name",
        "History Open",
        "--rounds",
        "5",
        "--json",
    ])?)?;
    let id = t["tournament_id"].as_str().unwrap_or_default().to_owned();
    for (name, rating) in [
        ("A, a", "2300"),
        ("B, b", "2200"),
        ("C, c", "2100"),
        ("D, d", "2000"),
    ] {
        ok(server.cli(&[
            "player", "add", &id, "--name", name, "--rating", rating, "--json",
        ])?)?;
    }
    ok(server.cli(&["round", "pair", &id, "1", "--json"])?)?;
    ok(server.cli(&["round", "publish", &id, "1", "--json"])?)?;
    ok(server.cli(&["result", "set", &id, "1", "1", "1-0", "--json"])?)?;
    ok(server.cli(&[
        "result", "correct", &id, "1", "1", "0-1", "--was", "1-0", "--reason", "sheet", "--json",
    ])?)?;
    let data = server.data.clone();
    server.stop()?;
    let keys = Keys::in_dir(&data.join("keys"), "arbiterd", None)?;
    let store = EventStore::open_with(
        &format!("sqlite://{}", data.join("arbiter.db").display()),
        keys,
    )
    .await?;
    let mut head = store.head_position().await?;
    let mut i = 0u64;
    while head < LOG {
        let k = (LOG - head).min(1_000) as usize;
        head = store
            .append(AppendRequest {
                stream: format!("bench-fill-{}", i % 1000),
                expected_version: None,
                events: (0..k)
                    .map(|j| NewEvent {
                        event_type: "BenchFill".into(),
                        schema_version: 1,
                        payload: format!("{{\"fill\":{i},\"n\":{j}}}").into_bytes(),
                    })
                    .collect(),
                context: CommandContext {
                    command_id: format!("bench-fill-{i}"),
                    actor: "bench".into(),
                    service: "bench".into(),
                    ..Default::default()
                },
            })
            .await?
            .last_position;
        i += 1;
    }
    store.close().await;
    let server = Server::start(dir, false)?;
    let token = server.admin_token()?;
    let mut client =
        ResultsServiceClient::connect(format!("http://127.0.0.1:{}", server.port)).await?;
    let mut times = Vec::new();
    let mut entries = 0;
    for _ in 0..21 {
        let mut req = tonic::Request::new(GetHistoryRequest {
            tournament_id: id.clone(),
            round: 1,
            board: 1,
            player: String::new(),
        });
        req.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse()?);
        let t = Instant::now();
        let h = client.get_history(req).await?.into_inner();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        entries = h.entries.len();
    }
    let (best, median) = super::best_median(&mut times);
    eprintln!(
        "service-path: history of one board in a {LOG}-event log: {best:.1} / {median:.1} ms ({entries} entries)"
    );
    Ok(Row {
        metric: format!("GetHistory of one board ({entries} entries) in a log of {LOG} events"),
        backend: "gRPC to arbiterd; best / median of 21".into(),
        value: format!("{best:.1} ms / {median:.1} ms"),
        target: "≤ 10 ms".into(),
    })
}

/// Issue 41's target for a round of `n` players through the service.
fn pairing_target(n: usize) -> &'static str {
    match n {
        9999 => "≤ 2× engine + 0.3 s; ≤ 10 s",
        20000 => "≤ 2× engine + 0.3 s; ≤ 30 s, ≤ 2 GB",
        _ => "≤ 2× engine + 0.3 s",
    }
}

pub(crate) async fn section(out: &Path) -> anyhow::Result<()> {
    let tool = Path::new("../shared/tools/gen_swiss_history.py");
    if !tool.exists() {
        anyhow::bail!(
            "service-path needs {}: run make bench with ../shared beside the repository",
            tool.display()
        );
    }
    let pairings = release_binary("arbiter-pairings")?;
    let arbiter = release_binary("arbiter")?;
    let dir = tempfile_dir()?;
    let mut rows = Vec::new();
    // `ARBITER_BENCH_SIZES=1000,2000` measures those field sizes only (empty: none).
    let sizes: Vec<usize> = match std::env::var("ARBITER_BENCH_SIZES") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) => vec![1000, 2000, 9999, 20000],
    };
    for n in sizes {
        if n > arbiter_service_kit::limits::MAX_PLAYERS {
            // A history reaches the service as a TRF file, whose pairing numbers have four
            // digits; the record → engine adapter that would let a larger field be entered
            // and paired is not built.
            let why = format!(
                "not run: a TRF numbers at most {} players, and fields are entered by TRF import",
                arbiter_service_kit::limits::MAX_PLAYERS
            );
            for round in [2u32, 6, 10] {
                eprintln!("service-path: {n} players, round {round}: {why}");
                rows.push(Row {
                    metric: format!("round {round} of {n} players"),
                    backend: format!("engine `arbiter-pairings -p`: {why}"),
                    value: why.clone(),
                    target: pairing_target(n).into(),
                });
            }
            continue;
        }
        // One server per field size: its memory is that field's.
        let server_dir = dir.join(format!("server-{n}"));
        // The explanation follows each pairing off the arbiter's path; it is timed (and
        // waited for, so that it does not share the cores with the next pairing) up to
        // 2,000 players.
        let explained = n <= 2000;
        let server = Server::start(&server_dir, !explained)?;
        for round in [2u32, 6, 10] {
            let trf = dir.join(format!("h{n}-{round}.trf"));
            history(tool, n, round - 1, &trf)?;
            let trf_s = trf.to_str().unwrap_or_default();
            // The engine alone, as a user runs it.
            let p_out = dir.join(format!("h{n}-{round}.pairs"));
            let t = Instant::now();
            let e = Command::new(&pairings)
                .args(["--dutch", trf_s, "-p", p_out.to_str().unwrap_or_default()])
                .output()?;
            let engine = t.elapsed().as_secs_f64();
            let engine_value = if e.status.success() {
                secs(engine)
            } else {
                format!("not run: {}", first_error(&e))
            };
            // The arbiter's path: import, then pair through the service.
            let (o, import) = server.cli(&[
                "tournament",
                "import",
                trf_s,
                "--name",
                &format!("Bench {n} before round {round}"),
                "--json",
            ])?;
            let service_value = if !o.status.success() {
                format!("not run: import refused: {}", first_error(&o))
            } else {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout)?;
                let id = v["tournament_id"].as_str().unwrap_or_default().to_owned();
                server.reset_peak();
                let (o, took) =
                    server.cli(&["round", "pair", &id, &round.to_string(), "--json"])?;
                if o.status.success() {
                    let v: serde_json::Value = serde_json::from_slice(&o.stdout)?;
                    let same = e.status.success()
                        && engine_pairs(&std::fs::read_to_string(&p_out).unwrap_or_default())
                            == service_pairs(&v);
                    let peak = server.peak_mb();
                    let explanation = if explained {
                        let (x, after) =
                            server.cli(&["round", "explain", &id, &round.to_string()])?;
                        if x.status.success() {
                            format!("explanation stored {} later", secs(after))
                        } else {
                            format!("explanation: {}", first_error(&x))
                        }
                    } else {
                        "explanation not timed at this size".to_owned()
                    };
                    format!(
                        "{} (import {}), server peak {peak}; {}; {explanation}",
                        secs(took),
                        secs(import),
                        if same {
                            "identical to the engine"
                        } else {
                            "DIFFERS from the engine"
                        }
                    )
                } else {
                    format!("{} after {}", first_error(&o), secs(took))
                }
            };
            eprintln!(
                "service-path: {n} players, round {round}: engine {engine_value}; service {service_value}"
            );
            rows.push(Row {
                metric: format!("round {round} of {n} players"),
                backend: format!("engine `arbiter-pairings -p`: {engine_value}"),
                value: service_value,
                target: pairing_target(n).into(),
            });
        }
        if n == 9999 {
            // Standings after 11 rounds: through the service and the crate alone.
            let trf = dir.join("h9999-final.trf");
            history(tool, n, 11, &trf)?;
            let trf_s = trf.to_str().unwrap_or_default();
            let t = Instant::now();
            let c = Command::new(&arbiter)
                .args(["standings", "--trf", trf_s])
                .stdout(Stdio::null())
                .output()?;
            let crate_value = if c.status.success() {
                secs(t.elapsed().as_secs_f64())
            } else {
                format!("not run: {}", first_error(&c))
            };
            let (o, _) = server.cli(&[
                "tournament",
                "import",
                trf_s,
                "--name",
                "Bench standings",
                "--json",
            ])?;
            let service_value = if o.status.success() {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout)?;
                let id = v["tournament_id"].as_str().unwrap_or_default().to_owned();
                server.reset_peak();
                let (o, took) = server.cli(&["standings", &id])?;
                if o.status.success() {
                    format!("{}, server peak {}", secs(took), server.peak_mb())
                } else {
                    format!("{} after {}", first_error(&o), secs(took))
                }
            } else {
                format!("not run: import refused: {}", first_error(&o))
            };
            eprintln!(
                "service-path: standings {n} × 11: crate {crate_value}; service {service_value}"
            );
            rows.push(Row {
                metric: format!("standings after 11 rounds of {n} players"),
                backend: format!("crate `arbiter standings --trf`: {crate_value}"),
                value: service_value,
                target: "≤ 2× the crate alone".into(),
            });
        }
        drop(server);
        let _ = std::fs::remove_dir_all(&server_dir);
    }
    rows.push(history_row(&dir.join("history")).await?);
    let _ = std::fs::remove_dir_all(&dir);
    write_section(
        out,
        "service-path",
        "Pairing and standings on the arbiter's path (CLI → arbiterd), beside the engine alone",
        "engine alone",
        "Histories made by `../shared/tools/gen_swiss_history.py N PLAYED 11 1` (played = 1, 5, 9: the state before round 2, 6 and 10), imported with `arbiter tournament import` into a release `arbiterd` (one per field size, SQLite), then `arbiter round pair ID ROUND`: wall time of that CLI process (connect, pair, store the pairing, answer; the explanation is made after it, ADR pairing-004: up to 2,000 players the row says when it was stored, waited for before the next row), the server's peak resident memory during it, and whether the stored pairing equals `arbiter-pairings --dutch FILE -p` on the same file (whose wall time, parse included, is the engine column). Standings: `arbiter standings ID` through the service beside `arbiter standings --trf FILE` on the same 11-round history. A TRF holds at most 9,999 players; the 20,000-player rows say what refuses them. History: a tournament with one corrected game, then a million other events appended to the same log while arbiterd was stopped; `GetHistory` of that board over gRPC.",
        &rows,
    )
}
