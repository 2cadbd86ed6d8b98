//! The random tournament generator (`-g`), its acceptance by the checker (`-c`), and the
//! check-list (`-l`), through the real binary.
//!
//! Acceptance (FIDE C.04.A endorsement style): every generated tournament re-checks with
//! no difference; a hand-broken round is reported.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter-pairings"))
}

fn tmp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "arbiter-pairings-gen-{}-{name}",
        std::process::id()
    ))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run arbiter-pairings")
}

/// Generates with `config` (written to a file) and `seed`; returns the TRF text.
fn generate(name: &str, config: &str, seed: u64, extra: &[&str]) -> String {
    let cfg = tmp(&format!("{name}.cfg"));
    let out = tmp(&format!("{name}.trf"));
    std::fs::write(&cfg, config).unwrap();
    let seed = seed.to_string();
    let mut args = vec![
        "--dutch",
        "-g",
        cfg.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-s",
        &seed,
    ];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(
        o.status.success(),
        "{name}: generator failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&cfg);
    let _ = std::fs::remove_file(&out);
    text
}

/// Runs `-c` on `text`; returns (exit code, stdout, stderr).
fn check(name: &str, text: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let f = tmp(&format!("{name}-check.trf"));
    std::fs::write(&f, text).unwrap();
    let mut args = vec!["--dutch", f.to_str().unwrap(), "-c"];
    args.extend_from_slice(extra);
    let o = run(&args);
    let _ = std::fs::remove_file(&f);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn generated_tournaments_recheck_with_no_difference() {
    let cases: &[(&str, &str, u64, &[&str])] = &[
        ("p7", "PlayersNumber=7\nRoundsNumber=5\n", 3, &[]),
        ("p16", "PlayersNumber=16\nRoundsNumber=7\n", 11, &[]),
        (
            "p31",
            "PlayersNumber=31\nRoundsNumber=9\nForfeitRate=10\nRetiredRate=8\nHalfPointByeRate=15\n",
            5,
            &[],
        ),
        (
            "p60",
            "PlayersNumber=60\nRoundsNumber=8\nDrawPercentage=50\n",
            42,
            &[],
        ),
        (
            "three-one-zero",
            "PlayersNumber=25\nRoundsNumber=7\nPointsForWin=3\nPointsForDraw=1\nPointsForLoss=0\n",
            9,
            &[],
        ),
        (
            "dutch-2017",
            "PlayersNumber=21\nRoundsNumber=7\nForfeitRate=8\n",
            17,
            &["--edition", "dutch-2017"],
        ),
    ];
    for &(name, cfg, seed, extra) in cases {
        let text = generate(name, cfg, seed, extra);
        let (code, out, err) = check(name, &text, &[]);
        assert_eq!(code, Some(0), "{name}: -c found differences:\n{out}\n{err}");
        assert!(err.contains("different 0"), "{name}: {err}");
    }
}

#[test]
fn generated_file_has_headers_rounds_and_scoring() {
    let text = generate(
        "headers",
        "PlayersNumber=9\nRoundsNumber=4\nPointsForWin=3.0\nPointsForDraw=1.0\n",
        1,
        &[],
    );
    for code in [
        "012 ",
        "042 ",
        "052 ",
        "062 9",
        "092 FIDE_DUTCH_2025",
        "XXR 4",
        "XXC white1",
    ] {
        assert!(text.lines().any(|l| l.starts_with(code)), "{code}:\n{text}");
    }
    let xxs = text.lines().find(|l| l.starts_with("XXS")).expect("XXS");
    assert!(xxs.contains("W=3.0") && xxs.contains("D=1.0"), "{xxs}");
    let players: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 9);
    // 4 round blocks of 10 columns after column 91.
    for p in &players {
        assert!(p.len() > 91 + 30 && p.len() <= 91 + 40, "{p}");
    }
    // 9 players: one PAB each round.
    assert_eq!(text.matches("0000 - U").count(), 4);
    // Default points: no XXS.
    let plain = generate(
        "headers-default",
        "PlayersNumber=8\nRoundsNumber=3\n",
        1,
        &[],
    );
    assert!(!plain.contains("XXS"));
}

#[test]
fn same_seed_same_bytes_other_seed_other_tournament() {
    let cfg = "PlayersNumber=20\nRoundsNumber=6\n";
    let a = generate("seed-a", cfg, 1234, &[]);
    let b = generate("seed-b", cfg, 1234, &[]);
    let c = generate("seed-c", cfg, 1235, &[]);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn default_config_without_file_and_stdout_output() {
    let o = run(&["--dutch", "-g", "-s", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("001")).count(), 30);
    assert!(text.contains("XXR 9"));
    let (code, out, err) = check("default", &text, &[]);
    assert_eq!(code, Some(0), "{out}\n{err}");
}

/// Column (0-based) of the opponent field of round `r` (TRF columns 92–95 for round 1).
fn opp_col(r: usize) -> usize {
    91 + 10 * (r - 1)
}

fn block(line: &str, r: usize) -> (u16, char, char) {
    let c = opp_col(r);
    let opp = line[c..c + 4].trim().parse().unwrap_or(0);
    let b = line.as_bytes();
    (opp, b[c + 5] as char, b[c + 7] as char)
}

#[test]
fn a_hand_broken_round_is_reported_by_the_checker() {
    let text = generate(
        "broken",
        "PlayersNumber=20\nRoundsNumber=6\nForfeitRate=0\n",
        77,
        &[],
    );
    let r = 4;
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let idx = |tpn: u16, lines: &[String]| {
        lines
            .iter()
            .position(|l| l.starts_with("001") && l[4..8].trim().parse::<u16>() == Ok(tpn))
            .unwrap()
    };
    // Two boards (a white vs b, c white vs d) whose black players scored the same, so that
    // swapping the black players keeps every score: a–d and c–b instead.
    let boards: Vec<(u16, u16, char)> = lines
        .iter()
        .filter(|l| l.starts_with("001"))
        .filter_map(|l| {
            let (o, col, res) = block(l, r);
            let me: u16 = l[4..8].trim().parse().ok()?;
            (col == 'w' && o > 0).then_some((me, o, res))
        })
        .collect();
    let mut found = None;
    'outer: for (i, &(a, b, ra)) in boards.iter().enumerate() {
        for &(c, d, rc) in &boards[i + 1..] {
            if ra == rc {
                found = Some((a, b, c, d));
                break 'outer;
            }
        }
    }
    let (a, b, c, d) = found.expect("two boards with the same result");
    let set_opp = |lines: &mut Vec<String>, who: u16, opp: u16| {
        let k = idx(who, lines);
        let col = opp_col(r);
        lines[k].replace_range(col..col + 4, &format!("{opp:>4}"));
    };
    set_opp(&mut lines, a, d);
    set_opp(&mut lines, d, a);
    set_opp(&mut lines, c, b);
    set_opp(&mut lines, b, c);
    let broken = lines.join("\n") + "\n";
    let (code, out, err) = check("broken", &broken, &[]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.contains(&format!("Round #{r}")),
        "round {r} not reported:\n{out}\n{err}"
    );
    // The rounds before are untouched.
    for earlier in 1..r {
        assert!(!out.contains(&format!("Round #{earlier}\n")), "{out}");
    }
}

#[test]
fn config_errors_name_file_line_and_key() {
    let cfg = tmp("bad.cfg");
    std::fs::write(&cfg, "PlayersNumber=10\nDrawPercentage=lots\n").unwrap();
    let o = run(&["--dutch", "-g", cfg.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains(&format!("{}:2: DrawPercentage", cfg.display())),
        "{err}"
    );
    std::fs::write(&cfg, "PlayersNumber=8\nRoundsNumber=3\nFancyKey=1\n").unwrap();
    let o = run(&["--dutch", "-g", cfg.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    assert!(err.contains("warning") && err.contains("FancyKey"), "{err}");
    let _ = std::fs::remove_file(&cfg);
    let o = run(&["--dutch", "-g", "/nonexistent/generator.cfg"]);
    assert_eq!(o.status.code(), Some(5));
}

#[test]
fn checklist_lists_every_player_with_this_rounds_pairing() {
    let text = generate(
        "cl",
        "PlayersNumber=11\nRoundsNumber=5\nRetiredRate=0\nHalfPointByeRate=0\n",
        8,
        &[],
    );
    // Cut the tournament after round 3: keep 3 round blocks.
    let cut: String = text
        .lines()
        .map(|l| {
            if l.starts_with("001") {
                l[..opp_col(4)].trim_end().to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    // The points column stays as in the full file: rewrite it from the results.
    let f = tmp("cl-in.trf");
    let list = tmp("cl-list.txt");
    let mut lines = Vec::new();
    for l in cut.lines() {
        if l.starts_with("001") {
            let mut pts = 0u32;
            for r in 1..=3 {
                let (_, _, res) = block(l, r);
                pts += match res {
                    '1' | '+' | 'U' | 'F' => 10,
                    '=' | 'H' => 5,
                    _ => 0,
                };
            }
            let mut l = l.to_string();
            l.replace_range(80..84, &format!("{:>2}.{}", pts / 10, pts % 10));
            lines.push(l);
        } else {
            lines.push(l.to_string());
        }
    }
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    let o = run(&[
        "--dutch",
        f.to_str().unwrap(),
        "-p",
        "-l",
        list.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pairing = String::from_utf8(o.stdout).unwrap();
    let cl = std::fs::read_to_string(&list).unwrap();
    let _ = std::fs::remove_file(&f);
    let _ = std::fs::remove_file(&list);
    let rows: Vec<&str> = cl.lines().skip(2).collect();
    assert!(cl.starts_with("Check-list round 4"), "{cl}");
    assert_eq!(rows.len(), 11, "{cl}");
    // Every board of the pairing appears on both players' rows, with their colours.
    for board in pairing.lines().skip(1) {
        let v: Vec<u32> = board
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let row = |tpn: u32| {
            rows.iter()
                .find(|r| r.split_whitespace().next() == Some(&tpn.to_string()))
                .unwrap()
        };
        if v[1] == 0 {
            assert!(row(v[0]).ends_with("PAB"), "{cl}");
        } else {
            assert!(row(v[0]).ends_with(&format!("W {}", v[1])), "{cl}");
            assert!(row(v[1]).ends_with(&format!("B {}", v[0])), "{cl}");
        }
    }
    // Three rounds played: every player has a preference of some strength or none.
    assert!(rows.iter().all(|r| {
        ["absolute", "strong", "mild", "none"]
            .iter()
            .any(|s| r.contains(s))
    }));
}

/// `-p` on `input` with `extra` options into a temporary file: (the pairing file, stderr);
/// the run must succeed.
fn pair_file(input: &std::path::Path, name: &str, extra: &[&str]) -> (String, String) {
    let out = tmp(name);
    let mut args = vec![
        "--dutch",
        input.to_str().unwrap(),
        "-p",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = run(&args);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    (text, stderr)
}

/// Issue 9: `--reference-path` pairs with the plain path of the engine through the binary,
/// and gives the same file as the default (fast) path.
#[test]
fn reference_path_flag_gives_the_same_pairing() {
    let text = generate("refpath", "PlayersNumber=40\nRoundsNumber=5\n", 3, &[]);
    let input = tmp("refpath-in.trf");
    std::fs::write(&input, text).unwrap();
    let (fast, _) = pair_file(&input, "refpath-fast.txt", &[]);
    let (plain, _) = pair_file(&input, "refpath-plain.txt", &["--reference-path"]);
    let _ = std::fs::remove_file(&input);
    assert!(fast.lines().count() > 10, "{fast}");
    assert_eq!(fast, plain);
}

/// Issue 9: a long pairing reports its progress on stderr. `--progress-after 0` starts the
/// lines at once (the default waits 2 s), so the first line is the first bracket with every
/// player still to pair; the pairing itself is unchanged.
#[test]
fn progress_lines_name_the_bracket_and_the_players_left() {
    let text = generate("progress", "PlayersNumber=40\nRoundsNumber=5\n", 4, &[]);
    let input = tmp("progress-in.trf");
    std::fs::write(&input, text).unwrap();
    let (quiet, no_lines) = pair_file(&input, "progress-quiet.txt", &[]);
    let (shown, lines) = pair_file(&input, "progress-shown.txt", &["--progress-after", "0"]);
    let _ = std::fs::remove_file(&input);
    assert_eq!(quiet, shown);
    assert!(
        no_lines.is_empty(),
        "a short pairing prints nothing: {no_lines}"
    );
    let first = lines.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("pairing: bracket 1 (") && first.contains(", 40 of 40 players left, "),
        "{lines}"
    );
    let bad = run(&["--dutch", "x.trf", "-p", "--progress-after", "-1"]);
    assert_eq!(bad.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--progress-after needs a number"));
}
