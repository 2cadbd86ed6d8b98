//! Seed 000, "Systèmes K.O.": "un nombre fixé d'avance de parties, avec système de départage en
//! cas d'égalité" — the match state machine with tie-break stages.

use knockout::match_play::{
    Decision, GameResult, KnockoutMatch, MatchFormat, MatchStatus, RateOfPlay, Side, Stage,
    StageRule,
};
use proptest::prelude::*;

fn stage(rule: StageRule, rate: RateOfPlay, first_white: Option<Side>) -> Stage {
    Stage {
        rule,
        rate,
        first_white,
    }
}

/// Two standard games, then 2 rapid, then 2 blitz, then Armageddon (colours drawn: B White).
fn two_games_with_tie_breaks() -> MatchFormat {
    MatchFormat::games_then(
        2,
        RateOfPlay::Standard,
        Side::A,
        vec![
            stage(StageRule::Games(2), RateOfPlay::Rapid("25+10".into()), None),
            stage(StageRule::Games(2), RateOfPlay::Blitz("5+3".into()), None),
            stage(
                StageRule::Armageddon,
                RateOfPlay::Blitz("5 v 4".into()),
                Some(Side::B),
            ),
        ],
    )
}

fn next(status: MatchStatus) -> (usize, u32, Side) {
    match status {
        MatchStatus::InProgress(g) => (g.stage, g.game_in_stage, g.white),
        other => panic!("expected a next game, got {other:?}"),
    }
}

/// Seed 000, "Systèmes K.O.": a 2-game match tied 1–1 goes to the configured tie-break games;
/// colours alternate; the Armageddon draw is a win for Black (seed 000 "Playoff" 1 (b)).
#[test]
fn seed_000_systemes_ko_two_game_match_tied_1_1_goes_to_tie_breaks() {
    let mut m = KnockoutMatch::new(two_games_with_tie_breaks()).unwrap();
    assert_eq!(next(m.status()), (0, 1, Side::A));
    assert_eq!(
        next(m.record(GameResult::WhiteWins).unwrap()),
        (0, 2, Side::B)
    ); // A 1-0
    // B wins with White: 1–1 after the two regular games → first tie-break stage (rapid).
    let s = m.record(GameResult::WhiteWins).unwrap();
    assert_eq!(
        next(s),
        (1, 1, Side::A),
        "rapid game 1, colours keep alternating"
    );
    assert_eq!(m.stage_score_half_points(0), (2, 2));
    m.record(GameResult::Draw).unwrap();
    let s = m.record(GameResult::Draw).unwrap();
    assert_eq!(next(s), (2, 1, Side::A), "rapid 1–1 → blitz");
    m.record(GameResult::BlackWins).unwrap(); // B wins with Black
    let s = m.record(GameResult::BlackWins).unwrap(); // A wins with Black
    assert_eq!(
        next(s),
        (3, 1, Side::B),
        "blitz 1–1 → Armageddon, B White by lot"
    );
    let s = m.record(GameResult::Draw).unwrap();
    assert_eq!(
        s,
        MatchStatus::Decided {
            winner: Side::A,
            decision: Decision::OverTheBoard { stage: 3 }
        },
        "Armageddon draw: Black (A) goes through"
    );
    assert_eq!(m.games().len(), 7);
    assert!(
        m.record(GameResult::Draw).is_err(),
        "no game after the decision"
    );
}

/// A 2-game match won 1.5–0.5 is decided in the regular games.
#[test]
fn two_game_match_won_in_regular_games() {
    let mut m = KnockoutMatch::new(two_games_with_tie_breaks()).unwrap();
    m.record(GameResult::Draw).unwrap();
    let s = m.record(GameResult::BlackWins).unwrap(); // A has Black in game 2
    assert_eq!(
        s,
        MatchStatus::Decided {
            winner: Side::A,
            decision: Decision::OverTheBoard { stage: 0 }
        }
    );
}

/// A stage stops as soon as the remaining games cannot change the outcome (3–0 in a 4-game
/// stage), but not before (2–0 with two to play).
#[test]
fn stage_stops_when_the_remaining_games_cannot_change_it() {
    let f = MatchFormat::games_then(4, RateOfPlay::Rapid("15+10".into()), Side::A, vec![]);
    let mut m = KnockoutMatch::new(f).unwrap();
    m.record(GameResult::WhiteWins).unwrap(); // A
    let s = m.record(GameResult::BlackWins).unwrap(); // A with Black: 2–0
    assert!(matches!(s, MatchStatus::InProgress(_)));
    let s = m.record(GameResult::WhiteWins).unwrap(); // A: 3–0
    assert!(matches!(
        s,
        MatchStatus::Decided {
            winner: Side::A,
            ..
        }
    ));
}

