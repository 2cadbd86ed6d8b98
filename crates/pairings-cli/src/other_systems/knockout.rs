//! `arbiter pair --system knockout --trf FILE` and the pairing service's `knockout` system:
//! the next TRF round of a knockout in progress (seed 000, "Systèmes K.O."), from the file's
//! history. This is the TRF adapter only: it reads the player records (pairing number = seed,
//! one round block per game) into [`knockout::RoundRecords`] and the pure crate `knockout`
//! replays them by its rules ([`knockout::next_round`], ADR
//! `docs/decisions/knockout-005-history-from-trf.md`). What is wrong in the records themselves
//! (colours, result codes that do not match, a double forfeit) is said here; what the games
//! cannot be in a knockout is said by the crate; both name the line and column.
use std::collections::BTreeMap;

use knockout::match_play::GameResult;
use knockout::{GameOutcome, HistoryError, ReplayError, RoundRecords};
use trf::{Colour, Opponent, Record, ResultCode, TrfDocument};

use super::{PairError, PairedRound, invalid, no_pairing};

// The tests name the bracket formats.
#[cfg(test)]
use knockout::BracketFormat;
pub use knockout::history::{
    KnockoutBoard, KnockoutNext, KnockoutOptions, KnockoutPairing, default_tie_breaks, match_format,
};

/// Regular games per match when the event does not say (`--games`).
pub const DEFAULT_GAMES: u32 = knockout::match_play::DEFAULT_GAMES;

/// The tie-break stages used when the event does not say (`--tie-breaks`): 2 rapid games,
/// then 2 blitz games, then one Armageddon game (always decisive: a draw is a win for
/// Black, seed 000 "Playoff" 1 (b)).
pub const DEFAULT_TIE_BREAKS: &str = knockout::match_play::DEFAULT_TIE_BREAKS;

/// Parses a list of tie-break stages: `none`, or comma-separated `rapid:N`, `blitz:N`,
/// `armageddon`, `sudden-death:N` (e.g. `rapid:2,blitz:2,armageddon`). The one parser of
/// the CLI, the registry's settings and the pairing service: [`knockout::match_play::parse_tie_breaks`].
pub use knockout::match_play::parse_tie_breaks;

/// As the other systems' round: boards only (an exempt player is not a pairing-allocated
/// bye: he scores nothing and is simply not paired).
#[must_use]
pub fn to_paired_round(p: &KnockoutPairing) -> PairedRound {
    PairedRound {
        round: p.round,
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        bye: None,
        notes: vec![],
    }
}

/// One round block of a player record, with where it is in the file.
struct Block {
    opponent: u32,
    colour: Colour,
    result: ResultCode,
    line: usize,
}

/// Where a round block is: `line L, column C: round R`.
fn place(line: usize, r: usize) -> String {
    format!(
        "line {line}, column {}: round {r}",
        trf::player::layout::opponent_col(r)
    )
}

