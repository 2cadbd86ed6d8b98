//! Hand-built tests per Law: each sets up a FEN or move sequence that triggers the article.

use clock::laws::{
    ClaimRule, Effect, Game, GameConfig, GameEvent, GameResult, LawsEdition, MoveText,
    QuickplayDecision, Rejection, Supervision, Termination,
};
use clock::{RateOfPlay, Side, TimeControl, TimeControlTag};

fn tc(s: &str) -> TimeControl {
    match TimeControlTag::parse(s).unwrap() {
        TimeControlTag::Timed(t) => t,
        _ => panic!("timed"),
    }
}

fn game(control: &str, fen: Option<&str>) -> Game {
    let mut cfg = GameConfig::new(tc(control));
    cfg.start_fen = fen.map(str::to_string);
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    g
}

fn san(at: u64, s: &str) -> GameEvent {
    GameEvent::Move {
        at,
        mv: MoveText::San(s.to_string()),
    }
}

/// Plays SAN moves one second apart starting at `t`; returns the effects of the last.
fn play(g: &mut Game, t: &mut u64, moves: &[&str]) -> Vec<Effect> {
    let mut last = Vec::new();
    for m in moves {
        *t += 1_000;
        last = g.apply(&san(*t, m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    last
}

fn ended(g: &Game) -> (GameResult, Termination) {
    let e = g.end().expect("game over");
    (e.result, e.termination)
}

#[test]
fn law_5_1_1_checkmate_ends_the_game_at_once() {
    let mut g = game("5400+30", None);
    let mut t = 0;
    let fx = play(
        &mut g,
        &mut t,
        &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::GameOver(_))));
    assert_eq!(ended(&g), (GameResult::WhiteWins, Termination::Checkmate));
    assert_eq!(g.flag_instant(), None, "clock stopped");
    // a move or a flag after the end changes nothing
    assert!(matches!(
        g.apply(&san(t + 1, "Ke7")),
        Err(Rejection::GameOver { .. })
    ));
    assert!(matches!(
        g.apply(&GameEvent::FlagCheck { at: 99_999_999 }),
        Err(Rejection::GameOver { .. })
    ));
    assert_eq!(ended(&g), (GameResult::WhiteWins, Termination::Checkmate));
}

#[test]
fn law_5_2_1_stalemate() {
    let mut g = game("5400+30", Some("7k/8/6Q1/8/8/8/8/K7 w - - 0 1"));
    let mut t = 0;
    play(&mut g, &mut t, &["Qf7"]);
    assert_eq!(ended(&g), (GameResult::Draw, Termination::Stalemate));
}

#[test]
fn law_5_2_2_dead_position_after_capture_of_the_last_rook() {
    let mut g = game("5400+30", Some("8/8/8/8/8/2k5/2R5/6K1 b - - 0 1"));
    let mut t = 0;
    play(&mut g, &mut t, &["Kxc2"]);
    assert_eq!(ended(&g), (GameResult::Draw, Termination::DeadPosition));
}

#[test]
fn law_5_2_2_same_coloured_bishops_are_dead() {
    // White Bc1 (dark) and Black Bf8 (dark) after Black's bishop takes the last pawn on h6? Use
    // a plain capture of a knight leaving only same-coloured bishops.
    let mut g = game("5400+30", Some("5b2/8/4k3/8/8/3K4/4n3/2B5 w - - 0 1"));
    let mut t = 0;
    play(&mut g, &mut t, &["Kxe2"]);
    assert_eq!(ended(&g), (GameResult::Draw, Termination::DeadPosition));
}

#[test]
fn law_9_6_1_fivefold_ends_automatically_and_9_2_threefold_claim_is_valid() {
    let mut g = game("5400+30", None);
    let mut t = 0;
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    play(&mut g, &mut t, &cycle);
    play(&mut g, &mut t, &cycle);
    // initial position now seen three times, White to move: a 9.2 claim is correct
    assert_eq!(g.repetitions(), 3);
    let mut claim_game = g.clone();
    claim_game
        .apply(&GameEvent::DrawClaim {
            at: t + 1,
            by: Side::White,
            rule: ClaimRule::Threefold,
            intended: None,
        })
        .unwrap();
    assert_eq!(
        ended(&claim_game),
        (GameResult::Draw, Termination::ThreefoldClaim)
    );
    // without a claim the game goes on until the fifth occurrence
    play(&mut g, &mut t, &cycle);
    assert!(g.end().is_none(), "fourth occurrence does not end the game");
    play(&mut g, &mut t, &cycle[..3]);
    assert!(g.end().is_none());
    play(&mut g, &mut t, &cycle[3..]);
    assert_eq!(
        ended(&g),
        (GameResult::Draw, Termination::FivefoldRepetition)
    );
}

#[test]
fn law_9_2_threefold_claim_on_an_intended_move() {
    let mut g = game("5400+30", None);
    let mut t = 0;
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    play(&mut g, &mut t, &cycle);
    play(&mut g, &mut t, &cycle);
    play(&mut g, &mut t, &["Nf3", "Nf6", "Ng1"]);
    // Black to move; Ng8 would produce the start position for the fourth time
    g.apply(&GameEvent::DrawClaim {
        at: t + 1,
        by: Side::Black,
        rule: ClaimRule::Threefold,
        intended: Some(MoveText::San("Ng8".into())),
    })
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Termination::ThreefoldClaim));
}

