//! Re-pairs every round of small tournaments paired by the reference engine (bbpPairings
//! v6, FIDE Dutch 2026) and requires identical pairings, colours included; and the
//! reference engine's own regression cases. Data: tests/data (see PROVENANCE.md).

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(sub)
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("test data folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

fn check_all_rounds(dir: &str) {
    check_all_rounds_with(dir, &[]);
}

fn check_all_rounds_with(dir: &str, extra: &[&str]) {
    let list = files(&data(dir), "trf");
    assert!(!list.is_empty());
    for f in list {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
            .args(["--dutch", f.to_str().unwrap(), "-c"])
            .args(extra)
            .output()
            .expect("run arbiter-pairings");
        assert!(
            out.status.success(),
            "{}: rounds differ from the reference engine:\n{}\n{}",
            f.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn dutch_2026_every_round_identical_to_reference() {
    check_all_rounds("dutch-2026");
}

#[test]
fn dutch_2026_three_one_zero_scoring_every_round_identical() {
    check_all_rounds("dutch-2026-3-1-0");
}

#[test]
fn dutch_2017_edition_every_round_identical_to_reference_v5() {
    // Includes a round re-paired through the PPB / collapsed last bracket (2017 A.9).
    check_all_rounds_with("dutch-2017", &["--edition", "dutch-2017"]);
}

#[test]
fn dutch_2017_regression_every_round_identical_to_reference_v5() {
    // 2017 C.7 with the PAB of the last bracket (ADR swiss-049), the PAB in the CLB's PSD
    // (ADR swiss-050).
    check_all_rounds_with("dutch-2017-regression", &["--edition", "dutch-2017"]);
}

#[test]
fn reference_engine_regression_cases() {
    for input in files(&data("engine-regression"), "input") {
        let expected = input.with_extension("output.expected");
        let tmp = std::env::temp_dir().join(format!(
            "arbiter-pairings-{}-{}.out",
            std::process::id(),
            input.file_stem().unwrap().to_string_lossy()
        ));
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
            .args([
                "--dutch",
                input.to_str().unwrap(),
                "-p",
                tmp.to_str().unwrap(),
            ])
            .output()
            .expect("run arbiter-pairings");
        assert!(
            out.status.success(),
            "{}: {}",
            input.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let got = std::fs::read_to_string(&tmp).unwrap();
        let want = std::fs::read_to_string(&expected).unwrap();
        let _ = std::fs::remove_file(&tmp);
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(norm(&got), norm(&want), "{}", input.display());
    }
}

#[test]
fn invalid_input_exits_3_and_missing_file_5() {
    let tmp = std::env::temp_dir().join(format!("arbiter-pairings-bad-{}.trf", std::process::id()));
    std::fs::write(&tmp, "hello\nworld\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
        .args(["--dutch", tmp.to_str().unwrap(), "-p"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&tmp);
    assert_eq!(out.status.code(), Some(3));
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
        .args(["--dutch", "/nonexistent/x.trf", "-p"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
}

#[test]
#[ignore = "about 3 minutes in a debug build (180 players, 11 rounds); 5 s with --release: cargo test --release -p arbiter-pairings -- --ignored"]
fn reference_engine_checker_regression_case() {
    // bbpPairings issue 15: a file whose recorded rounds were not paired by the Dutch
    // rules; `-c` must list every round (CR-only line ends).
    for input in files(&data("checker-regression"), "input") {
        let expected = input.with_extension("output.expected");
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
            .args(["--dutch", input.to_str().unwrap(), "-c"])
            .output()
            .expect("run arbiter-pairings");
        assert_eq!(out.status.code(), Some(1), "{}", input.display());
        let want = std::fs::read_to_string(&expected).unwrap();
        let got = String::from_utf8_lossy(&out.stdout);
        let lines = |s: &str| {
            s.lines()
                .map(str::trim_end)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(lines(&got), lines(&want), "{}", input.display());
    }
}
