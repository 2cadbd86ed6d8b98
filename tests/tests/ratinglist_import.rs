//! The registry's player directory through the real binaries (`arbiterd` + `arbiter`):
//! a generated FIDE rating list (with one bad line) streamed in by `arbiter ratinglist
//! import`, found by FIDE ID and by name, a player entered with only a FIDE ID (the rest
//! filled from the list, explicit fields winning), and the list still there after
//! `arbiterd` is killed with SIGKILL and restarted.
use std::path::Path;
use std::process::{Command, Output};

use arbiter_tests::{Arbiter, Proc, binary};
use ratinglist::{ListPlayer, RatingKind, TextEncoding, TxtLayout, generate_list, write_txt};

fn start(data: &Path, port: u16) -> Proc {
    let mut p = Proc::spawn(
        Command::new(binary("arbiterd"))
            .arg("--data-dir")
            .arg(data)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env("RUST_LOG", "warn"),
    );
    p.wait_line("ready", 30);
    p
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn fide_ids(found: &serde_json::Value) -> Vec<u64> {
    found
        .as_array()
        .expect("array")
        .iter()
        .map(|p| p["fide_id"].as_u64().expect("fide_id"))
        .collect()
}

const PLAYERS: usize = 3000;

#[test]
fn a_rating_list_is_imported_found_used_for_entries_and_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let players: Vec<ListPlayer> = generate_list(PLAYERS, 2026).collect();
    let mut file = Vec::new();
    write_txt(
        &mut file,
        &players,
        &TxtLayout::CombinedFoa,
        TextEncoding::Utf8,
    )
    .unwrap();
    // One record that cannot be read: reported with its line, the rest imported.
    file.extend_from_slice(b"12AB4          Broken, Record\n");
    let bad_line = file.iter().filter(|&&b| b == b'\n').count() as u64;
    let list = dir.path().join("players_list_foa.txt");
    std::fs::write(&list, &file).unwrap();

    let mut d = start(&a.data, a.port);

    // Nothing imported yet: find says so.
    let none = a.run(&["ratinglist", "find", "1"]);
    assert_eq!(none.status.code(), Some(1), "{}", text(&none));
    assert!(
        text(&none).contains("no player directory"),
        "{}",
        text(&none)
    );

    let imported = a.json(&["ratinglist", "import", list.to_str().unwrap()]);
    assert_eq!(imported["players_loaded"], PLAYERS as u64, "{imported}");
    assert_eq!(imported["error_count"], 1, "{imported}");
    assert_eq!(imported["errors"][0]["line"], bad_line, "{imported}");
    assert_eq!(imported["bytes"], file.len() as u64);
    assert_eq!(imported["format"], "txt");
    assert_eq!(imported["persisted"], true);

    // A player whose name fits the 33-character entry field, with a standard rating.
    let p = players
        .iter()
        .find(|p| p.name.chars().count() <= 33 && p.standard.is_some_and(|r| r.rating > 0))
        .expect("a suitable generated player");
    let std_rating = u64::from(p.rating(RatingKind::Standard).unwrap().rating);

    // By FIDE ID.
    let by_id = a.json(&["ratinglist", "find", &p.fide_id.to_string()]);
    assert_eq!(fide_ids(&by_id), vec![u64::from(p.fide_id)]);
    assert_eq!(by_id[0]["name"], p.name.as_str());
    assert_eq!(by_id[0]["federation"], p.federation.as_str());
    assert_eq!(by_id[0]["rating_standard"], std_rating);

    // By name prefix: the surname (lower case, without the first name) finds them.
    let surname = p.name.split(',').next().unwrap().to_lowercase();
    let by_name = a.json(&["ratinglist", "find", &surname, "--limit", "1000"]);
    assert!(
        fide_ids(&by_name).contains(&u64::from(p.fide_id)),
        "{surname:?} → {by_name}"
    );
    let human = a.run(&["ratinglist", "find", &p.fide_id.to_string()]);
    assert!(human.status.success(), "{}", text(&human));
    assert!(text(&human).contains(&p.name), "{}", text(&human));

    // An unknown ID finds nobody.
    let unknown = a.json(&["ratinglist", "find", "4000000000"]);
    assert!(fide_ids(&unknown).is_empty());

    // Entering a player by FIDE ID only: the rest comes from the directory.
    let t = a.json(&["tournament", "create", "--name", "Directory Open"]);
    let tid = t["tournament_id"].as_str().unwrap().to_owned();
    let added = a.json(&["player", "add", &tid, "--fide-id", &p.fide_id.to_string()]);
    assert_eq!(added["name"], p.name.as_str(), "{added}");
    assert_eq!(added["federation"], p.federation.as_str(), "{added}");
    assert_eq!(added["rating_standard"], std_rating, "{added}");
    assert_eq!(added["fide_id"], u64::from(p.fide_id));

    // Explicit fields win over the directory.
    let q = players
        .iter()
        .find(|q| q.fide_id != p.fide_id && q.name.chars().count() <= 33)
        .unwrap();
    let explicit = a.json(&[
        "player",
        "add",
        &tid,
        "--fide-id",
        &q.fide_id.to_string(),
        "--rating",
        "1234",
        "--name",
        "Override, Name",
    ]);
    assert_eq!(explicit["rating_standard"], 1234);
    assert_eq!(explicit["name"], "Override, Name");
    assert_eq!(explicit["federation"], q.federation.as_str());

    // An ID not in the directory, without a name, is refused naming the field.
    let missing = a.run(&["player", "add", &tid, "--fide-id", "4000000000"]);
    assert_eq!(missing.status.code(), Some(1), "{}", text(&missing));
    assert!(text(&missing).contains("--fide-id"), "{}", text(&missing));

    // A file that is not a rating list leaves the directory as it was.
    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "this is not a rating list\n").unwrap();
    let refused = a.run(&["ratinglist", "import", junk.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(text(&refused).contains("data"), "{}", text(&refused));
    let still = a.json(&["ratinglist", "find", &p.fide_id.to_string()]);
    assert_eq!(fide_ids(&still), vec![u64::from(p.fide_id)]);

    // SIGKILL and restart: the stored list is read again.
    d.kill9();
    let _d = start(&a.data, a.port);
    let after = a.json(&["ratinglist", "find", &p.fide_id.to_string()]);
    assert_eq!(fide_ids(&after), vec![u64::from(p.fide_id)]);
    assert_eq!(after[0]["rating_standard"], std_rating);
    let by_name_after = a.json(&["ratinglist", "find", &surname, "--limit", "1000"]);
    assert_eq!(fide_ids(&by_name_after), fide_ids(&by_name));
}
