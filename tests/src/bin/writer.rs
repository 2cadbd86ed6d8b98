//! `arbiter-test-writer DATABASE_URL`: appends single events in a loop, forever,
//! printing `acked POSITION` on stdout (flushed) after each append returned. The crash
//! test kills it with SIGKILL at a random moment and checks every acked position.
//! Its signing keys are kept in `ARBITER_KEY_DIR` (required), so the log it leaves can
//! be verified by another process.
use std::io::Write;

use arbiter_eventlog::{AppendRequest, CommandContext, EventStore, NewEvent};

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let url = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: arbiter-test-writer DATABASE_URL"))?;
    let key_dir = std::env::var("ARBITER_KEY_DIR")
        .map_err(|_| anyhow::anyhow!("ARBITER_KEY_DIR: where the writer keeps its keys"))?;
    let keys = arbiter_eventlog::Keys::in_dir(std::path::Path::new(&key_dir), "writer", None)?;
    let store = EventStore::open_with(&url, keys).await?;
    let start = store.head_position().await?;
    let mut out = std::io::stdout().lock();
    for i in 0u64.. {
        let batch = 1 + (i % 3) as usize; // 1, 2 or 3 events per append
        let ack = store
            .append(AppendRequest {
                stream: format!("crash-{}", i % 7),
                expected_version: None,
                events: (0..batch)
                    .map(|j| NewEvent {
                        event_type: "Tick".into(),
                        schema_version: 1,
                        payload: format!("{start}:{i}:{j}").into_bytes(),
                    })
                    .collect(),
                context: CommandContext {
                    command_id: format!("writer-{start}-{i}"),
                    actor: "crash-test".into(),
                    service: "test".into(),
                    ..Default::default()
                },
            })
            .await?;
        writeln!(out, "acked {}", ack.last_position)?;
        out.flush()?;
    }
    Ok(())
}