/// What the round blocks `ba` (of `a`, the lower pairing number) and `bb` (of `b`) say about
/// their game of round `r`.
fn outcome(r: usize, a: u32, ba: &Block, b: u32, bb: &Block) -> Result<GameOutcome, PairError> {
    let at = |x: &Block| place(x.line, r);
    // Forfeits end the match (ADR knockout-002).
    let forfeit = |c: ResultCode| matches!(c, ResultCode::ForfeitWin | ResultCode::ForfeitLoss);
    if forfeit(ba.result) || forfeit(bb.result) {
        return match (ba.result, bb.result) {
            (ResultCode::ForfeitWin, ResultCode::ForfeitLoss) => {
                Ok(GameOutcome::Forfeit { loser: b })
            }
            (ResultCode::ForfeitLoss, ResultCode::ForfeitWin) => {
                Ok(GameOutcome::Forfeit { loser: a })
            }
            (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss) => Err(invalid(format!(
                "{}: double forfeit in the match {a}–{b}: a knockout needs a winner (record who goes through as `+`)",
                at(ba),
            ))),
            _ => Err(invalid(format!(
                "{}: results {} and {} of the match {a}–{b} do not match",
                at(ba),
                ba.result.to_char(),
                bb.result.to_char(),
            ))),
        };
    }
    let a_white = match (ba.colour, bb.colour) {
        (Colour::White, Colour::Black) => true,
        (Colour::Black, Colour::White) => false,
        _ => {
            return Err(invalid(format!(
                "{}: colours {} and {} of the game {a}–{b}: one White, one Black",
                at(ba),
                ba.colour.to_char(),
                bb.colour.to_char(),
            )));
        }
    };
    let a_points = match ba.result {
        ResultCode::Win | ResultCode::UnratedWin => 2,
        ResultCode::Draw | ResultCode::UnratedDraw => 1,
        ResultCode::Loss | ResultCode::UnratedLoss => 0,
        other => {
            return Err(invalid(format!(
                "{}: result {:?} is not a game result (1 = 0 + - W D L)",
                at(ba),
                other.to_char()
            )));
        }
    };
    if ba.result.mirror() != Some(bb.result) {
        return Err(invalid(format!(
            "{}: results {} and {} of the game {a}–{b} do not match",
            at(bb),
            ba.result.to_char(),
            bb.result.to_char(),
        )));
    }
    let result = match (a_points, a_white) {
        (1, _) => GameResult::Draw,
        (2, true) | (0, false) => GameResult::WhiteWins,
        _ => GameResult::BlackWins,
    };
    Ok(GameOutcome::Played {
        white: if a_white { a } else { b },
        result,
    })
}

/// The games of round `r` as the player records give them.
fn round_records(
    lines: &BTreeMap<u32, (usize, &trf::PlayerRecord)>,
    r: usize,
) -> RoundRecords<PairError> {
    let mut blocks: BTreeMap<u32, Block> = BTreeMap::new();
    for (&t, (line, p)) in lines {
        let Some(rr) = p.round(r) else { continue };
        if let Opponent::Player(o) = rr.opponent {
            blocks.insert(
                t,
                Block {
                    opponent: u32::from(o),
                    colour: rr.colour,
                    result: rr.result,
                    line: *line,
                },
            );
        }
    }
    let mut records = RoundRecords::default();
    for (&a, ba) in &blocks {
        records.opponents.insert(a, ba.opponent);
        let b = ba.opponent;
        if let Some(bb) = blocks.get(&b).filter(|bb| a < b && bb.opponent == a) {
            records.games.insert((a, b), outcome(r, a, ba, b, bb));
        }
    }
    records
}

