//! Property tests: generated documents (every record type, valid and invalid field contents)
//! survive write → parse unchanged, in canonical layout, and writing is idempotent.

use proptest::prelude::*;
use trf::*;

fn text(max: usize) -> impl Strategy<Value = String> {
    // Printable text, Greek included (columns count characters), no blanks at either end.
    proptest::string::string_regex(&format!("([A-Za-z0-9,.'()/ -]|Δ|Ω|é){{0,{max}}}"))
        .expect("regex")
        .prop_map(|s| s.trim().to_string())
}

fn word(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[A-Za-z0-9.]{{1,{max}}}")).expect("regex")
}

fn letters(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[a-z]{{1,{max}}}")).expect("regex")
}

fn num(max: u16) -> impl Strategy<Value = Field<u16>> {
    prop_oneof![
        2 => Just(Field::Empty),
        6 => (0..=max).prop_map(Field::Value),
        1 => letters(3).prop_map(Field::Invalid),
    ]
}

fn score(max_tenths: i32) -> impl Strategy<Value = Field<Score>> {
    prop_oneof![
        2 => Just(Field::Empty),
        6 => (0..=max_tenths).prop_map(|t| Field::Value(Score::from_tenths(t))),
        1 => letters(3).prop_map(Field::Invalid),
    ]
}

fn round_result() -> impl Strategy<Value = RoundResult> {
    let opponent = prop_oneof![
        Just(Opponent::Blank),
        Just(Opponent::Zero),
        (1u16..=9999).prop_map(Opponent::Player),
        letters(4).prop_map(Opponent::Invalid),
    ];
    let colour = prop_oneof![
        Just(Colour::White),
        Just(Colour::Black),
        Just(Colour::None),
        Just(Colour::Blank),
        Just(Colour::Invalid('x')),
    ];
    let result = prop::sample::select(vec![
        '1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z', ' ', '?', 'q',
    ])
    .prop_map(ResultCode::parse);
    (opponent, colour, result).prop_map(|(opponent, colour, result)| RoundResult {
        opponent,
        colour,
        result,
    })
}

fn player() -> impl Strategy<Value = PlayerRecord> {
    (
        (1u16..=9999).prop_map(Field::Value),
        prop::option::of(prop::sample::select(vec!['m', 'w', 'M', 'x'])),
        prop::sample::select(vec!["", "GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"]),
        text(33),
        num(9999),
        proptest::string::string_regex("[A-Z]{0,3}").expect("regex"),
        prop_oneof![
            Just(Field::Empty),
            (0u64..=99_999_999_999).prop_map(Field::Value),
            letters(5).prop_map(Field::Invalid)
        ],
        prop::sample::select(vec!["", "1990/01/02", "1975.  .", "    .  .", "2014/00/00"]),
        score(9999),
        num(9999),
        prop::collection::vec(round_result(), 0..12),
    )
        .prop_map(
            |(
                start_rank,
                sex,
                title,
                name,
                rating,
                federation,
                fide_id,
                birth,
                points,
                rank,
                mut rounds,
            )| {
                while rounds.last().is_some_and(RoundResult::is_blank) {
                    rounds.pop();
                }
                PlayerRecord {
                    start_rank,
                    sex,
                    title: title.to_string(),
                    name,
                    rating,
                    federation,
                    fide_id,
                    birth_date: birth.to_string(),
                    points,
                    rank,
                    rounds,
                }
            },
        )
}

fn ids(max_len: usize) -> impl Strategy<Value = Vec<Field<u16>>> {
    prop::collection::vec(num(9999), 0..max_len).prop_map(|mut v| {
        while v.last().is_some_and(Field::is_empty) {
            v.pop();
        }
        v
    })
}

fn token_ids() -> impl Strategy<Value = Vec<Field<u16>>> {
    prop::collection::vec(
        prop_oneof![
            (0u16..=65535).prop_map(Field::Value),
            letters(3).prop_map(Field::Invalid)
        ],
        0..6,
    )
}

