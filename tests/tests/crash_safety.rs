//! Crash safety: a writer appends in a loop and is killed with SIGKILL at a random
//! moment, 20 times per backend. After each kill every append it had seen
//! acknowledged is present, and `verify` finds the log intact.
use std::process::Command;
use std::time::Duration;

use arbiter_eventlog::EventStore;
use arbiter_tests::Proc;
use rand::Rng;

fn kill_loop(url: &str) {
    let writer = env!("CARGO_BIN_EXE_arbiter-test-writer");
    let keys = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut rng = rand::rng();
    for round in 1..=20 {
        let mut p = Proc::spawn(
            Command::new(writer)
                .arg(url)
                .env("ARBITER_KEY_DIR", keys.path()),
        );
        let delay = rng.random_range(30..400);
        std::thread::sleep(Duration::from_millis(delay));
        p.kill9();
        let acked: Vec<i64> = p
            .seen
            .iter()
            .filter_map(|l| l.strip_prefix("acked ")?.parse().ok())
            .collect();
        let max_acked = acked.iter().copied().max().unwrap_or(0);
        rt.block_on(async {
            let keys = arbiter_eventlog::Keys::in_dir(keys.path(), "writer", None).unwrap();
            let store = EventStore::open_with(url, keys)
                .await
                .expect("reopen after SIGKILL");
            let report = store.verify().await.unwrap();
            assert!(
                report.is_ok(),
                "round {round} (killed after {delay} ms): {:?}",
                report.problems
            );
            let head = store.head_position().await.unwrap();
            assert!(
                head >= max_acked,
                "round {round}: acked {max_acked} but head is {head}"
            );
            for pos in &acked {
                assert!(
                    store.read_at(*pos).await.unwrap().is_some(),
                    "round {round}: acked position {pos} lost"
                );
            }
            assert_eq!(report.events as i64, head, "gap-free log");
            store.close().await;
        });
        eprintln!(
            "round {round}: killed after {delay} ms, {} appends acked, log verified",
            acked.len()
        );
    }
}

#[test]
fn sqlite_acknowledged_appends_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    kill_loop(&format!("sqlite://{}", dir.path().join("log.db").display()));
}

#[test]
fn postgres_acknowledged_appends_survive_sigkill() {
    let pg = arbiter_testkit::PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}"));
    kill_loop(pg.url());
}
