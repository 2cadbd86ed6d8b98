//! Team tie-breaks on small events worked by hand, one test per rule or decision
//! (ADR tiebreak-009 … 011).

use BoardResult::{Draw as D, ForfeitLoss as FL, ForfeitWin as FW, Loss as L, Win as W};
use tiebreak::*;

fn m(opponent: u32, colour: Colour, boards: &[BoardResult]) -> TeamRoundEntry {
    TeamRoundEntry::Match {
        opponent,
        colour: Some(colour),
        boards: boards.to_vec(),
    }
}

fn team(tpn: u32, entries: Vec<TeamRoundEntry>) -> Team {
    Team {
        tpn,
        name: None,
        entries,
    }
}

fn event(kind: EventKind, boards: u32, teams: Vec<Team>) -> TeamCrosstable {
    TeamCrosstable {
        kind,
        rounds_played: teams[0].entries.len() as u32,
        boards,
        scoring: TeamScoring::standard(),
        primary: PointType::Match,
        teams,
    }
}

fn x(num: i64, den: i64) -> Exact {
    Exact::ratio(num, den).unwrap()
}

/// Four teams, two boards, all-play-all. A beats B 1½-½, C beats A 2-0, B beats C 1½-½;
/// all three beat D. A, B, C have 4 MP each; GP A 3½, B 4, C 4.
///
/// | | A | B | C | D |
/// |---|---|---|---|---|
/// | A | | 1½ | 0 | 2 |
/// | B | ½ | | 1½ | 2 |
/// | C | 2 | ½ | | 1½ |
fn cycle() -> TeamCrosstable {
    use Colour::{Black as B, White as Wh};
    event(
        EventKind::RoundRobin,
        2,
        vec![
            team(
                1,
                vec![m(2, Wh, &[W, D]), m(3, B, &[L, L]), m(4, Wh, &[W, W])],
            ),
            team(
                2,
                vec![m(1, B, &[L, D]), m(4, Wh, &[W, W]), m(3, B, &[W, D])],
            ),
            team(
                3,
                vec![m(4, Wh, &[W, D]), m(1, Wh, &[W, W]), m(2, Wh, &[L, D])],
            ),
            team(
                4,
                vec![m(3, B, &[L, D]), m(2, B, &[L, L]), m(1, B, &[L, L])],
            ),
        ],
    )
}

fn list(codes: &[&str], edition: Edition) -> Vec<TieBreak> {
    parse_list(codes, edition).unwrap()
}

fn order(s: &TeamStandings) -> Vec<(u32, u32)> {
    s.rows.iter().map(|r| (r.rank, r.tpn)).collect()
}

#[test]
fn art_13_3_ede_uses_game_points_among_the_tied_when_match_points_do_not_separate() {
    let ct = cycle();
    let opts = Options::default();
    // DE on MP: 2 MP each among A, B, C: no split.
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["DE"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s), vec![(1, 1), (1, 2), (1, 3), (4, 4)]);
    // EDE: then GP among them: C 2½, B 2, A 1½.
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["EDE"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s), vec![(1, 3), (2, 2), (3, 1), (4, 4)]);
    // DE:GP alone does the same here.
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["DE:GP"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s), vec![(1, 3), (2, 2), (3, 1), (4, 4)]);
    assert_eq!(s.value(3, 0), Some(x(5, 2)));
    // Seed edition: DE is the sum of the points of the games among the tied (all met).
    let s = team_standings(
        &ct,
        Edition::SeedC06,
        &list(&["DE:GP"], Edition::SeedC06),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s), vec![(1, 3), (2, 2), (3, 1), (4, 4)]);
}

