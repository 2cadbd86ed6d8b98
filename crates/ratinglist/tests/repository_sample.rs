//! The small starting list in `docs/samples` (the README's example, see its PROVENANCE.md):
//! the TXT and the XML download layouts read to the same 40 players.
use ratinglist::{ListPlayer, RatingKind, read_list};

fn read(path: &str) -> Vec<ListPlayer> {
    let bytes = std::fs::read(format!(
        "{}/../../docs/samples/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    read_list(&bytes[..])
        .expect("header")
        .map(|r| r.expect("record"))
        .collect()
}

#[test]
fn the_sample_list_reads_the_same_in_txt_and_xml() {
    let txt = read("players_list_foa.txt");
    let xml = read("players_list_xml_foa.xml");
    assert_eq!(txt.len(), 40);
    assert_eq!(txt, xml);
    assert!(txt.iter().all(|p| p.rating(RatingKind::Standard).is_some()));
    let csv = std::fs::read_to_string(format!(
        "{}/../../docs/samples/weekend-open-players.csv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    for p in &txt {
        assert!(
            csv.contains(&format!(",{},", p.fide_id)),
            "{} is in the players' CSV",
            p.name
        );
    }
}
