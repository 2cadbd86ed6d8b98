//! Write → read round trips (both formats, every layout and encoding), the generator's
//! determinism, and proptest properties: no panic on arbitrary bytes, round trip of
//! arbitrary players.

use proptest::prelude::*;
use ratinglist::{
    Flags, ListPlayer, RatingEntry, RatingKind, ReadOptions, Sex, TextEncoding, Title, TxtLayout,
    WriteError, XmlLayout, generate_list, read_list, read_list_with, write_txt, write_xml,
};

fn read_back(bytes: &[u8], options: ReadOptions) -> Vec<ListPlayer> {
    read_list_with(bytes, options)
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

fn txt(players: &[ListPlayer], layout: &TxtLayout, enc: TextEncoding) -> Vec<u8> {
    let mut out = Vec::new();
    let n = write_txt(&mut out, players, layout, enc).unwrap();
    assert_eq!(n, players.len() as u64);
    out
}

fn xml(players: &[ListPlayer], layout: XmlLayout, enc: TextEncoding) -> Vec<u8> {
    let mut out = Vec::new();
    write_xml(&mut out, players, layout, enc).unwrap();
    out
}

fn latin1_only(p: &ListPlayer) -> bool {
    p.name.chars().all(|c| (c as u32) < 256)
}

#[test]
fn generator_is_deterministic_and_ids_increase() {
    let a: Vec<_> = generate_list(500, 42).collect();
    let b: Vec<_> = generate_list(500, 42).collect();
    let c: Vec<_> = generate_list(500, 43).collect();
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.windows(2).all(|w| w[0].fide_id < w[1].fide_id));
    assert_eq!(generate_list(7, 1).len(), 7);
    // The shape is list-like: some unrated, some titled, some inactive, some diacritics.
    assert!(a.iter().any(|p| p.standard.is_none()));
    assert!(a.iter().any(|p| p.standard.is_some()));
    assert!(a.iter().any(|p| p.title.is_some()));
    assert!(a.iter().any(|p| p.flags.inactive));
    assert!(a.iter().any(|p| !p.name.is_ascii()));
}

#[test]
fn combined_txt_round_trip_utf8_and_latin1() {
    let players: Vec<_> = generate_list(3000, 7).collect();
    let bytes = txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8);
    assert_eq!(read_back(&bytes, ReadOptions::default()), players);

    let latin: Vec<_> = players.into_iter().filter(latin1_only).collect();
    let bytes = txt(&latin, &TxtLayout::CombinedFoa, TextEncoding::Latin1);
    assert!(String::from_utf8(bytes.clone()).is_err(), "really Latin-1");
    assert_eq!(read_back(&bytes, ReadOptions::default()), latin);
}

#[test]
fn every_line_of_the_current_layout_is_162_characters() {
    let players: Vec<_> = generate_list(200, 9).collect();
    let bytes = txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8);
    let text = String::from_utf8(bytes).unwrap();
    for l in text.split_terminator("\r\n") {
        assert_eq!(l.chars().count(), 162, "{l:?}");
    }
}

#[test]
fn legacy_txt_round_trip_loses_only_the_foa_title() {
    let players: Vec<_> = generate_list(1000, 8).collect();
    let bytes = txt(&players, &TxtLayout::CombinedLegacy, TextEncoding::Utf8);
    let expected: Vec<_> = players
        .into_iter()
        .map(|mut p| {
            p.foa_title = None;
            p
        })
        .collect();
    assert_eq!(read_back(&bytes, ReadOptions::default()), expected);
}

#[test]
fn single_list_txt_and_xml_round_trip_for_each_kind() {
    let players: Vec<_> = generate_list(600, 10).collect();
    for kind in [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz] {
        let expected: Vec<_> = players
            .iter()
            .cloned()
            .map(|mut p| {
                for other in [RatingKind::Standard, RatingKind::Rapid, RatingKind::Blitz] {
                    if other != kind {
                        *p.rating_mut(other) = None;
                    }
                }
                p
            })
            .collect();
        let options = ReadOptions {
            plain_rating_kind: kind,
        };
        let layout = TxtLayout::SingleList {
            kind,
            month: "NOV26".into(),
        };
        let bytes = txt(&players, &layout, TextEncoding::Utf8);
        assert_eq!(read_back(&bytes, options), expected, "{kind:?} TXT");
        let bytes = xml(&players, XmlLayout::SingleList(kind), TextEncoding::Utf8);
        assert_eq!(read_back(&bytes, options), expected, "{kind:?} XML");
    }
}