/// One game and no tie-break configured: a draw leaves the match level; only then may the lot
/// decide.
#[test]
fn single_game_without_tie_breaks_is_exhausted_then_lot() {
    let f = MatchFormat::games_then(1, RateOfPlay::Standard, Side::B, vec![]);
    let mut m = KnockoutMatch::new(f).unwrap();
    assert!(
        m.decide_by_lot(Side::A).is_err(),
        "lot refused while the game is to be played"
    );
    assert_eq!(
        m.record(GameResult::Draw).unwrap(),
        MatchStatus::TieBreaksExhausted
    );
    assert!(m.record(GameResult::Draw).is_err());
    assert_eq!(
        m.decide_by_lot(Side::B).unwrap(),
        MatchStatus::Decided {
            winner: Side::B,
            decision: Decision::Lot
        }
    );
}

/// Sudden death: the first decisive game wins the match.
#[test]
fn sudden_death_first_decisive_game_wins() {
    let f = MatchFormat::games_then(
        1,
        RateOfPlay::Standard,
        Side::A,
        vec![stage(
            StageRule::SuddenDeath(5),
            RateOfPlay::Blitz("3+2".into()),
            None,
        )],
    );
    let mut m = KnockoutMatch::new(f).unwrap();
    m.record(GameResult::Draw).unwrap();
    m.record(GameResult::Draw).unwrap(); // sudden death game 1 (B White)
    let s = m.record(GameResult::BlackWins).unwrap(); // game 2, A White, B wins
    assert_eq!(
        s,
        MatchStatus::Decided {
            winner: Side::B,
            decision: Decision::OverTheBoard { stage: 1 }
        }
    );
}

#[test]
fn forfeit_sends_the_opponent_through() {
    let mut m = KnockoutMatch::new(two_games_with_tie_breaks()).unwrap();
    m.record(GameResult::Draw).unwrap();
    assert_eq!(
        m.forfeit(Side::A).unwrap(),
        MatchStatus::Decided {
            winner: Side::B,
            decision: Decision::Forfeit
        }
    );
    assert!(m.forfeit(Side::B).is_err());
}

/// Seed 000, "Playoff" 1 (a)+(b): the two-player scheme as a match format.
#[test]
fn seed_000_playoff_1_two_blitz_games_then_armageddon() {
    let mut m =
        KnockoutMatch::new(MatchFormat::seed_000_playoff_two_players(Side::A, Side::A)).unwrap();
    m.record(GameResult::Draw).unwrap();
    let s = m.record(GameResult::Draw).unwrap();
    assert_eq!(next(s), (1, 1, Side::A));
    let s = m.record(GameResult::Draw).unwrap();
    assert!(
        matches!(
            s,
            MatchStatus::Decided {
                winner: Side::B,
                ..
            }
        ),
        "draw: Black wins"
    );
}

fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::WhiteWins),
        Just(GameResult::Draw),
        Just(GameResult::BlackWins)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the results: a match with an Armageddon at the end always ends decided, within
    /// the configured number of games; colours alternate except where a stage resets them; the
    /// winner scored more in the deciding stage.
    #[test]
    fn match_always_ends_decided_with_armageddon(results in proptest::collection::vec(result(), 0..12)) {
        let mut m = KnockoutMatch::new(two_games_with_tie_breaks()).unwrap();
        for r in results {
            if let MatchStatus::Decided { .. } = m.status() {
                prop_assert!(m.record(r).is_err());
                break;
            }
            m.record(r).unwrap();
        }
        prop_assert!(m.games().len() <= 7);
        for w in m.games().windows(2) {
            let same_stage = w[0].game.stage == w[1].game.stage;
            if same_stage || w[1].game.stage != 3 {
                prop_assert_ne!(w[0].game.white, w[1].game.white);
            }
        }
        if let MatchStatus::Decided { winner, decision: Decision::OverTheBoard { stage } } = m.status() {
            let (a, b) = m.stage_score_half_points(stage);
            let winner_ahead = if winner == Side::A { a > b } else { b > a };
            prop_assert!(winner_ahead);
        }
        // Completing the match with draws always reaches a decision (the Armageddon).
        while let MatchStatus::InProgress(_) = m.status() {
            m.record(GameResult::Draw).unwrap();
        }
        let decided = matches!(m.status(), MatchStatus::Decided { .. });
        prop_assert!(decided);
    }
}
