//! Group commit for the live path.
//!
//! Every accepted press is one durable append. Committed one by one (a transaction of
//! several statements and, on SQLite with `synchronous=FULL`, one fsync each) the live
//! path measured about 1,400 presses/s. The [`GroupWriter`] is one task that takes the
//! appends of all boards and writes whatever has queued with
//! [`EventStore::append_batch`] — one transaction, a few multi-row statements and one
//! fsync for the lot. While a batch is being written the next one queues up, so the
//! batches grow with the load by themselves.
//!
//! A collection window (env [`COMMIT_WINDOW_ENV`], default 0) makes the writer wait for
//! more appends before each commit: on the bench (`make bench`, section clock) a 1 ms
//! window gave fewer presses per second and later flag falls than none, so none is the
//! default. A flag fall is *urgent*: it never waits for the window.
//!
//! Each caller gets its own outcome only after the transaction is durable, so a device
//! is never acknowledged before its event is on disk.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arbiter_eventlog::{AppendAck, AppendRequest, Error, EventStore};
use tokio::sync::{mpsc, oneshot};

/// Environment variable: microseconds the writer collects appends before committing
/// them together (default 0: commit whatever has queued while the previous commit ran).
pub const COMMIT_WINDOW_ENV: &str = "ARBITER_CLOCK_COMMIT_WINDOW_US";
/// Default collection window: none (natural group commit).
pub const DEFAULT_WINDOW: Duration = Duration::ZERO;
/// Most appends in one transaction.
pub const MAX_BATCH: usize = 1024;

struct Job {
    req: AppendRequest,
    urgent: bool,
    done: oneshot::Sender<Result<AppendAck, Error>>,
}

/// The handle of the group-commit task (cheap to clone).
#[derive(Clone)]
pub struct GroupWriter {
    jobs: mpsc::UnboundedSender<Job>,
    store: EventStore,
    stats: Arc<Stats>,
}

/// Counters of the writer (for tests and the bench).
#[derive(Default)]
struct Stats {
    transactions: AtomicU64,
    appends: AtomicU64,
}

impl GroupWriter {
    /// Starts the writer task on `store`. It ends when every handle is dropped.
    pub fn start(store: EventStore, window: Duration) -> GroupWriter {
        let (tx, rx) = mpsc::unbounded_channel();
        let stats = Arc::new(Stats::default());
        tokio::spawn(run(store.clone(), rx, window, stats.clone()));
        GroupWriter {
            jobs: tx,
            store,
            stats,
        }
    }

    /// (transactions committed or attempted, appends handed to them) so far.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.stats.transactions.load(Ordering::Relaxed),
            self.stats.appends.load(Ordering::Relaxed),
        )
    }

    /// The window from [`COMMIT_WINDOW_ENV`], else [`DEFAULT_WINDOW`].
    pub fn window_from_env() -> Duration {
        std::env::var(COMMIT_WINDOW_ENV)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .map(Duration::from_micros)
            .unwrap_or(DEFAULT_WINDOW)
    }

    /// Appends `req` with the next group commit; returns once it is durable, with the
    /// outcome [`EventStore::append`] would have given. `urgent`: commit without
    /// waiting for the window.
    pub async fn append(&self, req: AppendRequest, urgent: bool) -> Result<AppendAck, Error> {
        let (done, outcome) = oneshot::channel();
        if let Err(mpsc::error::SendError(job)) = self.jobs.send(Job { req, urgent, done }) {
            // The task is gone (runtime shutting down): write it alone.
            return self.store.append(job.req).await;
        }
        match outcome.await {
            Ok(r) => r,
            Err(_) => Err(Error::Invalid {
                field: "append",
                message: "the clock's log writer stopped before answering".into(),
            }),
        }
    }
}