#[test]
fn law_9_6_2_seventy_five_moves_end_automatically() {
    let mut g = game("5400+30", Some("8/8/8/8/8/2k5/8/R3K3 w - - 149 80"));
    let mut t = 0;
    play(&mut g, &mut t, &["Ra2"]);
    assert_eq!(ended(&g), (GameResult::Draw, Termination::SeventyFiveMoves));
}

#[test]
fn law_9_6_2_mate_on_the_75th_move_takes_precedence() {
    let mut g = game("5400+30", Some("k7/8/1K6/8/8/8/8/7R w - - 149 80"));
    let mut t = 0;
    play(&mut g, &mut t, &["Rh8#"]);
    assert_eq!(ended(&g), (GameResult::WhiteWins, Termination::Checkmate));
}

#[test]
fn law_9_3_fifty_move_claim_correct_and_incorrect() {
    let fen = "8/8/8/8/8/2k5/8/R3K3 w - - 99 60";
    // now: 99 halfmoves, incorrect without an intended move
    let mut g = game("5400+30", Some(fen));
    let fx = g
        .apply(&GameEvent::DrawClaim {
            at: 1_000,
            by: Side::White,
            rule: ClaimRule::FiftyMoves,
            intended: None,
        })
        .unwrap();
    assert!(fx.contains(&Effect::TimeAdded {
        side: Side::Black,
        ms: 120_000,
        article: "9.5.3"
    }));
    assert!(g.end().is_none());
    // with an intended quiet move the 50 moves are completed: correct
    let mut g = game("5400+30", Some(fen));
    g.apply(&GameEvent::DrawClaim {
        at: 1_000,
        by: Side::White,
        rule: ClaimRule::FiftyMoves,
        intended: Some(MoveText::Uci("a1a2".into())),
    })
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Termination::FiftyMoveClaim));
}

#[test]
fn law_9_5_3_incorrect_claim_penalty_and_declared_move_must_be_played() {
    // rapid: one minute (A.3)
    let mut g = game("900+10", None);
    assert_eq!(g.config().rate, RateOfPlay::Rapid);
    let before = g.clock().remaining_at(Side::Black, 1_000);
    let fx = g
        .apply(&GameEvent::DrawClaim {
            at: 1_000,
            by: Side::White,
            rule: ClaimRule::Threefold,
            intended: Some(MoveText::San("e4".into())),
        })
        .unwrap();
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::ClaimRejected { must_play: Some(m), .. } if m == "e4"
    )));
    assert_eq!(g.clock().remaining_at(Side::Black, 1_000), before + 60_000);
    assert!(matches!(
        g.apply(&san(2_000, "d4")),
        Err(Rejection::MustPlayDeclaredMove { .. })
    ));
    g.apply(&san(2_000, "e4")).unwrap();
    // claim by the player not having the move is refused
    assert!(matches!(
        g.apply(&GameEvent::DrawClaim {
            at: 3_000,
            by: Side::White,
            rule: ClaimRule::Threefold,
            intended: None
        }),
        Err(Rejection::NotYourMove { .. })
    ));
}

#[test]
fn law_6_9_flag_loses_when_the_opponent_can_mate() {
    // Black (lone king) flags; White has a rook: White wins.
    let mut g = game("60", Some("8/8/8/8/8/2k5/8/R3K3 b - - 0 1"));
    assert_eq!(g.flag_instant(), Some(60_000));
    let fx = g.apply(&GameEvent::FlagCheck { at: 60_000 }).unwrap();
    assert!(fx.contains(&Effect::FlagFell {
        side: Side::Black,
        at: 60_000
    }));
    assert_eq!(ended(&g), (GameResult::WhiteWins, Termination::FlagFall));
    assert_eq!(g.clock().remaining_at(Side::Black, 70_000), 0);
}

