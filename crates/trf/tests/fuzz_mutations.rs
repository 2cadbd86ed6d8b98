//! Bounded, deterministic fuzzing: 20,480 mutations of the real fixtures (truncation, byte
//! flips, inserted garbage, deleted/duplicated lines, very long lines). For every input:
//! no panic; when it parses, validation and both writers run, and parse → write → parse gives
//! the same document (the lossless property holds for damaged files too).

use std::path::Path;
use trf::{TrfVersion, parse, validate, write};

/// xorshift64*: a tiny deterministic generator (no dependency, same sequence everywhere).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    for dir in ["trf", "pairing", "engine-regression"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "trf" || e == "input"))
            .collect();
        paths.sort();
        for p in paths {
            out.push(std::fs::read(p).expect("read"));
        }
    }
    out
}

/// A fixture with the byte offsets where its lines start.
struct Fixture {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

impl Fixture {
    fn new(bytes: Vec<u8>) -> Fixture {
        let starts = std::iter::once(0)
            .chain(
                bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n' || **b == b'\r')
                    .map(|(i, _)| i + 1),
            )
            .filter(|&i| i < bytes.len())
            .collect();
        Fixture { bytes, starts }
    }

    /// The first line plus a window of at most `max_lines` lines starting at a random line.
    fn window(&self, rng: &mut Rng, max_lines: usize) -> Vec<u8> {
        if self.starts.is_empty() {
            return self.bytes.clone();
        }
        let first = rng.below(self.starts.len());
        let from = self.starts[first];
        let end = self
            .starts
            .get(first + 1 + rng.below(max_lines))
            .copied()
            .unwrap_or(self.bytes.len());
        // Keep the first line so that most windows still look like TRF.
        let mut out =
            self.bytes[..self.starts.get(1).copied().unwrap_or(self.bytes.len())].to_vec();
        out.extend_from_slice(&self.bytes[from..end.max(from)]);
        out
    }
}

const GARBAGE: &[u8] =
    b" 0123456789.=+-wbWBDLHFUZ\r\n\t\xC3\xA9\xE9\xFF\x00#XXRXXSBBW001240250260299ABC";

fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    let len = input.len();
    match rng.below(9) {
        0 => input.truncate(rng.below(len + 1)),
        1 | 2 => {
            for _ in 0..1 + rng.below(8) {
                if !input.is_empty() {
                    let i = rng.below(input.len());
                    input[i] = GARBAGE[rng.below(GARBAGE.len())];
                }
            }
        }
        3 => {
            let at = rng.below(len + 1);
            let n = 1 + rng.below(40);
            let junk: Vec<u8> = (0..n).map(|_| GARBAGE[rng.below(GARBAGE.len())]).collect();
            input.splice(at..at, junk);
        }
        4 => {
            // Random bytes anywhere.
            for _ in 0..1 + rng.below(4) {
                if !input.is_empty() {
                    let i = rng.below(input.len());
                    input[i] = (rng.next() & 0xFF) as u8;
                }
            }
        }
        5 => {
            // A very long line (a player record with thousands of round blocks, or noise).
            let at = rng.below(len + 1);
            let mut long = b"\n001    1      Long, Line".to_vec();
            // Mostly a little past the usual width, sometimes hundreds of rounds.
            let blocks = if rng.below(8) == 0 {
                100 + rng.below(300)
            } else {
                5 + rng.below(30)
            };
            long.resize(89 + 1, b' ');
            for k in 0..blocks {
                long.extend_from_slice(
                    format!(
                        "  {:>4} {} {}",
                        k % 9999,
                        ['w', 'b', '-'][k % 3],
                        ['1', '0', '='][k % 3]
                    )
                    .as_bytes(),
                );
            }
            long.push(b'\n');
            input.splice(at..at, long);
        }
        6 => {
            // Delete a byte range.
            if len > 0 {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(200)).min(len);
                input.drain(a..b);
            }
        }
        7 => {
            // Duplicate a range (duplicated lines, repeated records).
            if len > 0 {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(300)).min(len);
                let copy = input[a..b].to_vec();
                let at = rng.below(input.len() + 1);
                input.splice(at..at, copy);
            }
        }
        _ => {
            // Change line endings to CR only or CRLF.
            let to: &[u8] = if rng.below(2) == 0 { b"\r" } else { b"\r\n" };
            let mut out = Vec::with_capacity(input.len());
            for &b in input.iter() {
                if b == b'\n' {
                    out.extend_from_slice(to);
                } else {
                    out.push(b);
                }
            }
            *input = out;
        }
    }
}

#[test]
fn mutated_real_files_never_panic_and_still_round_trip() {
    let files: Vec<Fixture> = fixtures().into_iter().map(Fixture::new).collect();
    assert!(!files.is_empty());
    let mut rng = Rng(0x5EED_CAFE_F00D_1234);
    let mut parsed_ok = 0usize;
    const CASES: usize = 20_480;
    for case in 0..CASES {
        let file = &files[rng.below(files.len())];
        let mut input = file.window(&mut rng, 6);
        for _ in 0..1 + rng.below(3) {
            mutate(&mut rng, &mut input);
        }
        let Ok(parsed) = parse(&input) else { continue };
        parsed_ok += 1;
        let _ = validate(&parsed.doc);
        let out = write(&parsed.doc, TrfVersion::Trf26);
        let again = parse(out.as_bytes())
            .unwrap_or_else(|e| panic!("case {case}: written output does not parse: {e}"));
        assert!(
            again.doc == parsed.doc,
            "case {case}: parse → write → parse changed the document\ninput: {:?}",
            String::from_utf8_lossy(&input)
        );
        assert_eq!(
            write(&again.doc, TrfVersion::Trf26),
            out,
            "case {case}: writing is not idempotent"
        );
    }
    assert!(
        parsed_ok > CASES / 2,
        "only {parsed_ok} of {CASES} mutated inputs parsed"
    );
}

#[test]
fn hopeless_inputs_are_errors_not_panics() {
    assert_eq!(parse(b""), Err(trf::TrfError::Empty));
    assert_eq!(parse(b"\r\n \n\t\n"), Err(trf::TrfError::Empty));
    assert!(matches!(
        parse(b"%PDF-1.7\n\xff\xfe binary"),
        Err(trf::TrfError::NotTrf { .. })
    ));
    assert!(matches!(
        parse(b"{\"json\": true}"),
        Err(trf::TrfError::NotTrf { .. })
    ));
}

#[test]
fn huge_lines_and_huge_numbers_do_not_panic() {
    let mut line = String::from("001    1      Huge");
    line.push_str(&" ".repeat(80));
    for k in 0..100_000 {
        line.push_str(&format!("  {:>4} w 1", k % 10_000));
    }
    let text =
        format!("012 x\n{line}\nXXR 99999999999999999999\n250 99999999999999 1 99999 1 65535\n");
    let parsed = parse(text.as_bytes()).expect("parses");
    assert!(
        validate(&parsed.doc)
            .iter()
            .any(|f| f.message.contains("past column 9999"))
    );
    let out = write(&parsed.doc, TrfVersion::Trf26);
    assert_eq!(parse(out.as_bytes()).expect("reparse").doc, parsed.doc);
    let _ = trf::accelerations(&parsed.doc);
    let _ = trf::known_byes(&parsed.doc);
}
