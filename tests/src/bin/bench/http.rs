//! `make bench http` (issue 44): the HTTP listener of a release `arbiterd` on loopback.
//! - the pairing page of a 2,000-board round (`/t/{id}/rounds/2`, 4,000 players imported
//!   and round 2 paired and published): wall time of each GET from the first byte written
//!   to the last byte read, one connection per request, sequential;
//! - 1,000 server-sent-event clients on one tournament, each its own connection, on the
//!   tournament's event stream (`/events`, while results are recorded over gRPC) and on a
//!   round's live boards (`/rounds/2/live`, while moves are sent by the boards' devices):
//!   the latency of each event at each client, from its commit (`recorded_at_micros`; a
//!   live board's `as_of_ms`) to the client reading it. The clients run in the bench's
//!   process on the same two cores as the server.
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use arbiter_proto::v1::clock_service_client::ClockServiceClient;
use arbiter_proto::v1::results_service_client::ResultsServiceClient;
use arbiter_proto::v1::telemetry::Item;
use arbiter_proto::v1::{
    ClockStartedIn, CommandMeta, MoveIn, OpenBoardRequest, RecordResultRequest, Telemetry,
};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tonic::codegen::tokio_stream::wrappers::ReceiverStream;

use super::load::authed;
use super::service_path::{Server, first_error};
use super::{Row, tempfile_dir, write_section};

const PLAYERS: usize = 4_000;
const PAGE_GETS: usize = 50;
const SSE_CLIENTS: usize = 1_000;
/// Events sent to the SSE clients, one every [`EVENT_EVERY`].
const EVENTS: usize = 100;
const EVENT_EVERY: Duration = Duration::from_millis(50);
/// Boards on the clock in the live-boards row.
const LIVE_BOARDS: u32 = 20;

fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// One GET on a new connection: (status line, body bytes, wall time).
async fn get(port: u16, path: &str) -> anyhow::Result<(String, usize, Duration)> {
    let t = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).await?;
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await?;
    let mut all = Vec::new();
    s.read_to_end(&mut all).await?;
    let took = t.elapsed();
    let text = String::from_utf8_lossy(&all);
    let status = text.lines().next().unwrap_or("").to_owned();
    let body = text.find("\r\n\r\n").map_or(0, |i| all.len() - i - 4);
    Ok((status, body, took))
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// A client of an SSE stream: connects, waits for the answer's head, then reads `data:`
/// lines; `latency` turns each into a latency (ms) or none (not counted). Ends at
/// `stop`. Returns the latencies.
async fn sse_client(
    port: u16,
    path: String,
    token: Arc<String>,
    ready: tokio::sync::mpsc::Sender<()>,
    mut stop: tokio::sync::watch::Receiver<bool>,
    latency: fn(&str) -> Option<f64>,
) -> anyhow::Result<Vec<f64>> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await?;
    s.write_all(
        format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer {token}\r\n\r\n"
        )
        .as_bytes(),
    )
    .await?;
    let mut lines = BufReader::new(s).lines();
    let head = lines.next_line().await?.unwrap_or_default();
    anyhow::ensure!(head.contains(" 200 "), "{path}: {head}");
    let _ = ready.send(()).await;
    let mut out = Vec::new();
    loop {
        tokio::select! {
            l = lines.next_line() => match l? {
                Some(l) => {
                    if let Some(d) = l.strip_prefix("data: ")
                        && let Some(ms) = latency(d)
                    {
                        out.push(ms);
                    }
                }
                None => break,
            },
            _ = stop.changed() => break,
        }
    }
    Ok(out)
}

/// The latency of an event of the log stream: now − its commit.
fn event_latency(data: &str) -> Option<f64> {
    let v: serde_json::Value = serde_json::from_str(data).ok()?;
    let at = v["recorded_at_micros"].as_i64()?;
    Some((now_micros() - at) as f64 / 1000.0)
}

/// The latency of a live board's update: now − the state's time. Snapshot frames (the
/// stream's opening, before any move) carry no move and are not counted.
fn live_latency(data: &str) -> Option<f64> {
    let v: serde_json::Value = serde_json::from_str(data).ok()?;
    if v["moves"].as_u64()? == 0 {
        return None;
    }
    let at = v["as_of_ms"].as_i64()?;
    Some((now_micros() / 1000 - at) as f64)
}

