//! Guidelines I (adjourned games) through the game: sealing, the envelope, resumption with
//! the responder present or absent, the arbiter's decisions of I.8, I.10 and I.12.1.

use clock::laws::guidelines_i_adjourned::Resumption;
use clock::laws::{
    Effect, Game, GameConfig, GameEvent, GameResult, MoveText, Rejection, Termination,
};
use clock::{Side, TimeControl, TimeControlTag};

fn tc(s: &str) -> TimeControl {
    match TimeControlTag::parse(s).unwrap() {
        TimeControlTag::Timed(t) => t,
        _ => panic!("timed"),
    }
}

/// A game at move 3, Black to move: 1. e4 e5 2. Nf3 Nc6 3. Bb5 (two hours each).
fn game() -> Game {
    let mut g = Game::new(GameConfig::new(tc("40/7200:1800"))).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let mut at = 0;
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        at += 60_000;
        g.apply(&GameEvent::Move {
            at,
            mv: MoveText::San(m.into()),
        })
        .unwrap();
    }
    g
}

fn adjourn(g: &mut Game, at: u64, sealed: &str) -> Vec<Effect> {
    g.apply(&GameEvent::Adjourn {
        at,
        by: Side::Black,
        sealed: MoveText::San(sealed.into()),
        session_end: None,
    })
    .unwrap()
}

#[test]
fn i_1_the_sealed_move_is_recorded_not_played_and_the_clock_stops() {
    let mut g = game();
    // White has used 3 min, Black 2 min; Black thinks 10 min and seals
    let fx = adjourn(&mut g, 900_000, "a6");
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Adjourned {
                by: Side::Black,
                move_number: 3,
                remaining_ms: [7_020_000, 6_480_000],
                ..
            }
        )),
        "{fx:?}"
    );
    assert_eq!(g.plies().len(), 5, "not played");
    assert!(g.is_adjourned());
    let env = g.adjournment().unwrap();
    assert_eq!(env.sealed_move, MoveText::San("a6".into()));
    assert_eq!(env.fen, g.fen());
    // I.6 aside, nothing else happens to an adjourned game; the clock does not run
    for ev in [
        GameEvent::Move {
            at: 2_000_000,
            mv: MoveText::San("a6".into()),
        },
        GameEvent::Resume { at: 2_000_000 },
        GameEvent::OpenEnvelope { at: 2_000_000 },
    ] {
        assert!(g.apply(&ev).is_err(), "{ev:?}");
    }
    assert_eq!(g.flag_instant(), None);
    // only the player having the move seals
    let mut h = game();
    let e = h
        .apply(&GameEvent::Adjourn {
            at: 900_000,
            by: Side::White,
            sealed: MoveText::San("a3".into()),
            session_end: None,
        })
        .unwrap_err();
    assert!(matches!(e, Rejection::NotYourMove { .. }));
}

/// I.1.2: sealing before the session's scheduled end costs the time up to it.
#[test]
fn i_1_2_sealing_early_is_charged_to_the_end_of_the_session() {
    let mut g = game();
    let fx = g
        .apply(&GameEvent::Adjourn {
            at: 900_000,
            by: Side::Black,
            sealed: MoveText::San("a6".into()),
            session_end: Some(1_200_000),
        })
        .unwrap();
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Adjourned {
                remaining_ms: [7_020_000, 6_180_000],
                charged_ms: 300_000,
                ..
            }
        )),
        "{fx:?}"
    );
}

/// I.5 / I.9.1: at resumption the clocks show the recorded times, the sealed move is played
/// and the responder's clock runs.
#[test]
fn i_9_1_resumption_plays_the_sealed_move_with_the_recorded_times() {
    let mut g = game();
    adjourn(&mut g, 900_000, "a6");
    // resumed a day later (in the service's instants)
    let at = 90_000_000;
    let fx = g
        .apply(&GameEvent::ResumeAdjourned {
            at,
            how: Resumption::ResponderPresent,
        })
        .unwrap();
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::ResumedFromAdjournment {
            remaining_ms: [7_020_000, 6_480_000]
        }
    )));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::MovePlayed { san, .. } if san == "a6"))
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::EnvelopeOpened)));
    assert!(g.adjournment().is_none());
    assert_eq!(g.side_to_move(), Side::White);
    assert_eq!(g.flag_instant(), Some(at + 7_020_000));
    g.apply(&GameEvent::Move {
        at: at + 5_000,
        mv: MoveText::San("Ba4".into()),
    })
    .unwrap();
    assert_eq!(g.plies().len(), 7);
}

