//! Property tests of the team standings on random team Swiss events (with byes, board
//! forfeits, empty boards and forfeited matches), and robustness on broken input.

use proptest::prelude::*;
use tiebreak::trf_team_crosstable::{TeamAdapterOptions, from_trf};
use tiebreak::*;

const ALL_TEAM: &[&str] = &[
    "MPvGP",
    "EMMSB",
    "EMGSB",
    "EGMSB",
    "EGGSB",
    "EGGSB/C1",
    "EMGSB/C2",
    "EMMSB/P",
    "EDE",
    "EDE/P",
    "EDEBT",
    "EDEBB",
    "EDET",
    "EDEB",
    "SSSC",
    "SSSC/F",
    "SSSC/K5/P",
    "BC",
    "TBR",
    "BBE",
    "DE",
    "DE:GP",
    "WIN",
    "WON",
    "BPG",
    "BWG",
    "REP",
    "STD",
    "STD:GP",
    "TPN",
    "PS:MP",
    "PS:GP/C1",
    "BH",
    "BH:GP/C1",
    "BH:MP/M1/P",
    "FB:MP",
    "FB:GP/C2",
    "AOB:GP",
    "AOB:MP/F",
    "SB:MP",
    "SB:GP/C1",
    "KS:GP",
    "SOLKOFF:MP",
];

/// Board pair (own, opponent's) from a random code.
fn board(code: u8) -> (BoardResult, BoardResult) {
    use BoardResult::*;
    match code % 8 {
        0 | 1 => (Win, Loss),
        2 | 3 => (Loss, Win),
        4 | 5 => (Draw, Draw),
        6 => (ForfeitWin, ForfeitLoss),
        _ => (ForfeitLoss, ForfeitLoss),
    }
}

/// A team Swiss from random choices: each round orders the teams by `order` keys, gives the
/// odd team out a PAB (or, by `bye`, another bye), pairs neighbours; `forfeit` turns a few
/// matches into forfeited matches.
fn build(
    n: usize,
    boards: usize,
    keys: &[Vec<u16>],
    bye: &[u8],
    forfeit: &[Vec<u8>],
    codes: &[Vec<Vec<u8>>],
    primary: PointType,
) -> TeamCrosstable {
    let rounds = keys.len();
    let mut entries: Vec<Vec<TeamRoundEntry>> = vec![Vec::new(); n];
    for r in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (keys[r][i], i));
        if order.len() % 2 == 1 {
            let t = order.pop().unwrap_or(0);
            entries[t].push(match bye[r] % 5 {
                0 | 1 => TeamRoundEntry::PairingAllocatedBye,
                2 => TeamRoundEntry::HalfPointBye,
                3 => TeamRoundEntry::ZeroPointBye,
                _ => TeamRoundEntry::FullPointBye,
            });
        }
        for (x, pair) in order.chunks(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            if forfeit[r][x].is_multiple_of(9) {
                entries[a].push(TeamRoundEntry::ForfeitWin {
                    opponent: b as u32 + 1,
                });
                entries[b].push(TeamRoundEntry::ForfeitLoss {
                    opponent: a as u32 + 1,
                });
                continue;
            }
            let bs: Vec<(BoardResult, BoardResult)> =
                (0..boards).map(|k| board(codes[r][x][k])).collect();
            let white = forfeit[r][x].is_multiple_of(2);
            let (ca, cb) = if white {
                (Colour::White, Colour::Black)
            } else {
                (Colour::Black, Colour::White)
            };
            entries[a].push(TeamRoundEntry::Match {
                opponent: b as u32 + 1,
                colour: Some(ca),
                boards: bs.iter().map(|p| p.0).collect(),
            });
            entries[b].push(TeamRoundEntry::Match {
                opponent: a as u32 + 1,
                colour: Some(cb),
                boards: bs.iter().map(|p| p.1).collect(),
            });
        }
    }
    TeamCrosstable {
        kind: EventKind::Swiss,
        rounds_played: rounds as u32,
        boards: boards as u32,
        scoring: TeamScoring::standard(),
        primary,
        teams: entries
            .into_iter()
            .enumerate()
            .map(|(i, entries)| Team {
                tpn: i as u32 + 1,
                name: None,
                entries,
            })
            .collect(),
    }
}

