//! The tasks that act on events (the results service's clock reports, the rating
//! service's intake) resume after their saved cursor when arbiterd restarts, instead of
//! re-reading the log from position 1 (ADR registry-003).
use std::time::Duration;

use arbiter_tests::{Arbiter, start_arbiterd};

fn resumed_from(log: &str, cursor: &str) -> Option<i64> {
    log.lines()
        .filter(|l| l.contains("resuming") && l.contains(cursor))
        .find_map(|l| l.split("from=").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

#[test]
fn a_restart_resumes_the_clock_reports_and_the_rating_intake_where_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let logs = |name: &str| dir.path().join(name);
    let start = |log: &std::path::Path| {
        let file = std::fs::File::create(log).unwrap();
        start_arbiterd(&a.data, a.port, |c| {
            c.env("RUST_LOG", "warn,arbiter_service_kit::cursor=info")
                .stderr(file);
        })
    };
    let d = start(&logs("first.log"));
    let first = std::fs::read_to_string(logs("first.log")).unwrap();
    assert_eq!(
        resumed_from(&first, "results-clock-reports"),
        Some(1),
        "{first}"
    );
    assert_eq!(resumed_from(&first, "rating-intake"), Some(1), "{first}");
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Cursor Open",
        "--rounds",
        "3",
    ])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 1..=4 {
        a.ok(&[
            "player",
            "add",
            &t,
            "--name",
            &format!("P, No{i}"),
            "--rating",
            "2000",
        ]);
    }
    // A cursor is saved at most once a second, when the next event arrives.
    std::thread::sleep(Duration::from_millis(1_200));
    a.ok(&["tournament", "update", &t, "--name", "Cursor Open 2026"]);
    std::thread::sleep(Duration::from_millis(300));
    drop(d);
    let _d = start(&logs("second.log"));
    let second = std::fs::read_to_string(logs("second.log")).unwrap();
    for cursor in ["results-clock-reports", "rating-intake"] {
        let from = resumed_from(&second, cursor).unwrap_or_else(|| panic!("{second}"));
        assert!(from > 5, "{cursor} resumed from {from}: {second}");
    }
}
