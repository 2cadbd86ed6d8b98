//! Reads TRF files given on the command line and prints the findings of `parse` + `validate`.
//! `cargo run -p arbiter-trf --example trf_check -- FILE…`

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        match trf::parse_and_validate(&bytes) {
            Ok(parsed) => {
                let verbatim = parsed
                    .doc
                    .lines
                    .iter()
                    .filter(|l| l.verbatim.is_some())
                    .count();
                println!(
                    "{path}: {} lines, {} players, {verbatim} kept verbatim, {} findings",
                    parsed.doc.lines.len(),
                    parsed.doc.players().count(),
                    parsed.findings.len()
                );
                for f in &parsed.findings {
                    println!("  {f}");
                }
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