fn event() -> impl Strategy<Value = TeamCrosstable> {
    (2usize..9, 1usize..5, 1usize..6, any::<bool>()).prop_flat_map(|(n, boards, rounds, gp)| {
        (
            prop::collection::vec(prop::collection::vec(any::<u16>(), n), rounds),
            prop::collection::vec(any::<u8>(), rounds),
            prop::collection::vec(prop::collection::vec(any::<u8>(), n), rounds),
            prop::collection::vec(
                prop::collection::vec(prop::collection::vec(any::<u8>(), boards), n),
                rounds,
            ),
        )
            .prop_map(move |(keys, bye, forfeit, codes)| {
                let primary = if gp {
                    PointType::Game
                } else {
                    PointType::Match
                };
                build(n, boards, &keys, &bye, &forfeit, &codes, primary)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn standings_are_ordered_complete_and_deterministic(ct in event()) {
        for edition in [Edition::C07_2026, Edition::C07_2024] {
            // every code of the edition (the EDE chains, STD and TPN are 2026 only)
            let list: Vec<TieBreak> = ALL_TEAM
                .iter()
                .filter_map(|c| parse_list(&[c], edition).ok())
                .flatten()
                .collect();
            prop_assert!(list.len() >= ALL_TEAM.len() - 7);
            let s = team_standings(&ct, edition, &list, &Options::default()).unwrap();
            let again = team_standings(&ct, edition, &list, &Options::default()).unwrap();
            prop_assert_eq!(&s, &again);
            let mut tpns: Vec<u32> = s.rows.iter().map(|r| r.tpn).collect();
            tpns.sort_unstable();
            prop_assert_eq!(tpns, (1..=ct.teams.len() as u32).collect::<Vec<_>>());
            let primary = |r: &TeamRow| match ct.primary {
                PointType::Match => r.match_points,
                PointType::Game => r.game_points,
            };
            for w in s.rows.windows(2) {
                prop_assert!(primary(&w[0]) >= primary(&w[1]));
                prop_assert!(w[0].rank <= w[1].rank);
                if w[0].rank == w[1].rank {
                    prop_assert_eq!(primary(&w[0]), primary(&w[1]));
                }
            }
            for r in &s.rows {
                prop_assert_eq!(r.values.len(), list.len());
            }
        }
    }

    #[test]
    fn esb_equals_sb_on_one_score_and_cuts_never_add(ct in event()) {
        let codes = ["EMMSB", "SB:MP", "EGGSB", "SB:GP", "EGGSB/C1", "EMGSB", "EMGSB/C2", "BH:MP", "BH:MP/C1"];
        let list = parse_list(&codes, Edition::C07_2026).unwrap();
        let s = team_standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap();
        for r in &s.rows {
            let v = |c: usize| r.values[c].value.unwrap();
            prop_assert_eq!(v(0), v(1));
            prop_assert_eq!(v(2), v(3));
            prop_assert!(v(4) <= v(2));
            prop_assert!(v(6) <= v(5));
            prop_assert!(v(8) <= v(7));
            // the working adds up: uncut contributions sum to the value
            for c in [0, 2, 4, 5, 7, 8] {
                let sum = r.values[c].working.contributions.iter()
                    .filter(|x| !x.cut)
                    .fold(Exact::ZERO, |a, x| a + x.value);
                prop_assert_eq!(sum, v(c), "column {}", c);
            }
        }
    }

    #[test]
    fn match_points_follow_game_points(ct in event()) {
        let list = parse_list(&["MPvGP"], Edition::C07_2026).unwrap();
        let s = team_standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap();
        // Every match: the team with more GP has the win's MP; the MP of both teams add up
        // to a win + a loss or two draws.
        let gp_round = |t: u32, r: usize| -> Option<i64> {
            match &ct.teams[t as usize - 1].entries[r] {
                TeamRoundEntry::Match { boards, .. } => Some(boards.iter().map(|b| ct.scoring.board_points(*b)).sum()),
                _ => None,
            }
        };
        let mut total_mp = Exact::ZERO;
        for r in &s.rows {
            total_mp = total_mp + r.match_points;
        }
        let mut expected = 0i64;
        for t in &ct.teams {
            for (r, e) in t.entries.iter().enumerate() {
                expected += match e {
                    TeamRoundEntry::Match { opponent, .. } => {
                        let (a, b) = (gp_round(t.tpn, r).unwrap(), gp_round(*opponent, r).unwrap());
                        match a.cmp(&b) {
                            std::cmp::Ordering::Greater => 20,
                            std::cmp::Ordering::Equal => 10,
                            std::cmp::Ordering::Less => 0,
                        }
                    }
                    TeamRoundEntry::ForfeitWin { .. } | TeamRoundEntry::FullPointBye => 20,
                    TeamRoundEntry::PairingAllocatedBye | TeamRoundEntry::HalfPointBye => 10,
                    _ => 0,
                };
            }
        }
        prop_assert_eq!(total_mp, Exact::ratio(expected, 10).unwrap());
    }

    /// Arbitrary (mostly invalid) team entries: an error or standings, never a panic.
    #[test]
    fn broken_events_never_panic(
        n in 0usize..5,
        rounds in 0u32..3,
        boards in 0u32..3,
        raw in prop::collection::vec((0u8..12, 0u32..7, prop::collection::vec(0u8..5, 0..4)), 0..15),
    ) {
        let mut it = raw.into_iter();
        let teams = (0..n).map(|i| Team {
            tpn: i as u32 + 1,
            name: None,
            entries: (0..rounds).filter_map(|_| it.next()).map(|(kind, opp, bs)| {
                let boards = bs.iter().map(|b| match b {
                    0 => BoardResult::Win, 1 => BoardResult::Draw, 2 => BoardResult::Loss,
                    3 => BoardResult::ForfeitWin, _ => BoardResult::ForfeitLoss,
                }).collect();
                match kind {
                    0..=5 => TeamRoundEntry::Match { opponent: opp, colour: None, boards },
                    6 => TeamRoundEntry::ForfeitWin { opponent: opp },
                    7 => TeamRoundEntry::ForfeitLoss { opponent: opp },
                    8 => TeamRoundEntry::PairingAllocatedBye,
                    9 => TeamRoundEntry::HalfPointBye,
                    10 => TeamRoundEntry::Withdrawn,
                    _ => TeamRoundEntry::Absent,
                }
            }).collect(),
        }).collect();
        let ct = TeamCrosstable {
            kind: EventKind::Swiss,
            rounds_played: rounds,
            boards,
            scoring: TeamScoring::standard(),
            primary: PointType::Match,
            teams,
        };
        let list = parse_list(&["EDEBT", "EGGSB/C1", "BBE", "SSSC", "FB:GP"], Edition::C07_2026).unwrap();
        let _ = team_standings(&ct, Edition::C07_2026, &list, &Options::default());
    }

    /// The fixture with random characters overwritten: an error with a place, or a
    /// crosstable, never a panic.
    #[test]
    fn damaged_team_files_never_panic(edits in prop::collection::vec((0usize..20_000, prop::sample::select(vec!['0', '9', ' ', '+', '-', 'x', '=', '\n'])), 1..6)) {
        let path = format!("{}/tests/fixtures/heltour-crete-friendship-cup-2024-team.trf", env!("CARGO_MANIFEST_DIR"));
        let mut chars: Vec<char> = std::fs::read_to_string(path).unwrap().chars().collect();
        for (at, c) in edits {
            let at = at % chars.len();
            chars[at] = c;
        }
        let text: String = chars.into_iter().collect();
        if let Ok(parsed) = trf::parse(text.as_bytes()) {
            match from_trf(&parsed.doc, &TeamAdapterOptions::default()) {
                Ok(t) => {
                    let list = parse_list(&["EGGSB", "BH:MP", "EDEBB"], Edition::C07_2026).unwrap();
                    let _ = team_standings(&t.crosstable, Edition::C07_2026, &list, &Options::default());
                }
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
    }
}