#[test]
fn law_6_9_flag_is_a_draw_when_the_opponent_cannot_mate() {
    // White (with the rook) flags against a lone king: draw.
    let mut g = game("60", Some("8/8/8/8/8/2k5/8/R3K3 w - - 0 1"));
    // a move arriving after the flag instant: the flag fell first, at its exact instant
    let fx = g.apply(&san(65_000, "Ra2")).unwrap();
    assert!(fx.contains(&Effect::EventAfterFlagIgnored));
    let end = g.end().unwrap();
    assert_eq!(end.termination, Termination::FlagFallOpponentCannotMate);
    assert_eq!(end.result, GameResult::Draw);
    assert_eq!(end.at, 60_000);
    assert!(g.plies().is_empty());
}

#[test]
fn law_7_5_5_standard_two_minutes_then_loss() {
    let mut g = game("5400+30", None);
    let fx = g
        .apply(&GameEvent::IllegalMoveCompleted {
            at: 5_000,
            by: Side::White,
            completed_at_ply: None,
        })
        .unwrap();
    assert!(fx.contains(&Effect::TimeAdded {
        side: Side::Black,
        ms: 120_000,
        article: "7.5.5"
    }));
    let mut t = 5_000;
    play(&mut g, &mut t, &["e4", "e5"]);
    g.apply(&GameEvent::IllegalMoveCompleted {
        at: t + 1,
        by: Side::White,
        completed_at_ply: None,
    })
    .unwrap();
    assert_eq!(
        ended(&g),
        (GameResult::BlackWins, Termination::SecondIllegalMove)
    );
}

#[test]
fn law_7_5_5_second_illegal_move_is_a_draw_if_the_opponent_cannot_mate() {
    let mut g = game("5400+30", Some("8/8/8/8/8/2k5/8/R3K3 w - - 0 1"));
    for at in [1_000, 2_000] {
        g.apply(&GameEvent::IllegalMoveCompleted {
            at,
            by: Side::White,
            completed_at_ply: None,
        })
        .unwrap();
    }
    assert_eq!(
        ended(&g),
        (
            GameResult::Draw,
            Termination::SecondIllegalMoveOpponentCannotMate
        )
    );
}

#[test]
fn law_7_5_1_standard_late_detection_reinstates_the_position() {
    let mut g = game("5400+30", None);
    let mut t = 0;
    play(&mut g, &mut t, &["e4", "e5", "Nf3", "Nc6"]);
    // the arbiter finds White's 2nd move (ply 2) was illegal on the board
    let fx = g
        .apply(&GameEvent::IllegalMoveCompleted {
            at: t + 1_000,
            by: Side::White,
            completed_at_ply: Some(2),
        })
        .unwrap();
    assert!(fx.contains(&Effect::PositionReinstated { plies: 2 }));
    assert_eq!(g.plies().len(), 2);
    assert_eq!(g.side_to_move(), Side::White);
    assert_eq!(g.clock().side_to_move(), Some(Side::White));
    assert_eq!(g.clock().moves_completed(Side::White), 1);
    play(&mut g, &mut t, &["Bc4"]);
}

#[test]
fn law_a_5_2_rapid_one_minute_and_the_move_stands_once_the_opponent_moved() {
    let mut g = game("900+10", None);
    assert_eq!(g.config().supervision, Supervision::Partial);
    let mut t = 0;
    play(&mut g, &mut t, &["e4", "e5", "Nf3"]);
    // White's Nf3 (ply 2) illegal, Black has not moved yet: corrected, +1 min (A.3)
    let before = g.clock().remaining_at(Side::Black, t + 1_000);
    let fx = g
        .apply(&GameEvent::IllegalMoveCompleted {
            at: t + 1_000,
            by: Side::White,
            completed_at_ply: Some(2),
        })
        .unwrap();
    assert!(fx.contains(&Effect::TimeAdded {
        side: Side::Black,
        ms: 60_000,
        article: "7.5.5"
    }));
    assert_eq!(
        g.clock().remaining_at(Side::Black, t + 1_000),
        before + 60_000
    );
    t += 1_000;
    play(&mut g, &mut t, &["Nc3", "Nc6"]);
    // White's Nc3 (ply 2) found illegal after Black replied: it stands
    assert_eq!(
        g.apply(&GameEvent::IllegalMoveCompleted {
            at: t + 1_000,
            by: Side::White,
            completed_at_ply: Some(2),
        }),
        Err(Rejection::IllegalMoveStands)
    );
}

