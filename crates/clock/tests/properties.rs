//! Property tests: random legal move sequences mixed with random clock and arbiter events never
//! panic, rejections change nothing, and times are never negative (nor absurdly large, which
//! is how an unsigned underflow would show).

use clock::laws::{
    ClaimRule, Game, GameConfig, GameEvent, MoveText, QuickplayDecision, Supervision,
};
use clock::{
    ChessClock, IncrementCredit, MoveBonus, Period, PlayerControl, Side, TimeControl,
    TimeControlTag,
};
use proptest::prelude::*;

fn controls() -> Vec<TimeControl> {
    let pc = |p: Vec<Period>| PlayerControl::new(p).unwrap();
    vec![
        TimeControl::fischer(60_000, 0).unwrap(),
        TimeControl::fischer(180_000, 2_000).unwrap(),
        TimeControl::fischer(900_000, 10_000).unwrap(),
        match TimeControlTag::parse("40/7200:1800+30").unwrap() {
            TimeControlTag::Timed(t) => t,
            _ => unreachable!(),
        },
        TimeControl::symmetric(pc(vec![
            Period::moves_in(3, 20_000, MoveBonus::None),
            Period::moves_in(2, 10_000, MoveBonus::Increment(1_000)),
        ])),
        TimeControl::symmetric(pc(vec![Period::sudden_death(
            30_000,
            MoveBonus::SimpleDelay(3_000),
        )])),
        TimeControl::symmetric(pc(vec![Period::sudden_death(
            30_000,
            MoveBonus::Bronstein(3_000),
        )])),
        TimeControl::parse_trf222("W300-B240").unwrap(),
    ]
}

#[derive(Debug, Clone)]
struct Op {
    kind: u8,
    choice: u16,
    dt: u32,
}

fn op() -> impl Strategy<Value = Op> {
    (
        0u8..20,
        any::<u16>(),
        prop_oneof![0u32..3_000, 0u32..200_000],
    )
        .prop_map(|(kind, choice, dt)| Op { kind, choice, dt })
}

fn side(choice: u16) -> Side {
    if choice.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    }
}

fn event(g: &Game, op: &Op, t: u64) -> GameEvent {
    let at = t;
    let c = op.choice;
    match op.kind {
        0..=8 => {
            let moves = g.legal_moves_uci();
            if moves.is_empty() {
                GameEvent::FlagCheck { at }
            } else {
                let uci = moves[c as usize % moves.len()].clone();
                GameEvent::Move {
                    at,
                    mv: MoveText::Uci(uci),
                }
            }
        }
        9 => GameEvent::Pause { at },
        10 => GameEvent::Resume { at },
        11 => GameEvent::AdjustTime {
            at,
            side: side(c),
            delta_ms: i64::from(c as i16) * 100,
        },
        12 => GameEvent::IllegalMoveCompleted {
            at,
            by: side(c),
            completed_at_ply: if c.is_multiple_of(3) {
                None
            } else {
                Some(u32::from(c % 64))
            },
        },
        13 => GameEvent::DrawClaim {
            at,
            by: side(c),
            rule: if c.is_multiple_of(2) {
                ClaimRule::Threefold
            } else {
                ClaimRule::FiftyMoves
            },
            intended: (c % 4 == 1).then(|| MoveText::San("Nf3".into())),
        },
        14 => GameEvent::FlagCheck {
            at: g.flag_instant().unwrap_or(at).max(at),
        },
        15 => GameEvent::BothFlagsFallen {
            at,
            first: (!c.is_multiple_of(3)).then(|| side(c)),
        },
        16 => GameEvent::QuickplayFinishClaim {
            at,
            by: side(c),
            decision: match c % 3 {
                0 => QuickplayDecision::Draw,
                1 => QuickplayDecision::Postponed,
                _ => QuickplayDecision::Rejected,
            },
        },
        17 => GameEvent::Move {
            at,
            mv: MoveText::San(format!("{}x{}", c % 7, c % 11)),
        },
        18 => GameEvent::Move {
            at: at.saturating_sub(u64::from(op.dt) + 1),
            mv: MoveText::Uci("e2e4".into()),
        },
        19 => GameEvent::QuickplayIncrementRequest {
            at,
            by: side(c),
            arbiter_grants: !c.is_multiple_of(4),
        },
        _ => GameEvent::Start { at },
    }
}

