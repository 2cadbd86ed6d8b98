//! The embedded default end to end, through the real binaries: `arbiterd` and the
//! `arbiter` CLI. Survives `kill -9`; bad input is refused with the field named and
//! nothing written.
use std::path::Path;
use std::process::{Command, Output};

use arbiter_tests::{Proc, binary, output_text, run_cli, start_arbiterd};

fn start(data: &Path, port: u16) -> Proc {
    start_arbiterd(data, port, |_| {})
}

fn cli(data: &Path, port: u16, args: &[&str]) -> Output {
    run_cli(data, port, args)
}

fn text(o: &Output) -> String {
    output_text(o)
}

fn list(data: &Path, port: u16) -> Vec<serde_json::Value> {
    let o = cli(data, port, &["tournament", "list", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice::<Vec<serde_json::Value>>(&o.stdout).unwrap()
}

#[test]
fn run_health_create_list_survive_kill9() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let mut d = start(&data, port);
    assert!(
        d.seen.iter().any(|l| l.starts_with("ARBITER_TOKEN=arb_")),
        "admin token printed once: {:?}",
        d.seen
    );
    assert!(data.join("admin.token").is_file());

    let h = cli(&data, port, &["health"]);
    assert!(h.status.success(), "{}", text(&h));
    assert_eq!(text(&h).matches("SERVING").count(), 5, "{}", text(&h));

    let c = cli(
        &data,
        port,
        &[
            "tournament",
            "create",
            "--name",
            "Bunratty Masters",
            "--rounds",
            "6",
            "--federation",
            "IRL",
        ],
    );
    assert!(c.status.success(), "{}", text(&c));
    let human = cli(&data, port, &["tournament", "list"]);
    assert!(
        text(&human).contains("Bunratty Masters"),
        "{}",
        text(&human)
    );
    let l = list(&data, port);
    assert_eq!(l.len(), 1);
    assert!(
        l[0]["created_by"]
            .as_str()
            .unwrap()
            .starts_with("admin (p_"),
        "the actor (principal and token) is recorded: {}",
        l[0]["created_by"]
    );
    let id = l[0]["tournament_id"].as_str().unwrap().to_owned();

    d.kill9();
    let mut d = start(&data, port);
    assert!(
        !d.drain().iter().any(|l| l.starts_with("ARBITER_TOKEN=")),
        "the token is printed on first start only"
    );
    let show = cli(&data, port, &["tournament", "show", &id, "--json"]);
    assert!(show.status.success(), "{}", text(&show));
    let t: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(t["name"], "Bunratty Masters");
    assert_eq!(t["rounds"], 6);
}

#[test]
fn bad_input_names_the_field_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let port = arbiter_testkit::free_port();
    let _d = start(&data, port);
    let ok = cli(
        &data,
        port,
        &[
            "tournament",
            "create",
            "--name",
            "Open",
            "--command-id",
            "cmd-1",
        ],
    );
    assert!(ok.status.success(), "{}", text(&ok));
    let id = list(&data, port)[0]["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned();

    let empty = cli(&data, port, &["tournament", "create", "--name", "  "]);
    assert_eq!(empty.status.code(), Some(1));
    assert!(
        text(&empty).contains("InvalidArgument: name: must not be empty"),
        "{}",
        text(&empty)
    );

    let unknown = cli(&data, port, &["tournament", "show", "no-such-id"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        text(&unknown).contains("NotFound: tournament_id"),
        "{}",
        text(&unknown)
    );
    let unknown_update = cli(
        &data,
        port,
        &["tournament", "update", "no-such-id", "--rounds", "5"],
    );
    assert!(
        text(&unknown_update).contains("tournament_id"),
        "{}",
        text(&unknown_update)
    );

    let stale = cli(
        &data,
        port,
        &[
            "tournament",
            "update",
            &id,
            "--rounds",
            "9",
            "--expected-version",
            "0",
        ],
    );
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        text(&stale).contains("Aborted: --expected-version") && text(&stale).contains("version 1"),
        "{}",
        text(&stale)
    );
    let good = cli(
        &data,
        port,
        &[
            "tournament",
            "update",
            &id,
            "--rounds",
            "9",
            "--expected-version",
            "1",
        ],
    );
    assert!(good.status.success(), "{}", text(&good));

    // A retried command id creates nothing new and answers with the same tournament.
    let retry = cli(
        &data,
        port,
        &[
            "tournament",
            "create",
            "--name",
            "Open",
            "--command-id",
            "cmd-1",
            "--json",
        ],
    );
    assert!(retry.status.success(), "{}", text(&retry));
    let t: serde_json::Value = serde_json::from_slice(&retry.stdout).unwrap();
    assert_eq!(t["tournament_id"].as_str(), Some(id.as_str()));

    let l = list(&data, port);
    assert_eq!(l.len(), 1, "nothing else written");
    assert_eq!(l[0]["rounds"], 9);
    assert_eq!(l[0]["version"], 2);

    // Mutations need the token.
    let no_token = Command::new(binary("arbiter"))
        .args(["tournament", "create", "--name", "X"])
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{port}"))
        .env("ARBITER_DATA_DIR", dir.path().join("elsewhere"))
        .env("ARBITER_TOKEN", "arb_wrong")
        .output()
        .unwrap();
    assert!(
        text(&no_token).contains("Unauthenticated"),
        "{}",
        text(&no_token)
    );
    assert_eq!(list(&data, port).len(), 1);
}

#[test]
fn health_fails_when_nothing_listens() {
    let dir = tempfile::tempdir().unwrap();
    let port = arbiter_testkit::free_port();
    let h = cli(dir.path(), port, &["health"]);
    assert_eq!(h.status.code(), Some(3), "{}", text(&h));
    assert!(text(&h).contains("cannot reach"), "{}", text(&h));
}