#[test]
fn law_a_4_rapid_with_competition_rules_corrects_late() {
    let mut cfg = GameConfig::new(tc("900+10"));
    cfg.supervision = Supervision::CompetitionRules;
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let mut t = 0;
    play(&mut g, &mut t, &["e4", "e5", "Nf3", "Nc6"]);
    g.apply(&GameEvent::IllegalMoveCompleted {
        at: t + 1,
        by: Side::White,
        completed_at_ply: Some(2),
    })
    .unwrap();
    assert_eq!(g.plies().len(), 2);
}

#[test]
fn laws_2018_edition_rapid_penalty_is_two_minutes() {
    let mut cfg = GameConfig::new(tc("900+10"));
    cfg.edition = LawsEdition::Laws2018;
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let fx = g
        .apply(&GameEvent::IllegalMoveCompleted {
            at: 1,
            by: Side::White,
            completed_at_ply: None,
        })
        .unwrap();
    assert!(fx.contains(&Effect::TimeAdded {
        side: Side::Black,
        ms: 120_000,
        article: "7.5.5"
    }));
}

#[test]
fn rejections_are_typed_and_leave_the_game_unchanged() {
    let mut cfg = GameConfig::new(tc("300+2"));
    cfg.start_fen = None;
    let mut g = Game::new(cfg).unwrap();
    assert_eq!(g.apply(&san(0, "e4")), Err(Rejection::NotStarted));
    g.apply(&GameEvent::Start { at: 10 }).unwrap();
    assert!(matches!(
        g.apply(&san(5, "e4")),
        Err(Rejection::TimeWentBackwards { last: 10, got: 5 })
    ));
    assert!(matches!(
        g.apply(&san(20, "e5")),
        Err(Rejection::IllegalMove { .. })
    ));
    assert!(matches!(
        g.apply(&san(20, "Zz9")),
        Err(Rejection::UnreadableMove { .. })
    ));
    assert!(matches!(
        g.apply(&GameEvent::Move {
            at: 20,
            mv: MoveText::Uci("e2e5".into())
        }),
        Err(Rejection::IllegalMove { .. })
    ));
    assert!(g.plies().is_empty());
    g.apply(&GameEvent::Move {
        at: 20,
        mv: MoveText::Uci("e2e4".into()),
    })
    .unwrap();
    assert!(matches!(
        Game::new(GameConfig {
            start_fen: Some("not a fen".into()),
            ..GameConfig::new(tc("300"))
        }),
        Err(Rejection::BadStartPosition { .. })
    ));
}

#[test]
fn guidelines_iii_3_both_flags_final_period_draw_other_period_continues() {
    let mut cfg = GameConfig::new(tc("40/7200:1800"));
    cfg.quickplay_guidelines = true;
    let mut g = Game::new(cfg.clone()).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let fx = g
        .apply(&GameEvent::BothFlagsFallen {
            at: 1_000,
            first: None,
        })
        .unwrap();
    assert_eq!(fx, vec![Effect::PlayContinues]);

    let mut g = game("1800", None);
    assert_eq!(
        g.apply(&GameEvent::BothFlagsFallen {
            at: 1_000,
            first: None
        }),
        Err(Rejection::FlagOrderUnknown),
        "not announced"
    );
    let mut cfg = GameConfig::new(tc("1800"));
    cfg.quickplay_guidelines = true;
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    g.apply(&GameEvent::BothFlagsFallen {
        at: 1_000,
        first: None,
    })
    .unwrap();
    assert_eq!(
        ended(&g),
        (GameResult::Draw, Termination::BothFlagsFallenFinalPeriod)
    );
}

#[test]
fn guidelines_iii_5_quickplay_claim() {
    let mut cfg = GameConfig::new(tc("900"));
    cfg.quickplay_guidelines = true;
    let mut g = Game::new(cfg.clone()).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    // more than two minutes left: not allowed
    assert!(matches!(
        g.apply(&GameEvent::QuickplayFinishClaim {
            at: 1_000,
            by: Side::White,
            decision: QuickplayDecision::Draw
        }),
        Err(Rejection::GuidelinesIIINotApplicable { .. })
    ));
    let fx = g
        .apply(&GameEvent::QuickplayFinishClaim {
            at: 800_000,
            by: Side::White,
            decision: QuickplayDecision::Rejected,
        })
        .unwrap();
    assert!(fx.contains(&Effect::TimeAdded {
        side: Side::Black,
        ms: 120_000,
        article: "Guidelines III.5.3"
    }));
    g.apply(&GameEvent::QuickplayFinishClaim {
        at: 800_500,
        by: Side::White,
        decision: QuickplayDecision::Draw,
    })
    .unwrap();
    assert_eq!(
        ended(&g),
        (GameResult::Draw, Termination::QuickplayFinishClaim)
    );
    // with increment: not applicable (III.2.2)
    let mut cfg = GameConfig::new(tc("900+10"));
    cfg.quickplay_guidelines = true;
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    assert!(matches!(
        g.apply(&GameEvent::QuickplayFinishClaim {
            at: 800_000,
            by: Side::White,
            decision: QuickplayDecision::Draw
        }),
        Err(Rejection::GuidelinesIIINotApplicable { .. })
    ));
}