#[test]
fn art_13_1_mpvgp_and_the_primary_score() {
    let mut ct = cycle();
    let opts = Options::default();
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["MPvGP"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    // MP primary: MPvGP = GP; B and C (4 GP) above A (3½).
    assert_eq!(order(&s), vec![(1, 2), (1, 3), (3, 1), (4, 4)]);
    assert_eq!(s.value(1, 0), Some(x(7, 2)));
    // GP primary: ranked on GP, MPvGP = MP.
    ct.primary = PointType::Game;
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["MPvGP"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(s.primary, PointType::Game);
    assert_eq!(s.value(2, 0), Some(Exact::integer(4)));
    assert_eq!(s.rows[0].game_points, Exact::integer(4));
}

#[test]
fn adr_010_a_code_without_selector_uses_the_primary_score() {
    let mut ct = cycle();
    let opts = Options {
        allow_buchholz_in_round_robin: true,
        ..Options::default()
    };
    let codes = list(
        &["BH", "BH:MP", "BH:GP", "SB", "EMMSB", "SB:GP", "EGGSB"],
        Edition::C07_2026,
    );
    for primary in [PointType::Match, PointType::Game] {
        ct.primary = primary;
        let s = team_standings(&ct, Edition::C07_2026, &codes, &opts).unwrap();
        for r in &s.rows {
            let v = |c: usize| r.values[c].value;
            let (bh, sb) = match primary {
                PointType::Match => (v(1), v(4)),
                PointType::Game => (v(2), v(6)),
            };
            assert_eq!(v(0), bh, "team {} BH", r.tpn);
            assert_eq!(v(3), sb, "team {} SB", r.tpn);
            // 13.2: EMMSB = SB:MP, EGGSB = SB:GP
            assert_eq!(v(5), v(6), "team {}", r.tpn);
        }
    }
}

#[test]
fn art_13_2_esb_letters_are_opponent_score_then_points_scored() {
    let ct = cycle();
    let opts = Options::default();
    let codes = list(&["EMGSB", "EGMSB"], Edition::C07_2026);
    let s = team_standings(&ct, Edition::C07_2026, &codes, &opts).unwrap();
    // A: vs B (4 MP, 4 GP) scored 1½ GP, 2 MP; vs C (4, 4) 0, 0; vs D (0 MP, ½ GP) 2 GP, 2 MP.
    // EMGSB = 4×1½ + 4×0 + 0×2 = 6; EGMSB = 4×2 + 4×0 + ½×2 = 9.
    assert_eq!(s.value(1, 0), Some(Exact::integer(6)));
    assert_eq!(s.value(1, 1), Some(Exact::integer(9)));
}

/// Two teams, two boards, one match drawn 1-1: A won board 1, B board 2.
fn drawn_match() -> TeamCrosstable {
    event(
        EventKind::Swiss,
        2,
        vec![
            team(1, vec![m(2, Colour::White, &[W, L])]),
            team(2, vec![m(1, Colour::Black, &[L, W])]),
        ],
    )
}

#[test]
fn art_12_board_tie_breaks_and_the_ede_chains() {
    let ct = drawn_match();
    let opts = Options::default();
    let run = |codes: &[&str]| {
        team_standings(
            &ct,
            Edition::C07_2026,
            &list(codes, Edition::C07_2026),
            &opts,
        )
        .unwrap()
    };
    // EDE cannot separate them (1 MP, 1 GP each).
    assert_eq!(order(&run(&["EDE"])), vec![(1, 1), (1, 2)]);
    // 12.1 BC: A 1×1 = 1, B 2×1 = 2; lower is better.
    let s = run(&["BC"]);
    assert_eq!(order(&s), vec![(1, 1), (2, 2)]);
    assert_eq!(s.value(1, 0), Some(Exact::integer(1)));
    assert_eq!(s.value(2, 0), Some(Exact::integer(2)));
    // 12.2 TBR: board 1 decides. 12.3 BBE: all boards equal, without the bottom board A 1, B 0.
    assert_eq!(order(&run(&["TBR"])), vec![(1, 1), (2, 2)]);
    let s = run(&["BBE"]);
    assert_eq!(order(&s), vec![(1, 1), (2, 2)]);
    assert_eq!(s.value(1, 0), Some(Exact::integer(1)));
    assert_eq!(s.value(2, 0), Some(Exact::integer(0)));
    for chain in ["EDEBT", "EDEBB", "EDET", "EDEB"] {
        assert_eq!(order(&run(&[chain])), vec![(1, 1), (2, 2)], "{chain}");
    }
    // The chains were named in 2026.
    assert!(matches!(
        parse_list(&["EDEBT"], Edition::C07_2024),
        Err(Error::NotInEdition { .. })
    ));
    parse_list(&["EDE", "BC", "TBR", "BBE"], Edition::C07_2024).unwrap();
}

#[test]
fn art_12_3_bbe_is_not_tbr() {
    // Three boards. A: 1, 0, 1 (2); B: 0, 1, 1 (2) vs other teams, tied on MP and GP.
    // TBR: A (board 1). BBE: without board 3, A 1 and B 1; without boards 2-3: A 1, B 0: A.
    // C: ½ ½ 1 (2): TBR below A, above B; BBE: without board 3 C 1, without 2-3 C ½.
    use Colour::{Black as B, White as Wh};
    let ct = event(
        EventKind::Swiss,
        3,
        vec![
            team(1, vec![m(4, Wh, &[W, L, W])]),
            team(2, vec![m(5, Wh, &[L, W, W])]),
            team(3, vec![m(6, Wh, &[D, D, W])]),
            team(4, vec![m(1, B, &[L, W, L])]),
            team(5, vec![m(2, B, &[W, L, L])]),
            team(6, vec![m(3, B, &[D, D, L])]),
        ],
    );
    let opts = Options::default();
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["TBR"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s)[..3], [(1, 1), (2, 3), (3, 2)]);
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["BBE"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    assert_eq!(order(&s)[..3], [(1, 1), (2, 3), (3, 2)]);
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["BC"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    // BC: A 1+3 = 4, B 2+3 = 5, C ½+1+3 = 4½
    assert_eq!(s.value(1, 0), Some(Exact::integer(4)));
    assert_eq!(s.value(2, 0), Some(Exact::integer(5)));
    assert_eq!(s.value(3, 0), Some(x(9, 2)));
    assert_eq!(order(&s)[..3], [(1, 1), (2, 3), (3, 2)]);
}

#[test]
fn art_13_4_sssc_is_secondary_plus_primary_buchholz_over_the_normaliser() {
    let ct = cycle();
    let opts = Options {
        allow_buchholz_in_round_robin: true,
        ..Options::default()
    };
    let codes = list(&["SSSC", "SSSC/K4", "BH"], Edition::C07_2026);
    let s = team_standings(&ct, Edition::C07_2026, &codes, &opts).unwrap();
    // A: GP 3½, BH:MP = 4 + 4 + 0 = 8. Default K = (2 MP × 3 rounds) / (2 boards × 1) = 3.
    assert_eq!(s.value(1, 2), Some(Exact::integer(8)));
    assert_eq!(s.value(1, 0), Some(x(7, 2) + x(8, 3)));
    assert_eq!(s.value(1, 1), Some(x(7, 2) + Exact::integer(2)));
    // 2026: SSSC holds a Buchholz, banned in round robins like BH.
    assert!(matches!(
        team_standings(&ct, Edition::C07_2026, &codes[..1], &Options::default()),
        Err(Error::NotAllowedInRoundRobin { .. })
    ));
}

#[test]
fn adr_009_a_match_without_any_board_played_is_a_forfeited_match() {
    use Colour::{Black as B, White as Wh};
    // R1: team 2 fields nobody against team 1. R2: 1-3 played, 2 PAB.
    let ct = event(
        EventKind::Swiss,
        2,
        vec![
            team(1, vec![m(2, Wh, &[FW, FW]), m(3, B, &[W, D])]),
            team(
                2,
                vec![m(1, B, &[FL, FL]), TeamRoundEntry::PairingAllocatedBye],
            ),
            team(
                3,
                vec![TeamRoundEntry::PairingAllocatedBye, m(1, Wh, &[L, D])],
            ),
        ],
    );
    let opts = Options::default();
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["BH:MP"], Edition::C07_2026),
        &opts,
    )
    .unwrap();
    let one = s.row(1).unwrap();
    assert_eq!(one.match_points, Exact::integer(4));
    assert_eq!(one.game_points, x(7, 2));
    let c = &one.values[0].working.contributions;
    // 16.2.2: the forfeit win is an unplayed round against the dummy (4 MP, capped at team
    // 2's adjusted score 1 MP by 16.4.1), not a game against team 2.
    assert!(
        matches!(
            c[0].source,
            Source::Dummy {
                category: Category::ForfeitWin,
                cap: Some(DummyCap::ScheduledOpponentAdjustedScore { opponent_tpn: 2 })
            }
        ),
        "{c:?}"
    );
    assert_eq!(c[0].value, Exact::integer(1));
    // Team 3 is the opponent of round 2 (its PAB scored a drawn match: 1 MP, 1 GP).
    assert_eq!(s.row(3).unwrap().match_points, Exact::integer(1));
    assert_eq!(s.row(3).unwrap().game_points, x(3, 2));
    assert_eq!(c[1].source, Source::Opponent { tpn: 3 });
}

#[test]
fn team_scoring_is_configurable() {
    let mut ct = drawn_match();
    ct.teams[0].entries[0] = m(2, Colour::White, &[W, D]);
    ct.teams[1].entries[0] = m(1, Colour::Black, &[L, D]);
    ct.scoring.match_win = 30;
    let s = team_standings(&ct, Edition::C07_2026, &[], &Options::default()).unwrap();
    assert_eq!(s.rows[0].match_points, Exact::integer(3));
    assert_eq!(s.rows[0].game_points, x(3, 2));
    ct.scoring.match_draw = 40;
    assert!(matches!(
        team_standings(&ct, Edition::C07_2026, &[], &Options::default()),
        Err(Error::InvalidScoring(_))
    ));
}

#[test]
fn codes_that_do_not_fit_are_refused_with_their_position() {
    let ct = cycle();
    let opts = Options::default();
    for (code, edition) in [("ARO", Edition::C07_2026), ("RTNG", Edition::C07_2026)] {
        let e = team_standings(&ct, edition, &list(&["WIN", code], edition), &opts).unwrap_err();
        assert!(matches!(e, Error::NotForTeams { position: 2, .. }), "{e}");
    }
    // Team codes and selectors are refused in individual standings.
    let individual = Crosstable {
        kind: EventKind::Swiss,
        rounds_played: 0,
        scoring: Scoring::classical(),
        players: vec![],
    };
    for code in ["EGGSB", "BH:MP", "MPvGP", "BC"] {
        let e = standings(
            &individual,
            Edition::C07_2026,
            &list(&[code], Edition::C07_2026),
            &opts,
        )
        .unwrap_err();
        assert!(
            matches!(e, Error::TeamOnly { position: 1, .. }),
            "{code}: {e}"
        );
    }
}

#[test]
fn adr_011_seed_edition_for_teams() {
    let ct = cycle();
    let opts = Options::default();
    // Seed 3 (c): MP + GP. A: 4 + 3½.
    let codes = list(&["MPGP", "MPvGP", "SB:GP"], Edition::SeedC06);
    let s = team_standings(&ct, Edition::SeedC06, &codes, &opts).unwrap();
    assert_eq!(s.value(1, 0), Some(x(15, 2)));
    assert_eq!(s.value(1, 1), Some(x(7, 2)));
    // The 2023+ team codes are not in the seed; MP + GP is not in C.07.
    for code in ["EGGSB", "EDE", "SSSC", "BC"] {
        assert!(parse_list(&[code], Edition::SeedC06).is_err(), "{code}");
    }
    assert!(parse_list(&["MPGP"], Edition::C07_2026).is_err());
}

#[test]
fn explain_names_the_team_and_its_working() {
    let ct = cycle();
    let s = team_standings(
        &ct,
        Edition::C07_2026,
        &list(&["EDE", "EGGSB"], Edition::C07_2026),
        &Options::default(),
    )
    .unwrap();
    let text = s.explain(3).unwrap();
    assert!(text.starts_with("team 3: place 1, 4 MP, 4 GP"), "{text}");
    assert!(text.contains("EGGSB = "), "{text}");
    assert!(text.contains("R2 opponent 1"), "{text}");
    assert!(s.explain(99).is_none());
}
