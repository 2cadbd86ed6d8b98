//! Hand-written samples of every layout (tests/data, see PROVENANCE.md), read field by field.

use ratinglist::{
    Flags, ListFormat, ListPlayer, RatingEntry, RatingKind, ReadOptions, Sex, Title, TxtLayout,
    read_list, read_list_with,
};

fn entry(rating: u16, games: u16, k: u8) -> Option<RatingEntry> {
    Some(RatingEntry {
        rating,
        games,
        k: Some(k),
    })
}

fn carlsen() -> ListPlayer {
    ListPlayer {
        fide_id: 1503014,
        name: "Carlsen, Magnus".into(),
        federation: "NOR".into(),
        sex: Some(Sex::Male),
        title: Some(Title::GM),
        women_title: None,
        other_titles: vec![],
        foa_title: None,
        standard: entry(2837, 0, 10),
        rapid: entry(2825, 12, 10),
        blitz: entry(2890, 0, 10),
        birth_year: Some(1990),
        flags: Flags::default(),
    }
}

fn muller(name: &str) -> ListPlayer {
    ListPlayer {
        fide_id: 4100042,
        name: name.into(),
        federation: "GER".into(),
        sex: Some(Sex::Female),
        title: Some(Title::WGM),
        women_title: Some(Title::WGM),
        other_titles: vec!["IA".into(), "FT".into()],
        foa_title: Some("AIM".into()),
        standard: entry(2301, 5, 20),
        rapid: None,
        blitz: entry(2250, 0, 20),
        birth_year: Some(1995),
        flags: Flags {
            inactive: true,
            woman: true,
            other: String::new(),
        },
    }
}

fn nobody() -> ListPlayer {
    let mut p = ListPlayer::new(13300032, "Nobody, Unrated");
    p.federation = "IND".into();
    p.sex = Some(Sex::Male);
    p.flags.inactive = true;
    p
}

fn magistr() -> ListPlayer {
    let mut p = ListPlayer::new(2000019, "Magistr");
    p.federation = "FID".into();
    p.sex = Some(Sex::Male);
    p.standard = entry(1401, 9, 40);
    p.birth_year = Some(2011);
    p.flags.woman = true;
    p
}

fn read_all(bytes: &[u8]) -> Vec<ListPlayer> {
    read_list(bytes)
        .expect("header")
        .map(|r| r.expect("record"))
        .collect()
}

#[test]
fn combined_foa_txt_every_field() {
    let data = include_bytes!("data/combined_foa_sample.txt");
    let reader = read_list(&data[..]).unwrap();
    assert_eq!(reader.format(), ListFormat::Txt);
    assert_eq!(
        reader.txt_header().unwrap().layout(),
        Some(&TxtLayout::CombinedFoa)
    );
    let players: Vec<_> = reader.map(Result::unwrap).collect();
    assert_eq!(
        players,
        vec![
            carlsen(),
            muller("Müller-Świątek, Zoë"),
            nobody(),
            magistr()
        ]
    );
}

#[test]
fn combined_foa_txt_in_latin1() {
    let data = include_bytes!("data/combined_foa_latin1.txt");
    assert!(String::from_utf8(data.to_vec()).is_err(), "really Latin-1");
    assert_eq!(
        read_all(data),
        vec![carlsen(), muller("Müller, Zoë"), nobody(), magistr()]
    );
}

#[test]
fn legacy_combined_txt_without_foa_column() {
    let data = include_bytes!("data/combined_legacy_sample.txt");
    let reader = read_list(&data[..]).unwrap();
    assert_eq!(
        reader.txt_header().unwrap().layout(),
        Some(&TxtLayout::CombinedLegacy)
    );
    let mut m = muller("Müller-Świątek, Zoë");
    m.foa_title = None;
    assert_eq!(
        reader.map(Result::unwrap).collect::<Vec<_>>(),
        vec![carlsen(), m]
    );
}

#[test]
fn single_standard_list_month_column_lf_and_stripped_trailing_blanks() {
    let data = include_bytes!("data/standard_oct26_single_sample.txt");
    let reader = read_list(&data[..]).unwrap();
    assert_eq!(
        reader.txt_header().unwrap().layout(),
        Some(&TxtLayout::SingleList {
            kind: RatingKind::Standard,
            month: "OCT26".into()
        })
    );
    let mut c = carlsen();
    c.rapid = None;
    c.blitz = None;
    let mut m = muller("Müller, Zoë");
    m.blitz = None;
    assert_eq!(reader.map(Result::unwrap).collect::<Vec<_>>(), vec![c, m]);
}

#[test]
fn single_list_read_as_rapid_when_told() {
    let data = include_bytes!("data/standard_oct26_single_sample.txt");
    let options = ReadOptions {
        plain_rating_kind: RatingKind::Rapid,
    };
    let players: Vec<_> = read_list_with(&data[..], options)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(players[0].standard, None);
    assert_eq!(players[0].rapid, entry(2837, 0, 10));
}

#[test]
fn combined_xml_every_field_tolerant_of_missing_unknown_and_reordered_elements() {
    let data = include_bytes!("data/combined_foa_sample.xml");
    let reader = read_list(&data[..]).unwrap();
    assert_eq!(reader.format(), ListFormat::Xml);
    assert_eq!(
        reader.map(Result::unwrap).collect::<Vec<_>>(),
        vec![
            carlsen(),
            muller("Müller-Świątek, Zoë"),
            nobody(),
            magistr()
        ]
    );
}

#[test]
fn bytes_consumed_reaches_the_file_size() {
    for data in [
        &include_bytes!("data/combined_foa_sample.txt")[..],
        &include_bytes!("data/combined_foa_sample.xml")[..],
    ] {
        let mut reader = read_list(data).unwrap();
        // The TXT header has been read; nothing of the XML yet.
        let mut last = reader.bytes_consumed();
        assert_eq!(last > 0, reader.format() == ListFormat::Txt);
        while let Some(item) = reader.next() {
            item.unwrap();
            assert!(
                reader.bytes_consumed() > last,
                "progress after every record"
            );
            last = reader.bytes_consumed();
        }
        assert_eq!(reader.bytes_consumed(), data.len() as u64);
    }
}

#[test]
fn utf8_bom_is_skipped() {
    let mut data = vec![0xEF, 0xBB, 0xBF];
    data.extend_from_slice(include_bytes!("data/combined_foa_sample.txt"));
    assert_eq!(read_all(&data).len(), 4);
    let mut data = vec![0xEF, 0xBB, 0xBF];
    data.extend_from_slice(include_bytes!("data/combined_foa_sample.xml"));
    assert_eq!(read_all(&data).len(), 4);
}