#[test]
fn combined_xml_round_trip_utf8_and_latin1() {
    let players: Vec<_> = generate_list(3000, 11).collect();
    let bytes = xml(&players, XmlLayout::Combined, TextEncoding::Utf8);
    assert_eq!(read_back(&bytes, ReadOptions::default()), players);
    let latin: Vec<_> = players.into_iter().filter(latin1_only).collect();
    let bytes = xml(&latin, XmlLayout::Combined, TextEncoding::Latin1);
    assert_eq!(read_back(&bytes, ReadOptions::default()), latin);
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let mut p = ListPlayer::new(1, "x".repeat(62));
    let err = write_txt(
        Vec::new(),
        [&p],
        &TxtLayout::CombinedFoa,
        TextEncoding::Utf8,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        WriteError::FieldTooWide {
            field: "Name",
            width: 61,
            ..
        }
    ));
    p.name = "Łukasz, Ŝ".into();
    let err = write_txt(
        Vec::new(),
        [&p],
        &TxtLayout::CombinedFoa,
        TextEncoding::Latin1,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        WriteError::Unrepresentable {
            character: 'Ł', ..
        }
    ));
    p.name = "Two\nLines".into();
    assert!(
        write_txt(
            Vec::new(),
            [&p],
            &TxtLayout::CombinedFoa,
            TextEncoding::Utf8
        )
        .is_err()
    );
    let bad_month = TxtLayout::SingleList {
        kind: RatingKind::Standard,
        month: "2026-11".into(),
    };
    assert!(matches!(
        write_txt(Vec::new(), [&p], &bad_month, TextEncoding::Utf8),
        Err(WriteError::BadMonthCode(_))
    ));
}

// ------------------------------------------------------------------ properties

fn arb_entry() -> impl Strategy<Value = Option<RatingEntry>> {
    proptest::option::of(
        (1u16..=9999, 0u16..=9999, proptest::option::of(1u8..=99))
            .prop_map(|(rating, games, k)| RatingEntry { rating, games, k }),
    )
}

fn arb_title() -> impl Strategy<Value = Option<Title>> {
    proptest::option::of(proptest::sample::select(Title::ALL.to_vec()))
}