fn record() -> impl Strategy<Value = Record> {
    prop_oneof![
        Just(Record::Empty),
        text(60).prop_map(Record::Comment),
        (
            prop::sample::select(HeaderKind::ALL.to_vec()),
            text(80),
            0usize..3
        )
            .prop_map(|(kind, value, lead)| Record::Header(HeaderRecord {
                kind,
                value: if value.is_empty() {
                    value
                } else {
                    format!("{}{value}", " ".repeat(lead))
                }
            })),
        num(999).prop_map(Record::NumberOfRounds),
        prop_oneof![
            Just(Field::Value(InitialColour::White)),
            Just(Field::Value(InitialColour::Black)),
            Just(Field::Empty),
            Just(Field::Invalid("x".to_string()))
        ]
        .prop_map(Record::InitialColour),
        prop::collection::vec(
            (
                prop::sample::select(vec!['W', 'D', 'L', 'A', 'P', 'X', '?']),
                score(999)
            ),
            1..6
        )
        .prop_map(|e| Record::ScoringSystem(ScoringSystemRecord {
            entries: e
                .into_iter()
                .map(|(symbol, points)| ScoringEntry { symbol, points })
                .collect()
        })),
        player().prop_map(Record::Player),
        (prop::sample::select(vec!["BEL", "FRA", "GER"]), player()).prop_map(|(f, player)| {
            Record::NationalRating {
                federation: f.to_string(),
                player,
            }
        }),
        (
            prop::sample::select(vec!['F', 'H', 'Z', 'Q']),
            num(999),
            ids(6)
        )
            .prop_map(|(kind, round, players)| Record::Bye(ByeRecord {
                kind,
                round,
                players
            })),
        (
            score(999),
            score(999),
            num(999),
            num(999),
            num(9999),
            num(9999)
        )
            .prop_map(|(m, p, fr, lr, fp, lp)| {
                Record::Acceleration(AccelerationRecord {
                    match_points: m,
                    points: p,
                    first_round: fr,
                    last_round: lr,
                    first_player: fp,
                    last_player: lp,
                })
            }),
        (num(999), num(999), ids(6)).prop_map(|(first_round, last_round, players)| {
            Record::ProhibitedPairing(ProhibitedPairingRecord {
                first_round,
                last_round,
                players,
            })
        }),
        (
            prop::sample::select(vec!['W', 'D', '+', '-', ' ']),
            score(999),
            score(999),
            num(999),
            ids(4)
        )
            .prop_map(|(kind, match_points, points, round, players)| {
                Record::AbnormalPoints(AbnormalPointsRecord {
                    kind,
                    match_points,
                    points,
                    round,
                    players,
                })
            }),
        (text(32), ids(8))
            .prop_map(|(name, members)| Record::Team013(Team013Record { name, members })),
        (
            num(999),
            text(32),
            word(5),
            proptest::string::string_regex("[0-9]{0,6}").expect("regex"),
            score(99999),
            score(99999),
            num(999),
            ids(6)
        )
            .prop_map(
                |(number, name, nickname, strength, match_points, game_points, rank, members)| {
                    Record::Team(TeamRecord {
                        number,
                        name,
                        nickname,
                        strength,
                        match_points,
                        game_points,
                        rank,
                        members,
                    })
                }
            ),
        num(999).prop_map(Record::XxRounds),
        prop::collection::vec(
            prop_oneof![
                Just(XxcOption::Rank),
                Just(XxcOption::White1),
                Just(XxcOption::Black1),
                word(6)
                    .prop_filter("not a keyword", |w| !["rank", "white1", "black1"]
                        .contains(&w.as_str()))
                    .prop_map(XxcOption::Other)
            ],
            0..4
        )
        .prop_map(Record::XxColour),
        token_ids().prop_map(Record::XxAbsent),
        token_ids().prop_map(Record::XxProhibited),
        prop::collection::vec(
            (
                prop::sample::select(vec!["W", "D", "WW", "PAB", "FL", "HPB", "NOPE"]),
                score(99)
            ),
            0..5
        )
        .prop_map(|items| Record::XxScoring(
            items
                .into_iter()
                .map(|(c, value)| XxsItem {
                    code: c.to_string(),
                    value
                })
                .collect()
        )),
        (num(9999), prop::collection::vec(score(999), 0..6)).prop_map(|(player, mut points)| {
            while points.last().is_some_and(Field::is_empty) {
                points.pop();
            }
            Record::XxAcceleration(XxaRecord { player, points })
        }),
        (
            prop::sample::select(vec![
                BbPointKind::Win,
                BbPointKind::Draw,
                BbPointKind::PairingAllocatedBye
            ]),
            score(999)
        )
            .prop_map(|(kind, value)| Record::BbPoints { kind, value }),
        text(60).prop_map(|t| Record::Other(format!("801 {t}").trim_end().to_string())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn generated_documents_round_trip(records in prop::collection::vec(record(), 1..20)) {
        let mut doc = TrfDocument::new();
        doc.push(Record::Header(HeaderRecord { kind: HeaderKind::TournamentName, value: "Generated".into() }));
        for r in records {
            doc.push(r);
        }
        for ending in [LineEnding::CrLf, LineEnding::Lf, LineEnding::Cr] {
            let text = write_with(&doc, &WriteOptions { version: TrfVersion::Trf26, line_ending: ending });
            let parsed = parse(text.as_bytes()).expect("parses");
            prop_assert_eq!(&parsed.doc, &doc, "text:\n{}", text);
            prop_assert_eq!(write_with(&parsed.doc, &WriteOptions { version: TrfVersion::Trf26, line_ending: ending }), text);
        }
        // Validation and the TRF16 writer never panic on it.
        let _ = validate(&doc);
        let trf16 = write(&doc, TrfVersion::Trf16);
        prop_assert!(parse(trf16.as_bytes()).is_ok());
    }

    #[test]
    fn score_text_round_trips(tenths in -99_999i32..=99_999) {
        let s = Score::from_tenths(tenths);
        prop_assert_eq!(Score::parse(&s.to_string()), Some(s));
    }
}

fn bye_or_forfeit_block() -> impl Strategy<Value = RoundResult> {
    prop::sample::select(vec!['H', 'F', 'U', 'Z', ' '])
        .prop_map(|c| RoundResult::bye(ResultCode::parse(c)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A points column computed with the declared scoring system (162 or XXS or BB?) is never
    /// reported by validation, after a round trip through text.
    #[test]
    fn points_computed_with_the_declared_system_validate_cleanly(
        win in 1i32..=40, draw in 0i32..=20, pab in 0i32..=40, hpb in 0i32..=20,
        dialect in 0usize..3,
        byes in prop::collection::vec(prop::collection::vec(bye_or_forfeit_block(), 0..5), 1..8),
    ) {
        let mut doc = TrfDocument::new();
        doc.push(Record::Header(HeaderRecord { kind: HeaderKind::TournamentName, value: "S".into() }));
        let sc = |t: i32| Field::Value(Score::from_tenths(t));
        match dialect {
            0 => doc.push(Record::ScoringSystem(ScoringSystemRecord { entries: vec![
                ScoringEntry { symbol: 'W', points: sc(win) },
                ScoringEntry { symbol: 'D', points: sc(draw) },
                ScoringEntry { symbol: 'P', points: sc(pab) },
            ]})),
            1 => doc.push(Record::XxScoring(vec![
                XxsItem { code: "W".into(), value: sc(win) },
                XxsItem { code: "D".into(), value: sc(draw) },
                XxsItem { code: "PAB".into(), value: sc(pab) },
                XxsItem { code: "HPB".into(), value: sc(hpb) },
            ])),
            _ => {
                doc.push(Record::BbPoints { kind: BbPointKind::Win, value: sc(win) });
                doc.push(Record::BbPoints { kind: BbPointKind::Draw, value: sc(draw) });
                doc.push(Record::BbPoints { kind: BbPointKind::PairingAllocatedBye, value: sc(pab) });
            }
        }
        // Players 1 and 2 play each other in round 1 (1 wins with White), then take byes.
        let n = byes.len() as u16 + 2;
        let mut players: Vec<PlayerRecord> = (1..=n).map(|i| PlayerRecord::new(i, format!("P{i}"))).collect();
        players[0].set_round(1, RoundResult::game(2, Colour::White, ResultCode::Win));
        players[1].set_round(1, RoundResult::game(1, Colour::Black, ResultCode::Loss));
        for (k, blocks) in byes.iter().enumerate() {
            for (r, b) in blocks.iter().enumerate() {
                players[k + 2].set_round(r + 2, b.clone());
            }
        }
        // At most one PAB per round.
        let mut seen = std::collections::HashSet::new();
        for p in players.iter_mut() {
            for (r, block) in p.rounds.iter_mut().enumerate() {
                if block.result == ResultCode::PairingAllocatedBye && !seen.insert(r) {
                    block.result = ResultCode::ZeroPointBye;
                }
            }
        }
        let system = {
            let mut d = doc.clone();
            d.push(Record::Empty);
            ScoringSystem::from_document(&d)
        };
        for mut p in players {
            p.points = Field::Value(system.total(&p.rounds).expect("known codes"));
            doc.push(Record::Player(p));
        }
        let text = write(&doc, TrfVersion::Trf26);
        let parsed = parse(text.as_bytes()).expect("parse");
        let bad: Vec<_> = validate(&parsed.doc).into_iter().filter(|f| f.severity >= Severity::Warning).collect();
        prop_assert!(bad.is_empty(), "{bad:?}\n{text}");
    }
}
