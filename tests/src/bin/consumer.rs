//! `arbiter-test-consumer NATS_URL DURABLE FILTER OUT_FILE`: a durable JetStream
//! consumer in its own process. For every event it appends one line
//! `event_id stream stream_version event_type traceparent` to OUT_FILE (its
//! "projection"), fsyncs, and only then acks. Events already in the file are acked
//! and skipped, so redeliveries never produce a second line. It trusts the public keys
//! of `ARBITER_KEY_DIR` (the services' key directory).
use std::collections::HashSet;
use std::io::Write;

use arbiter_bus::Bus;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, durable, filter, out] = args.as_slice() else {
        anyhow::bail!("usage: arbiter-test-consumer NATS_URL DURABLE FILTER OUT_FILE");
    };
    let mut seen: HashSet<String> = std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split(' ').next().map(str::to_owned))
        .collect();
    // The services' public keys (every `*.pub` of ARBITER_KEY_DIR): only events they
    // sealed are delivered.
    let key_dir = std::env::var("ARBITER_KEY_DIR")
        .map_err(|_| anyhow::anyhow!("ARBITER_KEY_DIR: the services' key directory is required"))?;
    let keys =
        arbiter_eventlog::Keys::in_dir(std::path::Path::new(&key_dir), "test-consumer", None)?;
    let bus = Bus::connect_nats_with(url, keys).await?;
    let mut consumer = bus.consumer(durable, filter).await?;
    println!("ready");
    loop {
        let d = consumer.next().await?;
        let e = &d.event;
        if seen.insert(e.event_id.clone()) {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)?;
            writeln!(
                f,
                "{} {} {} {} {}",
                e.event_id, e.stream, e.stream_version, e.event_type, e.trace_parent
            )?;
            f.sync_all()?;
        }
        d.ack().await?;
    }
}