type Observable = (
    String,
    usize,
    Option<clock::laws::GameEnd>,
    [u64; 2],
    Option<u64>,
    [u8; 2],
);

fn observe(g: &Game, t: u64) -> Observable {
    (
        g.fen(),
        g.plies().len(),
        g.end(),
        g.clock().remaining_both_at(t),
        g.flag_instant(),
        g.illegal_moves(),
    )
}

/// Far above anything a game can accumulate here (base + increments + adjustments).
const BOUND: u64 = 100_000_000_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn random_games_never_panic_and_rejections_change_nothing(
        control in 0usize..8,
        credit_at_press in any::<bool>(),
        rapid_competition in any::<bool>(),
        quickplay in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..160),
    ) {
        let mut cfg = GameConfig::new(controls()[control].clone());
        if credit_at_press {
            cfg.credit = IncrementCredit::AtPress;
        }
        if rapid_competition {
            cfg.supervision = Supervision::CompetitionRules;
        }
        cfg.quickplay_guidelines = quickplay;
        let mut g = Game::new(cfg).unwrap();
        let mut t = 0u64;
        g.apply(&GameEvent::Start { at: 0 }).unwrap();
        for op in &ops {
            t += u64::from(op.dt);
            let ev = event(&g, op, t);
            let before = observe(&g, t.max(ev.at()));
            match g.apply(&ev) {
                Ok(_) => {}
                Err(_) => {
                    prop_assert_eq!(before, observe(&g, t.max(ev.at())), "{:?}", ev);
                }
            }
            let [w, b] = g.clock().remaining_both_at(t.max(g.clock().last_instant()));
            prop_assert!(w < BOUND && b < BOUND, "times {} {}", w, b);
            for p in g.plies() {
                prop_assert!(p.remaining_ms < BOUND);
            }
            if let Some(fi) = g.flag_instant() {
                prop_assert!(fi >= g.clock().last_instant());
                prop_assert!(g.end().is_none());
            }
            if g.end().is_some() {
                prop_assert_eq!(g.flag_instant(), None);
            }
        }
        // export never panics and ends with the result
        let pgn = g.to_pgn(&[]);
        let res = g.end().map_or("*", |e| e.result.to_pgn());
        prop_assert!(pgn.trim_end().ends_with(res));
    }

    #[test]
    fn a_running_clock_only_goes_down(
        control in 0usize..8,
        presses in proptest::collection::vec(0u64..20_000, 1..60),
        probe in 0u64..20_000,
    ) {
        let mut c = ChessClock::new(controls()[control].clone(), IncrementCredit::AtStartOfMove);
        c.start(Side::White, 0).unwrap();
        let mut t = 0;
        let mut s = Side::White;
        for d in presses {
            let a = c.remaining_at(s, t + probe / 2);
            let b = c.remaining_at(s, t + probe);
            prop_assert!(b <= a);
            t += d;
            if c.press(s, t).is_err() {
                prop_assert!(c.fallen_flag().is_some());
                prop_assert_eq!(c.remaining_at(s, t), 0);
                break;
            }
            s = s.other();
        }
    }

    #[test]
    fn trf222_round_trips(
        moves in 30u32..60, base in 1u64..20_000, second in 1u64..5_000,
        inc in 0u64..60, w in 1u64..1_000, bl in 1u64..1_000,
    ) {
        for text in [
            format!("{moves}/{base}:{second}+{inc}"),
            format!("{base}+{inc}"),
            format!("W{w}-B{bl}"),
        ] {
            let tc = TimeControl::parse_trf222(&text).unwrap();
            let back = tc.to_trf222().unwrap();
            let expect = if w == bl && text.starts_with('W') {
                w.to_string()
            } else {
                text.replace("+0", "")
            };
            prop_assert_eq!(back, expect);
        }
    }

    #[test]
    fn time_control_parsers_never_panic(s in "\\PC{0,40}") {
        let _ = TimeControlTag::parse(&s);
        let _ = TimeControl::parse_trf222(&s);
        let _ = TimeControl::parse_free_text(&s);
        let _ = clock::pgn_replay::parse_hms(&s);
    }

    #[test]
    fn pgn_replay_never_panics_on_arbitrary_text(s in "[ -~\\n]{0,300}") {
        let _ = clock::pgn_replay::replay_pgn(s.as_bytes(), &Default::default());
    }
}