/// [`SSE_CLIENTS`] clients on `path`; `drive` makes the events once every client is
/// connected. Returns "p50 X ms, p99 Y ms (N of M deliveries)".
async fn sse_row<F, Fut>(
    port: u16,
    path: &str,
    token: &str,
    latency: fn(&str) -> Option<f64>,
    expected_per_client: usize,
    drive: F,
) -> anyhow::Result<String>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    let token = Arc::new(token.to_owned());
    let (ready_tx, mut ready) = tokio::sync::mpsc::channel(SSE_CLIENTS);
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    let mut clients = Vec::new();
    for _ in 0..SSE_CLIENTS {
        clients.push(tokio::spawn(sse_client(
            port,
            path.to_owned(),
            token.clone(),
            ready_tx.clone(),
            stop.clone(),
            latency,
        )));
    }
    drop(ready_tx);
    for i in 0..SSE_CLIENTS {
        tokio::time::timeout(Duration::from_secs(60), ready.recv())
            .await
            .map_err(|_| {
                anyhow::anyhow!("{path}: {i} of {SSE_CLIENTS} clients connected in 60 s")
            })?;
    }
    // Let every stream's opening (a live round's snapshot) arrive first.
    tokio::time::sleep(Duration::from_millis(500)).await;
    drive().await?;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop_tx.send(true);
    let mut all = Vec::new();
    for c in clients {
        all.extend(c.await??);
    }
    all.sort_by(f64::total_cmp);
    let expected = expected_per_client * SSE_CLIENTS;
    Ok(format!(
        "p50 {:.1} ms, p99 {:.1} ms ({} of {} deliveries)",
        quantile(&all, 0.50),
        quantile(&all, 0.99),
        all.len(),
        expected
    ))
}

