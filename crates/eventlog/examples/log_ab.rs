//! A/B harness for the event log's write and read paths (ADR platform-011): the same
//! workloads as `arbiter-bench eventlog`, in pieces, so that two builds can be run
//! alternately against the same database on a shared machine.
//!
//! ```text
//! log_ab write URL [COMMITS] [BATCHES]   single-event commits, then appends of 100
//! log_ab fill URL KEY_DIR [N]            fills the log to N events (1,000,000), writes
//!                                        KEY_DIR/anchor, then 1,000 single commits
//! log_ab read URL KEY_DIR                replay, full check and incremental check
//! ```
//! `URL`: `sqlite://PATH` or `postgres://…` (the database must exist and, for `write`,
//! be empty of other runs' streams: every run uses fresh stream names).
use std::path::Path;
use std::time::Instant;

use arbiter_eventlog::anchor::Anchor;
use arbiter_eventlog::{
    AppendRequest, CommandContext, EventStore, Keys, NewEvent, Scope, Signatures, VerifyOptions,
};

fn events(n: usize, i: usize) -> Vec<NewEvent> {
    (0..n)
        .map(|j| NewEvent {
            event_type: "ResultRecorded".into(),
            schema_version: 1,
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

fn request(stream: String, n: usize, i: usize, cmd: String) -> AppendRequest {
    AppendRequest {
        stream,
        expected_version: None,
        events: events(n, i),
        context: ctx(cmd),
    }
}

/// CPU seconds (user + system) of this process so far.
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // Fields 14 and 15 (utime, stime), counted from after the command name.
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

async fn write(store: &EventStore, commits: usize, batches: usize) {
    let run = uuid::Uuid::now_v7().simple().to_string();
    let c = cpu();
    let t = Instant::now();
    for i in 0..commits {
        let stream = format!("board-{run}-{}", i % 50);
        store
            .append(request(stream, 1, i, format!("s{run}-{i}")))
            .await
            .unwrap();
    }
    let single = commits as f64 / t.elapsed().as_secs_f64();
    let single_cpu = (cpu() - c) * 1e6 / commits.max(1) as f64;
    let c = cpu();
    let t = Instant::now();
    let mut lat = Vec::with_capacity(batches);
    for i in 0..batches {
        let stream = format!("round-{run}-{}", i % 200);
        let a = Instant::now();
        store
            .append(request(stream, 100, i, format!("b{run}-{i}")))
            .await
            .unwrap();
        lat.push(a.elapsed().as_micros());
    }
    if std::env::var("LOG_AB_LATENCY").is_ok() && !lat.is_empty() {
        let (first, rest) = lat.split_at(lat.len().min(200));
        for (name, part) in [("first 200", first), ("rest", rest)] {
            let mut v = part.to_vec();
            v.sort_unstable();
            if !v.is_empty() {
                eprintln!(
                    "{name}: p50 {} us p90 {} us max {} us sum {} ms",
                    v[v.len() / 2],
                    v[v.len() * 9 / 10],
                    v[v.len() - 1],
                    v.iter().sum::<u128>() / 1000
                );
            }
        }
    }
    let batched = (batches * 100) as f64 / t.elapsed().as_secs_f64();
    let batch_cpu = (cpu() - c) * 1e6 / batches.max(1) as f64;
    println!(
        "single {single:.0} commits/s cpu {single_cpu:.0} us/commit  batched {batched:.0} events/s cpu {batch_cpu:.0} us/append"
    );
}

async fn fill(store: &EventStore, key_dir: &Path, n: i64) {
    let mut head = store.head_position().await.unwrap();
    let mut i = 0;
    while head < n {
        let k = (n - head).min(1_000) as usize;
        head = store
            .append(request(format!("fill-{}", i % 1000), k, i, format!("f{i}")))
            .await
            .unwrap()
            .last_position;
        i += 1;
    }
    let anchor = store.anchor().await.unwrap().unwrap();
    anchor.write(&key_dir.join("anchor")).unwrap();
    for i in 0..1_000 {
        store
            .append(request(format!("board-{}", i % 50), 1, i, format!("a{i}")))
            .await
            .unwrap();
    }
    println!("filled to {}", store.head_position().await.unwrap());
}

async fn read(store: &EventStore, key_dir: &Path) {
    let anchor = Anchor::read(&key_dir.join("anchor")).unwrap();
    let c = cpu();
    let t = Instant::now();
    let mut pos = 1;
    let mut count = 0;
    loop {
        let page = store.read_all(pos, 20_000).await.unwrap();
        let Some(last) = page.last() else { break };
        pos = last.global_position + 1;
        count += page.len();
    }
    let replay = t.elapsed().as_secs_f64();
    let replay_cpu = cpu() - c;
    let c = cpu();
    let full = VerifyOptions {
        anchor,
        signatures: Signatures::AfterAnchor,
        scope: Scope::Full,
    };
    let t = Instant::now();
    let report = store.verify_with(&full).await.unwrap();
    let check = t.elapsed().as_secs_f64();
    let check_cpu = cpu() - c;
    assert!(report.is_ok(), "{:?}", report.problems.first());
    let since = VerifyOptions {
        scope: Scope::SinceAnchor,
        ..full
    };
    let t = Instant::now();
    let report = store.verify_with(&since).await.unwrap();
    let incremental = t.elapsed().as_secs_f64() * 1000.0;
    assert!(report.is_ok(), "{:?}", report.problems.first());
    println!(
        "replay {count} {replay:.2} s cpu {replay_cpu:.2} s  full check {check:.2} s cpu {check_cpu:.2} s  incremental ({} events) {incremental:.1} ms",
        report.events
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let (Some(mode), Some(url)) = (arg(0), arg(1)) else {
        eprintln!("usage: log_ab write|fill|read URL …");
        std::process::exit(2);
    };
    let keys = |dir: &str| Keys::in_dir(Path::new(dir), "eventlog", None).unwrap();
    match mode {
        "write" => {
            let store = EventStore::open(url).await.unwrap();
            let commits = arg(2).and_then(|a| a.parse().ok()).unwrap_or(1_000);
            let batches = arg(3).and_then(|a| a.parse().ok()).unwrap_or(500);
            write(&store, commits, batches).await;
            store.close().await;
        }
        "fill" | "read" => {
            let dir = arg(2).expect("KEY_DIR");
            std::fs::create_dir_all(dir).unwrap();
            let store = EventStore::open_with(url, keys(dir)).await.unwrap();
            if mode == "fill" {
                let n = arg(3).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
                fill(&store, Path::new(dir), n).await;
            } else {
                read(&store, Path::new(dir)).await;
            }
            store.close().await;
        }
        _ => {
            eprintln!("unknown mode {mode}");
            std::process::exit(2);
        }
    }
}