async fn run(
    store: EventStore,
    mut rx: mpsc::UnboundedReceiver<Job>,
    window: Duration,
    stats: Arc<Stats>,
) {
    while let Some(first) = rx.recv().await {
        let deadline = tokio::time::Instant::now() + window;
        let mut urgent = first.urgent;
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            let next = match rx.try_recv() {
                Ok(j) => Some(j),
                Err(mpsc::error::TryRecvError::Disconnected) => None,
                Err(mpsc::error::TryRecvError::Empty) if urgent || window.is_zero() => None,
                Err(mpsc::error::TryRecvError::Empty) => {
                    tokio::time::timeout_at(deadline, rx.recv())
                        .await
                        .ok()
                        .flatten()
                }
            };
            let Some(j) = next else { break };
            urgent |= j.urgent;
            jobs.push(j);
        }
        stats.transactions.fetch_add(1, Ordering::Relaxed);
        stats
            .appends
            .fetch_add(jobs.len() as u64, Ordering::Relaxed);
        commit(&store, jobs).await;
    }
}

async fn commit(store: &EventStore, jobs: Vec<Job>) {
    if jobs.len() == 1 {
        for j in jobs {
            let r = store.append(j.req).await;
            let _ = j.done.send(r);
        }
        return;
    }
    let (reqs, dones): (Vec<_>, Vec<_>) = jobs.into_iter().map(|j| (j.req, j.done)).unzip();
    match store.append_batch(&reqs).await {
        Ok(outcomes) => {
            for (done, r) in dones.into_iter().zip(outcomes) {
                let _ = done.send(r);
            }
        }
        Err(e) => {
            // Nothing of the batch was written: each request on its own, so that each
            // caller gets its own outcome (appends are idempotent by command id).
            tracing::warn!(error = %e, n = reqs.len(), "clock: group commit failed; appending one by one");
            for (req, done) in reqs.into_iter().zip(dones) {
                let r = store.append(req).await;
                let _ = done.send(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_eventlog::{CommandContext, NewEvent};

    fn req(stream: &str, expected: i64, id: &str) -> AppendRequest {
        AppendRequest {
            stream: stream.into(),
            expected_version: Some(expected),
            events: vec![NewEvent {
                event_type: "Press".into(),
                schema_version: 1,
                payload: Vec::new(),
            }],
            context: CommandContext {
                command_id: id.into(),
                actor: "t".into(),
                service: "clock".into(),
                ..Default::default()
            },
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_share_commits_and_each_gets_its_own_outcome() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("log.db").display());
        let store = EventStore::open(&url).await.unwrap();
        let w = GroupWriter::start(store.clone(), Duration::from_millis(5));
        let mut tasks = Vec::new();
        for b in 0..50 {
            let w = w.clone();
            tasks.push(tokio::spawn(async move {
                w.append(req(&format!("board-{b}"), 0, &format!("c{b}")), false)
                    .await
            }));
        }
        // One stale request among them: only it fails.
        let stale = w.append(req("board-0", 7, "stale"), false);
        let mut acks = Vec::new();
        for t in tasks {
            acks.push(t.await.unwrap().unwrap());
        }
        let stale = stale.await;
        assert!(matches!(stale, Err(Error::Conflict { expected: 7, .. })));
        assert!(acks.iter().all(|a| !a.replayed && a.stream_version == 1));
        let mut positions: Vec<i64> = acks.iter().map(|a| a.first_position).collect();
        positions.sort();
        assert_eq!(positions, (1..=50).collect::<Vec<_>>());
        // Every acknowledged event is in the log (durable before the answer).
        assert_eq!(store.head_position().await.unwrap(), 50);
        // The 51 appends shared a few transactions.
        let (transactions, appends) = w.stats();
        assert_eq!(appends, 51);
        assert!(
            transactions < 10,
            "{transactions} transactions for 51 appends"
        );
        let urgent = w.append(req("board-0", 1, "flag"), true).await.unwrap();
        assert_eq!(urgent.stream_version, 2);
        store.close().await;
    }
}