pub(crate) async fn section(out: &Path) -> anyhow::Result<()> {
    let tool = Path::new("../shared/tools/gen_swiss_history.py");
    anyhow::ensure!(
        tool.exists(),
        "http needs {}: run make bench with ../shared beside the repository",
        tool.display()
    );
    let dir = tempfile_dir()?.join("http");
    std::fs::create_dir_all(&dir)?;
    let http = arbiter_testkit::free_port();
    let listen = format!("127.0.0.1:{http}");
    let server = Server::start_with(&dir, true, &["--http-listen", &listen])?;
    let ok = |(o, _): (std::process::Output, f64)| -> anyhow::Result<serde_json::Value> {
        anyhow::ensure!(o.status.success(), "{}", first_error(&o));
        Ok(serde_json::from_slice(&o.stdout).unwrap_or_default())
    };
    let file = dir.join(format!("http-{PLAYERS}.trf"));
    let made = std::process::Command::new("python3")
        .arg(tool)
        .args([PLAYERS.to_string(), "1".into(), "9".into(), "7".into()])
        .stdout(std::fs::File::create(&file)?)
        .status()?;
    anyhow::ensure!(made.success(), "{} failed", tool.display());
    let v = ok(server.cli(&[
        "tournament",
        "import",
        &file.display().to_string(),
        "--json",
    ])?)?;
    let id = v["tournament_id"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("import answered no tournament id: {v}"))?
        .to_owned();
    let paired = ok(server.cli(&["round", "pair", &id, "2", "--json"])?)?;
    let boards = paired["boards"].as_array().map_or(0, Vec::len);
    anyhow::ensure!(boards == PLAYERS / 2, "round 2 has {boards} boards");
    ok(server.cli(&["round", "publish", &id, "2", "--json"])?)?;
    ok(server.cli(&["access", "public", &id, "--json"])?)?;
    let token = server.admin_token()?;
    let mut rows = Vec::new();

    // The pairing page of the 2,000-board round.
    let page = format!("/t/{id}/rounds/2");
    let (status, bytes, _) = get(http, &page).await?; // warm-up
    anyhow::ensure!(status.contains(" 200 "), "{page}: {status}");
    let mut times = Vec::new();
    for _ in 0..PAGE_GETS {
        let (status, _, took) = get(http, &page).await?;
        anyhow::ensure!(status.contains(" 200 "), "{page}: {status}");
        times.push(took.as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    eprintln!(
        "page of {boards} boards: p50 {:.1} ms, p99 {:.1} ms, {} KB",
        quantile(&times, 0.5),
        quantile(&times, 0.99),
        bytes / 1024
    );
    rows.push(Row {
        metric: format!(
            "pairing page of a {boards}-board round (`/t/ID/rounds/2`, {} KB, {PAGE_GETS} GETs)",
            bytes / 1024
        ),
        backend: "embedded".into(),
        value: format!(
            "p50 {:.1} ms, p99 {:.1} ms",
            quantile(&times, 0.5),
            quantile(&times, 0.99)
        ),
        target: "≤ 20 ms".into(),
    });

    // 1,000 clients on the tournament's event stream while results are recorded.
    let grpc = format!("http://127.0.0.1:{}", server.port);
    let results = ResultsServiceClient::connect(grpc.clone()).await?;
    let value = sse_row(
        http,
        &format!("/api/v1/tournaments/{id}/events"),
        &token,
        event_latency,
        EVENTS,
        || {
            let (mut results, token, id) = (results.clone(), token.clone(), id.clone());
            async move {
                for board in 1..=EVENTS as u32 {
                    results
                        .record_result(authed(
                            &token,
                            RecordResultRequest {
                                meta: Some(CommandMeta {
                                    command_id: format!("bench-http-{board}"),
                                    ..Default::default()
                                }),
                                tournament_id: id.clone(),
                                round: 2,
                                board,
                                result: "1-0".into(),
                                ..Default::default()
                            },
                        ))
                        .await?;
                    tokio::time::sleep(EVENT_EVERY).await;
                }
                Ok(())
            }
        },
    )
    .await?;
    eprintln!("events stream, {SSE_CLIENTS} clients: {value}");
    rows.push(Row {
        metric: format!(
            "{SSE_CLIENTS} SSE clients on one tournament's event stream (`/events`), {EVENTS} results recorded 20/s: latency commit → client"
        ),
        backend: "embedded".into(),
        value,
        target: "p99 ≤ 100 ms".into(),
    });

    // 1,000 clients on the round's live boards while moves are played on 20 boards.
    let mut clock = ClockServiceClient::connect(grpc).await?;
    for board in (EVENTS as u32 + 1)..=(EVENTS as u32 + LIVE_BOARDS) {
        clock
            .open_board(authed(
                &token,
                OpenBoardRequest {
                    meta: Some(CommandMeta {
                        command_id: format!("bench-open-{board}"),
                        ..Default::default()
                    }),
                    tournament_id: id.clone(),
                    board,
                    round: 2,
                    time_control: "5400+30".into(),
                    laws_edition: "2023".into(),
                    ..Default::default()
                },
            ))
            .await?;
    }
    let (tx, items) = tokio::sync::mpsc::channel(64);
    let mut replies = clock
        .board_telemetry(authed(&token, ReceiverStream::new(items)))
        .await?
        .into_inner();
    let mut seq = 0u64;
    let first = EVENTS as u32 + 1;
    for board in first..first + LIVE_BOARDS {
        seq += 1;
        tx.send(Telemetry {
            tournament_id: id.clone(),
            board,
            device_id: format!("bench-{board}"),
            seq,
            item: Some(Item::ClockStarted(ClockStartedIn {})),
            ..Default::default()
        })
        .await?;
        replies.message().await?;
    }
    const OPENING: [&str; 10] = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    let moves = OPENING.len() * LIVE_BOARDS as usize;
    let value = sse_row(
        http,
        &format!("/api/v1/tournaments/{id}/rounds/2/live"),
        &token,
        live_latency,
        moves,
        || {
            let id = id.clone();
            async move {
                let mut seq = seq;
                for san in OPENING {
                    for board in first..first + LIVE_BOARDS {
                        seq += 1;
                        tx.send(Telemetry {
                            tournament_id: id.clone(),
                            board,
                            device_id: format!("bench-{board}"),
                            seq,
                            item: Some(Item::Move(MoveIn {
                                san: san.as_bytes().to_vec(),
                                uci: String::new(),
                            })),
                            ..Default::default()
                        })
                        .await?;
                        replies.message().await?;
                        tokio::time::sleep(EVENT_EVERY).await;
                    }
                }
                Ok(())
            }
        },
    )
    .await?;
    eprintln!("live boards, {SSE_CLIENTS} clients: {value}");
    rows.push(Row {
        metric: format!(
            "{SSE_CLIENTS} SSE clients on one round's live boards (`/rounds/2/live`), {moves} moves sent 20/s: latency commit → client"
        ),
        backend: "embedded".into(),
        value,
        target: "p99 ≤ 100 ms".into(),
    });
    server.stop()?;
    write_section(
        out,
        "http",
        "HTTP: pages and server-sent events (issue 44)",
        "server",
        &format!(
            "A release `arbiterd` (SQLite) with `--http-listen` on loopback; a {PLAYERS}-player open made by `../shared/tools/gen_swiss_history.py {PLAYERS} 1 9 7`, imported, round 2 paired and published, the tournament public. Page: each GET on a new connection, first byte written to last byte read. SSE: {SSE_CLIENTS} clients in the bench's process (each its own connection, the admin token), on the same two cores as the server; latency from the event's commit time (`recorded_at_micros`, a live board's `as_of_ms`) to the client reading its `data:` line."
        ),
        &rows,
    )
}
