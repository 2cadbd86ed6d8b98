//! Group commit of concurrent single appends (ADR platform-015; the write paths it feeds
//! are ADR platform-011's).
//!
//! [`EventStore::append`](crate::EventStore::append) puts its request in a queue and waits
//! for its own answer. When no commit is running, the first request to arrive starts a
//! committer task; the committer takes everything queued, appends it with
//! [`EventStore::append_batch`](crate::EventStore::append_batch) (one transaction, one
//! durable commit, each request with exactly the semantics it would have alone, in queue
//! order), answers each caller, and takes the next queue until it is empty. Twenty
//! clients entering results at once cost a few fsyncs, not twenty.
//!
//! - **Nothing changes for one caller alone**: an empty queue is committed at once, no
//!   waiting for company (no timer).
//! - **A caller that gave up before its commit began writes nothing**: requests whose
//!   caller dropped its future are left out when the committer takes the queue (as an
//!   append that never got the lock). Once taken, the commit runs to its end in its own
//!   task, so a caller leaving mid-commit cannot leave the other callers unanswered.
//! - **A failure of the database fails the commit for all of its requests** (nothing of
//!   it is written, as with `append_batch`): each caller gets the failure as
//!   [`Error::Database`] with its message (so it stays "unavailable, retry").
//! - **Bounded**: a commit takes at most [`MAX_GROUP`] requests; the rest wait for the
//!   next one.
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use crate::{AppendAck, AppendRequest, Error, EventStore, Result};

/// The most requests one group commit takes (the rest wait for the next): bounds a
/// commit's transaction and statement sizes under a flood.
pub const MAX_GROUP: usize = 256;

struct Waiting {
    req: AppendRequest,
    answer: oneshot::Sender<Result<AppendAck>>,
}

#[derive(Default)]
struct Queue {
    waiting: Vec<Waiting>,
    /// A committer task is running (it will take what is queued).
    committing: bool,
}

/// The queue of single appends waiting for a commit.
#[derive(Default, Clone)]
pub(crate) struct GroupCommit {
    queue: Arc<Mutex<Queue>>,
}

impl GroupCommit {
    /// Queues `req` on `store` and waits for its outcome.
    pub(crate) async fn append(&self, store: &EventStore, req: AppendRequest) -> Result<AppendAck> {
        let (answer, outcome) = oneshot::channel();
        let start = {
            let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
            q.waiting.push(Waiting { req, answer });
            !std::mem::replace(&mut q.committing, true)
        };
        if start {
            tokio::spawn(self.clone().commit_all(store.clone()));
        }
        outcome.await.unwrap_or_else(|_| {
            Err(Error::Database(sqlx::Error::Io(std::io::Error::other(
                "the group commit ended without answering (the runtime is shutting down)",
            ))))
        })
    }

    /// Commits the queue until it is empty.
    async fn commit_all(self, store: EventStore) {
        // Should the task end early (a panic, the runtime shutting down), the queue is
        // released: its callers are answered with an error and the next append starts a
        // committer again, rather than waiting for one that is gone.
        struct Release(Option<Arc<Mutex<Queue>>>);
        impl Drop for Release {
            fn drop(&mut self) {
                if let Some(queue) = self.0.take() {
                    let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
                    q.waiting.clear();
                    q.committing = false;
                }
            }
        }
        let mut release = Release(Some(self.queue.clone()));
        loop {
            let group: Vec<Waiting> = {
                let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
                q.waiting.retain(|w| !w.answer.is_closed());
                if q.waiting.is_empty() {
                    // Ended under the queue's lock: an append queued after this sees no
                    // committer and starts one.
                    q.committing = false;
                    release.0 = None;
                    return;
                }
                let n = q.waiting.len().min(MAX_GROUP);
                q.waiting.drain(..n).collect()
            };
            let (reqs, answers): (Vec<AppendRequest>, Vec<_>) =
                group.into_iter().map(|w| (w.req, w.answer)).unzip();
            match store.append_batch(&reqs).await {
                Ok(outcomes) => {
                    for (answer, o) in answers.into_iter().zip(outcomes) {
                        let _ = answer.send(o);
                    }
                }
                Err(e) => {
                    for answer in answers {
                        let _ = answer.send(Err(same_failure(&e)));
                    }
                }
            }
        }
    }
}