prop_compose! {
    fn arb_player()(
        fide_id in 1u32..,
        name in "[A-Za-zÀ-ÿĀ-ž][A-Za-zÀ-ÿĀ-ž ,'.-]{0,58}[A-Za-zÀ-ÿĀ-ž.]",
        federation in "[A-Z]{3}|",
        sex in proptest::option::of(prop_oneof![Just(Sex::Male), Just(Sex::Female)]),
        title in arb_title(),
        women_title in arb_title(),
        other_titles in proptest::collection::vec("[A-Z]{2,3}", 0..3),
        foa_title in proptest::option::of("A[GIFC]M"),
        standard in arb_entry(),
        rapid in arb_entry(),
        blitz in arb_entry(),
        birth_year in proptest::option::of(1u16..=9999),
        inactive: bool,
        woman: bool,
        other_flags in "[a-hj-vx-z]{0,2}",
    ) -> ListPlayer {
        ListPlayer {
            fide_id, name, federation, sex, title, women_title, other_titles, foa_title,
            standard, rapid, blitz, birth_year,
            flags: Flags { inactive, woman, other: other_flags },
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_players_round_trip_through_txt_and_xml(
        players in proptest::collection::vec(arb_player(), 0..8)
    ) {
        let bytes = txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8);
        prop_assert_eq!(read_back(&bytes, ReadOptions::default()), players.clone());
        let bytes = xml(&players, XmlLayout::Combined, TextEncoding::Utf8);
        prop_assert_eq!(read_back(&bytes, ReadOptions::default()), players);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok(reader) = read_list(&bytes[..]) {
            for item in reader.take(1000) {
                let _ = item;
            }
        }
    }

    #[test]
    fn arbitrary_bytes_after_a_txt_header_never_panic(
        body in proptest::collection::vec(any::<u8>(), 0..800)
    ) {
        let mut bytes = b"ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag\n".to_vec();
        bytes.extend_from_slice(&body);
        let reader = read_list(&bytes[..]).unwrap();
        let mut consumed = 0;
        for item in reader {
            if let Err(e) = item {
                // Every error from a record says where.
                prop_assert!(e.line().is_some());
            }
            consumed += 1;
            prop_assert!(consumed <= body.len() + 1);
        }
    }

    #[test]
    fn arbitrary_text_inside_xml_never_panics(
        body in "[<>/&;a-z0-9 \n!\\[\\]CDAT?-]{0,300}"
    ) {
        let xml = format!("<playerslist><player><fideid>5</fideid>{body}</player></playerslist>");
        let reader = read_list(xml.as_bytes()).unwrap();
        for item in reader.take(1000) {
            if let Err(e) = item {
                prop_assert!(e.line().is_some() && e.column().is_some(), "{:?}", e);
            }
        }
    }

    /// One corrupted line costs exactly that record: every other record reads as written,
    /// and the error names the corrupted line.
    #[test]
    fn one_bad_line_costs_one_record(
        seed in 0u64..500,
        victim in 0usize..30,
        garbage in "[ -~]{0,200}",
    ) {
        let players: Vec<_> = generate_list(30, seed).collect();
        let bytes = txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8);
        let text = String::from_utf8(bytes).unwrap();
        let mut lines: Vec<&str> = text.split_terminator("\r\n").collect();
        lines[victim + 1] = &garbage;
        let corrupted = lines.join("\r\n");
        let reader = read_list(corrupted.as_bytes()).unwrap();
        let mut good = Vec::new();
        for item in reader {
            match item {
                Ok(p) => good.push(p),
                Err(e) => prop_assert_eq!(e.line(), Some(victim as u64 + 2), "{}", e),
            }
        }
        let mut expected = players.clone();
        expected.remove(victim);
        // The garbage may happen to be a readable record (or blank): then it is not an error.
        if good.len() == expected.len() {
            prop_assert_eq!(good, expected);
        } else {
            prop_assert_eq!(good.len(), expected.len() + 1);
            good.remove(victim);
            prop_assert_eq!(good, expected);
        }
    }

    /// Results do not depend on how the reader chunks its buffer (tiny `BufReader`s cut
    /// lines, tags, UTF-8 sequences, comments and BOMs at every place).
    #[test]
    fn chunking_does_not_change_results(capacity in 1usize..9, seed in 0u64..100) {
        let players: Vec<_> = generate_list(20, seed).collect();
        let mut inputs = vec![
            txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8),
            xml(&players, XmlLayout::Combined, TextEncoding::Utf8),
            include_bytes!("data/combined_foa_sample.xml").to_vec(),
            include_bytes!("data/combined_foa_latin1.txt").to_vec(),
        ];
        let mut with_comment = b"\xEF\xBB\xBF<!-- a > b -- c -->".to_vec();
        with_comment.extend_from_slice(&inputs[1]);
        inputs.push(with_comment);
        // Errors too must be at the same line:column.
        inputs.push(
            "<playerslist>\n<player><fideid>5</fideid><name>A &foo; B</name></player>\n\
             <player><fideid>6</fideid><name>A, B</nme></player>\n\
             <player><fideid>7x</fideid><name>Ünïcødé, Ä</name></player>\n<player><fideid>8"
                .as_bytes()
                .to_vec(),
        );
        let mut bad_txt = txt(&players, &TxtLayout::CombinedFoa, TextEncoding::Utf8);
        bad_txt.extend_from_slice("1234 Truncated, Line\r\n".as_bytes());
        inputs.push(bad_txt);
        for bytes in &inputs {
            let whole: Vec<_> = read_list(&bytes[..]).unwrap().collect();
            let chunked: Vec<_> = read_list(std::io::BufReader::with_capacity(capacity, &bytes[..]))
                .unwrap()
                .collect();
            prop_assert_eq!(chunked, whole);
        }
    }

    #[test]
    fn arbitrary_bytes_inside_a_player_never_panic(
        body in proptest::collection::vec(any::<u8>(), 0..400),
        capacity in 1usize..16,
    ) {
        let mut bytes = b"<playerslist><player><fideid>5</fideid><name>".to_vec();
        bytes.extend_from_slice(&body);
        let reader = read_list(std::io::BufReader::with_capacity(capacity, &bytes[..])).unwrap();
        for item in reader.take(1000) {
            if let Err(e) = item {
                prop_assert!(e.line().is_some());
            }
        }
    }
}
