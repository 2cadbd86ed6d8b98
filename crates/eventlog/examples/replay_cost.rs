//! CPU cost of appends and replay (user+sys seconds, independent of machine load):
//! `cargo run --release -p arbiter-eventlog --example replay_cost -- [N]`.
use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};

fn cpu() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc_rusage>::zeroed();
    unsafe { getrusage(0, u.as_mut_ptr()) };
    let u = unsafe { u.assume_init() };
    (u.utime_s + u.stime_s) as f64 + (u.utime_us + u.stime_us) as f64 / 1e6
}
#[repr(C)]
struct libc_rusage {
    utime_s: i64,
    utime_us: i64,
    stime_s: i64,
    stime_us: i64,
    rest: [i64; 14],
}
unsafe extern "C" {
    fn getrusage(who: i32, r: *mut libc_rusage) -> i32;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let dir = std::env::var("REPLAY_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::env::temp_dir().join(format!("replay-cost-{}", std::process::id()))
        });
    let fresh = !dir.join("log.db").exists();
    std::fs::create_dir_all(&dir).unwrap();
    let store = EventStore::open(&format!("sqlite://{}/log.db", dir.display()))
        .await
        .unwrap();
    let (c0, t0) = (cpu(), std::time::Instant::now());
    for i in 0..if fresh { n / 100 } else { 0 } {
        store
            .append(AppendRequest {
                stream: format!("s-{}", i % 100),
                expected_version: None,
                events: (0..100)
                    .map(|j| NewEvent {
                        event_type: "ResultRecorded".into(),
                        schema_version: 1,
                        payload: vec![j as u8; 100],
                    })
                    .collect(),
                context: CommandContext {
                    command_id: format!("c{i}"),
                    actor: "bench".into(),
                    service: "results".into(),
                    ..Default::default()
                },
            })
            .await
            .unwrap();
    }
    println!(
        "append {n} in batches of 100: cpu {:.2} s, wall {:.2} s",
        cpu() - c0,
        t0.elapsed().as_secs_f64()
    );
    let (c0, t0) = (cpu(), std::time::Instant::now());
    let mut pos = 1;
    let mut count = 0;
    loop {
        let page = store.read_all(pos, 20_000).await.unwrap();
        let Some(l) = page.last() else { break };
        pos = l.global_position + 1;
        count += page.len();
    }
    println!(
        "replay {count}: cpu {:.2} s, wall {:.2} s",
        cpu() - c0,
        t0.elapsed().as_secs_f64()
    );
    if std::env::var("REPLAY_DIR").is_err() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
