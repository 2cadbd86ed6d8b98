//! `arbiter-bench [SECTION…] [--out BENCHMARKS.md]`: measures and rewrites the
//! matching sections of BENCHMARKS.md (machine and date included). Sections:
//! `eventlog` (appends and replay on SQLite and PostgreSQL).
//!
//! Run through `make bench` (release build). Numbers are measurements, never test
//! assertions: the targets are printed beside them.
use std::path::PathBuf;
use std::time::Instant;

use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};

struct Row {
    metric: String,
    backend: String,
    value: String,
    target: String,
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines().next().map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap_or("0")
                    .parse::<u64>()
                    .unwrap_or(0)
                    / 1024
                    / 1024
            })
        })
        .unwrap_or(0);
    format!("{cpu}, {cores} cores, {mem} GiB")
}

fn today() -> String {
    let out = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn events(n: usize, i: usize) -> Vec<NewEvent> {
    (0..n)
        .map(|j| NewEvent {
            event_type: "ResultRecorded".into(),
            schema_version: 1,
            // A realistic payload size for a result event (~120 bytes).
            payload: format!("{{\"board\":{j},\"round\":{i},\"white\":\"player-{i}-{j}\",\"black\":\"player-{j}-{i}\",\"result\":\"1-0\",\"note\":\"bench\"}}").into_bytes(),
        })
        .collect()
}

fn ctx(cmd: String) -> CommandContext {
    CommandContext {
        command_id: cmd,
        actor: "bench".into(),
        service: "results".into(),
        rule_edition: "c07-2026".into(),
        ..Default::default()
    }
}

async fn eventlog(url: &str, backend: &str, rows: &mut Vec<Row>) -> anyhow::Result<()> {
    let store = EventStore::open(url).await?;
    // Durable single-event commits.
    let n = 2_000;
    let t = Instant::now();
    for i in 0..n {
        store
            .append(AppendRequest {
                stream: format!("board-{}", i % 50),
                expected_version: None,
                events: events(1, i),
                context: ctx(format!("s{i}")),
            })
            .await?;
    }
    let rate = n as f64 / t.elapsed().as_secs_f64();
    eprintln!("{backend}: single-event commits {rate:.0}/s");
    rows.push(Row {
        metric: "durable single-event commits".into(),
        backend: backend.into(),
        value: format!("{rate:.0} commits/s"),
        target: "≥ 1,000/s".into(),
    });

    // Batches of 100.
    let batches = 2_000;
    let t = Instant::now();
    for i in 0..batches {
        store
            .append(AppendRequest {
                stream: format!("round-{}", i % 200),
                expected_version: None,
                events: events(100, i),
                context: ctx(format!("b{i}")),
            })
            .await?;
    }
    let rate = (batches * 100) as f64 / t.elapsed().as_secs_f64();
    eprintln!("{backend}: batched appends {rate:.0} events/s");
    rows.push(Row {
        metric: "appends in batches of 100".into(),
        backend: backend.into(),
        value: format!("{rate:.0} events/s"),
        target: "≥ 50,000 events/s".into(),
    });

    // Fill to 1,000,000 events, then replay them all.
    let mut head = store.head_position().await?;
    let mut i = 0;
    while head < 1_000_000 {
        let k = (1_000_000 - head).min(1_000) as usize;
        head = store
            .append(AppendRequest {
                stream: format!("fill-{}", i % 1000),
                expected_version: None,
                events: events(k, i),
                context: ctx(format!("f{i}")),
            })
            .await?
            .last_position;
        i += 1;
    }
    let t = Instant::now();
    let mut pos = 1;
    let mut count = 0u64;
    let mut bytes = 0usize;
    loop {
        let page = store.read_all(pos, 20_000).await?;
        let Some(last) = page.last() else { break };
        pos = last.global_position + 1;
        count += page.len() as u64;
        bytes += page.iter().map(|e| e.payload.len()).sum::<usize>();
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{backend}: replay of {count} events ({} MB payload) in {secs:.2} s",
        bytes / 1_000_000
    );
    rows.push(Row {
        metric: format!("replay of {count} events"),
        backend: backend.into(),
        value: format!("{secs:.2} s ({:.0} events/s)", count as f64 / secs),
        target: "≤ 2 s".into(),
    });
    store.close().await;
    Ok(())
}

fn write_section(out: &PathBuf, section: &str, title: &str, rows: &[Row]) -> anyhow::Result<()> {
    let mut body = format!(
        "<!-- bench:{section} -->\n## {title}\n\nMeasured {} on {} (`make bench`, release build).\n\n| metric | backend | measured | target |\n|---|---|---|---|\n",
        today(),
        machine()
    );
    for r in rows {
        body.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            r.metric, r.backend, r.value, r.target
        ));
    }
    body.push_str(&format!("<!-- /bench:{section} -->\n"));
    let old = std::fs::read_to_string(out).unwrap_or_else(|_| "# Benchmarks\n\nWritten by `make bench`; each section is replaced when its benchmark runs again.\n\n".into());
    let start = format!("<!-- bench:{section} -->");
    let end = format!("<!-- /bench:{section} -->\n");
    let new = match (old.find(&start), old.find(&end)) {
        (Some(a), Some(b)) if b > a => format!("{}{}{}", &old[..a], body, &old[b + end.len()..]),
        _ => format!("{}\n{}", old.trim_end(), body),
    };
    std::fs::write(out, new.trim_start().to_owned() + "")?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = PathBuf::from("BENCHMARKS.md");
    if let Some(i) = args.iter().position(|a| a == "--out") {
        out = PathBuf::from(args.get(i + 1).cloned().unwrap_or_default());
        args.drain(i..=(i + 1).min(args.len() - 1));
    }
    let all = args.is_empty();
    if all || args.iter().any(|a| a == "eventlog") {
        let mut rows = Vec::new();
        let dir = tempfile_dir()?;
        eventlog(
            &format!("sqlite://{}/bench.db", dir.display()),
            "SQLite (WAL, synchronous=FULL)",
            &mut rows,
        )
        .await?;
        let _ = std::fs::remove_dir_all(&dir);
        let pg = tokio::task::spawn_blocking(|| arbiter_testkit::PgServer::start_with(true))
            .await?
            .map_err(anyhow::Error::msg)?;
        eventlog(pg.url(), "PostgreSQL 15 (fsync on)", &mut rows).await?;
        write_section(&out, "eventlog", "Event log", &rows)?;
    }
    println!("wrote {}", out.display());
    Ok(())
}

fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("arbiter-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
