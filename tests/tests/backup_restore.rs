//! `arbiter admin backup` / `restore` (ADR platform-013) through the real binaries: a
//! backup taken while arbiterd runs and writes, restored into a new data directory, a
//! server started on it that holds exactly the backed-up record and goes on with the
//! tournament; a damaged backup, a non-empty target and a missing log refused with
//! nothing written.
use std::path::Path;
use std::process::Command;

use arbiter_tests::{Arbiter, binary, output_text, run_cli, start_arbiterd};

const PLAYERS: [(&str, u32); 6] = [
    ("Alpha, Anna", 2400),
    ("Bravo, Ben", 2300),
    ("Charlie, Cid", 2200),
    ("Delta, Dora", 2100),
    ("Echo, Emil", 2000),
    ("Foxtrot, Fay", 1900),
];

/// A 3-round tournament of 6 players; round 1 paired, published, played and closed.
fn tournament_after_round_1(a: &Arbiter) -> String {
    let t = a.json(&[
        "tournament",
        "create",
        "--name",
        "Backup Open",
        "--rounds",
        "3",
    ]);
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for (name, rating) in PLAYERS {
        a.ok(&[
            "player",
            "add",
            &id,
            "--name",
            name,
            "--rating",
            &rating.to_string(),
        ]);
    }
    play(a, &id, 1);
    id
}

/// Pairs, publishes, enters every result of `round` and closes it; returns the pairing.
fn play(a: &Arbiter, id: &str, round: u32) -> serde_json::Value {
    let r = round.to_string();
    let paired = a.json(&["round", "pair", id, &r]);
    a.ok(&["round", "publish", id, &r]);
    for board in 1..=3 {
        let result = ["1-0", "1/2", "0-1"][board - 1];
        a.ok(&["result", "set", id, &r, &board.to_string(), result]);
    }
    a.ok(&["round", "close", id, &r]);
    paired
}

fn check_log(data: &Path) -> (Option<i32>, String) {
    let o = Command::new(binary("arbiterd"))
        .arg("--data-dir")
        .arg(data)
        .arg("--check-log")
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    (o.status.code(), output_text(&o))
}

/// `arbiter admin …` with `--data-dir data` (no server needed).
fn admin(data: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["admin"];
    all.extend_from_slice(args);
    run_cli(data, arbiter_testkit::free_port(), &all)
}

#[test]
fn a_backup_taken_while_the_server_writes_restores_and_the_tournament_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (live, server) = Arbiter::embedded(dir.path(), |_| {});
    let id = tournament_after_round_1(&live);
    let standings_at_backup = live.json(&["standings", &id]);

    let backup = dir.path().join("backup");
    let o = admin(&live.data, &["backup", backup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", output_text(&o));
    let said = output_text(&o);
    assert!(
        said.contains("every hash, seal and log seal verifies"),
        "{said}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for p in ["", "arbiter.db", "keys", "keys/arbiterd.key", "admin.token"] {
            let mode = std::fs::metadata(backup.join(p))
                .unwrap()
                .permissions()
                .mode()
                & 0o077;
            assert_eq!(
                mode, 0,
                "{p}: the backup holds keys and personal data: owner only"
            );
        }
    }
    // The live server goes on after the backup: round 2 is not in the backup.
    let round2_live = live.json(&["round", "pair", &id, "2"]);
    drop(server);

    let restored = dir.path().join("restored");
    let o = admin(&restored, &["restore", backup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", output_text(&o));
    assert!(
        output_text(&o).contains("the log matches the backup's anchor"),
        "{}",
        output_text(&o)
    );
    let (code, out) = check_log(&restored);
    assert_eq!(code, Some(0), "the restored log verifies: {out}");

    let b = Arbiter {
        data: restored.clone(),
        port: arbiter_testkit::free_port(),
    };
    let server = start_arbiterd(&b.data, b.port, |_| {});
    assert_eq!(
        b.json(&["standings", &id])["rows"],
        standings_at_backup["rows"],
        "the restored record is the record at the backup"
    );
    // Round 2 is paired again from the same record: the same pairing as the live server's.
    let round2 = play(&b, &id, 2);
    assert_eq!(round2["boards"], round2_live["boards"]);
    play(&b, &id, 3);
    let end = b.json(&["standings", &id]);
    assert_eq!(end["rows"].as_array().unwrap().len(), PLAYERS.len());
    drop(server);
    let (code, out) = check_log(&restored);
    assert_eq!(code, Some(0), "the continued log verifies: {out}");
}

#[test]
fn a_damaged_backup_is_not_restored_and_nothing_is_written() {
    use sqlx::Connection as _;
    let dir = tempfile::tempdir().unwrap();
    let (live, server) = Arbiter::embedded(dir.path(), |_| {});
    tournament_after_round_1(&live);
    let backup = dir.path().join("backup");
    let o = admin(&live.data, &["backup", backup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", output_text(&o));
    drop(server);

    // One byte of the last event's payload changed in the backup.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let url = format!("sqlite://{}", backup.join("arbiter.db").display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let (position, mut payload): (i64, Vec<u8>) = sqlx::query_as(
            "SELECT global_position, payload FROM events ORDER BY global_position DESC LIMIT 1",
        )
        .fetch_one(&mut c)
        .await
        .unwrap();
        let last = payload.len() - 1;
        payload[last] ^= 1;
        sqlx::query("UPDATE events SET payload = ? WHERE global_position = ?")
            .bind(payload)
            .bind(position)
            .execute(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
    });
    let restored = dir.path().join("restored");
    let o = admin(&restored, &["restore", backup.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    let said = output_text(&o);
    assert!(said.contains("does not verify"), "{said}");
    assert!(!restored.exists(), "nothing is left of a refused restore");

    // A target that already holds something is refused before anything is read.
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::write(restored.join("arbiter.db"), b"a server's log").unwrap();
    let o = admin(&restored, &["restore", backup.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    assert!(output_text(&o).contains("not empty"), "{}", output_text(&o));
    assert_eq!(
        std::fs::read(restored.join("arbiter.db")).unwrap(),
        b"a server's log"
    );

    // A backup of a directory without a log says so, and makes no backup directory.
    let nowhere = dir.path().join("no-server");
    std::fs::create_dir_all(&nowhere).unwrap();
    let target = dir.path().join("backup-2");
    let o = admin(&nowhere, &["backup", target.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    assert!(
        output_text(&o).contains("no arbiter.db here"),
        "{}",
        output_text(&o)
    );
    assert!(!target.exists());
}