/// The failure of a whole commit, for each of its callers: the log's refusal as it is,
/// anything else as a database failure with its message.
fn same_failure(e: &Error) -> Error {
    match e {
        Error::ReadOnly(why) => Error::ReadOnly(why.clone()),
        other => Error::Database(sqlx::Error::Io(std::io::Error::other(other.to_string()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CommandContext, NewEvent};
    use std::time::Duration;

    fn req(stream: &str, expected: Option<i64>, command: &str) -> AppendRequest {
        AppendRequest {
            stream: stream.into(),
            expected_version: expected,
            events: vec![NewEvent {
                event_type: "E".into(),
                schema_version: 1,
                payload: command.as_bytes().to_vec(),
            }],
            context: CommandContext {
                command_id: command.into(),
                actor: "tester".into(),
                service: "test".into(),
                rule_edition: "test-edition".into(),
                ..Default::default()
            },
        }
    }

    async fn store() -> (EventStore, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("log.db").display());
        (EventStore::open(&url).await.unwrap(), dir)
    }

    /// How many 2 ms polls the helpers below wait (10 s: a loaded CI machine schedules the
    /// spawned appends late; the polls end as soon as the state is reached).
    const WAIT_STEPS: usize = 5_000;

    /// Waits until the committer has taken the queue (and waits for the lock).
    async fn taken(store: &EventStore) {
        for _ in 0..WAIT_STEPS {
            {
                let q = store.inner_group().queue.lock().unwrap();
                if q.committing && q.waiting.is_empty() {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("the committer never took the queue");
    }

    /// Waits until no committer runs: the one of an append just answered may still be
    /// about to look at the queue again, and would take what is queued next.
    async fn idle(store: &EventStore) {
        for _ in 0..WAIT_STEPS {
            if !store.inner_group().queue.lock().unwrap().committing {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("the committer never ended");
    }

    /// Waits until `n` appends are queued behind the held lock.
    async fn queued(store: &EventStore, n: usize) {
        for _ in 0..WAIT_STEPS {
            if store.inner_group().queue.lock().unwrap().waiting.len() >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("{n} appends were never queued");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn appends_queued_behind_a_commit_share_the_next_one_each_with_its_own_outcome() {
        let (s, _dir) = store().await;
        s.append(req("board-1", Some(0), "first")).await.unwrap();
        // Else `taken` below could see that append's committer, which would then take
        // the appends meant to queue behind the lock.
        idle(&s).await;
        let lock = s.hold_appends().await;
        // The committer takes the first request and waits for the lock; the others queue.
        let mut tasks = Vec::new();
        let spawn = |r: AppendRequest| {
            let s = s.clone();
            tokio::spawn(async move { s.append(r).await })
        };
        tasks.push(spawn(req("a", None, "a1")));
        taken(&s).await;
        for i in 0..8 {
            tasks.push(spawn(req(&format!("s{i}"), None, &format!("c{i}"))));
        }
        // Two on one board expecting version 1: the first wins, the second conflicts.
        tasks.push(spawn(req("board-1", Some(1), "fix-1")));
        tasks.push(spawn(req("board-1", Some(1), "fix-2")));
        // A retry of an id already used in this queue: the replay of its first use.
        tasks.push(spawn(req("s0", None, "c0")));
        queued(&s, 11).await;
        drop(lock);
        let mut outcomes = Vec::new();
        for t in tasks {
            outcomes.push(t.await.unwrap());
        }
        assert!(outcomes[..9].iter().all(Result::is_ok), "{outcomes:?}");
        // The tasks queue in the order they run, not the order they were spawned: the one
        // of the two board-1 fixes queued first wins, the other conflicts.
        let fixes = [&outcomes[9], &outcomes[10]];
        assert_eq!(fixes.iter().filter(|o| o.is_ok()).count(), 1, "{fixes:?}");
        assert!(fixes.iter().any(|o| matches!(o, Err(Error::Conflict { stream, expected: 1, actual: 2 }) if stream == "board-1")), "{fixes:?}");
        // And of the two uses of `c0`, the later one is the replay of the first.
        let (a, b) = (
            outcomes[1].as_ref().unwrap(),
            outcomes[11].as_ref().unwrap(),
        );
        assert!(a.replayed != b.replayed, "{a:?} {b:?}");
        assert_eq!(a.first_position, b.first_position);
        // 1 + 11 events written, positions gap-free, in at most 3 commits (the first
        // append's, the one the committer took before the lock, the queue's).
        let all = s.read_all(1, 100).await.unwrap();
        assert_eq!(all.len(), 11);
        assert!(
            all.iter()
                .enumerate()
                .all(|(i, e)| e.global_position == i as i64 + 1)
        );
        let commits = s.commits().await;
        assert!(commits <= 3, "{commits} commits for 11 appends");
        assert!(s.verify().await.unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_append_given_up_before_its_commit_began_writes_nothing() {
        let (s, _dir) = store().await;
        let lock = s.hold_appends().await;
        let kept = {
            let s = s.clone();
            tokio::spawn(async move { s.append(req("kept", None, "k")).await })
        };
        taken(&s).await;
        let given_up = {
            let s = s.clone();
            tokio::spawn(async move { s.append(req("given-up", None, "g")).await })
        };
        queued(&s, 1).await;
        given_up.abort();
        let _ = given_up.await;
        drop(lock);
        kept.await.unwrap().unwrap();
        assert_eq!(s.stream_version("kept").await.unwrap(), 1);
        assert_eq!(s.stream_version("given-up").await.unwrap(), 0);
        // The queue is free again: the next append starts a committer of its own.
        s.append(req("after", None, "after")).await.unwrap();
        assert_eq!(s.read_all(1, 100).await.unwrap().len(), 2);
    }
}