#[test]
fn guidelines_iii_4_five_second_increment_and_two_minutes() {
    let mut cfg = GameConfig::new(tc("900"));
    cfg.quickplay_guidelines = true;
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    let fx = g
        .apply(&GameEvent::QuickplayIncrementRequest {
            at: 850_000,
            by: Side::White,
            arbiter_grants: true,
        })
        .unwrap();
    assert!(fx.contains(&Effect::IncrementIntroduced { ms: 5_000 }));
    assert_eq!(g.clock().remaining_at(Side::Black, 850_000), 1_020_000);
    // White moves with 50 s left, then has 50 − 1 + 5 s
    let fx = g.apply(&san(851_000, "e4")).unwrap();
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::MovePlayed {
            remaining_ms: 54_000,
            ..
        }
    )));
    // now the game has an increment: Guidelines III no longer apply
    assert!(matches!(
        g.apply(&GameEvent::QuickplayFinishClaim {
            at: 852_000,
            by: Side::Black,
            decision: QuickplayDecision::Draw
        }),
        Err(Rejection::GuidelinesIIINotApplicable { .. })
    ));
}

#[test]
fn pause_adjust_resign_and_pgn_export() {
    let mut g = game("300+2", None);
    let mut t = 0;
    play(&mut g, &mut t, &["e4", "c5"]);
    g.apply(&GameEvent::Pause { at: 3_000 }).unwrap();
    g.apply(&GameEvent::AdjustTime {
        at: 4_000,
        side: Side::White,
        delta_ms: 60_000,
    })
    .unwrap();
    g.apply(&GameEvent::Resume { at: 100_000 }).unwrap();
    // 302 s at start, e4 after 1 s: 303 s; paused after 1 s more: 302 s; +60 s
    assert_eq!(g.flag_instant(), Some(100_000 + 362_000));
    g.apply(&GameEvent::Resign {
        at: 101_000,
        by: Side::Black,
    })
    .unwrap();
    let pgn = g.to_pgn(&[("White".into(), "A".into()), ("Result".into(), "*".into())]);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"300+2\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e4 {[%clk 0:05:03]} c5 {[%clk 0:05:03]} 1-0"),
        "{pgn}"
    );
}

#[test]
fn armageddon_black_flag_at_four_minutes() {
    let mut cfg = GameConfig::new(TimeControl::parse_trf222("W300-B240").unwrap());
    cfg.start_fen = Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into());
    let mut g = Game::new(cfg).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    assert_eq!(g.flag_instant(), Some(240_000));
    g.apply(&GameEvent::FlagCheck { at: 240_000 }).unwrap();
    assert_eq!(ended(&g), (GameResult::WhiteWins, Termination::FlagFall));
}

#[test]
fn simple_delay_flag_comes_after_the_delay() {
    use clock::{MoveBonus, Period, PlayerControl};
    let pc = PlayerControl::new(vec![Period::sudden_death(
        60_000,
        MoveBonus::SimpleDelay(5_000),
    )])
    .unwrap();
    let mut g = Game::new(GameConfig::new(TimeControl::symmetric(pc))).unwrap();
    g.apply(&GameEvent::Start { at: 0 }).unwrap();
    assert_eq!(g.flag_instant(), Some(65_000));
    // a move within the delay costs no main time
    g.apply(&san(4_000, "e4")).unwrap();
    assert_eq!(g.clock().remaining_at(Side::White, 4_000), 60_000);
    assert_eq!(g.flag_instant(), Some(4_000 + 65_000));
}

#[test]
fn laws_2018_and_2023_blitz_penalty_is_one_minute() {
    for edition in [LawsEdition::Laws2018, LawsEdition::Laws2023] {
        let mut cfg = GameConfig::new(tc("180+2"));
        cfg.edition = edition;
        let mut g = Game::new(cfg).unwrap();
        g.apply(&GameEvent::Start { at: 0 }).unwrap();
        let fx = g
            .apply(&GameEvent::DrawClaim {
                at: 1,
                by: Side::White,
                rule: ClaimRule::FiftyMoves,
                intended: None,
            })
            .unwrap();
        assert!(fx.contains(&Effect::TimeAdded {
            side: Side::Black,
            ms: 60_000,
            article: "9.5.3"
        }));
    }
}