/// I.9.2: the responder absent: the clock runs for them; the sealed move stays hidden until
/// the envelope is opened; I.10: not arriving in time loses.
#[test]
fn i_9_2_and_i_10_the_absent_responder() {
    let mut g = game();
    // White seals this time: one more move first
    g.apply(&GameEvent::Move {
        at: 400_000,
        mv: MoveText::San("a6".into()),
    })
    .unwrap();
    g.apply(&GameEvent::Adjourn {
        at: 500_000,
        by: Side::White,
        sealed: MoveText::San("Ba4".into()),
        session_end: None,
    })
    .unwrap();
    let at = 90_000_000;
    let fx = g
        .apply(&GameEvent::ResumeAdjourned {
            at,
            how: Resumption::ResponderAbsent,
        })
        .unwrap();
    assert!(fx.iter().any(|e| matches!(e, Effect::EnvelopeKeptClosed)));
    assert_eq!(g.side_to_move(), Side::Black, "Black's clock runs");
    assert_eq!(g.public_plies().len(), 6, "the sealed move is not shown");
    assert_eq!(g.plies().len(), 7);
    assert!(g.to_pgn(&[]).contains("a6") && !g.to_pgn(&[]).contains("Ba4"));
    // Black arrives 10 minutes late: the envelope is opened, the move is shown
    let fx = g
        .apply(&GameEvent::OpenEnvelope { at: at + 600_000 })
        .unwrap();
    assert!(fx.iter().any(|e| matches!(e, Effect::EnvelopeOpened)));
    assert_eq!(g.public_plies().len(), 7);
    // the same, but Black never comes: I.10
    let mut g = game();
    g.apply(&GameEvent::Move {
        at: 400_000,
        mv: MoveText::San("a6".into()),
    })
    .unwrap();
    g.apply(&GameEvent::Adjourn {
        at: 500_000,
        by: Side::White,
        sealed: MoveText::San("Ba4".into()),
        session_end: None,
    })
    .unwrap();
    g.apply(&GameEvent::ResumeAdjourned {
        at,
        how: Resumption::ResponderAbsent,
    })
    .unwrap();
    assert!(
        g.apply(&GameEvent::AbsentAtResumption {
            at: at + 3_600_000,
            absent: Side::White
        })
        .is_err(),
        "White is there: only the responder can be absent now"
    );
    let fx = g
        .apply(&GameEvent::AbsentAtResumption {
            at: at + 3_600_000,
            absent: Side::Black,
        })
        .unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.result, end.termination),
        (GameResult::WhiteWins, Termination::AbsentAtResumption)
    );
    assert_eq!(end.termination.article(), "Guidelines I.10");
    assert!(fx.iter().any(|e| matches!(e, Effect::GameOver(_))));
}

/// I.10, second sentence: a sealed move that ends the game decides it, whoever is absent.
#[test]
fn i_10_a_sealed_mate_decides_even_if_the_opponent_is_absent() {
    // Fool's mate: 1. f3 e5 2. g4, Black seals Qh4#
    let mut g = Game::new(GameConfig::new(tc("5400"))).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    for (i, m) in ["f3", "e5", "g4"].iter().enumerate() {
        g.apply(&GameEvent::Move {
            at: 1_000 * (i as u64 + 1),
            mv: MoveText::San((*m).into()),
        })
        .unwrap();
    }
    g.apply(&GameEvent::Adjourn {
        at: 10_000,
        by: Side::Black,
        sealed: MoveText::San("Qh4#".into()),
        session_end: None,
    })
    .unwrap();
    g.apply(&GameEvent::AbsentAtResumption {
        at: 20_000,
        absent: Side::Black,
    })
    .unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.result, end.termination),
        (GameResult::BlackWins, Termination::Checkmate)
    );
}

/// I.8: a sealed move that is illegal, ambiguous or unreadable loses; a draw when the
/// opponent cannot checkmate (ADR clock-009).
#[test]
fn i_8_a_faulty_sealed_move_loses() {
    for (sealed, termination) in [
        ("Ke4", Termination::SealedMoveIllegal),
        ("N", Termination::SealedMoveUnreadable),
    ] {
        let mut g = game();
        adjourn(&mut g, 900_000, sealed);
        g.apply(&GameEvent::ResumeAdjourned {
            at: 1_000_000,
            how: Resumption::ResponderPresent,
        })
        .unwrap();
        let end = g.end().unwrap();
        assert_eq!(
            (end.result, end.termination),
            (GameResult::WhiteWins, termination),
            "{sealed}"
        );
    }
    // ambiguous: knights on c6 and g8... Black's Ne7 fits both g8 and c6
    let mut g = game();
    adjourn(&mut g, 900_000, "Ne7");
    g.apply(&GameEvent::ResumeAdjourned {
        at: 1_000_000,
        how: Resumption::ResponderPresent,
    })
    .unwrap();
    assert_eq!(
        g.end().unwrap().termination,
        Termination::SealedMoveAmbiguous
    );
    // the opponent has a bare king: a draw
    let mut cfg = GameConfig::new(tc("5400"));
    cfg.start_fen = Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into());
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    g.apply(&GameEvent::Adjourn {
        at: 1_000,
        by: Side::White,
        sealed: MoveText::San("e5".into()),
        session_end: None,
    })
    .unwrap();
    g.apply(&GameEvent::ResumeAdjourned {
        at: 2_000,
        how: Resumption::ResponderPresent,
    })
    .unwrap();
    let end = g.end().unwrap();
    assert_eq!(
        (end.result, end.termination),
        (
            GameResult::Draw,
            Termination::SealedMoveFaultOpponentCannotMate
        )
    );
}

/// I.12.1: the envelope missing: the position before the adjournment, the recorded times,
/// the sealer to move. I.6: a draw agreed before resumption ends the game.
#[test]
fn i_12_1_and_i_6() {
    let mut g = game();
    adjourn(&mut g, 900_000, "a6");
    let fx = g
        .apply(&GameEvent::ResumeAdjourned {
            at: 5_000_000,
            how: Resumption::EnvelopeMissing,
        })
        .unwrap();
    assert!(fx.iter().any(|e| matches!(e, Effect::EnvelopeMissing)));
    assert_eq!(g.side_to_move(), Side::Black);
    assert_eq!(g.flag_instant(), Some(5_000_000 + 6_480_000));
    let mut g = game();
    adjourn(&mut g, 900_000, "a6");
    g.apply(&GameEvent::DrawAgreed { at: 2_000_000 }).unwrap();
    assert_eq!(g.end().unwrap().termination, Termination::DrawAgreement);
}