/// The next TRF round `round` of the knockout recorded in `doc` (rounds `< round` are the
/// history).
pub fn pair(
    doc: &TrfDocument,
    round: usize,
    options: &KnockoutOptions,
) -> Result<KnockoutNext, PairError> {
    // Player records: pairing numbers 1..=N, each with its line.
    let mut lines: BTreeMap<u32, (usize, &trf::PlayerRecord)> = BTreeMap::new();
    for (i, l) in doc.lines.iter().enumerate() {
        if let Record::Player(p) = &l.record {
            let Some(t) = p.tpn().filter(|t| *t > 0) else {
                return Err(invalid(format!(
                    "line {}, columns 5-8: player record '{}' has no pairing number",
                    i + 1,
                    p.name
                )));
            };
            if lines.insert(u32::from(t), (i + 1, p)).is_some() {
                return Err(invalid(format!(
                    "line {}, columns 5-8: pairing number {t} is used twice",
                    i + 1
                )));
            }
        }
    }
    let n = u32::try_from(lines.len()).unwrap_or(u32::MAX);
    if let Some((&t, (line, _))) = lines.iter().find(|(t, _)| **t > n) {
        return Err(invalid(format!(
            "line {line}, columns 5-8: pairing number {t} with {n} players; a knockout is seeded by pairing numbers 1..={n}"
        )));
    }
    knockout::next_round(n, round, options, &|r| round_records(&lines, r)).map_err(|e| match e {
        ReplayError::Record(e) => e,
        // Said in the file's terms: a drawing of lots has no place in a TRF.
        ReplayError::Rules(HistoryError::TieBreaksExhausted {
            round,
            a,
            b,
            bracket_round,
        }) => no_pairing(format!(
            "round {round}: the match {a}–{b} (bracket round {bracket_round}) is level after every configured stage: its winner is drawn by lot, which a TRF cannot record; pair the next round by hand or configure more tie-break games"
        )),
        ReplayError::Rules(e) => match e.place() {
            Some((t, r)) => {
                let line = lines.get(&t).map_or(0, |l| l.0);
                invalid(format!("{}: {e}", place(line, r)))
            }
            None => invalid(e.to_string()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use trf::{PlayerRecord, RoundResult};

    /// A field of `n` players with no game yet.
    fn field(n: u16) -> Vec<PlayerRecord> {
        (1..=n)
            .map(|t| PlayerRecord::new(t, format!("Player {t}")))
            .collect()
    }

    /// Records a game of round `r`: `white` scored `result` (`1`, `=`, `0`, `+`, `-`).
    fn game(ps: &mut [PlayerRecord], r: usize, white: u16, black: u16, result: char) {
        let w = ResultCode::parse(result);
        let b = match w {
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            other => other.mirror().unwrap_or(other),
        };
        ps[usize::from(white) - 1].set_round(r, RoundResult::game(black, Colour::White, w));
        ps[usize::from(black) - 1].set_round(r, RoundResult::game(white, Colour::Black, b));
    }

    fn doc(ps: &[PlayerRecord]) -> TrfDocument {
        let mut d = TrfDocument::new();
        for p in ps {
            d.push(Record::Player(p.clone()));
        }
        d
    }

    fn next(ps: &[PlayerRecord], round: usize) -> KnockoutNext {
        pair(&doc(ps), round, &KnockoutOptions::default()).unwrap()
    }

    fn boards(n: &KnockoutNext) -> Vec<(u32, u32)> {
        match n {
            KnockoutNext::Pair(p) => p.boards.iter().map(|b| (b.white, b.black)).collect(),
            KnockoutNext::Over { .. } => panic!("knockout over: {n:?}"),
        }
    }

    #[test]
    fn four_players_round_1_is_1_v_4_and_2_v_3_the_better_seed_white() {
        let ps = field(4);
        let n = next(&ps, 1);
        assert_eq!(boards(&n), [(1, 4), (2, 3)]);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert_eq!((p.bracket_round, p.bracket_rounds), (1, 2));
        assert!(p.exempt.is_empty());
        assert!(p.boards.iter().all(|b| b.stage == "standard"));
    }

    #[test]
    fn colours_alternate_in_the_second_game_of_the_match() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '=');
        game(&mut ps, 1, 2, 3, '=');
        assert_eq!(boards(&next(&ps, 2)), [(4, 1), (3, 2)]);
    }

    /// Issue 8 acceptance: "a 2-game match tied 1–1 goes to the configured tie-break games";
    /// the decided match waits, then the final is paired between the winners.
    #[test]
    fn a_match_tied_1_1_goes_to_tie_breaks_then_the_final_is_paired_between_the_winners() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '1');
        game(&mut ps, 1, 2, 3, '1');
        game(&mut ps, 2, 4, 1, '='); // 1–4: 1½–½
        game(&mut ps, 2, 3, 2, '1'); // 2–3: 1–1
        let n = next(&ps, 3);
        assert_eq!(boards(&n), [(2, 3)], "only the tied match's tie-break game");
        let KnockoutNext::Pair(p) = &n else { panic!() };
        assert_eq!(p.boards[0].stage, "rapid");
        assert_eq!(p.boards[0].game_in_match, 3);
        assert_eq!(p.exempt, [1], "the winner of 1–4 waits");
        // Rapid game 1 drawn, rapid game 2 won by 3 (with White: alternation goes on).
        game(&mut ps, 3, 2, 3, '=');
        assert_eq!(boards(&next(&ps, 4)), [(3, 2)]);
        game(&mut ps, 4, 3, 2, '1');
        let f = next(&ps, 5);
        assert_eq!(boards(&f), [(1, 3)], "final: 1 v 3, the better seed White");
        let KnockoutNext::Pair(p) = &f else { panic!() };
        assert_eq!((p.bracket_round, p.boards[0].stage), (2, "standard"));
        game(&mut ps, 5, 1, 3, '0');
        game(&mut ps, 6, 3, 1, '1');
        assert_eq!(
            next(&ps, 7),
            KnockoutNext::Over {
                champion: 3,
                final_round: 6
            }
        );
    }

    #[test]
    fn the_tied_match_reaches_blitz_and_armageddon_where_a_draw_wins_for_black() {
        let mut ps = field(2);
        let mut r = 0;
        let mut play = |ps: &mut Vec<PlayerRecord>, result: char| -> KnockoutNext {
            r += 1;
            let KnockoutNext::Pair(p) = next(ps, r) else {
                panic!("over at {r}")
            };
            let b = &p.boards[0];
            let (w, k) = (
                u16::try_from(b.white).unwrap(),
                u16::try_from(b.black).unwrap(),
            );
            game(ps, r, w, k, result);
            next(ps, r + 1)
        };
        for _ in 0..6 {
            play(&mut ps, '=');
        }
        let KnockoutNext::Pair(p) = next(&ps, 7) else {
            panic!()
        };
        assert_eq!(p.boards[0].stage, "armageddon");
        let black = p.boards[0].black;
        let over = play(&mut ps, '=');
        assert_eq!(
            over,
            KnockoutNext::Over {
                champion: black,
                final_round: 7
            }
        );
    }

    /// Seed 000, "Systèmes K.O.": "47 joueurs : (47 − 32) × 2 = 30. 17 joueurs sont dispensés
    /// du 1er tour et 15 joueurs sont désignés par ce premier tour."
    #[test]
    fn seed_000_47_players_preliminary_round_15_matches_17_exempt() {
        let n = next(&field(47), 1);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert!(p.preliminary);
        assert_eq!(p.boards.len(), 15);
        assert_eq!(p.exempt, (1..=17).collect::<Vec<_>>());
        assert_eq!((p.boards[0].white, p.boards[0].black), (18, 47));
        assert_eq!((p.boards[14].white, p.boards[14].black), (32, 33));
        assert_eq!(p.bracket_rounds, 6);
    }

    #[test]
    fn after_the_preliminary_round_the_qualifiers_meet_the_exempt_players() {
        let mut ps = field(5);
        // Preliminary round: 4–5 (3 exempt), won by 5 in two games.
        game(&mut ps, 1, 4, 5, '0');
        game(&mut ps, 2, 5, 4, '1');
        let n = next(&ps, 3);
        // Main bracket of 4: 1 v (winner 4–5), 2 v 3; 1 White against 5.
        assert_eq!(boards(&n), [(1, 5), (2, 3)]);
    }

    #[test]
    fn a_forfeit_ends_the_match() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '-');
        game(&mut ps, 1, 2, 3, '1');
        let n = next(&ps, 2);
        assert_eq!(boards(&n), [(3, 2)]);
        let KnockoutNext::Pair(p) = n else { panic!() };
        assert_eq!(p.exempt, [4]);
    }

    #[test]
    fn colours_of_a_stage_s_first_game_are_read_from_the_file_then_alternate() {
        let mut ps = field(2);
        game(&mut ps, 1, 2, 1, '='); // colours drawn: 2 White in game 1
        assert_eq!(boards(&next(&ps, 2)), [(1, 2)]);
        game(&mut ps, 2, 2, 1, '='); // game 2 must give White to 1
        let e = pair(&doc(&ps), 3, &KnockoutOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("colours alternate within a stage"),
            "{e}"
        );
        assert!(e.to_string().contains("line 1, column 102: round 2"), "{e}");
    }

    #[test]
    fn a_game_outside_the_bracket_or_a_missing_game_is_an_error_naming_the_line() {
        let mut ps = field(4);
        game(&mut ps, 1, 1, 2, '1');
        game(&mut ps, 1, 3, 4, '1');
        let e = pair(&doc(&ps), 2, &KnockoutOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("line 1, column 92: round 1")
                && e.to_string().contains("its match is against 4"),
            "{e}"
        );
        let mut ps = field(4);
        game(&mut ps, 1, 1, 4, '1');
        let e = pair(&doc(&ps), 2, &KnockoutOptions::default()).unwrap_err();
        assert!(e.to_string().contains("was not played"), "{e}");
        assert!(matches!(e, PairError::Invalid(_)));
    }

    #[test]
    fn one_game_matches_without_tie_breaks_and_the_tie_break_parser() {
        let options = KnockoutOptions {
            bracket: BracketFormat::PreliminaryRound,
            match_format: match_format(1, parse_tie_breaks("none").unwrap()),
        };
        let mut ps = field(2);
        game(&mut ps, 1, 1, 2, '=');
        let e = pair(&doc(&ps), 2, &options).unwrap_err();
        assert!(matches!(e, PairError::NoPairing(_)), "{e}");
        assert!(e.to_string().contains("drawn by lot"), "{e}");
        assert_eq!(parse_tie_breaks(DEFAULT_TIE_BREAKS).unwrap().len(), 3);
        assert!(parse_tie_breaks("rapid").is_err());
        assert!(parse_tie_breaks("rapid:0").is_err());
        assert!(parse_tie_breaks("armageddon:1").is_err());
        assert!(parse_tie_breaks("bullet:2").is_err());
    }

    /// Every field size and bracket format is played to its final from the file alone:
    /// each TRF round pairs every player still in at most once, and the knockout ends.
    #[test]
    fn every_field_and_format_is_played_to_a_champion() {
        for bracket in [
            BracketFormat::PreliminaryRound,
            BracketFormat::ByesBySeeding,
            BracketFormat::ByeInEachOddRound,
        ] {
            for n in 2..=19u16 {
                let options = KnockoutOptions {
                    bracket,
                    ..KnockoutOptions::default()
                };
                let mut ps = field(n);
                let mut r = 1;
                let champion = loop {
                    match pair(&doc(&ps), r, &options).unwrap() {
                        KnockoutNext::Over {
                            champion,
                            final_round,
                        } => {
                            assert_eq!(final_round, r - 1);
                            break champion;
                        }
                        KnockoutNext::Pair(p) => {
                            let mut seen = std::collections::BTreeSet::new();
                            for b in &p.boards {
                                assert!(seen.insert(b.white) && seen.insert(b.black));
                                let result = ['1', '=', '0'][(r + b.white as usize) % 3];
                                let w = u16::try_from(b.white).unwrap();
                                let k = u16::try_from(b.black).unwrap();
                                game(&mut ps, r, w, k, result);
                            }
                            assert!(p.exempt.iter().all(|t| !seen.contains(t)));
                        }
                    }
                    r += 1;
                    assert!(r < 200, "{bracket:?} {n}: no end");
                };
                assert!((1..=u32::from(n)).contains(&champion));
            }
        }
    }

    #[test]
    fn pairing_numbers_must_be_1_to_n() {
        let mut ps = field(3);
        ps[2] = PlayerRecord::new(7, "Seven");
        let e = pair(&doc(&ps), 1, &KnockoutOptions::default()).unwrap_err();
        assert!(e.to_string().contains("line 3, columns 5-8"), "{e}");
    }
}
