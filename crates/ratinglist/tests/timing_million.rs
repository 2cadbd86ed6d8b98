//! Timing of the target workload: parse + index 1,000,000 players (TXT, then XML), generated
//! in memory. Ignored by default; run in release:
//!
//! `cargo test -p arbiter-ratinglist --release --test timing_million -- --ignored --nocapture`
//!
//! The target is "well under 20 s" for TXT on the project machine.

use std::time::Instant;

use ratinglist::{
    PlayerDirectory, TextEncoding, TxtLayout, XmlLayout, generate_list, read_list, write_txt,
    write_xml,
};

const N: usize = 1_000_000;

fn parse_and_index(label: &str, bytes: &[u8]) -> f64 {
    let start = Instant::now();
    let players: Vec<_> = read_list(bytes).unwrap().map(Result::unwrap).collect();
    let parse = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let (dir, _) = PlayerDirectory::from_players(&players).unwrap();
    let index = start.elapsed().as_secs_f64();
    drop((dir, players));
    println!("{label}: parse only {parse:.2} s, index only {index:.2} s");
    let start = Instant::now();
    let reader = read_list(bytes).unwrap();
    let (dir, report) = PlayerDirectory::from_list(reader).unwrap();
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(report.error_count, 0, "{:?}", report.first_errors);
    assert_eq!(dir.len(), N);
    assert!(dir.by_id(100_000).is_some());
    assert!(dir.search_name("kari").next().is_some());
    println!(
        "{label}: {N} players, {:.1} MB, parse + index {secs:.2} s ({:.0} players/s), directory {:.1} MB",
        bytes.len() as f64 / 1e6,
        N as f64 / secs,
        dir.heap_bytes() as f64 / 1e6
    );
    secs
}

#[test]
#[ignore = "timing: run in release with --ignored --nocapture"]
fn parse_and_index_one_million_players() {
    let t = Instant::now();
    let mut txt = Vec::with_capacity(N * 164);
    write_txt(
        &mut txt,
        generate_list(N, 2026),
        &TxtLayout::CombinedFoa,
        TextEncoding::Utf8,
    )
    .unwrap();
    println!("generate + write TXT: {:.2} s", t.elapsed().as_secs_f64());
    let txt_secs = parse_and_index("TXT", &txt);
    drop(txt);

    let t = Instant::now();
    let mut xml = Vec::with_capacity(N * 520);
    write_xml(
        &mut xml,
        generate_list(N, 2026),
        XmlLayout::Combined,
        TextEncoding::Utf8,
    )
    .unwrap();
    println!("generate + write XML: {:.2} s", t.elapsed().as_secs_f64());
    parse_and_index("XML", &xml);

    assert!(txt_secs < 20.0, "TXT target missed: {txt_secs:.2} s");
}
