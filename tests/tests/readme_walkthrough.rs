//! Issue 42's acceptance: the README's weekend-open walk-through, run as written.
//!
//! The block between `<!-- walkthrough: begin` and `<!-- walkthrough: end -->` of README.md
//! runs in bash (`set -euo pipefail`: every command must succeed) against a real
//! `arbiterd`, with `arbiter` and `arbiter-pairings` on `PATH` and the repository's
//! `docs/` beside it: a 7-round open of 41 players entered from a CSV, played from result
//! sheets, printed, exported, checked and rated to a published list. Then the arbiter's
//! human outputs are checked: the round 1 pairing lists every board with both names, the
//! bye and the absentees are listed with their kind, the history has no debug dumps, the
//! export passes `trf check` and `arbiter-pairings -c` clean, the list is published.
use std::path::Path;

use arbiter_tests::{Arbiter, binary, output_text};

/// The walk-through's shell block of README.md.
fn walkthrough() -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let begin = readme
        .find("<!-- walkthrough: begin")
        .expect("README.md has the walk-through's begin marker");
    let end = readme[begin..]
        .find("<!-- walkthrough: end -->")
        .map(|e| begin + e)
        .expect("README.md has the walk-through's end marker");
    let block = &readme[begin..end];
    let open = block.find("```sh\n").expect("a ```sh block") + "```sh\n".len();
    let close = block[open..].find("```").expect("the block's end") + open;
    block[open..close].to_owned()
}

#[test]
fn the_readme_walkthrough_runs_as_written_from_a_csv_to_the_published_list() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _d) = Arbiter::embedded(dir.path(), |_| {});
    // The user's working directory: the repository's docs/ beside what the block writes.
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    std::os::unix::fs::symlink(docs.canonicalize().unwrap(), work.join("docs")).unwrap();
    let bin = binary("arbiter");
    let bins = bin.parent().unwrap();
    let _ = binary("arbiter-pairings");
    let path = format!(
        "{}:{}",
        bins.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = format!("set -euo pipefail\n{}", walkthrough());
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(&work)
        .env("PATH", path)
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_DATA_DIR", &a.data)
        .env_remove("ARBITER_TOKEN")
        .output()
        .unwrap();
    let out = output_text(&o);
    assert!(
        o.status.success(),
        "the README's walk-through failed:\n{out}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);

    // The walk-through's tournament is the CLI's default now.
    let players = a.json(&["player", "list"]);
    let players = players.as_array().unwrap();
    assert_eq!(players.len(), 41, "{players:?}");
    let name_of = |tpn: u64| -> String {
        players
            .iter()
            .find(|p| p["pairing_number"].as_u64() == Some(tpn))
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .unwrap()
    };

    // Round 1: every board with both names; the pairing-allocated bye listed.
    let shown = a.ok(&["round", "show", "1"]);
    let r1 = a.json(&["round", "show", "1"]);
    let boards = r1["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 20, "{r1}");
    for b in boards {
        let line = shown
            .lines()
            .find(|l| {
                l.split_whitespace().next() == Some(&b["board"].as_u64().unwrap().to_string())
            })
            .unwrap_or_else(|| panic!("board {} not printed:\n{shown}", b["board"]));
        for side in ["white_tpn", "black_tpn"] {
            let name = name_of(b[side].as_u64().unwrap());
            assert!(line.contains(&name), "board line without {name}: {line}");
        }
    }
    let bye = name_of(r1["bye_tpn"].as_u64().unwrap());
    assert!(
        shown
            .lines()
            .any(|l| l.contains(&bye) && l.contains("pairing-allocated bye")),
        "the bye of round 1 listed with its kind:\n{shown}"
    );
    // Round 3: the half-point bye asked for; round 5: the withdrawn player absent.
    let r3 = a.ok(&["round", "show", "3"]);
    assert!(
        r3.lines()
            .any(|l| l.contains(&name_of(12)) && l.contains("half-point bye")),
        "{r3}"
    );
    let r5 = a.ok(&["round", "show", "5"]);
    assert!(
        r5.lines()
            .any(|l| l.contains(&name_of(17)) && l.contains("withdrawn")),
        "{r5}"
    );
    // The printed pages and the wall list were written.
    for f in [
        "round-1.html",
        "round-7.html",
        "standings.html",
        "crosstable.csv",
    ] {
        let text = std::fs::read_to_string(work.join(f)).unwrap();
        assert!(text.contains(&name_of(1)), "{f} names the players");
    }
    let wall = std::fs::read_to_string(work.join("round-1-wall.txt")).unwrap();
    assert!(wall.contains(&name_of(41)), "{wall}");

    // The history is words, not debug dumps.
    let history = std::fs::read_to_string(work.join("history.txt")).unwrap();
    assert!(history.lines().count() > 100, "{history}");
    assert!(
        !history.contains('{') && !history.contains("Some("),
        "the history has debug dumps:\n{history}"
    );
    // The export passes the checker and the engine's check clean (the block ran both; a
    // finding would show here).
    assert!(
        stdout.contains("0 error(s), 0 warning(s), 0 info"),
        "trf check of the export:\n{out}"
    );
    // The close of the last round said where the tournament went; the list is published.
    assert!(
        stdout.contains("submitted for rating, period 2026-11"),
        "{out}"
    );
    let status = a.ok(&["rating", "status", "2026-11"]);
    assert!(status.to_lowercase().contains("published"), "{status}");
}
