//! `arbiter-pairings --acceleration`: virtual points computed from the declared accelerated
//! system (swiss::acceleration) pair exactly like the same points written as `XXA` records;
//! a file with both is refused (exit 3). Data: tests/data/acceleration (see PROVENANCE.md):
//! 12 players, 9 rounds (C.04.7: GA = 2·⌈12/4⌉ = 6, +1 point in rounds 1–3, +½ in 4–5).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/acceleration")
        .join(name)
}

fn run(file: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
        .args(["--dutch", data(file).to_str().unwrap(), "-p"])
        .args(extra)
        .output()
        .expect("run arbiter-pairings")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn baku_round_one_pairs_group_a_and_group_b_apart() {
    let out = stdout(&run(
        "p12-r9-before-round1.trf",
        &["--acceleration", "baku"],
    ));
    assert_eq!(out, "6\n1 4\n5 2\n3 6\n7 10\n11 8\n9 12\n");
    // Without acceleration, round 1 is the usual top half against bottom half.
    let plain = stdout(&run("p12-r9-before-round1.trf", &[]));
    assert_eq!(plain, "6\n1 7\n8 2\n3 9\n10 4\n5 11\n12 6\n");
}

#[test]
fn computed_baku_points_equal_explicit_xxa_records() {
    for stem in ["p12-r9-before-round1", "p12-r9-before-round4"] {
        let computed = stdout(&run(&format!("{stem}.trf"), &["--acceleration", "baku"]));
        let explicit = stdout(&run(&format!("{stem}-xxa.trf"), &[]));
        assert_eq!(computed, explicit, "{stem}");
    }
}

#[test]
fn xxa_records_and_the_flag_together_exit_3_both_given() {
    let o = run("p12-r9-before-round4-xxa.trf", &["--acceleration", "baku"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("both given"));
}

#[test]
fn degressive_groups_outside_25_to_50_percent_exit_3() {
    // Usual limits 2000/1600: 7 of 12 players in group A (> 50%).
    let o = run(
        "p12-r9-before-round4.trf",
        &["--acceleration", "degressive"],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("group A has 7 of the 12"));
    // Limits 2100/1900: A = 5, B = 3, C = 4.
    let o = run(
        "p12-r9-before-round4.trf",
        &["--acceleration", "degressive:2100:1900"],
    );
    assert_eq!(stdout(&o).lines().next(), Some("6"));
}

#[test]
fn unknown_method_is_a_usage_error() {
    let o = run("p12-r9-before-round1.trf", &["--acceleration", "swift"]);
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn haley_and_baku_2016_pair_round_one() {
    // Haley: A ∪ B = 2·3 = 6 players with one fictitious point: same two groups.
    let out = stdout(&run(
        "p12-r9-before-round1.trf",
        &["--acceleration", "haley"],
    ));
    assert_eq!(out, "6\n1 4\n5 2\n3 6\n7 10\n11 8\n9 12\n");
    let out = stdout(&run(
        "p12-r9-before-round1.trf",
        &["--acceleration", "baku-2016", "--edition", "dutch-2017"],
    ));
    assert_eq!(out, "6\n1 4\n5 2\n3 6\n7 10\n11 8\n9 12\n");
}
